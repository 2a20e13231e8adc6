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
  Blacks, Call Yard." (0.16) for "the Lampblacks' coal yard"; "Love for Gila." (0) for "Love
  for Jila";
* rejected: "A hacker." (0.38), "Game a hacker." (0.22) and "Again, the hacker." for "Kim, a
  hacker"; "The Lemplex Colliard." for the coal yard; "Love for healing." (0.32) for "Love
  for Jila": a name lost or changed is heard as such.

A whole that sounds alike can still change a name: "May the police sergeant." for "Ray, a
police sergeant" (0.14), "Martin, a forger." for "Marta, a forger" (0.12). So each name (a
capitalised word of what was said) is also judged with the words around it that changed
(``names_kept``): the read-back must start it with the same sound and keep its consonants,
one of them lost or changed allowed per ``CONSONANTS_PER_SLIP`` ("Lem Blacks, Call" for
"Lampblacks' coal" loses its p; "Martin" adds an n to "Marta", "g lit" a t to "Jila", "Mad"
changes the b of "Bad": refused).
"""

from __future__ import annotations

import difflib
import functools
import re
import subprocess

BAR = 0.2
CONSONANTS_PER_SLIP = 6  # a name's changed stretch may lose or change one consonant in this many
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


def consonants(text: str) -> str:
    """The consonant letters of ``text``'s phonemes (a syllabic l as any l: "social" and "so
    shall")."""
    return "".join(c for c in phonemes(text) if c not in VOWELS).replace("L", "l")


def names_kept(said: str, heard: str) -> bool:
    """Whether every name said (a capitalised word) is heard with its first sound and its
    consonants, but for one slip in CONSONANTS_PER_SLIP, in the stretch of ``heard`` that
    stands where its words changed."""
    a, b = re.findall(r"[\w']+", said), re.findall(r"[\w']+", heard)
    matcher = difflib.SequenceMatcher(None, [w.lower() for w in a], [w.lower() for w in b],
                                      autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("equal", "insert") or not any(w[:1].isupper() for w in a[i1:i2]):
            continue
        was, now = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        if not now or phonemes(was)[:1] != phonemes(now)[:1]:
            return False
        x, y = consonants(was), consonants(now)
        if distance(x, y) > max(len(x), len(y)) // CONSONANTS_PER_SLIP:
            return False
    return True


def sounds_like(said: str, heard: str) -> bool:
    """Whether a player who said ``said`` hears ``heard`` as their own words: alike as a whole
    (BAR) and every name kept (``names_kept``)."""
    return unlikeness(said, heard) <= BAR and names_kept(said, heard)
