"""A free-text answer spelled letter by letter ("R I K A R D space R A S M U S S E N").

A name the recogniser cannot spell ("Rikard Rasmussen" heard as "Rick her dress, Missin.")
can be spelled instead: ``letters(text)`` reads the letters (one letter per word, letter
names such as "bee" and "double you" in lower case, runs of letters a recogniser wrote
together, "QUI CK", or the radio alphabet's words, "Bravo Uniform Delta", which a recogniser
tells apart where the letters' names sound alike, also as it misspells them: "Dango", "Bhoskor",
"C-A-R" for "Sierra"), with the word "space" between words, into
the text they spell. A name's apostrophe and hyphen are said by name ("O apostrophe B R I E N",
"J E A N dash L U C"; typed, "hyphen" too).
``spelled_out`` says a text back letter by letter, so a player who cannot read the screen can
check it. ``mended`` takes letters a recogniser confuses ("T, D, M, P, D, R" for "temper") from
how the same answer was heard when said.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Iterable

SPACE = "space"
#: said after the last letter, it ends the spelling at once (without it, a second's quiet does)
DONE = "done"
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
#: the marks a name may hold between its letters, as said by name
MARK_NAMES = {"'": "apostrophe", "-": "dash"}
MARKS = {**{name: mark for mark, name in MARK_NAMES.items()}, "hyphen": "-"}
#: a word of a name as written, its marks between letters ("O'Brien", "Jean-Luc")
NAME_WORD = r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]"
#: the radio (NATO) alphabet, a to z as said: each word stands for its first letter
RADIO = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
         "oscar papa quebec romeo sierra tango uniform victor whiskey x-ray yankee zulu").split()
#: how its words are written (the hyphen dropped), as said and as also spelled
RADIO_WRITTEN = [w.replace("-", "") for w in RADIO] + ["alfa", "juliett", "whisky"]
#: what a word said while spelling stands for, but a letter's name: a radio word its first
#: letter, a mark's name (or the mark as a recogniser writes it, alone) the mark
SPELLS = {**{w: w[0] for w in RADIO_WRITTEN}, **MARKS, **{m: m for m in MARK_NAMES}}
#: a word of four letters or more this alike to one of those (difflib's ratio, and FIRST more
#: when they begin alike) is that word: Whisper writes parts of them together ("Dango",
#: "Galf", "Viekor", "Postrophe"), and nothing else while spelling (``Speller._not_spelled``)
RADIO_NEAR, FIRST = 0.7, 0.1
#: in a radio spelling, how Whisper wrote a radio word said first where no near spelling tells
#: it (flite slt's "Sierra": "Sia", "Siaya")
RADIO_HEARD = {"sia": "s", "siaya": "s"}
#: in a radio spelling, letters whose names said together sound like a radio word, as Whisper
#: wrote a spelling's first "Sierra" ("C-A-Tango", "C-A-R-Tango"), longest first
SOUNDED = {("c", "a", "r"): "s", ("c", "a"): "s", ("c", "r"): "s"}
ONSETS, VOWELS = "bp", "aeiou"  # a sound Whisper hears before a radio word's vowel, as a letter
MIXED = 2  # radio words in a transcript mostly of letters: a radio spelling written astray


def letter_words(text: str) -> list[str]:
    """The letters ``text`` spells, one per word, and "space" between words ("s a l space k
    i m")."""
    return [c for _, spelled, _ in _read(text) for c in spelled]


def radio_read(text: str) -> list[tuple[str, str | None]]:
    """Each word of a radio spelling ``text`` (a run that sounds a radio word: its words
    together) with the part word it is ("bravo", "space", "apostrophe"), or None when it is
    none: a letter, or a word Whisper wrote for a radio word it did not know ("Eunkey" for
    flite rms's "Yankee"); a letter said beside its radio word left out, as ``letter_words``
    does, and the "done" that ends the spelling."""
    out: list[tuple[str, str | None]] = []
    for said, spelled, known in _read(text, radio=True):
        if not known:
            out.append((said, None))
        elif spelled:
            out.append((said, said_as(spelled[0])))
    return out


def said_as(letter: str) -> str:
    """How a radio spelling says a letter ("b": "bravo"), a mark ("'": "apostrophe") or
    "space"."""
    return letter if letter == SPACE else MARK_NAMES.get(letter) or RADIO[ord(letter) - ord("a")]


def _read(text: str, radio: bool | None = None) -> list[tuple[str, list[str], bool]]:
    """The words of ``text`` read as a spelling (a radio one when ``radio``; None: when it
    spells ``by_radio``): each with the letters it spells, and whether it is a spelling's word
    (a radio word, "space", a mark's name, or a stray letter beside its radio word: spells
    none) rather than a letter's name or a word read as its letters."""
    said = _said(text)
    radio = by_radio(text) if radio is None else radio
    out: list[tuple[str, list[str], bool]] = []
    i = 0
    while i < len(said):
        word = said[i]
        sounded = _sounded(said, i) if radio else None
        if word.lower() == SPACE:
            out.append((word, [SPACE], True))
        elif word == DOUBLE and i + 1 < len(said) and said[i + 1] in ("you", "yew"):
            out.append((f"{word} {said[i + 1]}", ["w"], False))
            i += 1
        elif sounded:
            out.append((" ".join(said[i:i + len(sounded)]), [SOUNDED[sounded]], True))
            i += len(sounded) - 1
        elif spells := _spells(word, radio):
            out.append((word, [spells], True))
        elif radio and _stray(said, i):
            out.append((word, [], True))
        else:
            out.append((word, list(LETTER_NAMES.get(word, word.lower())), False))
        i += 1
    return out


def _said(text: str) -> list[str]:
    """The words of ``text`` as spelling reads them (``_words``), the word that ends a
    spelling (``DONE``) left out."""
    said = _words(text)
    return said[:-1] if said[-1:] == [DONE] else said


def ended(text: str) -> bool:
    """Whether a spelling as the recogniser wrote it ends with the word that ends one ("Sierra,
    India, Lima, Alpha, Sierra. Done."), not with letters ("D-O-N-E", "DONE")."""
    return _words(text)[-1:] == [DONE]


def _words(text: str) -> list[str]:
    """The words of ``text``: lower case but for runs of capitals ("QUI", letters), "X-ray"
    one word, a mark standing alone ("o ' b") a word."""
    text = re.sub(r"\b([Xx])-(ray)\b", r"\1\2", text)
    return [w if w.isupper() else w.lower()
            for w in re.findall(r"[A-Za-z]+|(?<!\S)['-](?!\S)", text)]


def _spells(word: str, radio: bool = False) -> str | None:
    """What a radio alphabet word or a mark's name stands for (``SPELLS``; one nearly so:
    ``RADIO_NEAR``), or None; not a run of capitals ("QUI": letters). In a ``radio``
    spelling, also a word Whisper wrote with a sound before the radio word's own ("Bhima" for
    "Lima", "Boskor" for "Oscar") or only its start ("Sia" for "Sierra": ``RADIO_HEARD``)."""
    if word in SPELLS:
        return SPELLS[word]
    if radio and word.lower() in RADIO_HEARD:
        return RADIO_HEARD[word.lower()]
    if word.isupper() or word in LETTER_NAMES or word == SPACE or len(word) < 4:
        return None
    forms = [word, re.sub(r"^[^aeiou]+(?=[aeiou])", "", word)] if radio else [word]
    for form in dict.fromkeys(forms):  # as written first ("Galf" is "Golf", not "Alfa")
        near, said = max((SequenceMatcher(None, form, s).ratio() + FIRST * (form[0] == s[0]),
                          s) for s in SPELLS if len(s) > 1)
        if near >= RADIO_NEAR:
            return SPELLS[said]
    return None


def _sounded(said: list[str], i: int) -> tuple[str, ...] | None:
    """The run of letters from ``said[i]`` that names a radio word by its sound (``SOUNDED``:
    "C A R" for "Sierra"), or None."""
    for run in SOUNDED:
        if tuple(w.lower() for w in said[i:i + len(run)]) == run:
            return run
    return None


def _stray(said: list[str], i: int) -> bool:
    """Whether ``said[i]`` is a lone letter beside the radio word for it ("H hotel": one
    letter, said twice over), or a lone "b" or "p" before a radio word that begins with a
    vowel: the onset Whisper hears there ("Delta B Oscar", as it wrote "Bhoskor")."""
    letter = said[i].lower()
    if len(letter) != 1:
        return False
    beside = [_spells(said[j]) if 0 <= j < len(said) and len(said[j]) > 1 else None
              for j in (i - 1, i + 1)]
    onset = letter in ONSETS and i + 1 < len(said) and said[i + 1][:1].lower() in VOWELS \
        and beside[1] is not None
    return letter in beside or onset


def by_radio(text: str) -> bool:
    """Whether ``text`` spells with the radio alphabet's words more than with letters: its
    letters were heard as words, not as names that sound alike (which ``mended`` mends)."""
    radio, letters = _radio_letters(text)
    return radio * 2 > letters


def holds_radio(text: str) -> bool:
    """Whether ``text`` spells MIXED letters or more with radio words, if fewer than with
    letters: Whisper wrote some of a radio spelling's words as letters (espeak-ng's "Rikard
    Rasmussen": "R-O-N-D. Kilo Alpha, R-O Delta Space"); letter spellings it wrote with one at
    most (the table bench's voices, 280 transcripts)."""
    return _radio_letters(text)[0] >= MIXED


def _radio_letters(text: str) -> tuple[int, int]:
    """How many of the letters ``text`` spells it says with radio words, and of how many (its
    marks not counted)."""
    spelled = [_spells(w, radio=True) for w in _said(text) if w.lower() != SPACE]
    letters = [s for s in spelled if s is None or s.isalpha()]
    return sum(s is not None for s in letters), len(letters)


def letters(text: str) -> str | None:
    """The words ``text`` spells, each capitalised ("Rikard Rasmussen", "O'Brien", "Don't",
    "Jean-Luc"); None when it holds no letters. Digits and punctuation are ignored but the
    marks said by name (``MARKS``) between letters; a letter written more than twice running
    counts twice, marks running together once."""
    words = "".join(" " if w == SPACE else w for w in letter_words(text)).split()
    return " ".join(w for w in map(_written, words) if w) or None


def _written(word: str) -> str:
    """A spelled word as a name writes it: a letter at most twice running (no name holds one
    three times; a recogniser looping on one does: "SSEEEE"), a mark once and only between
    letters, capitalised, each part after a hyphen too, and the part after an apostrophe that
    follows one letter ("O'Brien", but "Don't")."""
    word = re.sub(r"(['-])['-]+", r"\1", re.sub(r"(.)\1{2,}", r"\1\1", word)).strip("'-")
    parts = [p.capitalize() for p in word.split("-")]
    return "-".join(re.sub(r"^(\w')(\w)", lambda m: m[1] + m[2].upper(), p) for p in parts)


def spelled_out(text: str) -> str:
    """``text`` letter by letter, words apart, its marks by name ("R, I, K; O, apostrophe,
    B")."""
    return "; ".join(", ".join(MARK_NAMES.get(c, c.upper()) for c in word)
                     for word in re.findall(NAME_WORD, text))


#: letters whose names sound alike (the "E-set", and m/n): a recogniser hears one for another
SOUND_ALIKE = ("bcdegptvz", "mn")
MEND_AT = 0.75  # a hearing this close to the spelling, once mended, is worth offering


def mended(spelled: str, heard: Iterable[str]) -> str | None:
    """``spelled`` mended from a hearing of the same answer with as many words: a letter that
    sounds like the hearing's letter in its place ("D" for "e") is taken from the hearing, as is
    one letter the spelling lacks ("L V E" and "love"); the hearing nearest once mended, when it
    is at least MEND_AT alike and the spelling changed ("Bad Tdmpdr" and "Mad temper": "Bad
    Temper"). None otherwise."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", spelled)]
    best, nearest = None, MEND_AT
    for text in heard:
        other = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
        if len(other) != len(words):
            continue
        fixed = " ".join(_mend(w, o) for w, o in zip(words, other))
        near = SequenceMatcher(None, fixed, " ".join(other)).ratio()
        if fixed != " ".join(words) and near >= nearest:
            best, nearest = fixed, near
    return " ".join(w.capitalize() for w in best.split()) if best else None


def _mend(spelled: str, heard: str) -> str:
    out = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, spelled, heard, autojunk=False).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:
            out += [h if _alike(s, h) else s for s, h in zip(spelled[i1:i2], heard[j1:j2])]
        elif tag == "insert" and j2 - j1 == 1:
            out.append(heard[j1])
        else:
            out.append(spelled[i1:i2])
    return "".join(out)


def _alike(a: str, b: str) -> bool:
    return any(a in group and b in group for group in SOUND_ALIKE)
