"""Whether a sound heard over the narration is the narrator's own voice leaking through the
echo canceller, or someone at the table.

What leaks through (an echo path the linear filter has not learnt yet, AEC3's leftovers) is
still a linear function of what was played, so its magnitude-squared coherence with the
reference at the echo's tracked lag stays high; a player's voice has nothing to do with the
reference and scores near 0, even said 6 dB under the narrator. The echo canceller keeps what
the recogniser heard with that reference (``Recent``), and the ears ask, for an utterance
they could not tell by its words, how much of it is the narrator's (``Recent.likeness``).
"""

from __future__ import annotations

import threading
from collections import deque

import numpy as np

RATE = 16000
RECENT = 10.0              # seconds kept: the ears read seconds behind the capture while a
                           # word is decoded, and must still find its frames
SEGMENT, HOP = 512, 128    # the spectra: 32 ms windows, 8 ms apart
BAND = (200.0, 3500.0)     # Hz: where speech and the narrator's voice are
SILENT = 1e-3              # RMS under which the reference holds nothing to compare with


def coherence(sound: np.ndarray, reference: np.ndarray) -> float:
    """How much of ``sound`` is a linear function of ``reference`` (same length, aligned):
    their magnitude-squared coherence over BAND, each frequency weighted by the sound's power
    there; 0 for a sound too short to tell."""
    if len(sound) < SEGMENT:
        return 0.0
    window = np.hanning(SEGMENT)
    starts = range(0, len(sound) - SEGMENT + 1, HOP)
    x = np.fft.rfft(np.array([sound[i:i + SEGMENT] for i in starts]) * window, axis=1)
    y = np.fft.rfft(np.array([reference[i:i + SEGMENT] for i in starts]) * window, axis=1)
    band = slice(round(BAND[0] * SEGMENT / RATE), round(BAND[1] * SEGMENT / RATE))
    cross = np.abs((x * np.conj(y)).sum(axis=0)[band]) ** 2
    power_x = (np.abs(x[:, band]) ** 2).sum(axis=0)
    power_y = (np.abs(y[:, band]) ** 2).sum(axis=0)
    msc = cross / (power_x * power_y + 1e-20)
    return float((msc * power_x).sum() / (power_x.sum() + 1e-20))


class Recent:
    """The last RECENT seconds of what the recogniser heard while the narrator was audible,
    each frame with the reference at its echo's lag. Kept by the capture's thread, read by
    the ears'."""

    def __init__(self) -> None:
        self._frames: deque[tuple[float, np.ndarray, np.ndarray]] = deque()
        self._lock = threading.Lock()

    def keep(self, at: float, heard: np.ndarray, reference: np.ndarray) -> None:
        """A frame captured from monotonic time ``at`` as the recogniser hears it, and what was
        played as its echo (float samples, the same length)."""
        with self._lock:
            self._frames.append((at, heard, reference))
            while self._frames and self._frames[0][0] < at - RECENT:
                self._frames.popleft()

    def likeness(self, start: float, end: float) -> float | None:
        """How much of what was heard from ``start`` to ``end`` (capture times) is the
        narrator's echo (``coherence``); None when the narrator was not heard then."""
        with self._lock:
            kept = [(h, r) for at, h, r in self._frames if start - 0.015 <= at < end]
        if not kept:
            return None
        heard, reference = (np.concatenate(part) for part in zip(*kept))
        if np.sqrt(np.mean(reference ** 2)) < SILENT:
            return None
        return coherence(heard, reference)
