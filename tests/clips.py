"""Test clips made on the spot: a phrase spoken by a TTS voice, 16 kHz mono, optionally noisy.

Every clip is named by what it should yield (``next``, ``goto 7``, ``dice 4 9``, ``null`` for
table talk), so a test or the bench reads the expectation from the clip itself. Voices are
flite's slt, rms, awb and kal16, a few espeak-ng voices and Festival's US slt HTS voice
(``text2wave``); TUNE_VOICES are others, kept for setting thresholds so that what is reported
is measured on voices the thresholds never saw. Noise is pink noise, or babble (three other
voices reading table talk at once), mixed at a chosen signal-to-noise ratio. sox runs in
repeatable mode (-R: no random dither or noise seed), so a clip is the same on every run and
so is every count a test asserts.
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
FESTIVAL_VOICES = ("slt-hts",)
VOICES = (tuple(f"flite:{v}" for v in FLITE_VOICES) + tuple(f"espeak:{v}" for v in ESPEAK_VOICES)
          + tuple(f"festival:{v}" for v in FESTIVAL_VOICES))
#: voices for tuning thresholds only (never the ones a bench figure is reported on)
TUNE_VOICES = ("flite:kal", "espeak:en-us+m3", "espeak:en-gb-scotland", "espeak:en-029")
BABBLE_VOICES = ("espeak:en-gb-x-rp", "flite:awb_time", "espeak:en-us+f2")
#: Festival voice names for text2wave
FESTIVAL = {"slt-hts": "voice_cmu_us_slt_arctic_hts"}
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

#: what people say at a table that is not meant for the app; many hold a command word inside
#: a longer sentence ("next round's on me", "yes, but only after lunch")
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
    "next round's on me",
    "yes, but only after lunch",
    "no, I meant the other door",
    "pause the music for a second, would you",
    "stop kicking the table",
    "help me find my pencil",
    "repeat after me, I will not touch the idol",
    "go back and get the rope",
    "heads up, the pizza is here",
    "tails never fails, that's what my uncle says",
    "four of us and nine snacks, that works",
    "a six and a six would be amazing right now",
    "she rolled a twelve last time, remember",
    "who has the dice",
    "can somebody open a window",
    "I'm going to grab a drink, anyone want one",
    "what time do we have to finish tonight",
    "that curse was brutal last session",
    "does the merit track go up to ten",
    "I pass, I've got nothing useful to add",
    "the boon she gave us is still on my sheet",
    "let's keep going until the pizza arrives",
    "slow and steady wins the race",
    "faster than a speeding bullet",
    "status effects go on the left side of the card",
    "okay so where were we",
    "my cat just walked across the keyboard",
    "did anyone see the game last night",
    "I love this part of the story",
    "quit hogging the snacks",
    "no successes again, this dice hates me",
    "five minutes break, please",
)

@dataclass(frozen=True)
class Clip:
    """A generated WAV and what it should yield (``expected`` is None for table talk)."""

    path: Path
    phrase: str
    expected: str | None
    voice: str
    snr_db: float | None


def avx2_only() -> bool:
    """Whether this CPU lacks AVX-512, where CTranslate2's int8 kernels score a few clips
    otherwise (stop 97's machine: "one and twelve" written "twelve twelve")."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return " avx2" in flags and " avx512f" not in flags


def avx512_heard():
    """pytest's mark for a test whose clip is heard as asserted on CPUs with AVX-512, where
    the issue's runs were: an expected failure on an AVX2-only one (``avx2_only``)."""
    import pytest  # the bench imports this module without pytest
    return pytest.mark.xfail(avx2_only(), strict=False,
                             reason="heard otherwise on an AVX2-only CPU")


def missing_tools(voices=VOICES) -> list[str]:
    """The programs clip generation (in ``voices``) needs that are not installed."""
    needed = {"sox"} | {{"flite": "flite", "espeak": "espeak-ng",
                         "festival": "text2wave"}[v.split(":")[0]] for v in voices}
    return sorted(t for t in needed if shutil.which(t) is None)


def _speak(text: str, voice: str, out: Path) -> None:
    engine, name = voice.split(":", 1)
    if engine == "flite":
        cmd, given = ["flite", "-voice", name, "-t", text, "-o", str(out)], None
    elif engine == "festival":
        cmd, given = ["text2wave", "-eval", f"({FESTIVAL[name]})", "-o", str(out)], text
    else:
        cmd, given = ["espeak-ng", "-v", name, "-w", str(out), text], None
    subprocess.run(cmd, input=given, text=True, check=True, capture_output=True, timeout=60)


def _to_16k(src: Path, dst: Path, pad: float, retold: tuple[float, int] | None) -> None:
    said = ["tempo", "-s", f"{retold[0]:g}", "pitch", str(retold[1])] if retold else []
    subprocess.run(["sox", "-R", str(src), "-r", str(RATE), "-c", "1", "-b", "16", str(dst),
                    *said, "pad", str(pad), str(pad)], check=True, capture_output=True,
                   timeout=60)


def _pink(seconds: float, out: Path) -> np.ndarray:
    subprocess.run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(out),
                    "synth", f"{seconds:.3f}", "pinknoise", "vol", "0.3"],
                   check=True, capture_output=True, timeout=60)
    noise, _ = sf.read(out, dtype="float64")
    return noise


def babble(folder: Path, seconds: float) -> np.ndarray:
    """Three voices reading table talk at once, looped to ``seconds``."""
    tracks = []
    for i, voice in enumerate(BABBLE_VOICES):
        lines = TABLE_TALK[i::len(BABBLE_VOICES)]
        pcm = np.concatenate([sf.read(make_clip(folder / "babble", line, None, voice).path,
                                      dtype="float64")[0] for line in lines])
        tracks.append(pcm)
    length = min(map(len, tracks))
    mixed = sum(t[:length] for t in tracks)
    return np.resize(mixed, int(seconds * RATE))


def speech_power(samples: np.ndarray) -> float:
    """Mean power of a clip where there is speech (its silent ends left out)."""
    loud = np.abs(samples) > 0.02 * np.abs(samples).max()
    return float(np.mean(samples[loud] ** 2))


def at_snr(noise: np.ndarray, power: float, snr_db: float) -> np.ndarray:
    """``noise`` scaled so that speech of mean ``power`` is ``snr_db`` over it."""
    return noise * np.sqrt(power / (np.mean(noise ** 2) * 10 ** (snr_db / 10)))


def noise_of(kind: str, seconds: float, scratch: Path) -> np.ndarray:
    """``seconds`` of ``kind`` ("pink" or "babble"), made beside ``scratch`` (a file name used
    and removed)."""
    if kind == "babble":
        return babble(scratch.parent, seconds)
    noise = _pink(seconds, scratch)
    scratch.unlink()
    return noise


def add_noise(clean: Path, out: Path, snr_db: float, kind: str = "pink") -> None:
    """Mix pink noise or babble into ``clean`` so speech power / noise power is ``snr_db``."""
    speech, _ = sf.read(clean, dtype="float64")
    noise = noise_of(kind, len(speech) / RATE, out.with_suffix(".noise.wav"))
    noise = at_snr(noise, speech_power(speech), snr_db)
    mixed = np.clip(speech + np.resize(noise, len(speech)), -1, 1)
    sf.write(out, mixed, RATE, subtype="PCM_16")


def make_clip(folder: Path, phrase: str, expected: str | None, voice: str,
              snr_db: float | None = None, pad: float = 0.4, noise: str = "pink",
              retold: tuple[float, int] | None = None) -> Clip:
    """Speak ``phrase`` with ``voice`` into ``folder`` (cached by content); with ``snr_db``,
    ``noise`` (pink or babble) is mixed in; ``retold`` (tempo, cents): said again, as a
    person repeats for a listener who missed it (slower, in another pitch)."""
    folder.mkdir(parents=True, exist_ok=True)
    kind = ("" if noise == "pink" else f"|{noise}") + (f"|{retold}" if retold else "")
    key = hashlib.sha1(f"{phrase}|{voice}|{snr_db}|{pad}{kind}".encode()).hexdigest()[:10]
    label = (expected or "null").replace(" ", "_")
    path = folder / f"{label}--{voice.replace(':', '-').replace('+', '-')}--{key}.wav"
    if not path.exists():
        raw = folder / f"{key}.raw.wav"
        clean = folder / f"{key}.clean.wav"
        _speak(phrase, voice, raw)
        _to_16k(raw, clean, pad, retold)
        if snr_db is None:
            clean.rename(path)
        else:
            add_noise(clean, path, snr_db, noise)
            clean.unlink()
        raw.unlink()
    return Clip(path, phrase, expected, voice, snr_db)


def spoken(clip: Clip) -> bytes:
    """A clip's audio (16 kHz int16) without the quiet before and after the words."""
    samples = (sf.read(clip.path, dtype="int16")[0]).reshape(-1)
    loud = np.flatnonzero(np.abs(samples) > 0.05 * np.abs(samples).max())
    return samples[loud[0]:loud[-1] + 1].tobytes()


def command_clips(folder: Path, voices=VOICES, snr_db: float | None = None) -> list[Clip]:
    """Every command phrase in every voice."""
    return [make_clip(folder, phrase, expected, v, snr_db)
            for v in voices for expected, phrase in COMMANDS]


def talk_clips(folder: Path, voices=VOICES, snr_db: float | None = None) -> list[Clip]:
    """Every table-talk phrase in every voice; each should yield no command."""
    return [make_clip(folder, phrase, None, v, snr_db) for v in voices for phrase in TABLE_TALK]
