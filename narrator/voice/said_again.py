"""Whether a reply at a read-back (or to "Did you say ...?") is the words asked about said again,
not a yes.

Over a steady noise Whisper tiny.en writes a short word ("heads", "two") as "Yes." and is sure
of it, so a player who refuses "I heard tails. Right?" by saying "heads" again confirmed the
tails. The two utterances are compared as Whisper's encoder hears them (its output frames, each
centred on the utterance's mean and scaled to unit length), aligned by dynamic time warping.
The word is its loud part and MARGIN frames either side: over pink noise 10 dB down the loud
part of flite awb's "keep" was 5 frames, and "keep" said again was 0.21 from it (a wrong
"beast" taken at Half-Chance; 0.138 with the margin). 8 synthetic voices, 22 answers each said
again 8-15 % slower and 20-40 cents higher or lower (the table bench's AGAIN), over other
noise: 98 % of the answers said again came under ``ALIKE_BELOW`` clean and at 10 dB (90 %
with the loud part alone, under 0.15), and 2 of 1440 yeses (5 ways of saying it) clean, as
before, none at 10 dB (the nearest there 0.151; docs/speech-in.md, stops 51 and 57).

In a noisy room (``noisy``: ``denoise.noisy_room`` of the reply) the bar is NOISY_ALIKE_BELOW:
there a word said again lies farther from itself, and a yes farther from the answer. At Half-
Chance over pink noise 10 dB down flite rms's "heads" said again came 0.147 from the first (and
flite awb's "keep" 0.160, 0.168): written "Yes.", the tails refused was taken. Offline at 10 dB
(12 voices, 16 answers said again twice, 6 ways of saying yes): said again under 0.14 373 of
384, under 0.18 381; yeses under 0.18 none of 1152 (the nearest 0.21). Clean the nearest yes
is 0.165, so a quiet room keeps the tighter bar (docs/speech-in.md, stop 85).
"""

from __future__ import annotations

import numpy as np

from narrator.understand import normalise

ALIKE_BELOW = 0.14  # mean cosine distance along the best alignment
NOISY_ALIKE_BELOW = 0.18  # the same, for a reply said in a noisy room
#: the mark on a yes ``written_again``: the session asks for it in more words
WRITTEN_AS_ASKED = "(written as the answer asked about was)"
PIECE = 320  # samples (at 16 kHz) per encoder frame: 20 ms
MARGIN = 3  # frames either side of the loud part kept as the word's


def frames(encoded: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """The encoder frames (frames × features) of the word itself, centred and scaled for
    ``distance``: from the first to the last 20 ms piece of ``samples`` halfway (in dB) from
    the utterance's quiet to its loudest, and MARGIN more either side (its softer sounds), so
    the room around the word is left out."""
    count = min(len(encoded), len(samples) // PIECE)
    if count == 0:
        return np.zeros((0, encoded.shape[1]))
    pieces = samples[:count * PIECE].reshape(count, PIECE)
    level = 10 * np.log10(np.mean(pieces ** 2, axis=1) + 1e-12)
    loud = np.flatnonzero(level >= (np.percentile(level, 10) + level.max()) / 2)
    word = encoded[max(0, loud[0] - MARGIN):loud[-1] + 1 + MARGIN]
    centred = word - word.mean(axis=0)
    return centred / (np.linalg.norm(centred, axis=1, keepdims=True) + 1e-9)


def distance(one: np.ndarray, other: np.ndarray) -> float:
    """The mean cosine distance between two utterances' ``frames`` along their best alignment
    (dynamic time warping; the sum over the path over both lengths)."""
    cost = 1.0 - one @ other.T
    rows, cols = cost.shape
    if not rows or not cols:
        return float("inf")
    total = np.full(cols + 1, np.inf)
    total[0] = 0.0
    for i in range(rows):
        above, total = total, np.full(cols + 1, np.inf)
        for j in range(1, cols + 1):
            total[j] = cost[i, j - 1] + min(above[j], total[j - 1], above[j - 1])
    return float(total[cols] / (rows + cols))


def said_again(reply: np.ndarray, answer: np.ndarray, noisy: bool = False) -> bool:
    """Whether the reply's ``frames`` are the answer's said again; ``noisy``: the reply was
    said in a noisy room."""
    return distance(reply, answer) < (NOISY_ALIKE_BELOW if noisy else ALIKE_BELOW)


def written_again(reply: str, answer: str) -> bool:
    """Whether a yes at a read-back is written just as the answer asked about was (``answer``:
    that transcript). Over pink noise 10 dB down Festival's "2" was written "Yeah." and fitted
    to "ten"; said again to refuse "I heard 10.", it was written "Yeah." again, was not
    ``said_again`` by its sound through the room, and the 10 was taken (Half-Chance); flite's
    "next", written "Yes." and rightly fitted, had its yes written "Yes." too. Neither sound
    nor words tell those apart: such a yes is asked for again in other words. A yes written
    otherwise ("Yes.") still confirms such an answer, as it did three times. Asked only in a
    noisy room: in a quiet one flite slt's "Ash" is written "Yes.", and the sound tells its
    yes from it."""
    return bool(normalise(answer)) and normalise(reply) == normalise(answer)
