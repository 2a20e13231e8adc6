"""PortAudio streams that never hang the caller, and a device re-scan that is safe.

A stream whose device went away can block ``abort``/``close`` inside PortAudio for good, and
starting PortAudio again (the only way to see devices that appeared since it started, such as
a raw ALSA device back under a new number) closes every open stream, so it blocks on such a
stream too. Streams are therefore opened through ``open_stream`` (counted), closed through
``close_stream`` (on a helper thread, waited for a bounded time), and ``rescan`` starts
PortAudio again only while none is open.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

CLOSE_SECONDS = 1.0
LOG = logging.getLogger("narrator.sound")
_lock = threading.Lock()  # held while a stream opens and while PortAudio restarts
_open: set[Any] = set()


def open_stream(make: Callable[[], Any]) -> Any:
    """The stream ``make()`` opens, counted as open (PortAudio is not restarted meanwhile);
    not started: its owner keeps it first, as its callback may use it (``start_stream``)."""
    with _lock:
        stream = make()
        _open.add(stream)
    return stream


def start_stream(stream: Any) -> None:
    """Start ``stream``; one that fails to start is closed and its error raised."""
    try:
        stream.start()
    except Exception:
        close_stream(stream)
        raise


def close_stream(stream: Any, timeout: float = CLOSE_SECONDS) -> bool:
    """Abort and close ``stream`` on a helper thread; wait at most ``timeout``. False when
    PortAudio is still stuck closing it (it stays counted as open until it is closed)."""

    def release() -> None:
        try:
            stream.abort(ignore_errors=True)
            stream.close(ignore_errors=True)
        finally:
            with _lock:
                _open.discard(stream)

    closer = threading.Thread(target=release, name="portaudio-close", daemon=True)
    closer.start()
    closer.join(timeout)
    if closer.is_alive():
        LOG.warning("a sound stream is stuck closing (its device is gone); left behind")
    return not closer.is_alive()


def open_count() -> int:
    """How many streams are open (or stuck closing)."""
    with _lock:
        return len(_open)


def rescan() -> bool:
    """Start PortAudio again so that it lists the devices present now; only when no stream is
    open (False then, and nothing changes)."""
    import sounddevice as sd

    with _lock:
        if _open:
            return False
        sd._terminate()
        sd._initialize()
    return True
