"""The game as a queue of pending steps.

``State.todo`` holds what happens next. A *question* step has an ``ask`` (the Expectation) and an
``act`` (what an answer does); an *automatic* step runs as soon as it reaches the head of the
queue. Each module registers its steps with ``@asks``, ``@acts`` and ``@auto``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from narrator.events import Continue, Dice, GameInput, Line, Number, Say, Text, Word
from narrator.rules.base import (
    Accept, AcceptContinue, AcceptDice, AcceptNumber, AcceptText, AcceptWords, Expectation, Step,
    reject,
)
from narrator.rules.hell_for_leather.model import State, Todo

Act = Callable[[State, GameInput, Todo], "Step | tuple[State, tuple[Say, ...]]"]
ASK: dict[str, Callable[[State, Todo], Expectation]] = {}
ACT: dict[str, Act] = {}
AUTO: dict[str, Callable[[State, Todo], tuple[State, tuple[Say, ...]]]] = {}

ROLL_REFUSAL = ("Hell for Leather is a game of skill: throw the d10 at the Conflict Target "
                "yourselves and tell me what it did.")


def asks(kind: str):
    def register(fn):
        assert kind not in AUTO, f"step {kind!r} is both a question and automatic"
        ASK[kind] = fn
        return fn
    return register


def acts(kind: str):
    def register(fn):
        ACT[kind] = fn
        return fn
    return register


def auto(kind: str):
    def register(fn):
        assert kind not in ASK and kind not in AUTO, f"step {kind!r} registered twice"
        AUTO[kind] = fn
        return fn
    return register


def todo(kind: str, *args: Any) -> Todo:
    return Todo(kind, args)


def pop(s: State) -> State:
    return replace(s, todo=s.todo[1:])


def push(s: State, *steps: Todo) -> State:
    """Put ``steps`` at the head of the queue, in order."""
    return replace(s, todo=tuple(steps) + s.todo)


def settle(s: State) -> tuple[State, tuple[Say, ...]]:
    """Run automatic steps until a question (or nothing) is at the head of the queue."""
    said: list[Say] = []
    while s.todo and s.todo[0].kind in AUTO:
        head = s.todo[0]
        s, say = AUTO[head.kind](pop(s), head)
        said.extend(say)
    return s, tuple(said)


def expectation(s: State) -> Expectation:
    if not s.todo:
        return Expectation(Line(f"over.{s.outcome or 'lost'}"), ())
    return ASK[s.todo[0].kind](s, s.todo[0])


def apply(s: State, given: GameInput) -> Step:
    """Check ``given`` against what is asked, act on it, then run the automatic steps."""
    expect = expectation(s)
    if expect.over:
        return reject(s, "reject.over")
    if not any(fits(a, given) for a in expect.accepts):
        return reject(s, "reject.not_now")
    head = s.todo[0]
    result = ACT[head.kind](pop(s), given, head)
    if isinstance(result, Step):  # a refusal: its state is the popped one, so restore
        return reject(s, result.rejected.key, **result.rejected.params)
    s2, say = result
    s2, more = settle(s2)
    return Step(state=s2, say=tuple(say) + more)


def refuse(key: str, **params: Any) -> Step:
    """An act's refusal; ``apply`` turns it into a rejection with the unchanged state."""
    return reject(None, key, **params)


def fits(accept: Accept, given: GameInput) -> bool:
    """Whether ``given`` is the kind of answer ``accept`` allows."""
    if isinstance(accept, AcceptContinue):
        return isinstance(given, Continue)
    if isinstance(accept, AcceptNumber):
        return isinstance(given, Number) and accept.min <= given.value <= accept.max
    if isinstance(accept, AcceptWords):
        return isinstance(given, Word) and (
            (given.number is None and given.word in accept.words)
            or (given.number is not None and given.word in accept.numbered))
    if isinstance(accept, AcceptText):
        return isinstance(given, Text) and bool(given.text.strip())
    if isinstance(accept, AcceptDice):
        return (isinstance(given, Dice) and accept.min_count <= len(given.faces) <= accept.max_count
                and all(1 <= f <= accept.sides for f in given.faces))
    return False


def ask(key: str, *accepts: Accept, **params: Any) -> Expectation:
    return Expectation(Line(key, params), tuple(accepts))


def words(*options: str, numbered: tuple[str, ...] = ()) -> AcceptWords:
    return AcceptWords(tuple(options), numbered)


def choices(names: list[str]) -> list[str]:
    """"1 Ash", "2 Blue": members offered by number (read as "1 Ash, 2 Blue and 3 Cato")."""
    return [f"{i} {n}" for i, n in enumerate(names, 1)]


NEXT = AcceptContinue()
NO_ROLLING = AcceptDice(10, can_roll=False, roll_refusal=ROLL_REFUSAL)
