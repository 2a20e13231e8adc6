"""Whisper's habits in what it writes, undone: a phrase said over and over on a short window
("Five. Five."), a spelling looped ("c a r n n n n"), numbers written in digits."""

from __future__ import annotations

from narrator.understand import normalise
from narrator.understand.spelling import ended, letter_words
from narrator.understand.words import TENS, UNITS

LOOPED_AT = 4  # letters and words of a spelling written twice over or more: a loop, not a name
LETTER_RUN = 3  # one letter written this many times running is a loop too ("c a r r r r r")


def once(text: str) -> str:
    """A transcript said over and over ("Banana. Banana. Banana"), a habit of Whisper on a
    short window, as said once ("Banana."), also when the token limit cut its last word after
    two whole turns ("Quick wits. Quick wits. Quick w"); any other transcript as it is."""
    words = text.split()
    said = normalise(text).split()
    if len(said) != len(words):
        return text
    for length in range(1, len(said) // 2 + 1):
        cut = len(said) > 2 * length and said[(len(said) - 1) % length].startswith(said[-1])
        if all(w == said[i % length] for i, w in enumerate(said[:-1] if cut else said)):
            return " ".join(words[:length])
    return text


def spelled_once(text: str) -> str:
    """A spelling written over and over ("Oscar, apostrophe, Bravo Oscar, apostrophe, Bravo")
    as spelled once (``once``); a name that repeats a part of fewer than LOOPED_AT letters ("L
    U L U": Lulu, "T I N T I N") as it is."""
    said = once(text)
    return said if len(said.split()) >= LOOPED_AT else text


def done_in_place(again: str, first: str) -> bool:
    """Whether ``again``, a spelling decoded after one that ends with "done", has that word
    in place of what ``first`` (decoded unprompted) wrote for it: it ends with the word and
    holds no more letters than ``first`` ("S-A-R-A-H-N" again "S-A-R-A-H Done"). One with more
    copied the prompt's letters: espeak-ng's radio "Elsa Evans" in the room came back "...
    November C. I. M. Done." after "K. I. M. Done."."""
    return ended(again) and letters_in(again) <= letters_in(first)


def letters_in(spelling: str) -> int:
    """How many letters (and marks, spaces) Whisper's transcript of a spelling holds."""
    return len(letter_words(spelled_once(spelling)))


def looped(spelling: str) -> bool:
    """Whether Whisper looped on a spelling: its letters are some of them over and over, more
    than twice ("c a r n d l a c a r n d l a c a r n"; "t i n t i n" is a name), or hold one
    letter LETTER_RUN times running ("c a r n n n n")."""
    letters = letter_words(spelling)
    over_and_over = any(
        len(letters) > 2 * period and all(letter == letters[i % period]
                                          for i, letter in enumerate(letters))
        for period in range(1, len(letters) // 2 + 1))
    running = any(len(set(letters[i:i + LETTER_RUN])) == 1
                  for i in range(len(letters) - LETTER_RUN + 1))
    return over_and_over or running


def doubled(phrase: str) -> bool:
    """Whether a phrase is some words said twice ("five five")."""
    words = phrase.split()
    half = len(words) // 2
    return len(words) % 2 == 0 and half > 0 and words[:half] == words[half:]


def digits(text: str) -> str:
    """Number words as digits ("Four and twenty one" → "4 and 21"), as Whisper writes them."""
    out: list[str] = []
    for word in text.split():
        low = word.lower()
        if low in UNITS and out and out[-1].isdigit() and int(out[-1]) in TENS.values() \
                and 0 < UNITS.index(low) < 10:
            out[-1] = str(int(out[-1]) + UNITS.index(low))
        elif low in UNITS:
            out.append(str(UNITS.index(low)))
        elif low in TENS:
            out.append(str(TENS[low]))
        else:
            out.append(word)
    return " ".join(out)


def forms(phrase: str) -> list[str]:
    """A phrase as Whisper writes it: capitalised, with a full stop or none, and with its
    numbers in digits."""
    first = phrase[:1].upper() + phrase[1:]
    return list(dict.fromkeys([first + ".", first, digits(first) + "."]))
