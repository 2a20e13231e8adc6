"""One game in progress, as a pure step: ``Session.hear(utterance)`` returns an ``Outcome`` (what
to say, which input to journal); ``commit``/``undo`` adopt it once journaled. No files, audio or
clock: the shell around it is ``narrator.session.loop``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from narrator.dice import Roller
from narrator.events import (
    CHOICES, CONFIRMS, Continue, Control, Dice, GameInput, Line, Number, ReadTrack, Said,
    Successes, Text, Unclear, Utterance, Word,
)
from narrator.rules.base import AcceptDice, AcceptText, AcceptWords, Expectation, RulesInfo, Step
from narrator.script.model import Script
from narrator.script.render import render
from narrator.understand import controls, counted, describe, spoken_list, wanted
from narrator.understand.spelling import by_radio, mended, spelled_out

#: inputs read back for a "yes" before they change the game (when confirmation is on)
CONFIRMED_KINDS = (Dice, Successes)
CONFIRM = Expectation(Line("confirm"), (AcceptWords(CONFIRMS),))
#: the answers to "Keep 'Mara', or change it to 'Maura'?": a name heard at a name's read-back
#: is offered as a change rather than read back alone (see ``_offer``)
CHOICE = AcceptWords(CHOICES)
CHANGE = "readback.change"  # that question's key (the session's own, as "confirm" is)
NOTHING_TO_TAKE_BACK = "There is nothing to take back yet."
#: asked when the table says "spell it" at a free-text question
SPELL = ("Spell it with words such as alpha, bravo, charlie, or one letter at a time. Say space "
         "between words, and done at the end.")


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


#: capitalised words that are no name ("The Lampblacks' coal yard": only "Lampblacks")
NOT_NAMES = frozenset({"A", "An", "The", "I", "My", "Our", "Their", "His", "Her", "And", "Of"})


def proper_nouns(texts: Iterable[str]) -> tuple[str, ...]:
    """The capitalised words of ``texts`` (a possessive's 's dropped), each once, in order."""
    words = (w for t in texts for w in re.findall(r"[A-Z][\w-]*", t))
    return tuple(dict.fromkeys(w for w in words if w not in NOT_NAMES))


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
        self._offered: tuple[GameInput, Step] | None = None  # a change offered for _pending
        self._staged: Step | None = None
        self._spelling = False  # "spell it" was said: the next answer is spelled
        self._heard_here: list[str] = []  # free text heard by voice at this question
        self._passed: GameInput | None = None  # the answer last refused at its read-back here
        self._last_input: GameInput | None = None
        self.last_said: list[Said] = []

    # ------------------------------------------------------------------ reading state

    @property
    def expectation(self) -> Expectation:
        """What is legal now (yes/no or a corrected answer while an input waits to be
        confirmed; keep or change while a change is offered). A free-text answer is told the
        proper nouns it may hold (the script's ``names`` and those in the table's earlier
        free-text answers) and what it was heard as here and not taken; any other answer, the
        one last refused at its read-back here (``Expectation.passed``)."""
        if self._offered is not None:
            return self._choosing()
        expected = self._confirming() if self._pending else self.rules.expects(self.state)
        if expected.find(AcceptText) is None:
            return replace(expected, passed=self._passed)
        names = self.script.names + proper_nouns(i.text for i in self.inputs
                                                  if isinstance(i, Text))
        return replace(expected, accepts=tuple(
            replace(a, names=a.names + names, refused=tuple(self._heard_here))
            if isinstance(a, AcceptText) else a for a in expected.accepts))

    @property
    def mode(self) -> str:
        """How the ears should listen when the table answers: "spelling", "confirming" or
        "asking"."""
        if self._spelling:
            return "spelling"
        return "confirming" if self._pending else "asking"

    @property
    def over(self) -> bool:
        return self._pending is None and self.expectation.over

    def opening(self) -> list[Said]:
        """What the game says first (and again after a resume: the current question)."""
        return self._remember(self._say(self._first.say) + self._prompt())

    def resumed(self) -> list[Said]:
        """What to say when a saved session is picked up again (the question in full)."""
        inputs = counted(len(self.inputs), "input")
        intro = [Said(f"Resuming {self.info.title} after {inputs}.", "info")]
        status = self._say(self.rules.status(self.state))
        return self._remember(intro + status + self.full(self._prompt()))

    # ------------------------------------------------------------------ the pure step

    def hear(self, heard: Utterance) -> Outcome:
        """Decide what one understood utterance leads to (nothing is applied yet)."""
        meaning = heard.meaning
        if isinstance(meaning, Unclear):
            return Outcome([Said(meaning.reason, "reject")], control="unclear")
        if isinstance(meaning, Control):
            return self._control(meaning)
        spelled = ("radio" if by_radio(heard.transcript or heard.text) else "letters") \
            if self._spelling else ""
        self._spelling = False
        # free text from a microphone is never taken without a read-back, whatever the ears say
        sure = heard.sure and not (isinstance(meaning, Text) and heard.engine != "text")
        if isinstance(meaning, Text) and not sure and not spelled:
            self._heard_here.append(meaning.text)
        if self._pending is not None:
            return self._answer_confirmation(meaning, sure, spelled)
        return self._game_input(meaning, sure, spelled)

    def question(self) -> list[Said]:
        """The question waiting now, in full (or the game's end): the shell asks it again after
        a miss or a pause."""
        return self.full(self._prompt())

    def commit(self) -> list[Said]:
        """Adopt the input staged by the last ``hear`` (call after it was journaled)."""
        step, self._staged = self._staged, None
        assert step is not None, "commit() without a staged input"
        assert self._last_input is not None
        self.inputs.append(self._last_input)
        self.state = step.state
        self._heard_here, self._passed = [], None
        return self._remember(self._say(step.say) + self._prompt())

    def undo(self) -> list[Said]:
        """Take back the last input (call after the undo was journaled)."""
        self._drop()
        self._spelling, self._heard_here, self._passed = False, [], None
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

    def _game_input(self, given: GameInput, sure: bool = True, spelled: str = "") -> Outcome:
        """``given`` applied, or read back first when not ``sure``; ``spelled``: how it was
        spelled ("letters", "radio"; "" not spelled). A spelling of letters may be offered
        mended from how the answer was heard said aloud (``mended``: letters' names sound
        alike); a radio one is not (each of seven offered in stop 82's table runs was wrong:
        "Alarm" as "Alairm", "Elsa Evans" as "Elsa Heavans")."""
        step = self.rules.apply(self.state, given)
        if step.rejected is not None:
            return Outcome(self._refused(step), control="unclear")
        if not sure:
            mend = mended(given.text, self._heard_here) \
                if spelled == "letters" and isinstance(given, Text) else None
            if mend is not None:  # "Keep 'Bad Tdmpdr', or change it to 'Bad Temper'?"
                return self._offer(given, step, Text(mend))
            self._pending = (given, step)
            return Outcome([Said(_unsure_read_back(given, spelled), "readback")],
                           control="listening")
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

    def _choosing(self) -> Expectation:
        """While a change is offered: keep or change (yes and no are controls)."""
        assert self._pending is not None and self._offered is not None
        kept, offered = self._pending[0], self._offered[0]
        assert isinstance(kept, Text) and isinstance(offered, Text)
        return Expectation(Line(CHANGE, {"kept": kept.text, "offered": offered.text}),
                           (CHOICE,))

    def _drop(self) -> None:
        """Forget the read-back waiting, and any change offered for it."""
        self._pending = self._offered = None

    def _answer_confirmation(self, meaning: GameInput, sure: bool = True,
                             spelled: str = "") -> Outcome:
        assert self._pending is not None
        given, step = self._pending
        word = getattr(meaning, "word", None)
        if self._offered is not None:
            return self._choose(word)
        if word == "yes":
            self._drop()
            return self._stage(given, step)
        if word == "no":
            return self._neither()
        self._drop()
        if not sure and isinstance(given, Text) and isinstance(meaning, Text) \
                and meaning.text.casefold() != given.text.casefold():
            return self._offer(given, step, meaning)
        return self._game_input(meaning, sure, spelled)

    def _offer(self, given: Text, step: Step, heard: Text) -> Outcome:
        """Other words heard by voice at a free-text read-back are offered as a change,
        "Keep 'Mara', or change it to 'Maura'?", and not read back alone: a voice's "yes"
        written "You ask." would otherwise be read back as a new name, and its next "yes" too.
        So is a spelling mended from how the answer was heard when said (``mended``)."""
        other = self.rules.apply(self.state, heard)
        if other.rejected is not None:
            return Outcome(self._refused(other), control="unclear")
        self._pending, self._offered = (given, step), (heard, other)
        return Outcome(self._render(self.expectation.prompt, "readback"), control="listening")

    def _choose(self, word: str | None) -> Outcome:
        """The answer to a change offered: keep, change, or no for neither."""
        assert self._pending is not None and self._offered is not None
        kept, offered = self._pending, self._offered
        if word in ("keep", "change"):
            self._drop()
            return self._stage(*(kept if word == "keep" else offered))
        if word == "no":
            return self._neither()
        return Outcome(self._refusal(f'"{word}" could mean either.'))

    def _neither(self) -> Outcome:
        """"no" to a read-back or a change offered: both dropped, the question again; an
        answer other than free text is remembered as refused here (``Expectation.passed``)."""
        assert self._pending is not None
        if not isinstance(self._pending[0], Text):
            self._passed = self._pending[0]
        self._drop()
        return Outcome([Said("Then say it again.", "info")] + self._prompt())

    def _control(self, control: Control) -> Outcome:
        name = control.name
        if name in ("yes", "no") and self._pending is not None:
            return self._answer_confirmation(Word(name))
        if name == "spell":
            return self._spell()
        if name == "back":
            if self._spelling:
                self._spelling = False
                return Outcome([Said("Not spelling.", "info")] + self._prompt())
            if self._pending is not None:
                self._drop()
                return Outcome([Said("Dropped. Say it again.", "info")] + self._prompt())
            if not self.inputs:
                return Outcome(self._refusal(NOTHING_TO_TAKE_BACK))
            return Outcome(undo=True)
        if name == "repeat":
            return Outcome(self.full(self.last_said), control="repeat")
        if name == "help":
            return Outcome(self.help())
        if name == "whatnow":
            return Outcome(self.what_now())
        if name == "status":
            return Outcome(self._say(self.rules.status(self.state)))
        if name == "goto":
            return Outcome(self._goto(control.arg))
        if name == "roll":
            return self._roll()
        if name == "next":
            return Outcome(self._refusal("The game needs an answer before it goes on."))
        if name in ("yes", "no"):
            return Outcome(self._refusal(f'"{name}" is not an answer to this question.'))
        return Outcome(control=name)

    def _spell(self) -> Outcome:
        """"spell it" (live only at a free-text question): the next answer is spelled (a
        read-back waiting is dropped)."""
        self._drop()
        self._spelling = True
        return Outcome(self._remember(self._prompt()), control="listening")

    def _roll(self) -> Outcome:
        """"roll for me" (or "flip for me"): the app rolls the dice asked for; said at a
        read-back, it replaces the result read back."""
        dice = self.expectation.find(AcceptDice)
        if dice is None:
            return Outcome(self._refusal("There is nothing to roll right now."))
        if not dice.can_roll:
            return Outcome(self._refusal(dice.roll_refusal or "This game keeps its dice "
                                                               "physical."))
        faces = self.roller.roll(dice.max_count, dice.sides)
        given = Dice(faces, by_app=True)
        step = self.rules.apply(self.state, given)
        if step.rejected is not None:
            return Outcome(self._refused(step))
        said = Said(f"It came up {dice.faces[faces[0] - 1]}." if dice.faces else
                    f"Rolled {counted(len(faces), 'die', 'dice')}: {spoken_list(faces)}.",
                    "readback")
        self._drop()
        return self._stage(given, step, [said])

    def _goto(self, number: int | None) -> list[Said]:
        track = self.script.track_number(number) if number is not None else None
        if track is None:
            numbers = [t.number for t in self.script.tracks]
            span = f"tracks {numbers[0]} to {numbers[-1]}" if numbers else "no tracks"
            return self._refusal(f"There is no track {number}; this game has {span}.")
        return self._remember(render(self.script, ReadTrack(track.id)) + self._prompt())

    def full(self, said: list[Said]) -> list[Said]:
        """``said`` as "repeat" says it again: each track's reminder becomes the whole track,
        each short form the whole sentence."""
        out: list[Said] = []
        for s in said:
            if s.track:
                out.extend(render(self.script, ReadTrack(s.track)))
            else:
                out.append(Said(s.full, s.kind, s.audio) if s.full else s)
        return out

    def help(self) -> list[Said]:
        """What can be said now, and at any time."""
        accepted = describe(self.expectation, self.mode)
        sentences = [Said("You can say: " + "; ".join(accepted) + ".", "info")] if accepted else []
        sentences.append(Said("Any time: " + ", ".join(controls()) + ".", "info"))
        return sentences

    def what_now(self, mode: str = "asking") -> list[Said]:
        """"what now": one sentence saying what the game waits for and why (``mode``
        "reading" or "paused": what the shell is doing comes first)."""
        expectation = self.expectation
        if self._spelling:
            waits = ("waiting for the answer spelled with alpha, bravo, charlie (or one "
                     "letter at a time), then done.")
        elif self._offered is not None:
            waits = "waiting for keep or change: " + self._text(expectation.prompt)
        elif self._pending is not None:
            given = _read_back(self._pending[0])
            waits = f"waiting for yes or no: {given} counts once you say yes."
        elif expectation.over:
            return [Said("Nothing: the game is over.", "info")]
        elif expectation.why is not None:
            waits = f"waiting for {wanted(expectation)}: {_sentence(self._text(expectation.why))}"
        else:
            question = _sentence(self.full(self._prompt())[0].text)
            waits = f"waiting for {wanted(expectation)}, to answer: {question}"
        return [Said(WHILE.get(mode, "The game is ") + waits, "info")]

    def _refused(self, step: Step) -> list[Said]:
        """A refused input: the reason, then the question again ("7 is not a face of a d6. The
        guess is lower. Roll the die.")."""
        assert step.rejected is not None
        return self._refusal(self._text(step.rejected))

    def _refusal(self, reason: str) -> list[Said]:
        """Why not, then the whole question again: how every refusal is said."""
        return [Said(reason, "reject")] + self.full(self._prompt())

    def _prompt(self) -> list[Said]:
        expectation = self.expectation
        if expectation.over:
            return [Said("The game is over. Thank you for playing.", "info")]
        if self._spelling:
            return [Said(SPELL, "prompt")]
        return self._render(expectation.prompt, "prompt")

    def _say(self, says: tuple | list) -> list[Said]:
        out: list[Said] = []
        for s in says:
            out.extend(render(self.script, s, "line"))
        return out

    def _render(self, line: Line, kind: str) -> list[Said]:
        """One line as said: the session's own read-back question, or the script's prompt."""
        if line.key == "confirm":
            return [Said("Is that right? Say yes or no.", kind)]
        if line.key == CHANGE:
            return [Said(f"Keep '{line.params['kept']}', or change it to "
                         f"'{line.params['offered']}'? Say keep or change, or no for neither.",
                         kind)]
        return render(self.script, line, kind)

    def _text(self, line: Line) -> str:
        return self._render(line, "line")[0].text

    def _remember(self, said: list[Said]) -> list[Said]:
        self.last_said = said
        return said


#: how "what now" begins when the shell reads or is paused
WHILE = {"reading": "After this reading, the game is ",
         "paused": "Paused (say resume to go on), then the game is "}


def _sentence(text: str) -> str:
    """``text`` ending as a sentence does."""
    text = text.strip()
    return text if text[-1:] in ".?!" else text + "."


def _read_back(given: GameInput) -> str:
    if isinstance(given, Dice):
        return f"{spoken_list(given.faces)}"
    if isinstance(given, Successes):
        return counted(given.count, "success", "successes")
    if isinstance(given, Number):
        return str(given.value)
    if isinstance(given, Word):
        return given.word if given.number is None else f"{given.word} {given.number}"
    if isinstance(given, Continue):
        return "next"
    return str(given)


def _unsure_read_back(given: GameInput, spelled: str = "") -> str:
    """The question that makes an input heard without certainty count only after a yes (a
    spelled text is spelled back)."""
    if isinstance(given, Text):
        heard = f"{spelled_out(given.text)}: '{given.text}'" if spelled else f"'{given.text}'"
        return (f"I heard {heard}. Keep it? Say yes or no, say it again, spell it, "
                f"or type it and press Enter.")
    return f"I heard {_read_back(given)}. Right?"
