"""Text mode: utterances typed on stdin, captions printed with rich; the microphone in a thread
of its own, with typing beside it."""

from __future__ import annotations

import queue
import sys
from collections import deque
import threading
import time
from typing import Any, Iterator, TextIO

from rich.console import Console

from narrator.crash_report import write_report
from narrator.events import Said, Unclear, Utterance
from narrator.rules.base import Expectation
from narrator.understand import understand
from narrator.understand.words import carries
from narrator.voice.earcons import earcon_seconds
from narrator.voice.meant import leave
from narrator.voice.unanswered import left_unanswered

MIC_STEP = 0.2  # seconds the microphone thread listens before it looks at what is expected
NEXT_ASK = 2.0  # seconds it waits, after an utterance, for what is expected next
MOST_FAULTS = 3  # hearings failing in a row: the fault is not one utterance's, so the session
# stops on it (saved, with a crash report) rather than listen on in vain
CLOSE_WAIT = 30.0  # seconds to let a decoding finish before the microphone is closed
CUE_TAIL = 0.5  # seconds after an earcon in which an utterance that ends is the earcon heard
CUE_LEAD = 0.5  # ... unless its sound (and the ears' lead-in, 0.3 s) began this long before it
EARCON_HEARD = 0.2  # Whisper fitted an earcon that reached it (no canceller) to a phrase at
# 0.05-0.18 (30 plays); a phrase heard more surely is a word, not the tone
EARCON_LEFT = "it ended with an earcon"  # why an utterance was left (the events file)
STYLES = {"heading": "bold", "prompt": "bold cyan", "readback": "yellow", "reject": "red",
          "info": "dim", "state": "reverse"}


class Captions:
    """Prints every sentence as it is said; headings and prompts stand out (unless ``plain``:
    no colour or emphasis, as rich also does by itself for NO_COLOR and for a pipe)."""

    def __init__(self, file: TextIO | None = None, plain: bool = False) -> None:
        self._console = Console(file=file or sys.stdout, highlight=False, soft_wrap=True,
                                color_system=None if plain else "auto")

    def __call__(self, said: Said) -> None:
        if said.kind == "heading":
            self._console.print()
        self._console.print(said.text, style=STYLES.get(said.kind), markup=False)


class TextEars:
    """Reads one line of stdin per utterance, understood as typed (sure, confidence 1); echoes
    it when stdin is not a terminal, so a transcript of a piped session reads like a
    conversation. Nothing is read while the narrator reads aloud."""

    def __init__(self, stream: TextIO | None = None, echo: bool | None = None,
                 captions: Captions | None = None) -> None:
        self._stream = stream or sys.stdin
        if hasattr(self._stream, "reconfigure"):  # any bytes may be typed: bad UTF-8 reads as �
            self._stream.reconfigure(errors="replace")
        self._echo = (not self._stream.isatty()) if echo is None else echo
        self._captions = captions

    def listen(self, expectation: Expectation, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Utterance | None:
        if mode == "reading":  # nothing to hear: the timeout waited out, not a busy loop that
            time.sleep(timeout or 0)  # would starve the speaker's thread of the lock it needs
            return None
        line = self._stream.readline()
        return self.typed(line, expectation, mode) if line else None

    def typed(self, line: str, expectation: Expectation, mode: str) -> Utterance:
        """A typed line as an utterance (echoed to the captions when asked to)."""
        text = line.rstrip("\n")
        if self._echo and self._captions is not None:
            self._captions(Said(f"> {text}", "input"))
        return Utterance(text, understand(text, expectation, mode), 1.0, "text")

    def lines(self) -> Iterator[str]:
        """Every line typed, as it comes (until the input ends)."""
        return iter(self._stream.readline, "")


def _fault(exc: Exception) -> Utterance:
    """Hearing one utterance failed unexpectedly: reported (``crash_report``) and taken as not
    understood, so the table hears the miss and says it again or types it, and the microphone
    goes on listening (its thread would otherwise end, and the narrator hear nothing more)."""
    where = write_report(exc)
    return Utterance("", Unclear("", f"Something went wrong while hearing that "
                                     f"({type(exc).__name__}); say it again, or type it. "
                                     f"{where}"), 0.0, "microphone", False)


class LiveEars:
    """The microphone heard in a thread of its own, so a decoding never holds up the reading,
    with the keyboard beside it (when given): a line typed (and Enter) is taken as typed at any
    moment, so a table can always type a name, or anything, rather than say it.

    Each ``listen`` says what is expected now; the microphone thread listens for that, and once
    it has heard an utterance, waits (up to NEXT_ASK) for the next ``listen`` before it listens
    again: a word begun meanwhile is heard for what is asked then (the microphone keeps its
    frames), not for the answer just taken. An utterance heard for a question that is no longer
    asked is dropped; one whose hearing fails is a miss (``_fault``), and MOST_FAULTS failing
    in a row stop the session."""

    def __init__(self, voice: Any, keyboard: TextEars | None = None, speaks: bool = True) -> None:
        self.voice = voice
        self.keyboard = keyboard
        self.speaks = speaks  # the narrator speaks, not earcons alone (``--quiet``)
        self._heard: queue.Queue[tuple[Any, Any]] = queue.Queue()
        self._want: tuple[Expectation, str, str] | None = None
        self._wanted = threading.Event()
        self._asked = threading.Event()  # set by each ``listen``: what is expected is current
        self._closed = threading.Event()
        self._cues: deque[tuple[float, float]] = deque(maxlen=8)  # when earcons sounded
        self._microphone = threading.Thread(target=self._hear, name="microphone", daemon=True)
        self._microphone.start()
        if keyboard is not None:
            threading.Thread(target=self._read, name="keyboard", daemon=True).start()

    def _hear(self) -> None:
        self._wanted.wait()
        faults = 0  # hearings that failed in a row
        while not self._closed.is_set():
            if self._want is None:
                return
            expectation, mode, echo = self._want
            started = time.monotonic()
            try:
                heard = self.voice.listen(expectation, mode=mode, echo=echo, timeout=MIC_STEP)
            except Exception as exc:  # one utterance's fault must not end the listening
                faults += 1
                if faults >= MOST_FAULTS:  # the session's to stop on (``listen`` raises it)
                    self._heard.put((exc, expectation))
                    return
                self._heard.put((_fault(exc), expectation))
                continue
            faults = 0
            if heard is not None and self._our_cue(heard):
                leave(self.voice.last, EARCON_LEFT)  # as decoded: the bench reads it
            elif heard is not None:
                self._asked.clear()
                self._heard.put((heard, expectation))
                self._asked.wait(NEXT_ASK)
            else:  # ears that return at once (an ended source) are not asked in a busy loop
                self._closed.wait(MIC_STEP - (time.monotonic() - started))

    def cued(self, name: str) -> None:
        """Earcon ``name`` plays now: what the microphone hears ending with it is the earcon
        (a recogniser takes a short tone for "no" or "help"), not the table."""
        now = time.monotonic()
        self._cues.append((now, now + earcon_seconds(name) + CUE_TAIL))

    def _our_cue(self, heard: Utterance) -> bool:
        """Whether ``heard``, just heard, ended while an earcon played (or just after), and
        began with it: a word said before the earcon and ending with it is the table's, and so
        is any word when the microphone cannot hear the narrator (headphones) or its echo
        canceller has found the narrator's voice there (and takes our earcons out with it: in
        34 table runs, all five utterances left so were a player's "pause"), a phrase the
        recogniser is sure of and wrote as such, and, while the narrator speaks, one Whisper is
        surer of than it ever was of an earcon (EARCON_HEARD): an earcon heard is written as
        filler ("You.", "Beep.") and scored low. "Repeat." said into the listening earcon,
        sure, and "pause" begun in the prompt before it, unsure (the endpointer heard it start
        only as the narrator stopped), had been left. With earcons alone (``--quiet``) the
        canceller finds them but does not take them out, and there is no prompt to begin a word
        in: 11 of 16 came back as words, "Second session." fitted to "first session" at 0.17,
        "Spend new." to "new" at 0.29-0.32 (read back; two more earcons heard as "yeah" then
        confirmed it)."""
        ended = getattr(self.voice, "ended_at", None)
        last = getattr(self.voice, "last", None)  # as decoded (ears that say)
        source = getattr(self.voice, "source", None)
        if (ended is None or last is None or not getattr(source, "hears_narrator", True)
                or (self.speaks and getattr(source, "cancels_narrator", False))):
            return False
        if heard.sure and last.free and carries(last.free, last.text):
            return False
        if self.speaks and heard.engine == "whisper" and heard.confidence >= EARCON_HEARD:
            return False
        began = ended - last.seconds
        return any(start <= ended <= end and began >= start - CUE_LEAD
                   for start, end in self._cues)

    def _read(self) -> None:
        assert self.keyboard is not None
        for line in self.keyboard.lines():
            self._heard.put((line, None))

    def listen(self, expectation: Expectation, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Utterance | None:
        self._want = (expectation, mode, echo)
        self._wanted.set()
        self._asked.set()
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            try:
                heard, under = self._heard.get(timeout=left)
            except queue.Empty:
                return None
            if isinstance(heard, Exception):  # hearing failed MOST_FAULTS times in a row
                raise heard
            if isinstance(heard, str) and self.keyboard is not None:
                return self.keyboard.typed(heard, expectation, mode)
            if under == expectation:
                return heard
            left_unanswered(heard.text, "its question was no longer asked")
            self._asked.set()  # still asking this: listen on

    @property
    def ready(self) -> bool:
        """Whether the microphone's recogniser has loaded (typing works before)."""
        return getattr(self.voice, "ready", True)

    @property
    def notices(self) -> tuple[str, ...]:
        return getattr(self.voice, "notices", ())

    def close(self) -> None:
        """Stop listening, then close the microphone (not while it is being read: a crash)."""
        self._closed.set()
        self._wanted.set()
        self._asked.set()
        self._microphone.join(timeout=CLOSE_WAIT)
        close = getattr(self.voice, "close", None)
        if close is not None:
            close()
