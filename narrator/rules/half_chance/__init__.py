"""Half-Chance: a GM-less card game whose cards are followed down by coin flips.

``INFO`` registers it; ``lint_cards(script)`` checks a script's deck (for ``narrator check``).
"""

from narrator.rules.base import RulesInfo
from narrator.rules.half_chance.cards import lint_cards
from narrator.rules.half_chance.rules import HalfChance

INFO = RulesInfo(
    rules=HalfChance(),
    title="Half-Chance",
    summary="Play Wander, Encounter and Condition cards, moving down each by coin flips.",
    aliases=("halfchance", "half chance"),
)

__all__ = ["INFO", "HalfChance", "lint_cards"]
