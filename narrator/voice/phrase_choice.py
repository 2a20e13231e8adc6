"""Which legal phrase Whisper's forced scores choose, and how sure that choice is.

``choose`` takes the log probabilities of the candidates (each legal phrase scored against the
audio, its end included: ``decoder.Decoder.score``) and of the best free transcript. The
confidence is exp(margin / SCALE), the best candidate's margin under the transcript, times how
far it leads the best candidate that means something else ("pass" and "pause" scored alike are
a guess; "tail" and "tails", or "track one" and "read track one", not), times ½ when the best
transcript is not the phrase (a guess: always read back before it counts; also when it is one
word longer: a robotic "quieter" is often written as two words, "fly or"), ¼ when it is two
words longer and has every word of the phrase ("next, try it") or nearly spells it ("So the
word, please." for "slower please"; not "OK, so where will we?" for "where are we": table
talk), ½ when the utterance is a second of speech, the narrator is quiet, and the phrase is
one the moment waits for, scored at most AWAITED_MARGIN under the transcript (PAUSED_MARGIN for
"resume" while paused: flite awb's "resume" written "What are you doing?"), and 0 otherwise (a
long garbled sentence of talk piles up many unlikely words and would otherwise lose to any
short phrase). An answer is also scored with the carriers of the transcript kept before its
words (``carried_form``), and the carriers so kept are no words more.

``choose_now`` weighs for the moment: over the narration, "pause", and a control the
transcript carries ("next." for "next"), is weighed without the rivals that are answers its
transcript carries nothing of ("first" for "BORSE", "new" for "next."): those are filler there,
never acted on. In a noisy room, where the transcript carries no candidate, "pause" within
AWAITED_MARGIN of the best control and HOPED_BELOW of the transcript is weighed alone
(``hoped_for``: "Dance." for Festival's "pause"). ``in_place``: a phrase the question offers,
of three words or more, that the transcript writes with one word wrong and the rest in place,
when no phrase of another meaning is so written ("What's for me?" for flite's "flip for me" in
noise), is a guess.
"""

from __future__ import annotations

import difflib
import itertools
from typing import Callable, Sequence

import numpy as np

from narrator.understand import carries, normalise, spells
from narrator.understand.words import FILLERS
from narrator.voice.transcripts import once

SCALE = 4.0  # confidence = exp(margin / SCALE); margin: the best legal phrase's log
             # probability less the free transcript's (0 when the phrase is as likely)
SPLIT_WORDS = 1  # a transcript this many words longer than the phrase may split one of its words
EXTRA_WORDS = 2  # a transcript more words longer, or this many neither with all of the
                 # phrase's words nor nearly spelling it, is not the phrase
GUESSED = 0.5  # confidence × this when the best transcript is not the phrase (a guess: under
               # meant.SURE_AT, so always read back), up to SPLIT_WORDS words longer,
               # and × half of it when the transcript is up to EXTRA_WORDS words longer
AWAITED_MARGIN = 3.0  # a brief utterance (``choose``'s ``awaited``) that a question's choice
# explains within this much of the transcript is that choice (a guess, read back) however many
# words the transcript has; short remarks score "heads" or "harm" up to -1.5 ("Hmm."), "Pass the
# chips." -3.3
PAUSED_MARGIN = 5.5  # ... and "resume" within this much while paused: flite awb's "resume"
# is written "What are you doing?" (-2.7 to -4.9 clean, through the bench's room -3.4 to -5.03:
# at 5.0 one first saying in four was lost, to -13 in noise); 34 short remarks in 5 voices
# written in more words than it score it -8.65 and under, near-rhymes excepted ("Presume so.":
# -0.3 to -4.6). A resume heard wrongly costs a "pause"; one missed, a turn
LOOPED = 3  # a transcript saying its words this many times or more is Whisper looping up to
            # the token limit: a guess at best (talk that starts "No, I meant..." loops "No.")
TIE = 2.0    # confidence × (1 - exp(-gap / TIE)): gap, the best phrase's lead over the next
IN_PLACE_WORDS = 3  # a phrase this long, written with one word wrong and the rest in place,
# is a guess at it (``in_place``): two words with one wrong are no longer the phrase ("go on")
IN_PLACE_BELOW = AWAITED_MARGIN  # ... when no candidate is scored within this of the
# transcript ("flip for me" 6-10 under "What's for me?"; "I play the ruins wander." fits "play
# ruins wander" exactly, and "i spend the ruins wander", one word off, was taken for it)
HOPED_BELOW = 7.0  # ... and, in a noisy room over the narration, "pause" when no candidate is
# written (``hoped_for``) within this of the transcript: so written in pink noise 10 dB down,
# "pause" (6 voices, 3 sayings, 3 questions) came within it 53 times in 54, 30 of them 5-7
# under; short remarks 46 times in 288, and 24 more 7-8 under ("Yeah.", "Whichever.")


def choose(candidates: list[str], scores: list[float], free: float, transcript: str,
           same: Callable[[str, str], bool], awaited: Sequence[str] = (),
           reach: float = AWAITED_MARGIN) -> tuple[str, float]:
    """The best-scoring candidate and its confidence (see the module docstring, step 3);
    ``free`` is the score of the best transcript, ``transcript`` that text normalised,
    ``same(a, b)`` whether two phrases mean the same now (``Grammar.same``), ``awaited``: the
    phrases a brief utterance is weighed for however many words its transcript has, when
    scored at most ``reach`` under it."""
    ranked = sorted(range(len(candidates)), key=lambda i: -scores[i])
    chosen, first = candidates[ranked[0]], scores[ranked[0]]
    # a rival means something else: "please pause" is no rival of "pause", nor "read track
    # one" of "track one"
    second = max((scores[i] for i in ranked if not same(candidates[i], chosen)),
                 default=-np.inf)
    fit = np.exp(min(0.0, first - free) / SCALE)
    apart = 1.0 - np.exp(-(first - second) / TIE)
    said_once = once(transcript)
    looped = len(transcript.split()) >= LOOPED * len(said_once.split())
    extra = len(said_once.split()) - len(carried_form(said_once.split(), chosen).split())
    says_it = set(chosen.split()) <= set(said_once.split()) or spells(said_once, chosen)
    written = (1.0 if chosen == said_once and not looped
               else GUESSED if extra <= SPLIT_WORDS
               or chosen in awaited and first - free >= -reach
               else GUESSED / 2 if extra <= EXTRA_WORDS and says_it
               else 0.0)  # the transcript says more than the phrase: talk
    return chosen, float(fit * apart * written)


def in_place(transcript: str, candidates: list[str], scores: list[float], grammar) -> str:
    """The likeliest of the candidates the question offers (``Grammar.offered``) that
    ``transcript`` says word for word but one, in place ("what's for me" for "flip for me"),
    when they all mean the same and have IN_PLACE_WORDS words at least; else "". Whisper wrote
    flite slt's "flip for me" over pink noise "That's for me.", "What's for me?", "Love for
    me.", "Yes for me.", scoring "flip for me" 6 to 10 nats under it: the word it had no ear
    for is one, the rest are in place. Not a control any moment takes ("what's the name" is
    no "what's the question"), nor over the narration, where the table talks as it likes."""
    said = transcript.split()
    if grammar.mode not in ("asking", "confirming") or len(said) < IN_PLACE_WORDS:
        return ""
    placed = sorted((-score, phrase) for phrase, score in zip(candidates, scores)
                    if len(phrase.split()) == len(said) and grammar.offered(phrase)
                    and sum(a != b for a, b in zip(phrase.split(), said)) == 1)
    return placed[0][1] if placed and all(grammar.same(placed[0][1], phrase)
                                          for _, phrase in placed) else ""


def carried_form(said: list[str], phrase: str) -> str:
    """``phrase`` with the carriers of the transcript ``said`` (its words) kept: "i
    play the ruins wander" for "play ruins wander" heard as "I play the room's wander.". The
    matcher skips carriers, so the phrase said with them is the same answer, and scored without
    them it would have to explain "I" and "the" away. Of words the phrase replaces, only the
    carriers before them are kept ("I got" of "I got here to see" for "heads"): "the dice"
    after "two" for "Who has the dice?" would make that talk fit "two"."""
    words = phrase.split()
    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, said, words,
                                                        autojunk=False).get_opcodes():
        span = said[i1:i2]
        if tag == "equal":
            out += span
        elif tag == "delete":  # words the phrase lacks: its carriers stay
            out += [w for w in span if w in FILLERS]
        else:  # words the phrase replaces (or adds to): the carriers before them stay
            out += list(itertools.takewhile(lambda w: w in FILLERS, span)) + words[j1:j2]
    return " ".join(out)


def choose_now(grammar, candidates: list[str], scores: list[float], free: float,
               transcript: str, awaited: Sequence[str] = (), noisy: bool = False
               ) -> tuple[str, float]:
    """``choose`` for the moment ``grammar`` is built for: "resume" while paused reaches
    further (PAUSED_MARGIN); over the narration, the answers the transcript does not carry are
    no rivals of "pause", nor of a control the transcript carries ("next." for "next")
    (``carried``); in a ``noisy`` room "pause" may win when it is not first (``hoped_for``)."""
    reach = PAUSED_MARGIN if grammar.mode == "paused" else AWAITED_MARGIN
    said = normalise(transcript)
    hoped = hoped_for(grammar, candidates, scores, free, said) if noisy else []
    if hoped:
        return choose([candidates[i] for i in hoped], [scores[i] for i in hoped], free, said,
                      grammar.same)
    kept = [i for i, c in enumerate(candidates) if carried(grammar, said, c)] \
        if grammar.speaking else []
    if kept:
        under = choose([candidates[i] for i in kept], [scores[i] for i in kept], free, said,
                       grammar.same, awaited, reach)
        if grammar.waits_for(under[0]) or (not grammar.answer(under[0])
                                           and carries(said, under[0])):
            return under
    return choose(candidates, scores, free, said, grammar.same, awaited, reach)


def hoped_for(grammar, candidates: list[str], scores: list[float], free: float,
              transcript: str) -> list[int]:
    """Over the narration, the indices of the candidates that are the control the reading
    waits for ("pause"), when ``transcript`` carries none of the candidates and that control
    scores within AWAITED_MARGIN of the best control and HOPED_BELOW of the transcript
    (``free``); else none. In pink noise Whisper has no ear for "pause" and writes it
    "Dance.", "Bons.", "funds.", "France.": "go on", "next", "options" or "faster" then scored
    up to 2.5 nats over it, or near enough to leave it unsure under the bar, and the reading
    went on. Every candidate is a guess at such a word; of those guesses a pause costs least
    (a "resume"). Weighed alone, so its confidence is its fit to the transcript."""
    if not grammar.speaking or any(carries(transcript, c) for c in candidates):
        return []
    waited = [i for i, c in enumerate(candidates) if grammar.waits_for(c)]
    if not waited:
        return []
    best = max(scores[i] for i in waited)
    rival = max(s for c, s in zip(candidates, scores) if not grammar.answer(c))
    return waited if best >= rival - AWAITED_MARGIN and best >= free - HOPED_BELOW else []


def carried(grammar, transcript: str, phrase: str) -> bool:
    """Whether ``transcript`` may be ``phrase`` over the narration: an answer only when the
    transcript carries it (``carries``), any control. The narrator's leftover echo, and a
    command Whisper misspells ("those." for flite awb's "pause"), are fitted to the coming
    question's answers ("first") as often as to the command; such an answer is filler
    (``meant.filler``, never acted on), so the control the reading waits for ("pause") is
    weighed without those rivals when it wins among the rest, and so is a control the
    transcript carries (espeak-ng's "next" written "next." lost to "new" by 0.7). Not any
    control: the narrator's own "Track" written "Trust." then became "stop"."""
    return not grammar.answer(phrase) or carries(transcript, phrase)
