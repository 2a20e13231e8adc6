"""Rewrite a golden transcript: tests/golden/GAME.out from tests/golden/GAME.in.

Usage: python tools/regen_golden.py GAME [GAME ...]
Read the new .out before committing it: the test then holds the app to exactly that text.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from golden import GOLDEN, transcript  # noqa: E402

if __name__ == "__main__":
    for game in sys.argv[1:]:
        out = GOLDEN / f"{game}.out"
        out.write_text(transcript(game))
        print(f"wrote {out}")
