"""A second output stream kept open and silent, so that stopping the narration is heard at once.

A running stream holds its latency's worth of sound (80 ms) in the device's buffer: silenced,
it still plays that out. Through PulseAudio's ALSA plugin the only way to drop it is to abort
the stream, and a stream started or opened again stays silent for 1.5–2 s. So the player keeps
a spare stream running (silent) beside the one that plays: on a stop it plays on from the
spare, aborts the other (what it had buffered is never heard), and a new spare opens in the
background. A spare is taken only once it has run READY seconds (before that it would be
silent too); until then, or when a second stream cannot be opened (a device only one stream
may hold), a stop is heard a latency later, as before.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from narrator.voice import streams

READY = 2.5  # seconds a new stream runs before what it is given is heard at once


class Spare:
    """A stream opened by ``open_stream`` (opened and started, silent until it is taken), with
    a new one opened in the background after each ``take``."""

    def __init__(self, open_stream: Callable[[], Any]) -> None:
        self._open = open_stream
        self._lock = threading.Lock()
        self._stream: Any = None
        self._since = 0.0
        self._closed = False
        self._opener: threading.Thread | None = None
        self._renew()

    def take(self) -> Any:
        """The spare stream when it has run READY seconds (a new one is opened meanwhile), or
        None (it is not ready, or none could be opened)."""
        with self._lock:
            stream = self._stream
            if stream is None or not stream.active or time.monotonic() - self._since < READY:
                return None
            self._stream = None
        self._renew()
        return stream

    def is_stream(self, stream: Any) -> bool:
        """Whether ``stream`` is the spare (silent: not the one that plays)."""
        return stream is not None and stream is self._stream

    def close(self) -> None:
        """Close the spare; none is opened after this."""
        with self._lock:
            self._closed = True
            stream, self._stream = self._stream, None
        if self._opener is not None:
            self._opener.join(streams.CLOSE_SECONDS)
        if stream is not None:
            streams.close_stream(stream)

    def _renew(self) -> None:
        self._opener = threading.Thread(target=self._open_one, name="spare-stream", daemon=True)
        self._opener.start()

    def _open_one(self) -> None:
        try:
            stream = self._open()
        except Exception:  # PortAudioError, ValueError: a device only one stream may hold
            return
        with self._lock:
            if not self._closed:
                self._stream, self._since = stream, time.monotonic()
                return
        streams.close_stream(stream)
