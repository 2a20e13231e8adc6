"""End to end over real audio devices: a private PulseAudio null sink is the room; a player's
utterance is played into it with paplay while the ears record its monitor via sounddevice."""

from __future__ import annotations

import os
import subprocess
import sys
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
    listener.join(timeout=kwargs.get("timeout", 10) + 30)  # decoding may end after it
    return result[0] if result else "still listening"


@pytest.fixture(scope="module")
def room_ears(tmp_path_factory):
    from narrator.voice.listener import make_ears

    with audio_room() as env:
        ears = make_ears(Settings(input_device="pulse"))  # Whisper, the default
        assert ears.wait_ready(timeout=120) and ears.notice is None
        yield ears, env, tmp_path_factory.mktemp("room-clips")
        ears.close()


def test_a_player_saying_next_into_the_room_is_heard(room_ears):
    ears, env, folder = room_ears
    said = clips.make_clip(folder, "next", "next", "flite:slt", pad=0.6)
    heard = listen_while_playing(ears, [said.path], env, expectation=FULL, timeout=8)
    assert heard.text == "next" and heard.engine == "whisper"


def test_the_narrators_own_speech_in_the_room_triggers_nothing(room_ears):
    ears, env, folder = room_ears
    line = clips.make_clip(folder, "Stop the recording and pass your character sheet to the "
                           "player on your left, then go on.", None, "flite:awb")
    assert listen_while_playing(ears, [line.path], env, expectation=None, mode="reading",
                                echo=line.phrase, timeout=8) is None


def test_narrator_play_slow_burn_advances_when_a_player_answers_into_the_room(tmp_path):
    """`narrator play slow-burn --input voice` (this checkout's code, default engine) listens
    on the room's monitor: the player's spoken "first session" takes the game to Track 2. Its
    earcons sound in the room too (``--quiet``), and are not taken for the table's words (1
    run in 8 went to Track 7: "Spend new." and twice "yeah", each the listening earcon)."""
    said = clips.make_clip(tmp_path / "clips", "first session", "first session", "flite:slt",
                           pad=0.6)
    with audio_room() as env:
        game = subprocess.Popen([sys.executable, "-m", "narrator", "play", "slow-burn",
                                 "--input", "voice", "--quiet",
                                 "--save-dir", str(tmp_path / "saves")],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, **env})
        lines: list[str] = []
        threading.Thread(target=lambda: lines.extend(game.stdout), daemon=True).start()
        try:
            until(lambda: any(line.strip() == "[listening]" for line in lines), 120)
            time.sleep(1)  # after the listening earcon
            play_into_room(said.path, env)
            until(lambda: any(line.startswith(("Track 2", "Didn't catch")) for line in lines),
                  60)
            if not any(line.startswith("Track 2") for line in lines):  # as a player would,
                time.sleep(2)  # said once more after "Didn't catch that." (stop 76's CI)
                play_into_room(said.path, env)
            until(lambda: any(line.startswith("Track 2") for line in lines), 60)
        finally:
            game.terminate()
            game.wait(timeout=20)
    out = "".join(lines)
    headings = [line.strip() for line in out.splitlines() if line.startswith("Track ")]
    assert headings[:2] == ["Track 1: Introduction", "Track 2: Character Creation"], out[-2000:]


def until(condition, seconds: float) -> None:
    """Wait until ``condition()`` holds or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.2)
