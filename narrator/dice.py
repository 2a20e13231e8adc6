"""Virtual dice and coins: fair, seedable, and the odds a table asks about."""

from __future__ import annotations

import random
from fractions import Fraction


class Roller:
    """Rolls fair dice from its own seeded generator (tests pass a seed; play uses the OS)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        """``count`` faces of a ``sides``-sided die."""
        return tuple(self._rng.randint(1, sides) for _ in range(count))


def chance_at_most(target: int, sides: int) -> Fraction:
    """Chance that one die shows ``target`` or less."""
    return Fraction(max(0, min(target, sides)), sides)


def count_at_most(faces: tuple[int, ...] | list[int], target: int) -> int:
    """How many faces are ``target`` or less (a success in the roll-under games)."""
    return sum(1 for f in faces if f <= target)
