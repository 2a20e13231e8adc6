"""``--events FILE``: the session as a machine-readable stream, one JSON object per line.

A program beside the table (a bench's simulated players, a screen reader's helper) follows the
game by reading the file as it grows. Every line has ``event`` and ``t`` (seconds since the
epoch) and is flushed at once:

* ``said``: a sentence captioned (``text``, ``kind`` as in ``events.Said``, ``audio``);
* ``spoken``: a sentence's playback ended (``text``, ``start``, ``end``);
* ``state``: reading, listening or paused (the state earcons); ``earcon``: accepted, unclear;
* ``expect``: what is asked now, each time it changes and after each ``listening`` (``mode``,
  ``prompt``, ``accepts``, ``phrases``: what can be said, in words);
* ``hearing``: an utterance began (a voice rose over the room), before it is decoded;
* ``heard``: an utterance (``text``, ``engine``, ``confidence``, ``sure``, ``meaning``);
  ``ignored``: one decoded and not acted on (``text``, ``why``: table talk or the narrator's
  echo, an earcon, a question no longer asked, push to talk not pressed;
  ``voice/unanswered.py``);
* ``applied``: a game input kept in the journal and acted on (``input``); ``undone``: go back;
* ``end``: the session stopped, however it stopped (``completed``: the game reached its end).

The log wraps what the loop already talks to (its captions, ears, mouth, earcons and journal),
so the loop itself is unchanged. A log that cannot be written says so once, and the game goes
on without it.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable, TextIO

from narrator.events import Said, to_dict
from narrator.understand import describe
from narrator.voice.unanswered import HEARING

STATES = ("reading", "listening", "paused")


class EventLog:
    """Writes the events; ``warn`` is told (once) when the file cannot be written."""

    def __init__(self, path: Path, warn: Callable[[str], None]) -> None:
        self._warn = warn
        self._file: TextIO | None = None
        try:
            self._file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by close())
        except OSError as exc:
            self._fail(path, exc)
        self._path = path
        self._asked: tuple[Any, str] | None = None
        self._lock = threading.Lock()  # the microphone's thread writes too (``ignored``)
        self._unanswered = _Unanswered(self)
        HEARING.addHandler(self._unanswered)
        HEARING.setLevel(logging.DEBUG)

    def _fail(self, path: Path, exc: OSError) -> None:
        self._warn(f"the events file {path} cannot be written ({exc.strerror or exc}); "
                   "the game goes on without it")
        self._file = None

    def write(self, event: str, **fields: Any) -> None:
        """One line, flushed at once."""
        with self._lock:
            if self._file is None:
                return
            try:
                self._file.write(json.dumps({"event": event, "t": round(time.time(), 3),
                                             **fields}, default=_plain) + "\n")
                self._file.flush()
            except OSError as exc:
                file, self._file = self._file, None
                _close_quietly(file)
                self._fail(self._path, exc)

    def close(self, completed: bool) -> None:
        """Write ``end`` and close the file."""
        HEARING.removeHandler(self._unanswered)
        self.write("end", completed=completed)
        if self._file is not None:
            _close_quietly(self._file)
            self._file = None

    # ------------------------------------------------------------------ what the loop uses

    def captions(self, show: Callable[[Said], None]) -> Callable[[Said], None]:
        """``show`` that also logs each sentence."""
        def logged(said: Said) -> None:
            self.write("said", text=said.text, kind=said.kind, audio=said.audio)
            show(said)
        return logged

    def asked(self, expectation: Any, mode: str) -> None:
        """Log ``expect`` when what is asked, or how, has changed."""
        if self._asked == (expectation, mode):
            return
        self._asked = (expectation, mode)
        if expectation is None:
            return
        self.write("expect", mode=mode, prompt=to_dict(expectation.prompt),
                   accepts=[{"kind": type(a).__name__, **dataclasses.asdict(a)}
                            for a in expectation.accepts],
                   phrases=describe(expectation, mode))

    def cue(self, name: str) -> None:
        self.write("state" if name in STATES else "earcon", name=name)
        if name == "listening":  # asked again (after a miss, say): log it again
            self._asked = None


class _Unanswered(logging.Handler):
    """``narrator.hearing``'s utterances begun (``hearing``) and left unanswered (``ignored``)."""

    def __init__(self, log: EventLog) -> None:
        super().__init__(logging.DEBUG)
        self._log = log

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "hearing", False):
            self._log.write("hearing")
        ignored = getattr(record, "ignored", None)
        if ignored is not None:
            text, why, decoded = ignored
            self._log.write("ignored", text=text, why=why, **decoded)


class LoggedEars:
    """Ears whose expectations and utterances go to the log."""

    def __init__(self, ears: Any, log: EventLog) -> None:
        self._ears, self._log = ears, log

    def listen(self, expectation: Any, *, mode: str = "asking", **kwargs: Any) -> Any:
        self._log.asked(expectation, mode)
        heard = self._ears.listen(expectation, mode=mode, **kwargs)
        if heard is not None:
            written = {"transcript": heard.transcript} if heard.transcript else {}
            if heard.likeness is not None:
                written["likeness"] = round(heard.likeness, 3)
            self._log.write("heard", mode=mode, text=heard.text, engine=heard.engine,
                            confidence=heard.confidence, sure=heard.sure,
                            meaning=to_dict(heard.meaning), **written)
        return heard

    def __getattr__(self, name: str) -> Any:  # ready, notices, cued, close ...
        return getattr(self._ears, name)


class LoggedCues:
    """A mouth (or earcons alone) whose earcons and finished sentences go to the log."""

    def __init__(self, device: Any, log: EventLog) -> None:
        self._device, self._log = device, log
        self._playing: tuple[str, float] | None = None

    def earcon(self, name: str) -> None:
        self._log.cue(name)
        self._device.earcon(name)

    def say(self, said: Said, **how: Any) -> None:  # again=True: a passage said again
        self._ended()
        self._device.say(said, **how)
        self._playing = (said.text, time.time())

    @property
    def is_speaking(self) -> bool:
        speaking = self._device.is_speaking
        if not speaking:
            self._ended()
        return speaking

    def stop(self) -> None:
        self._device.stop()
        self._ended()

    def _ended(self) -> None:
        if self._playing is not None:
            text, start = self._playing
            self._playing = None
            self._log.write("spoken", text=text, start=round(start, 3), end=round(time.time(), 3))

    def __getattr__(self, name: str) -> Any:  # pause, resume, faster, louder, close ...
        return getattr(self._device, name)


class LoggedJournal:
    """A journal whose kept inputs go to the log once they are durable."""

    def __init__(self, journal: Any, log: EventLog) -> None:
        self._journal, self._log = journal, log

    def append(self, given: Any) -> None:
        self._journal.append(given)
        self._log.write("applied", input=to_dict(given))

    def append_undo(self) -> None:
        self._journal.append_undo()
        self._log.write("undone")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._journal, name)


def _plain(value: Any) -> Any:
    """A message nested in a field (a Line in a prompt's params, say) as its fields; anything
    else as text (the log never stops the game)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_dict(value)
    return str(value)


def _close_quietly(file: TextIO) -> None:
    try:
        file.close()
    except OSError:
        pass
