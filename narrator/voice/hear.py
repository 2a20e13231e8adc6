"""`narrator hear FILE.wav ...`: what the recogniser makes of recorded clips, one JSON line each.

Each file is one utterance (any format libsndfile reads, any rate, channels mixed down, at most
MAX_SECONDS), decoded under the full command grammar (or, with a game, under the controls plus
what that game asks for first), cleaned of noise and judged exactly as the live ears do. A file
that is not audio, is empty or is too long gets an error record and the batch goes on.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import numpy as np
import soundfile as sf

from narrator.events import Continue, Control, Dice, Line, Number, Successes, Text, Word
from narrator.understand import (
    AcceptContinue, AcceptDice, AcceptSuccesses, AcceptWords, Expectation,
)
from narrator.voice import grammar as grammars
from narrator.voice.asr import RATE, Recognizer, decode, respelled
from narrator.voice.denoise import clean_whole, make_denoiser
from narrator.voice.meant import decide

GAME_WORDS = ("yes", "no", "heads", "tails", "merit", "pass", "curse", "boon")
#: every command form: controls, "next", game words (yes and no are heard only where a question
#: lists them), up to 12 successes, 1 to 3 faces of a d12
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
    if isinstance(meaning, Text):
        return f"text {meaning.text}"
    return None


MAX_SECONDS = 30.0   # one utterance per file: longer files are refused, so memory stays bounded
BLOCK = 65536        # frames read at a time


class BadAudio(ValueError):
    """A file `narrator hear` cannot take, with the reason."""


def read_pcm(path: Path, max_seconds: float = MAX_SECONDS) -> bytes:
    """A sound file as 16 kHz mono int16: read in blocks, channels mixed down, linearly
    resampled if need be. Raises BadAudio for a file that is not audio, empty or too long."""
    if not path.is_file():
        raise BadAudio("no such file")
    if path.stat().st_size == 0:
        raise BadAudio("the file is empty")
    try:
        with sf.SoundFile(str(path)) as f:
            rate = f.samplerate
            if f.frames > max_seconds * rate:
                raise BadAudio(f"{f.frames / rate:.0f} s long: one utterance per file, at most "
                               f"{max_seconds:.0f} s")
            blocks = []
            for block in f.blocks(BLOCK, dtype="float32", always_2d=True):
                blocks.append(block.mean(axis=1))
                if sum(map(len, blocks)) > max_seconds * rate:
                    raise BadAudio(f"longer than {max_seconds:.0f} s: one utterance per file")
    except (sf.LibsndfileError, RuntimeError, OSError) as exc:
        raise BadAudio(f"not a sound file soundfile can read ({exc})") from exc
    samples = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)
    if not samples.size:
        raise BadAudio("no audio in it (empty)")
    if rate != RATE:
        length = int(len(samples) * RATE / rate)
        samples = np.interp(np.linspace(0, len(samples) - 1, length),
                            np.arange(len(samples)), samples)
    return (np.clip(samples, -1, 1) * 32767).astype(np.int16).tobytes()


def hear_file(recognizer: Recognizer, path: Path, expectation: Expectation,
              denoise: bool = True, mode: str = "asking") -> dict:
    """One clip's JSON record: file, text heard, command (or None), confidence, whether the
    session would read it back first (``sure`` False), ms; or file and error.

    With ``denoise`` the clip goes through a fresh Denoiser first, as the microphone does
    (not for Whisper, which hears raw audio better);
    ``mode`` is the session's ("asking", "reading", "paused", "confirming", "spelling")."""
    try:
        pcm = read_pcm(path)
    except BadAudio as exc:
        return {"file": str(path), "error": str(exc)}
    grammar = grammars.build(expectation, recognizer.known, mode=mode)
    denoiser = make_denoiser(denoise and getattr(recognizer, "denoise", True))
    if denoiser is not None:
        pcm = clean_whole(pcm, denoiser) or pcm
        denoiser.close()
    begin = time.perf_counter()
    heard = respelled(recognizer, decode(recognizer, grammar, pcm), grammar)
    ms = (time.perf_counter() - begin) * 1000
    said = decide(heard, grammar, expectation, recognizer.name, mode=mode)
    return {"file": str(path), "text": heard.text,
            "command": command_of(said.meaning) if said else None,
            "confidence": heard.confidence, "sure": bool(said and said.sure),
            "ms": round(ms, 1)}


def hear_files(recognizer: Recognizer, paths: list[Path], game: str | None,
               denoise: bool = True) -> Iterator[dict]:
    expectation = expectation_for(game)
    for path in paths:
        yield hear_file(recognizer, path, expectation, denoise)
