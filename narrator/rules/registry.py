"""Which games exist: command-line name → rules module (imported on first use), and which rules
a loaded script is played by."""

from __future__ import annotations

import importlib
from dataclasses import replace

from narrator.rules.base import RulesInfo
from narrator.script.model import Script

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


def find(name: str) -> RulesInfo | None:
    """The built-in game called ``name`` (its name, an alias or its script folder name)."""
    key = name.strip().lower().replace("_", "-")
    for game, module in GAMES.items():
        info: RulesInfo = importlib.import_module(module).INFO
        if key == game or key in info.aliases:
            return info
    return None


def get(name: str) -> RulesInfo:
    """The built-in game called ``name``; ``KeyError`` with the known names when there is none."""
    info = find(name)
    if info is None:
        raise KeyError(f"no game called {name!r}; known games: {', '.join(GAMES)}")
    return info


def for_script(script: Script) -> tuple[RulesInfo, Script]:
    """The rules that play ``script`` and the script they play: the built-in module its
    ``rules:`` names, bound to the script's game data, else the track engine walking its tracks
    (with the engine's default prompts added). KeyError when ``rules:`` names no game."""
    if script.rules is None:
        from narrator.rules.tracks import track_game
        return track_game(script)
    return bound(get(script.rules), script), script


def bound(info: RulesInfo, script: Script) -> RulesInfo:
    """The game ``info`` with its rules bound to ``script``'s game data (a Half-Chance deck)."""
    return replace(info, rules=info.rules.for_script(script))
