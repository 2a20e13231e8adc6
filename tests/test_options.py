"""Typed game options: declared once, parsed and checked the same way by the command line,
the journal header and resume; a wrong value is refused with the values allowed."""

import json

import pytest
from typer.testing import CliRunner

from narrator.cli import app
from narrator.rules import registry
from narrator.rules.options import Option, OptionError, OptionSet
from narrator.session.journal import load

runner = CliRunner()
SET = OptionSet(Option("boxes", 9, "stress boxes", low=1, high=18),
                Option("exams", False, "exam bonus"),
                Option("tie", "lose", "how a tie ends", choices=("lose", "win")))


def test_defaults_fill_in_and_text_is_read_as_each_option_s_type():
    assert dict(SET) == {"boxes": 9, "exams": False, "tie": "lose"}
    assert SET.parse(["boxes=12", "exams=yes", "tie=WIN"]) == {"boxes": 12, "exams": True,
                                                              "tie": "win"}
    assert SET.check({"boxes": "3", "exams": True}) == {"boxes": 3, "exams": True, "tie": "lose"}


@pytest.mark.parametrize("pair, allowed", [
    ("boxes=-5", "a whole number from 1 to 18 (default 9)"),
    ("boxes=19", "a whole number from 1 to 18"),
    ("boxes=nine", "a whole number from 1 to 18"),
    ("boxes=" + "9" * 400, "a whole number from 1 to 18"),
    ("exams=maybe", "true or false (default false)"),
    ("tie=nonsense", "one of lose, win (default lose)"),
])
def test_a_wrong_value_is_refused_with_the_allowed_values(pair, allowed):
    with pytest.raises(OptionError, match="is refused") as caught:
        SET.parse([pair])
    assert allowed in str(caught.value)


def test_an_unknown_option_or_a_pair_without_equals_lists_every_option():
    for pairs in (["colour=red"], ["boxes"]):
        with pytest.raises(OptionError) as caught:
            SET.parse(pairs)
        assert "boxes (a whole number from 1 to 18, default 9)" in str(caught.value)
        assert "tie (one of lose, win, default lose)" in str(caught.value)


def test_a_saved_value_of_the_wrong_type_is_refused():
    with pytest.raises(OptionError):
        SET.check({"exams": 1})
    with pytest.raises(OptionError):
        SET.check({"boxes": True})


def test_a_declaration_whose_default_it_does_not_allow_is_a_programming_error():
    with pytest.raises(OptionError):
        Option("boxes", 0, "stress boxes", low=1)
    with pytest.raises(TypeError):
        Option("tie", "lose", "a choice without choices")


def test_every_game_declares_typed_options_with_a_meaning_and_a_valid_default():
    for name in registry.names():
        options = registry.get(name).rules.options
        assert isinstance(options, OptionSet)
        for option in options.declared:
            assert option.meaning and option.parse(option.default) == option.default
        assert options.parse([]) == dict(options)


@pytest.mark.parametrize("game, pair, shown", [
    ("blades", "stress_boxes=-5", "stress_boxes is a whole number from 1 to 18"),
    ("slow-burn", "tie=nonsense", "tie is one of unfavourable, favourable, mixed"),
    ("hell-for-leather", "exams=perhaps", "exams is true or false"),
    ("intensity", "any=1", "this game has no options"),
])
def test_the_command_line_refuses_a_wrong_value_in_one_line_and_saves_nothing(
        tmp_path, game, pair, shown):
    result = runner.invoke(app, ["play", game, "--input", "text", "--save-dir", str(tmp_path),
                                 "--option", pair])
    assert result.exit_code == 1
    assert shown in result.output and "Traceback" not in result.output
    assert not list(tmp_path.iterdir())


def test_the_journal_header_holds_typed_values_and_resume_checks_them(tmp_path):
    result = runner.invoke(app, ["play", "blades", "--input", "text", "--save-dir", str(tmp_path),
                                 "--option", "stress_boxes=12", "--option", "lair_coin=8"],
                           input="quit\n")
    assert result.exit_code == 0, result.output
    [journal] = tmp_path.glob("*.jsonl")
    assert load(journal).options == {"stress_boxes": 12, "lair_coin": 8}
    lines = journal.read_text().splitlines()
    header = json.loads(lines[0])
    header["options"]["stress_boxes"] = -5
    journal.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    again = runner.invoke(app, ["resume", journal.stem, "--input", "text",
                                "--save-dir", str(tmp_path)], input="quit\n")
    assert again.exit_code == 1 and "stress_boxes is a whole number from 1 to 18" in again.output
