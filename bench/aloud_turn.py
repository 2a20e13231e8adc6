"""Answers and spoken words in one typical turn of a game, played through its rules.

``python bench/aloud_turn.py`` prints, per game, the answers a table gives in a typical turn and
the words read aloud in it (each line said, each question asked), with the speech time at
150 words a minute (espeak-ng's default rate is 175; 150 leaves room for pauses between lines).
The turns are scripted in ``TURNS``; tests/test_aloud_turns.py holds the targets.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from narrator.events import Line, Unclear
from narrator.rules import registry
from narrator.script.loader import find_script, load_script
from narrator.script.render import render, render_line
from narrator.understand import understand

WPM = 150


@dataclass
class Spoken:
    answers: int = 0
    words: int = 0

    @property
    def seconds(self) -> float:
        return self.words * 60 / WPM


def play(game: str, setup: list[str], turn: list[str]) -> Spoken:
    """Play ``setup`` silently, then ``turn``, counting its answers and the words spoken."""
    info = registry.find(game)
    rules, script = info.rules, load_script(find_script(info.rules.script))
    rules = registry.bound(info, script).rules
    state = rules.start(dict(rules.options)).state
    out = Spoken()
    for i, text in enumerate(setup + turn):
        counting = i >= len(setup)
        expectation = rules.expects(state)
        heard = understand(text, expectation)
        if isinstance(heard, Unclear):
            raise ValueError(f"{game}: {text!r} not understood at {expectation.prompt.key}")
        step = rules.apply(state, heard)
        if step.rejected is not None:
            raise ValueError(f"{game}: {text!r} refused at {expectation.prompt.key}: {step.rejected}")
        state = step.state
        if counting:
            out.answers += 1
            said = [s.text for say in step.say for s in render(script, say)]
            said.append(render_line(script, rules.expects(state).prompt))
            out.words += sum(len(s.split()) for s in said)
    return out


HFL_SETUP = [
    "teams", "Falcon", "2", "Juggernaut", "2", "next", "Palace", "Dublin", "Budapest",
    "Use a hostage", "Kill the chief", "Face your fear", "Steal a jet", "Kidnap the twins",
    "Hijack a catamaran",
    "Dillon Dunne", "Clerk", "drugs and hip hop", "his brother", "wretch",
    "Rikard Rasmussen", "Bodybuilder", "lifting and chess", "his mother", "traitor",
    "Elsa Evans", "Journalist", "photos and salsa", "her daughter", "coward",
    "John Jackson", "Cop", "guns and golf", "his trial", "wretch",
    # each team's first scene, a pass: the typical turn below is Falcon's second
    "next", "conflict", "pass", "next", "next", "next", "conflict", "pass", "next", "next",
]
#: a typical turn: threat set, conflict called, no help bought, one die, scored, narrated;
#: the Cup passes
TURNS = {"hell-for-leather": (HFL_SETUP, ["next", "conflict", "next", "merit", "next", "next"])}


def main(argv: list[str]) -> int:
    for game, (setup, turn) in TURNS.items():
        if argv and game not in argv:
            continue
        s = play(game, setup, turn)
        print(f"{game}: {s.answers} answers, {s.words} words, {s.seconds:.0f} s at {WPM} wpm")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
