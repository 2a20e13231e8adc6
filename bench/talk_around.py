"""Commands said while others talk on: the live ears on one stream of unbroken babble.

    python bench/talk_around.py [--snr DB,...] [--seeds N] [--out DIR]

A stream of the table bench's babble bed (tests/clips.py: three voices reading table talk,
looped) with twelve commands laid over it 4 s apart, said in turn by the table bench's five
player voices, at each SNR (the players' speech power over the babble's). The stream is fed
frame by frame to the live Ears (endpointer, Whisper, ``decide``) under the full command
grammar, as fast as they take it. A command counts as heard when the ears hand on its meaning
in an utterance ending no later than 1.5 s after its words (late when later: held open by the
talk). Every other utterance handed on is counted too: taken as a command sure (acted on
wrongly), or read back. ``--seeds``
plays the stream that many times, the babble shifted and the voices turned each time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import clips  # noqa: E402
from narrator.voice.asr import load_recognizer  # noqa: E402
from narrator.voice.hear import FULL, command_of  # noqa: E402
from narrator.voice.listener import Ears  # noqa: E402
from narrator.voice.mic import RATE, Frames  # noqa: E402

PLAYERS = ("flite:slt", "festival:slt-hts", "flite:rms", "espeak:en-us", "flite:awb")
COMMANDS = (("pause", "pause"), ("four and nine", "dice 4 9"), ("resume", "resume"),
            ("three successes", "successes 3"), ("repeat", "repeat"), ("next", "next"),
            ("go back", "back"), ("I rolled a six", "dice 6"), ("two successes", "successes 2"),
            ("heads", "heads"), ("one and five", "dice 1 5"), ("stop", "stop"))
LEAD, APART, LATE = 8.0, 4.0, 1.5  # seconds of talk first, between commands, and the lateness
# allowed a command's utterance after its words


def stream(out: Path, snr: float, seed: int) -> tuple[bytes, list[tuple[str, float, float]]]:
    """The babble with the commands laid over it (16 kHz int16), and each command's expected
    meaning with the times its words start and end."""
    said = [sf.read(clips.make_clip(out, words, None, PLAYERS[(i + seed) % len(PLAYERS)],
                                    pad=0.1).path)[0] for i, (words, _) in enumerate(COMMANDS)]
    power = float(np.mean([clips.speech_power(s) for s in said]))
    length = LEAD + sum(len(s) / RATE + APART for s in said)
    talk = np.roll(clips.babble(out, length), -seed * 3 * RATE)
    room = clips.at_snr(talk, power, snr)
    spans, at = [], LEAD
    for (_, command), s in zip(COMMANDS, said):
        start = int(at * RATE)
        room[start:start + len(s)] += s
        spans.append((command, at, at + len(s) / RATE))
        at += len(s) / RATE + APART
    return (np.clip(room, -1, 1) * 32767).astype(np.int16).tobytes(), spans


def play(recognizer, pcm: bytes, said: list[tuple[str, float, float]]) -> tuple[int, int, list]:
    """(commands heard in time, heard late, and every other utterance handed on, as (end,
    command or None, sure, text)); an utterance is a command's when it means a command said
    before it ended and not heard yet."""
    source = Frames(pcm)
    ears = Ears(recognizer, source)
    heard, late, talk, done = 0, 0, [], set()
    while (utterance := ears.listen(FULL)) is not None:
        at, got = source.seconds_read, command_of(utterance.meaning)
        last = max((n for n, (command, start, _) in enumerate(said)
                    if start <= at and command == got and n not in done), default=None)
        if last is not None:
            done.add(last)
            if at <= said[last][2] + LATE:
                heard += 1
            else:
                late += 1
        else:
            talk.append((at, got, utterance.sure, utterance.text))
    return heard, late, talk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snr", default="20,15,10", help="comma-separated SNRs in dB")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("/tmp/narrator-talk-around"))
    args = parser.parse_args()
    recognizer, notice = load_recognizer("whisper")
    if notice:
        print(notice)
    for snr in (float(s) for s in args.snr.split(",")):
        heard = late = sure = unsure = 0
        for seed in range(args.seeds):
            pcm, said = stream(args.out, snr, seed)
            h, l, talk = play(recognizer, pcm, said)
            heard, late = heard + h, late + l
            sure += sum(1 for _, got, certain, _ in talk if got and certain)
            unsure += sum(1 for _, got, certain, _ in talk if got and not certain)
            print(f"  {snr:g} dB, stream {seed}: {h}/{len(said)} heard, {l} late; the rest "
                  f"became {[(round(at, 1), text, got) for at, got, _, text in talk]}")
        total = len(COMMANDS) * args.seeds
        print(f"{snr:g} dB: heard {heard}/{total} = {heard / total:.0%} in time, {late} late; "
              f"taken as a command otherwise: {sure} sure, {unsure} read back")


if __name__ == "__main__":
    main()
