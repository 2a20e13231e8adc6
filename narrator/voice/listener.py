"""The ears of a voice session: microphone → noise suppression → endpointer → recogniser → one
``Utterance``.

What an utterance becomes (``decide``):

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

Before any of that, the sound alone can make an utterance talk (``Ears._room_talk``, not over
the narration): one no louder than the talk going on around the table, or one cut for its
length where no free text is asked. And an answer said with the room's noise or talk near
the voice (``Endpointer.noisy``) is read back however sure the recogniser is, a correction
said at a read-back too (not the yes or no that replies to it).

In ``wake`` listening every phrase starts with "narrator"; in ``push`` a key opened the window.
The recogniser loads in a background thread (``ready``, ``wait_ready``); until it is ready the
microphone is not read, so what the table says meanwhile waits in it (the microphone keeps 12 s)
and is heard once it has loaded: a "pause" said in the first seconds of a session was lost.
When the engine asked for cannot load, the next one is used and ``notice`` says so (the session
speaks it).
"""

from __future__ import annotations

import difflib
import queue
import sys
import threading
import time
from dataclasses import replace
from typing import Callable, Protocol

from narrator.events import ANSWERS, REPLIES, Control, Text, Unclear, Utterance, Word
from narrator.understand import (
    MAX_TRACK, WAKE_WORD, AcceptText, Expectation, carries, normalise, spells, understand,
)
from narrator.voice import grammar as grammars
from narrator.voice.asr import Heard, Recognizer, load_recognizer, respelled
from narrator.voice.denoise import Denoiser, make_denoiser
from narrator.voice.echo import make_canceller
from narrator.voice.mic import Endpointer, Mic, check_input
from narrator.voice.spoken import echo_during
from narrator.voice.unanswered import began_hearing, left_unanswered

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
#: over the narration decoding ahead begins after 90 ms of quiet, not 120: an unsure command
#: stops the reading sooner (docs/barge-in.md, stop 45)
READING_PAUSE_FRAMES = 3
PLEASE_AFTER = 1.0  # seconds from the utterance before within which a lone "please" is its
# end ("pause ... please"); later, it is an utterance like any other (Whisper wrote flite awb's
# "player 3" in pink noise as "Please," with "three" fitted at 0.34 and 0.37: both dropped)
PUSH_WINDOW = 5.0  # seconds of listening after the push-to-talk key


class Source(Protocol):
    """Frames of 16 kHz mono int16. A microphone also has ``captured_until`` (monotonic time
    the end of the last frame read was captured: the ears place an utterance by it, however
    far behind the sound they read), ``hears_narrator`` (False: no echo can reach it) and
    ``gate`` (the last frame with the narrator's echo suppressed, which the endpointer judges
    speech by: ``voice/echo.py``)."""

    def read(self, timeout: float | None = None) -> bytes | None:
        """One frame, None when none came in time; EOFError when the source is exhausted."""


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
    (PLEASE_AFTER), so a lone "please" is that one's end."""
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


def joined(first: Heard, rest: Heard) -> Heard:
    """A spelled name heard in two parts (``Endpointer.cut``: parted or cut) as one; a part with
    no letters ("done" said after the pause that parted it) is no doubt about the other's."""
    spelled = [part for part in (first, rest) if part.text] or [rest]
    return Heard(f"{first.text} {rest.text}".strip(), min(p.confidence for p in spelled),
                 rest.ms, free=f"{first.free} {rest.free}".strip(),
                 seconds=first.seconds + rest.seconds)


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


class Ears:
    """Listens for one utterance at a time (see the module docstring).

    ``recognizer`` is a recogniser, or a function that loads one (run in a background thread)
    and returns it with a notice to say (None when the engine asked for loaded)."""

    def __init__(self, recognizer: Recognizer | Callable[[], tuple[Recognizer, str | None]],
                 source: Source, *, listening: str = "open",
                 keys: "queue.Queue[float] | None" = None, denoiser: Denoiser | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.denoiser = denoiser
        self.listening = listening
        self.keys = keys
        self.clock = clock
        self.endpointer = Endpointer(complete=self._complete)
        self.last: Heard | None = None  # the last utterance decoded, accepted or not
        self.ended_at = 0.0  # when the last utterance's end was captured (clock time)
        self._ended_before = -float("inf")  # ... and the end of the one before it
        self.notice: str | None = None  # what to tell the table about the engine, once
        self.tracks = MAX_TRACK  # the game's highest track number (make_ears sets it): the
        # recogniser is held to "go to track N" for the tracks there are, none without tracks
        self._grammar = None
        self._again = False  # decode ahead once more at the usual pause (``_ahead``)
        # letters parted or cut off (more may come), and the quiet frames since their last
        self._spelled: tuple[Heard, object] | None = None
        self._quiet_after = 0
        self._window_until = 0.0
        self._ready = threading.Event()
        if callable(recognizer) and not hasattr(recognizer, "start"):
            threading.Thread(target=self._load, args=(recognizer,), name="ears-load",
                             daemon=True).start()
        else:
            self.recognizer = recognizer
            self._ready.set()

    def _load(self, load: Callable[[], tuple[Recognizer, str | None]]) -> None:
        try:
            self.recognizer, self.notice = load()
        finally:
            self._ready.set()

    @property
    def ready(self) -> bool:
        """Whether the recogniser has loaded (the listening earcon may play)."""
        return self._ready.is_set() and getattr(self, "recognizer", None) is not None

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until the recogniser has loaded; whether it has."""
        self._ready.wait(timeout)
        return self.ready

    @property
    def engine(self) -> str:
        return self.recognizer.name if self.ready else "loading"

    def listen(self, expectation: Expectation | None, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Utterance | None:
        """One utterance for ``mode`` ("asking", "reading", "paused", "confirming", "spelling"),
        or None on timeout or when the source ends. ``echo``: what the narrator is saying now
        (an ``Echo``: with when it said what)."""
        deadline = None if timeout is None else self.clock() + timeout
        self.endpointer.spelling = mode == "spelling"
        self.endpointer.focusing = mode != "reading"  # the room there is the narrator's residue
        self.endpointer.pause_frames = READING_PAUSE_FRAMES if mode == "reading" \
            else Endpointer.pause_frames
        self.endpointer.hearing_room = not (  # the narrator's own voice is no room
            mode == "reading" and getattr(self.source, "echo", None) is None
            and getattr(self.source, "hears_narrator", True))
        if mode != "spelling":
            self._spelled = None
        while deadline is None or self.clock() < deadline:
            if not self._ready.is_set():  # loading: the source keeps what is said meanwhile
                self._ready.wait(0.1)
                continue
            try:
                frame = self.source.read(timeout=0.1)
            except EOFError:
                return None
            if self._spelled is not None and not self.endpointer.in_speech \
                    and self._quiet_after >= self.endpointer.letter_end_frames:  # as unparted:
                heard, grammar = self._spelled  # no more letters in 1 s
                self._spelled = None
                return self._decide(heard, grammar, expectation, mode, echo)
            if frame is None or not self.ready:
                continue
            voiced = None if self.denoiser is None else self.denoiser.clean(frame)
            voiced = None if voiced is frame else voiced  # a quiet room's: as it came
            if voiced is not None and getattr(self.recognizer, "denoise", True):
                frame = voiced
            heard = self._hear(frame, expectation, mode, echo, voiced)
            if heard is not None:
                return heard
        return None

    def _hear(self, frame: bytes, expectation: Expectation | None, mode: str,
              echo: str, voiced: bytes | None) -> Utterance | None:
        event, audio = self.endpointer.push(frame, getattr(self.source, "gate", None), voiced)
        self._quiet_after += event == "silence"
        if event == "start":
            began_hearing()
            self._grammar = grammars.build(expectation, self.recognizer.known, mode=mode,
                                           wake=self.listening == "wake", tracks=self.tracks)
            self.recognizer.start(self._grammar)
            if self._spelled is not None and hasattr(self.recognizer, "goes_on"):
                self.recognizer.goes_on(self._spelled[0].free)  # the rest of a spelling
        if event == "void":  # a noise that rose, no voice: nothing to decode
            left_unanswered("", "a steady noise that rose, no voice")
            self._grammar = None
            if hasattr(self.recognizer, "discard"):
                self.recognizer.discard()
        if event != "silence" and self._grammar is not None:
            self.recognizer.feed(audio)
            self._ahead(event)
        if event != "end" or self._grammar is None:
            return None
        self._ended_before = self.ended_at
        self.ended_at = getattr(self.source, "captured_until", None) or self.clock()
        heard, grammar, self._grammar = self.recognizer.finish(), self._grammar, None
        talk = self._room_talk(expectation, mode)
        if talk is not None:
            leave(heard, talk)
            return None
        if self._spelled is not None:  # the rest of a spelled name
            heard, self._spelled = joined(self._spelled[0], heard), None
        if mode == "spelling" and self.endpointer.cut:  # parted or cut: more letters may come
            self._spelled, self._quiet_after = (heard, grammar), self.endpointer.quiet
            return None
        return self._decide(heard, grammar, expectation, mode, echo)

    def _room_talk(self, expectation: Expectation | None, mode: str) -> str | None:
        """Why the utterance just ended is talk around the table by its sound alone, or None:
        no louder than the room's talk (``Endpointer.distant``), or cut for its length where
        no free text is asked (a command in it was cut in two). Not over the narration: there
        the room's level is the narrator's residue, and a word the suppressor took whole is as
        faint."""
        if mode == "reading":
            return None
        if self.endpointer.distant:
            return "no louder than the talk around it"
        if self.endpointer.cut and mode != "spelling" and (
                expectation is None or expectation.find(AcceptText) is None):
            return "longer than any answer asked for: talk"
        return None

    def _decide(self, heard: Heard, grammar, expectation: Expectation | None, mode: str,
                echo: str) -> Utterance | None:
        """What one decoded utterance is (``decide``), a whole spelling mended first
        (``respelled``); one left unanswered is logged so."""
        heard = self.last = respelled(self.recognizer, heard, grammar)
        if not self._window_open():
            leave(heard, "push to talk was not pressed")
            return None
        start = self.ended_at - heard.seconds
        echo = (echo_during(echo, start, self.ended_at)
                if getattr(self.source, "hears_narrator", True) else "")  # none can reach it
        measure = getattr(self.source, "echo_likeness", None)
        likeness = measure(start, self.ended_at) if echo and measure else None
        utterance = decide(heard, grammar, expectation, self.recognizer.name, mode=mode,
                           wake=self.listening == "wake", echo=echo, likeness=likeness,
                           noisy=self.endpointer.noisy,
                           follows=start - self._ended_before <= PLEASE_AFTER)
        if utterance is None:
            leave(heard, "table talk or the narrator's echo", likeness)
            return None
        return utterance if likeness is None else replace(utterance, likeness=likeness)

    def _ahead(self, event: str) -> None:
        """At a pause, a recogniser that can decode ahead starts on what was said so far; when
        speech resumes, that is void. Over the narration the pause comes sooner; a decoding
        back from it that does not end the utterance (no control that acts) is done again,
        once, on all that was heard by the usual pause: the soft end of a word ("pause"'s
        "s" at -6 dB) may lie in those 30 ms (replayed, without this: 4 words in 96 lost)."""
        if event == "pause" and hasattr(self.recognizer, "prepare"):
            self.recognizer.prepare()
            self._again = self.endpointer.pause_frames < Endpointer.pause_frames
        elif event == "resume" and hasattr(self.recognizer, "discard"):
            self.recognizer.discard()
        elif (event == "speech" and self._again
              and self.endpointer.quiet >= Endpointer.pause_frames
              and self.recognizer.back() and not self._decided_control()):
            self._again = False
            self.recognizer.prepare()

    def _complete(self) -> bool:
        """Whether the utterance so far is a whole phrase that cannot go on (end it sooner);
        over the narration, also a control the recogniser already decoded ahead with the
        confidence that acts (sure or not): the reading stops sooner, and a "please" after a
        pause that long is heard on its own; a spelling the recogniser decoded ahead to the word
        that ends one ("... Sierra. Done.")."""
        if self._grammar is None:
            return False
        if self._grammar.mode == "spelling":
            return hasattr(self.recognizer, "spelled_to_end") and self.recognizer.spelled_to_end()
        if self._grammar.complete(self.recognizer.partial()):
            return True
        return self._decided_control()

    def _decided_control(self) -> bool:
        """Over the narration, whether the recogniser decoded ahead a control with the
        confidence that acts."""
        if not self._grammar.speaking or not hasattr(self.recognizer, "decided"):
            return False
        decided = self.recognizer.decided(ACCEPT_AT.get(self.recognizer.name, SURE_AT))
        return bool(decided) and not self._grammar.answer(decided)

    def _window_open(self) -> bool:
        if self.listening != "push" or self.keys is None:
            return True
        while not self.keys.empty():
            self._window_until = self.keys.get_nowait() + PUSH_WINDOW
        return self.clock() <= self._window_until

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if close is not None:
            close()
        if self.denoiser is not None:
            self.denoiser.close()


def _stdin_keys() -> "queue.Queue[float]":
    """Push-to-talk: each Enter on stdin opens a listening window."""
    keys: queue.Queue[float] = queue.Queue()

    def read() -> None:
        for _ in sys.stdin:
            keys.put(time.monotonic())

    threading.Thread(target=read, name="push-to-talk", daemon=True).start()
    print(f"Push to talk: press Enter, then speak within {PUSH_WINDOW:.0f} seconds.",
          file=sys.stderr)
    return keys


def make_ears(settings, tracks: int = MAX_TRACK) -> Ears:
    """Ears on the settings' microphone, engine and listening mode, for a game whose highest
    track is ``tracks``; the engine loads in the background (a missing model: the next
    engine, and ``notice`` says so).

    The narrator's own voice is cancelled from the microphone (``voice/echo.py``). Raises
    RuntimeError naming what is missing when there is no input device; without RNNoise the
    microphone is heard raw (also said)."""
    device = getattr(settings, "input_device", None)
    check_input(device)
    engine = getattr(settings, "engine", "whisper")
    model = getattr(settings, "model", None)
    mode = getattr(settings, "listen_mode", "open")
    keys = _stdin_keys() if mode == "push" else None
    denoiser = make_denoiser(getattr(settings, "denoise", True))
    ears = Ears(lambda: load_recognizer(engine, model), Mic(device, echo=make_canceller()),
                listening=mode, keys=keys, denoiser=denoiser)
    ears.tracks = tracks
    return ears
