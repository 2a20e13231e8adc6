"""A radio spelling read one word at a time, between the pauses that part its words.

Whisper tiny.en writes a radio spelling as one transcript, and on some voices that transcript
goes astray: espeak-ng's "Kim, a hacker" came back "Kim A Hackero", its "Quick Wits" "Quick
Witcir", its "Rikard Rasmussen" looping on "car". Each word heard alone fares better: read
as the word Whisper finds likeliest between its two pauses, among the radio alphabet's,
"space", "done" and the marks' names, the words of espeak-ng's radio spellings of the golden
names and long answers spelled them right 28 times in 29, where the whole transcript did 15. So
a radio spelling is also read in parts (``PartReader``), and ``Whisper`` keeps that reading
when it explains the whole utterance better (``better``): the five table voices' radio
spellings of the golden names are heard right 121 times in 125, 108 before, and no right one
is changed (``bench/spelled.py --radio``).

A part is a stretch of speech between pauses of PAUSE or more (``parts``); one longer than a
word lasts (LONGEST) holds several, as a voice that runs words together says them, and then
the spelling is not read in parts. Each part is encoded alone in Whisper's window and scored:
every part word's tokens (one decoding step gives the first token of every word; a word of
several tokens takes a run of its own), then whether "space" follows the likeliest word
(espeak-ng says "Kilo. space." as one stretch). A part read once is not read again: a
spelling is decoded ahead at each of its pauses, so each part is read while the speaker says
the next.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from narrator.understand.spelling import DONE, MARK_NAMES, RADIO, SPACE, said_as
from narrator.voice.asr import RATE

#: what a part may be: a radio word, "space", "done" or a mark's name
PART_WORDS = (*RADIO, SPACE, DONE, *MARK_NAMES.values())
FRAME = RATE // 50      # 20 ms: the levels parts are found by
BELOW_LOUDEST = 35.0    # dB: a frame this far under the utterance's loudest is a pause...
OVER_ROOM = 10.0        # ... or one this little over its 10th percentile (the room)
PAUSE = 5               # frames: a quiet this short is inside a word (a stop consonant)
SHORTEST = 4            # frames: a sound this short is a click, not a word
AROUND = 5              # frames of audio kept either side of a part
LONGEST = 1.3           # seconds: a part longer holds more than one word (the table bench's
# voices' longest single words: 0.96 s espeak-ng, 1.26 s flite awb; flite rms runs words
# together, 1.04 to 4.5 s)

#: (encode the parts, each alone in Whisper's window: their encoder outputs over the longest
#: part's speech; log probabilities at each step of token runs, each run (part, tokens))
Encode = Callable[[list[np.ndarray]], np.ndarray]
Steps = Callable[[np.ndarray, list[tuple[int, tuple[int, ...]]]], list[list[np.ndarray]]]


def parts(samples: np.ndarray) -> list[np.ndarray] | None:
    """The stretches of speech in ``samples`` (float, 16 kHz) between pauses, each with
    AROUND frames either side; None when there is none, or one is longer than a word."""
    count = len(samples) // FRAME
    if not count:
        return None
    levels = 20 * np.log10(np.sqrt(np.mean(
        samples[:count * FRAME].reshape(count, FRAME).astype(np.float64) ** 2, axis=1)) + 1e-9)
    voiced = levels > max(levels.max() - BELOW_LOUDEST, np.percentile(levels, 10) + OVER_ROOM)
    found: list[tuple[int, int]] = []
    start = None
    for i in range(count + 1):
        if i < count and voiced[i]:
            start = i if start is None else start
        elif start is not None and (i == count or not voiced[i:i + PAUSE].any()):
            found.append((start, i))
            start = None
    found = [(a, b) for a, b in found if b - a >= SHORTEST]
    if not found or max(b - a for a, b in found) * FRAME > LONGEST * RATE:
        return None
    return [samples[max(0, a - AROUND) * FRAME:(b + AROUND) * FRAME] for a, b in found]


def form(word: str) -> str:
    """A part word as Whisper writes it ("Bravo", "X-ray")."""
    return "X-ray" if word == "x-ray" else word.capitalize()


def written(words: list[str]) -> str:
    """Part words as Whisper writes a radio spelling ("Bravo, Uniform, Space, Done."), which
    ``letter_words`` reads."""
    return ", ".join(map(form, words)) + "."


def aloud(letters: list[str]) -> list[str]:
    """A spelling's letters ("b u space k") as its radio words ("bravo uniform space kilo")."""
    return [said_as(c) for c in letters]


def better(mine: float, my_words: int, theirs: float, their_words: int) -> bool:
    """Whether a reading scored ``mine`` over ``my_words`` words explains an utterance better
    than one scored ``theirs`` over ``their_words``: in total, and per word too (a score sums
    its words' log probabilities, so a reading that drops words scores higher for it: flite
    rms's run-together "Steal a jet from Heathrow" read in 12 parts outscored its whole right
    transcript)."""
    return mine > theirs and mine / my_words > theirs / their_words


class PartReader:
    """Reads a radio spelling's parts as part words, each part once (until ``forget``)."""

    def __init__(self, encode: Encode, steps: Steps, tokens: Callable[[str], list[int]],
                 end: int) -> None:
        self._encode, self._steps, self._end = encode, steps, end
        self._ids = {w: tuple(tokens(" " + form(w))) for w in PART_WORDS}
        # the words of several tokens, a run each; any run's first step gives every word's
        # first token
        self._long = [w for w in PART_WORDS if len(self._ids[w]) > 1] or [PART_WORDS[0]]
        self._after = {"comma": tokens(",")[0], "stop": tokens(".")[0],
                       "space": {tokens(" Space")[0], tokens(" space")[0]}}
        self._read: dict[bytes, tuple[list[str], dict[str, float]]] = {}  # words, scores
        self._last: list[bytes] = []  # the parts ``words`` read last

    def forget(self) -> None:
        """A new utterance: the parts read so far are not in it."""
        self._read, self._last = {}, []

    def words(self, samples: np.ndarray) -> list[str] | None:
        """The part words ``samples`` says, a part at a time; None when it has no parts."""
        found = parts(samples)
        if found is None:
            return None
        unread = list({p.tobytes(): p for p in found if p.tobytes() not in self._read}.values())
        if unread:
            self._read.update(zip((p.tobytes() for p in unread), self._read_each(unread)))
        self._last = [p.tobytes() for p in found]
        return [w for key in self._last for w in self._read[key][0]]

    def margin(self, other: list[str]) -> float | None:
        """How much likelier the parts ``words`` read last found their words than ``other``,
        a reading of as many words, did: over the parts whose word differs, its score less
        other's, each part alone; None when ``other`` differs but in those parts' words."""
        placed = [(key, j) for key in self._last for j in range(len(self._read[key][0]))]
        if len(placed) != len(other):
            return None
        total = 0.0
        for (key, j), theirs in zip(placed, other):
            words, scores = self._read[key]
            if words[j] != theirs:
                if j or theirs not in scores:
                    return None
                total += scores[words[j]] - scores[theirs]
        return total

    def _read_each(self, pieces: list[np.ndarray]) -> list[tuple[list[str], dict[str, float]]]:
        """Each piece's likeliest part word, and "space" after a radio word when likelier
        than its end, with every part word's score, in two batches."""
        encoded = self._encode(pieces)
        runs = [(i, self._ids[w][:-1]) for i in range(len(pieces)) for w in self._long]
        steps = dict(zip(runs, self._steps(encoded, runs)))
        scored = []
        for i in range(len(pieces)):
            first = steps[runs[i * len(self._long)]][0]

            def score(word: str) -> float:
                ids = self._ids[word]
                held = steps[(i, ids[:-1])] if len(ids) > 1 else [first]
                return sum(float(held[k][t]) for k, t in enumerate(ids))
            scored.append({w: score(w) for w in PART_WORDS})
        likeliest = [max(scores, key=scores.__getitem__) for scores in scored]
        ends = [(i, self._ids[w] + (self._after[mark],)) for i, w in enumerate(likeliest)
                for mark in ("comma", "stop")]
        after = self._steps(encoded, ends)
        return [([word] + ([SPACE] if word in RADIO and self._spaced(*after[2 * i:2 * i + 2],
                                                                      len(self._ids[word]))
                           else []), scored[i])
                for i, word in enumerate(likeliest)]

    def _spaced(self, comma: list[np.ndarray], stop: list[np.ndarray], at: int) -> bool:
        """Whether "space" after the word (at step ``at``) is likelier than its end, read off
        the runs of the word with a comma and with a full stop after it."""
        after, spaces = comma[at], self._after["space"]
        ended = max(after[self._end], after[self._after["stop"]] + stop[at + 1][self._end])
        spaced = max(max(after[s] for s in spaces),
                     after[self._after["comma"]] + max(comma[at + 1][s] for s in spaces),
                     after[self._after["stop"]] + max(stop[at + 1][s] for s in spaces))
        return spaced > ended
