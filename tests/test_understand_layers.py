"""Layers that show: the phrase language and the rules import nothing from the layers above,
and the vocabulary (number words, synonyms, control phrases) is written only in understand/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import narrator

PACKAGE = Path(narrator.__file__).parent


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out


@pytest.mark.parametrize("package, above", [
    ("rules", ("narrator.voice", "narrator.session", "narrator.cli")),
    ("understand", ("narrator.rules", "narrator.script", "narrator.voice", "narrator.session",
                    "narrator.cli")),
])
def test_a_layer_imports_nothing_from_the_layers_above_it(package, above):
    offending = [f"{path.relative_to(PACKAGE)} imports {name}"
                 for path in sorted((PACKAGE / package).rglob("*.py"))
                 for name in imports_of(path) if name.startswith(above)]
    assert offending == []


def test_the_check_sees_an_upward_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from narrator.voice.listener import Ears\nimport narrator.session.loop\n")
    assert {"narrator.voice.listener", "narrator.session.loop"} <= imports_of(bad)


def vocabulary() -> set[str]:
    """Number words, plural faces, word synonyms and every multi-word control phrase."""
    from narrator.understand import template
    from narrator.understand.phrases import CONTROLS, control_expr
    from narrator.understand.words import PLURAL_FACES, TENS, UNITS, WORD_SYNONYMS

    out = set(UNITS) | set(TENS) | set(PLURAL_FACES) | set(WORD_SYNONYMS)
    for control in CONTROLS:
        said = template.enumerate_phrases(template.expand(control_expr(control.name)))
        out |= {" ".join(p) for p in said if len(p) > 1 and "please" not in p}
    return out


#: string literals that look like vocabulary but are a game's own terms
GAME_TERMS = {("rules/blades/state.py", "zero")}  # an effect level, not a number


def test_no_number_word_synonym_or_control_phrase_is_written_outside_understand():
    words = vocabulary()
    found = [(str(path.relative_to(PACKAGE)), node.value)
             for path in sorted(PACKAGE.rglob("*.py")) if "understand" not in path.parts
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and node.value.lower() in words]
    assert [f for f in found if f not in GAME_TERMS] == []
    assert "say that again" in words and "eleven" in words  # the check sees the vocabulary
