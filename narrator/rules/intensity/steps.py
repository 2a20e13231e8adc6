"""Intensity's table of steps (run by narrator/rules/flow.py) and the helpers its steps share.

A question and the action that may answer it for the table share a name where both exist: the
action ("raise") is entered with ``go`` and decides whether to ask ("raise.ask") or skip ahead.
"""

from __future__ import annotations

from narrator.events import Line, Say
from narrator.rules.base import AcceptWords, Expectation
from narrator.rules.flow import Out, Steps, push
from narrator.rules.intensity.model import State

STEPS = Steps()


def go(name: str, state: State, *say: Say) -> Out:
    """Go to step ``name`` next, saying ``say`` first."""
    return push(state, (name,)), tuple(say)


def words(key: str, accepted: tuple[str, ...], /, **params) -> Expectation:
    """A question answered by one of the ``accepted`` words (a ``choices`` list reads "a or b")."""
    if "choices" in params:
        params["choices"] = either(params["choices"])
    return Expectation(Line(key, params), (AcceptWords(accepted),))


def either(items: list[str] | tuple[str, ...]) -> str:
    """"calm, invested or passionate": alternatives as they are said aloud."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
