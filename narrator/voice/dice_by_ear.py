"""Dice Whisper writes as other words, found a die at a time.

espeak-ng's "nine and three" is "I am free." to Whisper tiny.en, its "one and twelve" "Well
and 1 2": no dice phrase is near those in spelling, so the faces said were not among the
candidates scored (``Whisper._nearest``), and the table typed them after four tries. Where the
question takes dice, the likeliest faces are also found one die at a time (``dice_heard``):
a beam over the faces, each step reading off the decoder the likelihood of every face after
the dice so far ("Nine and" then " three"), as Whisper writes them in words or in digits,
for each count of dice the question takes. The BEAM best are candidates like any other,
scored whole against the audio.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from narrator.understand import AcceptDice
from narrator.understand.words import spoken

BEAM = 4       # dice so far kept at each step
MOST_DICE = 4  # counts of dice searched, at most (a question that takes more: up to this)

#: log probabilities at each step of each token run (the utterance's, after Whisper's head)
Steps = Callable[[list[tuple[int, ...]]], list[list[np.ndarray]]]


def dice_heard(accept: AcceptDice, steps: Steps, tokens: Callable[[str], list[int]]
               ) -> list[str]:
    """The likeliest faces of ``accept``'s dice, as phrases ("nine and three"), best first in
    each way of writing them and count of dice."""
    found: list[str] = []
    for digits in (False, True):
        for count in range(accept.min_count, min(accept.max_count, MOST_DICE) + 1):
            found += [_phrase(faces) for faces in _beam(accept.sides, count, digits, steps,
                                                          tokens)]
    return list(dict.fromkeys(found))


def _beam(sides: int, count: int, digits: bool, steps: Steps,
          tokens: Callable[[str], list[int]]) -> list[list[int]]:
    """The BEAM likeliest ``count`` faces of dice with ``sides``, written "Nine, two and
    three" (or "9, 2 and 3")."""
    def face(n: int, first: bool) -> int:
        said = str(n) if digits else spoken(n).capitalize() if first else spoken(n)
        return tokens(" " + said)[0]  # a face of two words ("twenty one"): its first
    written = {first: [face(n, first) for n in range(1, sides + 1)] for first in (True, False)}
    beam: list[tuple[tuple[int, ...], float, list[int]]] = [((), 0.0, [])]
    for i in range(count):
        between = () if i == 0 else tuple(tokens(" and" if i == count - 1 else ","))
        runs = [ids + between for ids, _, _ in beam]
        grown = []
        for (ids, score, faces), held in zip(beam, steps(runs)):
            score += sum(float(held[len(ids) + k][t]) for k, t in enumerate(between))
            after = held[len(ids) + len(between)]
            for n, token in enumerate(written[i == 0], start=1):
                grown.append((ids + between + (token,), score + float(after[token]),
                              faces + [n]))
        beam = sorted(grown, key=lambda hypothesis: -hypothesis[1])[:BEAM]
    return [faces for _, _, faces in beam]


def _phrase(faces: list[int]) -> str:
    """Faces as the dice phrase says them ("nine three and one")."""
    said = [spoken(n) for n in faces]
    return " and ".join([" ".join(said[:-1]), said[-1]]) if len(said) > 1 else said[0]
