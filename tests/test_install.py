"""A wheel, installed into a fresh virtual environment outside the checkout, has its games:
every golden playthrough plays the same from there, and the scripts pass check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from golden import GOLDEN, transcript
from narrator.rules import registry

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def run(*args: str | Path, cwd: Path) -> str:
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd,
                            timeout=900, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    assert result.returncode == 0, f"{args}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the fresh venv's python, a folder outside the checkout to run it in)."""
    away = tmp_path_factory.mktemp("elsewhere")
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", away / "dist", ROOT,
        cwd=away)
    [wheel] = (away / "dist").glob("narrator-*.whl")
    run(sys.executable, "-m", "venv", away / "venv", cwd=away)
    python = away / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    run(python, "-m", "pip", "install", "-q", wheel, cwd=away)
    return python, away


def test_the_installed_package_is_the_wheel_not_the_checkout(installed):
    python, away = installed
    where = run(python, "-c", "import narrator; print(narrator.__file__)", cwd=away)
    assert Path(where.strip()).is_relative_to(away / "venv")


@pytest.mark.parametrize("game", registry.names())
def test_each_game_plays_its_golden_playthrough_from_the_wheel(installed, game):
    python, away = installed
    assert transcript(game, str(python), away) == (GOLDEN / f"{game}.out").read_text()


def test_the_installed_scripts_pass_check_and_list_as_games(installed):
    python, away = installed
    assert run(python, "-m", "narrator", "check", cwd=away).strip() == "No problems found."
    assert "slow-burn" in run(python, "-m", "narrator", "games", cwd=away)


def test_an_editable_install_finds_the_scripts_in_the_checkout(installed):
    """Last: it turns the venv's install into an editable one of this checkout."""
    python, away = installed
    run(python, "-m", "pip", "install", "-q", "--no-deps", "-e", ROOT, cwd=away)
    where = run(python, "-c", "import narrator.script.loader as l, narrator; "
                              "print(narrator.__file__); print(l.find_script(None))", cwd=away)
    assert where.split() == [str(ROOT / "narrator" / "__init__.py"), str(ROOT / "scripts")]
    assert run(python, "-m", "narrator", "check", cwd=away).strip() == "No problems found."
