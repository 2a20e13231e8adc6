"""The command line as a user types it (typer's CliRunner), and a session killed mid-game."""

import os
import signal
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from golden import GOLDEN
from narrator.cli import app
from narrator.rules import registry
from narrator.session.journal import inputs_of, load

runner = CliRunner()


def invoke(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_games_lists_every_game():
    result = invoke("games")
    assert result.exit_code == 0
    for name in registry.names():
        assert name in result.output


def test_check_passes_on_the_shipped_scripts():
    result = invoke("check")
    assert result.exit_code == 0, result.output


def test_graph_prints_a_mermaid_flow_of_the_tracks():
    result = invoke("graph", "slow-burn")
    assert result.exit_code == 0
    assert result.output.startswith("flowchart")
    assert "Track 7: The Job" in result.output and "Track 18: Finishing the Job" in result.output
    assert "n13 -->" in result.output


def test_play_an_unknown_game_names_the_known_ones():
    result = invoke("play", "chess", "--input", "text")
    assert result.exit_code == 1
    assert "slow-burn" in result.output


def test_an_unknown_option_is_refused_with_the_game_options(tmp_path):
    result = invoke("play", "slow-burn", "--input", "text", "--save-dir", str(tmp_path),
                    "--option", "nonsense=1")
    assert result.exit_code == 1 and "unknown option" in result.output
    assert not list(tmp_path.glob("*.jsonl"))


def test_play_then_quit_then_resume_goes_on_where_it_stopped(tmp_path):
    first = invoke("play", "slow-burn", "--input", "text", "--save-dir", str(tmp_path),
                   input="next\nquit\n")
    assert first.exit_code == 0, first.output
    assert "Track 1: Introduction" in first.output and "Session saved" in first.output
    [journal] = tmp_path.glob("*.jsonl")
    done = len(inputs_of(load(journal).records))
    again = invoke("resume", "--input", "text", "--save-dir", str(tmp_path), input="status\nquit\n")
    assert again.exit_code == 0, again.output
    assert f"after {done} inputs" in again.output


def test_resume_with_nothing_saved_says_how_to_start(tmp_path):
    result = invoke("resume", "--input", "text", "--save-dir", str(tmp_path))
    assert result.exit_code == 1 and "narrator play GAME" in result.output


def _start(saves: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "narrator", "play", "slow-burn", "--input", "text", "--seed", "7",
         "--save-dir", str(saves)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        bufsize=1, env={**os.environ, "COLUMNS": "200"})


def _feed_and_wait(proc: subprocess.Popen, lines: list[str]) -> None:
    """Send each line, then "help", and wait until the help answer shows: all were handled."""
    for line in lines + ["help"]:
        proc.stdin.write(line + "\n")
    proc.stdin.flush()
    for out in proc.stdout:
        if out.startswith("Any time:"):
            return
    raise AssertionError("narrator play stopped before answering")


def test_sigkill_mid_episode_loses_no_confirmed_input(tmp_path):
    lines = [l for l in (GOLDEN / "slow-burn.in").read_text().splitlines() if l.strip()][:25]
    clean, killed = tmp_path / "clean", tmp_path / "killed"
    proc = _start(clean)
    _feed_and_wait(proc, lines)
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=60)
    expected = inputs_of(load(next(clean.glob("*.jsonl"))).records)
    assert len(expected) >= 10

    proc = _start(killed)
    _feed_and_wait(proc, lines)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    journal = next(killed.glob("*.jsonl"))
    assert inputs_of(load(journal).records) == expected

    resumed = invoke("resume", journal.stem, "--input", "text", "--save-dir", str(killed),
                     input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert f"after {len(expected)} inputs" in resumed.output


def test_check_reports_a_card_with_no_end_card_and_fails(tmp_path):
    folder = tmp_path / "my_cards"
    folder.mkdir()
    (folder / "game.yaml").write_text("game: mine\ntitle: Mine\nprompts:\n  hi: Hello.\n")
    (folder / "cards.yaml").write_text(
        "cards:\n  - name: Mist\n    kind: wander\n    copies: 1\n    steps:\n"
        "      - either: Describe the mist.\n      - plus: It lifts.\n")
    result = invoke("check", str(folder))
    assert result.exit_code == 1
    assert "cards.yaml:2" in result.output and "END CARD" in result.output


def test_no_microphone_and_no_speaker_fall_back_to_typing_and_captions(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "narrator", "play", "slow-burn", "--input-device", "99",
         "--output-device", "99", "--save-dir", str(tmp_path)],
        input="first session\nquit\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Falling back to typed input" in result.stderr
    assert "captions only" in result.stderr
    assert "Track 2: Character Creation" in result.stdout
    [journal] = tmp_path.glob("*.jsonl")
    assert len(inputs_of(load(journal).records)) == 1
