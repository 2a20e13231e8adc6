"""A free-text answer spelled letter by letter ("R I K A R D space R A S M U S S E N").

A name the recogniser cannot spell ("Rikard Rasmussen" heard as "Rick her dress, Missin.")
can be spelled instead: ``letters(text)`` reads the letters (one letter per word, letter
names such as "bee" and "double you" in lower case, or runs of letters a recogniser wrote
together, "QUI CK"), with the word "space" between words, into the text they spell.
``spelled_out`` says a text back letter by letter, so a player who cannot read the screen can
check it.
"""

from __future__ import annotations

import re

SPACE = "space"
#: how a letter's name may be written when a recogniser writes the word, not the letter
LETTER_NAMES = {
    "ay": "a", "eh": "a", "bee": "b", "be": "b", "see": "c", "sea": "c", "cee": "c",
    "dee": "d", "ee": "e", "ef": "f", "eff": "f", "gee": "g", "aitch": "h", "eye": "i",
    "jay": "j", "kay": "k", "el": "l", "ell": "l", "em": "m", "en": "n", "oh": "o", "owe": "o",
    "pea": "p", "pee": "p", "queue": "q", "cue": "q", "are": "r", "ar": "r", "ess": "s",
    "tea": "t", "tee": "t", "you": "u", "yew": "u", "vee": "v", "ex": "x", "why": "y",
    "zed": "z", "zee": "z",
}
DOUBLE = "double"  # "double you": w


def letter_words(text: str) -> list[str]:
    """The letters ``text`` spells, one per word, and "space" between words ("s a l space k
    i m")."""
    said = [w if w.isupper() else w.lower() for w in re.findall(r"[A-Za-z]+", text)]
    out: list[str] = []
    i = 0
    while i < len(said):
        word = said[i]
        if word.lower() == SPACE:
            out.append(SPACE)
        elif word == DOUBLE and i + 1 < len(said) and said[i + 1] in ("you", "yew"):
            out.append("w")
            i += 1
        else:
            out.extend(LETTER_NAMES.get(word, word.lower()))
        i += 1
    return out


def letters(text: str) -> str | None:
    """The words ``text`` spells, each capitalised ("Rikard Rasmussen"); None when it holds
    no letters. Digits and punctuation are ignored; a letter written more than twice running
    counts twice."""
    words = "".join(" " if w == SPACE else w for w in letter_words(text)).split()
    # no name holds a letter three times running; a recogniser looping on one does ("SSEEEE")
    spelled = [re.sub(r"(.)\1{2,}", r"\1\1", w).capitalize() for w in words]
    return " ".join(spelled) or None


def spelled_out(text: str) -> str:
    """``text`` letter by letter, words apart ("R, I, K; R, A, S")."""
    return "; ".join(", ".join(word.upper()) for word in re.findall(r"[A-Za-z]+", text))
