"""The ears of a voice session: microphone → noise suppression → endpointer → recogniser → one
``Utterance``, which ``voice/meant.py`` (``decide``) makes of the recogniser's phrase and free
transcript, the grammar for now and what the narrator was saying as it was captured.

Before that, the sound alone can make an utterance talk (``Ears._room_talk``, not over
the narration): one no louder than the talk going on around the table, or one cut for its
length where no free text is asked. And an answer said with the room's noise or talk near
the voice (``Endpointer.noisy``) is read back however sure the recogniser is, a correction
said at a read-back too (not the yes or no that replies to it).

In ``wake`` listening every phrase starts with "narrator"; in ``push`` a key opened the window.
The recogniser loads in a background thread (``ready``, ``wait_ready``); until it is ready the
microphone is not read, so what the table says meanwhile waits in it (the microphone keeps 12 s)
and is heard once it has loaded: a "pause" said in the first seconds of a session was lost.
When the engine asked for cannot load, the next one is used and ``notice`` says so (the session
speaks it).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from dataclasses import replace
from typing import Callable, Protocol

from narrator.events import Utterance
from narrator.understand import MAX_TRACK, AcceptText, Expectation
from narrator.voice import grammar as grammars
from narrator.voice.asr import Heard, Recognizer, load_recognizer, respelled
from narrator.voice.denoise import Denoiser, make_denoiser
from narrator.voice.echo import make_canceller
from narrator.voice.meant import ACCEPT_AT, SURE_AT, decide, leave
from narrator.voice.mic import Endpointer, Mic, check_input
from narrator.voice.spoken import echo_during
from narrator.voice.unanswered import began_hearing, left_unanswered

#: over the narration decoding ahead begins after 90 ms of quiet, not 120: an unsure command
#: stops the reading sooner (docs/barge-in.md, stop 45)
READING_PAUSE_FRAMES = 3
PLEASE_AFTER = 1.0  # seconds from the utterance before within which a lone "please" is its
# end ("pause ... please"); later, it is an utterance like any other (Whisper wrote flite awb's
# "player 3" in pink noise as "Please," with "three" fitted at 0.34 and 0.37: both dropped)
PUSH_WINDOW = 5.0  # seconds of listening after the push-to-talk key


class Source(Protocol):
    """Frames of 16 kHz mono int16. A microphone also has ``captured_until`` (monotonic time
    the end of the last frame read was captured: the ears place an utterance by it, however
    far behind the sound they read), ``hears_narrator`` (False: no echo can reach it) and
    ``gate`` (the last frame with the narrator's echo suppressed, which the endpointer judges
    speech by: ``voice/echo.py``)."""

    def read(self, timeout: float | None = None) -> bytes | None:
        """One frame, None when none came in time; EOFError when the source is exhausted."""


def joined(first: Heard, rest: Heard) -> Heard:
    """A spelled name heard in two parts (``Endpointer.cut``: parted or cut) as one; a part with
    no letters ("done" said after the pause that parted it) is no doubt about the other's."""
    spelled = [part for part in (first, rest) if part.text] or [rest]
    return Heard(f"{first.text} {rest.text}".strip(), min(p.confidence for p in spelled),
                 rest.ms, free=f"{first.free} {rest.free}".strip(),
                 seconds=first.seconds + rest.seconds)


class Ears:
    """Listens for one utterance at a time (see the module docstring).

    ``recognizer`` is a recogniser, or a function that loads one (run in a background thread)
    and returns it with a notice to say (None when the engine asked for loaded)."""

    def __init__(self, recognizer: Recognizer | Callable[[], tuple[Recognizer, str | None]],
                 source: Source, *, listening: str = "open",
                 keys: "queue.Queue[float] | None" = None, denoiser: Denoiser | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.denoiser = denoiser
        self.listening = listening
        self.keys = keys
        self.clock = clock
        self.endpointer = Endpointer(complete=self._complete)
        self.last: Heard | None = None  # the last utterance decoded, accepted or not
        self.ended_at = 0.0  # when the last utterance's end was captured (clock time)
        self._ended_before = -float("inf")  # ... and the end of the one before it
        self.notice: str | None = None  # what to tell the table about the engine, once
        self.tracks = MAX_TRACK  # the game's highest track number (make_ears sets it): the
        # recogniser is held to "go to track N" for the tracks there are, none without tracks
        self._grammar = None
        self._again = False  # decode ahead once more at the usual pause (``_ahead``)
        # letters parted or cut off (more may come), and the quiet frames since their last
        self._spelled: tuple[Heard, object] | None = None
        self._quiet_after = 0
        self._window_until = 0.0
        self._ready = threading.Event()
        if callable(recognizer) and not hasattr(recognizer, "start"):
            threading.Thread(target=self._load, args=(recognizer,), name="ears-load",
                             daemon=True).start()
        else:
            self.recognizer = recognizer
            self._ready.set()

    def _load(self, load: Callable[[], tuple[Recognizer, str | None]]) -> None:
        try:
            self.recognizer, self.notice = load()
        finally:
            self._ready.set()

    @property
    def ready(self) -> bool:
        """Whether the recogniser has loaded (the listening earcon may play)."""
        return self._ready.is_set() and getattr(self, "recognizer", None) is not None

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until the recogniser has loaded; whether it has."""
        self._ready.wait(timeout)
        return self.ready

    @property
    def engine(self) -> str:
        return self.recognizer.name if self.ready else "loading"

    def listen(self, expectation: Expectation | None, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Utterance | None:
        """One utterance for ``mode`` ("asking", "reading", "paused", "confirming", "spelling"),
        or None on timeout or when the source ends. ``echo``: what the narrator is saying now
        (an ``Echo``: with when it said what)."""
        deadline = None if timeout is None else self.clock() + timeout
        self.endpointer.spelling = mode == "spelling"
        self.endpointer.focusing = mode != "reading"  # the room there is the narrator's residue
        self.endpointer.pause_frames = READING_PAUSE_FRAMES if mode == "reading" \
            else Endpointer.pause_frames
        self.endpointer.hearing_room = not (  # the narrator's own voice is no room
            mode == "reading" and getattr(self.source, "echo", None) is None
            and getattr(self.source, "hears_narrator", True))
        if mode != "spelling":
            self._spelled = None
        while deadline is None or self.clock() < deadline:
            if not self._ready.is_set():  # loading: the source keeps what is said meanwhile
                self._ready.wait(0.1)
                continue
            try:
                frame = self.source.read(timeout=0.1)
            except EOFError:
                return None
            if self._spelled is not None and not self.endpointer.in_speech \
                    and self._quiet_after >= self.endpointer.letter_end_frames:  # as unparted:
                heard, grammar = self._spelled  # no more letters in 1 s
                self._spelled = None
                return self._decide(heard, grammar, expectation, mode, echo)
            if frame is None or not self.ready:
                continue
            voiced = None if self.denoiser is None else self.denoiser.clean(frame)
            voiced = None if voiced is frame else voiced  # a quiet room's: as it came
            if voiced is not None and getattr(self.recognizer, "denoise", True):
                frame = voiced
            heard = self._hear(frame, expectation, mode, echo, voiced)
            if heard is not None:
                return heard
        return None

    def _hear(self, frame: bytes, expectation: Expectation | None, mode: str,
              echo: str, voiced: bytes | None) -> Utterance | None:
        event, audio = self.endpointer.push(frame, getattr(self.source, "gate", None), voiced)
        self._quiet_after += event == "silence"
        if event == "start":
            began_hearing()
            self._grammar = grammars.build(expectation, self.recognizer.known, mode=mode,
                                           wake=self.listening == "wake", tracks=self.tracks)
            self.recognizer.start(self._grammar)
            if self._spelled is not None and hasattr(self.recognizer, "goes_on"):
                self.recognizer.goes_on(self._spelled[0].free)  # the rest of a spelling
        if event == "void":  # a noise that rose, no voice: nothing to decode
            left_unanswered("", "a steady noise that rose, no voice")
            self._grammar = None
            if hasattr(self.recognizer, "discard"):
                self.recognizer.discard()
        if event != "silence" and self._grammar is not None:
            self.recognizer.feed(audio)
            self._ahead(event)
        if event != "end" or self._grammar is None:
            return None
        self._ended_before = self.ended_at
        self.ended_at = getattr(self.source, "captured_until", None) or self.clock()
        heard, grammar, self._grammar = self.recognizer.finish(), self._grammar, None
        talk = self._room_talk(expectation, mode)
        if talk is not None:
            leave(heard, talk)
            return None
        if self._spelled is not None:  # the rest of a spelled name
            heard, self._spelled = joined(self._spelled[0], heard), None
        if mode == "spelling" and self.endpointer.cut:  # parted or cut: more letters may come
            self._spelled, self._quiet_after = (heard, grammar), self.endpointer.quiet
            return None
        return self._decide(heard, grammar, expectation, mode, echo)

    def _room_talk(self, expectation: Expectation | None, mode: str) -> str | None:
        """Why the utterance just ended is talk around the table by its sound alone, or None:
        no louder than the room's talk (``Endpointer.distant``), or cut for its length where
        no free text is asked (a command in it was cut in two). Not over the narration: there
        the room's level is the narrator's residue, and a word the suppressor took whole is as
        faint."""
        if mode == "reading":
            return None
        if self.endpointer.distant:
            return "no louder than the talk around it"
        if self.endpointer.cut and mode != "spelling" and (
                expectation is None or expectation.find(AcceptText) is None):
            return "longer than any answer asked for: talk"
        return None

    def _decide(self, heard: Heard, grammar, expectation: Expectation | None, mode: str,
                echo: str) -> Utterance | None:
        """What one decoded utterance is (``decide``), a whole spelling mended first
        (``respelled``); one left unanswered is logged so."""
        heard = self.last = respelled(self.recognizer, heard, grammar)
        if not self._window_open():
            leave(heard, "push to talk was not pressed")
            return None
        start = self.ended_at - heard.seconds
        echo = (echo_during(echo, start, self.ended_at)
                if getattr(self.source, "hears_narrator", True) else "")  # none can reach it
        measure = getattr(self.source, "echo_likeness", None)
        likeness = measure(start, self.ended_at) if echo and measure else None
        utterance = decide(heard, grammar, expectation, self.recognizer.name, mode=mode,
                           wake=self.listening == "wake", echo=echo, likeness=likeness,
                           noisy=self.endpointer.noisy,
                           follows=start - self._ended_before <= PLEASE_AFTER)
        if utterance is None:
            leave(heard, "table talk or the narrator's echo", likeness)
            return None
        return utterance if likeness is None else replace(utterance, likeness=likeness)

    def _ahead(self, event: str) -> None:
        """At a pause, a recogniser that can decode ahead starts on what was said so far; when
        speech resumes, that is void. Over the narration the pause comes sooner; a decoding
        back from it that does not end the utterance (no control that acts) is done again,
        once, on all that was heard by the usual pause: the soft end of a word ("pause"'s
        "s" at -6 dB) may lie in those 30 ms (replayed, without this: 4 words in 96 lost)."""
        if event == "pause" and hasattr(self.recognizer, "prepare"):
            self.recognizer.prepare()
            self._again = self.endpointer.pause_frames < Endpointer.pause_frames
        elif event == "resume" and hasattr(self.recognizer, "discard"):
            self.recognizer.discard()
        elif (event == "speech" and self._again
              and self.endpointer.quiet >= Endpointer.pause_frames
              and self.recognizer.back() and not self._decided_control()):
            self._again = False
            self.recognizer.prepare()

    def _complete(self) -> bool:
        """Whether the utterance so far is a whole phrase that cannot go on (end it sooner);
        over the narration, also a control the recogniser already decoded ahead with the
        confidence that acts (sure or not): the reading stops sooner, and a "please" after a
        pause that long is heard on its own; a spelling the recogniser decoded ahead to the word
        that ends one ("... Sierra. Done.")."""
        if self._grammar is None:
            return False
        if self._grammar.mode == "spelling":
            return hasattr(self.recognizer, "spelled_to_end") and self.recognizer.spelled_to_end()
        if self._grammar.complete(self.recognizer.partial()):
            return True
        return self._decided_control()

    def _decided_control(self) -> bool:
        """Over the narration, whether the recogniser decoded ahead a control with the
        confidence that acts."""
        if not self._grammar.speaking or not hasattr(self.recognizer, "decided"):
            return False
        decided = self.recognizer.decided(ACCEPT_AT.get(self.recognizer.name, SURE_AT))
        return bool(decided) and not self._grammar.answer(decided)

    def _window_open(self) -> bool:
        if self.listening != "push" or self.keys is None:
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


def make_ears(settings, tracks: int = MAX_TRACK) -> Ears:
    """Ears on the settings' microphone, engine and listening mode, for a game whose highest
    track is ``tracks``; the engine loads in the background (a missing model: the next
    engine, and ``notice`` says so).

    The narrator's own voice is cancelled from the microphone (``voice/echo.py``). Raises
    RuntimeError naming what is missing when there is no input device; without RNNoise the
    microphone is heard raw (also said)."""
    device = getattr(settings, "input_device", None)
    check_input(device)
    engine = getattr(settings, "engine", "whisper")
    model = getattr(settings, "model", None)
    mode = getattr(settings, "listen_mode", "open")
    keys = _stdin_keys() if mode == "push" else None
    denoiser = make_denoiser(getattr(settings, "denoise", True))
    ears = Ears(lambda: load_recognizer(engine, model), Mic(device, echo=make_canceller()),
                listening=mode, keys=keys, denoiser=denoiser)
    ears.tracks = tracks
    return ears
