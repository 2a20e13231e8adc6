"""The ears of a voice session: microphone → noise suppression → endpointer → recogniser → one
accepted phrase.

An utterance is accepted only when all of these hold (anything else is table talk, ignored):

1. the recogniser's transcript is one *whole* phrase of the grammar for now;
2. its confidence (fit against a free phone loop, or vosk's word confidence) reaches the
   threshold: stricter for long phrases (more than six phones: dice results), which have
   more room to swallow a sentence of talk, and stricter again while the narrator speaks;
   or, except while the narrator speaks, a free-speech decoding agrees with it closely;
3. the understanding layer reads it as a legal input or control for the expectation;
4. in ``wake`` mode it starts with "narrator"; in ``push`` mode a key opened the window.

Dice and success results are read back and confirmed by the session loop before they count.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import Callable, Protocol

from narrator.events import Unclear
from narrator.understand import Expectation, understand
from narrator.voice import grammar as grammars
from narrator.voice.asr import Heard, Recognizer, make_recognizer
from narrator.voice.denoise import Denoiser, make_denoiser
from narrator.voice.mic import Endpointer, Mic, check_input

MIN_CONFIDENCE = 0.25       # a short phrase ("next", "heads", "go back")
MIN_CONFIDENCE_LONG = 0.4   # a phrase of more than LONG_PHONES phones ("four and nine")
MIN_CONFIDENCE_SPEAKING = 0.5
MIN_AGREEMENT = 0.6         # with a free-speech decoding of the same audio
LONG_PHONES = 6
PUSH_WINDOW = 5.0  # seconds of listening after the push-to-talk key


class Source(Protocol):
    def read(self, timeout: float | None = None) -> bytes | None:
        """One frame, None when none came in time; EOFError when the source is exhausted."""


def min_confidence(heard: Heard, speaking: bool = False) -> float:
    """The confidence ``heard`` needs to count."""
    if speaking:
        return MIN_CONFIDENCE_SPEAKING
    return MIN_CONFIDENCE_LONG if heard.phones > LONG_PHONES else MIN_CONFIDENCE


def sure(heard: Heard, speaking: bool = False) -> bool:
    """Whether ``heard`` is confident enough, or (not while speaking) agreed on enough."""
    return (heard.confidence >= min_confidence(heard, speaking)
            or (not speaking and heard.agreement >= MIN_AGREEMENT))


def judge(heard: Heard, grammar: grammars.Grammar, expectation: Expectation | None, *,
          wake: bool = False, speaking: bool = False) -> str | None:
    """The phrase to hand to understand(), or None when ``heard`` is not a command."""
    text = " ".join(heard.text.split())
    if not text or not sure(heard, speaking) or not grammar.matches(text):
        return None
    if wake:
        text = text.split(" ", 1)[1] if " " in text else ""
    if isinstance(understand(text, expectation), Unclear):
        return None
    return text


class Ears:
    """Listens for one accepted phrase at a time (see the module docstring)."""

    def __init__(self, recognizer: Recognizer, source: Source, *, mode: str = "open",
                 keys: "queue.Queue[float] | None" = None, denoiser: Denoiser | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.recognizer = recognizer
        self.source = source
        self.denoiser = denoiser
        self.mode = mode
        self.keys = keys
        self.clock = clock
        self.endpointer = Endpointer(complete=self._complete)
        self.last: Heard | None = None  # the last utterance decoded, accepted or not
        self.ended_at = 0.0             # clock time the endpointer closed the last one
        self._grammar: grammars.Grammar | None = None
        self._window_until = 0.0

    def listen(self, expectation: Expectation | None, *, speaking: bool = False,
               timeout: float | None = None) -> str | None:
        """One accepted phrase as text, or None on timeout. ``speaking`` or no expectation:
        only pause and stop are live."""
        live = None if speaking else expectation
        deadline = None if timeout is None else self.clock() + timeout
        while deadline is None or self.clock() < deadline:
            try:
                frame = self.source.read(timeout=0.1)
            except EOFError:
                return None
            if frame is None:
                continue
            if self.denoiser is not None:
                frame = self.denoiser.clean(frame)
            text = self._hear(frame, live, speaking or expectation is None)
            if text is not None:
                return text
        return None

    def _hear(self, frame: bytes, expectation: Expectation | None, speaking: bool) -> str | None:
        event, audio = self.endpointer.push(frame)
        if event == "start":
            wake = self.mode == "wake"
            self._grammar = grammars.build(expectation, self.recognizer.known, wake=wake,
                                           mode="reading" if speaking else "asking")
            self.recognizer.start(self._grammar)
        if event in ("start", "speech", "end") and self._grammar is not None:
            self.recognizer.feed(audio)
        if event != "end" or self._grammar is None:
            return None
        self.ended_at = self.clock()
        self.last = self.recognizer.finish()
        grammar, self._grammar = self._grammar, None
        if not self._window_open():
            return None
        return judge(self.last, grammar, expectation, wake=self.mode == "wake",
                     speaking=speaking)

    def _complete(self) -> bool:
        """Whether the utterance so far is a whole phrase that cannot go on (end it sooner)."""
        return self._grammar is not None and self._grammar.complete(self.recognizer.partial())

    def _window_open(self) -> bool:
        if self.mode != "push" or self.keys is None:
            return True
        while not self.keys.empty():
            self._window_until = self.keys.get_nowait() + PUSH_WINDOW
        return self.clock() <= self._window_until

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if close is not None:
            close()
        if self.denoiser is not None:
            self.denoiser.close()


def _stdin_keys() -> "queue.Queue[float]":
    """Push-to-talk: each Enter on stdin opens a listening window."""
    keys: queue.Queue[float] = queue.Queue()

    def read() -> None:
        for _ in sys.stdin:
            keys.put(time.monotonic())

    threading.Thread(target=read, name="push-to-talk", daemon=True).start()
    print(f"Push to talk: press Enter, then speak within {PUSH_WINDOW:.0f} seconds.",
          file=sys.stderr)
    return keys


def make_ears(settings) -> Ears:
    """Ears on the settings' microphone, engine and listening mode.

    Raises RuntimeError naming what is missing when there is no input device; a vosk engine
    without a model prints a message and uses pocketsphinx; without RNNoise the microphone is
    heard raw (also said)."""
    device = getattr(settings, "input_device", None)
    check_input(device)
    recognizer = make_recognizer(getattr(settings, "engine", "pocketsphinx"),
                                 getattr(settings, "model", None))
    mode = getattr(settings, "listen_mode", "open")
    keys = _stdin_keys() if mode == "push" else None
    denoiser = make_denoiser(getattr(settings, "denoise", True))
    return Ears(recognizer, Mic(device), mode=mode, keys=keys, denoiser=denoiser)
