"""The append-only session journal: one JSON line per confirmed input, fsync'd before acting.

Line 1 is a header (format version, game, options). Every later line is either
``{"n": k, "at": ..., "input": {...}}`` or ``{"n": k, "at": ..., "undo": true}``. The game state
is never stored: it is rebuilt by replaying these records, so resume, "go back" and a recap all
come from the same log. A torn last line (the app was killed mid-write) is reported and dropped.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

from narrator.events import GameInput, from_dict, to_dict

FORMAT = "narrator-journal"
VERSION = 1


class JournalError(Exception):
    """A journal that cannot be read (not a journal, a newer format, a corrupt record)."""


@dataclass
class Record:
    """One journal line after the header: an input, or an undo of the last input."""

    n: int
    input: GameInput | None = None
    undo: bool = False


@dataclass
class Loaded:
    """A journal read back: its header, its records, and any problem found at its end."""

    game: str
    options: dict[str, Any]
    records: list[Record] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Journal:
    """An open journal file, appended to with one fsync'd write per record."""

    def __init__(self, path: Path, next_n: int = 1) -> None:
        self.path = path
        self._n = next_n
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    @classmethod
    def create(cls, path: Path, game: str, options: Mapping[str, Any]) -> "Journal":
        """Start a new journal at ``path`` with its header."""
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            raise JournalError(f"{path} already exists")
        journal = cls(path)
        journal._write({"format": FORMAT, "version": VERSION, "game": game,
                        "options": dict(options), "created": _now()})
        return journal

    @classmethod
    def reopen(cls, path: Path) -> tuple["Journal", Loaded]:
        """Open an existing journal to go on appending; a torn tail is cut off first."""
        loaded, good_bytes = _read(path)
        with open(path, "r+b") as f:
            f.truncate(good_bytes)
            f.seek(max(0, good_bytes - 1))
            if f.read(1) != b"\n":
                f.write(b"\n")
            f.flush()
            os.fsync(f.fileno())
        next_n = loaded.records[-1].n + 1 if loaded.records else 1
        return cls(path, next_n), loaded

    def append(self, given: GameInput) -> None:
        """Record a confirmed input durably (returns after fsync)."""
        self._write({"n": self._n, "at": _now(), "input": to_dict(given)})
        self._n += 1

    def append_undo(self) -> None:
        """Record that the last input was taken back."""
        self._write({"n": self._n, "at": _now(), "undo": True})
        self._n += 1

    def _write(self, obj: Mapping[str, Any]) -> None:
        os.write(self._fd, (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8"))
        os.fsync(self._fd)

    def close(self) -> None:
        os.close(self._fd)


def load(path: Path) -> Loaded:
    """Read a journal without changing it."""
    return _read(path)[0]


def _read(path: Path) -> tuple[Loaded, int]:
    """The journal's content and how many bytes of it are whole records."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    try:
        header = json.loads(lines[0])
    except ValueError:
        raise JournalError(f"{path}: not a narrator journal (first line is not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise JournalError(f"{path}: not a narrator journal")
    if header.get("version", 0) > VERSION:
        raise JournalError(f"{path}: journal format {header['version']} is newer than this "
                           f"narrator ({VERSION}); upgrade narrator to read it")
    loaded = Loaded(game=header["game"], options=dict(header.get("options", {})))
    good = len(lines[0]) + 1
    body = lines[1:]
    for i, raw in enumerate(body):
        if not raw.strip():
            good += len(raw) + 1
            continue
        last = i == len(body) - 1
        try:
            obj = json.loads(raw)
            record = Record(n=obj["n"], undo=bool(obj.get("undo", False)),
                            input=None if obj.get("undo") else from_dict(obj["input"]))
        except (ValueError, KeyError, TypeError) as exc:
            if last or all(not r.strip() for r in body[i + 1:]):
                loaded.warnings.append(
                    f"{path}:{i + 2}: the last record was cut off (the app stopped while "
                    f"writing it); it is skipped")
                break
            raise JournalError(f"{path}:{i + 2}: corrupt record: {exc}") from None
        loaded.records.append(record)
        good += len(raw) + 1
    return loaded, min(good, len(data))


def inputs_of(records: list[Record]) -> list[GameInput]:
    """The inputs in force once every undo has taken back the input before it."""
    out: list[GameInput] = []
    for r in records:
        if r.undo:
            if out:
                out.pop()
        elif r.input is not None:
            out.append(r.input)
    return out
