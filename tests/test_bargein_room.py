"""Barge-in in one PulseAudio room: the narrator reads Slow Burn's Track 1 into the room, its own
voice is heard by the microphone (the room's monitor) as at a table, and a player's "pause",
as loud as the narrator, is said over it: the echo canceller takes the narrator out, the
reading stops and the room goes quiet; "resume" reads on. "go back" is heard over it too, and
a second player's "hold on" while paused keeps the pause."""

from __future__ import annotations

import os
import subprocess
import time
from contextlib import contextmanager

import numpy as np
import pytest
import soundfile as sf

import clips
from audio_room import audio_room, missing_tools
from narrator.rules import registry
from narrator.script.loader import find_script, load_script
from narrator.session.console import LiveEars
from narrator.session.game import NOTHING_TO_TAKE_BACK, Session
from narrator.session.loop import PAUSED
from narrator.settings import Settings
from test_loop_audio import (HEARD_WITHIN, Captions, assert_quiet_then_reading,
                             pause_then_resume, session_in_room)
from test_speak_audio import Recorder

MISSING = missing_tools() + clips.missing_tools()
pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)}")]
pytest.importorskip("livekit.rtc")

NARRATOR_PEAK = 0.5  # the speaker's peak at volume 1 (voice/speaker.py PEAK)


def as_loud_as_the_narrator(clip, folder):
    """The player's clip scaled to the narrator's peak level (0 dB)."""
    samples, rate = sf.read(clip.path, dtype="float64")
    out = folder / f"{clip.path.stem}.0dB.wav"
    sf.write(out, samples * NARRATOR_PEAK / np.abs(samples).max(), rate, subtype="PCM_16")
    return out


def say_in_room(path, env) -> float:
    """Play a player's voice into the room the narrator also plays into; when it ended."""
    subprocess.run(["paplay", str(path)], env={**os.environ, **env}, check=True, timeout=30)
    return time.monotonic()


OWN_VOICE = pytest.mark.xfail(
    reason="issue 17: 'pause' in the narrator's own speaker's voice (flite slt) is still lost "
    "in some runs, written 'Dance.', 'plus.' or 'I'm gone.' (6 of 10 passed at stop 45, "
    "4 of 6 at stop 46; docs/barge-in.md)", strict=False)


@contextmanager
def track_1_read_in_room(tmp_path, monkeypatch, captions):
    """Slow Burn's Track 1 read into the room, its echo cancelled, for 15 s (the canceller
    finds the delay and adapts: bench/bargein.py, ERLE) without pausing itself; yields the
    room's environment and the mouth."""
    from narrator.voice.listener import make_ears
    from narrator.voice.speaker import Speaker

    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path / "cache"))
    info = registry.get("slow-burn")
    session = Session(info, load_script(find_script(info.rules.script)), info.rules.options)
    with audio_room() as env:
        ears = LiveEars(make_ears(Settings(input_device="pulse")))
        assert ears.voice.source.echo is not None, "the microphone cancels the narrator's echo"
        mouth = Speaker(Settings(output_device="pulse"))
        with session_in_room(session, ears, mouth, captions) as game:
            game.start()
            started = captions.wait_for("Track 1: Introduction", 0, 20)
            assert started is not None, captions.shown
            time.sleep(15)
            assert captions.wait_for(PAUSED, 0, 0) is None, "its own voice did not pause it"
            yield env, mouth


def player_says(words, voice, tmp_path):
    """A player's words as loud as the narrator."""
    folder = tmp_path / "clips"
    return as_loud_as_the_narrator(clips.make_clip(folder, words, words, voice, pad=0.3),
                                   folder)


@pytest.mark.parametrize("voice", ["espeak:en-us", pytest.param("flite:slt", marks=OWN_VOICE)])
def test_pause_said_over_the_narration_stops_track_1_and_resume_reads_on(
        voice, tmp_path, monkeypatch):
    """A player's voice (espeak-ng), and the narrator's own speaker's (flite slt), the
    hardest: its "pause" sounds like the echo it is said over."""
    pause, resume = (player_says(w, voice, tmp_path) for w in ("pause", "resume"))
    captions = Captions()
    with track_1_read_in_room(tmp_path, monkeypatch, captions) as (env, mouth):
        with Recorder() as room:
            _, quiet, again = pause_then_resume(captions, mouth, lambda: say_in_room(pause, env),
                                                lambda: say_in_room(resume, env))
        loud = room.loud_times()
    assert_quiet_then_reading(loud, quiet, again)


def test_go_back_said_over_track_1_says_there_is_nothing_to_take_back_and_reads_on(
        tmp_path, monkeypatch):
    """"go back" is heard over the narration too; at the opening no answer was given yet, so
    the table hears why nothing changed, and the sentence it cut is read again."""
    back = player_says("go back", "espeak:en-us", tmp_path)
    captions = Captions()
    with track_1_read_in_room(tmp_path, monkeypatch, captions) as (env, _):
        began = time.monotonic()
        say_in_room(back, env)
        told = captions.wait_for(NOTHING_TO_TAKE_BACK, began, HEARD_WITHIN)
        assert told is not None, f"go back was not heard: {captions.shown[-5:]}"
        cut = [s for t, s in captions.shown if t < told][-1]
        assert captions.wait_for(cut, told, HEARD_WITHIN) is not None, captions.shown[-5:]


def test_a_second_player_s_hold_on_while_paused_keeps_the_pause_and_resume_reads_on(
        tmp_path, monkeypatch):
    """A second player's "hold on" (flite rms) after the pause is heard as a pause again, not
    as "go on", nor missed: the table hears it is paused, the reading does not go on, and one
    "resume" reads the cut sentence again."""
    pause, resume = (player_says(w, "espeak:en-us", tmp_path) for w in ("pause", "resume"))
    hold = player_says("hold on", "flite:rms", tmp_path)
    captions = Captions()
    with track_1_read_in_room(tmp_path, monkeypatch, captions) as (env, mouth):
        def hold_on_then_resume():
            began = time.monotonic()
            say_in_room(hold, env)
            assert captions.wait_for(PAUSED, began, HEARD_WITHIN) is not None, \
                f"hold on was not heard as a pause: {captions.shown[-5:]}"
            assert mouth.wait(10), "the paused message never ended"
            time.sleep(2)
            say_in_room(resume, env)

        said_pause, _, again = pause_then_resume(captions, mouth, lambda: say_in_room(pause, env),
                                                 hold_on_then_resume)
    between = [s for t, s in captions.shown if said_pause - 2 < t < again]
    assert between.count(PAUSED) == 2 and "Didn't catch that." not in between, between
    first = between.index(PAUSED)
    paused_for = between[first:between.index(PAUSED, first + 1)]
    said = {PAUSED, "Paused.", "Say resume to go on."}  # the state's caption, then each sentence
    assert set(paused_for) <= said, f"the reading went on before the hold on: {between}"
