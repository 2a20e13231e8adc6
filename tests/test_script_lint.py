"""``narrator check``: every diagnostic has a bad example that trips exactly it; the checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.rules.playable import check_path
from narrator.script.diagnostics import Code
from narrator.script.lint import lint, lint_path
from narrator.script.loader import find_script

EXAMPLES = Path(__file__).parent / "script"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "script-format.md"
EXAMPLE_FOLDERS = sorted(p for p in EXAMPLES.iterdir() if p.name.startswith("NS"))


@pytest.mark.parametrize("folder", EXAMPLE_FOLDERS, ids=lambda p: p.name)
def test_each_bad_example_produces_exactly_its_code(folder):
    found = check_path(folder)
    assert found and {d.code.value for d in found} == {folder.name}, "\n".join(map(str, found))
    assert all(str(d).startswith(str(folder)) for d in found)


def test_every_diagnostic_has_an_example_and_a_documented_meaning():
    codes = {code.value for code in Code}
    assert {p.name for p in EXAMPLE_FOLDERS} == codes
    docs = DOCS.read_text(encoding="utf-8")
    assert [c for c in sorted(codes) if c not in docs] == []


def test_diagnostic_codes_are_numbered_in_order():
    assert [c.value for c in Code] == [f"NS{i:03d}" for i in range(1, len(Code) + 1)]


def game(tmp_path: Path, *lines: str, name: str = "demo") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    quoted = ", ".join(f'"{line}"' for line in lines)
    (folder / "game.yaml").write_text(f"""\
game: {name}
title: Demo
start: a
tracks:
  - {{id: a, number: 1, title: Start, lines: [{quoted}], next: [{{to: b}}, {{to: c}}]}}
  - {{id: b, number: 2, title: Rolling Scene Dice, lines: [x], ending: true}}
  - {{id: c, number: 3, title: End, lines: [x], ending: true}}
""")
    return folder


@pytest.mark.parametrize("line", [
    "Proceed to Track 2: rolling scene dice.",          # case does not matter
    "Jump back to Track 2: Rolling Scene Dice to roll the scene.",  # the title may go on into the sentence
    "Refer to tracks two and three for details.",       # numbers in words are not references
    "Proceed to Track 3: End",                          # the title may end the line
])
def test_cross_references_naming_the_right_title_pass(tmp_path, line):
    assert lint(game(tmp_path, line)) == []


@pytest.mark.parametrize("line, named", [
    ("Proceed to Track 2: Rolling Dice", "Track 2: Rolling Dice"),
    ("Details are in Track 3: Resolving the Scene; read it.", "Track 3: Resolving the Scene"),
    ("Go to Track 2: Rolling, then resolve.", "Track 2: Rolling"),
])
def test_a_cross_reference_naming_another_title_is_NS016(tmp_path, line, named):
    [found] = lint(game(tmp_path, line))
    assert found.code is Code.WRONG_TITLE and f'names "{named}", but' in found.message


def test_a_jump_the_links_do_not_take_is_NS018_but_a_mention_is_not(tmp_path):
    folder = game(tmp_path, "Rules are explained in Track 1: Start.", "Otherwise, jump back to Track 1: Start.")
    [found] = lint(folder)
    assert found.code is Code.UNLINKED_JUMP and found.where.line == 5


def test_diagnostics_are_sorted_by_file_and_line(tmp_path):
    folder = game(tmp_path, "See Track 9.")
    text = (folder / "game.yaml").read_text().replace("next: [{to: b}, {to: c}]", "next: [{to: z}]")
    (folder / "game.yaml").write_text(text)
    found = lint(folder)
    assert [(d.where.line, d.code) for d in found] == [
        (5, Code.UNDEFINED_TARGET), (5, Code.NO_SUCH_TRACK), (6, Code.UNREACHABLE), (7, Code.UNREACHABLE)]


def test_lint_path_checks_every_game_folder_below(tmp_path):
    game(tmp_path, "Fine.", name="good")
    game(tmp_path, "Proceed to Track 2: Wrong.", name="bad")
    found = lint_path(tmp_path)
    assert [(d.code, Path(d.where.file).parent.name) for d in found] == [(Code.WRONG_TITLE, "bad")]
    assert lint_path(tmp_path / "good") == []


def test_lint_path_on_a_folder_without_scripts_says_so(tmp_path):
    assert [d.code for d in lint_path(tmp_path)] == [Code.NO_SCRIPT]
    assert [d.code for d in lint_path(tmp_path / "missing")] == [Code.NO_SCRIPT]


def test_the_shipped_scripts_pass_check():
    assert [str(d) for d in lint_path(find_script(None))] == []
