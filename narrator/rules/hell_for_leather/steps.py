"""Hell for Leather's table of steps and the answers its steps share.

Every step is declared on ``STEPS`` (see narrator/rules/flow.py); a queued step is
``(name, *args)``, e.g. ``("die", level)``.
"""

from __future__ import annotations

from narrator.rules.base import AcceptContinue, AcceptDice, AcceptWords
from narrator.rules.flow import Steps

STEPS = Steps()

ROLL_REFUSAL = ("Hell for Leather is a game of skill: throw the d10 at the Conflict Target "
                "yourselves and tell me what it did.")


def words(*options: str, numbered: tuple[str, ...] = ()) -> AcceptWords:
    return AcceptWords(tuple(options), numbered)


def choices(names: list[str]) -> list[str]:
    """"1 Ash", "2 Blue": members offered by number (read as "1 Ash, 2 Blue and 3 Cato")."""
    return [f"{i} {n}" for i, n in enumerate(names, 1)]


NEXT = AcceptContinue()
NO_ROLLING = AcceptDice(10, can_roll=False, roll_refusal=ROLL_REFUSAL)
