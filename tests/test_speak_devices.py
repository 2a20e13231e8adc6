"""Devices that come and go (issue 14), over a private PulseAudio room: the microphone (the
room's monitor) removed mid-session and added back, and devices listed by PulseAudio name."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from audio_room import audio_room, missing_tools
from narrator.session.devices import (ECHO, MIC_BACK, MIC_LOST, WatchedEars, device_lines,
                                      route_pulse_names)
from narrator.settings import Settings

pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(bool(missing_tools()),
                                 reason=f"PulseAudio tools missing: {missing_tools()}")]


def _pactl(env, *args):
    return subprocess.run(["pactl", *args], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=30).stdout


def _null_sink(env):
    return next(line.split()[0] for line in _pactl(env, "list", "short", "modules").splitlines()
                if "module-null-sink" in line)


def _listen_until(ears, done, limit: float = 15.0) -> bool:
    """Listen (hearing nothing) until ``done()``; False after ``limit`` seconds (how soon:
    bench/speak.py, microphone_loss_noticed_s and microphone_return_noticed_s)."""
    deadline = time.monotonic() + limit
    while not done():
        if time.monotonic() > deadline:
            return False
        assert ears.listen(None, timeout=0.3) is None
    return True


def test_a_lost_microphone_is_said_and_picked_up_again_when_it_returns():
    """Run in a process of its own: after the speaker tests, PortAudio in this process can be
    left in a state where the lost stream's thread spins and prints millions of lines."""
    done = subprocess.run(
        [sys.executable, "-c", "import test_speak_devices as t; t.lose_and_find_the_microphone()"],
        cwd=Path(__file__).parent, capture_output=True, text=True, timeout=180,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])})
    assert done.returncode == 0, done.stderr[-3000:]


def lose_and_find_the_microphone():
    """The microphone (the room's monitor) goes mid-listening and comes back."""
    from narrator.voice.listener import make_ears
    from narrator.voice.mic import Mic

    said = []
    with audio_room() as env:
        settings = Settings(input_device="pulse", denoise=False, engine="pocketsphinx")
        ears = WatchedEars(make_ears(settings), lambda: Mic("pulse"),
                           lambda text: said.append((time.monotonic(), text)))
        assert ears.listen(None, timeout=1.0) is None and not ears.lost  # silence: nothing
        _pactl(env, "unload-module", _null_sink(env))
        assert _listen_until(ears, lambda: ears.lost) and [text for _, text in said] == [MIC_LOST]
        _pactl(env, "load-module", "module-null-sink", "sink_name=room", "rate=16000")
        assert _listen_until(ears, lambda: not ears.lost)
        assert [text for _, text in said] == [MIC_LOST, MIC_BACK]
        assert ears.ears.source.read(timeout=1.0) is not None  # listening again
        ears.close()


def test_devices_are_listed_and_chosen_by_their_pulseaudio_names(monkeypatch):
    with audio_room() as env:
        _pactl(env, "load-module", "module-null-sink", "sink_name=table_speaker")
        lines = device_lines()
        assert "  output  table_speaker" in lines and "  input   room.monitor" in lines
        monkeypatch.delenv("PULSE_SINK", raising=False)
        routed = route_pulse_names(Settings(output_device="table_speaker",
                                            input_device="room.monitor"))
        assert routed.output_device == "pulse" and routed.input_device == "pulse"
        assert os.environ["PULSE_SINK"] == "table_speaker"
        assert os.environ["PULSE_SOURCE"] == "room.monitor"
        unknown = route_pulse_names(Settings(output_device="no-such-sink"))
        assert unknown.output_device == "no-such-sink"


@pytest.mark.parametrize("sink, talk, warned", [("room", False, True),
                                                ("elsewhere", False, False),
                                                ("elsewhere", True, False)])
def test_the_narrator_hearing_itself_is_news_for_the_table(monkeypatch, tmp_path, sink, talk,
                                                          warned):
    """The room's microphone is its sink's monitor: speech played into that sink is heard
    loudly (a warning, though the echo canceller takes it out of what is recognised); speech
    played into another sink is not, even with the table talking loudly over it (headphones
    at a chatty table: the microphone is loud only while the narrator speaks, but not with
    its voice)."""
    import clips
    from narrator.events import Said
    from narrator.voice.listener import make_ears
    from narrator.voice.mic import Mic
    from narrator.voice.speaker import Speaker

    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path / "cache"))
    said = []
    with audio_room() as env:
        _pactl(env, "load-module", "module-null-sink", "sink_name=elsewhere")
        narrator = Speaker(route_pulse_names(Settings(output_device=sink, voice="espeak-ng")))
        ears = WatchedEars(make_ears(Settings(input_device="pulse", denoise=False,
                                              engine="pocketsphinx")),
                           lambda: Mic("pulse"), said.append)
        assert ears.ears.source.echo is not None  # the check hears what comes before it
        ears.listen(None, timeout=3.5)  # the quiet room
        narrator.say(Said("You're a spy; or at least you were until someone got you "
                          "blacklisted. You have been dumped in a city with no money."))
        if talk:
            clip = clips.make_clip(tmp_path / "clips", "Did you see the game last night? I "
                                   "cannot believe they lost again after leading all along.",
                                   None, "espeak:en-us")
            subprocess.Popen(["paplay", str(clip.path)], env={**os.environ, **env})
        deadline = time.monotonic() + 15
        while narrator.is_speaking and time.monotonic() < deadline:
            ears.listen(None, mode="reading", timeout=0.3)
        narrator.close()
        ears.close()
    assert said == []  # said by the session before its next question, not as found
    assert ears.notices == ((ECHO,) if warned else ())
