"""Text mode: utterances typed on stdin, captions printed with rich."""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console

from narrator.events import Said
from narrator.rules.base import Expectation

STYLES = {"heading": "bold", "prompt": "bold cyan", "readback": "yellow", "reject": "red",
          "info": "dim"}


class Captions:
    """Prints every sentence as it is said; headings and prompts stand out."""

    def __init__(self, file: TextIO | None = None) -> None:
        self._console = Console(file=file or sys.stdout, highlight=False, soft_wrap=True)

    def __call__(self, said: Said) -> None:
        if said.kind == "heading":
            self._console.print()
        self._console.print(said.text, style=STYLES.get(said.kind), markup=False)


class TextEars:
    """Reads one line of stdin per utterance; echoes it when stdin is not a terminal, so a
    transcript of a piped session reads like a conversation."""

    def __init__(self, stream: TextIO | None = None, echo: bool | None = None,
                 captions: Captions | None = None) -> None:
        self._stream = stream or sys.stdin
        if hasattr(self._stream, "reconfigure"):  # any bytes may be typed: bad UTF-8 reads as �
            self._stream.reconfigure(errors="replace")
        self._echo = (not self._stream.isatty()) if echo is None else echo
        self._captions = captions

    def listen(self, expectation: Expectation | None, *, speaking: bool = False,
               timeout: float | None = None) -> str | None:
        if speaking:
            return None
        line = self._stream.readline()
        if not line:
            return None
        text = line.rstrip("\n")
        if self._echo and self._captions is not None:
            self._captions(Said(f"> {text}", "input"))
        return text
