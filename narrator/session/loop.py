"""The session loop, one for every game and every kind of input: ``run`` plays a ``Session``
(narrator.session.game) at a table. It says one sentence at a time and listens while it plays,
journals an input *before* the session acts on it, and shows each state (reading, listening,
paused, didn't catch that) with an earcon and a caption. See docs/session-loop.md.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Callable, Protocol

from narrator.events import REPLIES, Continue, Control, Said, Unclear, Utterance, Word
from narrator.rules.base import Expectation
from narrator.session.game import Session
from narrator.session.journal import JournalWriteError
from narrator.understand import controls, describe, live_controls, normalise
from narrator.voice.said_again import WRITTEN_AS_ASKED
from narrator.voice.spoken import Echo, Spoken
from narrator.voice.unanswered import left_unanswered

PAUSED = "Paused. Say resume to go on."
LOADING = "[the speech recogniser is loading: type, or wait for the listening sound]"
MISSED = "Didn't catch that."
VOICE_KEPT = "Not sure enough to change the voice: it stays as it is."
#: a yes Whisper wrote just as it wrote the answer read back ("Yes.": the answer said again?)
#: is asked for in more words (flite awb's "correct" was written "Go back." at 10 dB)
OTHER_YES = "yes, that's right"
SAY_OTHER_YES = f'That yes sounded like the answer again: say "{OTHER_YES}" if I heard it ' \
    'right, or "no".'
#: asked when "quit" is heard by voice (a misheard word must not end the session); typed, it quits
QUIT_CHECK = "Save and quit? Yes or no."
NOT_QUITTING = "Not quitting."
#: what the table can say over the narration that the shell acts on at once
READING_CONTROLS = live_controls("reading")
#: controls that change how the narrator sounds
VOICE_CONTROLS = ("slower", "faster", "louder", "quieter")
#: what changes the game, the session or the narrator's voice: acted on when unsure only if
#: heard twice (Whisper wrote espeak-ng's "desperate" "faster", 0.43: the reading sped up);
#: a change of voice, not so while a question waits (``_voice_misheard``)
WEIGHTY = REPLIES + ("back", "quit", "roll") + VOICE_CONTROLS
#: ... of which the commands are asked about aloud, and a yes acts on them
CHECKED = ("back", "roll")
#: controls that skip to the question over the reading
SKIPS = ("stop", "next")
#: over the reading, these wait to be heard twice when unsure (shown, not said: the reading
#: goes on)
SHOWN_ONCE = SKIPS + VOICE_CONTROLS
READ_KINDS = ("heading", "line", "caption")  # sentences of a passage (not a question or reply)
POLL = 0.1  # seconds between checks that the current sentence still plays
ECHO_TAIL = 1.0  # seconds after the narrator stops during which its words may still be heard


class Ears(Protocol):
    """Where utterances come from (stdin in text mode, the microphone in voice mode).

    ``mode`` is "asking", "reading", "paused", "confirming" or "spelling"; ``echo`` is what the
    narrator is saying (and just said), so its own words are not taken for a command. None:
    nothing came before ``timeout``, or the input ended. Ears that load may also have ``ready``
    (False while loading) and ``notices`` (news for the table, such as another engine in use,
    each said once before a question);
    ears that can hear the earcons have ``cued(name)``, called as each one plays.
    """

    def listen(self, expectation: Expectation, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Utterance | None: ...


class Mouth(Protocol):
    """Where speech goes (the Speaker; absent in text mode and with --quiet).

    The loop says one sentence at a time and polls ``is_speaking``. ``pause``/``resume`` hold
    a recording in place (speech is stopped and said again instead); ``louder``/``quieter``
    (the new volume, 0..1) may be missing: the table is told so; ``skip`` (stop, the rest
    marked skipped) may be missing: ``stop`` is used. A mouth with ``caption_to``
    is handed the captions of what it says, to show each sentence as it is heard; it also
    takes ``say(said, again=True)`` for a passage said again ("repeat"). A mouth with
    ``heard_until`` tells when its last sound handed out is heard (monotonic clock): an output
    latency after ``is_speaking`` turns False, and the narrator's words are audible till then.
    """

    def say(self, said: Said) -> None: ...
    @property
    def is_speaking(self) -> bool: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def stop(self) -> None: ...
    def faster(self) -> float: ...
    def slower(self) -> float: ...
    def louder(self) -> float: ...
    def quieter(self) -> float: ...
    def earcon(self, name: str) -> None: ...


class Cues(Protocol):
    """Earcons without speech (``--quiet`` keeps them)."""

    def earcon(self, name: str) -> None: ...


class _Quit(Exception):
    """The table said quit (``heard``), or the input ended (None), while reading or paused."""

    def __init__(self, heard: Utterance | None) -> None:
        super().__init__("quit")
        self.heard = heard


def run(session: Session, ears: Ears, show: Callable[[Said], None], journal: Any,
        mouth: Mouth | None = None, first: list[Said] | None = None,
        cues: Cues | None = None) -> bool:
    """Play until the game ends or someone says quit. Returns True when the game ended.

    ``journal`` has ``append(input)`` and ``append_undo()``; each is called (and is durable)
    before the session acts on the input; one that raises ``JournalWriteError`` is said and
    the input is not acted on. ``cues`` plays the earcons when there is no mouth.
    """
    return Table(session, ears, show, journal, mouth, cues).run(first)


class Table:
    """The states the table hears and sees: reading, listening, paused, didn't catch that."""

    def __init__(self, session: Session, ears: Ears, show: Callable[[Said], None],
                 journal: Any, mouth: Mouth | None = None, cues: Cues | None = None) -> None:
        self.session, self.ears, self.show, self.journal = session, ears, show, journal
        self.mouth = mouth
        self._cues = mouth if mouth is not None else cues
        self.misses = 0
        self.held: Utterance | None = None  # an answer said over the narration
        self._spoke_at = 0.0  # when the mouth was last seen speaking (monotonic clock)
        self._said = Spoken()  # what it said, with when (the guard matches late decodings)
        self._told: set[str] = set()  # the ears' notices already said
        self._doubt: str | None = None  # an unsure weighty word or skip heard once (doubtful)
        self._again: list[Said] = []  # a passage being said again ("repeat")
        hand_over = getattr(mouth, "caption_to", None)
        self._mouth_captions = hand_over is not None  # it captions each sentence as heard
        if hand_over is not None:
            hand_over(lambda said: self.show(said))
        tell = getattr(mouth, "heard_to", None)
        self._timed = tell is not None  # the mouth tells when each sentence is first heard
        if tell is not None:
            tell(lambda text: self._said.start(text, time.monotonic()))

    def echo(self, audible: bool) -> str:
        """What the narrator says now (while its sound is ``audible``), with when it said what
        (for the self-trigger guard): what it said before is echo only where it was audible
        while an utterance was captured (``Spoken.during``), so a player may answer "Tails" to
        "Heads or tails?" at once, or "resume" to "Say resume to go on." as the next plays."""
        return Echo(self._said.latest(time.monotonic()) if audible else "", self._said)

    def listen(self, mode: str, timeout: float | None = None) -> Utterance | None:
        """One utterance heard in ``mode``. The narrator's words are the echo while it speaks
        and, as timed (``Spoken.during``), ECHO_TAIL seconds after its last sound is heard;
        then not, so a player may say a word it said ("Say next when you are ready." —
        "next")."""
        deadline = None if timeout is None else time.monotonic() + timeout
        expectation = self.session.expectation
        while self.mouth is not None:
            now = time.monotonic()
            if self.mouth.is_speaking:
                self._spoke_at = now
            else:
                self._spoke_at = max(self._spoke_at, self._heard_until())
                self._said.end(max(now, self._spoke_at))
            if now - self._spoke_at > ECHO_TAIL:
                break
            if deadline is not None and now >= deadline:
                return None
            heard = self.ears.listen(expectation, mode=mode, echo=self.echo(now <= self._spoke_at),
                                     timeout=POLL)
            if heard is not None:
                return heard
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        return self.ears.listen(expectation, mode=mode, echo=Echo("", self._said), timeout=left)

    def _heard_until(self) -> float:
        """When the mouth's last sound is heard (0 when it cannot tell)."""
        return getattr(self.mouth, "heard_until", 0.0)

    def _log_said(self, text: str) -> None:
        """Before ``text`` is given to the mouth: log the sentence before it as audible until
        its last sound was heard, and ``text`` from now on unless the mouth tells when it is
        first heard (``heard_to``: a table's "pause" while it renders is no echo of it)."""
        now = time.monotonic()
        self._said.end(max(now, self._heard_until()))
        if not self._timed:
            self._said.start(text, now)

    def ask(self) -> Utterance | None:
        """Listen for the answer; "listening" sounds once the recogniser has loaded (until
        then typing works, and a caption says why there is no cue yet)."""
        if not getattr(self.ears, "ready", True):
            self.show(Said(LOADING, "state"))
            while not getattr(self.ears, "ready", True):
                heard = self.ears.listen(self.session.expectation, mode=self.session.mode,
                                         timeout=POLL)
                if heard is not None:
                    return heard
        news = [n for n in getattr(self.ears, "notices", ()) if n not in self._told]
        if news:
            self._told.update(news)
            self.deliver([Said(n, "info") for n in news])
        self.state("listening")
        return self.listen(self.session.mode)

    # ------------------------------------------------------------------ asking

    def run(self, first: list[Said] | None = None) -> bool:
        said = first if first is not None else self.session.opening()
        try:
            while True:
                self.deliver(said)
                if self.session.over:
                    return True
                heard, self.held = self.held, None
                if heard is None:
                    heard = self.ask()
                if heard is None:
                    return False
                said = self.act(heard)
        except _Quit as quit_:
            if quit_.heard is not None:
                self.deliver([Said("Saved. Run narrator resume to pick up here.", "info")])
            return False

    def act(self, heard: Utterance) -> list[Said]:
        """What the table said while a question waits; what to say next."""
        meaning = heard.meaning
        if isinstance(meaning, Unclear):
            return self.miss(heard, "asking")
        if self._voice_misheard(heard):
            self._doubt = None
            return self.miss(replace(heard, meaning=Unclear(heard.text, VOICE_KEPT)), "asking")
        self.misses = 0
        doubt = self.doubtful(heard)
        if doubt is None:
            return self.take(heard)
        return self.checked(heard, self.deliver) if _control_name(meaning) in CHECKED else doubt

    def take(self, heard: Utterance) -> list[Said]:
        """Act on what was understood (and not in doubt); what to say next."""
        meaning = heard.meaning
        name = meaning.name if isinstance(meaning, Control) else None
        if name == "pause" and self._cues is not None:
            action, said = self.paused()
            if action == "repeat":
                self._again = self.session.full(self.session.last_said)
                return list(self._again)
            return said if action == "acted" else self.session.question()
        if name in ("stop", "resume") and self._cues is not None:
            return self.session.question()
        if name in VOICE_CONTROLS:
            return self.adjust(name)
        if name == "quit" and not self.quit_confirmed(heard, self.deliver):
            return self.session.question()
        outcome = self.session.hear(heard)
        said = outcome.said
        try:
            if outcome.record is not None:
                self.journal.append(outcome.record)
                said = said + self.session.commit()
            elif outcome.undo:
                self.journal.append_undo()
                said = self.session.undo()
        except JournalWriteError as exc:  # not kept, so not acted on: the game stays where it was
            said, outcome.control = [Said(str(exc), "reject")], "unclear"
        if outcome.control == "quit":
            raise _Quit(heard)
        if outcome.control in ("accepted", "unclear"):
            self.cue(outcome.control)
        if outcome.control == "repeat":
            self._again = list(said)
        if outcome.control in ("pause", "resume", "stop"):
            return [Said(f'"{outcome.control}" works when speech is on; text mode has nothing '
                         f'playing.', "info")]
        return said

    def doubtful(self, heard: Utterance) -> list[Said] | None:
        """An unsure yes, no, keep, change, go back, quit, roll or change of voice acts only
        when heard twice (a short tone, such as an earcon heard back, can pass for "no"): None
        when it acts now; the first time, what to say aloud (a table that cannot see the
        screen hears it). Go back and roll are asked about instead (``checked``) where the
        table answers. A reply must be heard as the same words again, written the same way: at
        10 dB a table said "clocks" twice to refuse "clock", Whisper wrote "yeah", then
        "right", and the two unsure yeses took "clock" (a "yes" said twice was written "yes"
        twice in 125 such repeats of the table runs); a table said "the fog" twice to refuse
        "long road", Whisper wrote "It's done.", then "Ta.", each fitted to "yes". Not a no,
        which only refuses (flite awb's "tails", said to refuse "heads", was written "They
        move.", "They know.", "They moved." and "Thank you.", an unsure "no" each time, and
        asked about again and again). A yes written just as the answer was
        (``WRITTEN_AS_ASKED``) is asked for in other words (SAY_OTHER_YES: said again, it
        would be written so again), and any yes not so written then confirms it."""
        meaning = heard.meaning
        word = getattr(meaning, "name", None) or getattr(meaning, "word", None)
        weighty = word in WEIGHTY and not (isinstance(meaning, Word)
                                           and self.session.mode != "confirming")
        written = isinstance(meaning, Word) and word != "no"
        said = normalise(heard.transcript or heard.text) if written else word
        if weighty and not heard.sure and heard.transcript.endswith(WRITTEN_AS_ASKED):
            self._doubt = OTHER_YES  # a yes written as the answer was: said another way
            return [Said(SAY_OTHER_YES, "prompt")]
        if word == "yes" and self._doubt == OTHER_YES:  # said another way, as asked
            said = OTHER_YES
        if not self._first_hearing(said, weighty and not heard.sure):
            return None
        return [Said(f'Heard "{heard.text}"? Say it again to be sure.', "prompt")]

    def _voice_misheard(self, heard: Utterance) -> bool:
        """Whether ``heard`` is a change of voice heard unsure again while a question waits:
        no confirmation there, but an answer said again and written the same way (espeak-ng's
        "desperate", "Master it." both times at Blades' action roll, scored "faster" 0.35 and
        0.44: the reading sped up). A change of voice said at a question is written as said
        and sure; over the reading, heard twice, it acts."""
        name = _control_name(heard.meaning)
        return name in VOICE_CONTROLS and not heard.sure and self._doubt == name \
            and self.session.mode == "asking"

    def _first_hearing(self, word: str | None, doubtful: bool) -> bool:
        """Whether ``word``, heard ``doubtful``, waits to be heard again before it acts (it is
        then the doubt); False when it is not doubtful or confirms the doubt just before."""
        doubted, self._doubt = self._doubt, None
        if not doubtful or doubted == word:
            return False
        self._doubt = word
        return True

    def checked(self, heard: Utterance, tell: Callable[[list[Said]], None],
                going_on: list[Said] | None = None) -> list[Said]:
        """An unsure "roll for me" or "go back" asked about aloud (said with ``tell``): a yes,
        or the same words again, acts on it; a no drops it; an answer said instead is heard
        as said now. Whisper writes flite's "roll for me" "Rebel for me." (a guess, however
        often said), and "yes" as itself. ``going_on``: what to say when it does not act (over
        the reading, the rest of it); else the question again after a no."""
        answer = self.confirmed(f'Did you say "{heard.text}"? Yes or no.', tell)
        name = _reply(answer.meaning)
        if name == "yes" or name == _control_name(heard.meaning):
            return self.take(heard)
        if name != "no":
            self.held = answer
        if going_on is not None:
            return going_on
        return [Said("Then say it again.", "info")] + self.session.question() if name == "no" \
            else []

    def confirmed(self, question: str, tell: Callable[[list[Said]], None]) -> Utterance:
        """Ask a yes-or-no ``question`` (said with ``tell``); the answer (an unsure yes or no
        is asked for again)."""
        tell([Said(question, "prompt")])
        self.held = None  # what was said over the question answers it, not the game
        while True:
            self.state("listening")
            answer = self.listen("confirming")
            if answer is None:
                raise _Quit(None)
            doubt = self.doubtful(answer)
            if doubt is None:
                return answer
            tell(doubt)

    def quit_confirmed(self, heard: Utterance, tell: Callable[[list[Said]], None]) -> bool:
        """A typed quit quits; one heard by voice asks first (said with ``tell``), and only a
        yes quits (anything else goes on)."""
        if heard.engine == "text":
            return True
        if _reply(self.confirmed(QUIT_CHECK, tell).meaning) == "yes":
            return True
        self.show(Said(NOT_QUITTING, "info"))
        return False

    def miss(self, heard: Utterance, mode: str) -> list[Said]:
        """Not understood: typed input hears why; by voice the earcon and a caption (with why),
        and after two misses in a row what can be said now."""
        self.cue("unclear")
        if heard.engine == "text":  # why, then the question again, like any refused answer
            return [Said(heard.meaning.reason, "reject")] + self.session.question()
        self.show(Said(MISSED, "state"))
        reason = heard.meaning.reason
        if not reason.lower().rstrip(".").endswith(MISSED.lower().rstrip(".")):
            self.show(Said(reason, "reject"))  # why, when there is more to say
        self.misses += 1
        if self.misses < 2:
            return []
        self.misses = 0
        return self.help(mode)

    def help(self, mode: str) -> list[Said]:
        """What can be said now."""
        if mode == "asking":
            return self.session.help()
        if mode == "paused":
            return [Said("Paused. You can say: " + ", ".join(controls("paused")) + ".", "info")]
        said = [Said("While I read you can say: " + ", ".join(controls("reading")) + ".",
                     "info")]
        answers = describe(self.session.expectation)
        if answers:
            said.append(Said("An answer to the coming question waits until it is asked: "
                             + "; ".join(answers) + ".", "info"))
        return said

    def adjust(self, name: str) -> list[Said]:
        """slower, faster, louder, quieter; a refusal when nothing speaks or cannot do it."""
        change = getattr(self.mouth, name, None) if self.mouth is not None else None
        if change is None:
            what = "speech is on" if self.mouth is None else "the speaker can change its volume"
            return [Said(f'"{name}" works only when {what}.', "reject")]
        value = change()
        self.cue("accepted")
        if name in ("slower", "faster"):
            return [Said(f"Speaking at {value:.2g} times the normal rate.", "info")]
        return [Said(f"Volume {round(value * 100)} percent.", "info")]

    # ------------------------------------------------------------------ reading

    def deliver(self, said: list[Said]) -> None:
        """Caption and speak each sentence in turn; while one plays, hear the table.

        Raises _Quit when the table says quit, or the input ends, meanwhile."""
        queue = list(said)
        if self.mouth is not None and any(s.kind in READ_KINDS for s in queue):
            self.state("reading")
        while queue:
            current = queue.pop(0)
            if self.mouth is None:
                self.show(current)
                continue
            self._log_said(current.text)
            if not self._mouth_captions:
                self.show(current)
                self.mouth.say(current)
            elif any(current is s for s in self._again):  # the mouth captions it, marked
                self.mouth.say(current, again=True)
            else:  # captioned by the mouth, sentence by sentence, as each is heard
                self.mouth.say(current)
            queue = self.reading(current, queue, said)
        self._again = []

    def reading(self, current: Said, queue: list[Said], passage: list[Said]) -> list[Said]:
        """Hear the table while ``current`` plays; what is left to say afterwards."""
        assert self.mouth is not None
        while self.mouth.is_speaking:
            heard = self.listen("reading", timeout=POLL)
            if heard is None:
                continue
            meaning = heard.meaning
            if isinstance(meaning, Unclear):
                said = self.miss(heard, "reading")
                if said:
                    return self.interject(said, current, queue)
                continue
            name = _control_name(meaning)
            if name not in READING_CONTROLS:
                if current.kind == "readback" and not _replying(meaning):
                    left_unanswered(heard.text, "over the read-back: its own answer, heard back")
                elif heard.sure:
                    self.hold(heard, over_narration=True)
                else:
                    self.unsure_early(heard)
                continue
            self.misses = 0
            if name in SHOWN_ONCE and self.unsure_once(heard):
                continue
            if name in SKIPS:
                return self.skip(current, queue)
            if name == "repeat":
                return self.again(passage)
            if name == "back":
                return self.take_back(heard, current, queue)
            if name == "pause":
                after = self.pause_reading(current, queue, passage)
                if after is None:
                    continue
                return after
            said = (self.help("reading") if name == "help" else
                    self.session.what_now("reading") if name == "whatnow" else self.adjust(name))
            if name in ("help", "whatnow") or said[0].kind == "reject":
                return self.interject(said, current, queue)
            self.show(said[0])
        return queue

    def take_back(self, heard: Utterance, current: Said, queue: list[Said]) -> list[Said]:
        """"go back" over the reading: cut it, take back the last answer (asked about first
        when unsure, as at a question) and ask its question again. Not taken back, or with
        nothing to take back (said why), the reading goes on from the sentence cut."""
        assert self.mouth is not None
        self.mouth.stop()
        going_on = [current] + queue
        if self.doubtful(heard) is not None:
            return self.checked(heard, self.deliver, going_on)
        said = self.take(heard)
        return said[:1] + going_on if said and said[0].kind == "reject" else said

    def unsure_once(self, heard: Utterance, tell: Callable[[list[Said]], None] | None = None
                    ) -> bool:
        """Whether ``heard``, a skip or a change of voice over the reading (or a skip while
        paused), is unsure and heard once: shown (or said with ``tell``), not acted on, so the
        reading goes on as it was (in pink noise 10 dB down, "pause" was heard "go on" at
        0.11-0.25 and cut "Heads or tails?"; "smoother." was heard "slower" at 0.11), or the
        pause holds ("pause please" was heard "next please" at 0.07-0.15); said again, it
        acts."""
        name = _control_name(heard.meaning)
        if not self._first_hearing(name, not heard.sure):
            return False
        then = "skip" if name in SKIPS else "be sure"
        (tell or self.caption)([Said(f'Heard "{heard.text}"? Say it again to {then}.', "state")])
        return True

    def skip(self, current: Said, queue: list[Said]) -> list[Said]:
        """Stop reading and go to the question (ask it again when it was being asked)."""
        assert self.mouth is not None
        getattr(self.mouth, "skip", self.mouth.stop)()  # a Speaker captions what it drops
        self.cue("accepted")
        if current.kind == "prompt":
            return [current]
        return [s for s in queue if s.kind == "prompt"] or self.session.question()

    def again(self, passage: list[Said]) -> list[Said]:
        """Cut the sentence playing; ``passage`` to say again (captioned as said again)."""
        assert self.mouth is not None
        self.mouth.stop()
        self._again = self.session.full(passage)
        return list(self._again)

    def interject(self, said: list[Said], current: Said, queue: list[Said]) -> list[Said]:
        """Cut the sentence playing, say ``said``, then that sentence again and the rest."""
        assert self.mouth is not None
        self.mouth.stop()
        return said + [current] + queue

    def unsure_early(self, heard: Utterance) -> None:
        """An answer heard unsure over the narration, before its question: shown, not held, so
        the question is asked as ever. Such a hearing was a player's "pause" written "one" or
        "oh" in noise; held, it was read back when the question came, and the player's own
        answer to it, written "yes", took an answer no one gave."""
        left_unanswered(heard.text, "unsure, over the narration: before its question")
        self.show(Said(f'Heard "{heard.text}"? Say it when the question comes.', "state"))

    def hold(self, heard: Utterance, over_narration: bool = False) -> None:
        """An answer said before its question: kept until the question is asked. One heard
        ``over_narration`` by voice is read back then (the narrator's leftover echo can pass
        for an answer to the question it is leading to)."""
        check = over_narration and heard.engine != "text"
        self.held = replace(heard, sure=False) if check else heard
        self.cue("accepted")
        when = "read back" if check else "taken"
        self.show(Said(f'Heard "{heard.text}": {when} when the question comes.', "state"))

    # ------------------------------------------------------------------ paused

    def pause_reading(self, current: Said, queue: list[Said],
                      passage: list[Said]) -> list[Said] | None:
        """Paused over a passage: resume goes on from the sentence that was cut, or (None) a
        recording from where it was held."""
        assert self.mouth is not None
        held = current.audio is not None  # a recording keeps its place; speech starts again
        if held:
            self.mouth.pause()
        else:
            self.mouth.stop()
        action, said = self.paused(speak=not held)
        if action == "resume" and held:
            self.mouth.resume()
            return None
        if action == "resume":
            return [current] + queue
        if action == "next":
            return self.skip(current, queue)
        if action == "repeat":
            return self.again(passage)
        return said

    def paused(self, speak: bool = True) -> tuple[str, list[Said]]:
        """Say so and listen (mode "paused") until the table goes on: "resume", "next",
        "repeat", or "acted" with what to say when an utterance acted (back, go to track).
        ``speak`` False (a recording is held): captions only until then. What it says meanwhile
        (help, a miss) is heard over in this mode, not read as a passage: a "pause" heard over
        it paused that, and "resume" then went back to it, still paused. A "pause" heard here
        keeps the pause (said so when sure); a skip heard unsure acts only when said again; an
        unsure "go back" or "roll for me" is asked about, and a no keeps the pause (table talk
        heard as "undo" while paused, then refused, once resumed the game)."""
        tell = self.say_paused if speak else self.caption
        ask = self.deliver if speak else self.caption  # a question is said whole, then heard
        self.still_paused(speak)
        self._doubt = None  # a skip heard unsure before the pause is not confirmed in it
        while True:
            heard = self.listen("paused")
            if heard is None:
                raise _Quit(None)
            meaning = heard.meaning
            if isinstance(meaning, Unclear):
                tell(self.miss(heard, "paused"))
                continue
            name = _control_name(meaning)
            if name in SKIPS and self.unsure_once(heard, tell):
                continue
            if name in ("resume", "next", "stop", "repeat"):
                self.misses = 0
                if speak and self.mouth is not None:
                    self.mouth.stop()  # what it said while paused
                self.cue("accepted")
                return ("next" if name == "stop" else name), []
            if name == "pause":  # said again, or by a second player; unsure, only sounded and
                self.still_paused(speak and heard.sure)  # shown (remarks: "What?" fitted "wait")
                continue
            if name == "help":
                tell(self.help("paused"))
                continue
            if name == "whatnow":
                tell(self.session.what_now("paused"))
                continue
            if name is None:
                self.hold(heard)
                continue
            doubt = self.doubtful(heard)
            if doubt is not None and name not in CHECKED:
                tell(doubt)
                continue
            if name == "quit":
                if self.quit_confirmed(heard, ask):
                    raise _Quit(heard)
                self.state("paused")
                continue
            if self.mouth is not None:
                self.mouth.stop()  # the recording held, or what it said while paused
            if not doubt:
                return "acted", self.take(heard)
            kept: list[Said] = []  # what ``checked`` gives back when it does not act
            said = self.checked(heard, ask, kept)
            if said is kept:  # a no (or an answer, held): still paused, as the table wants
                self.still_paused(speak)
                continue
            return "acted", said

    def still_paused(self, speak: bool) -> None:
        """Sound and show the paused state, and (``speak``) say it."""
        self.state("paused")
        if self.mouth is not None and speak:
            self.mouth.stop()  # what it said while paused
            self._log_said(PAUSED)
            self.mouth.say(Said(PAUSED, "state"))

    def say_paused(self, said: list[Said]) -> None:
        """Caption and speak ``said`` while paused, not waiting for it: the paused loop hears
        the table over it."""
        for s in said:
            if not self._mouth_captions:
                self.show(s)
            if self.mouth is not None:
                self._log_said(s.text)
                self.mouth.say(s)

    # ------------------------------------------------------------------ signals

    def caption(self, said: list[Said]) -> None:
        """Show without speaking (a recording is held)."""
        for s in said:
            self.show(s)

    def state(self, name: str) -> None:
        """Sound and show a state: reading, listening, paused."""
        self.cue(name)
        if self._cues is not None:
            self.show(Said(STATE_CAPTIONS[name], "state"))

    def cue(self, name: str) -> None:
        """Play earcon ``name``, and tell ears that can hear it (``cued``) that it is ours."""
        if self._cues is not None:
            self._cues.earcon(name)
            heard_back = getattr(self.ears, "cued", None)
            if heard_back is not None:
                heard_back(name)


STATE_CAPTIONS = {"reading": "[reading]", "listening": "[listening]", "paused": PAUSED}


def _control_name(meaning: Any) -> str | None:
    """The control an utterance names; "next" for a Continue (said while reading or paused
    it moves on to the question, like "next")."""
    if isinstance(meaning, Continue):
        return "next"
    return meaning.name if isinstance(meaning, Control) else None


def _reply(meaning: Any) -> str | None:
    """``_control_name`` of an answer to a yes-or-no question, "yes" and "no" also as the words
    a read-back waits for: asked 'Did you say "flip for me"?' over "I heard heads. Right?",
    the table's yes (a word there) had confirmed heads."""
    if isinstance(meaning, Word) and meaning.word in ("yes", "no"):
        return meaning.word
    return _control_name(meaning)


def _replying(meaning: Any) -> bool:
    """Whether an answer heard over a read-back replies to it (REPLIES) rather than gives
    another answer: over "1 success. Right?" Whisper wrote the narrator's own words, leaking
    through the canceller, as "1, 6," (sure), and that was read back in their place and
    confirmed (the short Slow Burn table run, stop 85's CI)."""
    return (meaning.word if isinstance(meaning, Word) else _control_name(meaning)) in REPLIES
