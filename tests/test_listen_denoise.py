"""Noise suppression (RNNoise) on real generated speech: the room's noise goes down, the voice
stays, a quiet room passes untouched, and a stream cleaned frame by frame has no seams."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import clips
from narrator.voice.denoise import STEP, Denoiser, clean_whole, make_denoiser
from narrator.voice.hear import read_pcm

pytestmark = [
    pytest.mark.audio,  # synthesizes clips and decodes them
    pytest.mark.skipif(bool(clips.missing_tools()),
                       reason=f"needs {', '.join(clips.missing_tools())}"),
    pytest.mark.skipif(importlib.util.find_spec("pyrnnoise") is None,
                       reason="needs the denoise extra (pip install '.[denoise]')"),
]
PAD = 0.4  # seconds of room before and after the words (clips.make_clip)


def power_db(samples: np.ndarray) -> float:
    return 10 * np.log10(np.mean(samples.astype(np.float64) ** 2) + 1e-9)


def whole_steps(pcm: bytes) -> bytes:
    return pcm[:len(pcm) - len(pcm) % (2 * STEP)]


@pytest.fixture(scope="module")
def noisy_next(tmp_path_factory):
    clip = clips.make_clip(tmp_path_factory.mktemp("denoise"), "go to track seven", "goto 7",
                           "flite:slt", snr_db=10, pad=PAD)
    return whole_steps(read_pcm(clip.path))


def test_noise_drops_by_more_than_15_db_and_the_voice_by_less_than_3(noisy_next):
    before = np.frombuffer(noisy_next, dtype=np.int16)
    after = np.frombuffer(Denoiser().clean(noisy_next), dtype=np.int16)
    room = slice(int(0.1 * clips.RATE), int((PAD - 0.05) * clips.RATE))  # noise only
    words = slice(int(PAD * clips.RATE), len(before) - int(PAD * clips.RATE))
    assert power_db(before[room]) - power_db(after[room]) > 15
    assert power_db(before[words]) - power_db(after[words]) < 3


def test_a_stream_cleaned_in_30_ms_frames_equals_the_whole_clip_cleaned(noisy_next):
    frames = [noisy_next[i:i + 960] for i in range(0, len(noisy_next), 960)]
    streamed = Denoiser()
    assert b"".join(streamed.clean(f) for f in frames) == Denoiser().clean(noisy_next)


def test_a_quiet_room_passes_untouched(tmp_path):
    clean = whole_steps(read_pcm(clips.make_clip(tmp_path, "next", "next", "flite:rms").path))
    assert Denoiser().clean(clean) == clean


def test_a_whole_utterance_is_cleaned_only_when_the_room_is_noisy(noisy_next, tmp_path):
    """Whisper's second opinion (narrator/voice/whisper.py) needs to know whether there was
    noise to take out: a quiet clip gives None, a noisy one its cleaned audio."""
    clean = read_pcm(clips.make_clip(tmp_path, "next", "next", "flite:rms").path)
    assert clean_whole(clean) is None
    cleaned = clean_whole(noisy_next + b"\0\0")  # a last piece under 10 ms is dropped
    assert cleaned == Denoiser().clean(noisy_next)


def test_one_denoiser_cleans_each_utterance_as_a_fresh_one_would(noisy_next, tmp_path):
    """Whisper keeps one denoiser for its second opinions: what it cleaned before (another
    utterance, another room) leaves no trace on the next one, and it stays open."""
    other = whole_steps(read_pcm(clips.make_clip(tmp_path, "help", "help", "espeak:en-us",
                                                 snr_db=5).path))
    fresh = Denoiser().clean(noisy_next)
    kept = Denoiser()
    assert clean_whole(other, kept) is not None
    assert clean_whole(noisy_next, kept) == fresh
    assert clean_whole(noisy_next, kept) == fresh


def test_audio_not_in_whole_10_ms_pieces_is_refused():
    with pytest.raises(ValueError, match="10 ms"):
        Denoiser().clean(b"\0\0" * (STEP + 1))


def test_no_denoise_setting_means_no_denoiser():
    assert make_denoiser(False) is None
    assert isinstance(make_denoiser(True), Denoiser)
