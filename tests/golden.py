"""Golden playthroughs: a game played from a file of typed inputs, as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
SEED = "7"


def transcript(game: str, python: str = sys.executable, cwd: Path | None = None) -> str:
    """What ``narrator play GAME --input text`` prints for tests/golden/GAME.in (run by
    ``python`` in ``cwd``: an installed copy is tried from outside the checkout)."""
    with tempfile.TemporaryDirectory() as saves:
        result = subprocess.run(
            [python, "-m", "narrator", "play", game, "--input", "text", "--seed", SEED,
             "--save-dir", saves],
            stdin=open(GOLDEN / f"{game}.in"), capture_output=True, text=True, timeout=120,
            env={**os.environ, "COLUMNS": "200", "TERM": "dumb"}, cwd=cwd,
        )
    if result.returncode != 0:
        raise AssertionError(f"narrator play {game} failed:\n{result.stderr}")
    return "\n".join(line for line in result.stdout.splitlines()
                     if not line.startswith("Session saved")) + "\n"
