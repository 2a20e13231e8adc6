"""A recogniser for tests of what the ears do around it: each utterance decodes as the next of
the transcripts it is given (the last one again when they run out), lasting as long as the
audio fed to it; and ``sounds``, the stream such tests feed the ears."""

from __future__ import annotations

import dataclasses

import numpy as np

from narrator.voice.asr import Heard
from narrator.voice.mic import FRAME, RATE, Frames


def sounds(levels: list[float], seed: int) -> Frames:
    """A stream of 30 ms frames of noise, each at its int16 rms level in ``levels``."""
    rng = np.random.default_rng(seed)
    return Frames(b"".join((rng.standard_normal(FRAME) * level).astype(np.int16).tobytes()
                           for level in levels))


class Scripted:
    name, denoise = "whisper", False

    def __init__(self, *heard: Heard) -> None:
        self.heard = list(heard)

    def known(self, word: str) -> bool:
        return True

    def start(self, grammar) -> None:
        self.audio = b""

    def feed(self, pcm: bytes) -> None:
        self.audio += pcm

    def partial(self) -> str:
        return ""

    def finish(self) -> Heard:
        heard = self.heard.pop(0) if len(self.heard) > 1 else self.heard[0]
        return dataclasses.replace(heard, seconds=len(self.audio) / 2 / RATE)
