"""Read-aloud bench (issue 15): how long a game keeps the table listening.

A random table plays GAME through the real ``Session`` (the answers a typed table gives, drawn
from what the rules accept, dice rolled fair), and every sentence the session says is timed at
the default speech engine and rate: the engine reads a calibration sample of the game's own
track text once, and each sentence counts its characters at that pace. Time is added up in
total and per unit (a Slow Burn Job and scene, a Hell for Leather turn...): a unit starts each
time its marker, a track id or a Line key the rules say (or ask), comes up.

Usage: python bench/read_aloud.py GAME [--seed N] [--turns] [--option key=value]...
       [--unit NAME=MARKER]... [--stop KEY] [--cps CHARS_PER_SECOND]
Target (Slow Burn): a Job read aloud in <= 60 min at the default settings.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from test_conformance import random_input  # noqa: E402

from narrator.dice import Roller  # noqa: E402
from narrator.events import Continue, Line, ReadTrack, Utterance  # noqa: E402
from narrator.rules import registry  # noqa: E402
from narrator.script.loader import find_script, load_script  # noqa: E402
from narrator.session.game import Session  # noqa: E402
from narrator.voice import engines  # noqa: E402

#: per game: the units timed (name -> the track id or Line key that starts one) and the prompt
#: key at which the bench stops (None: play to the end)
PLANS: dict[str, tuple[dict[str, str], str | None]] = {
    "slow-burn": ({"job": "t07", "segment": "said.segment", "scene": "said.scene"},
                  "ask.another"),
}
CALIBRATION_CHARS = 1500  # characters of track text the engine reads to find its pace
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

    def start(self, name: str) -> None:
        self.units.setdefault(name, []).append(Unit())

    def add(self, seconds: float = 0.0, answer: bool = False, nxt: bool = False) -> None:
        for unit in [self.total] + [runs[-1] for runs in self.units.values()]:
            unit.seconds += seconds
            unit.answers += answer and not nxt
            unit.nexts += nxt


def calibrate(script) -> tuple[float, str]:
    """Characters per second of the default engine at rate 1, reading the game's tracks."""
    name = engines.best_engine()
    sample = ""
    for track in script.tracks:
        for line in track.lines:
            if len(sample) < CALIBRATION_CHARS:
                sample += line + " "
    engine = engines.spec(name).make()
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "sample.wav"
        engine.synth(sample.strip(), None, 1.0, wav)
        seconds = sf.info(str(wav)).duration
    return len(sample.strip()) / seconds, name


def keys(step, rules) -> list[str]:
    """The markers one step shows: tracks read, Line keys said, the next question's key."""
    out = [s.track if isinstance(s, ReadTrack) else s.key for s in step.say
           if isinstance(s, (ReadTrack, Line))]
    return out + [rules.expects(step.state).prompt.key]


def play(game: str, seed: int, options: dict[str, str], units: dict[str, str],
         stop: str | None, cps: float) -> Tally:
    info = registry.get(game)
    script = load_script(find_script(info.rules.script))
    info = registry.bound(info, script)
    rules = info.rules
    session = Session(info, script, {**dict(rules.options), **options}, roller=Roller(seed))
    rng = random.Random(seed)
    tally = Tally()
    markers = {marker: name for name, marker in units.items()}

    def hear(said, step=None) -> None:
        for key in keys(step, rules) if step is not None else ():
            if key in markers:
                tally.start(markers[key])
        for s in said:
            tally.add(len(s.text) / cps)

    hear(session.opening(), rules.start(session.options))
    for _ in range(MAX_INPUTS):
        expectation = session.expectation
        if expectation.over or expectation.prompt.key == stop:
            break
        given = random_input(rng.choice(expectation.accepts), rng)
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


def report(tally: Tally, turns: bool) -> None:
    total = tally.total
    print(f"  whole play: {clock(total.seconds)} of speech, {total.answers} answers "
          f"and {total.nexts} 'next'")
    for name, runs in tally.units.items():
        seconds = [u.seconds for u in runs]
        answers = [u.answers for u in runs]
        print(f"  {name}: {len(runs)} played; speech mean {clock(statistics.mean(seconds))}, "
              f"max {clock(max(seconds))}; answers mean {statistics.mean(answers):.1f}, "
              f"median {statistics.median(answers):g}, max {max(answers)}")
        if turns:
            for n, unit in enumerate(runs, 1):
                print(f"    {name} {n}: {clock(unit.seconds)}, {unit.answers} answers, "
                      f"{unit.nexts} next")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", action="store_true", help="print every unit played")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--unit", action="append", default=[], metavar="NAME=MARKER",
                        help="time a unit starting at a track id or Line key (repeatable)")
    parser.add_argument("--stop", help="stop when the game asks this prompt key")
    parser.add_argument("--cps", type=float, help="characters per second (skips calibration)")
    args = parser.parse_args()
    game = registry.get(args.game).rules.name
    units, stop = PLANS.get(game, ({}, None))
    units = dict(units, **dict(u.split("=", 1) for u in args.unit))
    stop = args.stop or stop
    options = dict(o.split("=", 1) for o in args.option)
    script = load_script(find_script(registry.get(game).rules.script))
    cps, engine = (args.cps, "given") if args.cps else calibrate(script)
    print(f"{game}, seed {args.seed}, options {options or 'default'}: speech at "
          f"{cps:.1f} characters/s ({engine}, rate 1)")
    report(play(game, args.seed, options, units, stop, cps), args.turns)


if __name__ == "__main__":
    main()
