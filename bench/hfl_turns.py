"""Hell for Leather turns read aloud, split by why they run long (issue 15: a turn <= 45 s).

The random table of bench/read_aloud.py plays each seed through the real ``Session``; a turn
runs from one ``turn.start`` to the next turn, storm turn or finale (read_aloud's "turn" unit
runs on into the finale). Each turn's speech is split into what the table hears for the first
time (prompts said in full that have a short form) and the rest, and counted by its answers.

Usage: python bench/hfl_turns.py [--seeds 1-10] [--cps 14.8]
"""

from __future__ import annotations

import argparse
import random
import statistics

from read_aloud import MAX_INPUTS, answer, keys  # also puts this checkout on the path

from narrator.dice import Roller  # noqa: E402
from narrator.events import Line, Utterance  # noqa: E402
from narrator.rules import registry  # noqa: E402
from narrator.script.loader import find_script, load_script  # noqa: E402
from narrator.script.render import render  # noqa: E402
from narrator.session.game import Session  # noqa: E402

FEW = 10  # the target: a turn with at most this many answers is <= 45 s of speech
#: markers that start a unit, and whether the unit is an ordinary turn
STARTS = {"turn.start": True, "objective.reached": False, "storm.turn": False,
          "finale.round": False, "finale.attack": False, "finale.defend_or_ditch": False}


def turns(seed: int, cps: float) -> list[tuple[float, float, int]]:
    """(speech s, first-hearing s, answers) of every ordinary turn of one random game."""
    info = registry.get("hell-for-leather")
    script = load_script(find_script(info.rules.script))
    info = registry.bound(info, script)
    rules = info.rules
    full = {key.removesuffix(".short") for key in script.prompts if key.endswith(".short")}
    session = Session(info, script, dict(rules.options), roller=Roller(seed))
    rng = random.Random(seed)
    units: list[list] = []

    def hear(said, step, answered: bool) -> None:
        marker = next((k for k in keys(step, rules) if k in STARTS), None)
        if marker is not None:
            units.append([STARTS[marker], 0.0, 0.0, 0])
        if not units:
            return
        unit = units[-1]
        unit[1] += sum(len(s.text) for s in said) / cps
        lines = [say for say in step.say + (rules.expects(step.state).prompt,)
                 if isinstance(say, Line) and say.key in full and not say.brief]
        unit[2] += sum(len(s.text) for line in lines for s in render(script, line)) / cps
        unit[3] += answered

    hear(session.opening(), rules.start(session.options), False)
    for _ in range(MAX_INPUTS):
        if session.expectation.over:
            break
        given = answer(session.expectation, rng, {})
        step = rules.apply(session.state, given)
        if step.rejected is not None:
            continue
        outcome = session.hear(Utterance("", given, 1.0, "text"))
        hear(outcome.said + session.commit(), step, True)
    return [(secs, first, n) for turn, secs, first, n in units if turn]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-10", help="a range, e.g. 1-10")
    parser.add_argument("--cps", type=float, default=14.8, help="characters per second")
    args = parser.parse_args()
    low, _, high = args.seeds.partition("-")
    played, firsts_played = [], []
    for seed in range(int(low), int(high or low) + 1):
        mine = turns(seed, args.cps)
        secs = [t[0] for t in mine]
        print(f"seed {seed}: {len(mine)} turns, first {secs[0]:.0f} s ({mine[0][1]:.0f} s "
              f"first hearings, {mine[0][2]} answers); mean {statistics.mean(secs):.1f} s, "
              f"max {max(secs):.0f} s, over 45 s: {sum(s > 45 for s in secs)}")
        played += mine
        firsts_played.append(mine[0])
    long = [t for t in played if t[0] > 45]
    heard = [t for t in long if t[1] < 1]
    print(f"all: {len(played)} turns, {len(long)} over 45 s; {len(long) - len(heard)} of them "
          f"hear something for the first time")
    few = [t for t in long if t[2] <= FEW]
    firsts = sum(any(t is f for f in few) for t in firsts_played)
    print(f"  over 45 s with at most {FEW} answers: {len(few)} ({firsts} of them the game's "
          f"first turn); the first turn: max {max(t[0] for t in firsts_played):.0f} s, "
          f"{sum(t[0] > 45 for t in firsts_played)} over 45 s")
    if heard:
        print(f"  the other {len(heard)}: answers min {min(t[2] for t in heard)}, median "
              f"{statistics.median(t[2] for t in heard):g}; speech per answer "
              f"{statistics.mean(t[0] / t[2] for t in heard):.1f} s")
    for n in sorted({t[2] for t in played if t[1] < 1}):
        sel = [t[0] for t in played if t[2] == n and t[1] < 1]
        if n <= 12:
            print(f"  {n} answers, nothing heard first: {len(sel)} turns, mean "
                  f"{statistics.mean(sel):.0f} s, max {max(sel):.0f} s")


if __name__ == "__main__":
    main()
