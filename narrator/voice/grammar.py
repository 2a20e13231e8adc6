"""The phrases the recogniser may hear now: built from the game's Expectation plus the controls.

A grammar is a small expression tree (words, sequences, alternatives, optional parts). It renders
to JSGF for pocketsphinx and to a word list for vosk; walking the tree over a transcript's words
decides whether it is one *whole* phrase of it (vosk's phrase list is only a word bigram, and
any engine may return a fragment). Every word is checked against the recogniser's dictionary:
phrases with an unknown word are left out and reported in ``Grammar.unknown``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, Iterable

from narrator.rules.base import (
    AcceptDice,
    AcceptNumber,
    AcceptSuccesses,
    AcceptText,
    AcceptWords,
    Expectation,
)
from narrator.voice.commands import TENS, UNITS, PHRASE_TO_CONTROL

WAKE_WORD = "narrator"
MAX_TRACK = 30
MAX_NUMBER = 100

#: what a player says for each control by voice: a few distinct phrases (every one is also a
#: phrase of commands.CONTROL_PHRASES, so understand() reads it the same way)
VOICE_CONTROLS: dict[str, tuple[str, ...]] = {
    "pause": ("pause", "hold on"),
    "resume": ("resume", "carry on", "keep going"),
    "stop": ("stop",),
    "next": ("next", "go on", "continue"),
    "repeat": ("repeat", "say that again"),
    "back": ("back", "go back", "undo"),
    "help": ("help", "what can i say"),
    "status": ("status", "where are we"),
    "slower": ("slower", "slow down"),
    "faster": ("faster", "speed up"),
    "yes": ("yes", "yeah", "correct"),
    "no": ("no", "nope", "wrong"),
    "roll": ("roll for me",),
    "quit": ("save and quit",),
}
#: the only controls live while the narrator speaks
SPEAKING_CONTROLS = ("pause", "stop")

# --------------------------------------------------------------------------- expressions

Expr = tuple  # ("w", word) | ("seq", *exprs) | ("alt", *exprs) | ("opt", expr)


def W(text: str) -> Expr:
    """A phrase of one or more words."""
    words = text.split()
    return ("w", words[0]) if len(words) == 1 else ("seq", *(("w", w) for w in words))


def seq(*items: Expr) -> Expr:
    return ("seq", *items)


def alt(items: Iterable[Expr]) -> Expr:
    items = tuple(items)
    return items[0] if len(items) == 1 else ("alt", *items)


def opt(item: Expr) -> Expr:
    return ("opt", item)


def words_of(expr: Expr) -> set[str]:
    """Every word an expression can produce."""
    if expr[0] == "w":
        return {expr[1]}
    return set().union(*(words_of(e) for e in expr[1:]))


def _jsgf(expr: Expr) -> str:
    kind = expr[0]
    if kind == "w":
        return expr[1]
    if kind == "opt":
        return f"[ {_jsgf(expr[1])} ]"
    inner = (" " if kind == "seq" else " | ").join(_jsgf(e) for e in expr[1:])
    return f"( {inner} )"


MORE = -1  # _ends: the words ran out where the expression could still go on


def _ends(expr: Expr, words: list[str], i: int) -> set[int]:
    """Where ``expr`` may stop after reading ``words`` from ``i`` (MORE: it wants more)."""
    kind = expr[0]
    if kind == "w":
        if i == len(words):
            return {MORE}
        return {i + 1} if words[i] == expr[1] else set()
    if kind == "opt":
        return {i} | _ends(expr[1], words, i)
    if kind == "alt":
        return set().union(*(_ends(e, words, i) for e in expr[1:]))
    here = {i}
    for item in expr[1:]:
        here = {MORE} & here | set().union(*(_ends(item, words, j) for j in here if j != MORE))
    return here


# --------------------------------------------------------------------------- numbers


def spoken(n: int) -> str:
    """A number as words ("twenty one"), 0..99; 100 as "one hundred"."""
    if n < 20:
        return UNITS[n]
    if n == 100:
        return "one hundred"
    tens = next(w for w, v in TENS.items() if v == n - n % 10)
    return tens if n % 10 == 0 else f"{tens} {UNITS[n % 10]}"


def numbers(lo: int, hi: int) -> Expr:
    return alt(W(spoken(n)) for n in range(max(lo, 0), min(hi, MAX_NUMBER) + 1))


# --------------------------------------------------------------------------- the grammar


@dataclass(frozen=True)
class Grammar:
    """What may be said now. ``free``: any speech (free text is expected); ``root`` then None.
    ``speaking``: built for while the narrator speaks (only pause and stop)."""

    root: Expr | None
    free: bool = False
    speaking: bool = False
    unknown: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """A stable name for this grammar (recognisers cache compiled searches by it)."""
        return "free" if self.free else "g" + hashlib.sha1(repr(self.root).encode()).hexdigest()[:12]

    def jsgf(self) -> str:
        """The grammar in JSGF, for pocketsphinx."""
        return f"#JSGF V1.0;\ngrammar narrator;\npublic <utterance> = {_jsgf(self.root)};\n"

    def words(self) -> list[str]:
        """Every word of the grammar, sorted (vosk's phrase list)."""
        return sorted(words_of(self.root)) if self.root else []

    def matches(self, text: str) -> bool:
        """Whether ``text`` is one whole phrase of the grammar (free grammars take any text)."""
        if self.free:
            return bool(text.strip())
        words = text.split()
        return len(words) in _ends(self.root, words, 0)

    def complete(self, text: str) -> bool:
        """Whether ``text`` is a whole phrase that no longer phrase goes on from ("next",
        "two seven and eleven" with three dice at most, but not "four": "four and nine" may
        follow). The ears stop listening sooner after such a phrase."""
        if self.free:
            return False
        words = text.split()
        ends = _ends(self.root, words, 0)
        return len(words) in ends and MORE not in ends


def build(expectation: Expectation | None, known: Callable[[str], bool], *,
          speaking: bool = False, wake: bool = False) -> Grammar:
    """The grammar for now: the controls (only pause/stop while ``speaking``) plus what
    ``expectation`` accepts. ``wake``: every phrase must start with the wake word."""
    names = SPEAKING_CONTROLS if speaking else tuple(VOICE_CONTROLS)
    parts = [W(p) for name in names for p in VOICE_CONTROLS[name]]
    if not speaking:
        parts.append(seq(opt(W("go to")), W("track"), numbers(1, MAX_TRACK)))
    accepts = expectation.accepts if expectation is not None and not speaking else ()
    if any(isinstance(a, AcceptText) for a in accepts):
        return Grammar(None, free=True)
    parts.extend(_accept(a) for a in accepts if _accept(a) is not None)
    return _checked(parts, known, wake, speaking)


def _checked(parts: list[Expr], known: Callable[[str], bool], wake: bool,
             speaking: bool) -> Grammar:
    missing = {w for p in parts for w in words_of(p) if not known(w)}
    root = _prune(alt(parts), missing)
    if wake:
        root = seq(W(WAKE_WORD), root)
    return Grammar(root, speaking=speaking, unknown=tuple(sorted(missing)))


def _prune(expr: Expr, missing: set[str]) -> Expr | None:
    """``expr`` without the phrases that need a word of ``missing``."""
    kind = expr[0]
    if kind == "w":
        return None if expr[1] in missing else expr
    if kind == "opt":
        inner = _prune(expr[1], missing)
        return None if inner is None else opt(inner)
    kids = [_prune(e, missing) for e in expr[1:]]
    if kind == "seq":  # a missing optional part is left out, a missing required one drops all
        if any(k is None and e[0] != "opt" for k, e in zip(kids, expr[1:])):
            return None
        return seq(*(k for k in kids if k is not None))
    kept = [k for k in kids if k is not None]
    return alt(kept) if kept else None


def _accept(accept) -> Expr | None:
    if isinstance(accept, AcceptDice):
        die = seq(opt(W("a")), numbers(1, accept.sides))
        rolls = []
        for count in range(max(accept.min_count, 1), accept.max_count + 1):
            rolls.append(seq(die, *(seq(opt(W("and")), die) for _ in range(count - 1))))
        return alt(rolls)
    if isinstance(accept, AcceptSuccesses):
        return alt([seq(numbers(0, accept.max), W("successes")), W("one success"),
                    W("no successes"), W("none")])
    if isinstance(accept, AcceptNumber):
        return numbers(accept.min, accept.max)
    if isinstance(accept, AcceptWords):
        items = [W(w) for w in accept.words]
        items += [seq(W(w), numbers(0, 20)) for w in accept.numbered]
        return alt(items)
    return None


def check_controls() -> list[str]:
    """Voice control phrases that the understanding layer would not read as their control."""
    return [p for name, phrases in VOICE_CONTROLS.items() for p in phrases
            if PHRASE_TO_CONTROL.get(p) != name]
