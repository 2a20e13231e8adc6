"""The one understanding layer: an utterance (typed or recognised) → a control or a game input.

``understand(text, expectation)`` knows what the game accepts now, so "four" is a die face when
dice are expected and a count when a number is. Anything that is not a whole, legal input becomes
``Unclear`` with a reason to say back; it never changes the game.
"""

from __future__ import annotations

import re

from narrator.events import Continue, Control, Dice, GameInput, Number, Successes, Text, Unclear, Word
from narrator.rules.base import (
    AcceptContinue,
    AcceptDice,
    AcceptNumber,
    AcceptSuccesses,
    AcceptText,
    AcceptWords,
    Expectation,
)

UNITS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
]
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate(UNITS)} | TENS | {
    "oh": 0, "none": 0, "nothing": 0, "won": 1, "to": 2, "too": 2, "for": 4, "ate": 8,
}
#: "sixes" → 6: "two sixes" is two dice showing six
PLURAL_FACES: dict[str, int] = {
    "ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6, "sevens": 7,
    "eights": 8, "nines": 9, "tens": 10, "elevens": 11, "twelves": 12,
}

#: phrase → control; matched against the whole normalised utterance
CONTROL_PHRASES: dict[str, tuple[str, ...]] = {
    "pause": ("pause", "hold on", "wait"),
    "resume": ("resume", "carry on", "keep going", "unpause"),
    "stop": ("stop", "be quiet", "quiet"),
    "next": ("next", "go on", "continue", "next track", "skip"),
    "repeat": ("repeat", "say that again", "again", "repeat that", "what did you say"),
    "back": ("back", "go back", "undo", "take that back"),
    "help": ("help", "what can i say", "what do i say", "options"),
    "status": ("status", "where are we", "where are we now", "recap", "score"),
    "slower": ("slower", "slow down", "speak slower"),
    "faster": ("faster", "speed up", "speak faster"),
    "yes": ("yes", "yeah", "yep", "correct", "right", "that's right", "confirm"),
    "no": ("no", "nope", "wrong", "that's wrong", "incorrect"),
    "roll": ("roll for me", "roll", "you roll", "roll them", "roll it", "flip for me", "flip"),
    "quit": ("quit", "exit", "save and quit", "end session"),
}
PHRASE_TO_CONTROL = {p: name for name, phrases in CONTROL_PHRASES.items() for p in phrases}

WORD_SYNONYMS = {"head": "heads", "tail": "tails", "merits": "merit", "curses": "curse",
                 "passed": "pass", "boons": "boon", "yeah": "yes", "yep": "yes", "nope": "no"}

#: words dropped before reading numbers: "I rolled a four and a nine" → "four nine"
FILLERS = {
    "i", "we", "you", "they", "he", "she", "rolled", "roll", "got", "get", "have", "has",
    "a", "an", "and", "the", "um", "uh", "er", "so", "it's", "its", "it", "is", "was", "were",
    "on", "with", "then", "plus", "comma", "dice", "die", "please", "okay", "ok", "narrator",
}
GOTO = re.compile(r"^(?:go to |goto |skip to |jump to |read )?track (\w+(?: \w+)?)$")
SUCCESS = re.compile(r"^(.*?)\s*(?:successes|success|hits|hit)$")


def normalise(text: str) -> str:
    """Lower case, digits kept, punctuation to spaces, hyphens split ("twenty-seven")."""
    text = text.lower().replace("-", " ")
    text = re.sub(r"[^a-z0-9' ]+", " ", text)
    return " ".join(text.split())


def number_of(words: list[str]) -> int | None:
    """The number a short run of words names ("twenty seven", "12"), or None."""
    if len(words) == 1:
        w = words[0]
        return int(w) if w.isdigit() else NUMBER_WORDS.get(w)
    if len(words) == 2 and words[0] in TENS and words[1] in UNITS[1:10]:
        return TENS[words[0]] + UNITS.index(words[1])
    return None


def numbers_in(text: str) -> list[int] | None:
    """Every number spoken in ``text`` in order ("a six and a six" → [6, 6]); None if any
    word is neither a number nor a filler."""
    words = [w for w in text.split() if w not in FILLERS]
    out: list[int] = []
    i = 0
    while i < len(words):
        w = words[i]
        pair = number_of(words[i:i + 2])
        if pair is not None and i + 1 < len(words) and w in TENS:
            out.append(pair)
            i += 2
            continue
        single = number_of([w])
        if single is not None and i + 1 < len(words) and words[i + 1] in PLURAL_FACES:
            out.extend([PLURAL_FACES[words[i + 1]]] * single)
            i += 2
            continue
        if single is None:
            return None
        out.append(single)
        i += 1
    return out


def understand(text: str, expectation: Expectation | None) -> Control | GameInput | Unclear:
    """What ``text`` means now. ``expectation`` None means only controls are live."""
    said = normalise(text)
    if not said:
        return Unclear(text, "I heard nothing.")
    accepts = expectation.accepts if expectation else ()
    words = next((a for a in accepts if isinstance(a, AcceptWords)), None)
    if words is not None:
        word = _word(said, words)
        if word is not None:
            return word
    control = _control(said)
    if control is not None:
        if control.name == "next" and any(isinstance(a, AcceptContinue) for a in accepts):
            return Continue()
        return control
    for accept in accepts:
        result = _game_input(text, said, accept)
        if result is not None:
            return result
    return Unclear(text, _not_now(said, expectation))


def _control(said: str) -> Control | None:
    name = PHRASE_TO_CONTROL.get(said)
    if name is not None:
        return Control(name)
    match = GOTO.match(said)
    if match:
        n = number_of(match.group(1).split())
        if n is not None:
            return Control("goto", n)
    return None


def _word_parts(said: str) -> list[str]:
    """The words that count in an answer: fillers dropped, synonyms made one."""
    parts = [WORD_SYNONYMS.get(w, w) for w in said.split() if w not in FILLERS or w == "i"]
    return [p for p in parts if p not in ("of", "i")]


def _word(said: str, accept: AcceptWords) -> Word | None:
    parts = _word_parts(said)
    if len(parts) == 1 and parts[0] in accept.words:
        return Word(parts[0])
    phrase = " ".join(parts)
    if phrase in accept.words:
        return Word(phrase)
    # an answer written with fillers of its own ("open the hatch") matches once both lose them
    plain = {" ".join(_word_parts(w)): w for w in accept.words}
    if phrase and phrase in plain:
        return Word(plain[phrase])
    if parts and parts[0] in accept.numbered:
        n = number_of(parts[1:])
        if n is not None:
            return Word(parts[0], n)
    return None


def _game_input(original: str, said: str, accept) -> GameInput | Unclear | None:
    if isinstance(accept, AcceptSuccesses):
        return _successes(said, accept)
    if isinstance(accept, AcceptDice):
        return _dice(said, accept)
    if isinstance(accept, AcceptNumber):
        nums = numbers_in(said)
        if nums is None or len(nums) != 1:
            return None
        if not accept.min <= nums[0] <= accept.max:
            return Unclear(original, f"{nums[0]} is out of range: say a number from "
                                     f"{accept.min} to {accept.max}.")
        return Number(nums[0])
    if isinstance(accept, AcceptText):
        return Text(" ".join(original.split()))
    return None


def _successes(said: str, accept: AcceptSuccesses) -> Successes | Unclear | None:
    match = SUCCESS.match(said)
    body = match.group(1) if match else said
    if match is None and said not in ("none", "nothing", "zero", "no"):
        return None
    if body in ("no", "zero", "none", "") or said in ("none", "nothing", "zero", "no"):
        return Successes(0)
    nums = numbers_in(body)
    if nums is None or len(nums) != 1:
        return None
    if nums[0] > accept.max:
        return Unclear(said, f"{nums[0]} successes is more than there are dice ({accept.max}).")
    return Successes(nums[0])


def _dice(said: str, accept: AcceptDice) -> Dice | Unclear | None:
    faces = numbers_in(said)
    if not faces:
        return None
    bad = [f for f in faces if not 1 <= f <= accept.sides]
    if bad:
        return Unclear(said, f"{bad[0]} is not a face of a {accept.sides}-sided die.")
    if not accept.min_count <= len(faces) <= accept.max_count:
        want = (str(accept.min_count) if accept.min_count == accept.max_count
                else f"{accept.min_count} to {accept.max_count}")
        return Unclear(said, f"I heard {len(faces)} dice; I need {want}.")
    return Dice(tuple(faces))


def _not_now(said: str, expectation: Expectation | None) -> str:
    if expectation is None or expectation.over:
        return f"I didn't catch a command in \"{said}\"."
    return f"\"{said}\" isn't something I can take now. Say \"help\" to hear what I can take."


def describe(expectation: Expectation) -> list[str]:
    """Plain sentences saying what is accepted now (for "help")."""
    out: list[str] = []
    for a in expectation.accepts:
        if isinstance(a, AcceptContinue):
            out.append('"next" to go on')
        elif isinstance(a, AcceptDice):
            if a.min_count == a.max_count == 1:
                what = f"the face of one {a.sides}-sided die"
            else:
                count = (f"{a.min_count}" if a.min_count == a.max_count
                         else f"{a.min_count} to {a.max_count}")
                what = f"the faces of {count} {a.sides}-sided dice, like \"four and nine\""
            out.append(what + (', or "roll for me"' if a.can_roll else " (the table rolls these)"))
        elif isinstance(a, AcceptSuccesses):
            out.append(f'a number of successes from 0 to {a.max}, like "three successes"')
        elif isinstance(a, AcceptNumber):
            out.append(f"a number from {a.min} to {a.max}")
        elif isinstance(a, AcceptWords):
            words = list(a.words) + [f"{w} and a number" for w in a.numbered]
            out.append("one of: " + ", ".join(words))
        elif isinstance(a, AcceptText):
            out.append(f"the {a.label}")
    return out
