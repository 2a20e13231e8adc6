"""Answers and spoken words in one typical turn of a game, played through its rules.

``python bench/aloud_turn.py [GAME...]`` prints, per game, the answers a table gives in a typical turn and
the words read aloud in it (each line said, each question asked), with the speech time at
150 words a minute (espeak-ng's default rate is 175; 150 leaves room for pauses between lines).
The turns are scripted in ``TURNS``; tests/test_aloud_turns.py holds the targets.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's narrator

from narrator.events import Continue, Number, Unclear, Word  # noqa: E402
from narrator.rules import registry  # noqa: E402
from narrator.rules.base import AcceptNumber, AcceptWords  # noqa: E402
from narrator.script.loader import find_script, load_script  # noqa: E402
from narrator.script.render import render  # noqa: E402
from narrator.understand import understand  # noqa: E402

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
            said += [s.text for s in render(script, rules.expects(state).prompt)]
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
INTENSITY_SETUP = ["2", "Sarah", "main", "Smooth Talker", "Don't Push Me", "Love for Jila",
                   "Steve", "main", "Quick Wits", "Bad Temper", "Social Manipulator"]
#: the book's Example 2, one round: two declarations, the dice, two attacks defended and
#: their impacts, then another round is called
INTENSITY_ROUND = ["steve", "calm", "smooth talker", "sarah", "invested", "social manipulator",
                   "no", "6", "3", "eight and two", "trait", "2", "damage", "three and four",
                   "advantage", "round"]
#: a typical turn: threat set, conflict called, no help bought, one die, scored, narrated;
#: the Cup passes
TURNS = {"hell-for-leather": (HFL_SETUP, ["next", "conflict", "next", "merit", "next", "next"]),
         "intensity": (INTENSITY_SETUP, INTENSITY_ROUND)}


def half_chance(seed: int, players: int = 4) -> tuple[int, int]:
    """(answers, turns) of a virtual Half-Chance game played to its end by a seeded table
    that flips fair coins and picks the first card or player offered."""
    info = registry.find("half-chance")
    rules = registry.bound(info, load_script(find_script(info.rules.script))).rules
    rng = random.Random(seed)
    state = rules.start({}).state
    answers = turns = 0
    for text in [str(players), "open", "virtual", str(rng.randint(1, 99))]:
        if rules.expects(state).prompt.key == "ask.length" or text != "open":
            state = rules.apply(state, understand(text, rules.expects(state))).state
    while not rules.expects(state).over and turns < 500:
        expectation = rules.expects(state)
        step = rules.apply(state, _pick(expectation, rng))
        if step.rejected is not None:  # a number offered but refused: the next one
            number = next(n for n in range(1, 7) if rules.apply(state, Number(n)).rejected is None)
            step = rules.apply(state, Number(number))
        state = step.state
        answers += 1
        turns += sum(1 for say in step.say if getattr(say, "key", "") == "turn.begins")
    return answers, turns


def _pick(expectation, rng):
    """A fair coin, the first card or living player offered, else "next"."""
    for accept in expectation.accepts:
        if isinstance(accept, AcceptWords) and "heads" in accept.words:
            return Word(rng.choice(("heads", "tails")))
    for accept in expectation.accepts:
        if isinstance(accept, AcceptNumber):
            return Number(accept.min)
        words = [w for w in getattr(accept, "words", ()) if w != "end game"]
        if words:
            return Word(words[0])
    return Continue()


def main(argv: list[str]) -> int:
    for game, (setup, turn) in TURNS.items():
        if argv and game not in argv:
            continue
        s = play(game, setup, turn)
        print(f"{game}: {s.answers} answers, {s.words} words, {s.seconds:.0f} s at {WPM} wpm")
    if not argv or "half-chance" in argv:
        runs = [half_chance(seed) for seed in range(20)]
        answers, turns = sum(a for a, _ in runs), sum(t for _, t in runs)
        print(f"half-chance: {answers / turns:.1f} answers a turn, 4 players, 20 games, "
              f"{min(t for _, t in runs)}-{max(t for _, t in runs)} turns a game")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
