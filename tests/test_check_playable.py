"""``narrator check`` proves a script playable against its rules: prompt keys, rules, cards."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from narrator.cli import app
from narrator.rules import registry
from narrator.rules.playable import check_path, prompt_keys
from narrator.script.diagnostics import Code
from narrator.script.loader import find_script, load_script

runner = CliRunner()


def copy_of(tmp_path: Path, folder: str) -> Path:
    return Path(shutil.copytree(find_script(folder), tmp_path / folder))


def test_a_script_missing_a_prompt_its_rules_say_fails_check_naming_the_key(tmp_path):
    folder = copy_of(tmp_path, "intensity")
    game = folder / "game.yaml"
    lines = game.read_text(encoding="utf-8").splitlines(keepends=True)
    game.write_text("".join(l for l in lines if not l.lstrip().startswith("ask.defence_die:")),
                    encoding="utf-8")
    result = runner.invoke(app, ["check", str(folder)])
    assert result.exit_code == 1
    [problem] = result.output.splitlines()
    rules_line = next(n for n, l in enumerate(lines, 1) if l.startswith("rules:"))
    assert problem.startswith(f"{game}:{rules_line}: NS024 prompt 'ask.defence_die' is missing")
    assert "narrator/rules/intensity/" in problem  # where the rules say it


def test_the_same_script_with_every_key_passes(tmp_path):
    assert check_path(copy_of(tmp_path, "intensity")) == []


def test_keys_are_found_through_a_games_own_helpers():
    """Hell for Leather asks through its own ask(key, ...) and refuse(key): both are seen."""
    keys, patterns = prompt_keys(registry.get("hell-for-leather"))
    script_keys = set(load_script(find_script("hell_for_leather")).prompts)
    assert len(keys) > 80 and set(keys) <= script_keys
    assert "finale.choose_*" in patterns


def test_a_card_deck_that_does_not_load_is_reported_at_its_line(tmp_path):
    folder = copy_of(tmp_path, "half_chance")
    cards = folder / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("kind: wander", "kind: wonder", 1), encoding="utf-8")
    found = check_path(folder)
    assert found and {d.code for d in found} == {Code.BAD_CARDS}
    assert found[0].where.file == str(cards) and found[0].where.line > 1


def test_a_rules_module_whose_option_default_is_invalid_is_reported(tmp_path, monkeypatch):
    (tmp_path / "bad_rules.py").write_text(
        "from narrator.rules.options import Option, OptionSet\n"
        "OPTIONS = OptionSet(Option('boxes', 99, 'stress boxes', low=1, high=18))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.GAMES, "bad", "bad_rules")
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.yaml").write_text("game: mine\ntitle: Mine\nrules: bad\n")
    [found] = check_path(folder)
    assert found.code is Code.UNKNOWN_RULES and found.where.line == 3
    assert "does not load" in found.message and "boxes=99 is refused" in found.message


def test_keys_raised_as_a_refusal_class_are_found():
    """Slow Burn refuses with ``raise Refused("key")``: a class whose __init__ makes the Line."""
    keys, _ = prompt_keys(registry.get("slow-burn"))
    assert keys["reject.name_taken"][0] == "narrator/rules/slow_burn/setup.py"
