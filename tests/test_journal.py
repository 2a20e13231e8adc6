"""The journal: durable append-only records, torn tails, undo, versions."""

import json

import pytest

from narrator.events import Dice, Number, Word
from narrator.session.journal import Journal, JournalError, inputs_of, load


def make(tmp_path, *inputs):
    path = tmp_path / "s.jsonl"
    j = Journal.create(path, "toy", {"rounds": 3})
    for given in inputs:
        j.append(given) if given != "undo" else j.append_undo()
    j.close()
    return path


def test_records_are_read_back_in_order_with_the_header(tmp_path):
    path = make(tmp_path, Number(2), Dice((4, 9)), Word("yes"))
    loaded = load(path)
    assert loaded.game == "toy" and loaded.options == {"rounds": 3}
    assert inputs_of(loaded.records) == [Number(2), Dice((4, 9)), Word("yes")]


def test_undo_takes_back_the_input_before_it(tmp_path):
    path = make(tmp_path, Number(2), Dice((4, 9)), "undo", Dice((1, 2)))
    assert inputs_of(load(path).records) == [Number(2), Dice((1, 2))]


def test_a_torn_last_line_is_reported_skipped_and_cut_on_reopen(tmp_path):
    path = make(tmp_path, Number(2), Dice((4, 9)))
    with open(path, "ab") as f:
        f.write(b'{"n": 3, "at": "x", "inp')
    loaded = load(path)
    assert inputs_of(loaded.records) == [Number(2), Dice((4, 9))]
    assert "cut off" in loaded.warnings[0] and ":4:" in loaded.warnings[0]
    journal, again = Journal.reopen(path)
    journal.append(Dice((1, 1)))
    journal.close()
    assert inputs_of(load(path).records) == [Number(2), Dice((4, 9)), Dice((1, 1))]
    assert load(path).warnings == []


def test_corruption_in_the_middle_is_an_error_not_a_silent_loss(tmp_path):
    path = make(tmp_path, Number(2), Dice((4, 9)))
    lines = path.read_text().splitlines()
    lines[1] = "garbage"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match=":2: corrupt record"):
        load(path)


def test_a_newer_format_is_refused_with_advice(tmp_path):
    path = tmp_path / "new.jsonl"
    path.write_text(json.dumps({"format": "narrator-journal", "version": 99, "game": "toy"}) + "\n")
    with pytest.raises(JournalError, match="upgrade narrator"):
        load(path)


def test_not_a_journal(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("hello\n")
    with pytest.raises(JournalError, match="not a narrator journal"):
        load(path)


def test_create_never_overwrites(tmp_path):
    path = make(tmp_path, Number(2))
    with pytest.raises(JournalError):
        Journal.create(path, "toy", {})
