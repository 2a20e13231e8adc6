"""The linear echo filter (narrator/voice/echo.py, ``LinearEcho``): what the recogniser hears
over the narration. It must learn the echo within a second of narration (a table's first word
comes early) and keep what it learnt through someone talking over it."""

from __future__ import annotations

import numpy as np
import pytest

import clips
from narrator.voice.echo import RATE, STEP, EchoCanceller, LinearEcho

from test_bargein_echo import a_room_echo, cleaned, level_db, played, speechlike

pytest.importorskip("livekit.rtc")


def through(linear: LinearEcho, far: np.ndarray, near: np.ndarray) -> np.ndarray:
    """``near`` less what ``linear`` makes of ``far``'s echo, STEP samples at a time."""
    return np.concatenate([linear.cancel(far[i:i + STEP].astype(np.float64),
                                         near[i:i + STEP].astype(np.float64))
                           for i in range(0, len(near) - STEP + 1, STEP)])


def test_the_recogniser_hears_the_linear_filter_within_a_second_of_finding_the_echo():
    """Until the filter has learnt the echo the recogniser hears AEC3's output, which takes
    most of a word said over the narration away (the run's first words were lost while a
    filter that learnt more cautiously took 4–17 s). The echo's delay is found from the first
    second of capture; the filter's output is heard less than a second later."""
    narration = speechlike(6.0, 21)
    echo = np.concatenate([np.zeros(int(0.06 * RATE), np.float32), 0.5 * narration])
    heard, gate = cleaned(EchoCanceller(played(narration, start=70.0)),
                          echo[:len(narration)], 70.0)
    steps = range(0, len(heard) - STEP + 1, STEP)
    linear = [i for i in steps if not np.array_equal(heard[i:i + STEP], gate[i:i + STEP])]
    assert linear and linear[0] < 2.0 * RATE, "the linear filter's output is heard from then"
    later = slice(3 * RATE, 6 * RATE)
    assert level_db(echo[later]) - level_db(heard[later]) > 25


NARRATED = ("Track one. Introduction. Welcome, and thank you for playing. You are a spy, or at "
            "least you were, until someone got you burned.",
            "The job is simple. Get into the embassy, find the ledger, and get out before the "
            "guards change shift at midnight.")
SPEAKERS = ("flite:slt", "flite:kal16", "espeak:en-us", "espeak:en-gb")


@pytest.mark.audio  # synthesizes speech
@pytest.mark.skipif(bool(clips.missing_tools(SPEAKERS)),
                    reason=f"needs {', '.join(clips.missing_tools(SPEAKERS))}")
def test_a_spoken_narration_is_taken_well_down_in_its_first_seconds(tmp_path):
    """A table's first word may come two or three seconds into the narration. Over spoken
    sentences the filter learns as a Kalman filter does: the echo 17 dB down on average from
    0.5 s to 2 s (13.4 dB with the NLMS step it replaced)."""
    down = []
    for voice in SPEAKERS:
        for text in NARRATED:
            clip = clips.make_clip(tmp_path, text, "narration", voice)
            narration = np.frombuffer(clips.spoken(clip), np.int16).astype(np.float32) / 32768
            echo = a_room_echo(narration, late=300)
            out = through(LinearEcho(), narration, echo)
            early = slice(RATE // 2, 2 * RATE)
            down.append(level_db(echo[early]) - level_db(out[early]))
    assert np.mean(down) > 15.5, [round(d, 1) for d in down]


def test_what_it_learnt_outlasts_a_player_talking_over_the_narration():
    narration, player = speechlike(12.0, 22), speechlike(12.0, 23) * 0.5
    echo = a_room_echo(narration, late=300)
    talk = np.zeros_like(player)
    talk[4 * RATE:8 * RATE] = player[4 * RATE:8 * RATE]  # 4 s of double talk
    out = through(LinearEcho(), narration, echo + talk)
    both, after = slice(4 * RATE, 8 * RATE), slice(8 * RATE, int(8.5 * RATE))
    assert abs(level_db(out[both]) - level_db(talk[both])) < 1.0, "the player comes through"
    assert level_db(echo[after]) - level_db(out[after]) > 25, "the echo is still cancelled"


def test_an_echo_that_moved_while_the_narrator_was_silent_is_cancelled_once_followed():
    """The narrator stops for a second and reads on (a track begun again); meanwhile the echo
    came 40 ms later. Until the delay tracker follows, the filter learns against a reference
    out of step; once it has, what it knew before is right again and is what it takes out
    (without going back to it, 5 dB over 0.2–0.5 s after the follow; 80 dB with). The filter's
    first 120 ms after it mix blocks of the reference from before."""
    narration = speechlike(14.0, 24)
    narration[6 * RATE:7 * RATE] = 0.0
    echo = np.concatenate([a_room_echo(narration, late=int(0.08 * RATE))[:7 * RATE],
                           a_room_echo(narration, late=int(0.12 * RATE))[7 * RATE:]])
    canceller = EchoCanceller(played(narration, start=40.0))
    heard, followed = [], None
    for i in range(0, len(echo), 480):
        frame = (echo[i:i + 480] * 32767).astype(np.int16).tobytes()
        heard.append(np.frombuffer(canceller.clean(frame, 40.0 + i / RATE).heard, np.int16))
        if followed is None and i > 7 * RATE and abs(canceller.delay.seconds - 0.12) < 0.003:
            followed = i + 480
    assert followed is not None and followed < 9 * RATE, "the tracker follows the move"
    out = np.concatenate(heard) / 32767
    after = slice(followed + RATE // 5, followed + RATE // 2)
    assert level_db(echo[after]) - level_db(out[after]) > 25
