"""Why each question of a game waits ("what now"), given for a whole table of steps at once.

``with_whys(steps, why_key)`` makes every question of ``steps`` carry a ``why``: the prompt
``why_key(prompt key)`` of the game's script, filled with the question's own fields. A question
that already names its own why keeps it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from narrator.events import Line
from narrator.rules.base import Expectation
from narrator.rules.flow import Ask, Steps


def with_whys(steps: Steps, why_key: Callable[[str], str]) -> None:
    for name, step in list(steps.table.items()):
        if isinstance(step, Ask):
            steps.table[name] = Ask(_explained(step.expect, why_key), step.answer)


def _explained(expect: Callable[..., Expectation], why_key: Callable[[str], str]):
    def explained(state, *args) -> Expectation:
        expectation = expect(state, *args)
        if expectation.why is not None:
            return expectation
        prompt = expectation.prompt
        return replace(expectation, why=Line(why_key(prompt.key), prompt.params))
    return explained
