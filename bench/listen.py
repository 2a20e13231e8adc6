"""Listening benchmark: accuracy clean and at 10 dB SNR, table talk accepted, latency, idle CPU.

    python bench/listen.py [--voices flite|espeak|all] [--out DIR] [--no-denoise]

Clips are generated with flite and espeak-ng (tests/clips.py) and cached in DIR. For each engine
present it prints one row per voice family. Accuracy: the clip's command is exactly right
(`narrator hear` judging). Talk accepted: table-talk clips that yielded any command; "as input":
those that yielded a game input (dice, successes, words), which the session still reads back
for confirmation. Latency: from the end of speech in the clip to the accepted phrase, streaming
30 ms frames through the live Ears (endpointer hangover + decoding). Idle: CPU share of one
core and resident memory while the Ears listen to quiet room noise. Noise suppression
(RNNoise) is on, as in the app, unless --no-denoise.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import clips  # noqa: E402
from narrator.events import Control  # noqa: E402
from narrator.voice.asr import PocketSphinx, Vosk, find_vosk_model  # noqa: E402
from narrator.understand import understand  # noqa: E402
from narrator.voice.denoise import make_denoiser  # noqa: E402
from narrator.voice.hear import FULL, hear_file, read_pcm  # noqa: E402
from narrator.voice.listener import Ears  # noqa: E402
from narrator.voice.mic import FRAME, RATE, Frames, rms  # noqa: E402

FAMILIES = {"flite": [v for v in clips.VOICES if v.startswith("flite")],
            "espeak": [v for v in clips.VOICES if v.startswith("espeak")]}


def engines() -> list:
    found = [PocketSphinx()]
    model = find_vosk_model()
    if model is not None:
        found.append(Vosk(model))
    return found


def accuracy(rec, items, denoise: bool) -> float:
    right = sum(hear_file(rec, c.path, FULL, denoise)["command"] == c.expected for c in items)
    return right / len(items)


def talk_accepted(rec, items, denoise: bool) -> tuple[float, float]:
    commands = [hear_file(rec, c.path, FULL, denoise)["command"] for c in items]
    said = [c.phrase for c, cmd in zip(items, commands) if cmd is not None]
    as_input = sum(not isinstance(understand(s, FULL), Control) for s in said)
    return len(said) / len(items), as_input / len(items)


def speech_end(pcm: bytes) -> float:
    """Seconds from the clip's start to the end of its last audible frame: louder than 40 dB
    under the clip's peak (a word's last consonant, the burst of a final "k", still counts)."""
    levels = [rms(pcm[i:i + 2 * FRAME]) for i in range(0, len(pcm), 2 * FRAME)]
    loud = [i for i, level in enumerate(levels) if level > 0.01 * max(levels)]
    return (loud[-1] + 1) * FRAME / RATE


def latencies(rec, items, denoise: bool) -> list[float]:
    """End of speech → accepted phrase, in ms, for clips the Ears accept (1 s of quiet after)."""
    out = []
    quiet = (np.random.default_rng(1).standard_normal(RATE) * 30).astype(np.int16).tobytes()
    for c in items:
        pcm = read_pcm(c.path)
        ears = Ears(rec, Frames(quiet + pcm + quiet), denoiser=make_denoiser(denoise))
        if ears.listen(FULL) is None:
            continue
        hangover = ears.source.seconds_read - (len(quiet) // 2 / RATE + speech_end(pcm))
        out.append(hangover * 1000 + ears.last.ms)
    return out


def idle(rec, denoise: bool, seconds: float = 20.0) -> tuple[float, float]:
    """CPU share of one core and max RSS (MB) while listening to quiet room noise."""
    noise = (np.random.default_rng(2).standard_normal(int(RATE * seconds)) * 40).astype(np.int16)
    ears = Ears(rec, Frames(noise.tobytes()), denoiser=make_denoiser(denoise))
    begin = time.process_time()
    ears.listen(FULL)
    cpu = (time.process_time() - begin) / seconds
    return cpu, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", choices=["flite", "espeak", "all"], default="all")
    parser.add_argument("--out", type=Path, default=Path("/tmp/narrator-bench-clips"))
    parser.add_argument("--no-denoise", dest="denoise", action="store_false")
    args = parser.parse_args()
    families = list(FAMILIES) if args.voices == "all" else [args.voices]
    print(f"{'engine':<13}{'voices':<8}{'clean':>7}{'10 dB':>7}{'talk':>7}{'as input':>9}"
          f"{'lat p50':>9}{'lat p95':>9}{'idle cpu':>9}{'rss MB':>8}")
    print(f"noise suppression {'on' if args.denoise else 'off'}")
    for rec in engines():
        cpu, rss = idle(rec, args.denoise)
        for family in families:
            voices = FAMILIES[family]
            clean = clips.command_clips(args.out, voices)
            noisy = clips.command_clips(args.out / "noisy", voices, snr_db=10)
            talk = clips.talk_clips(args.out, voices) + clips.talk_clips(args.out / "noisy",
                                                                         voices, snr_db=10)
            lat = latencies(rec, clean, args.denoise) or [float("nan")]
            p95 = float(np.percentile(lat, 95))
            talk_any, talk_input = talk_accepted(rec, talk, args.denoise)
            print(f"{rec.name:<13}{family:<8}{accuracy(rec, clean, args.denoise):>7.1%}"
                  f"{accuracy(rec, noisy, args.denoise):>7.1%}{talk_any:>7.1%}{talk_input:>9.1%}"
                  f"{statistics.median(lat):>7.0f}ms{p95:>7.0f}ms{cpu:>9.1%}{rss:>8.0f}")


if __name__ == "__main__":
    main()
