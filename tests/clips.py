"""Test clips made on the spot: a phrase spoken by a TTS voice, 16 kHz mono, optionally noisy.

Every clip is named by what it should yield (``next``, ``goto 7``, ``dice 4 9``, ``null`` for
table talk), so a test or the bench reads the expectation from the clip itself. Voices are
flite's slt, rms, awb and kal16 and a few espeak-ng voices; noise is pink noise mixed by sox at
a chosen signal-to-noise ratio. sox runs in repeatable mode (-R: no random dither or noise
seed), so a clip is the same on every run and so is every count a test asserts.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf

FLITE_VOICES = ("slt", "rms", "awb", "kal16")
ESPEAK_VOICES = ("en-us", "en-gb", "en-us+f3")
VOICES = tuple(f"flite:{v}" for v in FLITE_VOICES) + tuple(f"espeak:{v}" for v in ESPEAK_VOICES)
RATE = 16000

#: (expected command, phrase a player says). Every command form of ``narrator hear``.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("pause", "pause"), ("resume", "resume"), ("next", "next"), ("repeat", "repeat"),
    ("back", "go back"), ("help", "help"), ("status", "status"), ("yes", "yes"), ("no", "no"),
    ("roll", "roll for me"), ("slower", "slower"), ("faster", "faster"), ("heads", "heads"),
    ("tails", "tails"), ("merit", "merit"), ("pass", "pass"), ("curse", "curse"),
    ("boon", "boon"), ("goto 7", "go to track seven"), ("goto 12", "go to track twelve"),
    ("successes 3", "three successes"), ("successes 0", "no successes"),
    ("dice 4 9", "four and nine"), ("dice 6 6", "a six and a six"),
    ("dice 2 7 11", "two, seven and eleven"), ("dice 5", "five"),
)

#: what people say at a table that is not meant for the app
TABLE_TALK: tuple[str, ...] = (
    "next time we should bring snacks",
    "three guys come out of the alley",
    "I think the contact owes her money",
    "can you pass the chips",
    "wait, who is playing the courier",
    "my spy hides behind the curtain",
    "that was a great session last week",
    "let me check my character sheet",
    "the guards are coming up the stairs",
    "I would rather not go back there",
    "roll initiative everybody",
    "we need a plan before we go in",
)


@dataclass(frozen=True)
class Clip:
    """A generated WAV and what it should yield (``expected`` is None for table talk)."""

    path: Path
    phrase: str
    expected: str | None
    voice: str
    snr_db: float | None


def missing_tools() -> list[str]:
    """The programs clip generation needs that are not installed."""
    return [t for t in ("flite", "espeak-ng", "sox") if shutil.which(t) is None]


def _speak(text: str, voice: str, out: Path) -> None:
    engine, name = voice.split(":", 1)
    if engine == "flite":
        cmd = ["flite", "-voice", name, "-t", text, "-o", str(out)]
    else:
        cmd = ["espeak-ng", "-v", name, "-w", str(out), text]
    subprocess.run(cmd, check=True, capture_output=True, timeout=60)


def _to_16k(src: Path, dst: Path, pad: float) -> None:
    subprocess.run(["sox", "-R", str(src), "-r", str(RATE), "-c", "1", "-b", "16", str(dst),
                    "pad", str(pad), str(pad)], check=True, capture_output=True, timeout=60)


def add_noise(clean: Path, out: Path, snr_db: float) -> None:
    """Mix pink noise into ``clean`` so speech power / noise power is ``snr_db``."""
    speech, _ = sf.read(clean, dtype="float64")
    seconds = len(speech) / RATE
    noise_file = out.with_suffix(".noise.wav")
    subprocess.run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(noise_file),
                    "synth", f"{seconds:.3f}", "pinknoise", "vol", "0.3"],
                   check=True, capture_output=True, timeout=60)
    noise, _ = sf.read(noise_file, dtype="float64")
    loud = np.abs(speech) > 0.02 * np.abs(speech).max()  # speech power where there is speech
    speech_power = float(np.mean(speech[loud] ** 2))
    noise_power = float(np.mean(noise ** 2))
    gain = np.sqrt(speech_power / (noise_power * 10 ** (snr_db / 10)))
    subprocess.run(["sox", "-R", "-m", "-v", "1", str(clean), "-v", f"{gain:.6f}", str(noise_file),
                    str(out)], check=True, capture_output=True, timeout=60)
    noise_file.unlink()


def make_clip(folder: Path, phrase: str, expected: str | None, voice: str,
              snr_db: float | None = None, pad: float = 0.4) -> Clip:
    """Speak ``phrase`` with ``voice`` into ``folder`` (cached by content); noisy if ``snr_db``."""
    folder.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha1(f"{phrase}|{voice}|{snr_db}|{pad}".encode()).hexdigest()[:10]
    label = (expected or "null").replace(" ", "_")
    path = folder / f"{label}--{voice.replace(':', '-').replace('+', '-')}--{key}.wav"
    if not path.exists():
        raw = folder / f"{key}.raw.wav"
        clean = folder / f"{key}.clean.wav"
        _speak(phrase, voice, raw)
        _to_16k(raw, clean, pad)
        if snr_db is None:
            clean.rename(path)
        else:
            add_noise(clean, path, snr_db)
            clean.unlink()
        raw.unlink()
    return Clip(path, phrase, expected, voice, snr_db)


def command_clips(folder: Path, voices=VOICES, snr_db: float | None = None) -> list[Clip]:
    """Every command phrase in every voice."""
    return [make_clip(folder, phrase, expected, v, snr_db)
            for v in voices for expected, phrase in COMMANDS]


def talk_clips(folder: Path, voices=VOICES, snr_db: float | None = None) -> list[Clip]:
    """Every table-talk phrase in every voice; each should yield no command."""
    return [make_clip(folder, phrase, None, v, snr_db) for v in voices for phrase in TABLE_TALK]
