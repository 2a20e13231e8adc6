"""A spelled answer (mode "spelling") through Whisper: its letters, and the answer said aloud
before it that mends them.

It is decoded with every token suppressed but single letters, the parts of the radio
alphabet's words ("Bravo"), "space", "dash", "done" (said last, it ends the spelling at once:
``whisper.Whisper.spelled_to_end``; one Whisper did not write as the word is decoded once more
after a spelling that ends so: ``_done_written``), an apostrophe and punctuation (unheld,
Whisper writes "All right, K-A-R-D" for "R I K A R D"), and its letters are the phrase ("QUI,
CK." → "q u i c k"); one it stopped short of the speech is decoded once more with time stamps,
which goes on to the end (``_spelled_on``); letters said by their names are mended by the
answer said aloud before them, when the same question was last answered aloud (``respelled``:
"B U D A P S T" and "Budapest" written "Do the best." give "b u d a p e s t"). One Whisper
looped on ("C-A-R-N-N-N-N" for espeak-ng's "Sierra, India") is decoded once more with repeats
held back (``_unlooped``), kept when that does not loop. A radio spelling is also read a word
at a time, each word between its pauses alone in the window (``radio_parts``), and that
reading is kept when it spells otherwise and explains the whole utterance better
(``_read_apart``: espeak-ng's "Quick Wits" written "Quick Witcir").
"""

from __future__ import annotations

from functools import cached_property
from typing import Callable

import numpy as np

from narrator.understand.spelling import (
    DONE, RADIO_WRITTEN, SPACE, by_radio, ended, holds_radio, letter_words, radio_read,
)
from narrator.voice.asr import RATE
from narrator.voice.climb import Climb
from narrator.voice.decoder import Decoder
from narrator.voice.radio_fill import filled
from narrator.voice.radio_parts import PartReader, aloud, better, written
from narrator.voice.respell import respell
from narrator.voice.transcripts import done_in_place, letters_in, looped, once, spelled_once

#: a spelling, radio or not, that ends with "done", as Whisper's previous text (``_done_written``)
DONE_PROMPTS = {True: "Kilo. India. Mike. Done.", False: "K. I. M. Done."}
SPELL_TOKENS = 80  # a spelled answer: a letter and a separator each, "space" between words
CUT_SHORT = 1.5  # seconds of a spelling's speech per letter written, past which Whisper
# stopped short (espeak-ng's radio spellings: 1.7 to 3.5; 341 spellings written whole by the
# table's five voices: 0.86 at most)
UNLOOP = 1.2  # CTranslate2's repetition penalty, decoding a looped spelling once more (always
# on, it lost four right radio spellings of 125: "Sierra, Sierra" is a spelling's own)


class Speller:
    """Spellings heard through ``decoder``, one utterance at a time."""

    def __init__(self, decoder: Decoder) -> None:
        self._decoder = decoder
        self._parts = PartReader(decoder.parts_encoded, decoder.steps_each, decoder.tok.encode,
                                 decoder.tok.eot)  # a radio spelling's words
        self._by_radio = False  # the utterance goes on with a radio spelling (``goes_on``)
        self._spelled: list[str] = []  # the last spelling's letters, best first, as each of
        # Whisper's hypotheses has them (``respelled``)

    def start(self) -> None:
        """A new utterance begins."""
        self._parts.forget()
        self._by_radio = False

    def goes_on(self, spelled: str) -> None:
        """The utterance is the rest of a spelling parted at a pause, whose first part Whisper
        wrote ``spelled``: it spells as that did (espeak-ng's radio "Quick Wits" parted after
        "Tango", its rest "Sierra. Done." written "C. I. R. Done.")."""
        self._by_radio = by_radio(spelled)

    def transcripts(self, samples: np.ndarray, encoded) -> list[str]:
        """Whisper's transcripts of the spelling ``samples`` (``encoded``), best first, as
        mended (the module docstring); their letters are kept for ``respelled``."""
        asked = self._decoder.head
        free = self._decoder.beam(encoded, asked, SPELL_TOKENS, suppress_tokens=self._not_spelled)
        free = self._spelled_on(self._unlooped(free, encoded, asked), samples, encoded)
        free = self._read_apart(self._done_written(free, encoded), samples, encoded)
        free = self._filled(free, samples, encoded)
        self._spelled = [" ".join(letter_words(spelled_once(text))) for text in free]
        return free

    def letters(self) -> str:
        """The letters of the last spelling's best transcript ("" for none)."""
        return self._spelled[0] if self._spelled else ""

    def respelled(self, text: str, speech: np.ndarray, transcripts: list[str]) -> str:
        """A whole spelling's letters ``text`` ("b u d a p s t") mended by the answer said
        aloud before it, whose encoder output over its speech is ``speech`` and Whisper's
        transcripts of it ``transcripts`` (``respell``: each spelling scored as that answer's
        transcript, Whisper's other hypotheses of the letters among the first changes)."""
        transcript = once(transcripts[0])
        climb = Climb()

        def score(spellings: list[str], floor: float) -> list[float]:
            named = [" ".join(word.capitalize() for word in s.split()) for s in spellings]
            return self._decoder.score(speech, [[n, n + "."] for n in named], floor, climb)

        def joined(letters: str) -> str:
            return "".join(" " if w == SPACE else w for w in letters.split())
        spelled = self._spelled
        guesses = tuple(joined(g) for g in spelled[1:]) if spelled[:1] == [text] else ()
        mended = respell(joined(text), score, self._decoder.score(speech, [[transcript]])[0],
                         guesses)
        return " ".join(SPACE if c == " " else c for c in mended)

    def _unlooped(self, free: list[str], encoded, asked: list[int]) -> list[str]:
        """A spelling's transcripts, and first, when the best loops (``looped``), its
        transcripts decoded with a repetition penalty (UNLOOP) if the best of those does not."""
        if not (free and looped(free[0])):
            return free
        return self._spelled_again(free, encoded, asked, lambda text: not looped(text),
                                   repetition_penalty=UNLOOP)

    def _done_written(self, free: list[str], encoded) -> list[str]:
        """A spelling's transcripts, and first, when the best does not end with "done", its
        transcripts decoded after a spelling that does (DONE_PROMPTS, by how it spells) if
        the best of those does: unprompted, Whisper wrote the "done" of a third of the table
        bench's letter spellings as letters ("S. A. R. A. H. Done." as "S-A-R-A-H-N")."""
        if not free or ended(free[0]):
            return free
        tok = self._decoder.tok
        prompt = [tok.sot_prev] + tok.encode(" " + DONE_PROMPTS[by_radio(free[0])])
        return self._spelled_again(free, encoded, prompt + self._decoder.head,
                                   lambda again: done_in_place(again, free[0]))

    def _filled(self, free: list[str], samples: np.ndarray, encoded) -> list[str]:
        """A spelling's transcripts, and first, when it spells by radio (``_radio``) and the
        best holds words that are no radio word (flite rms's "Yankee" written "U.N.K."), that
        one with them read again as radio words (``radio_fill``)."""
        if not self._radio(free):
            return free
        speech = self._decoder.speech(encoded, samples)
        best = spelled_once(free[0])
        words = filled(radio_read(best), ended(best),
                       lambda texts: self._decoder.score(speech, [[t] for t in texts]))
        return [written(words)] + free if words else free

    def _radio(self, free: list[str]) -> bool:
        """Whether a spelling's transcripts ``free`` spell by radio: the best does, holds
        radio words among its letters, or the spelling it goes on does (``goes_on``)."""
        return bool(free) and (by_radio(free[0]) or holds_radio(free[0]) or self._by_radio)

    def _read_apart(self, free: list[str], samples: np.ndarray, encoded) -> list[str]:
        """A spelling's transcripts, and first, when it spells by radio (``_radio``) and its
        parts read a word at a time (``PartReader``) spell otherwise, that reading if it
        explains the utterance better (``radio_parts.better``; both read as radio words, with
        "done" when the parts end so; where they differ word for word, by the parts' own
        scores too: ``PartReader.margin``): espeak-ng's "Quick Wits" written "Quick Witcir",
        its "Budapest" "Bravo, uniform, delta, alpha, alpha, ..."."""
        words = self._parts.words(samples) if self._radio(free) else None
        if not words:
            return free
        apart = written(words)
        mine, theirs = letter_words(apart), letter_words(spelled_once(free[0]))
        if not mine or mine == theirs:
            return free
        done = [DONE] if words[-1] == DONE else []
        said = [aloud(mine) + done, aloud(theirs) + done]
        scores = self._decoder.score(self._decoder.speech(encoded, samples),
                                     [[written(w)] for w in said])
        weighed = self._parts.margin(said[1]) if said[0] == words else None  # as read
        kept = better(scores[0] + (weighed or 0.0), len(said[0]), scores[1],
                      max(1, len(said[1])))
        return [apart] + free if kept else free

    def _spelled_again(self, free: list[str], encoded, asked: list[int],
                       kept: Callable[[str], bool], **held) -> list[str]:
        """A spelling's transcripts ``free``, and first, its transcripts decoded again after
        ``asked`` (with CTranslate2's options ``held``) if the best of those is ``kept``."""
        again = self._decoder.beam(encoded, asked, SPELL_TOKENS,
                                   suppress_tokens=self._not_spelled, **held)
        return again + free if again and kept(again[0]) else free

    def _spelled_on(self, free: list[str], samples: np.ndarray, encoded) -> list[str]:
        """A spelling's transcripts, and first, when the best stopped short (fewer letters
        than its speech holds at CUT_SHORT seconds each: espeak-ng's radio "his trial" written
        "Hotel, India."), its transcript with time stamps if that holds more letters: so
        decoded, Whisper went on to the end ("Hotel, India, Sierra, space, ...")."""
        letters = letters_in(free[0]) if free else 0
        if _spoken_seconds(samples) <= CUT_SHORT * max(letters, 1):
            return free
        stamped = self._decoder.beam(encoded, list(self._decoder.tok.sot_sequence),
                                     2 * SPELL_TOKENS,
                                     suppress_tokens=self._not_spelled)[0]  # no time stamps
        return [stamped] + free if letters_in(stamped) > letters else free

    @cached_property
    def _not_spelled(self) -> list[int]:
        """Every token that is not a single letter (with a space or punctuation around it),
        part of a radio alphabet word, "space", "dash", "done", " apostrophe" (a word of its
        own), or punctuation: what spelling suppresses (worked out once). Not the parts of
        "apostrophe" after no space, nor of "hyphen" ("ost", "hen"): allowed, Whisper wrote
        them into radio words ("Catoostor" for "Charlie Alpha Tango Oscar")."""
        tok, vocab = self._decoder.tok, self._decoder.vocab
        keep = {vocab.token_to_id(t) for t in (",", ".", "-", "Ġ-", "'", "Ġ'")}
        for word in (SPACE, "dash", DONE, *RADIO_WRITTEN):
            for form in (word, word.capitalize()):
                keep.update(tok.encode(form) + tok.encode(" " + form))
        for form in (" apostrophe", " Apostrophe"):
            keep.update(tok.encode(form))
        for i in range(tok.eot):
            text = vocab.decode([i])
            letter = text.strip(" ,.-")
            if len(letter) == 1 and letter.isascii() and letter.isalpha() \
                    and set(text) <= set(" ,.-" + letter):
                keep.add(i)
        return [i for i in range(tok.eot) if i not in keep]


def _spoken_seconds(samples: np.ndarray) -> float:
    """Seconds from the first to the last sample louder than a twentieth of the loudest: the
    speech, without the quiet the ears keep before and after it."""
    loud = np.flatnonzero(np.abs(samples) > 0.05 * np.abs(samples).max()) \
        if samples.size else []
    return (loud[-1] - loud[0]) / RATE if len(loud) else 0.0
