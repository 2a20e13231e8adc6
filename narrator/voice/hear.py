"""`narrator hear FILE.wav ...`: what the recogniser makes of recorded clips, one JSON line each.

Each file is one utterance, decoded under the full command grammar (or, with a game, under the
controls plus what that game asks for first), cleaned of noise and judged exactly as the live
ears do.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import numpy as np
import soundfile as sf

from narrator.events import Continue, Control, Dice, Line, Number, Successes, Word
from narrator.understand import (
    AcceptContinue, AcceptDice, AcceptSuccesses, AcceptWords, Expectation, understand,
)
from narrator.voice import grammar as grammars
from narrator.voice.asr import RATE, Recognizer, decode
from narrator.voice.denoise import STEP, make_denoiser
from narrator.voice.listener import judge

GAME_WORDS = ("heads", "tails", "merit", "pass", "curse", "boon")
#: every command form: controls, "next", game words, up to 12 successes, 1 to 3 faces of a d12
FULL = Expectation(Line("hear.any"), (AcceptContinue(), AcceptWords(GAME_WORDS),
                                      AcceptSuccesses(12), AcceptDice(12, 1, 3)))


def expectation_for(game: str | None) -> Expectation:
    """The full command grammar, or the first thing ``game`` asks for."""
    if game is None:
        return FULL
    from narrator.rules import registry

    rules = registry.get(game).rules
    return rules.expects(rules.start(dict(rules.options)).state)


def command_of(meaning) -> str | None:
    """The command a meaning stands for, in `narrator hear` form ("goto 7", "dice 4 9")."""
    if isinstance(meaning, Continue):
        return "next"
    if isinstance(meaning, Control):
        return f"goto {meaning.arg}" if meaning.name == "goto" else meaning.name
    if isinstance(meaning, Dice):
        return "dice " + " ".join(map(str, meaning.faces))
    if isinstance(meaning, Successes):
        return f"successes {meaning.count}"
    if isinstance(meaning, Word):
        return meaning.word if meaning.number is None else f"{meaning.word} {meaning.number}"
    if isinstance(meaning, Number):
        return f"number {meaning.value}"
    return None


def read_pcm(path: Path) -> bytes:
    """A sound file as 16 kHz mono int16 (first channel, linearly resampled if need be)."""
    data, rate = sf.read(str(path), dtype="float32", always_2d=True)
    samples = data[:, 0]
    if rate != RATE:
        length = int(len(samples) * RATE / rate)
        samples = np.interp(np.linspace(0, len(samples) - 1, length),
                            np.arange(len(samples)), samples)
    return (np.clip(samples, -1, 1) * 32767).astype(np.int16).tobytes()


def hear_file(recognizer: Recognizer, path: Path, expectation: Expectation,
              denoise: bool = True) -> dict:
    """One clip's JSON record: file, text heard, command (or None), confidence, ms.

    With ``denoise`` the clip goes through a fresh Denoiser first, as the microphone does."""
    grammar = grammars.build(expectation, recognizer.known)
    pcm = read_pcm(path)
    denoiser = make_denoiser(denoise)
    if denoiser is not None:
        pcm = denoiser.clean(pcm[:len(pcm) - len(pcm) % (2 * STEP)])
        denoiser.close()
    begin = time.perf_counter()
    heard = decode(recognizer, grammar, pcm)
    ms = (time.perf_counter() - begin) * 1000
    text = judge(heard, grammar, expectation)
    command = command_of(understand(text, expectation)) if text else None
    return {"file": str(path), "text": heard.text, "command": command,
            "confidence": heard.confidence, "ms": round(ms, 1)}


def hear_files(recognizer: Recognizer, paths: list[Path], game: str | None,
               denoise: bool = True) -> Iterator[dict]:
    expectation = expectation_for(game)
    for path in paths:
        yield hear_file(recognizer, path, expectation, denoise)
