"""Hostile script folders (test data): each is refused with a given NS code, fast and small.

``HOSTILE`` maps a case name to (the code it must be refused with, a function filling a folder).
Used by tests/test_script_limits.py and bench/hostile_scripts.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

HEAD = "game: hostile\ntitle: Hostile\nstart: a\n"
TRACK = "tracks:\n  - {id: a, number: 1, title: Start, lines: [x], ending: true}\n"


def _write(name: str, text: str | bytes) -> Callable[[Path], None]:
    def fill(folder: Path) -> None:
        path = folder / name
        path.write_bytes(text.encode() if isinstance(text, str) else text)
    return fill


def _alias_bomb(folder: Path) -> None:
    """Billion laughs: nine levels of nine aliases each (9^9 strings once expanded)."""
    lines = [HEAD, 'a0: &a0 "lol"']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    lines.append(TRACK.replace("[x]", "*a9"))
    _write("game.yaml", "\n".join(lines) + "\n")(folder)


def _fifty_megabytes(folder: Path) -> None:
    line = "# " + "x" * 1022 + "\n"
    with open(folder / "game.yaml", "w") as f:
        f.write(HEAD + TRACK)
        for _ in range(50 * 1024):
            f.write(line)


def _many_files(folder: Path) -> None:
    """Twenty files of 100 KiB each: every one under the file cap, the folder over its cap."""
    _write("game.yaml", HEAD + TRACK)(folder)
    for i in range(20):
        _write(f"part{i:02}.yaml", "# " + "y" * (100 * 1024) + "\n")(folder)


def _dense(text: str, count: int) -> str:
    return HEAD + TRACK + "prompts:\n  many: " + text * count + "\n"


def _values_across_files(folder: Path) -> None:
    """Four files of 3000 values: each file is fine, together they pass the cap."""
    _write("game.yaml", HEAD + TRACK)(folder)
    for i in range(4):
        _write(f"part{i}.yaml", f"x{i}: [" + "1," * 3000 + "1]\n")(folder)


HOSTILE: dict[str, tuple[str, Callable[[Path], None]]] = {
    "alias bomb": ("NS021", _alias_bomb),
    "merge key alias": ("NS021", _write("game.yaml", HEAD + "base: &b {id: a}\n"
                                        "tracks:\n  - {<<: *b, number: 1, title: S, lines: [x], "
                                        "ending: true}\n")),
    "50 MB file": ("NS020", _fifty_megabytes),
    "folder over its cap": ("NS020", _many_files),
    "50000 nested lists": ("NS022", _write("game.yaml", HEAD + "x: " + "[" * 50_000 + "]" *
                                           50_000 + "\n" + TRACK)),
    "300 nested mappings": ("NS022", _write("game.yaml", HEAD + "".join(
        "  " * i + "k:\n" for i in range(300)) + "  " * 300 + "v\n")),
    "python tag": ("NS002", _write("game.yaml", HEAD + "x: !!python/object/apply:os.system "
                                                       "[echo unsafe]\n" + TRACK)),
    "include tag": ("NS002", _write("game.yaml", HEAD + "x: !include /etc/passwd\n" + TRACK)),
    "not UTF-8": ("NS001", _write("game.yaml", b"game: \xff\xfe\x00\n")),
    "int of 100000 digits": ("NS001", _write("game.yaml", HEAD + "x: " + "9" * 100_000 + "\n")),
    "unclosed flow": ("NS001", _write("game.yaml", HEAD + "x: [" + "a, " * 4_000 + "\n")),
    "60000 values in one list": ("NS020", _write("game.yaml", _dense("", 0).replace(
        "many: \n", "many: [" + "1," * 60_000 + "1]\n"))),
    "one 120 KiB line": ("NS004", _write("game.yaml", "game: hostile\ntitle: " + "t" * 120_000
                                         + "\ntracks:\n  - {id: a, number: 1}\n")),
    "14000 keys": ("NS020", _write("game.yaml", HEAD + TRACK + "".join(
        f"k{i}: 1\n" for i in range(14_000)))),
    "9000 values, each under the caps": ("NS005", _write("game.yaml", HEAD + TRACK + "".join(
        f"k{i}: 1\n" for i in range(4_400)))),
    "values over the cap across files": ("NS020", _values_across_files),
}
