"""Hell for Leather's table of steps and the answers its steps share.

Every step is declared on ``STEPS`` (see narrator/rules/flow.py); a queued step is
``(name, *args)``, e.g. ``("die", level)``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from narrator.events import Line
from narrator.rules.base import Accept, AcceptContinue, AcceptDice, AcceptWords, Expectation
from narrator.rules.flow import Steps, ask
from narrator.rules.hell_for_leather.model import State

STEPS = Steps()

ROLL_REFUSAL = ("Hell for Leather is a game of skill: throw the d10 at the Conflict Target "
                "yourselves and tell me what it did.")


def words(*options: str, numbered: tuple[str, ...] = ()) -> AcceptWords:
    return AcceptWords(tuple(options), numbered)


def said(s: State, key: str, params: dict[str, Any] | None = None) -> Line:
    """Line ``key`` in full the first time the table hears it, then in its short form
    (``key.short``, in the script): "help" and "what now" still say what can be said and why.
    The rules remember what was heard (``HellForLeather.apply``)."""
    line = Line(key, params or {})
    return replace(line, key=f"{key}.short") if key in s.heard else line


def asked(s: State, key: str, *accepts: Accept, **options: Any) -> Expectation:
    """``ask``, in full the first time, then in the short form (see ``said``)."""
    expectation = ask(key, *accepts, **options)
    return replace(expectation, prompt=said(s, key, expectation.prompt.params))


def choices(names: list[str]) -> list[str]:
    """"1 Ash", "2 Blue": members offered by number (read as "1 Ash, 2 Blue and 3 Cato")."""
    return [f"{i} {n}" for i, n in enumerate(names, 1)]


NEXT = AcceptContinue()
NO_ROLLING = AcceptDice(10, can_roll=False, roll_refusal=ROLL_REFUSAL)
