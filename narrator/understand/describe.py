""""What can I say": the answers legal now and the controls of a mode, in words for the help."""

from __future__ import annotations

from narrator.understand.expect import (
    AcceptContinue,
    AcceptDice,
    AcceptNumber,
    AcceptSuccesses,
    AcceptText,
    AcceptWords,
    Expectation,
)
from narrator.understand.phrases import ANY_TIME, CONTROL, LIVE_CONTROLS
from narrator.understand.words import counted, spoken, spoken_list, with_article

EXAMPLE_FACES = (4, 9, 2, 11, 6, 7, 3, 12, 5, 10, 1, 8)


def describe(expectation: Expectation | None, mode: str = "asking") -> list[str]:
    """Plain sentences saying which answers are accepted now (for "help")."""
    if expectation is None or mode in ("reading", "paused"):
        return []
    if mode == "spelling":
        return ['the letters as alpha, bravo, charlie (or one by one), "space" between words, '
                '"apostrophe" or "dash" where the name has one, "done" after the last']
    return [s for a in expectation.accepts if (s := _answer(a))]


#: how many words of a choice "what now" and a refusal name; more: the question names them
NAMED_WORDS = 6


def wanted(expectation: Expectation) -> str:
    """What answers ``expectation``, in a few words for "what now" and a refusal ("the faces of
    2 six-sided dice", "\"higher\" or \"lower\"", "a number from 1 to 5")."""
    items = [s for a in expectation.accepts for s in _wanted(a)]
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


def _wanted(a) -> list[str]:
    if isinstance(a, AcceptContinue):
        return ['"next"']
    if isinstance(a, AcceptDice):
        die = f"{spoken(a.sides)}-sided"
        if a.min_count == a.max_count == 1:
            return [f"the face of {with_article(die)} die"]
        count = (a.min_count if a.min_count == a.max_count
                 else f"{a.min_count} to {a.max_count}")
        return [f"the faces of {count} {die} dice"]
    if isinstance(a, AcceptSuccesses):
        return [f"a number of successes from 0 to {a.max}"]
    if isinstance(a, AcceptNumber):
        return [f"a number from {a.min} to {a.max}"]
    if isinstance(a, AcceptWords):
        if len(a.words) + len(a.numbered) > NAMED_WORDS:
            return [f"one of the {len(a.words) + len(a.numbered)} words the question names"]
        return [f'"{w}"' for w in a.words] + [f'"{w}" and a number' for w in a.numbered]
    if isinstance(a, AcceptText):
        return [f"the {a.label}"]
    return []


def controls(mode: str = "asking") -> list[str]:
    """What "help" calls each control live in ``mode`` ("go back", "go to track N"); while a
    question waits, the ones that make sense at any time."""
    names = ANY_TIME if mode == "asking" else LIVE_CONTROLS[mode]
    # named with what they answer: "spell it" with free text, "roll for me" with dice; not
    # "pause" while paused, where it only keeps the pause
    unlisted = ("spell", "roll") + (("pause",) if mode == "paused" else ())
    return [CONTROL[n].label for n in names if n not in unlisted]


def _dice_example(a: AcceptDice) -> str:
    """Faces that answer ``a`` ("four and nine"; on a d8 "four and one")."""
    return spoken_list(spoken((f - 1) % a.sides + 1) for f in EXAMPLE_FACES[:max(a.min_count, 2)])


def _answer(a) -> str:
    if isinstance(a, AcceptContinue):
        return '"next" to go on'
    if isinstance(a, AcceptDice):
        if a.faces:
            what = "a number: " + ", ".join(f"{i} is {n}" for i, n in enumerate(a.faces, 1))
        elif a.min_count == a.max_count == 1:
            what = f"the face of one {a.sides}-sided die"
        else:
            count = (f"{a.min_count}" if a.min_count == a.max_count
                     else f"{a.min_count} to {a.max_count}")
            what = f"the faces of {count} {a.sides}-sided dice, like \"{_dice_example(a)}\""
        roll = f', or "{CONTROL["roll"].label}"' if a.can_roll else " (the table rolls these)"
        return what + roll
    if isinstance(a, AcceptSuccesses):
        example = counted(spoken(min(a.max, 3)), "success", "successes") if a.max else "none"
        return f'a number of successes from 0 to {a.max}, like "{example}"'
    if isinstance(a, AcceptNumber):
        return f"a number from {a.min} to {a.max}"
    if isinstance(a, AcceptWords):
        return "one of: " + ", ".join(list(a.words) + [f"{w} and a number" for w in a.numbered])
    if isinstance(a, AcceptText):
        return f'the {a.label} (or "{CONTROL["spell"].label}" to spell it letter by letter)'
    return ""
