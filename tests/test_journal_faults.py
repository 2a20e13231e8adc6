"""The journal under faults: short writes, ENOSPC / EIO / EROFS at every write and fsync, a
real full disk, the order of every fsync, the lock, and what resume keeps."""

from __future__ import annotations

import errno
import io
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from narrator.cli import app
from narrator.events import Dice, Number, Word
from narrator.session.console import Captions, TextEars
from narrator.session.journal import (Journal, JournalBusy, JournalError, JournalWriteError,
                                      inputs_of, load)
from narrator.session.game import Session
from narrator.session.loop import run
from toy_game import INFO, SCRIPT

REAL = {name: getattr(os, name) for name in ("write", "fsync", "ftruncate", "open")}


class Disk:
    """Stands between the journal and the OS for files under ``root``: logs every write, fsync,
    truncate and open there, makes writes short, and fails the calls it is told to."""

    def __init__(self, monkeypatch, root: Path, short: bool = False):
        self.root, self.short = str(root), short
        self.log: list[tuple[str, str]] = []
        self.fail: dict[int, int] = {}  # index in ``log`` of a write/fsync/ftruncate -> errno
        for name in ("write", "fsync", "ftruncate"):
            monkeypatch.setattr(os, name, self._wrap(name))
        monkeypatch.setattr(os, "open", self._open)

    def _where(self, fd: int) -> str | None:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return None
        return target if target.startswith(self.root) else None

    def _wrap(self, name: str):
        def call(fd, *args):
            where = self._where(fd)
            if where is None:
                return REAL[name](fd, *args)
            self.log.append((name, "folder" if os.path.isdir(where) else Path(where).name))
            code = self.fail.pop(len(self.log) - 1, None)
            if code is not None:
                raise OSError(code, os.strerror(code))
            if name == "write" and self.short:
                return REAL[name](fd, args[0][:3])
            return REAL[name](fd, *args)
        return call

    def _open(self, path, flags, *args, **kwargs):
        fd = REAL["open"](path, flags, *args, **kwargs)
        if str(path).startswith(self.root):
            kind = "excl" if flags & os.O_EXCL else "open"
            self.log.append((kind, "folder" if os.path.isdir(path) else Path(path).name))
        return fd

    def ops(self, since: int = 0) -> list[str]:
        return [op for op, _ in self.log[since:]]


def journal_with(path: Path, *inputs) -> Journal:
    journal = Journal.create(path, "toy", {"rounds": 3})
    for given in inputs:
        journal.append(given)
    return journal


def test_short_writes_are_continued_until_every_byte_is_written(tmp_path, monkeypatch):
    disk = Disk(monkeypatch, tmp_path, short=True)
    journal = journal_with(tmp_path / "s.jsonl", Number(2), Dice((4, 9)), Word("yes"))
    journal.close()
    assert disk.ops().count("write") > 30
    assert inputs_of(load(tmp_path / "s.jsonl").records) == [Number(2), Dice((4, 9)), Word("yes")]


@pytest.mark.parametrize("code, said", [
    (errno.ENOSPC, "Could not save: disk full. The last answer was not kept; free space and "
                   "say it again."),
    (errno.EIO, "Could not save: the disk reported an input/output error. The last answer was "
                "not kept; check the disk and say it again."),
    (errno.EROFS, "Could not save: the disk is read-only. The last answer was not kept; make it "
                  "writable and say it again."),
])
@pytest.mark.parametrize("short", [False, True], ids=["whole", "short"])
def test_a_fault_at_any_write_or_fsync_keeps_nothing_of_that_record_and_says_what_to_do(
        tmp_path, monkeypatch, code, said, short):
    path = tmp_path / "s.jsonl"
    journal = journal_with(path, Number(2))
    disk = Disk(monkeypatch, tmp_path, short=short)
    journal.append(Dice((1, 2)))
    calls = disk.ops()  # the writes and the fsync one record takes
    assert calls[-1] == "fsync" and set(calls[:-1]) == {"write"}
    before = path.read_bytes()
    for at in range(len(calls)):
        disk.fail[len(disk.log) + at] = code
        with pytest.raises(JournalWriteError) as caught:
            journal.append(Dice((5, 6)))
        assert str(caught.value) == said
        assert path.read_bytes() == before, f"fault at call {at} left bytes behind"
    journal.append(Dice((3, 4)))  # space freed: the next answer is kept
    journal.close()
    records = load(path).records
    assert inputs_of(records) == [Number(2), Dice((1, 2)), Dice((3, 4))]
    assert [r.n for r in records] == [1, 2, 3]


def test_when_even_the_cut_back_fails_the_next_record_cuts_back_first(tmp_path, monkeypatch):
    path = tmp_path / "s.jsonl"
    journal = journal_with(path, Number(2))
    disk = Disk(monkeypatch, tmp_path, short=True)
    start = len(disk.log)
    disk.fail[start + 2] = errno.ENOSPC   # the third short write
    disk.fail[start + 3] = errno.EIO      # the ftruncate that would cut it back
    with pytest.raises(JournalWriteError):
        journal.append(Dice((5, 6)))
    assert not path.read_bytes().endswith(b"\n")  # a partial record is on disk for now
    journal.append(Dice((3, 4)))
    journal.close()
    assert inputs_of(load(path).records) == [Number(2), Dice((3, 4))]
    assert load(path).warnings == []


def test_a_new_journal_that_cannot_be_written_is_removed_and_says_so(tmp_path, monkeypatch):
    disk = Disk(monkeypatch, tmp_path)
    disk.fail[1] = errno.ENOSPC  # the header's write, right after the exclusive open
    with pytest.raises(JournalWriteError, match="disk full; free space and start again"):
        Journal.create(tmp_path / "s.jsonl", "toy", {})
    assert list(tmp_path.iterdir()) == []


def test_every_fsync_is_where_it_must_be(tmp_path, monkeypatch):
    """Fails if any fsync is removed or moved: the record's before the answer is acted on, the
    new file's and then its folder's before the session starts, the cut tail's on resume."""
    disk = Disk(monkeypatch, tmp_path)
    path = tmp_path / "s.jsonl"
    session = Session(INFO, SCRIPT, {})
    journal = Journal.create(path, "toy", {})
    assert disk.ops() == ["excl", "write", "fsync", "open", "fsync"]
    assert [f for op, f in disk.log if op == "fsync"] == ["s.jsonl", "folder"]

    acted_on_at_fsync: list[int] = []
    fsync = os.fsync

    def watching(fd):
        acted_on_at_fsync.append(len(session.inputs))
        return fsync(fd)
    monkeypatch.setattr(os, "fsync", watching)
    start = len(disk.log)
    run(session, TextEars(io.StringIO("next\n2\n1 2\nback\n3 4\n"), echo=False),
        Captions(io.StringIO()), journal)
    journal.close()
    assert disk.ops(start) == ["write", "fsync"] * 5
    assert acted_on_at_fsync == [0, 1, 2, 3, 2], "an input was acted on before it was durable"

    with open(path, "ab") as f:
        f.write(b'{"n": 6, "inp')
    start = len(disk.log)
    Journal.reopen(path)[0].close()
    assert disk.ops(start) == ["open", "ftruncate", "fsync"]


def test_a_failed_save_is_said_and_the_game_does_not_move(tmp_path, monkeypatch):
    path = tmp_path / "s.jsonl"
    journal = Journal.create(path, "toy", {})
    disk = Disk(monkeypatch, tmp_path)
    out = io.StringIO()
    session = Session(INFO, SCRIPT, {})
    writes = iter(range(100))

    def full_on_third(fd, data):
        if next(writes) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return REAL["write"](fd, data)
    monkeypatch.setattr(os, "write", full_on_third)
    captions = Captions(out)
    run(session, TextEars(io.StringIO("next\n2\n1 2\n1 2\n"), echo=True, captions=captions),
        captions, journal)
    journal.close()
    said = out.getvalue()
    assert "Could not save: disk full. The last answer was not kept; free space and say it " \
           "again." in said
    before, after = said.split("Could not save")
    assert "total 3" not in before and after.count("You rolled 1 and 2; total 3.") == 1
    assert session.state.rounds == 1
    assert inputs_of(load(path).records) == session.inputs
    assert disk is not None


def test_an_open_session_is_locked_against_a_second_opener(tmp_path):
    path = tmp_path / "s.jsonl"
    journal_with(path, Number(2)).close()
    first, _ = Journal.reopen(path)
    with pytest.raises(JournalBusy, match="Session s is open in another narrator"):
        Journal.reopen(path)
    first.append(Number(3))
    first.close()
    again, loaded = Journal.reopen(path)
    again.close()
    assert inputs_of(loaded.records) == [Number(2), Number(3)]


@pytest.mark.parametrize("last, message", [
    (b'{"n": 3, "at": "x", "input": {"type": "Number", "value": 4}}\n', None),
    (b'garbage\n', "corrupt record"),
    (b'{"n": 3, "at": "x", "bookmark": "here"}\n', "unknown record kind (bookmark)"),
    (b'{"n": 3, "at": "x", "input": {"type": "Telepathy"}}\n', "unknown input"),
])
def test_resume_keeps_every_complete_line_and_reports_one_it_cannot_read(tmp_path, last, message):
    path = tmp_path / "s.jsonl"
    journal_with(path, Number(2), Dice((4, 9))).close()
    with open(path, "ab") as f:
        f.write(last)
    before = path.read_bytes()
    if message is None:
        journal, loaded = Journal.reopen(path)
        journal.close()
        assert inputs_of(loaded.records)[-1] == Number(4)
    else:
        with pytest.raises(JournalError, match=":4: " + message.replace("(", r"\(").replace(
                ")", r"\)")):
            Journal.reopen(path)
    assert path.read_bytes() == before, "a complete line was cut"


def test_only_a_last_line_without_its_newline_is_a_torn_write(tmp_path):
    path = tmp_path / "s.jsonl"
    journal_with(path, Number(2)).close()
    whole = path.read_bytes()
    with open(path, "ab") as f:
        f.write(b'{"n": 2, "at": "x", "input": {"type": "Number", "value": 4}}')  # no newline
    loaded = load(path)
    assert inputs_of(loaded.records) == [Number(2)] and "cut off" in loaded.warnings[0]
    Journal.reopen(path)[0].close()
    assert path.read_bytes() == whole


@pytest.mark.parametrize("content, message", [(b"", "is empty"),
                                              (b'{"format": "narrator-jou', "first line was cut")])
def test_an_empty_or_headless_journal_is_reported(tmp_path, content, message):
    path = tmp_path / "s.jsonl"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=message):
        load(path)


@pytest.fixture
def tiny_disk(tmp_path):
    """A real 64 KiB tmpfs, or a skip where mounting is not allowed."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "--lazy", str(mount)], check=True)


def test_a_really_full_disk_keeps_every_acknowledged_input(tiny_disk):
    path = tiny_disk / "s.jsonl"
    journal = Journal.create(path, "toy", {})
    filler = tiny_disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"x" * 512)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    kept, refused = [], 0
    for i in range(400):
        try:
            journal.append(Number(i))
            kept.append(Number(i))
        except JournalWriteError as exc:
            assert "disk full" in str(exc)
            refused += 1
            if refused == 3:
                break
    assert refused == 3
    assert inputs_of(load(path).records) == kept
    filler.unlink()
    journal.append(Number(999))
    journal.close()
    assert inputs_of(load(path).records) == kept + [Number(999)]


def test_a_session_on_a_disk_that_fills_says_so_and_keeps_every_acknowledged_input(
        tiny_disk, tmp_path):
    """narrator play on a real disk that fills mid-game: each answer that cannot be kept is
    refused aloud with what to do, no traceback, and the journal holds every acknowledged
    input (the same as a run on a roomy disk, up to where the disk filled), whole."""
    typed = (Path(__file__).parent / "golden" / "slow-burn.in").read_text() + "quit\n"

    def play(saves: Path):
        return CliRunner().invoke(app, ["play", "slow-burn", "--input", "text", "--seed", "7",
                                        "--save-dir", str(saves)], input=typed)
    roomy = play(tmp_path / "roomy")
    expected = inputs_of(load(next((tmp_path / "roomy").glob("*.jsonl"))).records)

    (tiny_disk / "saves").mkdir()
    reserve = tiny_disk / "reserve"
    reserve.write_bytes(b"r" * 4096)  # one page kept free for the journal
    fd = os.open(tiny_disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"x" * 4096)
    except OSError:
        os.close(fd)
    reserve.unlink()
    result = play(tiny_disk / "saves")
    assert roomy.exit_code == 0 and result.exit_code == 0
    assert "Traceback" not in result.output
    assert "Could not save: disk full. The last answer was not kept; free space and say it " \
           "again." in result.output
    loaded = load(next((tiny_disk / "saves").glob("*.jsonl")))
    kept = inputs_of(loaded.records)
    assert loaded.warnings == [] and 10 < len(kept) < len(expected)
    assert kept == expected[:len(kept)]
