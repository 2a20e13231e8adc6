"""Slow Burn at the table: "repeat" after a reminder, and a campaign kept across evenings."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from narrator.dice import Roller
from narrator.events import Control, ReadTrack, Utterance
from narrator.rules import registry
from narrator.script.loader import find_script, load_script
from narrator.script.render import render
from narrator.session.game import Session
from narrator.understand import understand

GOLDEN_IN = Path(__file__).parent / "golden" / "slow-burn.in"
INFO = registry.get("slow-burn")
SCRIPT = load_script(find_script(INFO.rules.script))


def test_repeat_after_a_tracks_reminder_reads_the_whole_track():
    session = Session(INFO, SCRIPT, dict(INFO.rules.options), roller=Roller(7))
    session.opening()
    for line in GOLDEN_IN.read_text().splitlines():  # the golden table, typed
        heard = understand(line, session.expectation)
        outcome = session.hear(Utterance(line, heard, 1.0, "text"))
        said = session.commit() if outcome.record is not None else outcome.said
        reminders = [s for s in said if s.track]
        if reminders:
            break
    else:
        raise AssertionError("the golden playthrough hears no reminder")
    short = reminders[0]
    repeated = session.hear(Utterance("repeat", Control("repeat"), 1.0, "text")).said
    whole = render(SCRIPT, ReadTrack(short.track))
    assert short not in repeated
    at = repeated.index(whole[0])
    assert repeated[at:at + len(whole)] == whole
    assert len(repeated) == len(session.last_said) - 1 + len(whole)


def narrator(*args: str, given: str, saves: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "narrator", *args, "--input", "text", "--seed", "7",
         "--save-dir", saves], input=given, capture_output=True, text=True, timeout=120,
        env={**os.environ, "COLUMNS": "200", "TERM": "dumb"})
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.slow  # two narrator processes play a whole Job: over ten seconds on a busy machine
def test_no_more_episodes_tonight_then_resume_plays_the_next_episode_with_the_same_spies():
    with tempfile.TemporaryDirectory() as saves:
        first = narrator("play", "slow-burn", given=GOLDEN_IN.read_text(), saves=saves)
        assert "Say next to start the next episode." in first
        assert "Session saved as" in first  # the save stays open: nothing is over
        later = narrator("resume", given="next\n", saves=saves)
    assert "Say next to start the next episode." in later  # the question it stopped at
    after = later[later.index("> next"):]
    assert "Track 7: The Job" in after and "Segment 1 of seven" in after
    assert "Ash" in after and "Name" not in after  # no spy re-entered
