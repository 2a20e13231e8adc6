"""The voice session's states, with scripted ears and a mouth that "speaks" for a few polls.

What the table would notice: a miss is never silent, two misses bring help, paused listens for
resume, next/stop while reading ask the question, an answer said over the narration is read
back when the question comes, unsure results and free text are read back first, repeat replays the
passage last read. (The same loop over real audio: tests/test_loop_audio.py.)
"""

from __future__ import annotations

import io
import logging
import time
from dataclasses import replace
from pathlib import Path

import pytest

from narrator.dice import Roller
from narrator.events import Dice, Line, Number, Text, Unclear, Utterance
from narrator.rules.base import AcceptText, AcceptWords, Expectation, RulesInfo, Step
from narrator.session.console import Captions
from narrator.session.devices import ECHO
from narrator.session import loop
from narrator.session.game import NOTHING_TO_TAKE_BACK, Session
from narrator.session.loop import PAUSED, SAY_OTHER_YES, run
from narrator.voice.said_again import WRITTEN_AS_ASKED
from narrator.understand import understand
from narrator.voice.asr import Heard
from narrator.voice.spoken import Echo, echo_during
from test_session_loop import MemoryJournal
from toy_game import INFO, SCRIPT, ToyRules

READING_POLLS = 3  # listen calls a sentence lasts


@pytest.fixture(autouse=True)
def no_echo_tail(monkeypatch):
    """The narrator's words stop being echo as soon as it stops (the tests take no time)."""
    monkeypatch.setattr(loop, "ECHO_TAIL", 0.0)


class Mouth:
    """Speaks each sentence for READING_POLLS polls of the ears; records what it did."""

    def __init__(self, volume: bool = True):
        self.spoken: list[str] = []
        self.earcons: list[str] = []
        self.stops = 0
        self.left = 0
        self.volume = 0.5
        if not volume:
            self.louder = None

    def say(self, said):
        self.spoken.append(said.text)
        self.left = READING_POLLS

    @property
    def is_speaking(self):
        return self.left > 0

    def tick(self):
        self.left = max(0, self.left - 1)

    def stop(self):
        self.stops += 1
        self.left = 0

    def earcon(self, name):
        self.earcons.append(name)

    def slower(self):
        return 0.8

    def faster(self):
        return 1.25

    def louder(self):
        self.volume += 0.25
        return self.volume

    def quieter(self):
        self.volume -= 0.25
        return self.volume

    def wait(self, timeout=None):
        return True

    def pause(self):
        self.held = self.left
        self.left = 0

    def resume(self):
        self.left = self.held


class Ears:
    """Hears a script of (mode, text[, sure[, engine[, transcript]]]) in order: a line meant
    for another mode is an error, except that while reading, lines for other modes simply are
    not heard yet."""

    def __init__(self, mouth: Mouth | None, script, engine="whisper"):
        self.mouth = mouth
        self.script = list(script)
        self.engine = engine
        self.heard: list[tuple[str, str]] = []  # (mode, echo) of every listen that heard
        self.passed: list = []  # what each listen that heard was told to pass over

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        if mode == "reading":
            self.mouth.tick()
        if not self.script or (mode == "reading" and self.script[0][0] != "reading"):
            return None
        want, text, *how = self.script.pop(0)
        assert want == mode, f"heard {text!r} for {want}, but the loop listens in {mode}"
        self.heard.append((mode, echo))
        self.passed.append(expectation.passed)
        sure = how[0] if how else True
        engine = how[1] if len(how) > 1 else self.engine
        written = how[2] if len(how) > 2 else ""  # the transcript, when not ``text``
        return Utterance(text, understand(text, expectation, mode), 0.9, engine, sure, written)


def play(script, mouth=None, rules=INFO, engine="whisper", game=SCRIPT):
    mouth = Mouth() if mouth is None else mouth
    out = io.StringIO()
    session = Session(rules, game, {}, roller=Roller(1))  # its first two dice: no doubles
    journal = MemoryJournal()
    ears = Ears(mouth, script, engine)
    ended = run(session, ears, Captions(out), journal, mouth)
    return out.getvalue(), journal, session, mouth, ears, ended


def test_two_misses_in_a_row_bring_what_can_be_said_now():
    transcript, journal, session, mouth, *_ = play(
        [("asking", "next"), ("asking", "the cat sat"), ("asking", "blue")])
    assert mouth.earcons.count("unclear") == 2
    assert transcript.count("Didn't catch that.") == 2
    help_said = [t for t in mouth.spoken if t.startswith("You can say:")]
    assert help_said and "a number from 2 to 4" in help_said[0]
    assert journal.lines == [journal.lines[0]] and session.state.players == 0


def test_one_miss_is_signalled_but_says_no_help():
    transcript, _, _, mouth, *_ = play([("asking", "next"), ("asking", "blue"), ("asking", "2")])
    assert "Didn't catch that." in transcript and "unclear" in mouth.earcons
    assert not any(t.startswith("You can say:") for t in mouth.spoken)


def test_a_typed_miss_still_says_why():
    transcript, *_ = play([("asking", "next"), ("asking", "blue")], engine="text")
    assert ('"blue" doesn\'t answer this question: it takes a number from 2 to 4.\n'
            'How many players?') in transcript
    assert "Didn't catch that." not in transcript


def test_pause_while_reading_says_so_and_resume_by_voice_goes_on_from_that_sentence():
    transcript, _, session, mouth, ears, _ = play(
        [("reading", "pause"), ("paused", "resume"), ("asking", "next"), ("asking", "3")])
    assert PAUSED in mouth.spoken and "paused" in mouth.earcons
    assert PAUSED in transcript
    at = mouth.spoken.index(PAUSED)
    assert mouth.spoken[at - 1] == mouth.spoken[at + 1] == "Track 1: Rules"
    assert "Roll two dice three times." in mouth.spoken[at + 1:]
    assert session.state.players == 3


def test_paused_hears_help_and_stays_paused():
    _, _, session, mouth, ears, _ = play(
        [("reading", "pause"), ("paused", "help"), ("paused", "go on"), ("asking", "next")])
    helped = [t for t in mouth.spoken if t.startswith("Paused. You can say: resume")]
    assert helped and "pause" not in helped[0][len("Paused."):]  # heard, but only keeps it
    assert [m for m, _ in ears.heard].count("paused") == 2
    assert session.state.read_rules


@pytest.mark.parametrize("again", ["pause", "hold on", "pause please", "wait a second"])
def test_a_pause_said_while_paused_says_it_is_paused_and_keeps_the_pause(again):
    # a second player's "pause please" was heard "next please" (the passage skipped) and
    # "hold on" "go on" (the reading resumed) while "pause" was no phrase there
    transcript, _, session, mouth, ears, _ = play(
        [("reading", "pause"), ("paused", again), ("paused", "resume"), ("asking", "next"),
         ("asking", "3")])
    assert mouth.spoken.count(PAUSED) == 2 and mouth.earcons.count("paused") == 2
    assert "Didn't catch that." not in transcript and "unclear" not in mouth.earcons
    at = len(mouth.spoken) - 1 - mouth.spoken[::-1].index(PAUSED)
    assert mouth.spoken[at + 1] == "Track 1: Rules"  # "resume" read on from the cut sentence
    assert not any(t.startswith("Paused. You can say:") for t in mouth.spoken)
    assert session.state.players == 3


def test_an_unsure_pause_while_paused_is_only_sounded_and_shown():
    # remarks while paused ("What?", "Great.", "No way.") were fitted to "wait" at 0.07-0.47
    transcript, _, session, mouth, *_ = play(
        [("reading", "pause"), ("paused", "wait", False), ("paused", "resume"),
         ("asking", "next"), ("asking", "3")])
    assert mouth.spoken.count(PAUSED) == 1 and mouth.earcons.count("paused") == 2
    assert transcript.count(PAUSED) == 2 and "Didn't catch that." not in transcript
    assert mouth.spoken[mouth.spoken.index(PAUSED) + 1] == "Track 1: Rules"
    assert session.state.players == 3


def test_an_unsure_skip_while_paused_is_said_back_and_skips_only_when_said_again():
    # at pink 10 dB a second player's "pause please" was still heard "next please" (0.07-0.15)
    transcript, _, session, mouth, *_ = play(
        [("reading", "pause"), ("paused", "next please", False), ("paused", "resume"),
         ("reading", "pause"), ("paused", "next please", False), ("paused", "next", False),
         ("asking", "next"), ("asking", "3")])
    asked = 'Heard "next please"? Say it again to skip.'
    assert mouth.spoken.count(asked) == 2 and asked in transcript
    first = mouth.spoken.index(asked)
    assert mouth.spoken[first + 1] == "Track 1: Rules"  # still paused: resume read on
    then = mouth.spoken[mouth.spoken.index(asked, first + 1) + 1:]
    assert then[0] == "Say next when you are ready."  # said again: skipped to the question
    assert session.state.players == 3


@pytest.mark.parametrize("reply, undone", [("no", False), ("yes", True)])
def test_an_unsure_go_back_while_paused_is_asked_about_and_a_no_keeps_the_pause(reply, undone):
    # at pink 10 dB a "resume" written "Dude." was heard as an unsure "undo"; a no to
    # 'Did you say "undo"?' said "Then say it again." and asked the question: the pause was over
    _, journal, session, mouth, *_ = play([
        ("asking", "next"), ("asking", "3"), ("reading", "pause"), ("paused", "go back", False),
        ("confirming", reply)] + ([("asking", "2")] if undone else [("paused", "resume")]))
    asked = mouth.spoken.index('Did you say "go back"? Yes or no.')
    assert ("undo" in journal.lines) is undone
    assert session.state.players == (2 if undone else 3)
    if not undone:  # paused again, then resumed where the reading was cut
        assert mouth.spoken[asked + 1] == PAUSED and "Then say it again." not in mouth.spoken
        assert mouth.spoken[asked + 2] == mouth.spoken[mouth.spoken.index(PAUSED) - 1]


class InTurnEars(Ears):
    """Hears its words in turn, each in whatever mode the loop listens in then (a table talks
    when it likes, not when the loop expects it to)."""

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        if mode == "reading":
            self.mouth.tick()
        if not self.script:
            return None
        text = self.script.pop(0)
        self.heard.append((mode, echo))
        return Utterance(text, understand(text, expectation, mode), 0.9, self.engine, True)


def test_a_pause_heard_over_the_paused_help_is_no_second_pause_one_resume_goes_on():
    # at 10 dB pink the table's "help" while paused was answered with "Paused. You can say:
    # ...", read as a passage: a "pause" heard over it ("Thank you.") paused that passage,
    # and each "resume" after went back to reading the help, the game still paused (seven
    # "resume"s in a row, the table stuck). Now it cuts the help and says the game is paused.
    mouth = Mouth()
    ears = InTurnEars(mouth, ["pause", "help", "pause", "resume"])
    run(Session(INFO, SCRIPT, {}), ears, Captions(io.StringIO()), MemoryJournal(), mouth)
    assert mouth.spoken[1:4] == [PAUSED, mouth.spoken[2], PAUSED]
    assert mouth.spoken[2].startswith("Paused. You can say:")
    assert mouth.spoken[4:6] == ["Track 1: Rules", "Roll two dice three times."]  # one resume


def test_next_while_reading_stops_and_asks_the_question():
    _, _, session, mouth, _, _ = play([("reading", "next"), ("asking", "next")])
    assert mouth.stops >= 1
    assert "Roll two dice three times." not in mouth.spoken
    assert mouth.spoken[-2:] == ["Say next when you are ready.", "How many players?"]
    assert session.state.read_rules


def test_an_unsure_skip_over_the_reading_is_shown_and_skips_only_when_said_again():
    """In a noisy room "pause" was heard "go on" (next) at 0.11-0.25 and cut the question
    short: once unsure, the reading goes on; said again, it skips."""
    transcript, _, _, mouth, *_ = play([("reading", "go on", False), ("asking", "next")])
    assert 'Heard "go on"? Say it again to skip.' in transcript
    assert mouth.stops == 0 and "Roll two dice three times." in mouth.spoken
    _, _, _, twice, *_ = play([("reading", "go on", False), ("reading", "next", False),
                               ("asking", "next")])
    assert twice.stops >= 1 and "Roll two dice three times." not in twice.spoken


def test_stop_while_reading_asks_the_pending_question():
    _, _, session, mouth, *_ = play([("reading", "stop"), ("asking", "next")])
    assert "Doubles don't count." not in mouth.spoken
    assert "Say next when you are ready." in mouth.spoken and session.state.read_rules


def test_an_answer_said_over_the_narration_is_read_back_once_the_question_comes():
    transcript, journal, session, mouth, ears, _ = play(
        [("reading", "three"), ("confirming", "yes"), ("asking", "3 and 4")], rules=READ_FIRST)
    checked = mouth.spoken.index("I heard 3. Right?")
    asked = mouth.spoken.index("How many players?")
    assert mouth.spoken.index("Doubles don't count.") < asked < checked  # read on, then asked
    assert 'Heard "three": read back when the question comes.' in transcript
    assert journal.lines[0] == Number(3) and session.state.players == 3
    assert "Welcome, 3 players." in mouth.spoken[checked:]


@pytest.mark.parametrize("sure", [False, True])
def test_an_answer_heard_over_a_read_back_is_not_held_in_its_place(sure):
    """A read-back says an answer, and its words heard back are one: at 10 dB "I heard 1
    success." came back "i have one" (0.28), was held, replaced the read-back with "I heard 1.
    Right?", and the table's yes to "1 success" confirmed a die of 1 no one rolled; in a clean
    room "1 success." came back "1, 6," and sure (stop 85's CI)."""
    _, journal, session, mouth, *_ = play([("asking", "next"), ("asking", "three", False),
                                           ("reading", "two", sure), ("confirming", "yes")])
    assert "I heard 2. Right?" not in mouth.spoken
    assert session.state.players == 3 and journal.lines[-1] == Number(3)


def test_a_yes_said_over_a_read_back_is_still_heard_as_its_reply():
    transcript, journal, session, mouth, *_ = play(
        [("asking", "next"), ("asking", "three", False), ("reading", "yes"),
         ("confirming", "yes")])
    assert 'Heard "yes"' in transcript
    assert session.state.players == 3 and journal.lines[-1] == Number(3)


def test_an_unsure_answer_over_the_narration_is_shown_and_the_question_asked_as_ever():
    """At 10 dB a player's "pause" over the narration was heard "one" (0.31) and held; when
    "Heads or tails?" came it was read back as heads, and the player's "tails", written "yes"
    twice, took heads."""
    transcript, journal, session, mouth, *_ = play(
        [("reading", "three", False), ("asking", "2")], rules=READ_FIRST)
    assert 'Heard "three"? Say it when the question comes.' in transcript
    assert "I heard 3. Right?" not in mouth.spoken and "How many players?" in mouth.spoken
    assert journal.lines == [Number(2)] and session.state.players == 2


def test_a_held_answer_made_from_the_narrators_echo_changes_nothing_when_denied():
    _, journal, session, mouth, *_ = play(
        [("reading", "three"), ("confirming", "no"), ("asking", "2")], rules=READ_FIRST)
    assert "I heard 3. Right?" in mouth.spoken
    assert journal.lines == [Number(2)] and session.state.players == 2


def test_an_answer_typed_during_the_narration_is_taken_when_the_question_comes():
    transcript, journal, session, mouth, *_ = play(
        [("reading", "three", True, "text"), ("asking", "3 and 4")], rules=READ_FIRST)
    assert 'Heard "three": taken when the question comes.' in transcript
    assert journal.lines[0] == Number(3) and "I heard 3. Right?" not in mouth.spoken


def test_a_held_answer_the_question_refuses_is_refused_with_a_word():
    transcript, journal, session, mouth, *_ = play([("reading", "nine"), ("reading", "five")],
                                                   rules=READ_FIRST)
    assert session.state.players == 0 and len(journal.lines) == 0
    assert "9 is out of range" in transcript and "5 is out of range" in transcript
    assert mouth.earcons.count("unclear") == 2


def test_a_result_heard_without_certainty_is_read_back_before_it_counts():
    _, journal, session, mouth, ears, _ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "no"), ("asking", "3 and 5", False), ("confirming", "yes")])
    assert "I heard 3 and 4. Right?" in mouth.spoken
    assert Dice((3, 4)) not in journal.lines and journal.lines[-1] == Dice((3, 5))
    assert session.state.total == 8


def test_free_text_by_voice_is_read_back_and_can_be_typed_instead():
    transcript, journal, session, mouth, ears, _ = play(
        [("asking", "well I think we should"), ("confirming", "no"),
         ("asking", "Mara", False), ("confirming", "yes")], rules=NAMED)
    assert "I heard 'well I think we should'. Keep it?" in mouth.spoken[1]
    assert "type it" in mouth.spoken[1]
    assert journal.lines == [Text("Mara")]
    typed, journal, *_ = play([("asking", "Mara")], rules=NAMED, engine="text")
    assert journal.lines == [Text("Mara")] and "Keep it?" not in typed


def test_other_words_at_a_names_read_back_are_offered_as_a_change_and_keep_keeps_the_name():
    # flite awb's "yes" was written "You ask.": read back alone, it would replace the name
    _, journal, _, mouth, ears, _ = play(
        [("asking", "Mara", False), ("confirming", "You ask", False), ("confirming", "what now"),
         ("confirming", "keep")], rules=NAMED)
    assert "Keep 'Mara', or change it to 'You ask'? Say keep or change, or no for neither." \
        in mouth.spoken
    assert "I heard 'You ask'. Keep it?" not in " ".join(mouth.spoken)
    assert "The game is waiting for keep or change: Keep 'Mara', or change it to 'You ask'?" \
        in " ".join(mouth.spoken)
    assert journal.lines == [Text("Mara")]


@pytest.mark.parametrize("yes", ["U.S.", "US."])
def test_a_yes_written_us_at_a_names_read_back_keeps_the_name(yes):
    """Whisper writes flite awb's "yes" "U.S." or "US." (12 times of 12 in the table bench's
    read-backs): a yes, not a new name offered in the name's place."""
    _, journal, _, mouth, *_ = play(
        [("asking", "Mara", False), ("confirming", yes)], rules=NAMED)
    assert journal.lines == [Text("Mara")]
    assert not any("change it to" in said for said in mouth.spoken), mouth.spoken


def test_change_takes_the_words_offered_and_no_takes_neither():
    _, journal, *_ = play(
        [("asking", "Mora", False), ("confirming", "Mara", False), ("confirming", "change")],
        rules=NAMED)
    assert journal.lines == [Text("Mara")]
    transcript, journal, session, *_ = play(
        [("asking", "Mora", False), ("confirming", "Mara", False), ("confirming", "no"),
         ("asking", "Maura", False), ("confirming", "yes")], rules=NAMED)
    assert "Then say it again." in transcript and journal.lines == [Text("Maura")]


def test_yes_to_a_change_offered_changes_nothing_and_an_unsure_keep_is_asked_again():
    transcript, journal, session, *_ = play(
        [("asking", "Mora", False), ("confirming", "Mara", False), ("confirming", "yes")],
        rules=NAMED)
    assert '"yes" could mean either.' in transcript and journal.lines == []
    transcript, journal, *_ = play(
        [("asking", "Mora", False), ("confirming", "Mara", False),
         ("confirming", "keep", False), ("confirming", "keep", False)], rules=NAMED)
    assert 'Heard "keep"? Say it again to be sure.' in transcript
    assert journal.lines == [Text("Mora")]


def test_repeat_after_going_to_a_track_replays_that_track_not_the_prompt_before():
    _, _, _, mouth, _, _ = play([("asking", "next"), ("asking", "go to track 2"),
                                 ("asking", "repeat")])
    assert mouth.spoken.count("Made for tests.") == 2
    assert mouth.spoken.count("Track 1: Rules") == 1


def test_repeat_while_reading_starts_the_passage_again():
    _, _, _, mouth, _, _ = play([("reading", "repeat"), ("asking", "next")])
    assert mouth.spoken[:2] == ["Track 1: Rules", "Track 1: Rules"]


def test_go_back_over_the_reading_takes_back_the_answer_and_asks_its_question_again():
    """A table that hears what its answer led to and wants it back says so at once, over the
    reading: the rest of that passage is not read."""
    _, journal, session, mouth, *_ = play([("asking", "next"), ("asking", "3"),
                                           ("reading", "go back"), ("asking", "2")])
    assert journal.lines == [journal.lines[0], Number(3), "undo", Number(2)]
    assert session.state.players == 2 and mouth.stops >= 1
    at = mouth.spoken.index("Welcome, 3 players.")
    assert mouth.spoken[at + 1:at + 3] == ["Taken back.", "How many players?"]


def test_go_back_over_the_opening_says_there_is_nothing_to_take_back_and_reads_on():
    _, journal, _, mouth, *_ = play([("reading", "go back"), ("asking", "next")])
    assert journal.lines == [journal.lines[0]] and "undo" not in journal.lines
    at = mouth.spoken.index(NOTHING_TO_TAKE_BACK)
    assert mouth.spoken[at - 1] == mouth.spoken[at + 1] == "Track 1: Rules"
    assert mouth.spoken[at + 2:at + 4] == ["Roll two dice three times.", "Doubles don't count."]


@pytest.mark.parametrize("reply, undone", [("no", False), ("yes", True)])
def test_an_unsure_go_back_over_the_reading_is_asked_about_first(reply, undone):
    _, journal, session, mouth, *_ = play([
        ("asking", "next"), ("asking", "3"), ("reading", "go back", False),
        ("confirming", reply), ("asking", "2")])
    asked = mouth.spoken.index('Did you say "go back"? Yes or no.')
    assert ("undo" in journal.lines) is undone
    assert session.state.players == (2 if undone else 3)
    after = "How many players?" if undone else "Welcome, 3 players."  # said again, read on
    assert after in mouth.spoken[asked + 1:asked + 3]


def test_louder_while_reading_changes_the_volume_and_a_speaker_without_it_says_so():
    transcript, _, _, mouth, *_ = play([("reading", "louder"), ("asking", "next")])
    assert mouth.volume == 0.75 and "Volume 75 percent." in transcript
    _, _, _, plain, *_ = play([("reading", "louder"), ("asking", "next")], Mouth(volume=False))
    refusal = '"louder" works only when the speaker can change its volume.'
    at = plain.spoken.index(refusal)
    assert plain.spoken[at + 1] == plain.spoken[at - 1]  # the cut sentence is said again


def test_the_sentence_being_spoken_is_the_echo_and_once_it_ends_a_player_may_say_its_words():
    _, _, session, _, ears, _ = play([("reading", "pause"), ("paused", "resume"),
                                      ("asking", "next")])
    assert ears.heard[0] == ("reading", "Track 1: Rules")
    assert ears.heard[-1] == ("asking", "")  # "Say next when you are ready." has ended
    assert session.state.read_rules


class LateMouth(Mouth):
    """Its sound is heard LATE seconds after it has handed the last of it to the device (an
    output latency, long after underruns): ``heard_until`` tells when."""

    LATE = 1.0

    def __init__(self):
        super().__init__()
        self.heard_until = 0.0
        self.ended: dict[str, float] = {}  # sentence -> when its last sound was heard

    def tick(self):
        speaking = self.is_speaking
        super().tick()
        if speaking and not self.is_speaking:
            self.heard_until = time.monotonic() + self.LATE
            self.ended[self.spoken[-1]] = self.heard_until


def test_the_narrators_words_stay_its_echo_until_its_last_sound_is_heard():
    # before, the log ended a sentence when the speaker had handed it all over: its last
    # words, heard back from the room after that, were taken for the table's
    _, _, _, mouth, ears, _ = play([("asking", "next")], mouth=LateMouth())
    mode, echo = ears.heard[0]
    assert mode == "asking" and echo.endswith("Say next when you are ready.")
    heard = mouth.ended["Say next when you are ready."]
    assert "Say next when you are ready." in echo_during(Echo("", echo.spoken), heard, heard)


def test_the_paused_message_is_logged_with_when_it_played_so_its_own_resume_is_no_command():
    # the self-trigger guard matches an utterance decoded late with what was audible when it
    # was captured: "Say resume to go on." heard back must be found there, not only in what
    # the narrator says at decoding
    _, _, _, _, ears, _ = play([("reading", "pause"), ("paused", "resume"), ("asking", "next")])
    mode, echo = ears.heard[1]
    assert mode == "paused" and echo.endswith(PAUSED)
    assert PAUSED in echo_during(Echo("", echo.spoken), 0.0, time.monotonic())


class EchoFoundEars(Ears):
    """Ears that find, while paused, that the microphone hears the narrator loudly."""

    notices = ()

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        if mode == "paused":
            self.notices = (ECHO,)
        return super().listen(expectation, mode=mode, echo=echo, timeout=timeout)


def test_the_loud_echo_warning_waits_for_the_next_question_not_said_over_a_paused_table():
    # found while paused, it was said at once, over the table's "resume" (which the guard then
    # took for the narrator's "Say resume to go on.", the last words it knew of)
    mouth = Mouth()
    ears = EchoFoundEars(mouth, [("reading", "pause"), ("paused", "resume"), ("asking", "next"),
                                 ("asking", "3")])
    run(Session(INFO, SCRIPT, {}), ears, Captions(io.StringIO()), MemoryJournal(), mouth)
    at = mouth.spoken.index(PAUSED)
    assert mouth.spoken[at + 1] == "Track 1: Rules"  # resumed: nothing said first
    assert mouth.spoken.count(ECHO) == 1
    assert mouth.spoken[mouth.spoken.index(ECHO) - 1] == "Say next when you are ready."


def test_quit_while_paused_saves():
    transcript, _, _, mouth, _, ended = play([("reading", "pause"), ("paused", "quit"),
                                              ("confirming", "yes")])
    assert not ended and "Saved." in transcript and "Roll two dice three times." not in transcript
    assert loop.QUIT_CHECK in mouth.spoken


def test_a_spoken_quit_asks_first_and_a_no_goes_on():
    transcript, journal, session, mouth, ears, ended = play(
        [("asking", "next"), ("asking", "quit"), ("confirming", "no"), ("asking", "2")])
    assert loop.QUIT_CHECK in mouth.spoken and "Saved." not in transcript
    assert session.state.players == 2  # the game went on: the next answer was taken
    [check] = [i for i, t in enumerate(mouth.spoken) if t == loop.QUIT_CHECK]
    assert mouth.spoken[check + 1] == mouth.spoken[check - 1]  # the question, asked again


def test_a_spoken_quit_while_paused_then_no_stays_paused():
    transcript, _, _, mouth, ears, ended = play(
        [("reading", "pause"), ("paused", "quit"), ("confirming", "no"), ("paused", "resume"),
         ("asking", "next")])
    assert "Saved." not in transcript and loop.QUIT_CHECK in mouth.spoken
    assert [m for m, _ in ears.heard] == ["reading", "paused", "confirming", "paused", "asking"]


def test_a_typed_quit_quits_at_once():
    transcript, _, _, mouth, _, ended = play([("asking", "next"), ("asking", "quit")],
                                             engine="text")
    assert not ended and "Saved." in transcript and loop.QUIT_CHECK not in mouth.spoken


class Named(ToyRules):
    """The toy game with a name asked first (free text)."""

    def start(self, options):
        return Step(replace(super().start(options).state, read_rules=True), ())

    def expects(self, state):
        if state.players == 0:
            return Expectation(Line("players"), (AcceptText("name"),))
        return super().expects(state)

    def apply(self, state, given):
        if isinstance(given, Text):
            return Step(replace(state, players=2))
        return super().apply(state, given)


class ReadFirst(ToyRules):
    """The toy game whose first question (players) follows the rules passage."""

    def start(self, options):
        return Step(replace(super().start(options).state, read_rules=True),
                    super().start(options).say)


READ_FIRST = RulesInfo(ReadFirst(), "Toy", "the players question comes after a passage")
NAMED = RulesInfo(Named(), "Toy", "asks a name first")


def test_with_a_microphone_a_line_typed_is_taken_as_typed():
    import os
    import threading

    from narrator.session.console import LiveEars, TextEars

    read, write = os.pipe()
    keyboard = TextEars(os.fdopen(read), echo=False)
    mic = Ears(Mouth(), [("asking", "well I think we should")])
    ears = LiveEars(mic, keyboard)
    expectation = Session(RulesInfo(Named(), "Toy", "asks a name"), SCRIPT, {}).expectation
    spoken = ears.listen(expectation)
    assert spoken.engine == "whisper"  # the microphone is heard meanwhile
    threading.Timer(0.3, lambda: os.write(write, b"Mara\n")).start()
    typed = ears.listen(expectation, timeout=5)
    assert typed == Utterance("Mara", Text("Mara"), 1.0, "text", True)
    os.close(write)


def test_just_after_the_narrator_stops_its_words_are_echo_as_timed_only(monkeypatch):
    """Once its sound has ended, what it said is its echo over the time it was audible
    (``Spoken.during``), not its last sentences whole, so an answer said at once with one of
    its words is heard (test_echo_timed.py)."""
    monkeypatch.setattr(loop, "ECHO_TAIL", 0.5)
    _, _, _, _, ears, _ = play([("reading", "next"), ("asking", "next")])
    mode, echo = ears.heard[-1]
    assert mode == "asking" and str(echo) == ""
    assert "Say next when you are ready." in echo_during(echo, 0.0, time.monotonic())


class RenderingMouth(Mouth):
    """Renders each sentence for RENDER polls before its first sound is heard, and tells the
    loop then (``heard_to``), as a Speaker does."""

    RENDER = 2

    def heard_to(self, tell):
        self.tell, self.rendering = tell, 0

    def say(self, said):
        super().say(said)
        self.left += self.RENDER
        self.rendering = self.RENDER

    def tick(self):
        super().tick()
        if self.rendering:
            self.rendering -= 1
            if not self.rendering:
                self.tell(self.spoken[-1])


class EchoEars(Ears):
    """Keeps, for each utterance heard, the narrator's words audible up to then."""

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        heard = super().listen(expectation, mode=mode, echo=echo, timeout=timeout)
        if heard is not None:
            self.heard[-1] = (mode, echo_during(echo, 0.0, time.monotonic()))
        return heard


def test_a_sentence_is_the_narrators_echo_from_its_first_sound_not_from_when_it_is_queued():
    """A table's "pause" while the first sentence renders is no echo of it (Blades' "...,
    next phase." queued but not heard dropped a "Pause."); once heard, it is."""
    mouth = RenderingMouth()
    ears = EchoEars(mouth, [("reading", "pause"), ("paused", "resume"), ("asking", "next")])
    run(Session(INFO, SCRIPT, {}), ears, Captions(io.StringIO()), MemoryJournal(), mouth)
    assert ears.heard[0] == ("reading", "")
    assert mouth.spoken[0] == "Track 1: Rules" and "Track 1: Rules" in ears.heard[-1][1]


def test_a_recording_paused_is_held_in_place_and_resumed_not_started_again():
    recorded = replace(SCRIPT, tracks=(replace(SCRIPT.tracks[0], audio=Path("t1.ogg")),)
                       + SCRIPT.tracks[1:])
    transcript, _, session, mouth, _, _ = play(
        [("reading", "pause"), ("paused", "resume"), ("asking", "next")], game=recorded)
    assert mouth.spoken.count("Track 1: Rules") == 1 and PAUSED not in mouth.spoken
    assert PAUSED in transcript and "paused" in mouth.earcons
    assert session.state.read_rules


class LoadingEars(Ears):
    """Ears whose recogniser loads after a few listens, then has news for the table."""

    NEWS = "Whisper is not installed. Listening with pocketsphinx instead."

    def __init__(self, mouth, script):
        super().__init__(mouth, script)
        self.loads = 3
        self.notices = ()

    @property
    def ready(self):
        return self.loads <= 0

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        if self.loads > 0 and mode != "reading":
            self.loads -= 1
            self.notices = (self.NEWS,)
            return None
        return super().listen(expectation, mode=mode, echo=echo, timeout=timeout)


def test_listening_sounds_only_once_the_recogniser_has_loaded_and_its_news_is_said_once():
    mouth = Mouth()
    out = io.StringIO()
    ears = LoadingEars(mouth, [("asking", "next"), ("asking", "2")])
    run(Session(INFO, SCRIPT, {}), ears, Captions(out), MemoryJournal(), mouth)
    assert loop.LOADING in out.getvalue()
    assert mouth.spoken.count(LoadingEars.NEWS) == 1
    first_cue = mouth.earcons.index("listening")
    assert ears.loads == 0 and first_cue > 0


def test_quiet_keeps_the_earcons_a_blind_player_needs(monkeypatch, tmp_path):
    """`narrator play --input voice --quiet`: no speech, but the state earcons still sound."""
    from typer.testing import CliRunner

    from narrator import cli
    from narrator.session import devices
    from narrator.voice import earcons

    played = []

    class Cues:
        def earcon(self, name):
            played.append(name)

        def close(self):
            played.append("closed")

    def no_microphone(voice, speak, text_ears, settings, tracks):
        assert not speak and tracks == 19  # --quiet; the ears hear "go to track" up to 19
        return text_ears, None

    monkeypatch.setattr(devices, "open_devices", no_microphone)
    monkeypatch.setattr(earcons, "make_cues", lambda settings: Cues())
    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "config.yaml"))
    result = CliRunner().invoke(cli.app, ["play", "slow-burn", "--input", "voice", "--quiet",
                                          "--save-dir", str(tmp_path)],
                                input="first session\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Track 2: Character Creation" in result.output
    assert played[:2] == ["listening", "accepted"] and played[-1] == "closed"


def test_a_miss_the_ears_could_not_place_is_captioned_once():
    mouth = Mouth()
    out = io.StringIO()

    class Garbled(Ears):
        def listen(self, expectation, *, mode="asking", echo="", timeout=None):
            heard = super().listen(expectation, mode=mode, echo=echo, timeout=timeout)
            if heard is not None and heard.text == "mumble":
                return Utterance("mumble", Unclear("mumble", "I didn't catch that."), 0.1,
                                 "whisper", False)
            return heard

    run(Session(INFO, SCRIPT, {}), Garbled(mouth, [("asking", "mumble")]), Captions(out),
        MemoryJournal(), mouth)
    assert out.getvalue().lower().count("didn't catch that") == 1


def test_an_unsure_yes_confirms_a_read_back_only_when_heard_twice():
    transcript, journal, session, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "yes", False), ("confirming", "yes", False)])
    assert 'Heard "yes"? Say it again to be sure.' in transcript
    assert journal.lines[-1] == Dice((3, 4)) and session.state.total == 7


def test_an_unsure_yes_heard_again_as_other_words_is_asked_for_once_more():
    # at 10 dB a table refused "clock" by saying "clocks" twice: Whisper wrote "yeah" (0.22),
    # then "right" (0.07), and the two unsure yeses took "clock"
    transcript, journal, session, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "yeah", False), ("confirming", "right", False),
         ("confirming", "right", False)])
    assert transcript.count("Say it again to be sure.") == 2
    assert journal.lines[-1] == Dice((3, 4)) and session.state.total == 7  # "right" twice


def test_an_unsure_yes_is_asked_for_again_aloud():
    """A table that cannot see the screen hears why nothing happened (it was a caption)."""
    _, _, _, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "yes", False), ("confirming", "yes")])
    assert 'Heard "yes"? Say it again to be sure.' in mouth.spoken


def test_the_answer_last_refused_at_its_read_back_is_passed_over_until_an_answer_is_taken():
    """Refused at "I heard 3 and 4. Right?", the dice are what the ears pass over when the
    table says them again (``Expectation.passed``; a recogniser then reads back its next
    likeliest); only the last refused is, so 3 and 4 can be said again after 5 and 6 is
    refused; once an answer is taken, nothing is."""
    _, journal, _, _, ears, _ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False), ("confirming", "no"),
         ("asking", "5 and 6", False), ("confirming", "no"), ("asking", "3 and 4"),
         ("asking", "1 and 2")])
    assert ears.passed == [None, None, None, None, Dice((3, 4)), Dice((3, 4)), Dice((5, 6)),
                           None]
    assert journal.lines[-2:] == [Dice((3, 4)), Dice((1, 2))]


def test_an_unsure_yes_written_another_way_the_second_time_is_asked_about_again():
    """At 10 dB a table refused "long road" by saying "the fog" again and again: Whisper wrote
    "It's done.", then "Ta.", each fitted to an unsure "yes", and the two took "long road".
    An unsure yes confirms only when written the same way again."""
    heard_twice = 'Heard "yes"? Say it again to be sure.'
    _, journal, _, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "yes", False, "whisper", "It's done."),
         ("confirming", "yes", False, "whisper", "Ta.")])
    assert mouth.spoken.count(heard_twice) == 2 and len(journal.lines) == 2
    _, journal, _, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "yes", False, "whisper", "Yes?"),
         ("confirming", "yes", False, "whisper", "Yes.")])
    assert mouth.spoken.count(heard_twice) == 1 and journal.lines[-1] == Dice((3, 4))


def test_a_yes_written_as_the_answer_was_is_asked_for_in_more_words():
    """In pink noise flite rms's "next" was written "Yes." and read back; its yes, written
    "Yes." too, could as well be the answer said again to refuse it. The table is asked to say
    "yes, that's right": said so, the answer is taken; a yes so written again is asked about
    again; a no refuses."""
    ambiguous = ("confirming", "yes", False, "whisper", f"Yes. {WRITTEN_AS_ASKED}")
    start = [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False)]
    _, journal, _, mouth, *_ = play(
        [*start, ambiguous, ambiguous,
         ("confirming", "yes", False, "whisper", "Yeah, that's right.")])
    assert mouth.spoken.count(SAY_OTHER_YES) == 2 and journal.lines[-1] == Dice((3, 4))
    _, journal, _, mouth, *_ = play([*start, ambiguous, ("confirming", "no"),
                                     ("asking", "5 and 6")])
    assert SAY_OTHER_YES in mouth.spoken and journal.lines[-1] == Dice((5, 6))


def test_an_unsure_no_refuses_when_heard_again_however_written():
    """flite awb's "tails", said at 10 dB to refuse "heads", was written "They move.", then
    "They know.", then "They moved.": each an unsure "no", asked about a dozen times over
    while only the writing differed. A no only refuses: heard twice, it does."""
    _, journal, _, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "no", False, "whisper", "They move."),
         ("confirming", "no", False, "whisper", "They know."), ("asking", "5 and 6")])
    assert mouth.spoken.count('Heard "no"? Say it again to be sure.') == 1
    assert journal.lines[-1] == Dice((5, 6))


ROLLED = ("asking", "next"), ("asking", "2"), ("asking", "roll for me", False)


@pytest.mark.parametrize("answer", ["yes", "roll for me"])
def test_an_unsure_roll_for_me_is_asked_about_aloud_and_a_yes_rolls(answer):
    """Whisper writes flite's "roll for me" "Rebel for me." or "Grow for me.", a guess each
    time it is said; "yes" it writes as itself."""
    _, journal, _, mouth, *_ = play([*ROLLED, ("confirming", answer)])
    assert 'Did you say "roll for me"? Yes or no.' in mouth.spoken
    assert journal.lines[-1].by_app and len(journal.lines) == 3


def test_a_yes_to_an_unsure_roll_said_at_a_read_back_rolls_and_does_not_keep_the_read_back():
    """At "I heard 3 and 4. Right?" an unsure "roll for me" is asked about, and its "yes" rolls.
    That yes is one of the read-back's words, and it had kept 3 and 4 (Half-Chance at 10 dB
    took heads for a "flip for me" so confirmed)."""
    _, journal, _, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "roll for me", False), ("confirming", "yes")])
    assert 'Did you say "roll for me"? Yes or no.' in mouth.spoken
    assert journal.lines[-1].by_app and len(journal.lines) == 3


def test_no_to_an_unsure_roll_rolls_nothing_and_an_answer_said_instead_is_taken():
    _, journal, _, mouth, *_ = play([*ROLLED, ("confirming", "no"), ("asking", "3 and 4")])
    assert "Then say it again." in mouth.spoken and journal.lines[-1] == Dice((3, 4))
    assert not any(getattr(given, "by_app", False) for given in journal.lines)
    _, journal, *_ = play([*ROLLED, ("confirming", "3 and 5")])
    assert journal.lines[-1] == Dice((3, 5))


def test_an_unsure_go_back_is_asked_about_aloud_and_a_yes_takes_back_paused_or_not():
    _, journal, _, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "go back", False),
         ("confirming", "yes")])
    assert 'Did you say "go back"? Yes or no.' in mouth.spoken and journal.lines[-1] == "undo"
    _, journal, _, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("reading", "pause"), ("paused", "go back", False),
         ("confirming", "yes")])
    assert mouth.spoken[-3:] == ['Did you say "go back"? Yes or no.', "Taken back.",
                                 "How many players?"] and journal.lines[-1] == "undo"


def test_next_said_instead_of_a_yes_or_no_to_a_go_back_asked_about_goes_on():
    """At Half-Chance in pink noise flite awb's "next" was heard as "go back" (unsure) and
    asked about; said again, written "Next.", it was fitted to "nope" or "exit" (no "next"
    there) and "didn't catch that"."""
    _, journal, session, mouth, *_ = play(
        [("asking", "go back", False), ("confirming", "next"), ("asking", "3")])
    assert 'Did you say "go back"? Yes or no.' in mouth.spoken
    assert session.state.players == 3 and journal.lines[-1] == Number(3)


def test_an_unsure_no_heard_once_changes_nothing_and_plays_no_earcon():
    _, journal, session, mouth, *_ = play(
        [("asking", "next"), ("asking", "2"), ("asking", "3 and 4", False),
         ("confirming", "no", False), ("confirming", "yes")])
    assert journal.lines[-1] == Dice((3, 4))
    assert "unclear" not in mouth.earcons


def test_an_unsure_quit_while_paused_keeps_the_pause():
    transcript, _, _, _, ears, ended = play(
        [("reading", "pause"), ("paused", "quit", False), ("paused", "resume"),
         ("asking", "next")])
    assert "Saved." not in transcript and [m for m, _ in ears.heard].count("paused") == 2


class DecodingEars(Ears):
    """Ears that take a while over every utterance, as a recogniser decoding the narrator's own
    voice does; ``first_done`` is when the first decoding ended."""

    decode = 0.3

    def __init__(self, mouth, script):
        super().__init__(mouth, script)
        self.first_done = None

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        time.sleep(self.decode)
        self.first_done = self.first_done or time.monotonic()
        if self.script and self.script[0][0] != mode:  # the microphone's thread may still
            return None  # listen for the mode before, until it hears the loop's new one
        return super().listen(expectation, mode=mode, echo=echo, timeout=timeout)


class TimedMouth(Mouth):
    """Speaks each sentence for 30 ms; notes when it was asked to say each."""

    def __init__(self):
        super().__init__()
        self.ears = None
        self.said_at = []
        self.until = 0.0

    def say(self, said):
        super().say(said)
        self.said_at.append(time.monotonic())
        self.until = self.said_at[-1] + 0.03

    def said_before_the_first_decoding_ended(self):
        return sum(at < self.ears.first_done for at in self.said_at)

    @property
    def is_speaking(self):
        return time.monotonic() < self.until

    def tick(self):
        pass


def test_the_reading_goes_on_while_the_microphone_decodes():
    """The passage's sentences and its question are all said before the microphone's first
    decoding ends (however late its thread starts), not each after a decoding."""
    from narrator.session.console import LiveEars

    mouth = TimedMouth()
    mouth.ears = DecodingEars(mouth, [("reading", "three"), ("confirming", "yes"),
                                      ("asking", "quit", True, "text")])
    session = Session(READ_FIRST, SCRIPT, {})
    journal = MemoryJournal()
    live = LiveEars(mouth.ears)
    try:
        run(session, live, Captions(io.StringIO()), journal, mouth)
    finally:
        live.close()
    assert mouth.said_before_the_first_decoding_ended() >= 3
    assert journal.lines[0] == Number(3)  # said over the narration, checked at the question

    waited = TimedMouth()
    waited.ears = DecodingEars(waited, [("reading", "three"), ("confirming", "yes"),
                                        ("asking", "quit", True, "text")])
    run(Session(READ_FIRST, SCRIPT, {}), waited.ears, Captions(io.StringIO()), MemoryJournal(),
        waited)
    assert waited.said_before_the_first_decoding_ended() <= 1  # each sentence waits for one


class HeardBack:
    """Microphone ears that hear (after, text) utterances in turn, each ending ``after``
    seconds after the one before, the moment they return it, and lasting ``seconds``; Whisper
    wrote each ``written`` (its free transcript) and scored it ``confidence`` (by default as
    low as it scores an earcon heard; sure from 0.5)."""

    def __init__(self, heard, seconds=0.3, written="", confidence=0.1):
        self.heard = list(heard)
        self.ended_at = None
        self.seconds, self.written, self.confidence = seconds, written, confidence
        self.last = Heard("", confidence, 0.0, seconds=seconds)

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        if not self.heard:
            time.sleep(timeout or 0)
            return None
        after, text = self.heard.pop(0)
        time.sleep(after)
        self.ended_at = time.monotonic()
        self.last = Heard(text, self.confidence, 0.0, free=self.written, seconds=self.seconds)
        return Utterance(text, understand(text, expectation, mode), self.confidence, "whisper",
                         self.confidence >= 0.5)


def after_our_earcon(mic, speaks=True):
    """What ``LiveEars`` over ``mic`` hear when the listening earcon has just sounded (with
    earcons alone, ``--quiet``, when not ``speaks``)."""
    from narrator.session.console import LiveEars

    ears = LiveEars(mic, speaks=speaks)
    try:
        ears.cued("listening")
        return ears.listen(Session(INFO, SCRIPT, {}).expectation, timeout=3)
    finally:
        ears.close()


def test_what_ends_while_our_own_earcon_sounds_is_not_taken_for_the_table():
    heard = after_our_earcon(HeardBack([(0.1, "no"), (1.0, "help")]))
    assert heard is not None and heard.text == "help"  # "no" ended with the earcon: dropped


def test_a_word_begun_before_our_earcon_and_ending_with_it_is_the_tables():
    """"repeat" said as the question ends, and ending as the listening earcon sounds, is
    heard (it was dropped as the earcon, and the table waited in silence)."""
    heard = after_our_earcon(HeardBack([(0.1, "repeat")], seconds=1.2))
    assert heard is not None and heard.text == "repeat"


def test_a_word_written_as_said_and_sure_is_the_tables_though_it_began_with_our_earcon():
    """"Repeat." said into the listening earcon, written so and sure, is heard (it was left as
    the earcon: Slow Burn's table lost 12-18 "pause" and "repeat" a run so, sure or not); an
    earcon heard is written as filler ("Okay.", scored low) and is still left."""
    heard = after_our_earcon(HeardBack([(0.1, "repeat")], written="Repeat.", confidence=1.0))
    assert heard is not None and heard.text == "repeat"
    assert after_our_earcon(HeardBack([(0.1, "no")], written="Okay.")) is None


def test_a_word_whisper_is_surer_of_than_of_an_earcon_is_the_tables_though_it_began_with_it():
    """Slow Burn: "pause" said over a one-sentence prompt, heard to start only as the narrator
    stopped and ending as the listening earcon sounded, unsure (0.39-0.49), was left as the
    earcon three times in a run (the table's "pause" missed). An earcon heard is scored
    0.05-0.18, and is still left."""
    heard = after_our_earcon(HeardBack([(0.1, "pause")], written="Pass.", confidence=0.39))
    assert heard is not None and heard.text == "pause"
    assert after_our_earcon(HeardBack([(0.1, "help")], written="Beep.", confidence=0.18)) is None


def test_a_word_left_as_our_earcon_is_logged_with_what_it_was_decoded_as(caplog):
    """The events file's ``ignored`` event names the transcript, the phrase it was fitted to,
    how sure and how long, as for every utterance the ears leave (the table bench reads them;
    it stopped on an event with a phrase and no seconds)."""
    from narrator.voice.unanswered import HEARING

    with caplog.at_level(logging.DEBUG, logger=HEARING.name):
        assert after_our_earcon(HeardBack([(0.1, "help")], written="Beep.",
                                          confidence=0.18)) is None
    text, why, decoded = next(r.ignored for r in caplog.records if hasattr(r, "ignored"))
    assert (text, why) == ("Beep.", "it ended with an earcon")
    assert decoded == {"phrase": "help", "confidence": 0.18, "seconds": 0.3}


def test_with_a_microphone_deaf_to_the_narrator_a_word_ending_with_our_earcon_is_taken():
    """Headphones: the earcon cannot reach the microphone, so what ends with it is the table's
    ("pause" said just as the question's listening earcon sounded was dropped)."""
    from types import SimpleNamespace

    mic = HeardBack([(0.1, "help")])
    mic.source = SimpleNamespace(hears_narrator=False)
    heard = after_our_earcon(mic)
    assert heard is not None and heard.text == "help"


def test_with_earcons_alone_our_earcon_heard_as_a_word_is_still_the_earcon():
    """``--quiet``: the echo canceller finds the earcons in the microphone but does not take
    them out, and Whisper fitted them to answers ("Spend new." to "new" at 0.32, read back,
    then two more heard as "yeah" confirmed it: a new episode no one asked for). A word written
    as said and sure is still the table's."""
    from types import SimpleNamespace

    def mic(**kwargs):
        heard = HeardBack([(0.1, "new episode")], **kwargs)
        heard.source = SimpleNamespace(cancels_narrator=True)
        return heard

    assert after_our_earcon(mic(written="Spend new.", confidence=0.32), speaks=False) is None
    spoken = after_our_earcon(mic(written="Spend new.", confidence=0.32))
    assert spoken is not None and spoken.text == "new episode"  # the canceller takes it out
    said = after_our_earcon(mic(written="New episode.", confidence=1.0), speaks=False)
    assert said is not None and said.text == "new episode"


class FaultyEars(Ears):
    """Microphone ears whose hearing fails (a bug: respell once crashed on "space" heard three
    times running) where the script says "fault"; each utterance answers a question of its
    own (the microphone's thread waits for the loop's next one)."""

    answered = None  # the question the last utterance answered

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        if mode != "reading" and expectation == self.answered:
            time.sleep(0.01)
            return None
        if self.script and self.script[0] == "fault" and mode != "reading":
            self.script.pop(0)
            raise ValueError("max() arg is an empty sequence")
        heard = super().listen(expectation, mode=mode, echo=echo, timeout=timeout)
        self.answered = expectation if heard is not None else self.answered
        return heard


def test_a_hearing_that_fails_is_a_miss_with_a_report_and_the_microphone_listens_on(
        tmp_path, monkeypatch):
    """The microphone's thread ended on the error and the narrator heard nothing more (a
    traceback printed, the table talking to a deaf narrator until it gave up)."""
    from narrator.session.console import LiveEars

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    mouth, out, journal = Mouth(), io.StringIO(), MemoryJournal()
    live = LiveEars(FaultyEars(mouth, [("asking", "next"), "fault", ("asking", "2"),
                                       ("asking", "quit", True, "text")]))
    try:
        run(Session(INFO, SCRIPT, {}, roller=Roller(1)), live, Captions(out), journal, mouth)
    finally:
        live.close()
    transcript = out.getvalue()
    assert "Didn't catch that." in transcript and "unclear" in mouth.earcons
    assert "Something went wrong while hearing that (ValueError); say it again, or type it." \
        in transcript
    [report] = (tmp_path / "narrator").glob("narrator-crash-*.log")
    assert str(report) in transcript and "max() arg is an empty sequence" in report.read_text()
    assert journal.lines[-1] == Number(2)  # heard by voice after the fault


def test_hearings_failing_over_and_over_stop_the_session_on_the_error(tmp_path, monkeypatch):
    """Not one utterance's fault: MOST_FAULTS in a row reach the session (which the command
    line's boundary stops, saved), not an endless run of misses and reports."""
    from narrator.session.console import MOST_FAULTS, LiveEars

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    live = LiveEars(FaultyEars(Mouth(), ["fault"] * (MOST_FAULTS + 2)))
    expectation = Session(INFO, SCRIPT, {}).expectation
    try:
        for _ in range(MOST_FAULTS - 1):
            assert isinstance(live.listen(expectation, timeout=5).meaning, Unclear)
        with pytest.raises(ValueError, match="empty sequence"):
            live.listen(expectation, timeout=5)
    finally:
        live.close()
    assert len(list((tmp_path / "narrator").glob("narrator-crash-*.log"))) == MOST_FAULTS - 1


def test_once_the_echo_canceller_cancels_the_narrator_a_word_ending_with_our_earcon_is_taken():
    """The canceller takes our earcons out with the narration (they are played through the
    same output): what ends with one is the table's. Slow Burn's "pause" said over a short
    prompt and ending as the listening earcon sounded was written "Force" or "those" and
    scored as low as an earcon (0.13-0.19), and left: in 34 table runs, every utterance left
    so was a player's. Before the canceller has found the narrator, it is still left."""
    from types import SimpleNamespace

    for found, kept in ((True, "pause"), (False, None)):
        mic = HeardBack([(0.1, "pause")], written="Force", confidence=0.19)
        mic.source = SimpleNamespace(hears_narrator=True, cancels_narrator=found)
        heard = after_our_earcon(mic)
        assert (heard and heard.text) == kept


class ModeEars:
    """Microphone ears that hear ``said`` in turn, one per listen, each as the listen's mode
    and expectation understand it (its grammar is the one asked for as it begins), the second
    at once after the first: a word begun as the narrator takes an answer."""

    def __init__(self, said):
        self.said = list(said)
        self.modes: list[str] = []

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        self.modes.append(mode)
        if not self.said:
            time.sleep(timeout or 0)
            return None
        text = self.said.pop(0)
        return Utterance(text, understand(text, expectation, mode), 0.9, "whisper", True)


def test_what_is_said_as_an_answer_is_taken_is_heard_for_what_is_asked_next():
    # the microphone's thread listened on for the answer just taken while the loop read it
    # back: a spelling's read-back heard back at once was decoded as letters ("I heard D, R"
    # as "h a r d") and answered "Didn't catch that" over the read-back
    from narrator.session.console import LiveEars

    asked = Session(INFO, SCRIPT, {}).expectation
    readback = Expectation(Line("confirm"), (AcceptWords(("yes", "no")),))
    voice = ModeEars(["next", "yes"])
    ears = LiveEars(voice)
    try:
        assert ears.listen(asked, mode="spelling", timeout=2) is not None
        time.sleep(0.3)  # the loop at work on the answer
        heard = ears.listen(readback, mode="confirming", timeout=2)
    finally:
        ears.close()
    assert heard is not None and heard.text == "yes"
    assert voice.modes[:2] == ["spelling", "confirming"]
