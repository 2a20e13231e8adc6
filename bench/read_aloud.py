"""Read-aloud bench (issue 15): how long a game keeps the table listening.

A random table plays GAME through the real ``Session`` (the answers a typed table gives, drawn
from what the rules accept, dice rolled fair), and every sentence the session says is timed at
the default speech engine and rate: the engine reads a calibration sample of the game's own
track text once, and each sentence counts its characters at that pace. Time is added up in
total and per unit (a Slow Burn Job and scene, a Hell for Leather turn...): a unit starts each
time its marker, a track id or a Line key the rules say (or ask), comes up.

Usage: python bench/read_aloud.py GAME [--seed N] [--turns] [--top N] [--option key=value]...
       [--unit NAME=MARKER]... [--stop KEY] [--cps CHARS_PER_SECOND]
Target (Slow Burn): a Job read aloud in <= 60 min at the default settings.
"""

from __future__ import annotations

import argparse
from collections import Counter
import random
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from test_conformance import random_input  # noqa: E402

from narrator.dice import Roller  # noqa: E402
from narrator.events import Continue, Dice, Line, ReadTrack, Utterance, Word  # noqa: E402
from narrator.rules import registry  # noqa: E402
from narrator.rules.base import AcceptDice  # noqa: E402
from narrator.script.loader import find_script, load_script  # noqa: E402
from narrator.script.render import render  # noqa: E402
from narrator.session.game import Session  # noqa: E402
from narrator.voice import engines  # noqa: E402



@dataclass(frozen=True)
class Plan:
    """How the bench plays a game: the units timed (name -> the track id or Line key that
    starts one), the prompt key at which it stops (None: play to the end), and the answer a
    typical table gives to some questions most of the time (prompt key -> word)."""

    units: dict[str, str] = field(default_factory=dict)
    stop: str | None = None
    usual: dict[str, str] = field(default_factory=dict)


PLANS: dict[str, Plan] = {
    "slow-burn": Plan({"job": "t07", "segment": "said.segment", "scene": "said.scene"},
                      "ask.another",
                      {"ask.respond": "respond", "ask.still_ignoring": "respond"}),
}
USUAL_SHARE = 0.8  # how often the typical table gives the usual answer
CALIBRATION_CHARS = 600  # characters of track text the engine reads to find its pace
MAX_INPUTS = 20000


@dataclass
class Unit:
    """One played unit (a Job, a scene...): speech seconds and the table's answers in it."""

    seconds: float = 0.0
    answers: int = 0
    nexts: int = 0


@dataclass
class Tally:
    total: Unit = field(default_factory=Unit)
    units: dict[str, list[Unit]] = field(default_factory=dict)
    by_key: Counter = field(default_factory=Counter)  # seconds per track id or Line key

    def start(self, name: str) -> None:
        self.units.setdefault(name, []).append(Unit())

    def add(self, seconds: float = 0.0, answer: bool = False, nxt: bool = False) -> None:
        for unit in [self.total] + [runs[-1] for runs in self.units.values()]:
            unit.seconds += seconds
            unit.answers += answer and not nxt
            unit.nexts += nxt


def calibrate(script) -> tuple[float, str]:
    """Characters per second of the default engine at rate 1, reading the game's tracks (its
    prompts, without their ``{fields}``, when it has no tracks)."""
    name = engines.best_engine()
    texts = [line for track in script.tracks for line in track.lines] or [
        re.sub(r"\{[^}]*\}", "", prompt.text) for prompt in script.prompts.values()]
    sample = ""
    for text in texts:
        if len(sample) < CALIBRATION_CHARS:
            sample += text + " "
    engine = engines.spec(name).make()
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "sample.wav"
        engine.synth(sample.strip(), None, 1.0, wav)
        seconds = sf.info(str(wav)).duration
    return len(sample.strip()) / seconds, name


def answer(expectation, rng: random.Random, usual: dict[str, str]):
    """What the random table says: dice are rolled fair and read out face by face (as a table
    rolls them); the usual answer most of the time where the plan has one; any other answer
    is drawn from what the question accepts."""
    dice = expectation.find(AcceptDice)
    if dice is not None:
        return Dice(tuple(rng.randint(1, dice.sides) for _ in range(dice.max_count)))
    word = usual.get(expectation.prompt.key)
    if word is not None and rng.random() < USUAL_SHARE:
        return Word(word)
    return random_input(rng.choice(expectation.accepts), rng)


def keys(step, rules) -> list[str]:
    """The markers one step shows: tracks read, Line keys said (in full or brief), the next
    question's key."""
    out = [s.track if isinstance(s, ReadTrack) else s.key for s in step.say
           if isinstance(s, (ReadTrack, Line))]
    return out + [rules.expects(step.state).prompt.key]


def play(game: str, seed: int, options: dict[str, str], plan: Plan, cps: float) -> Tally:
    info = registry.get(game)
    script = load_script(find_script(info.rules.script))
    info = registry.bound(info, script)
    rules = info.rules
    session = Session(info, script, {**dict(rules.options), **options}, roller=Roller(seed))
    rng = random.Random(seed)
    tally = Tally()
    markers = {marker: name for name, marker in plan.units.items()}

    def hear(said, step) -> None:
        for key in keys(step, rules):
            if key in markers:
                tally.start(markers[key])
        for s in said:
            tally.add(len(s.text) / cps)
        for say in step.say + (rules.expects(step.state).prompt,):
            key = say.track if isinstance(say, ReadTrack) else say.key
            tally.by_key[key] += sum(len(s.text) for s in render(script, say)) / cps

    hear(session.opening(), rules.start(session.options))
    for _ in range(MAX_INPUTS):
        expectation = session.expectation
        if expectation.over or expectation.prompt.key == plan.stop:
            break
        given = answer(expectation, rng, plan.usual)
        step = rules.apply(session.state, given)
        if step.rejected is not None:
            continue
        outcome = session.hear(Utterance("", given, 1.0, "text"))
        assert outcome.record is not None, outcome.said
        tally.add(answer=True, nxt=isinstance(given, Continue))
        hear(outcome.said + session.commit(), step)
    return tally


def clock(seconds: float) -> str:
    minutes, sec = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return (f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {sec:02d} s")


def report(tally: Tally, turns: bool, top: int) -> None:
    total = tally.total
    print(f"  whole play: {clock(total.seconds)} of speech, {total.answers} answers "
          f"and {total.nexts} 'next'")
    for name, runs in tally.units.items():
        seconds = [u.seconds for u in runs]
        answers = [u.answers for u in runs]
        nexts = statistics.mean(u.nexts for u in runs)
        print(f"  {name}: {len(runs)} played; speech mean {clock(statistics.mean(seconds))}, "
              f"max {clock(max(seconds))}; answers mean {statistics.mean(answers):.1f}, "
              f"median {statistics.median(answers):g}, max {max(answers)}; "
              f"'next' mean {nexts:.1f}")
        if turns:
            for n, unit in enumerate(runs, 1):
                print(f"    {name} {n}: {clock(unit.seconds)}, {unit.answers} answers, "
                      f"{unit.nexts} next")
    if top:
        print(f"  the {top} tracks and sentences heard longest (the session's read-backs apart):")
        for key, seconds in tally.by_key.most_common(top):
            print(f"    {key}: {clock(seconds)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", action="store_true", help="print every unit played")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--unit", action="append", default=[], metavar="NAME=MARKER",
                        help="time a unit starting at a track id or Line key (repeatable)")
    parser.add_argument("--stop", help="stop when the game asks this prompt key")
    parser.add_argument("--top", type=int, default=0, metavar="N",
                        help="list the N tracks and sentence keys heard longest")
    parser.add_argument("--cps", type=float, help="characters per second (skips calibration)")
    args = parser.parse_args()
    game = registry.get(args.game).rules.name
    plan = PLANS.get(game, Plan())
    plan = replace(plan, units=dict(plan.units, **dict(u.split("=", 1) for u in args.unit)),
                   stop=args.stop or plan.stop)
    options = dict(o.split("=", 1) for o in args.option)
    script = load_script(find_script(registry.get(game).rules.script))
    try:
        cps, engine = (args.cps, "given") if args.cps else calibrate(script)
    except engines.EngineError as exc:
        sys.exit(f"the speech engine could not read the calibration sample ({exc}); "
                 f"give the pace with --cps")
    print(f"{game}, seed {args.seed}, options {options or 'default'}: speech at "
          f"{cps:.1f} characters/s ({engine}, rate 1)")
    report(play(game, args.seed, options, plan, cps), args.turns, args.top)


if __name__ == "__main__":
    main()
