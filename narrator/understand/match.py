"""Typed or transcribed text → what it means now: a control, a game input, or Unclear.

``understand(text, expectation, mode)`` reads the text against the live phrases (phrases.py) in
groups: word choices, then controls, then the other answers; within a group an answer in range
beats one out of range, then fewer skipped carriers, then the earlier phrase. Carrier words
("I rolled a ...", "please", "um") are skipped where a template does not use them, so "I rolled
a four and a nine" and "Go back, please." read like the phrases they carry. A number outside
what is legal is still read, so the reply can say why ("7 is not a face of a 6-sided die.").
Nothing that is not a whole phrase changes the game.
"""

from __future__ import annotations

from narrator.events import (
    Continue, Control, Dice, GameInput, Number, Successes, Text, Unclear, Word,
)
from narrator.understand.expect import (
    AcceptDice,
    AcceptNumber,
    AcceptSuccesses,
    AcceptWords,
    Expectation,
)
from narrator.understand.describe import wanted
from narrator.understand.phrases import Phrase, continues, is_free, phrases
from narrator.understand.spelling import letters
from narrator.understand.template import parse_text
from narrator.understand.words import counted, normalise, with_article

Meaning = Control | GameInput | Unclear
ANSWERING = ("asking", "confirming")  # the modes in which "next" may name a choice


def understand(text: str, expectation: Expectation | None,
               mode: str = "asking") -> Meaning:
    """What ``text`` means now. ``expectation`` None: only controls are live."""
    said = normalise(text)
    if not said:
        return Unclear(text, "I heard nothing.")
    words = said.split()
    live = phrases(expectation, mode)
    for group in _groups(live):
        found = []  # (refused, carriers skipped, order, meaning)
        for order, phrase in enumerate(group):
            read = parse_text(phrase.expr, words)
            if read is not None:
                meaning = _meaning(phrase, read[1], expectation, said, text, mode)
                found.append((isinstance(meaning, Unclear), read[0], order, meaning))
        if found:
            return min(found, key=lambda f: f[:3])[3]
    if mode == "spelling" and is_free(expectation, mode):
        spelled = letters(text)
        return Text(spelled) if spelled else Unclear(text, "I heard no letters: spell it "
                                                           "with alpha, bravo, charlie, or "
                                                           "one letter at a time.")
    if is_free(expectation, mode):
        return Text(_as_kept(text))
    return Unclear(text, _not_now(said, expectation))


def _as_kept(text: str) -> str:
    """Free text as the game keeps it: spaces evened, without the full stop (or ! ? , ; :) a
    transcriber ends it with (else "How many contestants on team Falcon.?", "Elsa, Evans,,
    what do you do?")."""
    return " ".join(text.split()).rstrip(" .!?,;:")


def _groups(live: list[Phrase]) -> list[list[Phrase]]:
    """Word choices first, then controls, then the other answers (each in order)."""
    words = [p for p in live if isinstance(p.accept, AcceptWords)]
    controls = [p for p in live if p.control is not None]
    rest = [p for p in live if p.accept is not None and not isinstance(p.accept, AcceptWords)]
    return [words, controls, rest]


def _meaning(phrase: Phrase, ordered: tuple, expectation: Expectation | None, said: str,
             text: str, mode: str) -> Meaning:
    """What a match of ``phrase`` means in ``mode``, given what it captured (``ordered``)."""
    caps = dict(ordered)
    if phrase.control is not None:
        if phrase.control == "next" and continues(expectation):
            return Continue()
        choice = _next_choice(expectation) if phrase.control == "next" else None
        if choice is not None and said.split()[0] == "next" and mode in ANSWERING:
            return Word(choice)
        if phrase.control == "goto":
            return Control("goto", caps["n"])
        return Control(phrase.control)
    accept = phrase.accept
    if isinstance(accept, AcceptWords):
        return Word(caps["word"], caps.get("n"))
    if isinstance(accept, AcceptDice):
        return _dice(ordered, accept, said)
    if isinstance(accept, AcceptSuccesses):
        if caps["n"] > accept.max:
            return Unclear(said, f"{counted(caps['n'], 'success', 'successes')} is more than "
                                 f"there are dice ({accept.max}).")
        return Successes(caps["n"])
    assert isinstance(accept, AcceptNumber)
    n = caps["n"]
    if not accept.min <= n <= accept.max:
        return Unclear(text, f"{n} is out of range: say a number from {accept.min} to "
                             f"{accept.max}.")
    return Number(n)


def _next_choice(expectation: Expectation | None) -> str | None:
    """The one listed word that begins with "next" ("next phase"), which "next" said where
    the game does not wait is (in a noise Whisper wrote "next phase" as "next", sure, and
    the game refused it); None when there is none, or more than one."""
    if expectation is None:
        return None
    found = {w for a in expectation.accepts if isinstance(a, AcceptWords) for w in a.words
             if w.split()[0] == "next"}
    return found.pop() if len(found) == 1 else None


def _dice(caps: tuple, accept: AcceptDice, said: str) -> Dice | Word | Unclear:
    faces: list[int] = []
    count = 1
    for tag, value in caps:
        if tag == "count":
            count = value
        elif tag in ("face", "faces"):
            faces.extend([value] * count)
            count = 1
    bad = [f for f in faces if not 1 <= f <= accept.sides]
    if bad:
        return Unclear(said, f"{bad[0]} is not a face of {with_article(accept.sides)}-sided die.")
    if not accept.min_count <= len(faces) <= accept.max_count:
        want = (str(accept.min_count) if accept.min_count == accept.max_count
                else f"{accept.min_count} to {accept.max_count}")
        return Unclear(said, f"I heard {counted(len(faces), 'die', 'dice')}; I need {want}.")
    if accept.faces:  # a named die: "one" at a coin is heads
        return Word(accept.faces[faces[0] - 1])
    return Dice(tuple(faces))


#: how long a list of answers the reason for a refusal names (a longer one: "help" says it)
NAMED_ANSWERS = 80


def _not_now(said: str, expectation: Expectation | None) -> str:
    """Why ``said`` is not taken: what the question takes instead (or where to hear it)."""
    if expectation is None or expectation.over:
        return f"I didn't catch a command in \"{said}\"."
    what = wanted(expectation)
    if len(what) <= NAMED_ANSWERS:
        return f"\"{said}\" doesn't answer this question: it takes {what}."
    return f"\"{said}\" isn't one of the answers to this question; \"help\" says them all."
