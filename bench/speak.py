"""Speech-out bench: time from a "next" (``Speaker.say``) to the first audio sample handed
to the device and to the first sound heard in the room, uncached and cached, and the time
to render all Slow Burn tracks.

Runs in a private PulseAudio room (tests/audio_room.py) when its tools exist, else on the
default output device. Usage: python bench/speak.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from audio_room import audio_room, missing_tools  # noqa: E402
from test_speak_audio import Recorder, rescan_devices  # noqa: E402

from narrator.events import ReadTrack  # noqa: E402
from narrator.script.loader import find_script, load_script  # noqa: E402
from narrator.script.render import render  # noqa: E402
from narrator.settings import Settings  # noqa: E402
from narrator.voice.render_tracks import render_script  # noqa: E402
from narrator.voice.speaker import Speaker  # noqa: E402
from narrator.voice.tts import Renderer  # noqa: E402


def first_sound(speaker: Speaker, saids, said_at: list[float]) -> float:
    """Seconds from saying a track to its first sample reaching the device."""
    speaker.stop()
    speaker.wait(5)
    time.sleep(0.3)  # let the last track's tail die away in the room
    said_at.append(time.monotonic())
    start = time.perf_counter()
    for said in saids:
        speaker.say(said)
    while (at := speaker.last_sound_at) is None or at < start:
        time.sleep(0.0005)
    time.sleep(0.5)  # be heard in the room
    return at - start


def heard(loud: list[float], said_at: list[float]) -> list[float]:
    """Seconds from each say to the first sound recorded in the room after it."""
    return [min(t for t in loud if t > at) - at for at in said_at]


def ms(values: list[float]) -> str:
    return (f"{1000 * statistics.median(values):.1f} / {1000 * max(values):.1f}"
            if values else "-")


def main() -> None:
    room = nullcontext() if missing_tools() else audio_room()
    device = None if missing_tools() else "pulse"
    script = load_script(find_script("slow_burn"))
    tracks = [render(script, ReadTrack(t.id)) for t in script.tracks]
    rows = []
    with tempfile.TemporaryDirectory() as tmp, room:
        os.environ["NARRATOR_CACHE"] = str(Path(tmp) / "cache")
        os.environ["NARRATOR_CONFIG"] = str(Path(tmp) / "config.yaml")
        if device:
            rescan_devices()
        speaker = Speaker(Settings(output_device=device))
        speaker.wait(2)
        said_uncached: list[float] = []
        said_cached: list[float] = []
        with Recorder() if device else nullcontext() as rec:
            uncached = [first_sound(speaker, saids, said_uncached) for saids in tracks]
            cached = [first_sound(speaker, saids, said_cached) for saids in tracks]
            speaker.stop()
            time.sleep(0.3)
        speaker.close()
        loud = list(rec.loud_times()) if rec else []
        rows += [("say(track) → first sample to device, uncached (median / max)", ms(uncached)),
                 ("say(track) → first sample to device, cached (median / max)", ms(cached)),
                 ("say(track) → first sound in the room, uncached", ms(heard(loud, said_uncached)
                                                                     if loud else [])),
                 ("say(track) → first sound in the room, cached", ms(heard(loud, said_cached)
                                                                   if loud else [])),
                 ("output device", device or "default")]
        os.environ["NARRATOR_CACHE"] = str(Path(tmp) / "cache2")
        for label in ("render all 19 tracks, empty cache", "render all 19 tracks, warm cache"):
            start = time.perf_counter()
            paths = render_script(script, Path(tmp) / "out", Renderer())
            rows.append((label, f"{time.perf_counter() - start:.2f} s"))
        audio = sum(_seconds(p) for p in paths)
        rows.append(("audio rendered", f"{audio / 60:.1f} min in {len(paths)} files"))
    table = Table(title="narrator speech out")
    table.add_column("measure")
    table.add_column("value (ms unless said)")
    for row in rows:
        table.add_row(*row)
    Console().print(table)


def _seconds(path: Path) -> float:
    import soundfile as sf

    return sf.info(str(path)).duration


if __name__ == "__main__":
    main()
