"""Which games exist: command-line name → rules module (imported on first use)."""

from __future__ import annotations

import importlib

from narrator.rules.base import RulesInfo

#: command-line name → module defining ``INFO: RulesInfo``
GAMES: dict[str, str] = {
    "slow-burn": "narrator.rules.slow_burn",
    "blades": "narrator.rules.blades",
    "hell-for-leather": "narrator.rules.hell_for_leather",
    "intensity": "narrator.rules.intensity",
    "half-chance": "narrator.rules.half_chance",
    "higher-lower": "narrator.rules.higher_lower",
}


def names() -> list[str]:
    """Every game's command-line name."""
    return list(GAMES)


def get(name: str) -> RulesInfo:
    """The game called ``name`` (its name, an alias or its script folder name).

    Raises ``KeyError`` with the known names when there is none.
    """
    key = name.strip().lower().replace("_", "-")
    for game, module in GAMES.items():
        info: RulesInfo = importlib.import_module(module).INFO
        if key == game or key in info.aliases:
            return info
    raise KeyError(f"no game called {name!r}; known games: {', '.join(GAMES)}")
