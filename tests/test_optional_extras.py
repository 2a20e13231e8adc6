"""The core install runs without the optional extras: no RNNoise (denoise) or vosk means a
message and the app goes on; scipy is never needed; narrator models says what is missing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from narrator.voice import asr, denoise, models

real_find_spec = importlib.util.find_spec


@pytest.fixture
def without(monkeypatch):
    """Make the named top-level packages look uninstalled."""
    def hide(*names: str) -> None:
        monkeypatch.setattr(importlib.util, "find_spec",
                            lambda name, *a: None if name in names else real_find_spec(name, *a))
        denoise._library.cache_clear()
    yield hide
    denoise._library.cache_clear()


def test_without_pyrnnoise_models_says_how_to_add_it(without):
    without("pyrnnoise")
    [line] = [line for line in models.report() if line.startswith("noise suppression")]
    assert "noise suppression: not installed" in line and "pip install 'narrator[denoise]'" in line


def test_without_pyrnnoise_listening_goes_on_raw(without, capsys):
    without("pyrnnoise")
    assert denoise.make_denoiser(True) is None
    assert "no noise suppression" in capsys.readouterr().err


def test_without_vosk_the_vosk_engine_falls_back_to_whisper(without, capsys):
    without("vosk")
    assert type(asr.make_recognizer("vosk")).__name__ == "Whisper"
    assert "pip install 'narrator[vosk]'" in capsys.readouterr().err
    assert any("vosk: not installed" in line for line in models.report())


def test_scipy_is_not_imported_by_the_app_or_its_noise_filter():
    code = ("import sys, narrator.cli, narrator.voice.denoise, narrator.voice.listener; "
            "print('scipy' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_a_recording_is_resampled_for_the_speaker_without_scipy():
    """scipy is no dependency: a recorded track at 44.1 kHz is brought to the stream's rate all
    the same (scipy is made unimportable here, as on a machine that lacks it)."""
    code = ("import sys, numpy as np; sys.modules['scipy'] = None; "
            "from narrator.voice.player import Clip; "
            "tone = np.sin(np.arange(44100) * 2 * np.pi * 440 / 44100)[:, None]; "
            "clip = Clip(tone.astype(np.float32), 44100).at(22050); "
            "spectrum = np.abs(np.fft.rfft(clip.samples[:, 0])); "
            "print(clip.samplerate, len(clip.samples), round(np.fft.rfftfreq(len(clip.samples), 1 / 22050)[spectrum.argmax()]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.stdout.split() == ["22050", "22050", "440"], result.stderr
