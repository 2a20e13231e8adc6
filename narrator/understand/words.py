"""The vocabulary under every phrase: number words, carriers, synonyms, and how text is cleaned.

This is the only place these lists live: the templates (phrases.py), the matcher, and the rules
(which name spies, cards and traits the way the matcher will hear them) all read them here.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, Iterable

import jellyfish
from rapidfuzz.fuzz import ratio

UNITS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}
HUNDRED = 100
#: other spellings of a one-word number: homophones a transcript or a typist may use
NUMBER_SPELLINGS: dict[int, tuple[str, ...]] = {
    0: ("oh", "none", "nothing"), 1: ("won",), 2: ("to", "too"), 4: ("for",), 8: ("ate",),
}
#: "two sixes": two dice showing six
PLURAL_FACES = ("ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
                "nines", "tens", "elevens", "twelves")

#: a word said for another in a word choice ("head" for "heads")
WORD_SYNONYMS = {"head": "heads", "tail": "tails", "merits": "merit", "curses": "curse",
                 "passed": "pass", "boons": "boon", "lys": "lis"}

#: carriers: words a typed or transcribed answer may carry around its meaning ("I rolled a four
#: and a nine", "it's heads"); the matcher skips them where a template does not use them
FILLERS = frozenset({
    "i", "we", "you", "they", "he", "she", "rolled", "roll", "got", "get", "have", "has",
    "a", "an", "and", "the", "um", "uh", "er", "so", "it's", "its", "it", "is", "was", "were",
    "on", "with", "then", "plus", "comma", "dice", "die", "please", "thanks", "okay", "ok",
    "narrator", "of",
})

#: signs (hyphen, plus, the minus sign and dashes) and fractions that make a written number
#: no whole count
_SIGN = "-+\u2212\u2012\u2013\u2014\ufe63\uff0d"
_FRACTION = "\u00bc-\u00be\u2150-\u215e"
_TOKEN = re.compile(rf"[{_SIGN}]?\d+(?:[.,:/]\d+)+|(?<![\w.])[{_SIGN}] ?\d+|\d*[{_FRACTION}]"
                    rf"|(?<![\w.])\.\d+|[a-z0-9']+")


def normalise(text: str) -> str:
    """Lower case, punctuation gone, hyphenated words split ("twenty-seven"), numbers in digits
    spelled out ("4" → "four"). A signed or fractional number ("-1", "−1", "+1", "1.5", ".5",
    "1½") stays as it is written, so it is never read as a number."""
    text = text.lower().replace("\u2019", "'")
    text = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", text)
    words = []
    for token in _TOKEN.findall(text):
        token = token.strip("'").replace(" ", "")
        if token.isdigit() and int(token) <= HUNDRED:
            words.append(spoken(int(token)))
        elif token:
            words.append(token)
    return " ".join(words)


def digits_apart(text: str) -> str:
    """Digits written as one number set apart ("421" → "4 2 1", "3.5" → "3 5"): dice faces
    said in a run, as a recogniser writes them ("four two one" as "421")."""
    return re.sub(r"(?<=\d)[.-]?(?=\d)", " ", text)


#: how alike in letters a transcript is to a phrase it nearly spells (``spells``)
SPELLED_AT = 0.72


def spells(said: str, phrase: str) -> bool:
    """Whether ``said`` spells ``phrase`` nearly letter for letter (case, spaces and
    punctuation aside), at least SPELLED_AT alike: how a recogniser writes a phrase it cannot
    spell ("spend a flare, deless." for "spend a fleur de lis", "So the word, please." for
    "slower please").

    The bar lies above every line of the hearing bench's table talk against its nearest
    phrase (at most 0.67: "okay so where were we" and "where are we") and under most of what
    Whisper wrote for "spend a fleur de lis" (0.73 to 0.79; "Spend Flirtyless." 0.58 is not)."""
    said, phrase = normalise(said).replace(" ", ""), normalise(phrase).replace(" ", "")
    return bool(said and phrase) and \
        difflib.SequenceMatcher(None, said, phrase).ratio() >= SPELLED_AT


#: how alike the sound keys of a transcript and a phrase it sounds like are, of 100
#: (``sounds_alike``), and the least length of each key
SOUNDS_AT = 85
SOUND_KEY = 6


def sounds_alike(said: str, phrase: str) -> bool:
    """Whether ``said`` sounds like ``phrase``, spelled otherwise: a trait the game took by ear
    as "so she'll manipulate her" and said again as "Social manipulator.". Their Metaphone keys
    (consonant sounds, spaces aside: SXLMNPLTHR, SXLMNPLTR) are SOUNDS_AT alike, each SOUND_KEY
    long at least and no more than one longer than the other, and neither's words hold all of
    the other's ("no interference" is no "interference").

    The bar lies above every line of the hearing bench's table talk, and every transcript the
    table bench's runs ignored (920), against every word choice those runs' questions listed
    (222; at most 83: "Cross stress." and "crossroads"); "shall manipulator" scores 94, "she'll
    manipulate her" 89."""
    a, b = normalise(said), normalise(phrase)
    if a == b or set(a.split()) <= set(b.split()) or set(b.split()) <= set(a.split()):
        return False
    keys = [jellyfish.metaphone(text.replace(" ", "")) for text in (a, b)]
    return min(map(len, keys)) >= SOUND_KEY and abs(len(keys[0]) - len(keys[1])) <= 1 \
        and ratio(*keys) >= SOUNDS_AT


def carries(said: str, phrase: str) -> bool:
    """Whether a transcript carries something of ``phrase``: a word of it, or nearly its
    spelling (``spells``). "Thank you." carries nothing of "first"; "Fist." does."""
    return bool(set(normalise(said).split()) & set(normalise(phrase).split())) \
        or spells(said, phrase)


def spoken(n: int) -> str:
    """A number from 0 to 100 as words ("twenty one", "one hundred")."""
    if n < 20:
        return UNITS[n]
    if n == HUNDRED:
        return "one hundred"
    tens = next(w for w, v in TENS.items() if v == n - n % 10)
    return tens if n % 10 == 0 else f"{tens} {UNITS[n % 10]}"


def number_words(n: int) -> tuple[str, ...]:
    """Every written form of ``n`` the matcher reads: the spoken one first, then homophones."""
    return (spoken(n),) + NUMBER_SPELLINGS.get(n, ())


def key(text: str) -> str:
    """What a spoken word choice comes down to: the words left when carriers are skipped and
    synonyms replaced ("The Fox" → "fox"). Rules name spies, cards and traits by it."""
    return " ".join(WORD_SYNONYMS.get(w, w) for w in normalise(text).split() if w not in FILLERS)


def lost_words(name: str) -> list[str]:
    """The words of ``name`` that ``key`` drops or rewrites (a name players could not say)."""
    return [w for w in normalise(name).split() if w in FILLERS or w in WORD_SYNONYMS]


# --------------------------------------------------------------------------- articles, plurals

#: words spelled with a vowel that are said with a consonant ("a one", "a unit") or the
#: reverse ("an hour"); checked as prefixes of the word
_SAID_WITH_CONSONANT = ("one", "once", "uni", "use", "usu", "uto", "eu", "ewe", "ur")
_SAID_WITH_VOWEL = ("hour", "honest", "honour", "honor", "heir")


def article(thing: object) -> str:
    """"a" or "an" before ``thing`` as it is said: a number ("an 8", "an 11", "an 8-sided",
    "a 1") or a word ("an ace", "a one", "an hour")."""
    text = str(thing).strip().lower()
    digits = re.match(r"-?\d+", text)  # "8", "8-sided", "11th"
    if digits:
        n = digits.group(0)
        text = spoken(int(n)) if 0 <= int(n) <= HUNDRED else _big(n)
    first = text.split()[0] if text.split() else ""
    if first.startswith(_SAID_WITH_VOWEL):
        return "an"
    if first.startswith(_SAID_WITH_CONSONANT):
        return "a"
    return "an" if first[:1] in tuple("aeio") or first.startswith("u") else "a"


def _big(digits: str) -> str:
    """The first spoken word of a number over a hundred or below zero (enough for its
    article): "eight" for 800 and 8000, "eleven" for 11000, "minus" for -3."""
    if digits.startswith("-"):
        return "minus"
    lead = digits[: len(digits) % 3 or 3]
    return spoken(int(lead)) if int(lead) < 20 else spoken(int(lead[:2]) // 10 * 10)


def with_article(thing: object) -> str:
    """``thing`` with its article ("an 8", "a 6", "an ace")."""
    return f"{article(thing)} {thing}"


def spoken_list(items: Iterable[Any]) -> str:
    """"4, 9 and 12": a list as it is said aloud."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def counted(n: object, one: str, many: str | None = None) -> str:
    """A count and its noun in the right number ("1 die", "2 dice", "0 points"); ``many``
    defaults to ``one`` + "s"."""
    return f"{n} {one if str(n).strip().lstrip('-') in ('1', 'one') else many or one + 's'}"
