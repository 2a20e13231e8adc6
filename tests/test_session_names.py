"""The save folder: a session name is a name, only the save folder is searched, links out of it
are refused, and what is not a journal is skipped with a note."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from narrator.cli import app
from narrator.events import Number
from narrator.session.journal import Journal
from narrator.session.names import SessionNameError, check_name, journal_path

runner = CliRunner()
BAD_NAMES = ["../x", "../../etc/passwd", "/etc/passwd", "a/b", "", " ", "x" * 65, "x" * 300,
             "two words", "naïve", "semi;colon", "dot.dot", "~", "$HOME", "a\x00b", "\udcff",
             "..", "."]


def saved(folder: Path, name: str = "game-1", *inputs) -> Path:
    journal = Journal.create(folder / f"{name}.jsonl", "slow-burn", {})
    for given in inputs:
        journal.append(given)
    journal.close()
    return folder / f"{name}.jsonl"


def resume(folder: Path, *args: str, input: str = "quit\n"):
    return runner.invoke(app, ["resume", *args, "--input", "text", "--save-dir", str(folder)],
                         input=input)


@pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
def test_a_name_that_is_not_a_name_is_refused_with_the_rule(tmp_path, name):
    with pytest.raises(SessionNameError, match="letters, digits, - and _ only, at most 64"):
        check_name(name)
    saves = tmp_path / "saves"
    saves.mkdir()
    if "\x00" not in name and "\udcff" not in name:  # cannot be a command-line argument
        result = resume(saves, name)
        assert result.exit_code == 1 and "letters, digits, - and _ only" in result.output
        assert "Traceback" not in result.output
    assert sorted(os.listdir(tmp_path)) == ["saves"] and not os.listdir(saves)


def test_good_names_and_the_file_name_are_accepted(tmp_path):
    assert check_name("slow-burn-20261123-1930") == "slow-burn-20261123-1930"
    assert check_name("Game_2.jsonl") == "Game_2" and check_name("x" * 64) == "x" * 64
    assert journal_path(tmp_path, "a-b") == tmp_path / "a-b.jsonl"


def test_a_link_out_of_the_save_folder_is_refused_and_skipped(tmp_path):
    saves, outside = tmp_path / "saves", tmp_path / "outside"
    saves.mkdir(), outside.mkdir()
    target = saved(outside, "secret", Number(2))
    (saves / "evil.jsonl").symlink_to(target)
    result = resume(saves, "evil")
    assert result.exit_code == 1 and "links outside the save folder" in result.output
    plain = resume(saves)
    assert plain.exit_code == 1 and "'evil.jsonl'" in plain.output
    assert "a link to outside the save folder" in plain.output
    assert target.read_bytes().count(b"\n") == 2  # nothing was appended out there


def test_a_link_inside_the_save_folder_is_followed(tmp_path):
    saved(tmp_path, "real")
    (tmp_path / "alias.jsonl").symlink_to(tmp_path / "real.jsonl")
    result = resume(tmp_path, "alias")
    assert result.exit_code == 0, result.output
    assert "Session saved as real." in result.output


def test_only_the_save_folder_is_searched(tmp_path, monkeypatch):
    here, saves = tmp_path / "here", tmp_path / "saves"
    here.mkdir(), saves.mkdir()
    saved(here, "local")
    monkeypatch.chdir(here)
    result = resume(saves, "local")
    assert result.exit_code == 1 and f"no saved session called 'local' in {saves}" in result.output


def test_entries_that_are_not_journals_are_skipped_with_a_note_and_no_hang(tmp_path):
    saved(tmp_path, "good")
    os.utime(tmp_path / "good.jsonl", (1, 1))  # the oldest entry
    (tmp_path / "folder.jsonl").mkdir()
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "empty.jsonl").write_bytes(b"")
    (tmp_path / "damaged.jsonl").write_bytes(b"\x00\x01garbage\n")
    os.utime(tmp_path / "damaged.jsonl", (2, 2))
    result = subprocess.run(
        [sys.executable, "-m", "narrator", "resume", "--input", "text", "--save-dir",
         str(tmp_path)], input="quit\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    for note in ("'folder.jsonl'", "a folder, not a journal", "'pipe.jsonl'",
                 "not a regular file", "'notes.txt'", "empty.jsonl is empty",
                 "damaged.jsonl: not a narrator journal", "Resuming good."):
        assert note in result.stderr, note
    assert "Traceback" not in result.stderr
    assert "Session saved as good." in result.stdout


def test_a_named_empty_journal_is_reported_not_resumed(tmp_path):
    (tmp_path / "empty.jsonl").write_bytes(b"")
    result = resume(tmp_path, "empty")
    assert result.exit_code == 1 and "is empty" in result.output


def test_a_name_of_a_fifo_or_folder_is_refused_without_hanging(tmp_path):
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "dir.jsonl").mkdir()
    for name in ("pipe", "dir"):
        result = resume(tmp_path, name)
        assert result.exit_code == 1 and "Traceback" not in result.output
