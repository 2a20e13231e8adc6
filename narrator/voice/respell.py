"""A spelled answer mended by the same answer said aloud before it.

Whisper tiny.en hears spelled letters poorly: it confuses letters whose names rhyme ("D" for
"E", "P" for "B": the E-set) and drops some ("B U D A P S T"), about two spellings in three
of the names the table bench spells. Its hearing of the word said aloud may be words of
another meaning ("Do the best."), yet the sound is there: among spellings a letter apart, the
one the spoken word's audio makes most likely is nearly always the name.

So ``respell`` changes the spelling one letter at a time (a letter for one whose name sounds
alike, a vowel added, a letter doubled or dropped, a letter that was "space"), each time to
the change the spoken word makes likeliest, while that gains at least EDIT_GAIN (log
probability): the spelling is the table's word, a change must be well heard. The spelling
so changed is kept only when it explains the spoken word within SAID_AS of Whisper's own
transcript of it: what was said aloud may have been another answer (talk taken as one), and
letters climbed towards it are neither. 125 spellings of 25 names by 5 voices
(``bench/spelled.py``): 46 right as heard; 85 after the name said aloud by the same voice, 80
by another voice; after another answer said aloud, 46, no right one changed. The scorer may
leave unscored a neighbour that cannot gain EDIT_GAIN (Whisper's ``Climb.bound``): the same
climb, in a fraction of the time.

Whisper's other guesses at the letters are changes of the first round too: flite slt's
spelled "Budapest" is "B U D A P R S T", two changes from the name ("R" sounds like no other
letter: dropped, then "E" added) and three rounds of scoring, and its fifth guess is "B U D A
P E S T". A guess with fewer letters than the spelling is not weighed: it is the recogniser
dropping letters, and a short one is likely as nearly any word.
"""

from __future__ import annotations

import math
import time
from typing import Callable

#: letters whose names sound alike: a recogniser hears one for another
ALIKE = ("bcdegptvz", "ahjk", "flmnsx", "iy", "quw")
VOWELS = "aeiou"  # the letters a recogniser drops most
EDIT_GAIN = 2.5   # log probability a change must gain on the spoken word (a letter's worth)
SAID_AS = 4.0     # log probability under the spoken word's own transcript: the same word
# (spellings mended right: -7.2 to 12.9, 69 of 76 under 4; climbed towards another answer's
# words: 3.7, 4.2, 5.0, 5.8, then 8.3 up, and a right spelling changed from 6)
BUDGET = 1.5      # seconds: no new round of changes starts after this long
MOST_LETTERS = 20  # a longer spelling is a recogniser looping, not a name: left as it is


def neighbours(spelled: str) -> list[str]:
    """Every spelling one change from ``spelled`` (lower-case letters, words apart, marks such
    as "'" left as they are): a letter swapped for one whose name sounds alike, dropped,
    doubled or made a space between words, or a vowel added."""
    out: dict[str, None] = {}
    for i, letter in enumerate(spelled):
        if not letter.isalpha():  # a gap between words, or a mark ("'")
            continue
        out[spelled[:i] + spelled[i + 1:]] = None
        out[spelled[:i] + letter + spelled[i:]] = None
        out[spelled[:i] + " " + spelled[i + 1:]] = None  # "space" written as a letter ("S")
        for other in next((group for group in ALIKE if letter in group), "").replace(letter, ""):
            out[spelled[:i] + other + spelled[i + 1:]] = None
    for i in range(len(spelled) + 1):
        for vowel in VOWELS:
            out[spelled[:i] + vowel + spelled[i:]] = None
    return [s for s in out if s != spelled and s.strip() == s and s and "  " not in s]


def respell(spelled: str, score: Callable[[list[str], float], list[float]], own: float,
            guesses: tuple[str, ...] = (), budget: float = BUDGET) -> str:
    """``spelled`` changed while each change gains EDIT_GAIN by ``score`` (the log probability
    of each spelling as the spoken word; one that cannot reach its second argument may be
    left unscored, -inf), when the change scores at least ``own`` (the spoken word's own
    transcript's score) less SAID_AS; unchanged otherwise. ``guesses``: other spellings the
    letters may be (the recogniser's next best), each a change of the first round when it has
    as many letters or more (one with fewer dropped them: "S A L" guessed "L" was taken for
    "Dylan" said aloud before it)."""
    words = " ".join(spelled.split())  # "space" said twice, or first: one gap between words
    held = _letters(words)
    if not words or held > MOST_LETTERS:
        return spelled
    begin = time.perf_counter()
    best, best_score = words, score([words], -math.inf)[0]
    first = [" ".join(g.split()) for g in guesses if held <= _letters(g) <= MOST_LETTERS]
    while time.perf_counter() - begin < budget:
        near = list(dict.fromkeys(neighbours(best) + [g for g in first if g != best]))
        first = []
        scores = score(near, best_score + EDIT_GAIN)
        top = max(range(len(near)), key=scores.__getitem__)
        if scores[top] < best_score + EDIT_GAIN:
            break
        best, best_score = near[top], scores[top]
    return best if best != words and best_score >= own - SAID_AS else spelled


def _letters(spelling: str) -> int:
    return sum(c.isalpha() for c in spelling)
