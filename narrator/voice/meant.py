"""What one decoded utterance is for the session (``decide``): the recogniser's phrase and
free transcript, the grammar for now and what the narrator was saying as it was captured make
it:

* **a meaning** when the recogniser's phrase is one *whole* phrase of the grammar for now, its
  confidence reaches the engine's bar (Whisper: the phrase explains the audio nearly as well as
  the free transcript, end of text included; pocketsphinx: fit against a free phone loop, or
  agreement with a free-speech pass; vosk: word confidence), and ``understand()`` reads it as
  legal now. ``sure`` is False (the session reads it back) when the confidence is under
  ``SURE_AT`` or the answer is free text (a name, a contact) heard by voice;
* **a meaning to read back** when the phrase fell under the bar but the free transcript spells
  it nearly letter for letter (``spelled_like``: "spend a flare, deless." for "spend a fleur de
  lis", a phrase Whisper cannot spell), while the narrator is quiet;
* **a meaning to read back** when a free transcript (Whisper) is no whole phrase but carries
  a game input among filler words;
* **Unclear** (the session says "didn't catch that") when it was not accepted but was meant
  for the narrator: near a legal phrase, or short (under ``SHORT_SECONDS`` and ``SHORT_WORDS``);
  a control fitted to a nod alone ("Okay.", "All right.": ``nodded``) is not accepted;
* **nothing** (the ears keep listening) for a lone "please" said right after the utterance
  before it (what it was said for was heard on its own); for table talk: long and nothing
  like a legal phrase; and for speech the narrator's own words explain (``echo``: its voice
  heard back). The ears decode seconds behind the sound, so an ``Echo`` carries a ``Spoken``
  log of when each sentence was audible and the utterance is compared with what was audible
  over the span it was captured in (``voice/spoken.py``), not with what plays when it is
  decoded. A free transcript that is no phrase and not near one ("Thank you.", "Okay.")
  heard while the narrator was audible is nothing too: Whisper's filler on the leftover echo;
  so is a game answer the grammar fitted to such filler (``filler``: the transcript has none
  of its words). And so is an unsure utterance over the narration whose sound is the
  narrator's voice leaking through the echo canceller (``leaked``: coherent with what it
  played, and fitted poorly unless very coherent), whatever Whisper wrote of it.

The ears (``voice/listener.py``) hand an utterance on here unless its sound alone made it talk
(``Ears._room_talk``).
"""

from __future__ import annotations

import difflib

from narrator.events import ANSWERS, REPLIES, Control, Text, Unclear, Utterance, Word
from narrator.understand import WAKE_WORD, Expectation, carries, normalise, spells, understand
from narrator.voice.asr import Heard
from narrator.voice.unanswered import left_unanswered

MIN_CONFIDENCE = 0.25       # pocketsphinx, a short phrase ("next", "heads", "go back")
MIN_CONFIDENCE_LONG = 0.4   # pocketsphinx, a phrase of more than LONG_PHONES phones
MIN_CONFIDENCE_SPEAKING = 0.5
MIN_AGREEMENT = 0.6         # pocketsphinx, with a free-speech decoding of the same audio
LONG_PHONES = 6
#: the confidence a phrase needs to count, by engine (pocketsphinx: see ``sphinx_passes``)
ACCEPT_AT = {"whisper": 0.07, "vosk": 0.25}
SURE_AT = 0.6               # under it, a result is read back before it counts
NEAR_AT = 0.06              # a rejected phrase this close was meant for the narrator
SHORT_SECONDS = 1.6         # a rejected utterance this short, ...
SHORT_WORDS = 3             # ... of at most this many words, was too
ECHO_MATCH = 0.8            # how alike to the narrator's own words an echo is
SAID_OVER = 0.2             # Whisper: a control this sure was said over the narrator's words
ECHO_LIKE = 0.1             # an utterance this coherent with the narration is its leaked echo
TABLE_LIKE = 0.05           # ... this little, the table's voice (its words: p95 0.049, stop 44)
LEAK_LIKE = 0.2             # under this, an unsure utterance fitted at TABLE_FIT or more is the
TABLE_FIT = 0.3             # table's however coherent (``leaked``)
#: what a table says to itself, and what Whisper writes for a short word it cannot make out
NODS = ("okay", "ok", "right", "all right", "alright")


def sphinx_passes(heard: Heard, speaking: bool = False) -> bool:
    """Pocketsphinx: whether ``heard`` fits the phone loop, or (not while the narrator speaks)
    agrees with the free-speech pass, well enough."""
    if speaking:
        return heard.confidence >= MIN_CONFIDENCE_SPEAKING
    bar = MIN_CONFIDENCE_LONG if heard.phones > LONG_PHONES else MIN_CONFIDENCE
    return heard.confidence >= bar or heard.agreement >= MIN_AGREEMENT


def passes(heard: Heard, engine: str, speaking: bool = False) -> bool:
    """Whether the engine is confident enough in its phrase for it to count."""
    if engine == "pocketsphinx":
        return sphinx_passes(heard, speaking)
    return heard.confidence >= ACCEPT_AT.get(engine, SURE_AT)


def explained_by(echo: str, heard: Heard, grammar, likeness: float | None = None) -> bool:
    """Whether what was heard is nearly a run of the narrator's own words (its voice heard
    back, ``spoken_in``), unless the table said a command over them (``said_over``), or a sure
    one written only like them sounds like the table (``table_voice``)."""
    return (spoken_in(echo, heard.free or heard.text) and not said_over(echo, heard, grammar)
            and not table_voice(echo, heard, likeness))


def table_voice(echo: str, heard: Heard, likeness: float | None) -> bool:
    """Whether a sure utterance over the narration, written only *like* the narrator's words
    (not with them), is the table's voice by its sound: as little coherent with what was
    played as the table's words are (``likeness`` under TABLE_LIKE), far under the narrator's
    leaked voice (0.13 up). Flite awb's "pause" said over Blades' "... and next phase." was
    written "Pause", sure, and dropped as the narrator's "phase" (docs/barge-in.md, stop 79)."""
    said = set(normalise(heard.free or heard.text).split())
    return (heard.confidence >= SURE_AT and likeness is not None and likeness < TABLE_LIKE
            and not said <= set(normalise(echo).split()))


def said_over(echo: str, heard: Heard, grammar) -> bool:
    """Whether Whisper wrote the narrator's words ("Thank you." over its "thank you") for a
    control the table said over them: the control explains the audio nearly as well as that
    transcript (SAID_OVER), though neither the narrator's words nor the transcript carry it
    (the narrator's "Track" written "track" scores "next track" 0.21). In the barge-in
    recordings the narrator's echo alone scored no other control over 0.04; the table's
    words 0.23 to 0.49."""
    return (bool(heard.free) and heard.confidence >= SAID_OVER and bool(heard.text)
            and not grammar.answer(heard.text) and not carries(heard.free, heard.text)
            and not spoken_in(echo, heard.text))


def spoken_in(echo: str, text: str) -> bool:
    """Whether ``text`` is at least ECHO_MATCH alike, letter by letter, to some stretch of the
    narrator's words ``echo``."""
    said = normalise(text).split()
    spoken = normalise(echo).split()
    if not said or not spoken:
        return False
    text = " ".join(said)
    stretches = (" ".join(spoken[i:i + len(said)])
                 for i in range(max(1, len(spoken) - len(said) + 1)))
    return any(difflib.SequenceMatcher(None, text, s).ratio() >= ECHO_MATCH for s in stretches)


def leaked(heard: Heard, likeness: float | None) -> bool:
    """Whether an utterance heard over the narration is unsure and its sound is the
    narrator's voice leaking through the canceller (``likeness``: its coherence with what was
    played, ``echo_likeness``; None when unknown). Whisper writes such a leak as a word of its
    own ("You slow.", "Track one is..."), which the grammar fits to a control, and fits it
    poorly (0.07-0.24). The table's words acted on in thirteen barge-in recordings scored
    under 0.1 but three, two of them sure (which act anyway); that holds while the canceller
    follows the echo (docs/barge-in.md, stop 44). But where the narrator is as loud as the
    players, as at the table bench, their "pause" written "Pass.", "Clause.", "The past."
    scored 0.10-0.19 and was fitted at 0.32-0.50: under LEAK_LIKE, so well fitted a phrase is
    the table's (docs/speech-in.md, stop 85)."""
    return likeness is not None and heard.confidence < SURE_AT and (
        likeness >= LEAK_LIKE or (likeness >= ECHO_LIKE and heard.confidence < TABLE_FIT))


def replies(meaning, mode: str) -> bool:
    """Whether ``meaning`` is the reply to a read-back (yes, no, keep, change while
    confirming), not an answer."""
    return mode == "confirming" and isinstance(meaning, Word) and meaning.word in REPLIES


def decide(heard: Heard, grammar, expectation: Expectation | None, engine: str, *,
           mode: str = "asking", wake: bool = False, echo: str = "",
           likeness: float | None = None, noisy: bool = False,
           follows: bool = True) -> Utterance | None:
    """What one decoded utterance is for the session (see the module docstring); an answer
    said in a noise near the voice (``noisy``) is read back however sure the recogniser is
    (in pink noise 10 dB down Whisper writes flite's "heads" as "Yes." and scores it so), a
    correction at a read-back too (a "yes" there was written "worse", sure, and taken), but
    not the reply to one. ``follows``: it began right after the utterance before it
    (``listener.PLEASE_AFTER``), so a lone "please" is that one's end."""
    text = " ".join(heard.text.split())
    if not (text or heard.free) or (echo and (explained_by(echo, heard, grammar, likeness)
                                              or leaked(heard, likeness))):
        return None
    words = normalise(heard.free or text).split()
    if words == ["please"] and follows:  # said after a command that was already acted on
        return None  # (``Ears._complete`` ends one sooner over the narration)
    if wake and words[:1] != [WAKE_WORD]:
        return None  # not said to the narrator
    phrase = bool(text) and grammar.matches(text)
    spoken = text.split(" ", 1)[1] if wake and " " in text else ("" if wake else text)
    meaning = understand(spoken, expectation, mode) if phrase else None  # Unclear says why
    if echo and phrase and mode != "spelling" and isinstance(meaning, ANSWERS) \
            and filler(heard):  # spelled, the phrase is the letters its words stand for
        return None  # an answer fitted to the filler on the echo: not even a near miss
    nod = phrase and nodded(heard, meaning)
    if nod and echo:
        return None  # talk over the narration, or Whisper's filler on its echo
    if phrase and not nod and (passes(heard, engine, grammar.speaking)
                               or (not echo and spelled_like(heard))):
        sure = heard.confidence >= SURE_AT and not isinstance(meaning, (Text, Unclear)) \
            and not (noisy and isinstance(meaning, ANSWERS) and not replies(meaning, mode))
        return Utterance(spoken, meaning, heard.confidence, engine, sure,
                         heard.free if heard.free != spoken else "")
    carried = carried_answer(heard, expectation, mode) if not wake else None
    if carried is not None:
        return Utterance(heard.free, carried, heard.confidence, engine, False)
    if not meant_for_us(heard, engine, speaking=bool(echo)):
        return None
    said = heard.free or text
    return Utterance(said, Unclear(said, "I didn't catch that."), heard.confidence, engine,
                     False)


def leave(heard: Heard, why: str, likeness: float | None = None) -> None:
    """Log an utterance left unanswered, and why, with what it was decoded as (the phrase
    chosen, its confidence, the seconds of audio captured: for the events file) and, over the
    narration, how coherent its sound was with what was played (``likeness``)."""
    more = {} if likeness is None else {"likeness": round(likeness, 3)}
    left_unanswered(heard.free or heard.text, why, phrase=heard.text,
                    confidence=heard.confidence, seconds=round(heard.seconds, 2), **more)


def spelled_like(heard: Heard) -> bool:
    """Whether the free transcript nearly spells the recogniser's phrase (``spells``)."""
    return bool(heard.free) and spells(heard.free, heard.text)


def filler(heard: Heard) -> bool:
    """Whether a free transcript carries nothing of the phrase chosen: no word of it, nor
    nearly its spelling ("Thank you." fitted to "first"). Over the narration that is Whisper's
    filler on the leftover echo, which the grammar fits to one of the coming question's
    answers; a command keeps the looser bar ("Tom." for "stop" is the table's word)."""
    if not heard.free:
        return False
    phrase = " ".join(w for w in normalise(heard.text).split() if w != WAKE_WORD)
    return not carries(heard.free, phrase) and not spelled_like(heard)


def nodded(heard: Heard, meaning) -> bool:
    """Whether a control (not a reply to a read-back) was fitted to a transcript that is a nod
    alone (NODS: "Okay.", "All right."), which does not carry it: talk at the table, or a word
    Whisper could not make out, so not taken (a short one is "didn't catch that", as any miss;
    over the narration, nothing). At Half-Chance over pink noise 10 dB down flite awb's
    "heads" was written "Okay.", "Right." and "All right.", each fitted to "wait" (0.08-0.11),
    and the game paused while a question waited; in the table runs kept, no control said was
    written so."""
    return (isinstance(meaning, Control) and meaning.name not in REPLIES and bool(heard.free)
            and normalise(heard.free) in NODS and not carries(heard.free, heard.text))


def carried_answer(heard: Heard, expectation: Expectation | None, mode: str):
    """A game input that a free transcript carries among filler words ("Six. And the. Six."),
    though it is no whole phrase: taken only with a read-back. None when there is none."""
    if not heard.free:
        return None
    meaning = understand(heard.free, expectation, mode)
    return None if isinstance(meaning, (Control, Unclear, Text)) else meaning


def meant_for_us(heard: Heard, engine: str, speaking: bool = False) -> bool:
    """A rejected utterance that was still meant for the narrator: near a legal phrase, or
    short and command-like (not while the narrator was audible: a free transcript then is
    its echo's filler)."""
    if engine != "pocketsphinx" and heard.confidence >= NEAR_AT:
        return True
    if speaking and heard.free:
        return False
    words = len((heard.free or heard.text).split())
    return 0 < heard.seconds <= SHORT_SECONDS and words <= SHORT_WORDS
