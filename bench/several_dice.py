"""Several dice said at a question that asks for them, heard by Whisper: right, wrong (unsure
ones are read back), missed; and table talk taken as an answer there.

A question of two dice or more has too many phrases to list, so what Whisper writes as other
words ("to foreign free" for "two, four and three") is weighed against the dice nearest it by
words where the question takes dice alone (``Whisper._nearest``; docs/speech-in.md, stop 68).
Each of the table bench's voices says N random results; the 44 lines of table talk are said at
the same question, one voice each::

    python bench/several_dice.py [--sides 10] [--count 2] [--results 40] [--voices flite:slt,...]
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections import Counter
from pathlib import Path

from table import PLAYERS

import clips  # noqa: E402 (tests/, on the path through table)
from narrator.events import Line  # noqa: E402
from narrator.understand import AcceptDice, Expectation, understand  # noqa: E402
from narrator.understand.words import spoken, spoken_list  # noqa: E402
from narrator.voice.hear import command_of, hear_file  # noqa: E402
from narrator.voice.whisper import Whisper  # noqa: E402


def said(faces: list[int]) -> str:
    """Dice results as a player says them: "two, four and three"."""
    return spoken_list(spoken(face) for face in faces)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sides", type=int, default=10)
    parser.add_argument("--count", type=int, default=2)
    parser.add_argument("--results", type=int, default=40, help="results each voice says")
    parser.add_argument("--voices", default=",".join(PLAYERS), help="comma-separated")
    args = parser.parse_args()
    whisper, voices = Whisper(), args.voices.split(",")
    asked = Expectation(Line("ask"), (AcceptDice(args.sides, args.count, args.count),))
    rng = random.Random(4)
    results = [said([rng.randint(1, args.sides) for _ in range(args.count)])
               for _ in range(args.results)]
    heard: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="dice-") as tmp:
        for result in results:
            want = command_of(understand(result, asked))
            for voice in voices:
                got = hear_file(whisper, clips.make_clip(Path(tmp), result, None, voice).path,
                                asked)
                kind = ("right" if got["command"] == want else "missed" if not got["command"]
                        else "wrong, sure" if got["sure"] else "wrong, read back")
                heard[kind] += 1
                if kind != "right":
                    print(f"  {kind}: {voice} {result!r} -> {got['text']!r} "
                          f"({got['confidence']})")
        talk = [line for i, line in enumerate(clips.TABLE_TALK)
                if hear_file(whisper, clips.make_clip(Path(tmp), line, None,
                                                      voices[i % len(voices)]).path,
                             asked)["command"]]
    n = len(results) * len(voices)
    print(f"{args.count}d{args.sides}: {n} results said, "
          + ", ".join(f"{kind} {heard[kind]}" for kind in
                      ("right", "wrong, read back", "wrong, sure", "missed"))
          + f"; table talk taken {len(talk)} of {len(clips.TABLE_TALK)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
