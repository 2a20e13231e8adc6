"""End to end over real audio devices: a private PulseAudio null sink is the room; a player's
utterance is played into it with paplay while the ears record its monitor via sounddevice."""

from __future__ import annotations

import os
import subprocess
import threading
import time

import pytest

import clips
from audio_room import audio_room, missing_tools
from narrator.settings import Settings
from narrator.voice.hear import FULL

MISSING = missing_tools() + clips.missing_tools()
pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)}")]


def play_into_room(path, env) -> None:
    subprocess.run(["paplay", str(path)], env={**os.environ, **env},
                   check=True, timeout=30)


def listen_while_playing(ears, paths, env, **kwargs):
    result: list = []
    listener = threading.Thread(target=lambda: result.append(ears.listen(**kwargs)))
    listener.start()
    for path in paths:
        play_into_room(path, env)
    listener.join(timeout=kwargs.get("timeout", 10) + 5)
    return result[0] if result else "still listening"


@pytest.fixture(scope="module")
def room_ears(tmp_path_factory):
    from narrator.voice.listener import make_ears

    with audio_room() as env:
        ears = make_ears(Settings(input_device="pulse"))
        yield ears, env, tmp_path_factory.mktemp("room-clips")
        ears.close()


def test_a_player_saying_next_into_the_room_is_heard(room_ears):
    ears, env, folder = room_ears
    said = clips.make_clip(folder, "next", "next", "flite:slt", pad=0.6)
    assert listen_while_playing(ears, [said.path], env, expectation=FULL, timeout=8) == "next"


def test_the_narrators_own_speech_in_the_room_triggers_nothing(room_ears):
    ears, env, folder = room_ears
    line = clips.make_clip(folder, "Stop the recording and pass your character sheet to the "
                           "player on your left, then go on.", None, "flite:awb")
    assert listen_while_playing(ears, [line.path], env, expectation=None, speaking=True,
                                timeout=8) is None


def test_narrator_play_slow_burn_advances_when_a_player_answers_into_the_room(tmp_path):
    """`narrator play slow-burn --input voice` listens on the room's monitor: the player's
    spoken "first session" takes the game to Track 2."""
    said = clips.make_clip(tmp_path / "clips", "first session", "first session", "flite:slt",
                           pad=0.6)
    with audio_room() as env:
        game = subprocess.Popen(["narrator", "play", "slow-burn", "--input", "voice", "--quiet",
                                 "--save-dir", str(tmp_path / "saves")],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, **env})
        try:
            time.sleep(6)  # the opening track is captioned, then the game listens
            play_into_room(said.path, env)
            time.sleep(4)
        finally:
            game.terminate()
            out = game.communicate(timeout=20)[0]
    headings = [line.strip() for line in out.splitlines() if line.startswith("Track ")]
    assert headings[:2] == ["Track 1: Introduction", "Track 2: Character Creation"], out[-2000:]
