"""Echo cancellation (narrator/voice/echo.py) on synthetic signals: what the narrator played is
kept in step with the capture, the output → capture delay is found and followed, and the
narrator's voice is taken out of the microphone while a player's voice stays."""

from __future__ import annotations

import numpy as np
import pytest
import soxr

from narrator.voice.echo import (HOLD, RATE, STEP, Cleaned, DelayTracker, EchoCanceller,
                                 OutputReference, SampleClock, estimate_lag)
from narrator.voice.echo_likeness import Recent, coherence
from narrator.voice.meant import ECHO_LIKE

pytest.importorskip("livekit.rtc")


def speechlike(seconds: float, seed: int) -> np.ndarray:
    """Noise in syllable-like bursts with pauses, 16 kHz float32."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    envelope = (np.sin(np.arange(n) / RATE * 2 * np.pi * 2.7 + seed) > -0.2).astype(np.float32)
    return (rng.standard_normal(n) * 0.15 * envelope).astype(np.float32)


def played(signal: np.ndarray, start: float, rate: int = RATE, block: int = 320,
           burst: int = 1) -> OutputReference:
    """A reference as a player fills it: ``block``-sample callbacks, ``burst`` at a time
    (PulseAudio asks in bursts), the first sample heard at ``start``."""
    reference = OutputReference(seconds=30)
    for i in range(0, len(signal), block):
        called = start + (i // (block * burst)) * block * burst / rate
        reference.write("player", signal[i:i + block, None], rate, called, 0.0)
    return reference


def level_db(x: np.ndarray) -> float:
    return 10 * np.log10(np.mean(np.asarray(x, np.float64) ** 2) + 1e-12)


def test_what_was_played_is_read_back_for_the_time_it_was_heard_even_at_another_rate():
    source = speechlike(4.0, 1)
    at_22k = soxr.resample(source, RATE, 22050).astype(np.float32)
    reference = played(at_22k, start=50.0, rate=22050, block=441, burst=4)
    heard = reference.read(51.0, RATE)  # the second second
    lag, likeness = estimate_lag(heard, reference.read(50.5, 2 * RATE), RATE // 2)
    assert likeness > 0.99 and abs(lag) <= 2
    lag, likeness = estimate_lag(heard, source, RATE)
    assert likeness > 0.95 and abs(lag) <= 40  # the resampler's own delay: a few ms


def test_the_last_sample_handed_over_is_heard_when_the_reference_says_though_not_yet_in_it():
    voice = np.ones(2 * 22050, np.float32)  # two seconds at 22.05 kHz, then silence
    reference = played(voice, start=30.0, rate=22050, block=441)
    until = reference.handed_until
    assert until == pytest.approx(32.0, abs=0.002)
    assert reference.read(until - 0.05, 800).min() < 0.5  # the resampler still holds its end
    reference.write("player", np.zeros((2205, 1), np.float32), 22050, 32.0, 0.0)
    ended = np.flatnonzero(reference.read(31.9, 3200) > 0.5)[-1] + 1
    assert 31.9 + ended / RATE == pytest.approx(until, abs=0.002)  # once written, it ends then


def test_two_players_are_mixed_and_nothing_played_reads_as_silence():
    voice, cue = speechlike(1.0, 2), speechlike(1.0, 3)
    reference = played(voice, start=10.0)
    for i in range(0, len(cue), 320):
        reference.write("earcons", cue[i:i + 320, None], RATE, 10.0 + i / RATE, 0.0)
    np.testing.assert_allclose(reference.read(10.0, RATE), voice + cue, atol=1e-6)
    assert not reference.read(20.0, 100).any() and not OutputReference().read(0, 10).any()


def test_a_stream_called_back_in_bursts_gets_contiguous_times_and_follows_lost_audio():
    clock = SampleClock(RATE, output=False)
    times = []
    for burst in range(30):  # three 30 ms blocks handed over together, up to 90 ms late
        for _ in range(3):
            times.append(clock.stamp(burst * 0.09 + 0.09, 480))
    assert np.allclose(np.diff(times[3:]), 0.03)  # from the end of the first burst on
    lost = 30 * 0.09 + 0.09 + 0.5  # then 0.5 s of audio is lost: the blocks come on late
    later = [clock.stamp(lost + k * 0.03, 480) for k in range(100)]
    assert later[-1] - (times[-1] + 100 * 0.03) == pytest.approx(0.5, abs=0.07)  # ± a burst


@pytest.mark.parametrize("delay", [0.02, 0.13, 0.3])
def test_the_output_to_capture_delay_is_found_and_followed_when_it_changes(delay):
    narration = speechlike(12.0, 4)
    reference = played(narration, start=0.0)
    tracker = DelayTracker(reference)
    capture = np.concatenate([np.zeros(int(delay * RATE), np.float32), 0.4 * narration])
    for i in range(0, 6 * RATE, 480):
        tracker.observe(capture[i:i + 480], i / RATE)
    assert tracker.seconds == pytest.approx(delay, abs=0.003)
    later = np.concatenate([np.zeros(int(0.08 * RATE), np.float32), capture])  # the device
    for i in range(6 * RATE, 12 * RATE, 480):  # grew 80 ms slower
        tracker.observe(later[i:i + 480], i / RATE)
    assert tracker.seconds == pytest.approx(delay + 0.08, abs=0.003)


def test_an_echo_stamped_before_it_was_played_is_found_at_the_first_estimate():
    """In PulseAudio's first seconds the capture's stamps run up to 0.63 s ahead of the
    reference's (the bench's rooms: -0.45 to -0.63 s); searched to -0.5 s only, the echo was
    found at the third second, after the clock moved, and the narration's first words came
    through uncancelled."""
    narration = speechlike(4.0, 12)
    tracker = DelayTracker(played(narration, start=0.0))
    capture = 0.4 * narration[int(0.62 * RATE):]
    for i in range(0, int(1.05 * RATE), 480):  # its first estimate: a second of capture
        tracker.observe(capture[i:i + 480], i / RATE)
    assert tracker.found and tracker.seconds == pytest.approx(-0.62, abs=0.003)


def test_a_small_shift_of_the_echo_is_followed_within_a_second_and_a_half():
    """A busy machine's underruns shift the echo by tens of milliseconds every few seconds; the
    canceller is handed the shifted reference soon, or it lets the narrator through."""
    narration = speechlike(10.0, 9)
    reference = played(narration, start=0.0)
    tracker = DelayTracker(reference)
    capture = np.concatenate([np.zeros(int(0.1 * RATE), np.float32), 0.4 * narration])
    for i in range(0, 4 * RATE, 480):
        tracker.observe(capture[i:i + 480], i / RATE)
    assert tracker.seconds == pytest.approx(0.1, abs=0.003)
    shifted = np.concatenate([np.zeros(int(0.03 * RATE), np.float32), capture])  # 30 ms later
    for i in range(4 * RATE, int(5.5 * RATE), 480):
        tracker.observe(shifted[i:i + 480], i / RATE)
    assert tracker.seconds == pytest.approx(0.13, abs=0.003)


def cleaned(canceller: EchoCanceller, mic: np.ndarray, start: float) -> Cleaned:
    """``mic`` through ``canceller`` in 30 ms frames, captured from ``start``: both outputs,
    as float arrays (heard: the linear filter's, or AEC3's where that is used; gate: AEC3's)."""
    out: dict[str, list[np.ndarray]] = {"heard": [], "gate": []}
    for i in range(0, len(mic), 480):
        frame = (mic[i:i + 480] * 32767).astype(np.int16).tobytes()
        got = canceller.clean(frame, start + i / RATE)
        for kind in out:
            out[kind].append(np.frombuffer(getattr(got, kind), np.int16) / 32767)
    return Cleaned(*(np.concatenate(out[kind]) for kind in Cleaned._fields))


def test_a_microphone_that_does_not_hear_the_narrator_is_left_as_it_is():
    """Headphones, or a separate sink: the table's words pass untouched while it reads (AEC3
    would otherwise suppress them as if they were echo)."""
    narration, player = speechlike(12.0, 7), speechlike(12.0, 8) * 0.5
    canceller = EchoCanceller(played(narration, start=200.0))
    for output in cleaned(canceller, player, 200.0):  # what is heard, and the gate
        np.testing.assert_allclose(output, player, atol=2 / 32767)
    assert canceller.delay.deaf  # so the ears take no words of the table for its echo


def test_a_silent_microphone_is_known_deaf_to_the_narrator_only_after_seconds_of_narration():
    narration = speechlike(12.0, 9)
    canceller = EchoCanceller(played(narration, start=300.0))
    silence = np.zeros(12 * RATE, np.float32)
    cleaned(canceller, silence[:RATE], 300.0)
    assert not canceller.delay.deaf  # it may yet hear it: the guards stay on
    cleaned(canceller, silence[RATE:], 301.0)
    assert canceller.delay.deaf


NARRATION_ONLY, BOTH = slice(5 * RATE, 9 * RATE), slice(9 * RATE, 12 * RATE)


def a_room_echo(narration: np.ndarray, late: int) -> np.ndarray:
    """``narration`` as a microphone hears it ``late`` samples after the reference the
    canceller is fed: a direct path and two reflections."""
    room = np.zeros(500, np.float32)
    room[[0, 90, 400]] = [0.5, 0.25, -0.1]
    echo = np.convolve(narration, room)[:len(narration)]
    return np.concatenate([np.zeros(late, np.float32), echo])[:len(narration)]


def a_room() -> tuple[OutputReference, np.ndarray, np.ndarray]:
    """What the narrator played from 100 s on, its echo in a room, and a player speaking
    over it from 9 s on: (reference, echo, player)."""
    narration, player = speechlike(12.0, 5), speechlike(12.0, 6) * 0.5
    reference = played(narration, start=100.0)
    echo = a_room_echo(narration, late=int(0.12 * RATE))
    talk = np.zeros_like(player)
    talk[BOTH] = player[BOTH]
    return reference, echo, talk


def a_player_over_the_narration(kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The room's echo and player, and the canceller's ``kind`` of output: (echo, player,
    output)."""
    reference, echo, talk = a_room()
    canceller = EchoCanceller(reference)
    out = getattr(cleaned(canceller, np.clip(echo + talk, -1, 1), 100.0), kind)
    assert not canceller.delay.deaf
    return echo, talk, out


def likeness(out: np.ndarray, talk: np.ndarray) -> float:
    """How alike the output is to the player's voice while both speak (1: the same)."""
    return estimate_lag(out[BOTH][RATE // 10:], talk[BOTH], RATE // 10)[1]


def test_the_narrators_voice_is_suppressed_at_the_gate_and_a_players_voice_gets_through():
    echo, talk, gate = a_player_over_the_narration("gate")
    assert level_db(echo[NARRATION_ONLY]) - level_db(gate[NARRATION_ONLY]) > 25
    kept = level_db(gate[BOTH]) - level_db(talk[BOTH])
    assert -6 < kept < 3, "the player's voice comes through"
    assert likeness(gate, talk) > 0.6  # the same voice (AEC3 suppresses some of it)


def test_the_recogniser_hears_a_player_over_the_narration_whole_and_the_narrator_faintly():
    """The linear filter takes most of the narrator out and leaves the player's voice as it
    was, where AEC3's suppressor takes part of it away too."""
    echo, talk, heard = a_player_over_the_narration("heard")
    assert level_db(echo[NARRATION_ONLY]) - level_db(heard[NARRATION_ONLY]) > 20
    assert abs(level_db(heard[BOTH]) - level_db(talk[BOTH])) < 1.0
    assert likeness(heard, talk) > 0.95


def test_the_recogniser_hears_the_linear_filter_from_the_first_second_and_nothing_louder():
    """The narrator is found half a second into its narration (a first estimate over half the
    delay tracker's window), and the linear filter, caught up on the narration captured
    before that, has converged: from then on the recogniser hears its output (stop 70: a
    player's "pause" a second into the narration came through AEC3's suppression or as
    captured). Until it converges the recogniser hears AEC3's output, and later never more
    than was captured where the echo stopped coming (it moved, or a speaker was unplugged)
    while the filter still predicts it."""
    narration, talk = speechlike(12.0, 3), speechlike(12.0, 4) * 0.05
    echo = np.concatenate([np.zeros(int(0.05 * RATE), np.float32), 0.5 * narration])
    mic = np.concatenate([echo[:8 * RATE], talk[8 * RATE:]])  # no echo after 8 s
    canceller = EchoCanceller(played(narration, start=50.0))
    frames = [(mic[i:i + 480] * 32767).astype(np.int16).tobytes() for i in range(0, len(mic), 480)]
    outputs, converged = [], []
    for i, frame in enumerate(frames):
        outputs.append(canceller.clean(frame, 50.0 + i * 0.03))
        converged.append(canceller.linear.converged)
    before = [(got, frame) for got, frame, done in zip(outputs, frames, converged) if not done]
    assert all(got.heard is got.gate for got, _ in before)  # one object: Mic.gate is None, and
    # the endpointer judges the frame as the recogniser hears it (denoised, if it is)
    assert any(got.gate != frame for got, frame in before)  # AEC3 was at work
    assert converged[round(0.6 / 0.03)]
    heard = np.concatenate([np.frombuffer(got.heard, np.int16) / 32767 for got in outputs])
    said = slice(int(0.6 * RATE), RATE)
    assert level_db(mic[said]) - level_db(heard[said]) > 20
    steps = [slice(i, i + STEP) for i in range(8 * RATE, 12 * RATE, STEP)]
    assert all(level_db(heard[s]) <= level_db(mic[s]) + 0.01 for s in steps)
    assert any(np.abs(heard[s] - mic[s]).max() <= 1 / 32767 and level_db(mic[s]) > -60
               for s in steps)  # it would have made these louder


def taken(canceller: EchoCanceller, mic: np.ndarray, start: float) -> list[list]:
    """``mic`` through ``canceller.take`` in 30 ms frames captured from ``start``: per frame,
    what was handed on then ((capture time, heard as float) each)."""
    return [[(at, np.frombuffer(got.heard, np.int16) / 32767) for at, got in
             canceller.take((mic[i:i + 480] * 32767).astype(np.int16).tobytes(),
                            start + i / RATE)]
            for i in range(0, len(mic) - 479, 480)]


def test_a_word_over_a_new_microphones_first_second_waits_for_the_filter_and_is_heard_whole():
    """The microphone opens as the narrator reads and a player talks over the first half
    second, before the narrator is found in the capture: those frames used to reach the
    recogniser as captured (the narration at full level over the word, written as the
    narration: the table bench's first "pause" lost in every run). They are held until the
    linear filter has converged, then cancelled with what it learnt, in order, each with its
    capture time."""
    narration = speechlike(6.0, 7)
    player = np.zeros_like(narration)
    word = slice(int(0.25 * RATE), int(0.55 * RATE))
    player[word] = speechlike(6.0, 8)[word] * 0.5
    mic = np.clip(a_room_echo(narration, late=int(0.05 * RATE)) + player, -1, 1)
    canceller = EchoCanceller(played(narration, start=50.0))
    handed = taken(canceller, mic, 50.0)
    first = next(i for i, got in enumerate(handed) if got)
    assert first >= round(0.5 / 0.03) and canceller.linear.converged  # waited for the filter
    assert all(len(got) == 1 for got in handed[first + 1:])  # then each frame as it comes
    times = [at for got in handed for at, _ in got]
    assert times == [50.0 + i * 480 / RATE for i in range(len(handed))]
    heard = np.concatenate([samples for got in handed for _, samples in got])
    before = slice(0, int(0.2 * RATE))  # the narration alone, long before it was found
    assert level_db(mic[before]) - level_db(heard[before]) > 20
    assert abs(level_db(heard[word]) - level_db(player[word])) < 1.0
    as_captured = cleaned(EchoCanceller(played(narration, start=50.0)), mic, 50.0).heard
    assert level_db(mic[before]) - level_db(as_captured[before]) < 1  # what ``clean`` gives


def test_a_microphone_opened_while_the_narrator_is_silent_or_never_hearing_it_waits_for_nothing():
    """Nothing played around the first frame: every frame is handed on as it comes, the
    narration that starts later too. A microphone that does not hear the narrator (headphones)
    gets its first seconds as captured once it is found deaf, well within HOLD."""
    narration, talk = speechlike(6.0, 9), speechlike(6.0, 10) * 0.3
    quiet_first = taken(EchoCanceller(played(narration, start=52.0)),
                        a_room_echo(narration, late=int(2.05 * RATE)), 50.0)
    assert all(len(got) == 1 for got in quiet_first)
    deaf = EchoCanceller(played(narration, start=50.0))
    handed = taken(deaf, talk, 50.0)
    first = next(i for i, got in enumerate(handed) if got)
    assert deaf.delay.deaf and first * 0.03 < HOLD
    heard = np.concatenate([samples for got in handed for _, samples in got])
    assert np.abs(heard - talk[:len(heard)]).max() <= 1 / 32767  # as captured


def through_a_capture_that_grows_later(follow: bool) -> tuple[np.ndarray, np.ndarray, list]:
    """6 s of narration echoed 100 ms late into a microphone whose frames reach the reader
    120 ms later four times in its first 1.4 s (PulseAudio's capture latency grew as the
    narration started; no audio lost), stamped by a ``SampleClock`` as ``Mic`` stamps them and
    cancelled (``follow``: told how far the stamps moved). (echo, gate, per frame: how far the
    stamps had moved and the canceller's delay)."""
    narration = speechlike(6.0, 11)
    canceller = EchoCanceller(played(narration, start=0.0))
    echo = np.concatenate([np.zeros(int(0.1 * RATE), np.float32), 0.5 * narration])
    echo = echo[:len(narration)]
    clock = SampleClock(RATE, output=False)
    gate, delays = [], []
    for i in range(0, len(echo) - 479, 480):
        late = 0.12 * sum(i / RATE >= step for step in (0.3, 0.66, 1.02, 1.38))
        at = clock.stamp(i / RATE + late, 480)  # the frame's callback, less its length
        frame = (echo[i:i + 480] * 32767).astype(np.int16).tobytes()
        got = canceller.clean(frame, at, clock.moved if follow else 0.0)
        gate.append(np.frombuffer(got.gate, np.int16) / 32767)
        delays.append((clock.moved, canceller.delay.seconds if canceller.delay.found else None))
    return echo, np.concatenate(gate), delays


def test_the_narrator_stays_cancelled_while_the_capture_clock_moves_with_its_latency():
    """The stamps move by the latency's steps once the clock has seen only late frames; the
    sound did not move. The canceller's delay moves with them at once. Left to find the echo
    again at its next estimate, it cancelled with the wrong half second of narration: the
    narrator came through, and at the bench the first word said over it was lost with it."""
    echo, gate, delays = through_a_capture_that_grows_later(follow=True)
    assert delays[-1][0] == pytest.approx(0.48, abs=0.01)
    found = [(moved, delay) for moved, delay in delays if delay is not None]
    assert found[0][0] == 0.0  # found before the stamps moved; then it kept to the echo
    assert all(delay == pytest.approx(0.1 + moved, abs=0.003) for moved, delay in found)
    quarters = [slice(int(t * RATE), int((t + 0.25) * RATE)) for t in np.arange(1.0, 5.75, 0.25)]
    taken = [level_db(echo[q]) - level_db(gate[q]) for q in quarters]
    assert min(taken) > 24
    _, unfollowed, _ = through_a_capture_that_grows_later(follow=False)
    assert min(level_db(echo[q]) - level_db(unfollowed[q]) for q in quarters) < 20


def test_the_narrators_echo_leaking_through_is_told_from_a_player_by_its_coherence():
    """What leaks past the cancellers is still a linear function of what was played; a
    player's voice is not. The ears drop an unsure word that is the leak (``ECHO_LIKE``)."""
    reference, echo, talk = a_room()
    canceller = EchoCanceller(reference)
    mic = echo + talk
    moved = slice(int(7.5 * RATE), None)  # someone leans in: a new reflection the filter has
    mic[moved] += 0.6 * np.roll(echo, int(0.004 * RATE))[moved]  # yet to learn leaks through
    mic = np.clip(mic, -1, 1)
    cleaned(canceller, mic[:9 * RATE], 100.0)
    echo_alone = canceller.recent.likeness(107.6, 108.4)
    cleaned(canceller, mic[9 * RATE:], 109.0)
    player = canceller.recent.likeness(110.2, 111.0)
    assert echo_alone >= ECHO_LIKE > player, (echo_alone, player)
    # asked 3 s late (the ears decode behind the capture): the same answer
    assert canceller.recent.likeness(107.6, 108.4) == pytest.approx(echo_alone)
    assert canceller.recent.likeness(90.0, 99.0) is None  # before the narrator was heard


def test_what_was_heard_is_kept_ten_seconds_and_a_silent_reference_tells_nothing():
    recent, frame = Recent(), speechlike(0.03, 1)
    for i in range(400):  # 12 s of 30 ms frames, the narrator silent from 6 s on
        recent.keep(100.0 + i * 0.03, frame, frame if i < 200 else np.zeros_like(frame))
    assert recent.likeness(100.0, 101.0) is None  # 11 s before the last frame: forgotten
    assert recent.likeness(103.0, 104.0) == pytest.approx(1.0)
    assert recent.likeness(108.0, 109.0) is None  # nothing played then


def test_coherence_is_whole_for_a_sound_with_itself_and_nothing_for_a_sound_too_short():
    _, _, talk = a_room()
    assert coherence(talk[BOTH], talk[BOTH]) == pytest.approx(1.0)
    assert coherence(talk[BOTH] * 0.3, talk[BOTH]) == pytest.approx(1.0)  # any level
    assert coherence(talk[BOTH][:400], talk[BOTH][:400]) == 0.0  # under one 32 ms window
