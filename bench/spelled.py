"""Names spelled letter by letter, heard by Whisper: right as spelled, and mended by the name
said aloud before it (``narrator/voice/respell.py``).

The names are the free-text answers of the five golden playthroughs of at most two words and
16 letters, each under its own question (label and names); ``--long``: the longer ones
("the Lampblacks' coal yard", "Kidnap the consul's twins"), spelled alone only.
Each of the table bench's voices spells each name ("B. U. D. A. P. E. S. T."; ``--radio``:
with the radio alphabet, "Bravo. Uniform. Delta. ..."):

* alone: nothing said aloud at that question before;
* after the name said aloud at the same question (what a table does: the name, refused at its
  read-back, then "spell it"), by the same voice and by the next player's;
* after another answer said aloud at that question (talk taken as the answer): a spelling
  must not be changed towards it.

A spelling is heard by the live ears (``Ears.listen`` in mode "spelling", over the clip between
quiet), so one longer than Whisper's 10 s window is parted between letters past 6 s and
joined, as at a table. Prints, for each, the names right of all, the spellings right alone that
were changed, and the time to hear a spelling (the ears' work on the clip, p50 / p95 / most)::

    python bench/spelled.py [--voices flite:slt,flite:rms] [--radio] [--long]
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

from table import GAMES, PLAYERS, ROOT, aloud_letters, events_of, typed

import clips  # noqa: E402 (tests/, on the path through table)
from narrator.events import Line, Text  # noqa: E402
from narrator.understand import AcceptText, Expectation  # noqa: E402
from narrator.voice.hear import hear_file  # noqa: E402
from narrator.voice.listener import Ears  # noqa: E402
from narrator.voice.mic import RATE, Frames  # noqa: E402
from narrator.voice.whisper import Whisper  # noqa: E402

OTHER = 7  # the answer said aloud before a spelling, for another one: this many names on
WORDS, LETTERS = 2, 16  # names of at most this many words and letters
QUIET = (np.random.default_rng(5).standard_normal(RATE) * 30).astype(np.int16).tobytes()


def names(work: Path, long: bool = False) -> list[tuple[str, Expectation]]:
    """The golden playthroughs' free-text answers short enough to spell (``long``: the
    others), with the question each answered."""
    found: list[tuple[str, Expectation]] = []
    for game in GAMES:
        golden = (ROOT / "tests" / "golden" / f"{game}.in").read_text().splitlines()
        typed(["play", game, "--save-dir", str(work / game)], golden, work / f"{game}.jsonl",
              env=None)
        asked = None
        for event in events_of(work / f"{game}.jsonl"):
            if event["event"] == "expect" and event["mode"] == "asking":
                asked = [a for a in event["accepts"] if a["kind"] == "AcceptText"]
            elif event["event"] == "heard" and event["meaning"]["type"] == "Text" and asked:
                words = re.findall(r"[A-Za-z]+", event["text"])
                if (len(words) <= WORDS and len("".join(words)) <= LETTERS) != long:
                    found.append((event["text"], Expectation(Line("ask"), (AcceptText(
                        asked[0]["label"], tuple(asked[0].get("names", ()))),))))
    return found


def heard_spelled(whisper: Whisper, clip: Path, question: Expectation) -> tuple[str | None, float]:
    """The name the live ears hear spelled in ``clip`` at ``question`` (None: none), and the
    milliseconds they worked on it."""
    said = sf.read(clip, dtype="int16")[0].tobytes()  # 16 kHz mono; may pass read_pcm's 30 s
    source = Frames(QUIET + said + QUIET * 4)
    begin = time.perf_counter()
    got = Ears(whisper, source, clock=lambda: source.seconds_read).listen(question,
                                                                          mode="spelling")
    ms = (time.perf_counter() - begin) * 1000
    return (got.meaning.text if got and isinstance(got.meaning, Text) else None), ms


def unasked(asked: Expectation) -> Expectation:
    """The same question, as one nothing was said aloud at (a label of its own)."""
    text = asked.accepts[0]
    return Expectation(asked.prompt, (AcceptText(f"{text.label} (spelled only)", text.names),))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voices", default=",".join(PLAYERS), help="comma-separated")
    parser.add_argument("--radio", action="store_true",
                        help="spell with the radio alphabet (Bravo, Uniform, ...)")
    parser.add_argument("--long", action="store_true",
                        help="the longer answers (more than two words or 16 letters), alone")
    args = parser.parse_args()
    whisper = Whisper()
    with tempfile.TemporaryDirectory(prefix="spelled-") as tmp:
        work = Path(tmp)
        answers = names(work, args.long)
        right = dict.fromkeys(["alone"] + ([] if args.long else [
            "after the name", "after another's name", "after another answer"]), 0)
        changed = {key: 0 for key in right}
        ms: dict[str, list[float]] = {key: [] for key in right}
        voices = args.voices.split(",")
        for i, (name, asked) in enumerate(answers):
            want = " ".join(w.capitalize() for w in re.findall(r"[A-Za-z]+", name))
            for k, voice in enumerate(voices):
                spelled = clips.make_clip(work, aloud_letters(name, args.radio), None,
                                          voice).path
                before = {"after the name": (name, voice),
                          "after another's name": (name, voices[(k + 1) % len(voices)]),
                          "after another answer": (answers[(i + OTHER) % len(answers)][0],
                                                   voice)}
                heard = {}
                for key in right:
                    question = asked if key in before else unasked(asked)
                    if key in before:
                        said, by = before[key]
                        hear_file(whisper, clips.make_clip(work, said, None, by).path, question)
                    heard[key], took = heard_spelled(whisper, spelled, question)
                    ms[key].append(took)
                    right[key] += heard[key] == want
                for key in right:
                    changed[key] += heard["alone"] == want and heard[key] != want
        n = len(answers) * len(voices)
        print(f"{len(answers)} names x {len(voices)} voices = {n} spellings")
        for key in right:
            times = " / ".join(f"{v:.0f}" for v in (*np.percentile(ms[key], [50, 95]),
                                                     max(ms[key])))
            print(f"  {key:22} right {right[key]:3}/{n}   right ones changed {changed[key]}   "
                  f"ms p50 / p95 / most {times}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
