"""Text mode: utterances typed on stdin, captions printed with rich."""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console

from narrator.events import Said, Utterance
from narrator.rules.base import Expectation
from narrator.understand import understand

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
        if not line:
            return None
        text = line.rstrip("\n")
        if self._echo and self._captions is not None:
            self._captions(Said(f"> {text}", "input"))
        return Utterance(text, understand(text, expectation, mode), 1.0, "text")
