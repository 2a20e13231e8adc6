"""Real recognition with pocketsphinx on generated clips (tests/clips.py), and the live Ears fed
the same audio frame by frame. Clips are cached for the session in a temporary folder."""

from __future__ import annotations

import json
import queue

import numpy as np
import pytest
from typer.testing import CliRunner

import clips
from narrator.events import Line
from narrator.rules.base import AcceptDice, Expectation
from narrator.voice.asr import PocketSphinx, find_vosk_model, Vosk
from narrator.voice.hear import FULL, hear_file, read_pcm
from narrator.voice.listener import Ears
from narrator.voice.mic import RATE, Frames

pytestmark = [pytest.mark.audio,  # synthesizes clips and decodes them
              pytest.mark.skipif(bool(clips.missing_tools()),
                                 reason=f"needs {', '.join(clips.missing_tools())}")]
FLITE = [v for v in clips.VOICES if v.startswith("flite")]
QUIET = (np.random.default_rng(3).standard_normal(RATE) * 30).astype(np.int16).tobytes()


@pytest.fixture(scope="session")
def clip_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("clips")


@pytest.fixture(scope="session")
def sphinx():
    return PocketSphinx()


def test_commands_spoken_clean_are_recognised(clip_dir, sphinx):
    items = clips.command_clips(clip_dir, FLITE)
    right = [c for c in items if hear_file(sphinx, c.path, FULL)["command"] == c.expected]
    assert len(right) / len(items) >= 0.9, len(right)  # measured 93.3% (bench/listen.py); target 99%


def test_table_talk_gives_no_command(clip_dir, sphinx):
    """Talk never acts at once; at most one clip in 84 passes as dice, which the session
    then reads back for confirmation (measured: 1, an espeak voice heard as three dice)."""
    items = clips.talk_clips(clip_dir)
    heard = [hear_file(sphinx, c.path, FULL)["command"] for c in items]
    accepted = [h for h in heard if h is not None]
    assert not [h for h in accepted if h.split()[0] not in ("dice", "successes")]
    assert len(accepted) <= 1


def test_in_a_noisy_room_noise_suppression_recovers_commands(clip_dir, sphinx):
    """Pink noise at 10 dB SNR: without RNNoise few commands survive; with it (the default)
    more than three times as many do, and table talk in the same noise still gives nothing."""
    noisy = clip_dir / "noisy"
    items = clips.command_clips(noisy, FLITE[:2], snr_db=10)
    raw = sum(hear_file(sphinx, c.path, FULL, denoise=False)["command"] == c.expected
              for c in items)
    cleaned = sum(hear_file(sphinx, c.path, FULL)["command"] == c.expected for c in items)
    assert cleaned >= 3 * raw and cleaned / len(items) >= 0.35, (raw, cleaned)  # measured 6, 21
    talk = clips.talk_clips(noisy, FLITE[:2], snr_db=10)
    assert all(hear_file(sphinx, c.path, FULL)["command"] is None for c in talk)


def test_a_wrong_command_is_rarer_than_a_missed_one(clip_dir, sphinx):
    """When unsure the ears stay silent (the player repeats) rather than act wrongly."""
    items = clips.command_clips(clip_dir, FLITE)
    got = [hear_file(sphinx, c.path, FULL)["command"] for c in items]
    wrong = sum(g is not None and g != c.expected for g, c in zip(got, items))
    assert wrong <= 3


def test_the_ears_hear_next_in_a_stream_and_ignore_talk_around_it(clip_dir, sphinx):
    talk = clips.make_clip(clip_dir, clips.TABLE_TALK[0], None, "flite:slt")
    said = clips.make_clip(clip_dir, "next", "next", "flite:slt")
    ears = Ears(sphinx, Frames(QUIET + read_pcm(talk.path) + QUIET + read_pcm(said.path) + QUIET))
    assert ears.listen(FULL) == "next"
    assert ears.listen(FULL) is None  # nothing more in the stream


def answered_at(clip: clips.Clip, sphinx, expectation) -> float:
    """Seconds into the stream (quiet, the clip, quiet) at which the ears accepted the clip."""
    frames = Frames(QUIET + read_pcm(clip.path) + QUIET)
    assert Ears(sphinx, frames).listen(expectation) == clip.phrase
    return frames.seconds_read


def test_a_phrase_nothing_can_follow_is_answered_sooner(clip_dir, sphinx):
    """"three" when one die is asked cannot go on: 180 ms of quiet end it. When up to three
    dice may be said, the ears wait the full 300 ms for an "and five"."""
    three = clips.make_clip(clip_dir, "three", "dice 3", "flite:rms")
    one_die = Expectation(Line("ask"), (AcceptDice(6, 1, 1),))
    waited = answered_at(three, sphinx, FULL) - answered_at(three, sphinx, one_die)
    assert waited == pytest.approx(0.12, abs=0.031)


def stream_clock(frames: Frames):
    """The time in a recorded stream: how much of it has been read."""
    return lambda: frames.seconds_read


@pytest.mark.parametrize("pressed", [None, 0.0])
def test_push_to_talk_hears_only_after_the_key(clip_dir, sphinx, pressed):
    said = read_pcm(clips.make_clip(clip_dir, "next", "next", "flite:slt").path)
    frames = Frames(QUIET + said + QUIET)
    keys: queue.Queue[float] = queue.Queue()
    if pressed is not None:
        keys.put(pressed)
    ears = Ears(sphinx, frames, mode="push", keys=keys, clock=stream_clock(frames))
    assert ears.listen(FULL) == ("next" if pressed is not None else None)


def test_wake_mode_acts_on_narrator_next_and_not_on_next_alone(clip_dir, sphinx):
    bare = read_pcm(clips.make_clip(clip_dir, "next", "next", "flite:slt").path)
    woken = read_pcm(clips.make_clip(clip_dir, "narrator, next", "next", "flite:slt").path)
    frames = Frames(QUIET + bare + QUIET + woken + QUIET)
    ears = Ears(sphinx, frames, mode="wake")
    assert ears.listen(FULL) == "next"
    assert frames.seconds_read > len(QUIET + bare + QUIET) / 2 / RATE  # bare "next" passed over


def test_while_speaking_the_narrators_own_lines_trigger_nothing(clip_dir, sphinx):
    lines = ["Pause the recording while each player writes down a contact.",
             "Stop when the opposition dice run out, then begin the next segment.",
             "Next, pass your character sheet to the player on your left."]
    audio = QUIET.join(read_pcm(clips.make_clip(clip_dir, line, None, "flite:awb").path)
                       for line in lines)
    ears = Ears(sphinx, Frames(QUIET + audio + QUIET))
    assert ears.listen(None, speaking=True) is None


def test_hear_cli_prints_one_json_line_per_file(clip_dir):
    from narrator.cli import app

    said = clips.make_clip(clip_dir, "go to track seven", "goto 7", "flite:kal16")
    talk = clips.make_clip(clip_dir, clips.TABLE_TALK[1], None, "flite:kal16")
    result = CliRunner().invoke(app, ["hear", str(said.path), str(talk.path), "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["command"] for r in rows] == ["goto 7", None]
    assert set(rows[0]) == {"file", "text", "command", "confidence", "ms"}


@pytest.mark.vosk
@pytest.mark.skipif(find_vosk_model() is None, reason="no vosk English model installed "
                    "(see `narrator models`)")
def test_vosk_recognises_commands_and_ignores_talk(clip_dir):
    vosk = Vosk(find_vosk_model())
    items = clips.command_clips(clip_dir, FLITE)
    right = sum(hear_file(vosk, c.path, FULL)["command"] == c.expected for c in items)
    assert right / len(items) >= 0.9
    talk = clips.talk_clips(clip_dir, FLITE)
    assert all(hear_file(vosk, c.path, FULL)["command"] is None for c in talk)
