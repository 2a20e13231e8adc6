"""Listening benchmark: accuracy per condition and voice, table talk, latency, idle CPU, memory.

    python bench/listen.py [--engine whisper|pocketsphinx|vosk] [--phrases N] [--talk N]
                           [--voices all|VOICE,...] [--set bench|tune] [--out DIR] [--no-denoise]
                           [--latency N] [--latency-snr DB] [--timing-only] [--misses]
                           [--conditions clean,10dB,5dB,babble]

Phrases: every phrase the phrase language generates (``Grammar.phrases()``) for a set of
representative prompts (a die, a coin, successes, "next", and the reading, paused and
confirming modes), each with the meaning ``understand()`` gives it typed; ``--phrases N`` takes
N of them spread evenly over the sorted list (0: all). Each is spoken by every voice (8 by
default: 4 flite, 3 espeak-ng, Festival's US slt HTS) clean, in pink noise at 10 and 5 dB SNR
and in babble (three other voices talking) at 10 dB. Table talk: the lines of tests/clips.py,
each heard at one of the prompts in turn, clean and at 10 dB. ``--set tune`` uses other voices
(tests/clips.py TUNE_VOICES): thresholds are set on those, figures are reported on these.

Right: the ears' meaning is the typed meaning. Talk accepted: any meaning but "didn't catch
that"; "unread": a game input taken without a read-back. Latency: end of speech in the clip to
the decision, wall clock, the clip streamed through the live Ears in real time (30 ms frames
every 30 ms: endpointer, decoding ahead at a pause, decoding); clean, or with ``--latency-snr``
in pink noise (then the end of speech is the end of the clip's noise: the noise hides it). Idle: CPU
share of one core while the Ears listen to 20 s of quiet room noise; RSS: peak resident memory.
Clips are cached in DIR. ``--misses`` prints every command heard wrong (condition, voice, prompt,
phrase, what was heard, its confidence); ``--conditions`` keeps some conditions only.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import clips  # noqa: E402
from narrator.events import Control, Line, Unclear  # noqa: E402
from narrator.understand import (  # noqa: E402
    AcceptContinue, AcceptDice, AcceptSuccesses, AcceptWords, Expectation, grammar, understand,
)
from narrator.voice.asr import load_recognizer  # noqa: E402
from narrator.voice.denoise import make_denoiser  # noqa: E402
from narrator.voice.hear import command_of, hear_file, read_pcm  # noqa: E402
from narrator.voice.listener import Ears  # noqa: E402
from narrator.voice.mic import FRAME, RATE, Frames, rms  # noqa: E402


def _ask(*accepts) -> Expectation:
    return Expectation(Line("bench.ask"), accepts)


#: (name, expectation, mode): what a session asks, and how it listens
PROMPTS = (
    ("die", _ask(AcceptDice(6, 1, 1)), "asking"),
    ("coin", _ask(AcceptWords(("heads", "tails"))), "asking"),
    ("successes", _ask(AcceptSuccesses(4)), "asking"),
    ("next", _ask(AcceptContinue()), "asking"),
    ("reading", None, "reading"),
    ("paused", None, "paused"),
    ("confirming", _ask(AcceptDice(6, 1, 1)), "confirming"),
)
#: (name, SNR dB or None, noise kind)
CONDITIONS = (("clean", None, "pink"), ("10 dB", 10, "pink"), ("5 dB", 5, "pink"),
              ("babble", 10, "babble"))


def phrases(limit: int) -> list[tuple[str, str, object, str]]:
    """(prompt, phrase, expectation, mode) for every phrase of every prompt, or ``limit`` of
    them drawn by a hash of prompt and phrase: the same sample when the language gains or loses
    other phrases (spreading evenly over the sorted list shifted every pick)."""
    every = [(name, phrase, exp, mode) for name, exp, mode in PROMPTS
             for phrase in sorted(grammar(exp, mode).phrases(5000) or ())]
    if limit and limit < len(every):
        drawn = sorted(every, key=lambda item: hashlib.sha1(
            f"{item[0]}/{item[1]}".encode()).hexdigest())[:limit]
        every = [item for item in every if item in drawn]
    return every


def speech_end(pcm: bytes) -> float:
    """Seconds from the clip's start to the end of its last audible frame: louder than 40 dB
    under the clip's peak (a word's last consonant, the burst of a final "k", still counts)."""
    levels = [rms(pcm[i:i + 2 * FRAME]) for i in range(0, len(pcm), 2 * FRAME)]
    loud = [i for i, level in enumerate(levels) if level > 0.01 * max(levels)]
    return (loud[-1] + 1) * FRAME / RATE


QUIET = (np.random.default_rng(1).standard_normal(RATE) * 30).astype(np.int16).tobytes()


class Paced(Frames):
    """Recorded audio delivered as a microphone does: one 30 ms frame every 30 ms."""

    def __init__(self, pcm: bytes) -> None:
        super().__init__(pcm)
        self.began = time.perf_counter()

    def read(self, timeout: float | None = None) -> bytes:
        due = self.began + self.seconds_read
        time.sleep(max(0.0, due - time.perf_counter()))
        return super().read(timeout)


def latency(rec, clip, expectation, mode: str, denoise: bool) -> float | None:
    """End of speech → decision in ms, in real time: the clip is played into the live Ears at
    the microphone's pace, and the clock runs from the moment its last audible frame came in
    (None when nothing came back)."""
    pcm = read_pcm(clip.path)
    source = Paced(QUIET + pcm + QUIET)
    ears = Ears(rec, source, denoiser=make_denoiser(denoise))
    if ears.listen(expectation, mode=mode) is None:
        return None
    spoken = source.began + len(QUIET) / 2 / RATE + speech_end(pcm)
    return (time.perf_counter() - spoken) * 1000


def idle(rec, denoise: bool, seconds: float = 20.0) -> float:
    """CPU share of one core while listening to quiet room noise (as fast as it can be read,
    so the share is CPU time over the audio's duration)."""
    noise = (np.random.default_rng(2).standard_normal(int(RATE * seconds)) * 40).astype(np.int16)
    ears = Ears(rec, Frames(noise.tobytes()), denoiser=make_denoiser(denoise))
    begin = time.process_time()
    ears.listen(None, mode="reading")
    return (time.process_time() - begin) / seconds


def percent(part: int, whole: int) -> str:
    return f"{part / whole:6.1%}" if whole else "     -"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="whisper")
    parser.add_argument("--phrases", type=int, default=0, help="phrases to speak (0: all)")
    parser.add_argument("--talk", type=int, default=0, help="table-talk lines (0: all)")
    parser.add_argument("--voices", default="all")
    parser.add_argument("--set", choices=["bench", "tune"], default="bench")
    parser.add_argument("--latency", type=int, default=40, help="clips timed through the Ears")
    parser.add_argument("--latency-snr", type=int, default=None,
                        help="time clips in pink noise at this SNR in dB (default: clean)")
    parser.add_argument("--timing-only", action="store_true",
                        help="only latency, idle CPU and memory")
    parser.add_argument("--out", type=Path, default=Path("/tmp/narrator-bench-clips"))
    parser.add_argument("--no-denoise", dest="denoise", action="store_false")
    parser.add_argument("--misses", action="store_true", help="print every command heard wrong")
    parser.add_argument("--conditions", default="all",
                        help="comma-separated: clean, 10dB, 5dB, babble (default: all)")
    args = parser.parse_args()
    if args.conditions != "all":
        wanted = args.conditions.replace(" ", "").split(",")
        args.conditions = tuple(c for c in CONDITIONS if c[0].replace(" ", "") in wanted)
    else:
        args.conditions = CONDITIONS
    voices = clips.VOICES if args.set == "bench" else clips.TUNE_VOICES
    if args.voices != "all":
        voices = tuple(args.voices.split(","))
    rec, notice = load_recognizer(args.engine)
    items = phrases(args.phrases)
    talk = clips.TABLE_TALK[:args.talk or None]
    print(f"engine {rec.name}{' (' + notice + ')' if notice else ''}; {len(items)} phrases x "
          f"{len(voices)} voices x {len(args.conditions)} conditions; {len(talk)} lines of talk; "
          f"noise suppression {'on' if args.denoise else 'off'}")
    if not args.timing_only:
        accuracy(rec, items, voices, talk, args)
    timing(rec, items, voices, args)


def accuracy(rec, items, voices, talk, args) -> None:
    """Print accuracy per voice and condition, and how much table talk is taken."""
    right: dict[tuple[str, str], list[bool]] = defaultdict(list)
    unread_wrong = 0
    decode_ms: list[float] = []
    for cond, snr, kind in args.conditions:
        for voice in voices:
            for prompt, phrase, exp, mode in items:
                clip = clips.make_clip(args.out / kind, phrase, phrase, voice, snr, noise=kind)
                r = hear_file(rec, clip.path, exp, args.denoise, mode)
                want = command_of(understand(phrase, exp, mode))
                right[(cond, voice)].append(r["command"] == want)
                if args.misses and r["command"] != want:
                    print(f"  missed: {cond}, {voice}, {prompt}: {phrase!r} -> "
                          f"{r.get('text')!r} ({r.get('command')}, {r.get('confidence')})")
                unread_wrong += r["command"] not in (None, want) and r["sure"]
                decode_ms.append(r["ms"])
    print(f"\n{'voice':<22}" + "".join(f"{c[0]:>9}" for c in args.conditions))
    for voice in voices:
        print(f"{voice:<22}" + "".join(
            f"{percent(sum(right[(c[0], voice)]), len(right[(c[0], voice)])):>9}"
            for c in args.conditions))
    print(f"{'all voices':<22}" + "".join(
        f"{percent(sum(sum(right[(c[0], v)]) for v in voices), len(items) * len(voices)):>9}"
        for c in args.conditions))
    print(f"wrong and taken without a read-back: {unread_wrong}; decoding alone p50 "
          f"{statistics.median(decode_ms):.0f} ms, p95 {np.percentile(decode_ms, 95):.0f} ms")
    any_cmd = unread = heard_talk = 0
    for cond, snr in (("clean", None), ("10 dB", 10)):
        for i, line in enumerate(talk):
            voice = voices[i % len(voices)]
            _, exp, mode = PROMPTS[i % len(PROMPTS)]
            clip = clips.make_clip(args.out / "pink", line, None, voice, snr)
            r = hear_file(rec, clip.path, exp, args.denoise, mode)
            heard_talk += 1
            if r["command"] is not None:
                any_cmd += 1
                meaning = understand(r["text"], exp, mode)
                unread += r["sure"] and not isinstance(meaning, (Control, Unclear))
                print(f"  talk taken: {line!r} ({voice}, {cond}) -> {r['command']}"
                      f"{'' if r['sure'] else ' (read back)'}")
    print(f"table talk: {percent(any_cmd, heard_talk)} of {heard_talk} taken as any command; "
          f"{unread} as a game input without a read-back")


def timing(rec, items, voices, args) -> None:
    """Print end of speech to decision, idle CPU and peak memory."""
    timed = items[::max(1, len(items) // args.latency)][:args.latency]
    lat = [ms for prompt, phrase, exp, mode in timed
           for ms in [latency(rec, clips.make_clip(args.out / "pink", phrase, phrase, voices[0],
                                                   args.latency_snr),
                              exp, mode, args.denoise)] if ms is not None]
    cpu = idle(rec, args.denoise)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    p50, p95 = (statistics.median(lat), float(np.percentile(lat, 95))) if lat else (0, 0)
    noise = "clean" if args.latency_snr is None else f"{args.latency_snr} dB pink"
    print(f"end of speech to decision: p50 {p50:.0f} ms, p95 {p95:.0f} ms ({len(lat)} clips, "
          f"{voices[0]}, {noise})")
    print(f"idle listening: {cpu:.1%} of one core; peak resident memory {rss:.0f} MB")


if __name__ == "__main__":
    main()
