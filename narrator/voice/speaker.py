"""The Speaker: what the session loop calls to be heard.

``say`` queues a ``Said`` and returns at once; a worker thread renders it (cached, see
``tts``) and plays it (``player``). Each queued text starts rendering at once, so the next
line is ready before the current one ends.

A *passage* is what was said since the speaker was last idle (a heading starts a new one);
``repeat`` plays the current passage again from its start.

When the output device fails (or disappears mid-track), or the speech engine stops
answering, the Speaker says so once on stderr and turns into captions-only: ``say`` does
nothing from then on and the session goes on.
"""

from __future__ import annotations

import sys
import threading
from collections import deque
from pathlib import Path

import soundfile as sf

from narrator.events import Said
from narrator.settings import RATE_MAX, RATE_MIN, Settings, load_settings, save_settings
from narrator.voice.earcons import earcon as make_earcon
from narrator.voice.tts import INSTALL_HINT, Renderer, TtsError

try:
    import sounddevice as sd

    from narrator.voice.player import Clip, DeviceLost, Player
    NO_PORTAUDIO = ""
except OSError as _exc:  # libportaudio2 is missing: make_speaker says so
    NO_PORTAUDIO = str(_exc)

RATE_STEP = 1.25
DEVICE_HINT = ("check that a sound device is connected and PulseAudio/PipeWire runs "
               "(libportaudio2 must be installed); `narrator devices` lists outputs, "
               "--output-device picks one")


def _report(message: str) -> None:
    print(f"narrator: {message}", file=sys.stderr, flush=True)


class Speaker:
    """Speaks ``Said`` lines in order; pausable, repeatable, faster or slower."""

    def __init__(self, settings: Settings, renderer: Renderer | None = None) -> None:
        self.settings = settings
        self._renderer = renderer or Renderer()
        self._player = Player(settings.output_device, settings.volume)
        self._cond = threading.Condition()
        self._queue: deque[tuple[int, Said]] = deque()
        self._passages: dict[int, list[Said]] = {}
        self._passage = 0  # the passage now playing (or last played)
        self._last = 0  # the newest passage
        self._generation = 0  # bumped by stop/repeat: a clip loaded before is not played
        self._busy = False
        self._dead = False
        self._closed = False
        self._paused = False
        self._worker = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._worker.start()

    # ------------------------------------------------------------------ the loop's calls

    def say(self, said: Said) -> None:
        """Queue ``said``; returns at once. Captions and empty lines are not spoken."""
        if self._dead or said.kind == "caption" or not (said.audio or said.text.strip()):
            return
        if not said.audio:
            self._renderer.prefetch(said.text, self.settings.voice, self.settings.rate)
        with self._cond:
            if said.kind == "heading" or (not self._queue and not self._busy):
                self._passages = {n: p for n, p in self._passages.items()
                                  if n >= self._passage}
                self._last += 1
                self._passages[self._last] = []
            self._passages[self._last].append(said)
            self._queue.append((self._last, said))
            self._cond.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been spoken; True when done."""
        with self._cond:
            return self._cond.wait_for(self._idle, timeout)

    def _idle(self) -> bool:
        return self._dead or self._closed or (not self._queue and not self._busy)

    @property
    def is_speaking(self) -> bool:
        """Sound is playing or queued, and not paused."""
        with self._cond:
            return not self._idle() and not self._paused

    def pause(self) -> None:
        """Stop the sound now, keeping the position."""
        with self._cond:
            self._paused = True
            self._player.pause()

    def resume(self) -> None:
        """Continue from where ``pause`` stopped."""
        with self._cond:
            self._paused = False
            self._player.resume()
            self._cond.notify_all()

    def repeat(self) -> None:
        """Play the current passage again from its first line."""
        with self._cond:
            passage = self._passages.get(self._passage)
            if not passage or self._dead:
                return
            rest = [(n, s) for n, s in self._queue if n != self._passage]
            self._queue = deque([(self._passage, s) for s in passage] + rest)
            self._paused = False
            self._interrupt()
            self._cond.notify_all()

    def stop(self) -> None:
        """Drop what is playing and everything queued."""
        with self._cond:
            self._queue.clear()
            self._paused = False
            self._interrupt()
        self._renderer.cancel_prefetch()

    def _interrupt(self) -> None:
        """Cut the clip playing or about to play (caller holds the lock)."""
        self._generation += 1
        self._player.stop()
        self._cond.notify_all()

    def faster(self) -> float:
        """Speak faster from the next line on; the new rate factor (saved)."""
        return self._set_rate(self.settings.rate * RATE_STEP)

    def slower(self) -> float:
        """Speak slower from the next line on; the new rate factor (saved)."""
        return self._set_rate(self.settings.rate / RATE_STEP)

    def _set_rate(self, rate: float) -> float:
        self.settings.rate = round(min(RATE_MAX, max(RATE_MIN, rate)), 2)
        saved = load_settings()  # keep this session's command-line options out of the file
        saved.rate = self.settings.rate
        try:
            save_settings(saved)
        except OSError as exc:
            _report(f"could not save the rate: {exc}")
        return self.settings.rate

    def earcon(self, name: str) -> None:
        """Play a short cue now ("listening", "unclear", "accepted"), over any speech."""
        with self._cond:  # the worker may be opening the stream: one at a time, or a crash
            if self._dead or self._closed:
                return
            try:
                self._player.cue(lambda rate: make_earcon(name, rate))
            except (sd.PortAudioError, ValueError) as exc:
                self._fail(f"sound output failed ({exc}); {DEVICE_HINT}")

    def close(self) -> None:
        """Stop and release the device."""
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._player.stop()
            self._cond.notify_all()
        self._worker.join(timeout=2)
        self._player.release()

    @property
    def captions_only(self) -> bool:
        """True once the speaker has given up on sound."""
        return self._dead

    @property
    def last_sound_at(self) -> float | None:
        """perf_counter time when the latest clip's first sample went to the device."""
        return self._player.clip_started_at

    # ------------------------------------------------------------------ worker

    def _fail(self, message: str) -> None:
        with self._cond:
            if self._dead:
                return
            self._dead = True
            self._queue.clear()
            self._player.stop()
            self._cond.notify_all()
        _report(f"{message}. Going on with captions only.")

    def _next(self) -> tuple[int, Said] | None:
        """The next line to play, its generation stamped on (waits for one)."""
        with self._cond:
            while not self._closed and not self._dead:
                if self._queue and not self._paused:
                    number, said = self._queue.popleft()
                    self._passage, self._busy = number, True
                    return self._generation, said
                self._busy = False
                self._cond.notify_all()
                self._cond.wait()
            self._busy = False
            self._cond.notify_all()
            return None

    def _clip(self, said: Said) -> Clip | None:
        if said.audio:
            try:
                return Clip.load(Path(said.audio))
            except (OSError, sf.LibsndfileError) as exc:
                _report(f"cannot play recording {said.audio}: {exc}")
                return None
        return Clip.load(self._renderer.render(said.text, self.settings.voice,
                                               self.settings.rate))

    def _play(self, generation: int, clip: Clip) -> None:
        with self._cond:
            if generation != self._generation:
                return
            self._player.volume = self.settings.volume
            self._player.play(clip, paused=self._paused)
        self._player.wait()

    def _run(self) -> None:
        try:
            with self._cond:
                self._player.check(keep=True)
        except (sd.PortAudioError, ValueError) as exc:
            self._fail(f"sound output failed ({exc}); {DEVICE_HINT}")
        while (item := self._next()) is not None:
            try:
                clip = self._clip(item[1])
                if clip is not None:
                    self._play(item[0], clip)
            except TtsError as exc:
                self._fail(f"speech failed: {exc}; {INSTALL_HINT}")
            except (DeviceLost, sd.PortAudioError, ValueError) as exc:
                self._fail(f"sound output failed ({exc}); {DEVICE_HINT}")


def make_speaker(settings: Settings) -> Speaker | None:
    """A working Speaker, or None (after saying what to install or check) for captions only.

    None without a message when ``settings.quiet``.
    """
    if settings.quiet:
        return None
    if NO_PORTAUDIO:
        _report(f"no sound output ({NO_PORTAUDIO}); install libportaudio2. "
                "Going on with captions only.")
        return None
    try:
        renderer = Renderer()
    except TtsError as exc:
        _report(f"no speech: {exc}. Going on with captions only.")
        return None
    try:
        Player(settings.output_device).check()
    except (sd.PortAudioError, ValueError) as exc:
        _report(f"no sound output ({exc}); {DEVICE_HINT}. Going on with captions only.")
        return None
    return Speaker(settings, renderer)
