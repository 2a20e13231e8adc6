"""Whether a read-back sounds like what a player said: the simulated table's ear.

A player who says "Kim, a hacker" and hears "I heard Kimah Hacker. Right?" says yes: the
narrator said back what they said, and the sheet will hold that spelling. So a free-text
read-back is judged by its sound: espeak-ng's phonemes of both (``espeak-ng -q -x``), stress
and length marks dropped, compared by an edit distance in which one vowel for another costs
half (a reduced "a" is heard as the "a" of "Kimah"), anything else one; the read-back passes
when that distance is at most ``BAR`` of the longer phoneme string.

BAR (0.2) is set between what a player hears as their words and what they do not (phonemes
as espeak-ng en-us writes them; distances in ``tests/test_by_ear.py``):

* accepted: "Kimah Hacker" (0.06) and "Kim of Hacker." (0.17) for "Kim, a hacker"; "The Lem
  Blacks, Call Yard." (0.16) for "the Lampblacks' coal yard"; "Love for Gila." (0) and "love
  for g-lit" (0.12) for "Love for Jila";
* rejected: "A hacker." (0.38), "Game a hacker." (0.22) and "Again, the hacker." for "Kim, a
  hacker"; "The Lemplex Colliard." for the coal yard; "Love for healing." (0.32) for "Love
  for Jila": a name lost or changed is heard as such.
"""

from __future__ import annotations

import functools
import re
import subprocess

BAR = 0.2
VOWELS = set("aeiouAEIOUV@03")  # espeak-ng's vowel letters (0: the "o" of "hot", 3: "er")
MARKS = re.compile(r"[\s',:;#_!=|24-9-]")  # stress, length, pauses, word breaks, variants


@functools.lru_cache(maxsize=None)
def phonemes(text: str) -> str:
    """``text`` as espeak-ng's (en-us) phoneme letters, marks dropped."""
    out = subprocess.run(["espeak-ng", "-q", "-x", "-v", "en-us", text], capture_output=True,
                         text=True, check=True, timeout=30).stdout
    return MARKS.sub("", out)


def distance(a: str, b: str) -> float:
    """Edit distance of two phoneme strings: a vowel for a vowel costs 0.5, else 1."""
    row = [float(j) for j in range(len(b) + 1)]
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], float(i)
        for j, y in enumerate(b, 1):
            swap = 0.0 if x == y else 0.5 if x in VOWELS and y in VOWELS else 1.0
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + swap)
    return row[-1]


def unlikeness(said: str, heard: str) -> float:
    """How unlike ``heard`` sounds to ``said``: 0 the same sounds, 1 nothing alike."""
    a, b = phonemes(said), phonemes(heard)
    return distance(a, b) / max(len(a), len(b), 1)


def sounds_like(said: str, heard: str) -> bool:
    """Whether a player who said ``said`` hears ``heard`` as their own words."""
    return unlikeness(said, heard) <= BAR
