"""Echo cancellation: take the narrator's own voice out of the microphone.

``PLAYED`` (an ``OutputReference``) keeps what the players of this process send to the sound
device, mixed, as 16 kHz mono on the monotonic clock: each output callback writes its block
with the time its first sample is heard. The microphone reads it back for the span each frame
was captured in (``EchoCanceller.clean``) and takes it out twice, before noise suppression and
recognition: WebRTC's AEC3 (livekit's AudioProcessingModule) cancels and then *suppresses*
what is left, so its output is near silence until someone speaks (the endpointer's gate), but
it suppresses much of their voice too while the narrator reads; a linear filter of our own
(``LinearEcho``) only cancels, so the table's words come through whole over a faint residue
of the narrator's (what the recogniser hears).

Devices differ in how late the narrator's voice reaches the microphone (20–300 ms), and the
time stamps the audio APIs give are rough and shift on a busy machine, so ``DelayTracker``
estimates the lag by cross-correlating the capture with the reference twice a second while the
narrator is heard, and follows a change as soon as it is sure of it.
"""

from __future__ import annotations

import atexit
import sys
import threading
from collections import deque
from copy import deepcopy
from typing import NamedTuple

import numpy as np

from narrator.voice.echo_likeness import Recent

RATE = 16000
STEP = 160                 # AEC3 takes 10 ms frames
LEAD = 0.02                # the reference is fed this far ahead of its echo (AEC3 needs it first)
CLOCK_WINDOW = 2.0         # seconds of callbacks a stream's clock is anchored over
RESYNC = 0.1               # seconds the anchor must be off by before it moves back (jitter)
SLIP = 0.005               # seconds it must be off by to move on (a stream that fell behind)
SEARCH = (-0.8, 0.8)       # seconds of lag the delay tracker searches (PulseAudio's first
                           # seconds: -0.45 to -0.63 s on the stamps, before its capture grows)
WINDOW = 1.0               # seconds of capture it correlates
EVERY = 0.5                # seconds between its estimates
MIN_PEAK = 0.3             # normalised correlation an estimate needs (the narrator is heard)
SURE_PEAK = 0.6            # ... to be followed at once; a weaker one needs the last to agree
AGREE = 0.01               # seconds two estimates may differ by and agree
FOLLOW = 0.004             # seconds of change worth following (AEC3 takes up less itself)
FORGET = 10.0              # seconds without the narrator found in the capture before it is
                           # taken to be inaudible there (headphones, another room)
PARTS = 12                 # the linear filter's partitions of STEP samples (120 ms of echo path)
STAY = 0.995               # the share of its weights' uncertainty a 10 ms block keeps, the rest
                           # made up as the echo path may drift (a Kalman filter's state model)
DOUBT = 1.0                # the weights' uncertainty before anything is learnt
RESIDUE = 0.5              # per block: how slowly its measure of what is no echo follows
CONVERGED = 10.0           # dB of echo it must take out before the recogniser hears its output
SMOOTH = 0.03              # per 10 ms block: how fast its measure of that follows
EVIDENCE = 30              # blocks of echo alone that measure needs at least
CHOOSE = 0.1               # per 10 ms block: how fast its two filters' comparison follows
COPY = 0.7                 # the background filter's residual this share of the foreground's
                           # (1.5 dB less) is copied to it
BACKTRACK = 4.0            # ... this many times (6 dB more: misled by someone talking) is reset
RECALL = round((WINDOW + EVERY) * RATE / STEP)  # blocks a delay follow takes the filter back:
                           # the echo may have moved that long before the tracker saw it
KEEP_EVERY = 25            # blocks between the weights kept for that
DEAF_AFTER = 4             # estimates in a row with the narrator playing and not found in the
                           # capture before the microphone is taken never to hear it (with FORGET)
HOLD = 4.0                 # seconds of a new microphone's capture held at most while the
                           # narrator plays and the linear filter first converges (``take``)
GROUP = 8                  # frames (240 ms) of held capture the narrator's lag is found over


class SampleClock:
    """When each block of a stream was heard (output) or captured (input), from its sample
    count: callbacks come in bursts on a busy machine or through PulseAudio, so their own times
    jitter. The count is anchored on the callback that came with the least delay among those
    of the last CLOCK_WINDOW seconds: the latest one for output (blocks are asked for early),
    the earliest for input (they are handed over late). The anchor moves on at once when a
    callback shows the stream fell behind (an output underrun), otherwise only when it is
    RESYNC off, so the blocks' times stay contiguous through jitter. ``moved`` adds up the
    moves no underrun or overflow explains: the stream's latency changed (PulseAudio's
    capture grew 0.48 s later in four 120 ms steps in the first seconds of narration, no audio
    lost), so the stamps moved while the sound did not."""

    def __init__(self, rate: int, output: bool) -> None:
        self.rate = rate
        self._pick = max if output else min
        self._later = 1.0 if output else -1.0  # the direction in which the stream falls behind
        self._count = 0
        self._anchor: float | None = None
        self._anchors: deque[tuple[float, float]] = deque()
        self.moved = 0.0  # seconds the anchor moved by without a reported gap

    def stamp(self, now: float, frames: int, gap: bool = False) -> float:
        """The time of the first sample of a block of ``frames`` called back at ``now``;
        ``gap``: the stream reported an underrun or overflow before it (the older anchors no
        longer hold)."""
        if gap:
            self._anchors.clear()
        self._anchors.append((now, now - self._count / self.rate))
        while self._anchors[0][0] < now - CLOCK_WINDOW:
            self._anchors.popleft()
        best = self._pick(a for _, a in self._anchors)
        off = best - self._anchor if self._anchor is not None else 0.0
        if self._anchor is None or gap or off * self._later > SLIP or abs(off) > RESYNC:
            if self._anchor is not None and not gap:
                self.moved += off
            self._anchor = best
        at = self.time_of(self._count)
        self._count += frames
        return at

    @property
    def end(self) -> float:
        """The time the stream's last sample so far is heard (output) or captured (input)."""
        return self.time_of(self._count)

    def time_of(self, sample: float) -> float:
        """The time of sample number ``sample`` of the stream (as anchored now)."""
        return self._anchor + sample / self.rate


class OutputReference:
    """A ring of what was played, 16 kHz mono float32, indexed by the monotonic time it was
    heard; several writers (speech, earcons) are mixed."""

    def __init__(self, seconds: float = 10.0) -> None:
        self._ring = np.zeros(int(seconds * RATE), np.float32)
        self._lock = threading.Lock()
        self._origin: float | None = None   # monotonic time of sample 0
        self._end = 0                       # one past the last sample written
        self._clocks: dict[tuple[int, int], SampleClock] = {}   # by (writer, rate)
        self._resamplers: dict[tuple[int, int], object] = {}
        self._made: dict[tuple[int, int], int] = {}  # 16 kHz samples each writer gave so far
        self.gaps = 0  # underruns the writers reported (each shifts the echo)

    def write(self, writer: object, block: np.ndarray, samplerate: int, now: float,
              ahead: float, gap: bool = False) -> None:
        """Add ``block`` (frames × channels or mono, float32 at ``samplerate``), asked for at
        monotonic time ``now`` by a stream that plays ``ahead`` seconds later; ``gap``: the
        stream underran before it (what was played before is heard earlier than this)."""
        mono = block.mean(axis=1) if block.ndim == 2 else block
        key = (id(writer), samplerate)
        clock = self._clocks.get(key) or SampleClock(samplerate, output=True)
        clock.stamp(now + ahead, len(mono), gap)
        self._clocks[key] = clock  # only once anchored: ``handed_until`` may read it
        self.gaps += gap
        samples = self._resample(key, samplerate, mono.astype(np.float32))
        made = self._made.get(key, 0)
        self._made[key] = made + len(samples)  # a resampler gives its output in bursts
        at = clock.time_of(made * samplerate / RATE)
        with self._lock:
            if self._origin is None:
                self._origin = at
            self._add(round((at - self._origin) * RATE), samples)

    def _resample(self, key: tuple[int, int], samplerate: int, mono: np.ndarray) -> np.ndarray:
        if samplerate == RATE:
            return mono
        stream = self._resamplers.get(key)
        if stream is None:
            import soxr

            stream = self._resamplers[key] = soxr.ResampleStream(samplerate, RATE, 1,
                                                                 dtype="float32")
        return stream.resample_chunk(mono)

    def _add(self, start: int, samples: np.ndarray) -> None:
        size = len(self._ring)
        end = start + len(samples)
        if end <= self._end - size or len(samples) == 0:
            return
        if end > self._end:  # new ground: clear what the ring held there before
            fresh = np.arange(max(self._end, end - size), end) % size
            self._ring[fresh] = 0.0
            self._end = end
        first = max(start, self._end - size)
        self._ring[np.arange(first, end) % size] += samples[first - start:]

    @property
    def handed_until(self) -> float:
        """The monotonic time the last sample the writers handed to their devices so far is
        heard (a resampler may not have passed all of it to the ring yet); 0 before any."""
        return max((clock.end for clock in list(self._clocks.values())), default=0.0)

    def read(self, at: float, count: int) -> np.ndarray:
        """``count`` samples heard from monotonic time ``at`` on (silence where none were)."""
        out = np.zeros(count, np.float32)
        with self._lock:
            if self._origin is None:
                return out
            start = round((at - self._origin) * RATE)
            first, last = max(start, self._end - len(self._ring)), min(start + count, self._end)
            if last > first:
                out[first - start:last - start] = self._ring[np.arange(first, last)
                                                             % len(self._ring)]
        return out


    def forget(self) -> None:
        """Drop the writers' clocks and resamplers (at exit: soxr's native objects must go
        before the interpreter, or it warns of leaks)."""
        with self._lock:
            self._clocks.clear()
            self._resamplers.clear()
            self._made.clear()


#: what this process plays; every Player writes to it, every microphone reads it
PLAYED = OutputReference()
atexit.register(PLAYED.forget)


def estimate_lag(capture: np.ndarray, reference: np.ndarray, before: int) -> tuple[int, float]:
    """The lag in samples of ``capture`` behind the reference (the phase-transform
    cross-correlation's peak) and the normalised correlation there. ``reference`` starts ``before`` samples ahead of ``capture`` and is longer."""
    n = len(capture) + len(reference)
    size = 1 << (n - 1).bit_length()
    spectrum = np.fft.rfft(capture, size) * np.conj(np.fft.rfft(reference, size))
    corr = np.fft.irfft(spectrum / (np.abs(spectrum) + 1e-12), size)  # PHAT: a sharp peak
    # lag L (capture[i] ~ reference[i + before - L]) sits at index (L - before) mod size
    lags = np.arange(len(reference) - len(capture) + 1)   # offsets of capture in reference
    values = corr[(-lags) % size]
    best = int(np.argmax(values))
    part = reference[best:best + len(capture)]
    norm = float(np.linalg.norm(capture) * np.linalg.norm(part)) or 1.0
    return before - best, float(np.dot(capture, part) / norm)


def lag_in(reference: OutputReference, capture: np.ndarray, began: float
           ) -> tuple[float, float] | None:
    """The narrator's lag in seconds in ``capture`` (float32, captured from ``began``), searched
    over SEARCH, and the normalised correlation there (0 for a silent microphone); None when
    nothing was played then."""
    before, after = SEARCH[1], SEARCH[0]
    played = reference.read(began - before, len(capture) + round((before - after) * RATE))
    if _level(played) < 1e-3:
        return None
    if _level(capture) < 1e-4:
        return 0.0, 0.0
    lag, peak = estimate_lag(capture, played, round(before * RATE))
    return lag / RATE, peak


class DelayTracker:
    """The output → capture delay in seconds, re-estimated every EVERY seconds while the
    narrator is heard. A busy machine shifts it by tens of milliseconds every few seconds (each
    output underrun), and AEC3 left with a shifted reference cancels little for seconds, so a
    sure estimate (or two that agree) is followed at once."""

    def __init__(self, reference: OutputReference, seconds: float = 0.0) -> None:
        self.reference = reference
        self.seconds = seconds
        self.estimates: deque[tuple[float, float]] = deque(maxlen=3)  # (seconds, peak)
        self._capture: deque[np.ndarray] = deque(maxlen=int(WINDOW * RATE / 480) + 1)
        self._last = -EVERY
        self._heard_at = -FORGET  # when the narrator's voice was last found in the capture
        self.found = False  # whether it ever was
        self._missed = 0  # estimates since, with the narrator playing, that did not find it

    def observe(self, frame: np.ndarray, at: float) -> None:
        """Keep a captured frame (float32, heard from ``at``); estimate when it is time, from
        half a WINDOW of capture on (a microphone opened as the narration began: found half a
        second in, not a second)."""
        self._capture.append(frame)
        if at - self._last < EVERY or len(self._capture) < self._capture.maxlen // 2:
            return
        self._last = at
        capture = np.concatenate(self._capture)
        lagged = lag_in(self.reference, capture, at + len(frame) / RATE - len(capture) / RATE)
        if lagged is None:
            return  # the narrator is silent: nothing to learn
        seconds, peak = lagged
        if peak < MIN_PEAK:
            self._missed += 1
            return
        self._heard_at, self._missed, self.found = at, 0, True
        agreed = bool(self.estimates) and abs(self.estimates[-1][0] - seconds) <= AGREE
        self.estimates.append((seconds, peak))
        if (peak >= SURE_PEAK or agreed) and abs(seconds - self.seconds) > FOLLOW:
            self.seconds = seconds

    def earlier(self) -> np.ndarray:
        """The capture kept before the frame last observed (up to WINDOW seconds)."""
        frames = list(self._capture)[:-1]
        return np.concatenate(frames) if frames else np.zeros(0, np.float32)

    def shift(self, seconds: float) -> None:
        """The capture's time stamps moved by ``seconds`` while the sound did not (its clock
        re-anchored on a changed latency): the echo's lag on them moves as much, at once,
        instead of a wrong reference for the half second to the next estimate."""
        self.seconds += seconds
        self.estimates = deque(((lag + seconds, peak) for lag, peak in self.estimates),
                               maxlen=self.estimates.maxlen)

    def audible(self, at: float) -> bool:
        """Whether the microphone heard the narrator in the last FORGET seconds."""
        return at - self._heard_at < FORGET

    @property
    def deaf(self) -> bool:
        """Whether the microphone does not hear the narrator at all (headphones, a separate
        sink): the last DEAF_AFTER estimates while it played and the last FORGET seconds did
        not find it. Until the narrator has played that long, it may hear it."""
        return self._missed >= DEAF_AFTER and not self.audible(self._last)


def _level(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(x ** 2))) if x.size else 0.0


class LinearEcho:
    """The narrator's echo as a linear function of what it played, taken out of the capture:
    a partitioned-block frequency-domain adaptive filter (overlap-save, STEP-sample blocks,
    PARTS partitions: the echo path's first PARTS × 10 ms after the aligned reference; each
    partition's taps kept to its own 10 ms after every step). Unlike AEC3's suppressor it
    leaves what the table says over the narration whole, with the echo's residue under it.

    The weights learn as a diagonal Kalman filter's (each partition and bin with its own
    uncertainty): a step as large as the weights are uncertain, against what the residual
    holds that is no echo, so it learns fast while it knows little and hardly at all while
    someone talks (their voice is residue it cannot explain); the uncertainty grows back as
    the path may drift (STAY), so an echo that moves is learnt again. On six recorded runs
    the narration was 17.3 dB down in the last second before the first word (12.8 with the
    NLMS step it replaces), and the share of its quarter seconds under 15 dB halved
    (docs/barge-in.md, stop 48).

    Two filters, as Speex's MDF has them: a background one learns all the time, so it has
    the echo within a second or two of narration; the foreground one takes its weights
    whenever it cancels clearly better (over the last ~100 ms), and the
    foreground's output is the one handed on. Someone talking over the narration misleads the
    background filter (their voice is no echo), so it then cancels worse, is not copied, and
    is put back to the foreground's weights once it is clearly worse (BACKTRACK).

    When the delay tracker follows a new lag (the echo moved, often while the narrator was
    silent), both filters go back to the foreground's weights of RECALL blocks before
    (``recall``): what they learnt since was learnt against a reference out of step."""

    def __init__(self, parts: int = PARTS) -> None:
        self._weights = np.zeros((parts, STEP + 1), complex)   # the background filter's
        self._kept = self._weights.copy()                       # the foreground filter's
        self._doubt = np.full((parts, STEP + 1), DOUBT)         # the background's uncertainty
        self._residue = np.full(STEP + 1, 1e-6)  # power per bin of what it cannot explain
        self._spectra = np.zeros((parts, STEP + 1), complex)
        self._previous = np.zeros(STEP)
        self._left = self._trial = 0.0  # the foreground's and background's residual power
        self._before = self._after = 1e-12  # captured and residual power, echo alone (smoothed)
        self._measured = 0  # blocks of echo alone it was measured on
        self._blocks = 0
        #: (block, foreground weights) every KEEP_EVERY blocks once converged, for ``recall``
        self._history: deque[tuple[int, np.ndarray]] = deque()
        #: it has taken CONVERGED dB of the echo out, over the last third of a second or so
        #: (at least EVIDENCE blocks) in which its own prediction said the narrator alone was
        #: heard (once: after that the blocks it would make louder are what tells the echo moved)
        self.converged = False

    def cancel(self, far: np.ndarray, near: np.ndarray) -> np.ndarray:
        """``near`` (STEP samples, float) less the echo of ``far`` (the aligned reference)."""
        spectrum = np.fft.rfft(np.concatenate([self._previous, far]))
        self._previous = far
        self._spectra = np.roll(self._spectra, 1, axis=0)
        self._spectra[0] = spectrum
        residual, trial = self._choose(near - self._echo(self._kept),
                                       near - self._echo(self._weights))
        self._measure(near, residual)
        self._learn(np.fft.rfft(np.concatenate([np.zeros(STEP), trial])))
        self._keep()
        return residual

    def _learn(self, error: np.ndarray) -> None:
        """One Kalman step of the background filter on the error spectrum of its last block:
        each partition and bin moves by its uncertainty over the expected error of the echo
        plus the residue's power; its uncertainty shrinks by what was learnt and grows back
        towards the weights' own power (STAY)."""
        self._residue += (1 - RESIDUE) * (np.abs(error) ** 2 - self._residue)
        gain = self._doubt * np.conj(self._spectra) / (
            (np.abs(self._spectra) ** 2 * self._doubt).sum(axis=0) + self._residue + 1e-9)
        self._weights += gain * error
        taps = np.fft.irfft(self._weights, axis=1)
        taps[:, STEP:] = 0.0
        self._weights = np.fft.rfft(taps, axis=1)
        self._doubt *= 1 - 0.5 * (gain * self._spectra).real
        self._doubt = STAY ** 2 * self._doubt + (1 - STAY ** 2) * np.abs(self._weights) ** 2

    def _keep(self) -> None:
        """Keep the foreground's weights every KEEP_EVERY blocks once converged (before, they
        are no better to go back to), and none older than the newest RECALL blocks old."""
        self._blocks += 1
        if self.converged and self._blocks % KEEP_EVERY == 0:
            self._history.append((self._blocks, self._kept.copy()))
        while len(self._history) > 1 and self._blocks - self._history[1][0] >= RECALL:
            self._history.popleft()

    def rewound(self) -> LinearEcho:
        """A copy with what it has learnt and none of what was played: to cancel capture from
        before the blocks it was last given."""
        copy = deepcopy(self)
        copy._spectra[:] = 0.0
        copy._previous[:] = 0.0
        return copy

    def recall(self) -> None:
        """The delay tracker followed a new lag: both filters go back to the foreground's
        weights of at least RECALL blocks before, if any were kept, and compare afresh (the
        smoothed residuals of the shifted blocks would have the foreground take the
        background's shifted weights again at once). A follow soon after goes back to the
        same weights."""
        if not self._history or self._blocks - self._history[0][0] < RECALL:
            return
        _, weights = self._history[0]
        self._kept, self._weights = weights.copy(), weights.copy()
        self._left = self._trial = 0.0
        self._history = deque([(self._blocks - RECALL, weights)])

    def _choose(self, residual: np.ndarray, trial: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The foreground's and background's residuals for this block, once the foreground
        has taken the background's weights (it cancels COPY better) or the background the
        foreground's (it cancels BACKTRACK worse)."""
        self._left += CHOOSE * (float(np.mean(residual ** 2)) - self._left)
        self._trial += CHOOSE * (float(np.mean(trial ** 2)) - self._trial)
        if self._trial < COPY * self._left:
            self._kept, self._left = self._weights.copy(), self._trial
            return trial, trial
        if self._trial > BACKTRACK * self._left:
            self._weights, self._trial = self._kept.copy(), self._left
            return residual, residual
        return residual, trial

    def _echo(self, weights: np.ndarray) -> np.ndarray:
        return np.fft.irfft((weights * self._spectra).sum(axis=0))[STEP:]

    def _measure(self, near: np.ndarray, residual: np.ndarray) -> None:
        """Whether it has converged, from the blocks its prediction (``near`` less
        ``residual``) says are echo alone (the residual at most four times that echo)."""
        predicted, left = float(np.mean((near - residual) ** 2)), float(np.mean(residual ** 2))
        if self.converged or predicted <= 1e-7 or left > 4 * predicted:
            return
        self._before += SMOOTH * (float(np.mean(near ** 2)) - self._before)
        self._after += SMOOTH * (left - self._after)
        self._measured += 1
        self.converged = (self._measured >= EVIDENCE
                          and 10 * np.log10(self._before / self._after) >= CONVERGED)


class Cleaned(NamedTuple):
    """A microphone frame less the narrator's voice, two ways (int16 bytes); one and the same
    object when the recogniser hears what the gate gives."""

    heard: bytes  # only cancelled (``LinearEcho``): what the recogniser hears
    gate: bytes   # cancelled and suppressed (AEC3): whether someone speaks


class Held(NamedTuple):
    """A frame of a new microphone's capture, held while the linear filter first converges."""

    at: float                 # when it was captured
    frame: bytes              # as captured
    moved: float              # how far the capture clock's stamps had moved by then
    cleaned: Cleaned          # as ``clean`` gave it
    echo: np.ndarray | None   # the reference over its echo (None: the narrator not heard)


class EchoCanceller:
    """WebRTC AEC3 and ``LinearEcho`` on 16 kHz int16 microphone frames, with ``PLAYED`` as
    their far end. They run only while the narrator's voice is found in the capture: a
    microphone that does not hear it (headphones, a separate sink) is passed on untouched,
    since AEC3's suppression there only takes away the table's own words while the narrator
    speaks. The recogniser hears AEC3's output instead of the linear filter's until that has
    converged (in a room where it never does, always), and any 10 ms the filter would make
    louder (the echo moved, or someone's voice misled it) as captured; a new microphone's
    first seconds wait for it (``take``). What the recogniser heard while the narrator was
    audible is kept with its echo's reference (``recent``), to tell the narrator's leaked
    voice from a player's."""

    def __init__(self, reference: OutputReference = PLAYED) -> None:
        from livekit import rtc

        self._rtc = rtc
        self._apm = rtc.AudioProcessingModule(echo_cancellation=True, high_pass_filter=True)
        self._apm.set_stream_delay_ms(round(LEAD * 1000))
        self.reference = reference
        self.delay = DelayTracker(reference)
        self.linear = LinearEcho()
        self.recent = Recent()
        self._moved = 0.0
        self._held: list[Held] | None = []  # None once the first seconds were handed on

    def clean(self, frame: bytes, at: float, moved: float = 0.0) -> Cleaned:
        """``frame`` (int16, captured from monotonic time ``at``) less the narrator's voice;
        ``moved``: how far the capture clock's stamps had moved by then (``SampleClock.moved``),
        which the delay follows at once."""
        cleaned, echo = self._clean(frame, at, moved)
        self._keep(at, cleaned, echo)
        return cleaned

    def take(self, frame: bytes, at: float, moved: float = 0.0) -> list[tuple[float, Cleaned]]:
        """What the recogniser is handed once ``frame`` came (as for ``clean``), each with its
        capture time: the frame cleaned, except in a new microphone's first seconds. While
        the narrator plays there and the linear filter has never converged, the frames are
        held, and once it converges they are cancelled again with what it learnt: words said
        over the first second of narration (a table's "pause" as the session starts) then
        reach the recogniser with the narration taken out, not as captured or through AEC3's
        suppression (docs/barge-in.md, stop 79). Held HOLD seconds, once the narrator has
        stopped, or once the microphone is found not to hear it at all, they are handed on as
        ``clean`` gave them."""
        if self._held is None:
            return [(at, self.clean(frame, at, moved))]
        cleaned, echo = self._clean(frame, at, moved)
        self._held.append(Held(at, frame, moved, cleaned, echo))
        if self.linear.converged:
            return self._hand_on(self._recancelled())
        if at - self._held[0].at >= HOLD or self.delay.deaf or not self._playing(at):
            return self._hand_on([(held.at, held.cleaned, held.echo) for held in self._held])
        return []

    def _clean(self, frame: bytes, at: float, moved: float) -> tuple[Cleaned, np.ndarray | None]:
        """``clean``, and the reference over the frame's echo (None: the narrator not heard)."""
        if moved != self._moved:
            self.delay.shift(moved - self._moved)
            self._moved = moved
        near = np.frombuffer(frame, np.int16)
        found, lag = self.delay.found, self.delay.seconds
        self.delay.observe(near.astype(np.float32) / 32768.0, at)
        if self.delay.found and not found:
            self._catch_up(at)
        elif self.delay.seconds != lag:
            self.linear.recall()
        if not self.delay.audible(at):
            return Cleaned(frame, frame), None
        gate, heard, echo = self._cancel(near, at)
        tail = frame[len(gate):]  # less than a step: as captured
        gate = bytes(gate) + tail
        # not yet converged (or never, in this room): the recogniser hears AEC3's output
        heard = bytes(heard) + tail if self.linear.converged else gate
        return Cleaned(heard, gate), echo

    def _keep(self, at: float, cleaned: Cleaned, echo: np.ndarray | None) -> None:
        if echo is not None:
            self.recent.keep(at, np.frombuffer(cleaned.heard, np.int16) / 32768.0, echo)

    def _playing(self, at: float) -> bool:
        """Whether the narrator's voice is in what was played around a frame captured at
        ``at`` (within the lags searched)."""
        span = round((SEARCH[1] - SEARCH[0]) * RATE)
        return _level(self.reference.read(at - SEARCH[1], span)) >= 1e-3

    def _hand_on(self, frames: list[tuple[float, Cleaned, np.ndarray | None]]
                 ) -> list[tuple[float, Cleaned]]:
        """The held frames, handed on: from now on each frame as it comes."""
        self._held = None
        for at, cleaned, echo in frames:
            self._keep(at, cleaned, echo)
        return [(at, cleaned) for at, cleaned, _ in frames]

    def _recancelled(self) -> list[tuple[float, Cleaned, np.ndarray]]:
        """The held frames through a copy of the converged linear filter that has heard
        nothing yet, each GROUP of them as one span at the lag found in it: the first
        frames' stamps, and the reference's, are still settling (their lag differs by tens of
        ms), else at the tracker's as far back as the stamps moved. The endpointer judges
        them as heard: AEC3 had not learnt the echo either."""
        linear, done = self.linear.rewound(), []
        for first in range(0, len(self._held), GROUP):
            group = self._held[first:first + GROUP]
            near = np.frombuffer(b"".join(held.frame for held in group), np.int16)
            lagged = lag_in(self.reference, near.astype(np.float32) / 32768.0, group[0].at)
            lag = (lagged[0] if lagged is not None and lagged[1] >= MIN_PEAK
                   else self.delay.seconds - (self._moved - group[0].moved))
            echo, far = self._played(group[0].at, lag, len(near))
            heard = bytes(_through(linear, far, near)) + near[len(near) // STEP * STEP:].tobytes()
            size = len(group[0].frame)
            for i, held in enumerate(group):
                part = heard[i * size:(i + 1) * size]
                done.append((held.at, Cleaned(part, part), echo[i * size // 2:][:size // 2]))
        return done

    def _catch_up(self, at: float) -> None:
        """The narrator was just found in the capture (at ``at``): AEC3 and the linear filter
        learn from what the tracker kept of the capture before, the narration they were not
        given, so a clear echo is cancelled from then on, not heard through AEC3's suppression
        for seconds more while the filter learns (a table's "pause" a second into a session
        reached the recogniser so, or as captured, and was lost: docs/speech-in.md, stop
        70)."""
        earlier = self.delay.earlier()
        count = len(earlier) // STEP * STEP
        if count:
            near = np.round(earlier[len(earlier) - count:] * 32768.0).astype(np.int16)
            self._cancel(near, at - count / RATE)

    def _played(self, at: float, lag: float, count: int) -> tuple[np.ndarray, np.ndarray]:
        """What was played over ``count`` samples captured from ``at`` at the echo's ``lag``
        (the echo), and the same LEAD later (the far end AEC3 and the filter are given)."""
        lead = round(LEAD * RATE)  # one read: the echo's own span, and LEAD ahead of it
        played = self.reference.read(at - lag, lead + count)
        return played[:count], played[lead:]

    def _cancel(self, near: np.ndarray, at: float) -> tuple[bytearray, bytearray, np.ndarray]:
        """``near`` (int16, captured from ``at``), each whole STEP of it through AEC3 (the
        gate) and the linear filter (heard, never louder than captured), and the echo's
        reference over it."""
        echo, far = self._played(at, self.delay.seconds, len(near))
        far16 = (np.clip(far, -1.0, 1.0) * 32767).astype(np.int16)
        gate = bytearray()
        for i in range(0, len(near) - STEP + 1, STEP):
            self._apm.process_reverse_stream(self._frame(far16[i:i + STEP]))
            part = self._frame(near[i:i + STEP])
            self._apm.process_stream(part)
            gate += bytes(part.data)
        return gate, _through(self.linear, far, near), echo

    def _frame(self, samples: np.ndarray):
        return self._rtc.AudioFrame(samples.tobytes(), RATE, 1, len(samples))


def _through(linear: LinearEcho, far: np.ndarray, near: np.ndarray) -> bytearray:
    """``near`` (int16) less the echo of ``far`` (the aligned reference) by ``linear``, each
    whole STEP: as captured where the filter would make it louder (never worse than none)."""
    heard = bytearray()
    for i in range(0, len(near) - STEP + 1, STEP):
        captured = near[i:i + STEP] / 32768.0
        left = linear.cancel(far[i:i + STEP].astype(np.float64), captured)
        heard += (near[i:i + STEP].tobytes() if _level(left) > _level(captured)
                  else (np.clip(left, -1.0, 1.0) * 32767).astype(np.int16).tobytes())
    return heard


def make_canceller() -> EchoCanceller | None:
    """An echo canceller, or None (said on stderr) when livekit cannot load here."""
    try:
        return EchoCanceller()
    except (ImportError, OSError) as exc:
        print(f"narrator: no echo cancellation ({exc}); the narrator's own voice may cover "
              f"what the table says while it reads. Install livekit to cancel it.",
              file=sys.stderr)
        return None
