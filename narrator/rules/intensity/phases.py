"""The phase table: each phase asks one question (``ask``) and takes its answer (``take``).

Transitions go through ``go(name, state)``: a phase with an ``enter`` function decides there
(it may skip itself, answering automatically), any other phase simply becomes current.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from narrator.events import Dice, GameInput, Line, Number, Say, Text, Word
from narrator.rules.base import (
    AcceptDice, AcceptNumber, AcceptText, AcceptWords, Expectation, Step, reject,
)
from narrator.rules.intensity.model import State

Ask = Callable[[State], Expectation]
Take = Callable[[State, GameInput], Step]


@dataclass(frozen=True)
class Phase:
    ask: Ask
    take: Take


PHASES: dict[str, Phase] = {}
ENTRIES: dict[str, Callable[[State], Step]] = {}


def phase(name: str, ask: Ask) -> Callable[[Take], Take]:
    """Decorator: register ``take`` with its question as phase ``name``."""
    def register(take: Take) -> Take:
        PHASES[name] = Phase(ask, take)
        return take
    return register


def entry(name: str) -> Callable[[Callable[[State], Step]], Callable[[State], Step]]:
    """Decorator: what happens on entering ``name`` (for phases that may answer themselves)."""
    def register(fn: Callable[[State], Step]) -> Callable[[State], Step]:
        ENTRIES[name] = fn
        return fn
    return register


def go(name: str, state: State, *say: Say) -> Step:
    """Enter ``name``, saying ``say`` first."""
    enter = ENTRIES.get(name)
    step = enter(state) if enter else Step(replace(state, phase=name))
    return Step(step.state, tuple(say) + step.say)


def words(key: str, accepted: tuple[str, ...], /, **params) -> Expectation:
    """A question answered by one of the ``accepted`` words (a ``choices`` list reads "a or b")."""
    if "choices" in params:
        params["choices"] = either(params["choices"])
    return Expectation(Line(key, params), (AcceptWords(accepted),))


def either(items: list[str] | tuple[str, ...]) -> str:
    """"calm, invested or passionate": alternatives as they are said aloud."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def check(state: State, expectation: Expectation, given: GameInput) -> Step | None:
    """The refusal for an input the expectation does not accept, or None when it fits."""
    accept = next((a for a in expectation.accepts if _kind(a) is type(given)), None)
    if accept is None:
        return reject(state, "reject.input")
    if isinstance(given, Word) and (given.word not in accept.words or given.number is not None):
        return reject(state, "reject.word", word=given.word, choices=either(accept.words))
    if isinstance(given, Dice):
        if not accept.min_count <= len(given.faces) <= accept.max_count:
            return reject(state, "reject.count", count=accept.max_count)
        bad = [f for f in given.faces if not 1 <= f <= accept.sides]
        if bad:
            return reject(state, "reject.face", face=bad[0], die=f"d{accept.sides}")
    if isinstance(given, Number) and not accept.min <= given.value <= accept.max:
        return reject(state, "reject.number", low=accept.min, high=accept.max)
    return None


def _kind(accept) -> type | None:
    return {AcceptWords: Word, AcceptDice: Dice, AcceptNumber: Number,
            AcceptText: Text}.get(type(accept))
