"""The microphone's frames (narrator/voice/mic.py Framer, Mic): captured in 10 ms blocks, handed
on as whole 30 ms frames, each with when it was captured, none lost or out of order."""

import os
import subprocess
import time

import numpy as np
import pytest

from audio_room import audio_room, missing_tools
from narrator.voice.mic import BLOCK, FRAME, RATE, Framer, Mic, rms


def block(value: int, samples: int = BLOCK) -> bytes:
    return np.full(samples, value, np.int16).tobytes()


def test_three_blocks_make_one_frame_stamped_when_its_first_sample_was_captured():
    framer = Framer()
    assert framer.add(10.00, block(1)) == []
    assert framer.add(10.01, block(2)) == []
    (at, frame, _), = framer.add(10.02, block(3))
    assert at == 10.00
    assert np.array_equal(np.frombuffer(frame, np.int16),
                          np.repeat([1, 2, 3], BLOCK).astype(np.int16))


def test_frames_follow_on_whatever_size_the_blocks_come_in():
    framer = Framer()
    got = framer.add(5.0, block(7, FRAME + FRAME // 2)) + framer.add(5.045, block(8, FRAME + FRAME // 2))
    assert [at for at, _, _ in got] == pytest.approx([5.0, 5.03, 5.06])
    samples = np.frombuffer(b"".join(f for _, f, _ in got), np.int16)
    assert list(samples[:FRAME + FRAME // 2]) == [7] * (FRAME + FRAME // 2)
    assert list(samples[FRAME + FRAME // 2:]) == [8] * (FRAME + FRAME // 2)


def test_after_lost_audio_the_frame_begins_again_with_the_next_block():
    framer = Framer()
    framer.add(1.00, block(1))
    framer.add(1.01, block(1))
    assert framer.add(1.50, block(2), gap=True) == []  # two blocks of the first were dropped
    framer.add(1.51, block(2))
    (at, frame, _), = framer.add(1.52, block(2))
    assert at == 1.50 and set(np.frombuffer(frame, np.int16)) == {2}


def test_a_frame_carries_the_clock_moves_of_its_own_time_not_of_its_last_block():
    """The capture clock's stamps moved 120 ms on a frame's last block (PulseAudio's latency
    grew; no sound lost). The frame keeps its first block's time, so it goes to the echo
    canceller with the moves made by then: with the later one, the canceller read the
    narration 120 ms off for it, and an estimate of the echo's delay in it undid the move for
    half a second (the narrator came through whole; docs/barge-in.md, stop 47)."""
    framer = Framer()
    framer.add(3.00, block(1), moved=0.0)
    framer.add(3.01, block(1), moved=0.0)
    (at, _, moved), = framer.add(3.14, block(1), moved=0.12)
    assert (at, moved) == (3.00, 0.0)
    framer.add(3.15, block(2), moved=0.12)
    framer.add(3.16, block(2), moved=0.12)
    (at, _, moved), = framer.add(3.17, block(2), moved=0.12)
    assert (at, moved) == (3.15, 0.12)


@pytest.mark.audio
@pytest.mark.skipif(bool(missing_tools()), reason=f"PulseAudio tools missing: {missing_tools()}")
def test_a_sound_played_in_the_room_reaches_the_ears_in_whole_frames_captured_30ms_apart(tmp_path):
    beep = tmp_path / "beep.wav"
    subprocess.run(["sox", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(beep),
                    "synth", "0.3", "sine", "660", "vol", "0.5"], check=True)
    with audio_room() as env:
        mic = Mic("pulse")
        try:
            frames, times = [], []
            began = time.monotonic()
            played = False
            while time.monotonic() - began < 3.0:
                if not played and time.monotonic() - began > 1.0:
                    subprocess.run(["paplay", str(beep)], env={**os.environ, **env},
                                   check=True, timeout=30)
                    played = True
                frame = mic.read(timeout=0.1)
                if frame is not None:
                    frames.append(frame)
                    times.append(mic.captured_until)
        finally:
            mic.close()
    assert frames and {len(f) for f in frames} == {2 * FRAME}
    steps = np.diff(times)
    assert np.median(steps) == pytest.approx(FRAME / RATE, abs=0.001)
    assert (steps > 0).all()  # in order
    loud = [i for i, f in enumerate(frames) if rms(f) > 3000]
    assert 8 <= len(loud) <= 12  # the 0.3 s beep, whole: ten frames, give or take its edges
    assert loud == list(range(loud[0], loud[-1] + 1))  # none lost inside it


class SlowCanceller:
    """An echo canceller slower than the sound (``seconds`` a frame), which counts the frames it
    cleans, and fails from its ``fail_after``-th on (livekit's, torn down, asserts)."""

    def __init__(self, seconds: float = 0.0, fail_after: int | None = None) -> None:
        self.seconds, self.fail_after, self.cleaned = seconds, fail_after, 0

    def take(self, frame: bytes, at: float, moved: float) -> list[tuple[float, tuple]]:
        self.cleaned += 1
        if self.fail_after is not None and self.cleaned >= self.fail_after:
            raise AssertionError("handle not found")
        time.sleep(self.seconds)
        return [(at, (frame, frame))]


def read_for(mic: Mic, seconds: float, beep_env: dict | None = None, beep=None) -> list[bytes]:
    frames, began, played = [], time.monotonic(), False
    while time.monotonic() - began < seconds:
        if beep_env is not None and not played and time.monotonic() - began > 1.0:
            subprocess.run(["paplay", str(beep)], env={**os.environ, **beep_env}, check=True,
                           timeout=30)
            played = True
        frame = mic.read(timeout=0.1)
        if frame is not None:
            frames.append(frame)
    return frames


@pytest.mark.audio
@pytest.mark.skipif(bool(missing_tools()), reason=f"PulseAudio tools missing: {missing_tools()}")
def test_closing_the_microphone_stops_its_echo_canceller_with_frames_still_waiting():
    """At a session's end the canceller may be behind (a loaded machine); the frames it has
    not cleaned are left, not cleaned on after the program began tearing livekit down (one
    was: a traceback printed after "Session saved")."""
    canceller = SlowCanceller(seconds=0.2)
    with audio_room():
        mic = Mic("pulse", echo=canceller)
        try:
            frames = read_for(mic, 2.5)
        finally:
            mic.close()
        cleaned = canceller.cleaned
        time.sleep(1.0)
    assert frames and cleaned < 20  # it was behind: over 40 frames captured in 2.5 s
    assert canceller.cleaned == cleaned


@pytest.mark.audio
@pytest.mark.skipif(bool(missing_tools()), reason=f"PulseAudio tools missing: {missing_tools()}")
def test_an_echo_canceller_that_fails_leaves_the_table_heard_and_says_so(tmp_path, capfd):
    beep = tmp_path / "beep.wav"
    subprocess.run(["sox", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(beep),
                    "synth", "0.3", "sine", "660", "vol", "0.5"], check=True)
    canceller = SlowCanceller(fail_after=5)
    with audio_room() as env:
        mic = Mic("pulse", echo=canceller)
        try:
            frames = read_for(mic, 3.0, env, beep)
        finally:
            mic.close()
    assert canceller.cleaned == 5  # not asked again once it failed
    assert sum(rms(f) > 3000 for f in frames) >= 8  # the beep, heard as captured
    said = capfd.readouterr().err
    assert said.count("echo cancellation stopped (AssertionError: handle not found)") == 1
