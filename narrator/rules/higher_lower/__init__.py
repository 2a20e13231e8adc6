"""Higher or Lower: the example game of docs/adding-a-game.md.

Roll a d6, guess whether the next roll is higher or lower, roll again; a right guess scores a
point, a tie scores nothing. The table chooses how many rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from narrator.events import GameInput, Line, ReadTrack
from narrator.rules.base import (
    AcceptContinue, AcceptDice, AcceptNumber, AcceptWords, RulesInfo, Step,
)
from narrator.rules.flow import Flow, FlowRules, Steps, ask, push
from narrator.rules.options import OptionSet

MAX_ROUNDS = 5
#: the one guess a face leaves
ONLY = {6: "lower", 1: "higher"}


@dataclass(frozen=True)
class State:
    todo: tuple[tuple, ...] = (("rules",),)   # the steps still to come
    rounds: int = 0
    round: int = 0
    face: int = 0                             # the die showing now
    guess: str = ""
    points: int = 0


STEPS = Steps()


@STEPS.action("rules")
def _rules(state: State):
    return push(state, ("ready",)), (ReadTrack("how"),)


@STEPS.question("ready", lambda state: ask("ask.ready", AcceptContinue(), why="why.ready"))
def _ready(state: State, given: GameInput):
    return push(state, ("rounds",)), ()


@STEPS.question("rounds", lambda state: ask("ask.rounds", AcceptNumber(1, MAX_ROUNDS),
                                            why="why.rounds", most=MAX_ROUNDS))
def _rounds(state: State, given):
    return push(replace(state, rounds=given.value), ("first",)), ()


@STEPS.question("first", lambda state: ask("ask.first", AcceptDice(6), why="why.first"))
def _first(state: State, given):
    return push(replace(state, face=given.faces[0]), ("offer",)), ()


@STEPS.action("offer")
def _offer(state: State):
    """Ask for a guess, unless the face leaves only one (nothing is higher than a 6)."""
    only = ONLY.get(state.face)
    if only is None:
        return push(state, ("guess",)), ()
    said = Line("said.only", {"face": state.face, "guess": only})
    return push(replace(state, guess=only), ("roll",)), (said,)


@STEPS.question("guess", lambda state: ask("ask.guess", AcceptWords(("higher", "lower")),
                                           why="why.guess", face=state.face))
def _guess(state: State, given):
    return push(replace(state, guess=given.word), ("roll",)), ()


@STEPS.question("roll", lambda state: ask("ask.roll", AcceptDice(6), why="why.roll",
                                          guess=state.guess, face=state.face))
def _roll(state: State, given):
    face = given.faces[0]
    right = face > state.face if state.guess == "higher" else face < state.face
    result = "tie" if face == state.face else "right" if right else "wrong"
    state = replace(state, face=face, round=state.round + 1,
                    points=state.points + (result == "right"))
    said = (Line(f"said.{result}", {"face": face}),)
    return push(state, ("offer",) if state.round < state.rounds else ("end",)), said


@STEPS.action("end")
def _end(state: State):
    return state, (Line("said.score", {"points": state.points, "rounds": state.rounds}),)


FLOW = Flow(STEPS, over=lambda state: Line("ask.over"))


class HigherLower(FlowRules):
    flow = FLOW
    name = "higher-lower"
    script = "higher_lower"
    options = OptionSet()   # no table choices

    def start(self, options: Mapping[str, Any]) -> Step:
        return FLOW.start(State(), Line("said.welcome"))

    def status(self, state: State) -> tuple[Line, ...]:
        return (Line("status", {"round": state.round, "rounds": state.rounds,
                                "points": state.points}),)


INFO = RulesInfo(
    rules=HigherLower(),
    title="Higher or Lower",
    summary="The example game: guess whether the next d6 is higher or lower.",
)
