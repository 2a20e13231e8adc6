"""What a recogniser may hear now, built from the same templates the matcher reads.

``grammar(expectation, mode)`` is the alternatives of every live phrase (see phrases.py),
expanded to plain words: JSGF for pocketsphinx, a word list for vosk, every whole phrase for a
recogniser that scores candidates, and ``matches``/``complete`` to judge a transcript.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from narrator.events import ANSWERS, Text
from narrator.understand import template as t
from narrator.understand.expect import (
    Accept, AcceptDice, AcceptNumber, AcceptSuccesses, AcceptText, AcceptWords, Expectation,
)
from narrator.understand.match import understand
from narrator.understand.nearest import nearest
from narrator.understand.phrases import (
    AWAITED_CONTROL, MAX_TRACK, WAKE_WORD, is_free, phrases as live_phrases,
)
from narrator.understand.words import normalise, spoken


NO_SUCCESSES = "none"  # the one word that answers a count of successes ("Yeah." by espeak-ng)


@dataclass(frozen=True)
class Grammar:
    """The whole phrases legal now. ``free``: any speech is (free text is expected) and
    ``root`` is None. ``unknown``: words left out because a recogniser lacks them.
    ``expectation``: what the phrases answer (``same`` reads them by it)."""

    root: t.Expr | None
    mode: str = "asking"
    free: bool = False
    unknown: tuple[str, ...] = ()
    expectation: Expectation | None = field(default=None, compare=False, repr=False)

    @property
    def speaking(self) -> bool:
        """Built for while the narrator reads."""
        return self.mode == "reading"

    @property
    def key(self) -> str:
        """A stable name for this grammar (recognisers cache compiled searches by it)."""
        if self.free:
            return "free"
        return "g" + hashlib.sha1(repr(self.root).encode()).hexdigest()[:12]

    def jsgf(self) -> str:
        """The grammar in JSGF, for pocketsphinx."""
        return f"#JSGF V1.0;\ngrammar narrator;\npublic <utterance> = {t.jsgf(self.root)};\n"

    def words(self) -> list[str]:
        """Every word of the grammar, sorted (vosk's phrase list)."""
        return sorted(t.words_of(self.root)) if self.root else []

    def phrases(self, limit: int = 500) -> list[str] | None:
        """Every whole phrase (normalised spoken form, no duplicates) when there are at most
        ``limit``; else None."""
        if self.root is None or t.count(self.root) > limit * 4:
            return None
        out = list(dict.fromkeys(" ".join(p) for p in t.enumerate_phrases(self.root)))
        return out if len(out) <= limit else None

    def nearest(self, text: str, limit: int = 8) -> list[str]:
        """Whole phrases near a free transcript, nearest first: the best of each live template
        (for a recogniser that scores candidates, however large the grammar)."""
        words = normalise(text).split()
        if self.free or not words:
            return []
        return nearest(self.root, words, limit)

    @property
    def numeric(self) -> bool:
        """Whether the question takes numbers alone (dice, a count of successes, a number) and
        no word nor name, while asked: a transcript's nearest dice are then a fair guess."""
        accepts = self._asked()
        return bool(accepts) and all(isinstance(a, (AcceptDice, AcceptNumber, AcceptSuccesses))
                                     for a in accepts)

    def dice(self) -> AcceptDice | None:
        """The dice the question takes by their numbers, asked or read back (said again as a
        correction); None when it takes none, or one whose faces are named (a coin is
        "heads" or "tails", ``awaited``)."""
        accepts = self.expectation.accepts if self.mode in ("asking", "confirming") \
            and not self.free and self.expectation else ()
        return next((a for a in accepts if isinstance(a, AcceptDice) and not a.faces), None)

    def awaited(self, limit: int = 6, numbers: int = 12) -> list[str]:
        """The few phrases the moment mostly waits for, as whole phrases: the question's
        one-word choices when it lists at most ``limit`` ("harm", "complication", "reduced",
        "worse", "none"), while asking (or confirming: a correction) the one numbers it may be
        answered with when there are at most ``numbers`` (``one_numbers``) and "none" for a
        count of successes, and the control the mode waits for ("resume" while paused, "pause"
        while reading or asking). A recogniser that scores candidates weighs these whatever it
        transcribed ("harm" written "Time.", espeak-ng's "nine" written "Yeah, I", its "none"
        "Yeah.", flite awb's "pause" "Force?")."""
        if self.free:
            return []
        live = live_phrases(self.expectation, self.mode)
        words = [w for p in live if isinstance(p.accept, AcceptWords)
                 for w in map(normalise, p.accept.words) if len(w.split()) == 1]
        words = words if len(words) <= limit else []
        if self.mode in ("asking", "confirming"):
            words += [spoken(n) for p in live for n in one_numbers(p.accept, numbers)]
            words += [NO_SUCCESSES for p in live if isinstance(p.accept, AcceptSuccesses)]
        whole = (form for w in words for form in (w, f"{WAKE_WORD} {w}"))
        return list(dict.fromkeys([p for p in whole if self.matches(p)]
                                  + list(self.awaited_control())))

    def awaited_control(self) -> tuple[str, ...]:
        """The control the mode waits for ("pause" while reading or asking, "resume" while
        paused), also after the wake word, when legal now."""
        said = AWAITED_CONTROL.get(self.mode)
        return tuple(p for p in (said, f"{WAKE_WORD} {said}") if said and self.matches(p))

    def waits_for(self, phrase: str) -> bool:
        """Whether ``phrase`` means the control the mode waits for (``awaited_control``)."""
        return any(self.same(phrase, c) for c in self.awaited_control())

    def names(self) -> tuple[str, ...]:
        """The proper nouns a free-text answer now may hold (``AcceptText.names``)."""
        return self._text_field("names")

    def refused(self) -> tuple[str, ...]:
        """What a free-text answer was heard as at this question and not taken
        (``AcceptText.refused``)."""
        return self._text_field("refused")

    def passed(self, phrase: str) -> bool:
        """Whether the phrase means the answer read back and refused at this question
        (``Expectation.passed``)."""
        refused = self.expectation.passed if self.expectation else None
        return refused is not None and not self.free and self._meaning(phrase) == refused

    def _text_field(self, field: str) -> tuple[str, ...]:
        accepts = self.expectation.accepts if self.free and self.expectation else ()
        return tuple(dict.fromkeys(n for a in accepts if isinstance(a, AcceptText)
                                   for n in getattr(a, field)))

    def listed(self) -> tuple[str, ...]:
        """The words a question lists as its answers ("insight", "prowess", "resolve",
        "playbook"), while it is asked; none for free text."""
        return tuple(dict.fromkeys(w for a in self._asked() if isinstance(a, AcceptWords)
                                   for w in (*a.words, *a.numbered)))

    def matches(self, text: str) -> bool:
        """Whether ``text`` is one whole phrase of the grammar (free grammars take any text)."""
        if self.free:
            return bool(text.strip())
        words = normalise(text).split()
        return bool(words) and len(words) in t.ends(self.root, words)

    def complete(self, text: str) -> bool:
        """Whether ``text`` is a whole phrase that no longer phrase goes on from ("next", but not
        "four" when "four and nine" may follow). The ears stop listening sooner after one."""
        if self.free:
            return False
        words = normalise(text).split()
        found = t.ends(self.root, words)
        return bool(words) and len(words) in found and t.MORE not in found

    def same(self, one: str, other: str) -> bool:
        """Whether two phrases mean the same now ("read track one" and "track one", "please
        pause" and "pause"; a leading wake word aside)."""
        return self._meaning(one) == self._meaning(other)

    def answer(self, phrase: str) -> bool:
        """Whether the phrase answers the question (a die, a word, a name), not a control
        ("pause") nor a go-on."""
        return isinstance(self._meaning(phrase), ANSWERS)

    def offered(self, phrase: str) -> bool:
        """Whether the phrase answers the question or asks the app to roll for it ("flip for
        me"): what the question itself offers, not a control any moment takes."""
        meaning = self._meaning(phrase)
        return isinstance(meaning, ANSWERS) or getattr(meaning, "name", None) == "roll"

    def text_answer(self, text: str) -> bool:
        """Whether ``text`` is a free-text answer said aloud (a name, a label), not spelled,
        nor a control or a yes."""
        return bool(text) and self.mode in ("asking", "confirming") and isinstance(
            self._meaning(text), Text)

    def _asked(self) -> tuple[Accept, ...]:
        """What the question takes while it is asked (none while reading, paused, confirming or
        spelling, nor for free text)."""
        return self.expectation.accepts if self.mode == "asking" and not self.free \
            and self.expectation else ()

    def _meaning(self, text: str):
        words = normalise(text).split()
        if words[:1] == [WAKE_WORD]:
            words = words[1:]
        return understand(" ".join(words), self.expectation, self.mode)

    def without(self, missing: set[str]) -> "Grammar":
        """This grammar without the phrases that need a word of ``missing``."""
        if self.free or not missing:
            return self
        root = t.prune(self.root, missing) or ("seq", ("w", "<missing>"))
        return Grammar(root, self.mode, unknown=tuple(sorted(set(self.unknown) | missing)),
                       expectation=self.expectation)


def grammar(expectation: Expectation | None, mode: str = "asking", wake: bool = False,
            tracks: int = MAX_TRACK) -> Grammar:
    """The grammar for ``mode`` ("asking", "reading", "paused", "confirming", "spelling"): its
    controls plus what ``expectation`` accepts (any speech while spelling: its letters are read
    by ``understand``). ``wake``: every phrase starts with the wake word. ``tracks``: the game's
    highest track number ("go to track N" goes no further; 0: no such phrase)."""
    live = live_phrases(expectation, mode, tracks)
    if is_free(expectation, mode):
        return Grammar(None, mode, free=True, expectation=expectation)
    root = t.expand(t.alt(p.expr for p in live))
    if wake:
        root = t.seq(t.W(WAKE_WORD), root)
    return Grammar(root, mode, expectation=expectation)


def one_numbers(accept: Accept | None, most: int) -> range:
    """The numbers that answer ``accept`` said alone, when there are at most ``most``: the
    faces of the one die asked for, or a short range of whole numbers from 0 on. Not those of
    a die whose faces are named: a coin is awaited as "heads" or "tails", not "one" or "two"."""
    if isinstance(accept, AcceptDice) and accept.max_count == 1 and not accept.faces:
        found = range(1, accept.sides + 1)
    elif isinstance(accept, AcceptNumber) and accept.min >= 0:
        found = range(accept.min, accept.max + 1)
    else:
        return range(0)
    return found if len(found) <= most else range(0)
