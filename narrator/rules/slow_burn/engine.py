"""The small interpreter behind Slow Burn's flow.

``State.todo`` is a queue of steps. A step is either a *question* (``expects`` asks it, one
input answers it) or an *action* (done at once: read a track, start a segment, resolve a scene).
Answers and actions may put new steps at the front of the queue. An empty queue is the end.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from narrator.dice import count_at_most
from narrator.events import Continue, Dice, GameInput, Line, ReadTrack, Say, Successes, Text, Word
from narrator.events import Number
from narrator.rules.base import (
    AcceptContinue, AcceptDice, AcceptNumber, AcceptSuccesses, AcceptText, AcceptWords,
    Expectation, Step,
)
from narrator.rules.slow_burn.state import OPPOSITION_TARGET, State

Out = tuple[State, tuple[Say, ...]]
SIDES = 12


class Refused(Exception):
    """An answer the rules cannot take here; ``line`` says why."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.line = Line(key, params)


@dataclass(frozen=True)
class Question:
    expect: Callable[[State, int], Expectation]
    answer: Callable[[State, int, GameInput], Out]


QUESTIONS: dict[str, Question] = {}
ACTIONS: dict[str, Callable[[State, int], Out]] = {}


def question(name: str, expect: Callable[[State, int], Expectation]):
    """Register the decorated ``answer(state, spy, given)`` as the question ``name``."""
    def register(answer: Callable[[State, int, GameInput], Out]):
        QUESTIONS[name] = Question(expect, answer)
        return answer
    return register


def action(name: str):
    """Register the decorated ``act(state, spy)`` as the action ``name``."""
    def register(act: Callable[[State, int], Out]):
        ACTIONS[name] = act
        return act
    return register


def ask(key: str, *accepts, **params: object) -> Expectation:
    return Expectation(Line(key, params), tuple(accepts))


def track(state: State, number: int) -> Out:
    """Read track ``number`` (once per episode when the table chose ``reread=first``)."""
    tid = f"t{number:02d}"
    if state.options.reread == "always":
        return state, (ReadTrack(tid),)
    if tid in state.read:
        return state, ()
    return replace(state, read=state.read + (tid,)), (ReadTrack(tid),)


# --------------------------------------------------------------------------- dice answers

AGENCY_WORDS = ("interference", "no interference")


def roll(count: int, target: int) -> tuple:
    """Accept ``count`` dice as faces or as a success count (none can succeed below 1)."""
    return (AcceptSuccesses(count if target >= 1 else 0), AcceptDice(SIDES, count, count))


def agency_roll(count: int) -> tuple:
    """Accept Agency dice as faces, or "interference" / "no interference"."""
    return (AcceptWords(AGENCY_WORDS), AcceptDice(SIDES, count, count))


def faces_said(given: GameInput) -> tuple[Say, ...]:
    """Read back the faces a player gave (the session already said the app's own roll)."""
    if not isinstance(given, Dice) or given.by_app:
        return ()
    return (Line("roll.faces", {"faces": list(given.faces)}),)


def successes(given: GameInput, target: int = OPPOSITION_TARGET) -> int:
    """Successes in a roll given as faces (each at ``target`` or under) or as a count."""
    if isinstance(given, Dice):
        return count_at_most(given.faces, target)
    assert isinstance(given, Successes)
    return given.count


def interferes(given: GameInput, target: int) -> bool:
    """Did Agency dice (faces or the word) interfere?"""
    if isinstance(given, Dice):
        return any(face <= target for face in given.faces)
    assert isinstance(given, Word)
    return given.word == "interference"


def outcome(spies: int, opposition: int, tie: str) -> Line:
    """Track 13: more successes decides; a tie goes the way the table chose."""
    if spies == opposition:
        return Line(f"said.{tie}")
    return Line("said.favourable" if spies > opposition else "said.unfavourable")


# --------------------------------------------------------------------------- the interpreter


def expects(state: State) -> Expectation:
    if not state.todo:
        return ask("ask.over")
    name, who = state.todo[0]
    return QUESTIONS[name].expect(state, who)


def apply(state: State, given: GameInput) -> Step:
    expectation = expects(state)
    if expectation.over:
        return Step(state, rejected=Line("reject.over"))
    problem = misfit(expectation, given)
    if problem is not None:
        return Step(state, rejected=problem)
    name, who = state.todo[0]
    try:
        new, said = QUESTIONS[name].answer(replace(state, todo=state.todo[1:]), who, given)
    except Refused as refusal:
        return Step(state, rejected=refusal.line)
    new, more = run(new)
    return Step(new, said + more)


def run(state: State) -> Out:
    """Do every action at the front of the queue, up to the next question or the end."""
    said: tuple[Say, ...] = ()
    while state.todo and state.todo[0][0] in ACTIONS:
        name, who = state.todo[0]
        state, more = ACTIONS[name](replace(state, todo=state.todo[1:]), who)
        said += more
    return state, said


SPEC = {Continue: AcceptContinue, Dice: AcceptDice, Successes: AcceptSuccesses,
        Number: AcceptNumber, Word: AcceptWords, Text: AcceptText}


def misfit(expectation: Expectation, given: GameInput) -> Line | None:
    """Why ``given`` does not answer the question (None when it does)."""
    spec = expectation.find(SPEC.get(type(given), type(None)))
    if spec is None:
        return Line("reject.not_now")
    if isinstance(given, Dice):
        if not spec.min_count <= len(given.faces) <= spec.max_count:
            return Line("reject.dice_count", {"heard": len(given.faces), "wanted": spec.max_count})
        bad = [f for f in given.faces if not 1 <= f <= spec.sides]
        if bad:
            return Line("reject.face", {"face": bad[0], "sides": spec.sides})
    elif isinstance(given, Successes) and not 0 <= given.count <= spec.max:
        return Line("reject.successes", {"count": given.count, "max": spec.max})
    elif isinstance(given, Number) and not spec.min <= given.value <= spec.max:
        return Line("reject.number", {"value": given.value, "min": spec.min, "max": spec.max})
    elif isinstance(given, Word) and given.word not in spec.words:
        return Line("reject.word", {"word": given.word, "words": list(spec.words)})
    elif isinstance(given, Text) and not given.text.strip():
        return Line("reject.blank")
    return None
