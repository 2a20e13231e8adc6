"""Noise suppression before the ears: RNNoise on the 16 kHz microphone stream, frame by frame.

RNNoise (a small recurrent network, built into the ``pyrnnoise`` wheel as ``librnnoise.so``)
takes 10 ms frames at 48 kHz. Frames are upsampled by 3 and brought back down with stateful
low-pass FIR filters (numpy), so a stream can be cleaned in pieces without seams. In a quiet room the
audio passes through untouched (RNNoise can clip a clean voice); the network keeps running so
that it is ready the moment the room gets loud. The library is loaded
directly with ctypes: importing the ``pyrnnoise`` package itself would pull in its file and
plotting tools for nothing. ``pyrnnoise`` is optional (``pip install 'narrator[denoise]'``):
without it the microphone is heard raw.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import sys
from collections import deque
from pathlib import Path

import numpy as np

RATE = 16000
FACTOR = 3               # RNNoise runs at 48 kHz
BLOCK = 480              # RNNoise's frame: 10 ms at 48 kHz
STEP = BLOCK // FACTOR   # input samples per RNNoise frame (10 ms at 16 kHz)
CUTOFF = 7600.0          # Hz: the low-pass around the 48 kHz detour keeps the 16 kHz band
TAP_COUNT = 63
QUIET_FLOOR = 150.0      # int16 rms of the room's noise under which audio passes untouched


def low_pass(count: int, cutoff: float, rate: float) -> np.ndarray:
    """A linear-phase FIR low-pass: a Hamming-windowed sinc with unit gain at 0 Hz."""
    n = np.arange(count) - (count - 1) / 2
    taps = np.sinc(2 * cutoff / rate * n) * np.hamming(count)
    return taps / taps.sum()


_TAPS = low_pass(TAP_COUNT, CUTOFF, RATE * FACTOR)


def levels(samples: np.ndarray) -> np.ndarray:
    """The rms of each 10 ms piece of int16-scaled samples (whole pieces only)."""
    return np.sqrt(np.mean(samples.reshape(-1, STEP) ** 2, axis=1))


def noisy_room(samples: np.ndarray) -> bool:
    """Whether an utterance (int16-scaled samples) was said in a noisy room: the 10th
    percentile of its 10 ms levels, the room between its sounds, at QUIET_FLOOR or more."""
    whole = samples[:len(samples) - len(samples) % STEP]
    return bool(whole.size) and float(np.percentile(levels(whole), 10)) >= QUIET_FLOOR


def fir(samples: np.ndarray, history: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``samples`` through _TAPS, carrying on from ``history`` (the last inputs seen before);
    returns the output and the history for the next piece."""
    joined = np.concatenate((history, samples))
    return np.convolve(joined, _TAPS, mode="valid"), joined[-(len(_TAPS) - 1):]


@functools.cache
def _library() -> ctypes.CDLL:
    spec = importlib.util.find_spec("pyrnnoise")
    if spec is None or not spec.submodule_search_locations:
        raise OSError("the pyrnnoise package is not installed (pip install pyrnnoise)")
    path = Path(list(spec.submodule_search_locations)[0]) / "librnnoise.so"
    lib = ctypes.CDLL(str(path))
    lib.rnnoise_create.argtypes = [ctypes.c_void_p]
    lib.rnnoise_create.restype = ctypes.c_void_p
    lib.rnnoise_destroy.argtypes = [ctypes.c_void_p]
    lib.rnnoise_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float),
                                          ctypes.POINTER(ctypes.c_float)]
    lib.rnnoise_process_frame.restype = ctypes.c_float
    lib.rnnoise_init.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    return lib


class Denoiser:
    """``clean(pcm)``: int16 16 kHz audio in, the same length out with the noise taken down.

    The input must come in whole 10 ms pieces (multiples of 160 samples); state carries over
    from one call to the next, as for a live stream. The room's noise floor is the 10th
    percentile of the last 3 s of 10 ms levels; under ``quiet_floor`` the input is returned.
    """

    def __init__(self, quiet_floor: float = QUIET_FLOOR) -> None:
        self.quiet_floor = quiet_floor
        self._levels: deque[float] = deque(maxlen=300)
        self._lib = _library()
        self._state = self._lib.rnnoise_create(None)
        self._up = np.zeros(len(_TAPS) - 1)    # filter history: silence before the stream
        self._down = np.zeros(len(_TAPS) - 1)

    @property
    def floor(self) -> float:
        """The room's noise level (int16 rms) as heard lately."""
        return float(np.percentile(self._levels, 10)) if self._levels else 0.0

    def clean(self, pcm: bytes) -> bytes:
        samples = np.frombuffer(pcm, dtype=np.int16).astype(np.float64)
        if samples.size % STEP:
            raise ValueError(f"denoise takes whole 10 ms pieces ({STEP} samples), "
                             f"not {samples.size}")
        self._levels.extend(levels(samples))
        stuffed = np.zeros(samples.size * FACTOR)
        stuffed[::FACTOR] = samples * FACTOR
        high, self._up = fir(stuffed, self._up)
        out = np.empty_like(high, dtype=np.float32)
        frame = np.empty(BLOCK, dtype=np.float32)
        for at in range(0, high.size, BLOCK):
            frame[:] = high[at:at + BLOCK]
            self._lib.rnnoise_process_frame(
                self._state, out[at:].ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                frame.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
        low, self._down = fir(out.astype(np.float64), self._down)
        if self.floor < self.quiet_floor:
            return pcm
        return np.clip(low[::FACTOR], -32768, 32767).astype(np.int16).tobytes()

    def reset(self) -> None:
        """Start again as a new Denoiser would (the network's memory, the filters' history and
        the room's levels forgotten), without making a new network."""
        self._lib.rnnoise_init(self._state, None)
        self._levels.clear()
        self._up[:] = 0
        self._down[:] = 0

    def close(self) -> None:
        if self._state:
            self._lib.rnnoise_destroy(self._state)
            self._state = None


def clean_whole(pcm: bytes, denoiser: Denoiser | None = None) -> bytes | None:
    """A whole recorded utterance cleaned as by a new Denoiser: ``denoiser`` reset (it stays
    open, for the next utterance), or by default a fresh one, closed after; a last piece under
    10 ms is dropped. None when RNNoise cannot be loaded or the room was quiet (nothing to take
    out: the audio would come back as it is)."""
    whole = pcm[:len(pcm) - len(pcm) % (2 * STEP)]
    samples = np.frombuffer(whole, dtype=np.int16).astype(np.float64)
    if not noisy_room(samples):
        return None  # known quiet without running the network (a fifth of a second)
    try:
        used = denoiser or Denoiser()
    except OSError:  # RNNoise cannot be loaded
        return None
    try:
        used.reset()
        cleaned = used.clean(whole)
    finally:
        if denoiser is None:
            used.close()
    return None if cleaned is whole else cleaned


def make_denoiser(wanted: bool = True) -> Denoiser | None:
    """A Denoiser, or None when not ``wanted`` or RNNoise cannot be loaded (said on stderr)."""
    if not wanted:
        return None
    try:
        return Denoiser()
    except OSError as exc:
        print(f"narrator: no noise suppression ({exc}); listening to the raw microphone.",
              file=sys.stderr)
        return None
