"""The Speaker: what the session loop calls to be heard, and who captions what is heard.

``say`` cuts a ``Said`` into sentences (the first words after silence into their first
clause, when not rendered yet), queues them and returns at once; every queued sentence starts
rendering at once (``tts``, cached per sentence), so the next one is ready
before the current one ends. A worker thread plays them in order (``player``) and calls
``show`` with each sentence as its first sample goes out, so captions keep step with the
voice; a sentence dropped by ``skip`` is captioned "(skipped)", one played again by ``repeat``
"(again)". Rate and volume changes apply from the next sentence.

A *passage* is what was said since the speaker was last idle (a heading starts a new one);
``repeat`` plays the current passage again from its start.

When the output device fails or disappears, captions go on (at once, unpaced) and the
speaker tries the device again every half second; the first sentence after it returns is
spoken. When the speech engine fails, or with ``speak=False`` (``--quiet``), it only
captions; earcons still play whenever there is a device.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import logging

import numpy as np
import soundfile as sf

from narrator.events import Said
from narrator.settings import RATE_MAX, RATE_MIN, Settings, load_settings, save_settings
from narrator.voice.earcons import earcon as make_earcon
from narrator.voice.tts import INSTALL_HINT, Renderer, TtsError, first_clause, sentences

try:
    import sounddevice as sd

    from narrator.voice import streams
    from narrator.voice.player import SPEECH_RATE, Clip, DeviceLost, Player
    NO_PORTAUDIO = ""
except OSError as _exc:  # libportaudio2 is missing: make_speaker says so
    NO_PORTAUDIO = str(_exc)

LOG = logging.getLogger("narrator.sound")
RATE_STEP = 1.25
VOLUME_STEP, VOLUME_MIN, VOLUME_MAX = 0.25, 0.25, 2.0
LEAD_LEVEL, LEAD_SECONDS = 0.02, 0.03  # silence before a sentence's first sound is cut to 30 ms
PEAK = 0.5  # every clip is scaled to this peak at volume 1, leaving room for "louder"
RETRY_SECONDS = 0.5
DEVICE_HINT = ("check that a sound device is connected and PulseAudio/PipeWire runs "
               "(libportaudio2 must be installed); `narrator devices` lists outputs, "
               "--output-device picks one")
OUTPUT_LOST = "The sound output is gone; captions go on, and speech comes back when it does."
OUTPUT_BACK = "The sound output is back."
Show = Callable[[Said], None]


def _report(message: str) -> None:
    print(f"narrator: {message}", file=sys.stderr, flush=True)


@dataclass
class _Item:
    """One sentence to speak (or a recording to play), with the captions shown as it starts."""

    said: Said
    passage: int
    captions: list[Said] = field(default_factory=list)
    mark: str = ""  # "again" when repeated
    shown: bool = False  # already captioned (a device message, shown when it happened)

    def caption(self, mark: str | None = None) -> list[Said]:
        if self.shown:
            return []
        mark = self.mark if mark is None else mark
        first = Said(f"({mark}) {self.said.text}" if mark else self.said.text, self.said.kind)
        return [first] + self.captions


class Speaker:
    """Speaks ``Said`` lines sentence by sentence, captioning each as it starts."""

    def __init__(self, settings: Settings, renderer: Renderer | None = None,
                 show: Show = lambda said: None, *, speak: bool = True,
                 player: Player | None = None) -> None:
        self.settings = settings
        self._show = show
        self._tell: Callable[[str], None] = lambda text: None
        self._renderer = (renderer or Renderer(settings.voice)) if speak else None
        if self._renderer is not None:
            self._renderer.warm()
        self._player = player or Player(settings.output_device)
        self._player.volume = settings.volume
        # set once the first sentence is heard (or nothing will be: captions only, closed);
        # what the first words need not wait for waits for it (the microphone, the recogniser)
        self.first_sound = threading.Event()
        if not speak:
            self.first_sound.set()
        self._cond = threading.Condition()
        self._queue: deque[_Item] = deque()
        self._passages: dict[int, list[_Item]] = {0: []}  # 0: before anything was said
        self._passage = 0  # the passage now playing (or last played)
        self._last = 0  # the newest passage
        self._generation = 0  # bumped by stop/repeat: a clip loaded before is not played
        self._busy = False
        self._closed = False
        self._paused = False
        self._mute = not speak  # captions only: --quiet, or the engine failed
        self._lost = False  # the output device is gone (retried)
        self._retry_at = 0.0
        self._worker = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._worker.start()

    # ------------------------------------------------------------------ the loop's calls

    def caption_to(self, show: Show) -> None:
        """Caption through ``show`` from now on (the session loop hands its captions over)."""
        self._show = show

    def heard_to(self, tell: Callable[[str], None]) -> None:
        """Tell ``tell`` each sentence's text as its first sound is heard (the session loop's
        memory of what it said, for the self-trigger guard), not when it is queued: one
        queued is rendered first, and the table's words meanwhile are no echo of it."""
        self._tell = tell

    def say(self, said: Said, again: bool = False) -> None:
        """Queue ``said`` (sentence by sentence; captioned "(again)" when ``again``); returns
        at once."""
        if not (said.audio or said.text.strip()):
            return
        with self._cond:
            idle = not self._queue and not self._busy
            if said.kind == "heading" or idle:
                self._passages = {n: p for n, p in self._passages.items()
                                  if n >= self._passage}
                self._last += 1
                self._passages[self._last] = []
            passage = self._passages[self._last]
            if said.kind == "caption" and passage and passage[-1].said.audio:
                passage[-1].captions.append(said)  # a recording's text shows as it starts
                return
            parts = [said] if said.audio or said.kind == "caption" else \
                [Said(s, said.kind) for s in self._pieces(said.text, idle)]
            items = [_Item(p, self._last, mark="again" if again else "") for p in parts]
            passage.extend(items)
            self._queue.extend(items)
            self._cond.notify_all()
        if self._renderer is not None and not self._mute and not said.audio:
            for item in items:
                if item.said.kind != "caption":
                    self._renderer.prefetch(item.said.text, self.settings.rate)

    def _pieces(self, text: str, first: bool) -> list[str]:
        """The sentences of ``text``; when they are the ``first`` words after silence and the
        first sentence is not rendered yet, its first clause apart (it renders sooner)."""
        parts = sentences(text)
        if first and parts and self._renderer is not None and not self.captions_only and \
                not self._renderer.path_for(parts[0], self.settings.rate).exists():
            parts[:1] = first_clause(parts[0])
        return parts

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been spoken; True when done."""
        with self._cond:
            return self._cond.wait_for(self._idle, timeout)

    def _idle(self) -> bool:
        return self._closed or (not self._queue and not self._busy)

    @property
    def is_speaking(self) -> bool:
        """Sound is playing or queued, and not paused."""
        with self._cond:
            return not self._idle() and not self._paused

    @property
    def heard_until(self) -> float:
        """When the last speech handed to the device is heard (monotonic clock): the narrator
        is audible until then, an output latency after ``is_speaking`` turns False."""
        return self._player.heard_until

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
        """Play the current passage again from its first sentence."""
        with self._cond:
            passage = self._passages.get(self._passage)
            if not passage:
                return
            rest = [i for i in self._queue if i.passage != self._passage]
            again = [_Item(i.said, i.passage, i.captions, "again") for i in passage]
            self._queue = deque(again + rest)
            self._paused = False
            self._interrupt()

    def stop(self) -> list[_Item]:
        """Cut the sentence playing and drop the rest (what was dropped)."""
        with self._cond:
            dropped = list(self._queue)
            self._queue.clear()
            self._paused = False
            self._interrupt()
        if self._renderer is not None:
            self._renderer.cancel_prefetch()
        return dropped

    def skip(self) -> None:
        """Stop the reading for good ("stop", "next"): as ``stop``, the rest captioned as
        skipped."""
        for item in self.stop():
            for said in item.caption("skipped"):
                self._show(said)

    def _interrupt(self) -> None:
        """Cut the clip playing or about to play (caller holds the lock)."""
        self._generation += 1
        self._player.stop()
        self._cond.notify_all()

    def faster(self) -> float:
        """Speak faster from the next sentence on; the new rate factor (saved)."""
        return self._keep("rate", self._clamp(self.settings.rate * RATE_STEP, RATE_MIN, RATE_MAX))

    def slower(self) -> float:
        """Speak slower from the next sentence on; the new rate factor (saved)."""
        return self._keep("rate", self._clamp(self.settings.rate / RATE_STEP, RATE_MIN, RATE_MAX))

    def louder(self) -> float:
        """Speak louder from the next sentence on; the new volume (saved)."""
        return self._keep("volume", self._clamp(self.settings.volume + VOLUME_STEP,
                                                VOLUME_MIN, VOLUME_MAX))

    def quieter(self) -> float:
        """Speak more quietly from the next sentence on; the new volume (saved)."""
        return self._keep("volume", self._clamp(self.settings.volume - VOLUME_STEP,
                                                VOLUME_MIN, VOLUME_MAX))

    @staticmethod
    def _clamp(value: float, low: float, high: float) -> float:
        return round(min(high, max(low, value)), 2)

    def _keep(self, name: str, value: float) -> float:
        """Use ``value`` for setting ``name`` and save it (without this session's options)."""
        setattr(self.settings, name, value)
        saved = load_settings()
        setattr(saved, name, value)
        try:
            save_settings(saved)
        except OSError as exc:
            _report(f"could not save the {name}: {exc}")
        return value

    def earcon(self, name: str) -> None:
        """Play a short cue now ("listening", "unclear", "accepted"), over any speech."""
        with self._cond:  # the worker may be opening the stream: one at a time, or a crash
            if self._lost or self._closed:
                return
            try:
                self._player.cue(lambda rate: make_earcon(name, rate))
            except (sd.PortAudioError, ValueError):
                self._lose()

    def close(self) -> None:
        """Stop and release the device."""
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._player.stop()
            self._cond.notify_all()
        self.first_sound.set()
        self._worker.join(timeout=2)
        self._player.release()

    @property
    def captions_only(self) -> bool:
        """True while nothing is spoken: no engine, --quiet, or the device is gone."""
        return self._mute or self._lost

    @property
    def last_sound_at(self) -> float | None:
        """perf_counter time when the latest clip's first sample went to the device."""
        return self._player.clip_started_at

    # ------------------------------------------------------------------ device and engine

    def _lose(self) -> None:
        """The device is gone: say so in the captions, keep captioning, retry it."""
        with self._cond:
            if self._lost or self._closed:
                return
            self._lost, self._retry_at = True, time.monotonic() + RETRY_SECONDS
            self._player.stop()
            self._player.release()
        self.first_sound.set()
        self._show(Said(OUTPUT_LOST, "info"))
        LOG.info("sound output lost (%s)", self.settings.output_device)

    def _retry(self) -> None:
        """Try the lost device again (at most every RETRY_SECONDS)."""
        if not self._lost or time.monotonic() < self._retry_at:
            return
        self._retry_at = time.monotonic() + RETRY_SECONDS
        try:
            with self._cond:
                self._player.check(keep=True)
        except (sd.PortAudioError, ValueError):
            streams.rescan()  # a raw ALSA device may come back under a new number
            return
        self._lost = False
        back = Said(OUTPUT_BACK, "info")
        self._show(back)  # at once, and said first
        with self._cond:
            self._queue.appendleft(_Item(back, self._passage, shown=True))

    def _mute_for(self, message: str) -> None:
        self._mute = True
        self.first_sound.set()
        if self._renderer is not None:
            self._renderer.cancel_prefetch()
        _report(f"{message}. Going on with captions only.")

    # ------------------------------------------------------------------ worker

    def _next(self) -> tuple[int, _Item] | None:
        """The next sentence, its generation stamped on (waits for one; retries a lost device)."""
        with self._cond:
            while not self._closed:
                if self._queue and not self._paused:
                    item = self._queue.popleft()
                    self._passage, self._busy = item.passage, True
                    return self._generation, item
                self._busy = False
                self._cond.notify_all()
                self._cond.wait(RETRY_SECONDS)
                if self._lost:
                    self._retry()
                elif not self._player.alive and not self._closed:
                    self._lose()  # gone while idle: said now, not at the next sentence
            self._busy = False
            self._cond.notify_all()
            return None

    def _clip(self, said: Said) -> Clip | None:
        if said.audio:
            try:
                return Clip.load(Path(said.audio)).at(SPEECH_RATE)
            except (OSError, sf.LibsndfileError) as exc:
                _report(f"cannot play recording {said.audio}: {exc}")
                return None
        clip = Clip.load(self._renderer.render(said.text, self.settings.rate)).at(SPEECH_RATE)
        peak = float(abs(clip.samples).max()) if clip.samples.size else 0.0
        if peak <= 0:
            return clip
        # from just before the first sound (engines lead with up to 0.3 s of silence)
        first = int(np.argmax(abs(clip.samples[:, 0]) > peak * LEAD_LEVEL))
        start = max(0, first - int(LEAD_SECONDS * clip.samplerate))
        return Clip(clip.samples[start:] * (PEAK / peak), clip.samplerate)

    def _play(self, generation: int, item: _Item, clip: Clip) -> None:
        with self._cond:
            if generation != self._generation:
                return
            self._player.volume = self.settings.volume
            self._player.play(clip, paused=self._paused)
        try:
            while not self._player.started.wait(0.1):
                self._player.wait(0)  # raises DeviceLost when the stream died before starting
            heard_at = self._player.heard_at or time.monotonic() + self._player.latency
            time.sleep(max(0.0, heard_at - time.monotonic()) + LEAD_SECONDS)  # its first sound
            self.first_sound.set()
            if generation == self._generation:
                self._tell(item.said.text)
        finally:  # captioned as it starts being heard, or as it is lost
            if generation == self._generation:
                for said in item.caption():
                    self._show(said)
        self._player.wait()

    def _speak(self, generation: int, item: _Item) -> None:
        if self._lost:
            self._retry()
        if self._mute or self._lost or item.said.kind == "caption":
            for said in item.caption():
                self._show(said)
            return
        try:
            clip = self._clip(item.said)
            if clip is not None:
                self._play(generation, item, clip)
        except CancelledError:  # "stop" dropped it while it waited to be rendered
            pass
        except TtsError as exc:
            self._mute_for(f"speech failed: {exc}; {INSTALL_HINT}")
            self._speak(generation, item)
        except (DeviceLost, sd.PortAudioError, ValueError):
            self._lose()

    def _run(self) -> None:
        try:
            with self._cond:
                self._player.check(keep=True)
        except (sd.PortAudioError, ValueError):
            self._lose()
        while (got := self._next()) is not None:
            self._speak(*got)


def make_speaker(settings: Settings, show: Show = lambda said: None) -> Speaker | None:
    """A Speaker (captioning through ``show``), or None (after saying what to install or check)
    when there is no sound at all. With ``settings.quiet`` it captions and plays earcons only."""
    if NO_PORTAUDIO:
        _report(f"no sound output ({NO_PORTAUDIO}); install libportaudio2. "
                "Going on with captions only.")
        return None
    renderer = None
    if not settings.quiet:
        try:
            renderer = Renderer(settings.voice)
        except TtsError as exc:
            _report(f"no speech: {exc}. Going on with captions only.")
    player = Player(settings.output_device)
    try:
        player.check(keep=True)  # kept open: a new stream may stay silent for a while
    except (sd.PortAudioError, ValueError) as exc:
        _report(f"no sound output ({exc}); {DEVICE_HINT}. Going on with captions only.")
        return None
    return Speaker(settings, renderer, show, speak=renderer is not None, player=player)
