"""The one error boundary: no traceback for any command; unexpected errors leave a report in
the state folder; Ctrl-C says how to resume; any typed bytes; a session open twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from narrator.cli import app
from narrator.events import Text
from narrator.session.journal import inputs_of, load

runner = CliRunner()


@pytest.fixture(autouse=True)
def state(tmp_path, monkeypatch):
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder / "narrator"


def start(*args: str, env: dict | None = None) -> subprocess.Popen:
    """narrator in a process of its own, with Ctrl-C as a terminal gives it (a test run started
    in the background by a non-interactive shell inherits SIGINT ignored)."""
    return subprocess.Popen([sys.executable, "-m", "narrator", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for(stream, text: str) -> None:
    for line in iter(stream.readline, b""):
        if text.encode() in line:
            return
    raise AssertionError(f"never printed {text!r}")


def test_an_unexpected_error_says_where_the_full_report_is(state, monkeypatch):
    def broken():
        raise RuntimeError("the registry fell over")
    monkeypatch.setattr("narrator.rules.registry.names", broken)
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 70 and "Traceback" not in result.output
    assert "unexpected error (RuntimeError: the registry fell over)" in result.output
    [report] = state.glob("narrator-crash-*.log")
    assert str(report) in result.output
    text = report.read_text()
    assert "Traceback" in text and "the registry fell over" in text and "command:" in text


def test_an_unexpected_error_in_a_session_says_the_session_is_saved(tmp_path, monkeypatch):
    def broken(self, text):
        raise ZeroDivisionError("bad luck")
    monkeypatch.setattr("narrator.session.loop.Session.hear", broken)
    result = runner.invoke(app, ["play", "slow-burn", "--input", "text", "--save-dir",
                                 str(tmp_path / "saves")], input="first session\n")
    [journal] = (tmp_path / "saves").glob("*.jsonl")
    assert result.exit_code == 70 and "Traceback" not in result.output
    assert f"Session saved as {journal.stem}. `narrator resume {journal.stem}` picks it up." \
        in result.output


def test_ctrl_c_says_the_session_is_saved_and_how_to_resume_it(tmp_path):
    saves = tmp_path / "saves"
    proc = start("play", "slow-burn", "--input", "text", "--save-dir", str(saves))
    proc.stdin.write(b"first session\nthree\nhelp\n")
    proc.stdin.flush()
    wait_for(proc.stdout, "Any time:")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    [journal] = saves.glob("*.jsonl")
    name = journal.stem
    assert proc.returncode == 130, err.decode()[-2000:]
    assert f"Session saved as {name}. `narrator resume {name}` picks it up." in err.decode()
    assert b"Traceback" not in err
    again = runner.invoke(app, ["resume", name, "--input", "text", "--save-dir", str(saves)],
                          input="quit\n")
    assert again.exit_code == 0 and "after 2 inputs" in again.output


def test_ctrl_c_as_narrator_closes_down_shows_no_traceback():
    """Pressed as a game ends, Ctrl-C reached Python's exit handlers (Festival being stopped)
    and printed a traceback; a slow exit handler stands for that clean-up here."""
    code = ("import atexit, sys, time\n"
            "from narrator.cli import run\n"
            "atexit.register(lambda: (print('closing down', flush=True), time.sleep(5)))\n"
            "sys.argv = ['narrator', 'games']\n"
            "run()\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    wait_for(proc.stdout, "closing down")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()[-2000:]


def test_ctrl_c_while_the_voice_closes_still_closes_the_microphone(tmp_path, monkeypatch):
    """Ctrl-C as a game ended, while the voice closed, left the microphone open: its echo
    canceller was torn down under it at exit and livekit's errors were printed."""
    from narrator.session import devices
    closed = []

    class Voice:
        def say(self, said):
            pass

        is_speaking = False

        def earcon(self, name):
            pass

        def close(self):
            closed.append("voice")
            raise KeyboardInterrupt

    def microphone(voice, speak, text_ears, settings, tracks):
        text_ears.close = lambda: closed.append("microphone")
        return text_ears, Voice()

    monkeypatch.setattr(devices, "open_devices", microphone)
    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "config.yaml"))
    result = runner.invoke(app, ["play", "half-chance", "--input", "voice", "--save-dir",
                                 str(tmp_path)], input="quit\n")
    assert closed == ["voice", "microphone"] and "Traceback" not in result.output
    assert "Session saved as" in result.output


def test_any_bytes_typed_at_a_prompt_are_handled_and_journaled(tmp_path):
    saves = tmp_path / "saves"
    typed = b"first session\nthree\n\xff\xfeA\x00sh\x1b[2J\nzz\xc3\n" + bytes(range(1, 256)) + \
        b"\nquit\n"
    result = subprocess.run([sys.executable, "-m", "narrator", "play", "slow-burn", "--input",
                             "text", "--save-dir", str(saves)], input=typed, capture_output=True,
                            timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"})
    assert result.returncode == 0, result.stderr.decode()
    assert b"Traceback" not in result.stderr
    [journal] = saves.glob("*.jsonl")
    inputs = inputs_of(load(journal).records)
    assert len(inputs) >= 3 and isinstance(inputs[2], Text) and "\ufffd" in inputs[2].text


def test_a_session_open_in_one_narrator_is_refused_in_a_second(tmp_path):
    saves = tmp_path / "saves"
    first = runner.invoke(app, ["play", "slow-burn", "--input", "text", "--save-dir",
                                str(saves)], input="first session\nquit\n")
    name = next(saves.glob("*.jsonl")).stem
    holder = start("resume", name, "--input", "text", "--save-dir", str(saves))
    holder.stdin.write(b"help\n")
    holder.stdin.flush()
    wait_for(holder.stdout, "Any time:")
    for args in ([name], []):
        second = runner.invoke(app, ["resume", *args, "--input", "text", "--save-dir",
                                     str(saves)], input="three\nquit\n")
        assert second.exit_code == 1 and "Traceback" not in second.output
        assert f"Session {name} is open in another narrator; quit it there first" \
            in second.output
    holder.communicate(b"three\nquit\n", timeout=60)
    assert holder.returncode == 0
    after = runner.invoke(app, ["resume", name, "--input", "text", "--save-dir", str(saves)],
                          input="quit\n")
    assert first.exit_code == 0 and after.exit_code == 0 and "after 2 inputs" in after.output
    assert [n for n in (r.n for r in load(saves / f"{name}.jsonl").records)] == [1, 2]


@pytest.mark.parametrize("args, says", [
    (["check", "/nonexistent/scripts"], "does not exist: give a script file or folder"),
    (["play", "slow-burn", "--input", "text", "--save-dir", "/etc/hostname"],
     "/etc/hostname is not a folder; choose another save folder"),
    (["play", "slow-burn", "--input", "text", "--save-dir", "/proc/no/such"],
     "Could not start a session in /proc/no/such"),
    (["resume", "--input", "text", "--save-dir", "/etc/hostname"], "no saved session"),
    (["graph", "chess"], "no game or script called 'chess'"),
], ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_bad_paths_and_names_get_one_line_and_no_report(state, args, says):
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 1 and says in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert not state.exists()


def test_checking_a_file_that_is_no_script_says_so_without_a_report(state):
    result = runner.invoke(app, ["check", "/etc/hostname"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "/etc/hostname:1: NS003 a script file should be a mapping" in result.output
    assert not state.exists()


def test_a_reader_that_goes_away_is_no_error(state):
    proc = subprocess.run(f"{sys.executable} -m narrator games | true", shell=True,
                          capture_output=True, timeout=60)
    assert proc.stderr == b"" and not state.exists()
