"""A tiny game for testing the session loop apart from any real game's rules.

Ask how many players (2-4), then three rounds of two d6; a double is refused ("no doubles");
the game ends after the third round and has said the running total each time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from narrator.events import Line, ReadTrack
from narrator.rules.base import AcceptContinue, AcceptDice, AcceptNumber, RulesInfo
from narrator.rules.flow import REASONS, Flow, FlowRules, Refused, Steps, ask, push
from narrator.script.model import Prompt, Script, Track, Where

ROUNDS = 3


@dataclass(frozen=True)
class ToyState:
    todo: tuple = (("ready",),)
    players: int = 0
    rounds: int = 0
    total: int = 0


STEPS = Steps()


@STEPS.ask("ready", lambda state: ask("ready", AcceptContinue()))
def _ready(state, given):
    return push(state, ("players",)), ()


@STEPS.ask("players", lambda state: ask("players", AcceptNumber(2, 4)))
def _players(state, given):
    return push(replace(state, players=given.value), ("roll",)), (Line("welcome", {"n": given.value}),)


@STEPS.ask("roll", lambda state: ask("roll", AcceptDice(6, 2, 2), n=state.rounds + 1))
def _roll(state, given):
    if given.faces[0] == given.faces[1]:
        raise Refused("no_doubles")
    state = replace(state, rounds=state.rounds + 1, total=state.total + sum(given.faces))
    said = (Line("total", {"faces": list(given.faces), "total": state.total}),)
    return (push(state, ("roll",)) if state.rounds < ROUNDS else state), said


FLOW = Flow(STEPS, over=lambda state: Line("over"))


class ToyRules(FlowRules):
    flow = FLOW
    name = "toy"
    script = "toy"
    options = {"rounds": ROUNDS}

    def start(self, options):
        return FLOW.start(ToyState(), ReadTrack("t1"))

    def status(self, state):
        return (Line("status", {"rounds": state.rounds, "total": state.total}),)


def _prompts(**texts):
    return {k: Prompt(k, v, Where("toy.yaml", i)) for i, (k, v) in enumerate(texts.items(), 1)}


SCRIPT = Script(
    game="toy", title="Toy", folder=Path("."), start="t1",
    tracks=(Track("t1", 1, "Rules", ("Roll two dice three times.", "Doubles don't count.")),
            Track("t2", 2, "Credits", ("Made for tests.",), ending=True)),
    prompts=_prompts(
        ready="Say next when you are ready.",
        players="How many players?",
        welcome="Welcome, {n} players.",
        roll="Round {n}: what did the two dice show?",
        total="You rolled {faces}; total {total}.",
        no_doubles="Doubles don't count; roll again.",
        **{key: "Not now." for key in REASONS},
        status="{rounds} rounds played, total {total}.",
        over="Game over.",
    ),
)

INFO = RulesInfo(ToyRules(), "Toy", "a test game")
