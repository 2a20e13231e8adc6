"""The linear echo filter (narrator/voice/echo.py, ``LinearEcho``): what the recogniser hears
over the narration. It must learn the echo within a second of narration (a table's first word
comes early) and keep what it learnt through someone talking over it."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_what_it_learnt_outlasts_a_player_talking_over_the_narration():
    narration, player = speechlike(12.0, 22), speechlike(12.0, 23) * 0.5
    echo = a_room_echo(narration, late=300)
    talk = np.zeros_like(player)
    talk[4 * RATE:8 * RATE] = player[4 * RATE:8 * RATE]  # 4 s of double talk
    out = through(LinearEcho(), narration, echo + talk)
    both, after = slice(4 * RATE, 8 * RATE), slice(8 * RATE, int(8.5 * RATE))
    assert abs(level_db(out[both]) - level_db(talk[both])) < 1.0, "the player comes through"
    assert level_db(echo[after]) - level_db(out[after]) > 25, "the echo is still cancelled"
