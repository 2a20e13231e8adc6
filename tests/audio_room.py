"""A real audio room for tests: a private PulseAudio daemon with a null sink called ``room``.

What plays into the sink can be recorded from ``room.monitor``, so a test can play a player's
voice with ``paplay`` and have the app hear it through sounddevice, with no sound card.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

NEEDED = ("pulseaudio", "pactl", "paplay", "parecord")


def missing_tools() -> list[str]:
    """The programs a room needs that are not installed."""
    return [t for t in NEEDED if shutil.which(t) is None]


@contextmanager
def audio_room(sink: str = "room") -> Iterator[dict[str, str]]:
    """Start a private PulseAudio with a null sink; yield the environment that points at it.

    The yielded mapping has XDG_RUNTIME_DIR, PULSE_SINK (``sink``) and PULSE_SOURCE
    (``sink.monitor``); it is also applied to ``os.environ`` while the room is open, so
    sounddevice's ``pulse`` device plays into the room and records from its monitor.
    PortAudio lists devices once, when it starts; if this process has already started it,
    it is started again (when no stream is open) so that the room's ``pulse`` device is seen.
    """
    runtime = Path(tempfile.mkdtemp(prefix="narrator-room-"))
    env = {
        "XDG_RUNTIME_DIR": str(runtime),
        "PULSE_SINK": sink,
        "PULSE_SOURCE": f"{sink}.monitor",
    }
    full = {**os.environ, **env}
    subprocess.run(
        ["pulseaudio", "--daemonize=yes", "--exit-idle-time=-1", "-n",
         "--load=module-native-protocol-unix",
         f"--load=module-null-sink sink_name={sink} rate=16000",
         "--log-target=stderr"],
        env=full, check=True, capture_output=True, timeout=30,
    )
    for _ in range(100):
        if subprocess.run(["pactl", "info"], env=full, capture_output=True).returncode == 0:
            break
        time.sleep(0.05)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    _rescan_devices()
    try:
        yield env
    finally:
        subprocess.run(["pulseaudio", "--kill"], env=full, capture_output=True, timeout=30)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(runtime, ignore_errors=True)


def _rescan_devices() -> None:
    """Start PortAudio again if this process has started it, so it lists the devices now
    (only between streams: never while one is open or stuck closing on another thread)."""
    if "sounddevice" in sys.modules:
        from narrator.voice.streams import rescan

        rescan()
