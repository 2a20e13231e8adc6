"""kill -9 at random points, over and over: no acknowledged input is ever lost.

One Slow Burn session is played by a real ``narrator`` process that is killed (SIGKILL) at a
random moment, then resumed from its journal by a new process, which is killed in turn, and so
on: at least 50 kills. An input is acknowledged once the process has read the line after it
(the echo "> ..." of the next line shows it was handled, journaled and answered). After each
kill the journal must hold every acknowledged input, nothing else than the reference game's
inputs in order, and resume cleanly.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from golden import GOLDEN
from narrator.events import Utterance
from narrator.rules import registry
from narrator.script.loader import find_script, load_script
from narrator.session.game import Session
from narrator.session.journal import inputs_of, load
from narrator.understand import understand

KILLS = 50
#: the golden lines before the first "roll for me" (a roll would differ after each resume)
LINES = (GOLDEN / "slow-burn.in").read_text().split("roll for me")[0].split("\n")[:-1]


def reference() -> tuple[list, list[int]]:
    """The inputs the lines lead to, and how many there are once each line is handled."""
    info = registry.get("slow-burn")
    session = Session(info, load_script(find_script(info.rules.script)), dict(info.rules.options))
    after = []
    for line in LINES:
        outcome = session.hear(Utterance(line, understand(line, session.expectation,
                                                          session.mode), 1.0, "text"))
        if outcome.record is not None:
            session.commit()
        elif outcome.undo:
            session.undo()
        after.append(len(session.inputs))
    return session.inputs, after


def run_until_killed(args: list[str], lines: list[str], delay: float) -> int:
    """Feed ``lines`` to ``narrator ARGS``, SIGKILL it after ``delay`` s; acknowledged lines."""
    proc = subprocess.Popen([sys.executable, "-m", "narrator", *args, "--input", "text"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
    echoes: list[bytes] = []
    reader = threading.Thread(target=lambda: echoes.extend(
        line for line in proc.stdout if line.startswith(b"> ")))
    reader.start()
    try:
        proc.stdin.write("".join(line + "\n" for line in lines).encode())
        proc.stdin.flush()
    except BrokenPipeError:
        pass
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    reader.join(timeout=30)
    return max(0, len(echoes) - 1)


@pytest.mark.slow
def test_kill_9_at_random_points_never_loses_an_acknowledged_input(tmp_path):
    expected, after = reference()
    assert len(expected) >= 15
    rng = random.Random(20261123)
    saves = tmp_path / "saves"
    kills = sessions = mid_session = 0
    journal: Path | None = None
    done = 0  # lines handled so far in the current session, as the journal shows
    while kills < KILLS:
        if journal is None:
            args = ["play", "slow-burn", "--save-dir", str(saves)]
            sessions += 1
        else:
            args = ["resume", journal.stem, "--save-dir", str(saves)]
        known = set(saves.glob("*.jsonl")) if saves.exists() else set()
        acked = run_until_killed(args, LINES[done:], rng.uniform(0.2, 3.0))
        kills += 1
        if journal is None:
            new = set(saves.glob("*.jsonl")) - known if saves.exists() else set()
            if not new:
                assert acked == 0
                continue
            [journal] = new
        kept = inputs_of(load(journal).records)
        assert kept == expected[:len(kept)], f"kill {kills}: the journal went wrong"
        if acked:
            mid_session += 1
            assert len(kept) >= after[done + acked - 1], \
                f"kill {kills}: an acknowledged input was lost"
        done = next((i for i, n in enumerate(after) if n > len(kept)), len(LINES))
        if done == len(LINES):
            journal, done = None, 0
    assert sessions >= 2 and mid_session >= KILLS // 3, (sessions, mid_session)
