"""Every command and answer, written once as templates, and which are live in which mode.

A control is a name, the label "help" says for it, and its templates. An answer's templates come
from what the game expects (``answers``). ``phrases(expectation, mode)`` lists the live ones in
the order the matcher tries them: word choices, then controls, then the other answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from narrator.understand.expect import (
    Accept,
    AcceptContinue,
    AcceptDice,
    AcceptNumber,
    AcceptSuccesses,
    AcceptText,
    AcceptWords,
    Expectation,
)
from narrator.understand.template import Expr, W, alt, opt, parse, parse_text, seq
from narrator.understand.words import WORD_SYNONYMS, normalise

MAX_TRACK = 30       # "go to track N" in a recogniser's grammar, unless told the game's tracks
MAX_WORD_NUMBER = 20  # "curse N" in a recogniser's grammar
WAKE_WORD = "narrator"
MODES = ("asking", "reading", "paused", "confirming", "spelling")

#: sub-templates shared by several controls
SHARED = {
    "go_on": parse("go on | continue"),
    # "U.S." and "US.": Whisper's writing of some voices' "yes" (flite awb's, 12 times of 12
    # in the table bench's read-backs), else taken as a new name
    "yes": parse("(yes | yeah | yep | yup) [(that's | that is) right | correct] | correct"
                 " | [that's | that is] right | confirm | u s | us"),
    "no": parse("(no | nope | nah) [(that's | that is) wrong | it's not | it isn't]"
                " | [that's | that is] wrong | incorrect | not quite"),
}


@dataclass(frozen=True)
class ControlPhrase:
    """A control: its name, what "help" calls it, and its template. ``polite``: "please" may
    come before it or after it ("please pause", "go back please")."""

    name: str
    label: str
    template: str
    polite: bool = True


CONTROLS = (
    # not "hang on" (flite awb's "heads" and "tails" at 10 dB were scored as it and paused a
    # Half-Chance run 3 times), nor "one moment" or "come again" (near "one" and "Come on.")
    ControlPhrase("pause", "pause", "(pause | hold on | wait) [a (second | minute | moment)]"),
    # not "unpause" (heard as "pause please" in 7 voices of 8), nor "be quiet" for stop (what
    # Whisper writes for "please speak quieter")
    ControlPhrase("resume", "resume", "resume | carry on | keep (going | reading)"),
    ControlPhrase("stop", "stop", "stop"),
    ControlPhrase("next", "next",
                  "[go to] [the] next [track | one] | skip [it | this | that] | move on | {go_on}"),
    ControlPhrase("repeat", "repeat",
                  "repeat [that] | (say | read) (that | it) again | what did you say | say again"),
    ControlPhrase("back", "go back", "[go] back [one] | undo [that] | take that back"),
    ControlPhrase("help", "help", "help | what can i say | what do i say | options", False),
    ControlPhrase("whatnow", "what now",
                  "what now | what (is | are) [the game | we | you] waiting for | what happens now"
                  " | what do (we | i) do now | what's the question", False),
    ControlPhrase("status", "status", "status | where are we [now] | recap | score", False),
    ControlPhrase("slower", "slower", "[speak] slower | slow down"),
    ControlPhrase("faster", "faster", "[speak] faster | speed up"),
    ControlPhrase("louder", "louder", "[speak] louder | speak up"),
    ControlPhrase("quieter", "quieter", "[speak] quieter | softer"),
    ControlPhrase("yes", "yes", "{yes}", False),
    ControlPhrase("no", "no", "{no}", False),
    ControlPhrase("roll", "roll for me", "[you] (roll | flip) [for me | them | it]"),
    ControlPhrase("goto", "go to track N", "[go to | goto | skip to | jump to | read] track {n}",
                  False),
    ControlPhrase("quit", "quit", "[save and] (quit | exit) | end [the] session", False),
    ControlPhrase("spell", "spell it", "[let me] spell [it | that | the name]"),
)
CONTROL = {c.name: c for c in CONTROLS}

#: which controls each mode hears, in the order "help" names them ("yes" and "no" answer a
#: read-back, or a question that lists them as words)
LIVE_CONTROLS = {
    "asking": ("repeat", "back", "status", "whatnow", "help", "pause", "resume", "slower",
               "faster", "goto", "quit", "next", "stop", "roll", "louder", "quieter", "spell"),
    "reading": ("pause", "stop", "next", "repeat", "back", "whatnow", "slower", "faster", "louder",
                "quieter", "help"),
    # "pause" (not offered by help): a second player's "pause please" was fitted to "next
    # please", "hold on" to "go on", when it was no phrase here
    "paused": ("resume", "repeat", "next", "back", "whatnow", "help", "quit", "stop", "pause"),
    "confirming": ("yes", "no", "back", "repeat", "whatnow", "help", "pause", "stop", "quit",
                   "spell", "roll"),
    # typed, mostly: Whisper writes only letters while spelling (a spoken "back" is spelled)
    "spelling": ("back", "repeat", "whatnow", "help", "quit"),
}
#: controls heard in fewer words over the reading, where a remark at the table weighs more:
#: Whisper wrote "oh no" "Oh no." and it was fitted to "undo", "ugh" written "Doug." to "back"
READING_TEMPLATES = {"back": "go back"}
#: the control each mode mostly waits for: a paused narrator for "resume", a reading one for
#: "pause", and one asking too (a recogniser that scores candidates always weighs it): a table
#: says "pause" over a passage as the question after it comes (flite awb's was written
#: "Force?" there, and "pause", never a candidate, was lost 28 times in 28, docs/speech-in.md)
AWAITED_CONTROL = {"paused": "resume", "reading": "pause", "asking": "pause"}
#: the controls "help" lists as sayable at any time while a question waits
ANY_TIME = LIVE_CONTROLS["asking"][:11]


def control_label(name: str) -> str:
    """What "help" calls a control, a phrase that says it ("spell it" for "spell")."""
    return CONTROL[name].label


def live_controls(mode: str) -> tuple[str, ...]:
    """The names of the controls ``mode`` hears."""
    return LIVE_CONTROLS[mode]


@dataclass(frozen=True)
class Phrase:
    """A template (``expr``) and what a match of it means: a control's name, or the Accept it
    answers (None for a control)."""

    expr: Expr
    control: str | None = None
    accept: Accept | None = None


@lru_cache(maxsize=None)
def control_expr(name: str, mode: str = "asking", tracks: int = MAX_TRACK) -> Expr:
    """The expression of one control in ``mode`` (over the reading, in the fewer words of
    READING_TEMPLATES), its track number (1 to ``tracks``) tagged ``n``."""
    control = CONTROL[name]
    template = READING_TEMPLATES.get(name, control.template) if mode == "reading" \
        else control.template
    expr = parse(template, **SHARED, n=("num", "n", 1, tracks))
    if control.polite:
        expr = parse("please {it} | {it} [please]", it=expr)
    if name == "resume" and mode == "paused":  # "go on" resumes (tried before "next")
        return alt([expr, SHARED["go_on"]])
    return expr


# --------------------------------------------------------------------------- answers

def number(tag: str, lo: int, hi: int) -> Expr:
    return ("num", tag, lo, hi)


def dice(accept: AcceptDice) -> Expr:
    """"[I rolled] four and nine", "a six and a six", "two sixes", "two, seven and eleven"."""
    single = parse("[a/an] {face}", face=number("face", 1, accept.sides))
    group = parse("{count} {faces}", count=number("count", 2, accept.max_count),
                  faces=("plural", "faces", 1, accept.sides))
    faces = ("list", accept.min_count, accept.max_count, single, group, opt(W("and")))
    return parse("[(i | we) (rolled | got | have)] {faces}", faces=faces)


def successes(accept: AcceptSuccesses) -> Expr:
    return parse("{n} (successes | hits) | {one} | {none}", n=number("n", 0, accept.max),
                 one=("val", "n", 1, parse("one (success | hit)")),
                 none=("val", "n", 0, parse("zero [successes | hits] | no (successes | hits)"
                                            " | none | nothing")))


def _said_as(word: str) -> Expr:
    """A word choice as said; a word's near-homophone synonyms ("head" for "heads") are read
    as other spellings of it."""
    if word in ("yes", "no"):
        return SHARED[word]
    return seq(*(W(w, *(s for s, canon in WORD_SYNONYMS.items() if canon == w))
                  for w in normalise(word).split()))


def words(accept: AcceptWords) -> Expr:
    """One of the words, or a numbered word and its number ("curse seven"); a word spent
    may be said so ("I spend a fleur-de-lis", "spend the token")."""
    items = [("val", "word", w, _said_as(w)) for w in accept.words]
    items += [("val", "word", w, seq(_said_as(w), number("n", 0, MAX_WORD_NUMBER)))
              for w in accept.numbered]
    return parse("[it's | it is | [i] (spend | spending) [a | the]] {choice}", choice=alt(items))


def answer_expr(accept: Accept) -> Expr | None:
    """The templates answering ``accept`` (None: free text, or "next" for AcceptContinue)."""
    if isinstance(accept, AcceptDice):
        return dice(accept)
    if isinstance(accept, AcceptSuccesses):
        return successes(accept)
    if isinstance(accept, AcceptNumber):
        return parse("[it's | it is] {n}", n=number("n", accept.min, accept.max))
    if isinstance(accept, AcceptWords) and (accept.words or accept.numbered):
        return words(accept)
    return None


# --------------------------------------------------------------------------- what is live now

def phrases(expectation: Expectation | None, mode: str = "asking",
            tracks: int = MAX_TRACK) -> list[Phrase]:
    """The live phrases in the order the matcher tries them; "go to track N" for N up to
    ``tracks`` (none when 0: a game without tracks)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
    accepts = expectation.accepts if expectation is not None else ()
    if mode in ("paused", "spelling"):  # spelled letters are read apart (``spelling``)
        accepts = ()
    first = [Phrase(e, accept=a) for a in accepts if isinstance(a, AcceptWords)
             if (e := answer_expr(a)) is not None]
    rolling = any(isinstance(a, AcceptDice) for a in accepts)
    controls = [Phrase(control_expr(n, mode, tracks), control=n)
                for n in controls_now(expectation, mode)
                if (n != "roll" or rolling)  # "roll for me" only when dice are asked for
                and (n != "spell" or is_free(expectation, mode))  # and "spell it" for text
                and (n != "goto" or tracks > 0)]
    rest = [Phrase(e, accept=a) for a in accepts if not isinstance(a, AcceptWords)
            if (e := answer_expr(a)) is not None]
    return first + controls + rest


def controls_now(expectation: Expectation | None, mode: str) -> tuple[str, ...]:
    """The controls ``mode`` hears now: while a yes or no is asked at a question that waits
    for "next" ('Did you say "go back"?'), "next" too, the answer said instead (Whisper wrote
    flite awb's "next" there "Next.", fitted to "nope" or "exit": didn't catch that)."""
    more = ("next",) if mode == "confirming" and continues(expectation) else ()
    return LIVE_CONTROLS[mode] + more


def is_free(expectation: Expectation | None, mode: str = "asking") -> bool:
    """Whether free text is an answer now (a name, a label; spelled, in mode "spelling")."""
    return (expectation is not None and mode in ("asking", "confirming", "spelling")
            and any(isinstance(a, AcceptText) for a in expectation.accepts))


def continues(expectation: Expectation | None) -> bool:
    """Whether "next" goes on now (the game only waits)."""
    return expectation is not None and any(isinstance(a, AcceptContinue)
                                           for a in expectation.accepts)


def is_command(text: str) -> bool:
    """Whether ``text`` is one of the controls' phrases (a name no player could say)."""
    said = normalise(text).split()
    return bool(said) and any(parse_text(control_expr(c.name), said) == (0, ())
                              for c in CONTROLS)
