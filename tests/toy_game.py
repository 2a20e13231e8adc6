"""A tiny game for testing the session loop apart from any real game's rules.

Ask how many players (2-4), then three rounds of two d6; a double is refused ("no doubles");
the game ends after the third round and has said the running total each time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from narrator.events import Continue, Dice, Line, Number, ReadTrack
from narrator.rules.base import (
    AcceptContinue, AcceptDice, AcceptNumber, Expectation, RulesInfo, Step,
)
from narrator.script.model import Prompt, Script, Track, Where


@dataclass(frozen=True)
class ToyState:
    players: int = 0
    rounds: int = 0
    total: int = 0
    read_rules: bool = False


class ToyRules:
    name = "toy"
    script = "toy"
    options = {"rounds": 3}

    def start(self, options):
        return Step(ToyState(), (ReadTrack("t1"),))

    def expects(self, state):
        if not state.read_rules:
            return Expectation(Line("ready"), (AcceptContinue(),))
        if state.players == 0:
            return Expectation(Line("players"), (AcceptNumber(2, 4),))
        if state.rounds >= 3:
            return Expectation(Line("over"), ())
        return Expectation(Line("roll", {"n": state.rounds + 1}), (AcceptDice(6, 2, 2),))

    def apply(self, state, given):
        if isinstance(given, Continue) and not state.read_rules:
            return Step(replace(state, read_rules=True))
        if isinstance(given, Number) and state.players == 0:
            return Step(replace(state, players=given.value), (Line("welcome", {"n": given.value}),))
        if isinstance(given, Dice) and state.players:
            if given.faces[0] == given.faces[1]:
                return Step(state, rejected=Line("no_doubles"))
            total = state.total + sum(given.faces)
            return Step(replace(state, rounds=state.rounds + 1, total=total),
                        (Line("total", {"faces": list(given.faces), "total": total}),))
        return Step(state, rejected=Line("not_now"))

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
        not_now="Not now.",
        status="{rounds} rounds played, total {total}.",
        over="Game over.",
    ),
)

INFO = RulesInfo(ToyRules(), "Toy", "a test game")
