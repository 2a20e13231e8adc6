"""The session loop, one for every game and every kind of input.

``Session`` is the pure core: it hears one utterance (text) and returns an ``Outcome``: what to
say, and which input to record. It never touches files, audio or the clock. ``run`` is the thin
shell around it: it asks the ears for an utterance, journals what must be journaled *before*
the session acts on it, and hands what is said to the captions and the speaker.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

from narrator.dice import Roller
from narrator.events import (
    Continue, Control, Dice, GameInput, Line, Number, ReadTrack, Said, Successes, Text, Unclear,
    Utterance, Word,
)
from narrator.rules.base import AcceptDice, AcceptWords, Expectation, RulesInfo, Step
from narrator.script.model import Script
from narrator.script.render import render, spoken_list
from narrator.understand import controls, describe

#: inputs read back for a "yes" before they change the game (when confirmation is on)
CONFIRMED_KINDS = (Dice, Successes)
CONFIRM = Expectation(Line("confirm"), (AcceptWords(("yes", "no")),))


@dataclass
class Outcome:
    """What one utterance led to.

    ``record``: an input to journal, then ``Session.commit()``; ``undo``: journal an undo, then
    ``Session.undo()``; ``control``: something for the shell (pause, resume, stop, slower,
    faster, quit, repeat, listening cues); ``said``: what to say now.
    """

    said: list[Said] = field(default_factory=list)
    record: GameInput | None = None
    undo: bool = False
    control: str | None = None


class ReplayError(Exception):
    """A journaled input that the rules no longer accept."""


class Session:
    """One game in progress: the rules' state, the inputs that led to it, what was last said."""

    def __init__(self, info: RulesInfo, script: Script, options: Mapping[str, Any],
                 *, confirm: bool = False, roller: Roller | None = None) -> None:
        self.info = info
        self.rules = info.rules
        self.script = script
        self.options = dict(options)
        self.confirm = confirm
        self.roller = roller or Roller()
        self.inputs: list[GameInput] = []
        self._first: Step = self.rules.start(self.options)
        self.state: Any = self._first.state
        self._pending: tuple[GameInput, Step] | None = None
        self._staged: Step | None = None
        self._last_input: GameInput | None = None
        self.last_said: list[Said] = []

    # ------------------------------------------------------------------ reading state

    @property
    def expectation(self) -> Expectation:
        """What is legal now (yes/no or a corrected answer while an input waits to be
        confirmed)."""
        return self._confirming() if self._pending else self.rules.expects(self.state)

    @property
    def mode(self) -> str:
        """How the ears should listen when the table answers: "confirming" or "asking"."""
        return "confirming" if self._pending else "asking"

    @property
    def over(self) -> bool:
        return self._pending is None and self.expectation.over

    def opening(self) -> list[Said]:
        """What the game says first (and again after a resume: the current question)."""
        return self._remember(self._say(self._first.say) + self._prompt())

    def resumed(self) -> list[Said]:
        """What to say when a saved session is picked up again."""
        intro = [Said(f"Resuming {self.info.title} after {len(self.inputs)} inputs.", "info")]
        return self._remember(intro + self._say(self.rules.status(self.state)) + self._prompt())

    # ------------------------------------------------------------------ the pure step

    def hear(self, heard: Utterance) -> Outcome:
        """Decide what one understood utterance leads to (nothing is applied yet)."""
        meaning = heard.meaning
        if isinstance(meaning, Unclear):
            return Outcome([Said(meaning.reason, "reject")], control="unclear")
        if isinstance(meaning, Control):
            return self._control(meaning)
        # free text from a microphone is never taken without a read-back, whatever the ears say
        sure = heard.sure and not (isinstance(meaning, Text) and heard.engine != "text")
        if self._pending is not None:
            return self._answer_confirmation(meaning, sure)
        return self._game_input(meaning, sure)

    def question(self) -> list[Said]:
        """The question waiting now (or the game's end)."""
        return self._prompt()

    def commit(self) -> list[Said]:
        """Adopt the input staged by the last ``hear`` (call after it was journaled)."""
        step, self._staged = self._staged, None
        assert step is not None, "commit() without a staged input"
        assert self._last_input is not None
        self.inputs.append(self._last_input)
        self.state = step.state
        return self._remember(self._say(step.say) + self._prompt())

    def undo(self) -> list[Said]:
        """Take back the last input (call after the undo was journaled)."""
        self._pending = None
        self.inputs.pop()
        self._rebuild()
        return self._remember([Said("Taken back.", "info")] + self._prompt())

    # ------------------------------------------------------------------ replay

    def replay(self, inputs: list[GameInput]) -> None:
        """Re-apply journaled inputs from the start (resume, undo, tests)."""
        self.inputs = list(inputs)
        self._rebuild()

    def _rebuild(self) -> None:
        state = self._first.state
        for n, given in enumerate(self.inputs, 1):
            step = self.rules.apply(state, given)
            if step.rejected is not None:
                raise ReplayError(f"input {n} ({given}) is refused on replay: "
                                  f"{self._text(step.rejected)}")
            state = step.state
        self.state = state

    # ------------------------------------------------------------------ helpers

    def _game_input(self, given: GameInput, sure: bool = True) -> Outcome:
        step = self.rules.apply(self.state, given)
        if step.rejected is not None:
            return Outcome([Said(self._text(step.rejected), "reject")], control="unclear")
        if not sure:
            self._pending = (given, step)
            return Outcome([Said(_unsure_read_back(given), "readback")], control="listening")
        if self.confirm and isinstance(given, CONFIRMED_KINDS):
            self._pending = (given, step)
            return Outcome([Said(f"{_read_back(given)}. Right?", "readback")],
                           control="listening")
        return self._stage(given, step)

    def _stage(self, given: GameInput, step: Step, said: list[Said] | None = None) -> Outcome:
        self._staged, self._last_input = step, given
        return Outcome(said or [], record=given, control="accepted")

    def _confirming(self) -> Expectation:
        """While confirming: yes/no, or a corrected result of the same kind."""
        return Expectation(CONFIRM.prompt, CONFIRM.accepts + self.rules.expects(self.state).accepts)

    def _answer_confirmation(self, meaning: GameInput, sure: bool = True) -> Outcome:
        assert self._pending is not None
        given, step = self._pending
        if getattr(meaning, "word", None) == "yes":
            self._pending = None
            return self._stage(given, step)
        if getattr(meaning, "word", None) == "no":
            self._pending = None
            return Outcome([Said("Then say it again.", "info")] + self._prompt())
        self._pending = None
        return self._game_input(meaning, sure)

    def _control(self, control: Control) -> Outcome:
        name = control.name
        if name in ("yes", "no") and self._pending is not None:
            return self._answer_confirmation(Word(name))
        if name == "back":
            if self._pending is not None:
                self._pending = None
                return Outcome([Said("Dropped. Say it again.", "info")] + self._prompt())
            if not self.inputs:
                return Outcome([Said("There is nothing to take back.", "reject")])
            return Outcome(undo=True)
        if name == "repeat":
            return Outcome(list(self.last_said), control="repeat")
        if name == "help":
            return Outcome(self.help())
        if name == "status":
            return Outcome(self._say(self.rules.status(self.state)))
        if name == "goto":
            return Outcome(self._goto(control.arg))
        if name == "roll":
            return self._roll()
        if name == "next":
            return Outcome([Said("The game is waiting for an answer first.", "reject")]
                           + self._prompt())
        if name in ("yes", "no"):
            return Outcome([Said(f'"{name}" is not an answer to this question.', "reject")]
                           + self._prompt())
        return Outcome(control=name)

    def _roll(self) -> Outcome:
        dice = self.expectation.find(AcceptDice)
        if dice is None:
            return Outcome([Said("There is nothing to roll right now.", "reject")])
        if not dice.can_roll:
            return Outcome([Said(dice.roll_refusal or "This game keeps its dice physical.",
                                 "reject")])
        faces = self.roller.roll(dice.max_count, dice.sides)
        given = Dice(faces, by_app=True)
        step = self.rules.apply(self.state, given)
        if step.rejected is not None:
            return Outcome([Said(self._text(step.rejected), "reject")])
        dice_word = "die" if len(faces) == 1 else "dice"
        said = Said(f"Rolled {len(faces)} {dice_word}: {spoken_list(faces)}.", "readback")
        return self._stage(given, step, [said])

    def _goto(self, number: int | None) -> list[Said]:
        track = self.script.track_number(number) if number is not None else None
        if track is None:
            numbers = [t.number for t in self.script.tracks]
            span = f"tracks {numbers[0]} to {numbers[-1]}" if numbers else "no tracks"
            return [Said(f"There is no track {number}; this game has {span}.", "reject")]
        return self._remember(render(self.script, ReadTrack(track.id)) + self._prompt())

    def help(self) -> list[Said]:
        """What can be said now, and at any time."""
        accepted = describe(self.expectation)
        sentences = [Said("You can say: " + "; ".join(accepted) + ".", "info")] if accepted else []
        sentences.append(Said("Any time: " + ", ".join(controls()) + ".", "info"))
        return sentences

    def _prompt(self) -> list[Said]:
        expectation = self.expectation
        if expectation.over:
            return [Said("The game is over. Thank you for playing.", "info")]
        return [Said(self._text(expectation.prompt), "prompt")]

    def _say(self, says: tuple | list) -> list[Said]:
        out: list[Said] = []
        for s in says:
            out.extend(render(self.script, s, "line"))
        return out

    def _text(self, line: Line) -> str:
        if line.key == "confirm":
            return "Is that right? Say yes or no."
        return self._say([line])[0].text

    def _remember(self, said: list[Said]) -> list[Said]:
        self.last_said = said
        return said


def _read_back(given: GameInput) -> str:
    if isinstance(given, Dice):
        return f"{spoken_list(given.faces)}"
    if isinstance(given, Successes):
        return f"{given.count} success" + ("" if given.count == 1 else "es")
    if isinstance(given, Number):
        return str(given.value)
    if isinstance(given, Word):
        return given.word if given.number is None else f"{given.word} {given.number}"
    if isinstance(given, Continue):
        return "next"
    return str(given)


def _unsure_read_back(given: GameInput) -> str:
    """The question that makes an input heard without certainty count only after a yes."""
    if isinstance(given, Text):
        return (f"I heard '{given.text}'. Keep it? Say yes or no, say it again, "
                f"or type it and press Enter.")
    return f"I heard {_read_back(given)}. Right?"




# ---------------------------------------------------------------------- the thin shell

PAUSED = "Paused. Say resume to go on."
LOADING = "[the speech recogniser is loading: type, or wait for the listening sound]"
MISSED = "Didn't catch that."
#: what the table can say over the narration that the shell acts on at once
READING_CONTROLS = ("pause", "stop", "next", "repeat", "slower", "faster", "louder", "quieter",
                    "help")
#: what changes the game or ends the session: acted on when unsure only if heard twice
WEIGHTY = ("yes", "no", "back", "quit", "roll")
#: controls that change how the narrator sounds
VOICE_CONTROLS = ("slower", "faster", "louder", "quieter")
READ_KINDS = ("heading", "line", "caption")  # sentences of a passage (not a question or reply)
POLL = 0.1  # seconds between checks that the current sentence still plays
ECHO_TAIL = 1.0  # seconds after the narrator stops during which its words may still be heard


class Ears(Protocol):
    """Where utterances come from (stdin in text mode, the microphone in voice mode).

    ``mode`` is "asking", "reading", "paused" or "confirming"; ``echo`` is what the narrator is
    saying (and just said), so its own words are not taken for a command. None: nothing came
    before ``timeout``, or the input ended. Ears that load may also have ``ready`` (False
    while loading) and ``notice`` (news for the table, such as another engine in use).
    """

    def listen(self, expectation: Expectation, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Utterance | None: ...


class Mouth(Protocol):
    """Where speech goes (the Speaker; absent in text mode and with --quiet).

    The loop says one sentence at a time and polls ``is_speaking``. ``pause``/``resume`` hold
    a recording in place (speech is stopped and said again instead); ``louder``/``quieter``
    (the new volume, 0..1) may be missing: the table is told so.
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
    before the session acts on the input. ``cues`` plays the earcons when there is no mouth.
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
        self._spoken = ("", "")  # the sentence said before and the one being said
        self._spoke_at = 0.0  # when the mouth was last seen speaking (monotonic clock)
        self._told: set[str] = set()  # the ears' notices already said
        self._doubt: str | None = None  # an unsure weighty word heard once (see doubtful)

    @property
    def echo(self) -> str:
        """What the narrator says now and said just before (for the self-trigger guard)."""
        return " ".join(t for t in self._spoken if t)

    def listen(self, mode: str, timeout: float | None = None) -> Utterance | None:
        """One utterance heard in ``mode``. The narrator's words are the echo while it speaks
        and ECHO_TAIL seconds after; then not, so a player may say a word it said ("Say next
        when you are ready." — "next")."""
        deadline = None if timeout is None else time.monotonic() + timeout
        expectation = self.session.expectation
        while self.mouth is not None:
            now = time.monotonic()
            if self.mouth.is_speaking:
                self._spoke_at = now
            elif now - self._spoke_at > ECHO_TAIL:
                break
            if deadline is not None and now >= deadline:
                return None
            heard = self.ears.listen(expectation, mode=mode, echo=self.echo, timeout=POLL)
            if heard is not None:
                return heard
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        return self.ears.listen(expectation, mode=mode, timeout=left)

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
        notice = getattr(self.ears, "notice", None)
        if notice and notice not in self._told:
            self._told.add(notice)
            self.deliver([Said(notice, "info")])
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
                self.deliver([Said("Saved. Say narrator resume to pick up here.", "info")])
            return False

    def act(self, heard: Utterance) -> list[Said]:
        """What the table said while a question waits; what to say next."""
        meaning = heard.meaning
        if isinstance(meaning, Unclear):
            return self.miss(heard, "asking")
        self.misses = 0
        return [] if self.doubtful(heard) else self.take(heard)

    def take(self, heard: Utterance) -> list[Said]:
        """Act on what was understood (and not in doubt); what to say next."""
        meaning = heard.meaning
        name = meaning.name if isinstance(meaning, Control) else None
        if name == "pause" and self._cues is not None:
            action, said = self.paused()
            return said if action == "acted" else (
                list(self.session.last_said) if action == "repeat" else self.session.question())
        if name in ("stop", "resume") and self._cues is not None:
            return self.session.question()
        if name in VOICE_CONTROLS:
            return self.adjust(name)
        outcome = self.session.hear(heard)
        said = outcome.said
        if outcome.record is not None:
            self.journal.append(outcome.record)
            said = said + self.session.commit()
        elif outcome.undo:
            self.journal.append_undo()
            said = self.session.undo()
        if outcome.control == "quit":
            raise _Quit(heard)
        if outcome.control in ("accepted", "unclear"):
            self.cue(outcome.control)
        if outcome.control in ("pause", "resume", "stop"):
            return [Said(f'"{outcome.control}" works when speech is on; text mode has nothing '
                         f'playing.', "info")]
        return said

    def doubtful(self, heard: Utterance) -> bool:
        """An unsure yes, no, go back, quit or roll acts only when heard twice in a row (a
        short tone, such as an earcon heard back, can pass for "no"); the first time the
        caption asks for it again."""
        meaning = heard.meaning
        word = getattr(meaning, "name", None) or getattr(meaning, "word", None)
        doubted, self._doubt = self._doubt, None
        if heard.sure or word not in WEIGHTY or (isinstance(meaning, Word)
                                                 and self.session.mode != "confirming"):
            return False
        if doubted == word:
            return False
        self._doubt = word
        self.show(Said(f'Heard "{heard.text}"? Say it again to be sure.', "state"))
        return True

    def miss(self, heard: Utterance, mode: str) -> list[Said]:
        """Not understood: typed input hears why; by voice the earcon and a caption (with why),
        and after two misses in a row what can be said now."""
        self.cue("unclear")
        if heard.engine == "text":
            return [Said(heard.meaning.reason, "reject")]
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
            self.show(current)
            if self.mouth is None:
                continue
            self.mouth.say(current)
            self._spoken = (self._spoken[1], current.text)
            queue = self.reading(current, queue, said)

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
                self.hold(heard)
                continue
            self.misses = 0
            if name in ("stop", "next"):
                return self.skip(current, queue)
            if name == "repeat":
                self.mouth.stop()
                return list(passage)
            if name == "pause":
                after = self.pause_reading(current, queue, passage)
                if after is None:
                    continue
                return after
            said = self.help("reading") if name == "help" else self.adjust(name)
            if name == "help" or said[0].kind == "reject":
                return self.interject(said, current, queue)
            self.show(said[0])
        return queue

    def skip(self, current: Said, queue: list[Said]) -> list[Said]:
        """Stop reading and go to the question (ask it again when it was being asked)."""
        assert self.mouth is not None
        self.mouth.stop()
        self.cue("accepted")
        if current.kind == "prompt":
            return [current]
        return [s for s in queue if s.kind == "prompt"] or self.session.question()

    def interject(self, said: list[Said], current: Said, queue: list[Said]) -> list[Said]:
        """Cut the sentence playing, say ``said``, then that sentence again and the rest."""
        assert self.mouth is not None
        self.mouth.stop()
        return said + [current] + queue

    def hold(self, heard: Utterance) -> None:
        """An answer said over the narration: kept until the question is asked."""
        self.held = heard
        self.cue("accepted")
        self.show(Said(f'Heard "{heard.text}": taken when the question comes.', "state"))

    # ------------------------------------------------------------------ paused

    def pause_reading(self, current: Said, queue: list[Said],
                      passage: list[Said]) -> list[Said] | None:
        """Paused over a passage: resume goes on from the sentence that was cut, or (None) a
        recording from where it was held."""
        assert self.mouth is not None
        held = current.audio is not None  # a recording keeps its place; speech starts again
        self.mouth.pause() if held else self.mouth.stop()
        action, said = self.paused(speak=not held)
        if action == "resume" and held:
            self.mouth.resume()
            return None
        if action == "resume":
            return [current] + queue
        if action == "next":
            return self.skip(current, queue)
        if action == "repeat":
            self.mouth.stop()
            return list(passage)
        return said

    def paused(self, speak: bool = True) -> tuple[str, list[Said]]:
        """Say so and listen (mode "paused") until the table goes on: "resume", "next",
        "repeat", or "acted" with what to say when an utterance acted (back, go to track).
        ``speak`` False (a recording is held): captions only until then."""
        self.state("paused")
        tell = self.deliver if speak else (lambda said: [self.show(s) for s in said])
        if self.mouth is not None and speak:
            self.mouth.say(Said(PAUSED, "state"))
            self._spoken = ("", PAUSED)
        while True:
            heard = self.listen("paused")
            if heard is None:
                raise _Quit(None)
            meaning = heard.meaning
            if isinstance(meaning, Unclear):
                tell(self.miss(heard, "paused"))
                continue
            name = _control_name(meaning)
            if name in ("resume", "next", "stop", "repeat"):
                self.misses = 0
                self.cue("accepted")
                return ("next" if name == "stop" else name), []
            if name in ("help", "pause"):
                tell(self.help("paused"))
                continue
            if name is None:
                self.hold(heard)
                continue
            if self.doubtful(heard):
                continue
            if not speak:
                self.mouth.stop()  # type: ignore[union-attr]
            return "acted", self.take(heard)

    # ------------------------------------------------------------------ signals

    def state(self, name: str) -> None:
        """Sound and show a state: reading, listening, paused."""
        self.cue(name)
        if self._cues is not None:
            self.show(Said(STATE_CAPTIONS[name], "state"))

    def cue(self, name: str) -> None:
        if self._cues is not None:
            self._cues.earcon(name)


STATE_CAPTIONS = {"reading": "[reading]", "listening": "[listening]", "paused": PAUSED}


def _control_name(meaning: Any) -> str | None:
    """The control an utterance names; "next" for a Continue (said while reading or paused
    it moves on to the question, like "next")."""
    if isinstance(meaning, Continue):
        return "next"
    return meaning.name if isinstance(meaning, Control) else None
