"""Whisper tiny.en held to the phrases legal now (the model itself, and how it is asked:
``decoder.py``).

One utterance is decoded in up to five steps, all deterministic (beam search, no sampling):

1. **Free decoding**: the audio, padded to a 10 s window (not Whisper's 30 s: the encoder's
   cost is proportional to the window), is transcribed freely, 5 best. When the best
   transcript, normalised ("Go back, please." → "go back please", "4 and 9" → "four and nine"),
   is a legal phrase and every other legal one of the 5 means the same (flite awb's "yes"
   written "US", then "Yes."), that is the answer (confidence 1); one that is not is tried
   with its digits set apart ("421" → "4 2 1": dice said in a run, ``digits_apart``), or as
   the command Whisper writes so ("Pass." for some voices' "pause": ``WRITTEN_FOR``). Not at a
   read-back in a noisy room (``noisy_room``): there a number said again was written "Yeah."
   and taken as a sure yes, so the answer goes on to be scored (steps 2 and 3).
2. **Candidates**: otherwise the legal phrases (``Grammar.phrases()``; of a grammar too large to
   list, those of its alternatives that can be listed, and, where the question takes dice
   alone, the dice nearest by words, ``Grammar.nearest``) nearest in spelling to the
   transcripts, every transcript of the 5 that is legal, and the phrases the moment mostly
   waits for (``Grammar.awaited()``: a short question's choices, the numbers of a one-number
   answer (also at its read-back), "resume" while paused, "pause" while reading), which a
   robotic voice's "harm" written "Time." (or espeak-ng's "nine" written "Yeah, I") is
   nowhere near in spelling.
3. **Forced scoring**: each candidate and the best transcript are scored against the audio
   token by token *including the end of the text*: a candidate "yes" must explain the whole of
   "Yes, but only after lunch." and cannot. An answer is also scored with the carriers of the
   transcript kept before its words (``carried_form``: "I play the ruins wander" for "play
   ruins wander" written "I play the room's wander." in noise), as the matcher skips them; the
   carriers so kept are no words more. The best candidate and how sure it is are chosen by
   ``phrase_choice`` (its docstring: a rival close behind, a transcript that is not the phrase
   or says more, the moment's awaited phrases). Whisper scores spellings, not sounds: a name
   the game took by ear ("so she'll manipulate her") and said again later as a choice is
   written as the player meant it ("Social manipulator.") and scored ten nats under it. So when
   no candidate is as sure as a guess, a word the question lists that the transcript sounds
   like (``sounds_alike``: their consonant sounds), and no other, is that answer, a guess (read
   back). Not a number: "Free successes." sounds like "four successes" as much as "three
   successes", and scoring tells those apart. Likewise a phrase the question offers written
   with one word wrong (``phrase_choice.in_place``) is a guess. Scoring cross-attends to the
   speech and one second after it only (the rest of the window is padding): a third of the
   work, same scores (never as many frames as the model has mel bands: CTranslate2 would take
   them for mel features); and a spelling whose tokens begin another's ("Pause" of "Pause.") is
   read off that one's steps: half the batch, same scores.

4. **Listed words**: unless the answer is sure (SECOND_BELOW), at a question that lists its
   answers (``Grammar.listed()``) the utterance is decoded again after those words as
   Whisper's previous text ("Insight, Prowess, Resolve, Playbook."): Whisper then writes
   "prowess one" so, not "Browse 1.", and "beast", not "East.". What it writes so is only
   proposed: it is always scored (step 3, unprompted), with the phrases nearest it but not
   the awaited ones (step 2 weighed those), since the prompt leans Whisper to the listed words
   (flite slt's "pause" at a question listing "pass" was written "Pass,"). An answer so heard
   more confidently (and at LISTED_AT at least) is kept; a control never is (talk so decoded
   came out "where are we" and "continue please"). Not so at first: after that prompt Whisper
   may go on with the list ("No interference, No interference, ..." for flite slt's "no
   interference", sure unprompted).

5. **Second opinion**: a noisy utterance (RNNoise finds noise to take out; a quiet room's
   audio is left alone) is also decoded cleaned by RNNoise, beside the raw decoding on
   CTranslate2's second worker, and unless the raw answer is sure (SECOND_BELOW) the more
   confident answer is kept. Cleaned audio alone is heard worse than raw (RNNoise's
   artefacts), but where Whisper is unsure of the raw audio it is often sure of the cleaned
   one. The room is judged once, on the raw audio (cleaned audio always measures quiet).

An answer the table refused at its read-back at this question (``Expectation.passed``: the
last one) is no candidate when the answer is said again: the next likeliest is, read back
(at most GUESSED) when the answer refused explains the audio better. In pink noise flite awb's
"keep" at a question also taking "beast" was written "Beast." again and again, read back and
refused, until the table typed it.

At a read-back, a "yes" that sounds like the last answer said again (``said_again``: the
encoder's frames of the two words, aligned; a looser bar in a noisy room) is a no: the player
refused the read-back by saying the answer once more, and Whisper wrote it "Yes." over the
noise. So is one that sounds like an unsure command said again when asked about it ("Did you
say "back"?": over pink noise Whisper wrote "clock" as "back", then the same word again as
"Yes.", and the game was taken back). One written just as the answer was in a noisy room
(``written_again``) is an unsure yes marked WRITTEN_AS_ASKED, which the table is asked to say
in more words ("yes, that's right"): Festival's "2" was written "Yeah." and fitted to "ten",
then said again to refuse it, "Yeah." again, and the 10 was taken; but flite's "next" and
"heads" were written "Yes.", rightly fitted, and each yes to their read-back, written "Yes."
too, was taken for a no (in a quiet room flite slt's "Ash" is written "Yes." and its yes is a
yes).

A free-text answer (a name, a label) is the best transcript as it is; when the question names
proper nouns it may hold (``AcceptText.names``), Whisper is prompted with them first. A short
one that "spell it" explains nearly as well (``_free``) is that control, a guess: espeak-ng's
"spell it" was written "Elliot." or "Damn it." and read back as a name. Said again after the
table refused what was heard (``AcceptText.refused``), the answer is not heard as that again
while Whisper has another way to write it (``_heard_anew``): Whisper writes the same words the
same way each time, and the table typed what it could not get said. A spelled one (mode
"spelling") is heard by ``whisper_spelling.Speller``.

A transcript that is a phrase said twice ("Five. Five.") is a known habit of Whisper on short
windows; it is scored like any other rather than taken as two dice, and when the phrase wins it
counts as what the transcript says (not as a longer transcript). One that loops a phrase up to
the token limit ("No interference No interference ... No") is, as said once, a legal transcript
(a candidate, step 2) and what the phrases nearest in spelling are found by, and the phrase
it loops is a guess at best (read back): talk that starts "No, I meant..." loops as "No." too.
"""

from __future__ import annotations

import difflib
import os
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from functools import lru_cache

import numpy as np
from rapidfuzz.fuzz import ratio
from rapidfuzz.process import cdist

from narrator.understand import AcceptText, control_label, is_command, live_controls, normalise
from narrator.understand.spelling import ended
from narrator.understand.words import digits_apart, sounds_alike
from narrator.voice.asr import RATE, Heard
from narrator.voice.decoder import Decoder, model_dir
from narrator.voice.denoise import Denoiser, clean_whole, noisy_room
from narrator.voice.dice_by_ear import dice_heard
from narrator.voice.phrase_choice import (
    GUESSED, IN_PLACE_BELOW, carried_form, choose_now, in_place,
)
from narrator.voice.said_again import WRITTEN_AS_ASKED, frames, said_again, written_again
from narrator.voice.transcripts import doubled, forms, once
from narrator.voice.whisper_spelling import Speller

MAX_TOKENS = 24  # a transcript longer than this is talk (every phrase is far shorter)
CANDIDATES = 8         # legal phrases scored per utterance (the nearest to what was heard)
SHORTLIST = 100        # phrases ranked closely for those (the nearest by a quick measure)
PHRASE_LIMIT = 2000    # grammars with more phrases are not listed whole (``_nearest``)
BRIEF_SECONDS = 1.6  # an utterance this short (pre-roll and closing quiet included: a
# second of speech) while the narrator is quiet is weighed for the moment's awaited phrases
# (``phrase_choice.choose``)
SECOND_BELOW = 0.6  # a noisy utterance heard with less confidence is decoded again cleaned
                    # (meant.SURE_AT: an answer this sure is acted on at once)
SPELL = "spell"  # the control live at a free-text question (``_free``), "spell it"
SPELL_REACH = 5.0  # ... that a short free transcript is when it explains it within this much:
# espeak-ng's "spell it" written "Damn it.", "Elliot.", "I'll hit", "It's valid" scored it
# 0.6-4.8 under the transcript (14 of them in five table runs); the names and other answers
# of those runs (150) 6.6 and more ("FOGON AND CELTER." for "photos and salsa")
SPELL_FLOOR = -14.0  # ... and when it explains it this well at least: an odd name's own
# transcript is unlikely too, and "spell it" came within 5 of it, at -18.4 to -21.2 (espeak-ng's
# "Rikard Rasmussen" written "Rikardraz Mason", "his sick mother" "Kidnap, Mother,": asked to
# be spelled); "spell it", "spell that" written otherwise scored -6.1 to -12.7, clean or at
# 10 dB, and 546 names and other answers in five voices -14.9 and under
SPELL_WORDS = 3  # a free transcript longer than this is an answer, never "spell it"
LISTED_AT = 0.1  # the least confidence of an answer heard after the listed words (step 4): the
# prompt leans Whisper to them (talk, 44 lines at 37 questions: flite slt's "Roll initiative
# everybody" scored "nobody" 0.07 so, nothing unprompted); the answers it mended scored 0.11 up
THREADS = max(1, (os.cpu_count() or 2) // 2)  # CTranslate2's threads: half the cores, the
# rest for the audio, the echo canceller and speech. On 2 cores one thread decodes an unsure
# word in 163-172 ms, two in 197-208 ms (a batch of 2 scores 10 ms against 57: the threads wait
# on each other), and the encoder is no faster with two (docs/barge-in.md, "Stop 44, afternoon");
# in a noisy room the second opinion decodes beside the first, on a second worker (``_beside``)

#: what Whisper writes for a command as some voices say it, read as that command when the
#: transcript is no phrase now: Festival's and flite slt's "pause" is "Pass." (in the table
#: runs kept at stop 100, 45 utterances written so over the reading or a question, each a
#: player's "pause": taken unsure, 2 lost as the narrator's leaked voice), a word a game may
#: take itself (Hell for Leather's d10), where it is that answer
WRITTEN_FOR = {"pass": "pause"}


def rewritten(transcript: str, grammar) -> str:
    """A transcript that is no phrase now as the phrase it may stand for: the command Whisper
    writes so (``WRITTEN_FOR``) when that is a phrase now, else with its digits set apart
    ("421": "4 2 1")."""
    command = WRITTEN_FOR.get(normalise(transcript), "")
    return command if command and grammar.matches(command) else digits_apart(transcript)


@lru_cache(maxsize=32)
def _phrases(grammar) -> tuple[tuple[str, ...], bool]:
    """The grammar's whole phrases, and True; of a grammar too large to list (two dice or more),
    those of its alternatives that can be listed (the controls, the word choices), and
    False."""
    whole = grammar.phrases(PHRASE_LIMIT)
    if whole is not None:
        return tuple(whole), True
    root = grammar.root
    parts = root[1:] if root is not None and root[0] == "alt" else ()
    listed = (type(grammar)(part, grammar.mode).phrases(PHRASE_LIMIT) for part in parts)
    return tuple(p for some in listed if some for p in some), False


@lru_cache(maxsize=32)
def _awaited(grammar) -> list[str]:
    return grammar.awaited()


def _samples(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, dtype=np.int16).astype(np.float32) / 32768


class Whisper:
    """The default backend (see the module docstring)."""

    name = "whisper"
    denoise = False  # hears the raw microphone: RNNoise's artefacts cost Whisper more than the
    # noise does; cleaned audio is only a second opinion (``_decode_pcm``)

    def __init__(self, model: str | None = None, threads: int = THREADS) -> None:
        self._decoder = Decoder(model_dir(model), threads)
        self._speller = Speller(self._decoder)
        self._grammar = None
        self._audio: list[bytes] = []
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="whisper-ahead")
        self._beside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="whisper-cleaned")
        # (the second opinion in a noisy room, decoded beside the first: ``_decode_pcm``)
        self._ahead: Future | None = None  # decoding started at a pause (``prepare``)
        self._denoiser: Denoiser | None = None  # the second opinion's, made when first needed
        self._asked: tuple[np.ndarray, str] | None = None  # the frames and transcript of the
        # last answer or command heard: what a read-back or "Did you say ...?" asks about
        # (``said_again``, ``written_again``)
        self._spoken: tuple | None = None  # the free text said aloud at this question: (the
        # question's free-text answers, [(encoder output, transcripts) of each saying])
        # (``respelled``, ``_heard_anew``)
        self.decode(np.zeros(RATE // 2, dtype=np.float32), None)  # warm up: the first
        # decoding sets up buffers and would take twice as long as the next

    def known(self, word: str) -> bool:
        return True  # Whisper spells any word

    def start(self, grammar) -> None:
        self.discard()
        self._grammar = grammar
        self._audio = []
        self._speller.start()

    def goes_on(self, spelled: str) -> None:
        """The utterance is the rest of a spelling Whisper wrote ``spelled`` so far
        (``Speller.goes_on``)."""
        self._speller.goes_on(spelled)

    def feed(self, pcm: bytes) -> None:
        self._audio.append(pcm)

    def partial(self) -> str:
        return ""  # no streaming hypothesis: the endpointer waits its full quiet time

    def prepare(self) -> None:
        """The speaker paused: decode what was said so far in the background, so the answer
        is ready (or nearly) when the quiet has lasted long enough to end the utterance."""
        self.discard()
        self._ahead = self._worker.submit(self._decode_pcm, b"".join(self._audio),
                                          self._grammar)

    def decided(self, at: float = SECOND_BELOW) -> str:
        """The phrase decoded ahead, once that decoding (and any second opinion) is back and
        at least ``at`` confident of it; "" until then, or when it is less sure or void."""
        text, confidence, *_ = self._decoded_ahead() or ("", 0.0)
        return text if confidence >= at else ""

    def spelled_to_end(self) -> bool:
        """Whether the spelling decoded ahead is back and ends with the word that ends one
        ("... Sierra. Done."): the speaker has finished, and need not be waited for."""
        decoded = self._decoded_ahead()
        return decoded is not None and ended(decoded[2])

    def _decoded_ahead(self) -> tuple | None:
        """What was decoded ahead (as ``_decode_pcm`` gives it), once back; None until then, or
        when void."""
        if not self.back() or self._ahead.exception():
            return None
        return self._ahead.result()

    def back(self) -> bool:
        """Whether the decoding ahead is back (what ``finish`` would give)."""
        ahead = self._ahead
        return ahead is not None and ahead.done() and not ahead.cancelled()

    def discard(self) -> None:
        """Speech went on after a pause: what was decoded ahead is not the utterance."""
        if self._ahead is not None:
            self._ahead.cancel()
            self._ahead = None

    def finish(self) -> Heard:
        begin = time.perf_counter()
        ahead, self._ahead = self._ahead, None
        pcm, self._audio = b"".join(self._audio), []
        text, confidence, free, seconds, said, saying, noisy = (
            ahead.result() if ahead is not None else self._decode_pcm(pcm, self._grammar))
        text, confidence, free = self._not_said_again(text, confidence, free, said, noisy)
        grammar = self._grammar
        if grammar is not None and grammar.text_answer(text):  # a first saying starts anew
            earlier = self._said_here(grammar) if grammar.refused() else []
            self._spoken = (_texts_asked(grammar), earlier + [saying])
        return Heard(text, round(confidence, 3), (time.perf_counter() - begin) * 1000,
                     free=free, seconds=seconds)

    def _not_said_again(self, text: str, confidence: float, free: str, said: np.ndarray,
                        noisy: bool) -> tuple[str, float, str]:
        """At a read-back or "Did you say ...?", a "yes" that is what was asked about said
        again (``said_again``) is a no: the player refused it by saying their words once
        more, and Whisper wrote them "Yes." (not a yes said again after a no: flite awb's
        "yes" written "Nice." was an unsure no, and the same yes said again to be sure was
        that no said again); in a noisy room one written just as the answer was
        (``written_again``) is an unsure yes marked WRITTEN_AS_ASKED: words alone cannot tell
        it from the answer said again. An answer heard, or anything but a yes or no heard
        while not confirming (a command asked about next), is kept as what is asked about
        next."""
        grammar = self._grammar
        if grammar is None or not text:
            return text, confidence, free
        yes = grammar.same(text, "yes")
        confirming = grammar.mode == "confirming"
        asked = self._asked
        if yes and confirming and asked is not None and said_again(said, asked[0], noisy):
            return "no", 1.0, f"{free} (the words asked about, said again)"
        if yes and confirming and asked is not None and noisy and written_again(free, asked[1]):
            return text, min(confidence, GUESSED), f"{free} {WRITTEN_AS_ASKED}"
        no = grammar.same(text, "no")
        if not yes and not (confirming and no) and (grammar.answer(text)  # a no at a read-back
                                                    or not (confirming or no)):  # is no answer
            self._asked = (said, free)
        return text, confidence, free

    def _decode_pcm(self, pcm: bytes, grammar
                    ) -> tuple[str, float, str, float, np.ndarray, tuple, bool]:
        """Decode the utterance; in a noisy room also, at the same time on CTranslate2's other
        worker, the utterance cleaned by RNNoise (``_cleaned``), whose answer is kept when the
        raw one was not sure and it is more confident (a second opinion; none for free text,
        spelled or not). The room is judged once, on the raw audio: cleaned audio always
        measures quiet. Last, the raw utterance's encoder ``frames`` (``said_again``), its
        encoder output over the speech with Whisper's transcripts (``respelled``), and whether
        the room was noisy."""
        pcm = pcm[:2 * RATE * self._decoder.window]
        samples = _samples(pcm)
        noisy = noisy_room(samples * 32768)
        second = (self._beside.submit(self._cleaned, pcm, grammar) if noisy and not grammar.free
                  else None)
        encoded = self._decoder.encode(samples)
        said = frames(np.asarray(encoded)[0], samples)
        speech = self._decoder.speech(encoded, samples)
        text, confidence, free, transcripts = self.decode(samples, grammar, noisy, encoded)
        if second is not None and confidence >= SECOND_BELOW:
            second.cancel()  # not begun yet (another still running): not needed
        elif second is not None and (again := second.result()) and again[1] > confidence:
            text, confidence, free, _ = again
        return (text, confidence, free, len(pcm) / 2 / RATE, said, (speech, transcripts),
                noisy)

    def _cleaned(self, pcm: bytes, grammar) -> tuple | None:
        """``decode`` of the utterance, said in a noisy room, cleaned by RNNoise (one denoiser,
        reset for each utterance: they are cleaned one at a time, on ``_beside``); None without
        RNNoise."""
        if self._denoiser is None:
            try:
                self._denoiser = Denoiser()
            except OSError:  # no RNNoise: no second opinion
                return None
        cleaned = clean_whole(pcm, self._denoiser)
        return None if cleaned is None else self.decode(_samples(cleaned), grammar, True)

    def respelled(self, text: str, grammar) -> str:
        """A whole spelling's letters ("b u d a p s t") mended by the same question's answer
        last said aloud (``Speller.respelled``); as they are when it was not said aloud."""
        said = self._said_here(grammar)
        return self._speller.respelled(text, *said[-1]) if text and said else text

    def _said_here(self, grammar) -> list[tuple[np.ndarray, list[str]]]:
        """The free-text answers said aloud at ``grammar``'s question, first to last (each
        one's encoder output over its speech and Whisper's transcripts of it, best first); none
        at another question."""
        spoken = self._spoken
        return list(spoken[1]) if spoken and spoken[0] == _texts_asked(grammar) else []

    # ------------------------------------------------------------------ decoding

    def decode(self, samples: np.ndarray, grammar, noisy: bool = False, encoded=None
               ) -> tuple[str, float, str, list[str]]:
        """(the best legal phrase, its confidence, the free transcript, Whisper's transcripts)
        for one utterance; the phrase is "" (confidence 0) when there is none to choose from.
        ``noisy``: it was said in a noisy room (``noisy_room`` of the raw audio); ``encoded``:
        the samples already through the encoder. Unless that was sure, a question that lists
        its answers decodes it once more with them as Whisper's prompt: an answer so heard
        more confidently (and at LISTED_AT at least) is kept instead."""
        encoded = self._decoder.encode(samples) if encoded is None else encoded
        heard = self._decode(samples, grammar, noisy, encoded, self._names_prompt(grammar))
        if heard[1] < SECOND_BELOW and (listed := self._listed_prompt(grammar)):
            again = self._decode(samples, grammar, noisy, encoded, listed, weigh=False)
            if again[1] > max(heard[1], LISTED_AT) and grammar.answer(again[0]):
                return again
        return heard

    def _decode(self, samples: np.ndarray, grammar, noisy: bool, encoded, prompt: list[int],
                weigh: bool = True) -> tuple[str, float, str, list[str]]:
        """``decode`` after Whisper's previous-text ``prompt``."""
        if grammar is not None and grammar.mode == "spelling":  # as the grammar says letters:
            free = self._speller.transcripts(samples, encoded)  # "QUI, CK." → "q u i c k"
            said = self._speller.letters()
            return said, (1.0 if said else 0.0), once(free[0] if free else ""), free
        free = self._decoder.beam(encoded, prompt + self._decoder.head, MAX_TOKENS)
        return (*self._meant(free, samples, grammar, noisy, encoded, weigh), free)

    def _meant(self, free: list[str], samples: np.ndarray, grammar, noisy: bool, encoded,
               weigh: bool) -> tuple[str, float, str]:
        """What Whisper's transcripts ``free`` mean (``decode``). Not ``weigh``: the prompt
        leans Whisper to some phrases (the listed words), so what its transcripts say is only
        proposed and always scored unprompted, with no awaited phrases added (the first
        decoding weighed those): after "..., Pass, ..." flite slt's "pause" was written
        "Pass,", the only legal transcript."""
        best = free[0] if free else ""
        if grammar is not None and grammar.free and best:
            return self._free(free, grammar, encoded, samples)
        if grammar is None or not best:
            return once(best), (1.0 if best else 0.0), once(best)
        said = best if grammar.matches(best) else rewritten(best, grammar)
        heard = [said] + free[1:]
        heard += [once(t) for t in heard]  # a phrase looped to the token limit, as said once
        legal = list(dict.fromkeys(normalise(t) for t in heard
                                   if grammar.matches(t) and not grammar.passed(t)))
        if weigh and legal[:1] == [normalise(said)] and not doubled(legal[0]) and not (
                grammar.mode == "confirming" and noisy) and all(
                grammar.same(phrase, legal[0]) for phrase in legal):
            return legal[0], 1.0, once(best)  # the only legal meaning, and the best transcript
        awaited = _awaited(grammar) if weigh else []
        speech = self._decoder.speech(encoded, samples)
        candidates = list(dict.fromkeys(legal + awaited + self._nearest(
            grammar, [once(t) for t in free]) + (self._dice_heard(grammar, speech)
                                                 if weigh and not legal else [])))
        passed = [c for c in candidates if grammar.passed(c)]
        candidates = [c for c in candidates if c not in passed]
        if not candidates:
            return "", 0.0, once(best)
        said_words = normalise(once(best)).split()
        scores = self._decoder.score(speech, [[best]] + [
            forms(c) + (forms(carried_form(said_words, c))[:1]
                              if grammar.answer(c) else []) for c in candidates + passed])
        kept = scores[1:len(candidates) + 1]
        brief = grammar.mode != "reading" and len(samples) <= BRIEF_SECONDS * RATE
        chosen, confidence = choose_now(grammar, candidates, kept, scores[0], said,
                                        awaited if brief else (), noisy)
        if max(scores[len(candidates) + 1:], default=-np.inf) > kept[candidates.index(chosen)]:
            confidence = min(confidence, GUESSED)  # heard as the answer refused: read back
        if confidence < GUESSED:  # Whisper scores spellings, not sounds
            listed = {normalise(w) for w in grammar.listed()}
            alike = [c for c in candidates if c in listed and sounds_alike(once(best), c)]
            if len(alike) == 1:
                return alike[0], GUESSED, once(best)
            placed = in_place(normalise(once(best)), candidates, kept, grammar) \
                if max(kept) < scores[0] - IN_PLACE_BELOW else ""
            if placed:
                return placed, GUESSED, once(best)
        return chosen, confidence, once(best)

    def _free(self, free: list[str], grammar, encoded, samples: np.ndarray
              ) -> tuple[str, float, str]:
        """A free-text answer: the transcript as it is (sure), or "spell it" (a guess) when
        that is live, the transcript is short and no control phrase, and "spell it" explains
        the audio within SPELL_REACH of it and to SPELL_FLOOR: Whisper wrote espeak-ng's
        "spell it" as a name ("Elliot.", "Damn it."), which was read back, refused, and said
        again. A transcript the table refused at this question is heard anew
        (``_heard_anew``), a yes or no too while nothing is read back (flite slt's "Ash"
        written "S.", refused, then "Yes.")."""
        said = once(free[0])
        if not grammar.text_answer(said):  # a control live now
            return said, 1.0, said
        speech = self._decoder.speech(encoded, samples)
        if SPELL in live_controls(grammar.mode) and len(said.split()) <= SPELL_WORDS \
                and not is_command(said):
            own, spell = self._decoder.score(speech, [[said], forms(control_label(
                SPELL))])
            if spell >= max(own - SPELL_REACH, SPELL_FLOOR):
                return control_label(SPELL), GUESSED, said
        refused = {normalise(t) for t in grammar.refused()}
        anew = self._heard_anew(free, speech, grammar, refused) \
            if normalise(said) in refused else None
        return (anew or said), 1.0, said

    def _heard_anew(self, free: list[str], speech: np.ndarray, grammar, refused: set[str]
                    ) -> str | None:
        """An answer written as the table refused it at this question, said again: of
        Whisper's transcripts of this saying and of the earlier ones here (``_said_here``),
        but those refused and the controls, the one likeliest over all those sayings (their
        log probabilities summed); None when there is no other. flite awb's "Use a hostage
        to get in", written "User hostage to get in" twice, and refused, is so heard as
        said; Festival's "Retired cop, Birmingham" is "Richard Cobb Birmingham" to each saying
        alone."""
        earlier = self._said_here(grammar)
        heard = free + [t for _, transcripts in earlier for t in transcripts]
        written: dict[str, list[str]] = {}
        for text in map(once, heard):
            said = normalise(text)
            if said and said not in refused and not is_command(text):
                written.setdefault(said, []).append(text)
        if not written:
            return None
        spellings = [list(dict.fromkeys(w)) for w in written.values()]
        total = sum(np.array(self._decoder.score(e, spellings))
                    for e in [speech] + [e for e, _ in earlier])
        return spellings[int(np.argmax(total))][0]

    def _names_prompt(self, grammar) -> list[int]:
        """For a free-text answer that may hold proper nouns (``Grammar.names()``), Whisper's
        previous-text prompt "Names: Lampblacks, Jila.": it then spells them so ("Love for
        Jila", not "Love for Gila."). Empty otherwise."""
        names = grammar.names() if grammar is not None and grammar.free else ()
        return self._decoder.prompted("Names: " + ", ".join(names)) if names else []

    def _listed_prompt(self, grammar) -> list[int]:
        """For a question that lists its answers (``Grammar.listed()``), Whisper's
        previous-text prompt "Insight, Prowess, Resolve, Playbook.": it then writes "prowess
        one" so, not "Browse 1." (docs/speech-in.md, stop 54). Empty otherwise."""
        listed = grammar.listed() if grammar is not None else ()
        return self._decoder.prompted(", ".join(w.capitalize() for w in listed)) if listed else []

    def _nearest(self, grammar, heard: list[str]) -> list[str]:
        """The CANDIDATES legal phrases nearest in spelling to the two best transcripts:
        difflib's ratio over the SHORTLIST nearest by rapidfuzz's Indel ratio (C++: a thousand
        phrases in under a millisecond; difflib over them all took 30 to 90 ms, and ranks
        better: "jump to track twenty nine" for "Jump to track where did I?"). Of a grammar
        too large to list (two dice or more), also its answers nearest each transcript by words
        (``Grammar.nearest``) where the question takes numbers alone: flite awb's "two, four
        and three" written "to foreign free" is near no control, yet scored as "two four
        three" it is that answer. Not where it takes words too: espeak-ng's "Silas" written
        "See you in..." became the dice "three one" at Blades' action roll."""
        phrases, whole = _phrases(grammar)
        said = [normalise(t) for t in heard[:2]]
        if not any(said):
            return []
        found: list[str] = []
        if phrases:
            near = cdist(said, phrases, scorer=ratio).max(axis=0)
            shortlist = [phrases[i] for i in np.argsort(-near, kind="stable")[:SHORTLIST]]

            def closeness(phrase: str) -> float:
                return max(difflib.SequenceMatcher(None, phrase, s).ratio() for s in said)
            found = sorted(shortlist, key=closeness, reverse=True)[:CANDIDATES]
        answers = [] if whole or not grammar.numeric else [
            p for s in said if s for p in grammar.nearest(s) if grammar.answer(p)]
        return list(dict.fromkeys(found + answers))

    def _dice_heard(self, grammar, speech: np.ndarray) -> list[str]:
        """Where the question takes dice (and no transcript is a legal phrase), the likeliest
        faces found a die at a time (``dice_by_ear``): espeak-ng's "nine and three" written "I
        am free." is near no dice phrase in spelling."""
        accept = grammar.dice()
        if accept is None:
            return []
        found = dice_heard(accept, lambda runs: self._decoder.steps_each(
            speech, [(0, ids) for ids in runs]), self._decoder.tok.encode)
        return [phrase for phrase in found if grammar.matches(phrase)]



def _texts_asked(grammar) -> tuple:
    """The free-text answers a grammar's question takes (which question a spelling answers)."""
    accepts = grammar.expectation.accepts if grammar.expectation is not None else ()
    return tuple(replace(a, refused=()) for a in accepts if isinstance(a, AcceptText))

