"""Text mode: utterances typed on stdin, captions printed with rich; and typing beside voice."""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import Any, Iterator, TextIO

from rich.console import Console

from narrator.events import Said, Utterance
from narrator.rules.base import Expectation
from narrator.understand import understand

KEYBOARD_POLL = 0.2  # seconds of listening between looks at the keyboard
STYLES = {"heading": "bold", "prompt": "bold cyan", "readback": "yellow", "reject": "red",
          "info": "dim", "state": "reverse"}


class Captions:
    """Prints every sentence as it is said; headings and prompts stand out."""

    def __init__(self, file: TextIO | None = None) -> None:
        self._console = Console(file=file or sys.stdout, highlight=False, soft_wrap=True)

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
        self._echo = (not self._stream.isatty()) if echo is None else echo
        self._captions = captions

    def listen(self, expectation: Expectation, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Utterance | None:
        if mode == "reading":
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


class TypingToo:
    """Voice ears with the keyboard beside them: a line typed (and Enter) is taken as typed at
    any moment, so a table can always type a name, or anything, rather than say it."""

    def __init__(self, voice: Any, keyboard: TextEars) -> None:
        self.voice = voice
        self.keyboard = keyboard
        self._typed: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, name="keyboard", daemon=True).start()

    def _read(self) -> None:
        for line in self.keyboard.lines():
            self._typed.put(line)

    def listen(self, expectation: Expectation, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Utterance | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                return self.keyboard.typed(self._typed.get_nowait(), expectation, mode)
            except queue.Empty:
                pass
            step = KEYBOARD_POLL if deadline is None else min(KEYBOARD_POLL,
                                                             deadline - time.monotonic())
            if step <= 0:
                return None
            heard = self.voice.listen(expectation, mode=mode, echo=echo, timeout=step)
            if heard is not None:
                return heard

    @property
    def ready(self) -> bool:
        """Whether the microphone's recogniser has loaded (typing works before)."""
        return getattr(self.voice, "ready", True)

    @property
    def notice(self) -> str | None:
        return getattr(self.voice, "notice", None)

    def close(self) -> None:
        close = getattr(self.voice, "close", None)
        if close is not None:
            close()
