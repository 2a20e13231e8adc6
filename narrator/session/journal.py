"""The append-only session journal: one JSON line per confirmed input, fsync'd before acting.

Line 1 is a header (format version, game, options). Every later line is either
``{"n": k, "at": ..., "input": {...}}`` or ``{"n": k, "at": ..., "undo": true}``. The game state
is never stored: it is rebuilt by replaying these records, so resume, "go back" and a recap all
come from the same log.

Durability: a record is written whole (short writes are continued) and fsync'd before
``append`` returns; if any part fails (disk full, I/O error, read-only disk) the file is cut
back to the records before it and ``JournalWriteError`` says what to do, so the input is not
acknowledged. A new journal is created exclusively and its folder fsync'd. An open journal is
locked (``flock``): a second process opening the same session is refused. On reading, every
complete line is kept; only a last line without its newline is a torn write (skipped and cut).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import signal
import stat
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Mapping

from narrator.errors import NarratorError
from narrator.events import GameInput, from_dict, to_dict

FORMAT = "narrator-journal"
VERSION = 1

#: errno -> (what happened, what the table can do about it)
_CAUSES = {
    errno.ENOSPC: ("disk full", "free space"),
    errno.EDQUOT: ("disk quota reached", "free space"),
    errno.EIO: ("the disk reported an input/output error", "check the disk"),
    errno.EROFS: ("the disk is read-only", "make it writable"),
}


class JournalError(NarratorError):
    """A journal that cannot be read or written; the message says why and what to do."""


class JournalWriteError(JournalError):
    """A record that could not be made durable; nothing of it was kept."""


class JournalBusy(JournalError):
    """The session is open in another narrator process."""


def cause(exc: OSError) -> tuple[str, str]:
    """What went wrong with a file operation, and what to do, in the table's words."""
    return _CAUSES.get(exc.errno or 0, (exc.strerror or str(exc), "check the save folder"))


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


@contextmanager
def _uninterrupted() -> Iterator[None]:
    """Ctrl-C (and SIGTERM) wait until a record is whole on disk, or cut back."""
    held = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class Journal:
    """An open, locked journal file, appended to with one fsync'd record at a time."""

    def __init__(self, fd: int, path: Path, size: int, next_n: int = 1) -> None:
        self.path = path
        self._fd = fd
        self._size = size
        self._n = next_n

    @property
    def name(self) -> str:
        """The session's name (the file name without ``.jsonl``)."""
        return self.path.stem

    @classmethod
    def create(cls, path: Path, game: str, options: Mapping[str, Any]) -> "Journal":
        """Start a new journal at ``path`` with its header; never replaces a file."""
        if path.parent.exists() and not path.parent.is_dir():
            raise JournalWriteError(f"Could not start a session: {path.parent} is not a folder; "
                                    f"choose another save folder.")
        try:
            if not path.parent.is_dir():
                path.parent.mkdir(parents=True)
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                         0o644)
        except OSError as exc:
            what, fix = ("it already exists", "choose another name") \
                if exc.filename == str(path) and isinstance(exc, FileExistsError) else cause(exc)
            raise JournalWriteError(f"Could not start a session in {path}: {what}; "
                                    f"{fix} and start again.") from None
        journal = cls(fd, path, 0)
        try:
            _lock(fd, path)
            journal._write({"format": FORMAT, "version": VERSION, "game": game,
                            "options": dict(options), "created": _now()})
            _fsync_folder(path.parent)
        except (OSError, JournalBusy) as exc:
            journal.close()
            path.unlink(missing_ok=True)
            if isinstance(exc, JournalBusy):
                raise
            what, fix = cause(exc)
            raise JournalWriteError(f"Could not start a session in {path.parent}: {what}; "
                                    f"{fix} and start again.") from None
        return journal

    @classmethod
    def reopen(cls, path: Path) -> tuple["Journal", Loaded]:
        """Lock an existing journal to go on appending; a torn last line is cut off first."""
        fd = _open_file(path, os.O_RDWR | os.O_APPEND)
        try:
            _lock(fd, path)
            data = _read_all(fd)
            loaded, good = _parse(data, path)
            if good < len(data):
                os.ftruncate(fd, good)
                os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            what, fix = cause(exc)
            raise JournalError(f"Could not open {path}: {what}; {fix} and resume again.") from None
        except JournalError:
            os.close(fd)
            raise
        next_n = loaded.records[-1].n + 1 if loaded.records else 1
        return cls(fd, path, good, next_n), loaded

    def append(self, given: GameInput) -> None:
        """Record a confirmed input durably (returns after fsync), or raise JournalWriteError."""
        self._record({"n": self._n, "at": _now(), "input": to_dict(given)},
                     "The last answer was not kept; {fix} and say it again.")

    def append_undo(self) -> None:
        """Record that the last input was taken back, or raise JournalWriteError."""
        self._record({"n": self._n, "at": _now(), "undo": True},
                     'Nothing was taken back; {fix} and say "go back" again.')

    def _record(self, obj: Mapping[str, Any], unkept: str) -> None:
        try:
            self._write(obj)
        except OSError as exc:
            what, fix = cause(exc)
            raise JournalWriteError(f"Could not save: {what}. " + unkept.format(fix=fix)) from None
        self._n += 1

    def _write(self, obj: Mapping[str, Any]) -> None:
        """Write one line whole and fsync it; on any failure cut the file back and re-raise."""
        line = (json.dumps(obj, ensure_ascii=True) + "\n").encode("ascii")
        with _uninterrupted():
            try:
                _cut_back(self._fd, self._size)  # a record that failed before may have left bytes
                done = 0
                while done < len(line):
                    written = os.write(self._fd, line[done:])
                    if written <= 0:
                        raise OSError(errno.ENOSPC, "no byte could be written")
                    done += written
                os.fsync(self._fd)
            except OSError:
                try:
                    _cut_back(self._fd, self._size)
                except OSError:
                    pass  # tried again before the next record is written
                raise
            self._size += len(line)

    def close(self) -> None:
        """Release the lock and the file."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _cut_back(fd: int, size: int) -> None:
    """Make the file exactly ``size`` bytes long again, durably, if it grew past that."""
    if os.fstat(fd).st_size != size:
        os.ftruncate(fd, size)
        os.fsync(fd)


def _lock(fd: int, path: Path) -> None:
    """Take the journal's exclusive lock, or raise JournalBusy when another process holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise JournalBusy(f"Session {path.stem} is open in another narrator; quit it there "
                          f"first, then resume.") from None


def _fsync_folder(folder: Path) -> None:
    """Make a new file's name durable in its folder."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _open_file(path: Path, flags: int) -> int:
    """Open a regular file without following a symlink or waiting on a FIFO."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise JournalError(f"{path} does not exist") from None
    except OSError as exc:
        what, fix = cause(exc)
        raise JournalError(f"Could not open {path}: {what}; {fix}.") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise JournalError(f"{path} is not a journal file")
    os.set_blocking(fd, True)
    return fd


def _read_all(fd: int) -> bytes:
    chunks, offset = [], 0
    while chunk := os.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def load(path: Path) -> Loaded:
    """Read a journal without changing it."""
    fd = _open_file(path, os.O_RDONLY)
    try:
        return _parse(_read_all(fd), path)[0]
    except OSError as exc:
        what, fix = cause(exc)
        raise JournalError(f"Could not read {path}: {what}; {fix}.") from None
    finally:
        os.close(fd)


def _parse(data: bytes, path: Path) -> tuple[Loaded, int]:
    """The journal's content and how many bytes of it are complete lines."""
    *complete, tail = data.split(b"\n")
    if not complete:
        raise JournalError(f"{path} is empty: the session never started (it was stopped, or the "
                           f"disk was full, as it was created)" if not tail else
                           f"{path}: its first line was cut off; it is not a usable journal")
    header = _json(complete[0])
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise JournalError(f"{path}: not a narrator journal")
    version = header.get("version", 0)
    if not isinstance(version, int) or version > VERSION:
        raise JournalError(f"{path}: journal format {version} is newer than this "
                           f"narrator ({VERSION}); upgrade narrator to read it")
    if not isinstance(header.get("game"), str) or not isinstance(header.get("options", {}), dict):
        raise JournalError(f"{path}:1: the header has no game or bad options")
    loaded = Loaded(game=header["game"], options=dict(header.get("options", {})))
    for number, raw in enumerate(complete[1:], start=2):
        if raw.strip():
            loaded.records.append(_record(raw, f"{path}:{number}"))
    if tail:
        loaded.warnings.append(f"{path}:{len(complete) + 1}: the last record was cut off (the "
                               f"app stopped while writing it); it is skipped")
    return loaded, len(data) - len(tail)


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _record(raw: bytes, where: str) -> Record:
    """One complete line as a Record; a line that is not one is reported, never dropped."""
    obj = _json(raw)
    if not isinstance(obj, dict) or not isinstance(obj.get("n"), int):
        raise JournalError(f"{where}: corrupt record (not a journal record); the journal was "
                           f"changed outside narrator")
    if obj.get("undo") is True:
        return Record(n=obj["n"], undo=True)
    if "input" not in obj:
        kinds = ", ".join(sorted(k for k in obj if k not in ("n", "at"))) or "nothing"
        raise JournalError(f"{where}: unknown record kind ({kinds}); it may come from a newer "
                           f"narrator: upgrade narrator to resume this session")
    try:
        return Record(n=obj["n"], input=from_dict(obj["input"]))
    except (ValueError, TypeError, KeyError) as exc:
        raise JournalError(f"{where}: unknown input ({exc}); it may come from a newer "
                           f"narrator: upgrade narrator to resume this session") from None


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
