"""Layers that show: the phrase language and the rules import nothing from the layers above."""

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
