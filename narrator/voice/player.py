"""Pausable playback through one sounddevice output stream.

One clip plays at a time; ``pause`` keeps its sample position and ``resume`` continues from
it. Short cues (earcons) mix over whatever plays. The stream runs with a fixed block size
(PulseAudio's ALSA plugin stalls with a variable one) and stays open, playing silence between
clips, so a clip starts within a block; it is reopened only when a clip needs another
sample rate or channel count.

A stream that stops by itself or stops calling back means the device is gone: ``wait``
raises ``DeviceLost``, and so does a clip that stops advancing (a watchdog: no clip outlives
its own length by more than STALL_SECONDS). Streams are opened and closed through
``streams``, so closing one whose device went away never blocks.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sounddevice as sd
import soundfile as sf

from narrator.voice import streams
from narrator.voice.echo import PLAYED

SPEECH_RATE = 22050  # the stream's rate: every clip is played at it
BLOCK_SECONDS = 0.02
LATENCY_SECONDS = 0.08  # lower underruns on a busy machine; pause still silent in < 0.1 s
STALL_SECONDS = 2.0  # no callback for this long: the device is gone (PulseAudio's null sink
# pulls in bursts; a stream whose device went away usually stops at once: ``active``)
OPEN_GRACE_SECONDS = 3.0  # a new PulseAudio stream may not call back for ~1.5 s


class DeviceLost(RuntimeError):
    """The output device failed or disappeared."""


@dataclass(frozen=True)
class Clip:
    """Samples (frames × channels, float32) at a sample rate."""

    samples: np.ndarray
    samplerate: int

    @classmethod
    def load(cls, path: str | Path) -> Clip:
        """Read a WAV, FLAC or OGG file."""
        samples, rate = sf.read(str(path), dtype="float32", always_2d=True)
        return cls(samples, int(rate))

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.samplerate

    def at(self, samplerate: int) -> Clip:
        """This clip at another sample rate (the open stream's, so it need not be reopened)."""
        if samplerate == self.samplerate:
            return self
        import soxr

        samples = soxr.resample(self.samples, self.samplerate, samplerate)
        return Clip(samples.astype(np.float32), samplerate)


class Player:
    """Plays clips on ``device`` (a sounddevice name or index; None is the default)."""

    def __init__(self, device: str | int | None = None, volume: float = 1.0) -> None:
        self.device = device
        self.volume = volume
        self._lock = threading.Lock()
        self._stream: sd.OutputStream | None = None
        self._clip: Clip | None = None
        self._pos = 0
        self._paused = False
        self._cue: np.ndarray | None = None
        self._cue_pos = 0
        self._done = threading.Event()
        self._done.set()
        self._tick = 0.0
        self._called = False  # the stream has called back since it opened
        self._gain = volume
        self._due = float("inf")  # when the current clip must have ended (the watchdog)
        self.started = threading.Event()  # set when the current clip's first sample went out
        self.clip_started_at: float | None = None  # perf_counter of the clip's first sample
        self.heard_at: float | None = None  # monotonic time the clip's first sample is heard
        self.heard_until = 0.0  # monotonic time the last clip sample handed out is heard

    # ------------------------------------------------------------------ stream

    def _ensure_stream(self, samplerate: int, channels: int) -> sd.OutputStream:
        """An open stream in this format (PortAudioError/ValueError when the device fails)."""
        s = self._stream
        if s is not None and s.active and s.samplerate == samplerate and s.channels == channels:
            return s
        self.release()
        self._tick, self._called = time.monotonic(), False
        s = streams.open_stream(lambda: sd.OutputStream(
            device=self.device, samplerate=samplerate, channels=channels, dtype="float32",
            blocksize=int(samplerate * BLOCK_SECONDS), latency=LATENCY_SECONDS,
            callback=self._callback))
        self._stream = s
        streams.start_stream(s)
        return s

    def release(self) -> None:
        """Close the stream (the next clip or cue opens one again); never blocks for long."""
        s, self._stream = self._stream, None
        if s is not None:
            streams.close_stream(s)

    def _callback(self, out: np.ndarray, frames: int, when, status) -> None:
        self._tick, self._called = time.monotonic(), True
        out.fill(0)
        with self._lock:
            clip = self._clip
            if clip is not None and not self._paused:
                chunk = clip.samples[self._pos:self._pos + frames]
                out[:len(chunk)] = chunk * self._gain
                heard = self._tick + self._ahead(when)  # when this block starts to be heard
                if self._pos == 0 and len(chunk):
                    self.clip_started_at = time.perf_counter()
                    self.heard_at = heard
                    self._due = time.monotonic() + clip.seconds + STALL_SECONDS
                    self.started.set()
                if len(chunk):
                    self.heard_until = heard + len(chunk) / clip.samplerate
                self._pos += len(chunk)
                if self._pos >= len(clip.samples):
                    self._clip = None
                    self._done.set()
            if self._cue is not None:
                part = self._cue[self._cue_pos:self._cue_pos + frames]
                out[:len(part)] += part[:, None] * self.volume
                self._cue_pos += len(part)
                if self._cue_pos >= len(self._cue):
                    self._cue = None
        self._played(out, when, bool(status.output_underflow))

    def _played(self, out: np.ndarray, when, gap: bool) -> None:
        """Hand the block to the echo canceller's reference, with the time it will be heard
        (``gap``: the stream underran before it)."""
        s = self._stream
        if s is None:
            return
        PLAYED.write(self, out, int(s.samplerate), self._tick, self._ahead(when), gap)

    def _ahead(self, when) -> float:
        """Seconds from this callback to its block being heard (the stream's latency when the
        host API gives no usable time stamps)."""
        ahead = when.outputBufferDacTime - when.currentTime
        return ahead if 0.0 <= ahead < 1.0 else self.latency

    # ------------------------------------------------------------------ control

    def check(self, keep: bool = False) -> None:
        """Open a stream for speech (22.05 kHz mono), closed again unless ``keep``.

        PortAudioError or ValueError when the device fails. Keeping it open matters: a new
        stream through PulseAudio's ALSA plugin stays silent for about 1.5 s, a running one
        starts a clip within a block.
        """
        self._ensure_stream(SPEECH_RATE, 1)
        if not keep:
            self.release()

    def play(self, clip: Clip, paused: bool = False) -> None:
        """Start ``clip`` from its first sample (held at it when ``paused``), replacing what plays,
        at the volume set now (a change applies from the next clip)."""
        self._ensure_stream(clip.samplerate, clip.samples.shape[1])
        with self._lock:
            self._clip, self._pos, self._paused = clip, 0, paused
            self._gain = self.volume
            self._due = float("inf")
            self.clip_started_at = self.heard_at = None
            self.started.clear()
            self._done.clear()

    def cue(self, make) -> None:
        """Mix a short mono cue over the output; ``make(samplerate)`` builds its samples."""
        s = self._stream if self._stream is not None and self._stream.active else None
        if s is None:
            s = self._ensure_stream(SPEECH_RATE, 1)
        samples = make(int(s.samplerate))
        with self._lock:
            self._cue, self._cue_pos = samples, 0

    def pause(self) -> None:
        """Go silent at once; the position is kept, less what was still in the device buffer."""
        with self._lock:
            if self._clip is None or self._paused:
                return
            self._paused = True
            self._due = float("inf")
            s = self._stream
            unheard = int(s.latency * s.samplerate) if s is not None else 0
            self._pos = max(0, self._pos - unheard)

    def resume(self) -> None:
        """Continue from the sample where ``pause`` stopped."""
        with self._lock:
            if self._paused and self._clip is not None:
                left = (len(self._clip.samples) - self._pos) / self._clip.samplerate
                self._due = time.monotonic() + left + self.latency + STALL_SECONDS
            self._paused = False

    def stop(self) -> None:
        """Drop the clip."""
        with self._lock:
            self._clip, self._paused = None, False
            self._done.set()
            self.started.set()

    @property
    def latency(self) -> float:
        """Seconds from a sample handed to the device to its being heard."""
        s = self._stream
        return float(s.latency) if s is not None else 0.0

    @property
    def alive(self) -> bool:
        """The stream is open and calling back (False once the device is gone)."""
        s = self._stream
        limit = STALL_SECONDS if self._called else OPEN_GRACE_SECONDS
        return s is not None and s.active and time.monotonic() - self._tick < limit

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def playing(self) -> bool:
        """A clip is loaded and not paused."""
        return self._clip is not None and not self._paused

    @property
    def position(self) -> int:
        """The current clip's next frame."""
        return self._pos

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the clip ends or is stopped (True) or ``timeout`` passes (False).

        Raises DeviceLost when the stream died or stopped calling back meanwhile, or the clip
        outlived its length by STALL_SECONDS (the stream stalled; the clip is abandoned).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._done.wait(0.1):
            if not self.alive or time.monotonic() > self._due:
                self.stop()
                self.release()
                raise DeviceLost("the sound output stopped")
            if deadline is not None and time.monotonic() >= deadline:
                return False
        return True
