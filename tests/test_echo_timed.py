"""The self-trigger guard, timed (narrator/voice/spoken.py, ``meant.decide``): an utterance
decoded seconds after it was captured is compared with what the narrator said *while* it was
captured, not with what plays when it is decoded. Timed transcripts; no audio here."""

from __future__ import annotations

import json

import numpy as np

from narrator.events import Control, Line, Unclear, Word
from narrator.session.loop import PAUSED
from narrator.understand import AcceptWords, Expectation
from narrator.voice.asr import Heard
from narrator.voice.grammar import build
from narrator.voice.listener import Ears
from narrator.voice.meant import decide
from narrator.voice.mic import RATE, Frames
from narrator.voice.spoken import ECHO_MARGIN, Echo, Spoken, echo_during
from scripted import Scripted

READING = Expectation(Line("reading"), ())
HELP_LINE = "Say help at any time for the list of commands."
NEXT_LINE = "Roll two dice three times and write down each total."
WARNING = "I can hear myself in the microphone, loudly."


def heard_over(echo, start, end, text, free, confidence=1.0):
    """What the ears make of ``free`` captured from ``start`` to ``end`` (decoded later)."""
    heard = Heard(text, confidence, 0.0, free=free, seconds=end - start)
    return decide(heard, build(READING, lambda word: True, mode="reading"), READING,
                  "whisper", mode="reading", echo=echo_during(echo, start, end))


def narration() -> Spoken:
    said = Spoken()
    said.start(HELP_LINE, 0.0)
    said.start(NEXT_LINE, 3.0)
    said.end(7.0)
    return said


def test_leftover_echo_decoded_after_its_sentence_ended_is_still_the_narrators():
    said = narration()
    # "help" captured at 2.1-2.5 s, decoded at 8 s while the next sentence is the echo
    assert heard_over(Echo(NEXT_LINE, said), 2.1, 2.5, "help", "Help.") is None
    # as before this change (the words playing at decoding only), it was acted on
    untimed = heard_over(NEXT_LINE, 2.1, 2.5, "help", "Help.")
    assert untimed.meaning == Control("help")


def test_a_players_command_over_the_narration_still_acts():
    said = narration()
    assert heard_over(Echo(NEXT_LINE, said), 4.0, 4.4, "pause", "Pause.").meaning == \
        Control("pause")


def test_once_the_narrator_is_quiet_a_player_may_say_its_words():
    said = narration()
    start = 7.0 + ECHO_MARGIN + 0.2
    assert heard_over(Echo("", said), start, start + 0.4, "help", "Help.").meaning == \
        Control("help")


def test_a_command_asked_for_is_the_tables_while_the_next_sentence_plays():
    """"resume" said after "Say resume to go on." as a warning plays: the paused message is
    echo only as timed (it ended before "resume" began), not whole with the sentence playing
    (Half-Chance with the narrator's voice in the microphone: left, said again 30 s later)."""
    said = Spoken()
    said.start(PAUSED, 0.0)
    said.start(WARNING, 2.7)
    paused = build(READING, lambda word: True, mode="paused")

    def heard(echo):
        return decide(Heard("resume", 1.0, 0.0, free="Resume.", seconds=0.75), paused,
                      READING, "whisper", mode="paused", echo=echo_during(echo, 3.2, 3.95))

    assert heard(Echo(said.latest(3.95), said)).meaning == Control("resume")
    assert heard(Echo(f"{PAUSED} {WARNING}", said)) is None  # the two last sentences whole


def test_a_command_said_while_the_next_sentence_renders_is_the_tables():
    """The narrator ended "Say resume to go on." and is rendering the next sentence: nothing is
    playing, so "resume" said then is no echo of the sentence before, whole (the mouth logs
    the next one as it is first heard: ``Speaker.heard_to``)."""
    said = Spoken()
    said.start(PAUSED, 0.0)
    said.end(2.7)  # the next sentence given to the mouth: not heard yet
    assert said.latest(2.6) == PAUSED and said.latest(2.9) == ""
    paused = build(READING, lambda word: True, mode="paused")
    heard = decide(Heard("resume", 1.0, 0.0, free="Resume.", seconds=0.75), paused, READING,
                   "whisper", mode="paused", echo=echo_during(Echo(said.latest(3.95), said),
                                                              3.2, 3.95))
    assert heard.meaning == Control("resume")


COIN = Expectation(Line("ask.flip"), (AcceptWords(("heads", "tails")),))


def answered(start, end, text, free):
    """What the ears make of a sure ``free`` captured from ``start`` to ``end`` just after the
    narrator asked "Heads or tails?" (2.0 to 3.0 s) and fell quiet."""
    said = Spoken()
    said.start("Player 1, flip a coin for the Haunted Condition.", 0.0)
    said.start("Heads or tails?", 2.0)
    said.end(3.0)
    heard = Heard(text, 1.0, 0.0, free=free, seconds=end - start)
    return decide(heard, build(COIN, lambda word: True), COIN, "whisper",
                  echo=echo_during(Echo("", said), start, end))


def test_an_answer_said_at_once_with_a_word_of_the_question_is_the_players():
    # a table answers as the question ends: "Tails" captured from 3.3 s (with the ears'
    # 0.3 s lead-in) was taken for "Heads or tails?" heard back, and left unanswered
    assert answered(3.3, 4.1, "tails", "Tails").meaning == Word("tails")


def test_the_questions_last_words_heard_back_as_it_ends_are_still_its_echo():
    assert answered(2.7, 3.3, "tails", "Or tails.") is None  # begun before it ended
    assert answered(3.1, 3.5, "tails", "Tails.") is None  # begun in its room's tail


def test_whisper_filler_on_the_echo_is_nothing_but_a_miss_in_quiet_is_unclear():
    said = narration()
    assert heard_over(Echo(NEXT_LINE, said), 5.0, 5.6, "next", "Thank you.", 0.01) is None
    quiet = heard_over(Echo("", said), 20.0, 20.6, "next", "Thank you.", 0.01)
    assert isinstance(quiet.meaning, Unclear)


def test_only_the_last_minute_is_kept():
    said = Spoken()
    said.start(HELP_LINE, 0.0)
    said.start(NEXT_LINE, 3.0)
    said.start("Pass the dice.", 100.0)
    assert said.during(0.0, 100.0) == f"{NEXT_LINE} Pass the dice."


#: Whisper's filler on leftover echo ("Thank you."), fitted to "next" under the bar
FILLER = Heard("next", 0.01, 0.0, free="Thank you.")


class Microphone(Frames):
    """A short sound between quiet, from a microphone that may or may not hear the narrator."""

    def __init__(self, hears_narrator: bool):
        quiet, sound = bytes(2 * RATE), np.full(RATE // 2, 3000, np.int16).tobytes()
        super().__init__(quiet + sound + quiet)
        self.hears_narrator = hears_narrator


def test_filler_over_the_narration_is_a_miss_said_when_the_microphone_cannot_hear_it():
    """Headphones or a separate sink: the table's mumbled word while the narrator reads cannot
    be its echo, so it gets "didn't catch that" (and a table hears it should say it again)."""
    said = Spoken()
    said.start(NEXT_LINE, 0.0)  # still reading
    heard = {}
    for hears in (True, False):
        ears = Ears(Scripted(FILLER), Microphone(hears), clock=lambda: 1.5)
        heard[hears] = ears.listen(READING, mode="reading", echo=Echo(NEXT_LINE, said))
    assert heard[True] is None  # the narrator's echo, maybe: nothing
    assert isinstance(heard[False].meaning, Unclear)


class LateMicrophone(Microphone):
    """A microphone whose frames carry when they were captured (from ``start``): the ears read
    them long after, as on a machine too busy to keep up."""

    def __init__(self, start: float):
        super().__init__(hears_narrator=True)
        self.start = start

    @property
    def captured_until(self) -> float:
        return self.start + self.seconds_read


def test_an_utterance_read_late_is_placed_when_it_was_captured():
    """Leftover echo captured while the narrator read, read by the ears half a minute later
    when it is quiet: still the narrator's (before, the ears placed it when they read it)."""
    said = narration()  # NEXT_LINE audible 3.0-7.0 s; the sound below comes at 5.0-5.5 s
    late = Ears(Scripted(FILLER), LateMicrophone(start=3.0), clock=lambda: 30.0)
    assert late.listen(READING, mode="asking", echo=Echo("", said)) is None
    untimed = Ears(Scripted(FILLER), Microphone(hears_narrator=True), clock=lambda: 30.0)
    assert isinstance(untimed.listen(READING, mode="asking", echo=Echo("", said)).meaning,
                      Unclear)


def test_an_utterance_left_unanswered_is_in_the_events_file_with_what_was_heard(tmp_path):
    """``--events``: the filler decoded over the narration is no answer, and the log says when
    an utterance began and what was heard and left (a program beside the table can tell a miss
    from silence, and words never heard from words still being decoded)."""
    from narrator.session.event_log import EventLog, LoggedEars

    said = narration()
    log = EventLog(tmp_path / "events.jsonl", print)
    for microphone in (Microphone(hears_narrator=True), CancellingMicrophone()):
        ears = LoggedEars(Ears(Scripted(FILLER), microphone, clock=lambda: 1.5), log)
        assert ears.listen(READING, mode="reading", echo=Echo(NEXT_LINE, said)) is None
    log.close(completed=False)
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert [e["event"] for e in events] == ["expect", "hearing", "ignored", "hearing", "ignored",
                                            "end"]
    left = [e for e in events if e["event"] == "ignored"]
    assert left[0]["text"] == "Thank you." and "echo" in left[0]["why"]
    # what the recogniser made of it: its phrase, how sure, how long the audio was
    assert {"phrase", "confidence", "seconds"} <= set(left[0]) and left[0]["seconds"] > 0
    # and, where the echo canceller measured it, how like the narrator's played voice it sounded
    assert "likeness" not in left[0] and left[1]["likeness"] == 0.312


def test_a_steady_noise_that_rose_is_in_the_events_file_as_begun_and_left(tmp_path):
    """A fan switched on starts an utterance that turns out to be no voice (``void``): the log
    says it began and was left, so a program beside the table waits no longer for it."""
    from narrator.session.event_log import EventLog, LoggedEars

    rng = np.random.default_rng(5)
    pcm = np.concatenate([rng.standard_normal(RATE // 2) * 50, rng.standard_normal(3 * RATE) * 800])
    log = EventLog(tmp_path / "events.jsonl", print)
    ears = LoggedEars(Ears(Scripted(FILLER), Frames(pcm.astype(np.int16).tobytes())), log)
    assert ears.listen(READING, mode="asking") is None
    log.close(completed=False)
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert [e["event"] for e in events] == ["expect", "hearing", "ignored", "end"]
    assert "no voice" in events[2]["why"]


class CancellingMicrophone(Microphone):
    """A microphone whose echo canceller finds what it heard a third like what was played."""

    def __init__(self):
        super().__init__(hears_narrator=True)

    def echo_likeness(self, start: float, end: float) -> float:
        return 0.31234


def test_a_word_acted_on_over_the_narration_is_in_the_events_file_with_its_likeness(tmp_path):
    """A wrong action in a run could not be traced from its events: whether the sure "1, 6,"
    heard over the read-back "1 success." sounded like the narrator's played voice (stop 85's
    CI). The ``heard`` event says so where the echo canceller measured it."""
    from narrator.session.event_log import EventLog, LoggedEars

    said = narration()
    log = EventLog(tmp_path / "events.jsonl", print)
    for microphone in (Microphone(hears_narrator=True), CancellingMicrophone()):
        ears = LoggedEars(Ears(Scripted(Heard("pause", 0.9, 0.0, free="Pause.")), microphone,
                               clock=lambda: 1.5), log)
        heard = ears.listen(READING, mode="reading", echo=Echo(NEXT_LINE, said))
        assert heard.meaning == Control("pause")
    log.close(completed=False)
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    heard = [e for e in events if e["event"] == "heard"]
    assert "likeness" not in heard[0] and heard[1]["likeness"] == 0.312
