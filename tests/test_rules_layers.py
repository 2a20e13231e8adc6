"""Rules sit below voice and session and touch no files (docs/adding-a-game.md, DESIGN layers).

Every module under narrator/rules is read as source: it may not import narrator.voice,
narrator.session or narrator.cli, nor anything that reaches files (open, pathlib, io, os, the
script loader). ``OWED`` lists the modules that still do, each with the issue that removes it;
a listed module that no longer offends must come off the list, so the list stays true.
"""

import ast
from pathlib import Path

import narrator.rules

RULES = Path(narrator.rules.__file__).parent
ABOVE = ("narrator.voice", "narrator.session", "narrator.cli")
FILES = ("pathlib", "io", "os", "shutil", "narrator.script.loader")

#: module (relative to narrator/rules) -> why it may still offend, until that work lands
OWED = {
    "playable.py": "narrator check's cross-check reads scripts and rules source (issue 12)",
}


def offences(path: Path) -> list[str]:
    """What in ``path`` reaches above the rules layer or into files."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open":
            found.append(f"line {node.lineno}: open()")
            continue
        else:
            continue
        for name in names:
            if name.startswith(ABOVE) or name.split(".")[0] in FILES or name.startswith(FILES):
                found.append(f"line {node.lineno}: imports {name}")
    return found


def test_rules_import_nothing_from_voice_session_or_files():
    bad = {}
    for path in sorted(RULES.rglob("*.py")):
        key = path.relative_to(RULES).as_posix()
        if offences(path) and key not in OWED:
            bad[key] = offences(path)
    assert not bad, f"rules reach above their layer or into files: {bad}"


def test_every_owed_module_still_offends_so_the_list_stays_true():
    cleared = [key for key in OWED if not offences(RULES / key)]
    assert not cleared, f"these no longer offend; take them off OWED: {cleared}"


def test_the_check_catches_a_voice_import_and_a_file_read(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from narrator.voice.commands import normalise\nopen('x')\n")
    assert offences(sample) == ["line 1: imports narrator.voice.commands", "line 2: open()"]


def test_only_the_flow_kernel_makes_a_refusal():
    """One refusal idiom: a game raises Refused; only narrator/rules/flow.py builds the
    rejected Step that the session says (with the question again)."""
    makers = set()
    for path in sorted(RULES.parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and any(k.arg == "rejected" for k in node.keywords):
                makers.add(path.relative_to(RULES.parent).as_posix())
    assert makers == {"rules/flow.py"}
