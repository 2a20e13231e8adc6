"""The flow kernel every game runs on: a table of steps and a queue of what comes next.

A game declares its steps in a ``Steps`` table, each by name:

* a **question** says what to ask and what answers it (``expect(state, *args) ->
  Expectation``) and what an answer does (``answer(state, given, *args) -> (state, said)``);
* an **action** is done at once (``act(state, *args) -> (state, said)``): read a track, start a
  round, settle a roll.

The state is a frozen dataclass with a ``todo`` field: the queue of steps still to come, each a
tuple ``(name, *args)``. A step says where the game goes next by putting steps at the front of
the queue (``push``); the step it came from is already off it. An empty queue is the end.

``Flow`` runs the table, and is the one place where an input is checked against what the step
expects (``check``) and the one place an input is refused: the state stays as it was and the
refusal names the reason (a ``Line``); the session says it and asks the question again. A step
that finds an answer illegal for a reason of its own raises ``Refused``.

A game whose state has a ``heard`` field (a tuple of prompt keys) may ask the flow to say each
question and each sentence in full until it has been heard once, then briefly (``Line.brief``:
its short form ``<key>.short`` where the script words one; "repeat" and a refusal give the whole
sentence again). The game empties ``heard`` where the table should hear everything in full
again, such as a new episode.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from narrator.events import Continue, Dice, GameInput, Line, Number, Say, Successes, Text, Word
from narrator.rules.base import (
    Accept, AcceptContinue, AcceptDice, AcceptNumber, AcceptSuccesses, AcceptText, AcceptWords,
    Expectation, Step,
)
from narrator.script.model import Script
from narrator.understand import wanted

#: a queued step: its name, then the arguments its functions get after the state
Todo = tuple
#: what a step does: the new state and what to say
Out = tuple[Any, tuple[Say, ...]]


class Refused(Exception):
    """An answer the step cannot take; ``line`` names why. The flow keeps the state as it was."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.line = Line(key, params)


@dataclass(frozen=True)
class Ask:
    expect: Callable[..., Expectation]
    answer: Callable[..., Out]


@dataclass(frozen=True)
class Do:
    act: Callable[..., Out]


class Steps:
    """A game's table of steps, filled by the ``question`` and ``action`` decorators."""

    def __init__(self) -> None:
        self.table: dict[str, Ask | Do] = {}

    def _add(self, name: str, step: Ask | Do) -> None:
        if name in self.table:
            raise ValueError(f"step {name!r} is declared twice")
        self.table[name] = step

    def question(self, name: str, expect: Callable[..., Expectation]):
        """Declare the decorated ``answer(state, given, *args)`` as question ``name``."""
        def register(answer: Callable[..., Out]):
            self._add(name, Ask(expect, answer))
            return answer
        return register

    def action(self, name: str):
        """Declare the decorated ``act(state, *args)`` as step ``name``, done at once."""
        def register(act: Callable[..., Out]):
            self._add(name, Do(act))
            return act
        return register


def push(state: Any, *steps: Todo) -> Any:
    """``state`` with ``steps`` to do next, in order, before what was already waiting."""
    return replace(state, todo=tuple(steps) + state.todo)


def ask(key: str, *accepts: Accept, why: str | Line | None = None, **params: Any) -> Expectation:
    """A question: the prompt ``key`` with ``params``, answered by any of ``accepts``. ``why``
    says why the game waits for it ("what now"): a prompt key filled with the same ``params``,
    or a Line of its own."""
    reason = Line(why, params) if isinstance(why, str) else why
    return Expectation(Line(key, params), tuple(accepts), reason)


class Flow:
    """Runs one game's ``Steps``. ``over(state)`` is what the game says once nothing is left."""

    def __init__(self, steps: Steps, over: Callable[[Any], Line], *, briefly: bool = False) -> None:
        self.steps = steps.table
        self.over = over
        self.briefly = briefly  # full until heard once, then brief (the state's ``heard``)

    def run(self, state: Any) -> Out:
        """Do every action at the front of the queue, up to the next question or the end."""
        said: tuple[Say, ...] = ()
        while state.todo and isinstance(self.steps[state.todo[0][0]], Do):
            name, *args = state.todo[0]
            state, more = self.steps[name].act(replace(state, todo=state.todo[1:]), *args)
            state, more = self._brief(state, tuple(more))
            said += more
        return state, said

    def _brief(self, state: Any, said: tuple[Say, ...]) -> Out:
        """``said`` with every Line already heard marked brief; the others count as heard."""
        if not self.briefly:
            return state, said
        heard, out = state.heard, []
        for say in said:
            if isinstance(say, Line) and say.key in heard:
                say = replace(say, brief=True)
            elif isinstance(say, Line):
                heard += (say.key,)
            out.append(say)
        return replace(state, heard=heard), tuple(out)

    def start(self, state: Any, *first: Say) -> Step:
        """The game's first Step: ``first`` said, then every step up to the first question."""
        state, said = self.run(state)
        return Step(state, tuple(first) + said)

    def expects(self, state: Any) -> Expectation:
        if not state.todo:
            return Expectation(self.over(state), ())
        name, *args = state.todo[0]
        expectation = self.steps[name].expect(state, *args)
        if self.briefly and expectation.prompt.key in state.heard:
            return replace(expectation, prompt=replace(expectation.prompt, brief=True))
        return expectation

    def apply(self, state: Any, given: GameInput) -> Step:
        """Check ``given`` against the question, answer it, and run on to the next question."""
        expectation = self.expects(state)
        reason = Line("reject.over") if expectation.over else check(expectation, given)
        if reason is not None:
            return Step(state, rejected=reason)
        name, *args = state.todo[0]
        asked, _ = self._brief(state, (expectation.prompt,))  # an answered question was heard
        try:
            new, said = self.steps[name].answer(replace(asked, todo=state.todo[1:]), given, *args)
        except Refused as refusal:
            return Step(state, rejected=refusal.line)
        new, said = self._brief(new, tuple(said))
        new, more = self.run(new)
        return Step(new, said + more)


class FlowRules:
    """The Rules interface's ``expects`` and ``apply`` for a game on the kernel: a subclass sets
    ``flow`` and writes ``start`` (usually ``self.flow.start(first_state, *first_said)``) and
    ``status``."""

    flow: Flow

    def for_script(self, script: Script) -> FlowRules:
        """These rules playing ``script``: most games need nothing from it beyond its prompts."""
        return self

    def expects(self, state: Any) -> Expectation:
        return self.flow.expects(state)

    def apply(self, state: Any, given: GameInput) -> Step:
        return self.flow.apply(state, given)


# --------------------------------------------------------------------------- the one check

KIND: Mapping[type, type] = {Continue: AcceptContinue, Dice: AcceptDice, Successes: AcceptSuccesses,
                             Number: AcceptNumber, Word: AcceptWords, Text: AcceptText}


#: every reason the flow refuses with, and the fields its prompt gets; each game's script words
#: them (tests/test_conformance.py checks that every game has them all). Every reason but
#: ``reject.over`` also gets ``takes``: what the question takes, in a few words ("a number from
#: 1 to 6", "\"higher\" or \"lower\""), so the refusal can say it.
REASONS: Mapping[str, tuple[str, ...]] = {
    "reject.over": (), "reject.not_now": ("takes",), "reject.blank": ("takes",),
    "reject.dice_count": ("heard", "wanted", "takes"),
    "reject.face": ("face", "sides", "takes"), "reject.successes": ("count", "max", "takes"),
    "reject.number": ("value", "min", "max", "takes"), "reject.word": ("word", "words", "takes"),
}


def check(expectation: Expectation, given: GameInput) -> Line | None:
    """Why ``given`` does not answer ``expectation`` (one of ``REASONS``), or None when it does."""
    reason = _check(expectation, given)
    if reason is None:
        return None
    return Line(reason.key, {**reason.params, "takes": wanted(expectation)})


def _check(expectation: Expectation, given: GameInput) -> Line | None:
    specs = [a for a in expectation.accepts if isinstance(a, KIND.get(type(given), type(None)))]
    if not specs:
        return Line("reject.not_now")
    if isinstance(given, Number):
        fits = [a for a in specs if a.min <= given.value <= a.max]
        if not fits:
            low, high = min(a.min for a in specs), max(a.max for a in specs)
            return Line("reject.number", {"value": given.value, "min": low, "max": high})
        return None
    spec = specs[0]
    if isinstance(given, Dice):
        bad = [f for f in given.faces if not 1 <= f <= spec.sides]
        if bad:
            return Line("reject.face", {"face": bad[0], "sides": spec.sides})
        if not spec.min_count <= len(given.faces) <= spec.max_count:
            return Line("reject.dice_count", {"heard": len(given.faces), "wanted": spec.max_count})
    elif isinstance(given, Successes) and not 0 <= given.count <= spec.max:
        return Line("reject.successes", {"count": given.count, "max": spec.max})
    elif isinstance(given, Word) and not (
            given.word in spec.numbered if given.number is not None else given.word in spec.words):
        return Line("reject.word", {"word": given.word, "words": list(spec.words + spec.numbered)})
    elif isinstance(given, Text) and not given.text.strip():
        return Line("reject.blank")
    return None
