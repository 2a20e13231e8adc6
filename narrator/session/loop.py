"""The session loop, one for every game and every kind of input.

``Session`` is the pure core: it hears one utterance (text) and returns an ``Outcome``: what to
say, and which input to record. It never touches files, audio or the clock. ``run`` is the thin
shell around it: it asks the ears for an utterance, journals what must be journaled *before*
the session acts on it, and hands what is said to the captions and the speaker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

from narrator.dice import Roller
from narrator.events import Control, Dice, GameInput, Line, ReadTrack, Said, Successes, Unclear, Word
from narrator.rules.base import AcceptDice, AcceptWords, Expectation, RulesInfo, Step
from narrator.script.model import Script
from narrator.script.render import render, spoken_list
from narrator.session.journal import JournalWriteError
from narrator.voice.commands import describe, understand

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
        """What is legal now (a yes/no while an input waits to be confirmed)."""
        return CONFIRM if self._pending else self.rules.expects(self.state)

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

    def hear(self, text: str) -> Outcome:
        """Understand one utterance and decide what follows (nothing is applied yet)."""
        expectation = self.expectation
        meaning = understand(text, expectation if not self._pending else self._confirming())
        if isinstance(meaning, Unclear):
            return Outcome([Said(meaning.reason, "reject")], control="unclear")
        if isinstance(meaning, Control):
            return self._control(meaning)
        if self._pending is not None:
            return self._answer_confirmation(meaning)
        return self._game_input(meaning)

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

    def _game_input(self, given: GameInput) -> Outcome:
        step = self.rules.apply(self.state, given)
        if step.rejected is not None:
            return Outcome([Said(self._text(step.rejected), "reject")], control="unclear")
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

    def _answer_confirmation(self, meaning: GameInput) -> Outcome:
        assert self._pending is not None
        given, step = self._pending
        if getattr(meaning, "word", None) == "yes":
            self._pending = None
            return self._stage(given, step)
        if getattr(meaning, "word", None) == "no":
            self._pending = None
            return Outcome([Said("Then say it again.", "info")] + self._prompt())
        self._pending = None
        return self._game_input(meaning)

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
            return Outcome(self._help())
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
        return render(self.script, ReadTrack(track.id)) + self._prompt()

    def _help(self) -> list[Said]:
        accepted = describe(self.expectation)
        sentences = [Said("You can say: " + "; ".join(accepted) + ".", "info")] if accepted else []
        sentences.append(Said('Any time: repeat, go back, status, help, pause, resume, '
                              'slower, faster, go to track N, quit.', "info"))
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
    return str(given)


# ---------------------------------------------------------------------- the thin shell


class Ears(Protocol):
    """Where utterances come from (stdin in text mode, the microphone in voice mode)."""

    def listen(self, expectation: Expectation | None, *, speaking: bool = False,
               timeout: float | None = None) -> str | None: ...


class Mouth(Protocol):
    """Where speech goes (the Speaker; absent in text mode and with --quiet)."""

    def say(self, said: Said) -> None: ...
    def wait(self, timeout: float | None = None) -> bool: ...
    @property
    def is_speaking(self) -> bool: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def repeat(self) -> None: ...
    def stop(self) -> None: ...
    def faster(self) -> float: ...
    def slower(self) -> float: ...
    def earcon(self, name: str) -> None: ...


def run(session: Session, ears: Ears, show: Callable[[Said], None], journal: Any,
        mouth: Mouth | None = None, first: list[Said] | None = None) -> bool:
    """Play until the game ends or someone says quit. Returns True when the game ended.

    ``journal`` has ``append(input)`` and ``append_undo()``; each is called (and is durable)
    before the session acts on the input. One that raises ``JournalWriteError`` is said and
    the input is not acted on.
    """
    said = first if first is not None else session.opening()
    while True:
        _speak(said, show, mouth, ears)
        if session.over:
            return True
        if mouth is not None:
            mouth.earcon("listening")
        heard = ears.listen(session.expectation, speaking=False)
        if heard is None:
            return False
        outcome = session.hear(heard)
        said = outcome.said
        try:
            if outcome.record is not None:
                journal.append(outcome.record)
                said = said + session.commit()
            elif outcome.undo:
                journal.append_undo()
                said = session.undo()
        except JournalWriteError as exc:  # not kept, so not acted on: the game stays where it was
            said, outcome.control = [Said(str(exc), "reject")], "unclear"
        if outcome.control == "quit":
            _speak([Said("Saved. Say narrator resume to pick up here.", "info")], show, mouth,
                   ears)
            return False
        said = _shell_control(outcome.control, said, mouth)


def _shell_control(control: str | None, said: list[Said], mouth: Mouth | None) -> list[Said]:
    """Controls that belong to the speaker; a message when there is none."""
    if control in ("pause", "resume", "stop", "slower", "faster"):
        if mouth is None:
            return [Said(f'"{control}" works when speech is on; text mode has nothing '
                         f'playing.', "info")]
        if control in ("slower", "faster"):
            factor = getattr(mouth, control)()
            return [Said(f"Speaking at {factor:.2g} times the normal rate.", "info")]
        getattr(mouth, control)()
        return []
    if mouth is not None and control in ("accepted", "unclear"):
        mouth.earcon(control)
    return said


def _speak(said: list[Said], show: Callable[[Said], None], mouth: Mouth | None,
           ears: Ears) -> None:
    """Speak each sentence (the mouth captions it as it is spoken; without one, caption it
    here); while speaking, only pause/stop are heard."""
    for s in said:
        if mouth is None:
            show(s)
        else:
            mouth.say(s)
    if mouth is None:
        return
    paused = False
    while mouth.is_speaking or paused:
        heard = ears.listen(None, speaking=not paused, timeout=0.3)
        meaning = understand(heard, None) if heard else None
        name = meaning.name if isinstance(meaning, Control) else None
        if name == "pause":
            mouth.pause()
            paused = True
        elif name in ("resume", "next") and paused:
            mouth.resume()
            paused = False
        elif name in ("stop", "next"):
            mouth.stop()
            return
        elif name == "repeat":
            mouth.repeat()
