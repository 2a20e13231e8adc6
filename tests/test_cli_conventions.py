"""Command-line conventions: --version, plain help for screen readers and pipes, the options a
game takes, and saved settings shown and changed with narrator config."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from importlib.metadata import version

import pytest
import yaml
from typer.testing import CliRunner

from narrator.cli import app
from narrator.events import Said
from narrator.session.console import Captions

runner = CliRunner()
BOX = set("╭╮╰╯│─")


def narrator(*args: str, **env: str) -> subprocess.CompletedProcess:
    """The real command, run as a user runs it (not a terminal: output is piped)."""
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, **env})


def test_version_prints_the_installed_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"narrator {version('narrator')}"


@pytest.mark.parametrize("args, env", [
    (("--help",), {}),                            # piped: not a terminal
    (("--plain", "--help"), {}),
    (("play", "--help"), {"NO_COLOR": "1"}),
])
def test_help_is_plain_text_without_boxes(args, env):
    result = narrator(*args, **env)
    assert result.returncode == 0
    assert "Usage: narrator" in result.stdout and not BOX & set(result.stdout)
    assert "\x1b[" not in result.stdout


def test_a_usage_error_is_plain_and_has_no_traceback():
    result = narrator("play", "--no-such-flag")
    assert result.returncode == 2
    assert "No such option: --no-such-flag" in result.stderr
    assert not BOX & set(result.stderr) and "Traceback" not in result.stderr


def test_help_lists_every_command():
    result = runner.invoke(app, ["--help"])
    for command in ("play", "resume", "games", "check", "graph", "render", "voices", "devices",
                    "hear", "models", "schema", "options", "config"):
        assert f"  {command} " in result.output, command


def test_options_lists_each_option_with_type_allowed_values_default_and_meaning():
    result = runner.invoke(app, ["options", "blades"])
    assert result.exit_code == 0
    assert "stress_boxes  (number: a whole number from 1 to 18; default 9)" in result.output
    assert "stress boxes on each scoundrel's sheet" in result.output


def test_options_of_a_game_without_any_says_so():
    result = runner.invoke(app, ["options", "half-chance"])
    assert result.exit_code == 0 and result.output.strip() == "Half-Chance has no options."


def test_config_shows_then_saves_a_change(tmp_path, monkeypatch):
    path = tmp_path / "config.yaml"
    monkeypatch.setenv("NARRATOR_CONFIG", str(path))
    shown = runner.invoke(app, ["config"])
    assert shown.exit_code == 0 and "listen_mode    open" in shown.output
    changed = runner.invoke(app, ["config", "rate=1.5", "listen_mode=push", "input_device=3"])
    assert changed.exit_code == 0, changed.output
    saved = yaml.safe_load(path.read_text())
    assert (saved["rate"], saved["listen_mode"], saved["input_device"]) == (1.5, "push", 3)
    assert "listen_mode    push" in runner.invoke(app, ["config"]).output


@pytest.mark.parametrize("change, message", [
    ("rate=9", "rate must be between 0.5 and 3"),
    ("listen_mode=shout", "listen_mode must be one of open, push, wake"),
    ("colour=red", "the settings are voice, rate, volume"),
    ("rate", "'rate' is not SETTING=VALUE"),
])
def test_config_refuses_a_bad_change_and_keeps_the_file(tmp_path, monkeypatch, change, message):
    path = tmp_path / "config.yaml"
    monkeypatch.setenv("NARRATOR_CONFIG", str(path))
    runner.invoke(app, ["config", "rate=1.25"])
    before = path.read_text()
    result = runner.invoke(app, ["config", change])
    assert result.exit_code == 1 and message in result.output
    assert path.read_text() == before


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("plain, styled", [(False, True), (True, False)])
def test_captions_on_a_terminal_are_styled_unless_plain(plain, styled):
    screen = Terminal()
    captions = Captions(screen, plain=plain)
    captions(Said("Track 1: Introduction", "heading"))
    captions(Said("Say next to go on.", "prompt"))
    assert ("\x1b[" in screen.getvalue()) == styled
    assert "Track 1: Introduction" in screen.getvalue()
