"""The live commands over the narration that tests/test_loop_states.py leaves out (issue 17,
point 2): "skip", "slower"/"faster", "help" and a miss while reading, with the scripted ears
and mouth of that file."""

from __future__ import annotations

import pytest

from narrator.session import loop
from narrator.session.loop import MISSED
from test_loop_states import play


@pytest.fixture(autouse=True)
def no_echo_tail(monkeypatch):
    monkeypatch.setattr(loop, "ECHO_TAIL", 0.0)


def test_skip_while_reading_goes_to_the_question_like_next():
    _, _, session, mouth, _, _ = play([("reading", "skip"), ("asking", "next")])
    assert "Roll two dice three times." not in mouth.spoken
    assert mouth.spoken[-2:] == ["Say next when you are ready.", "How many players?"]
    assert "accepted" in mouth.earcons and session.state.read_rules


@pytest.mark.parametrize("word, said", [("slower", "Speaking at 0.8 times the normal rate."),
                                        ("faster", "Speaking at 1.2 times the normal rate.")])
def test_slower_or_faster_while_reading_is_captioned_and_the_reading_goes_on(word, said):
    transcript, _, _, mouth, _, _ = play([("reading", word), ("asking", "next")])
    assert said in transcript and mouth.stops == 0  # nothing is cut
    assert "Roll two dice three times." in mouth.spoken


def test_an_unsure_change_of_voice_is_shown_and_acts_only_when_said_again_over_the_reading():
    """Whisper wrote espeak-ng's "desperate" "faster" (0.43, unsure) at a question, and
    "smoother." "slower" (0.11) over the narration: each changed the narrator's speed. Unsure
    once, it is said back (at a question) or shown (over the reading); said again over the
    reading, it acts. At a question, heard unsure again, it is a miss: the answer said again
    was written the same way (stop 70's Blades run: "Master it." twice, the reading sped up);
    said sure there, it acts."""
    transcript, _, _, mouth, _, _ = play([("reading", "slower", False), ("asking", "next")])
    assert 'Heard "slower"? Say it again to be sure.' in transcript
    assert "times the normal rate" not in transcript and mouth.stops == 0
    transcript, *_ = play([("reading", "slower", False), ("reading", "slower", False),
                           ("asking", "next")])
    assert "Speaking at 0.8 times the normal rate." in transcript
    transcript, _, _, mouth, _, _ = play([("reading", "next"), ("asking", "faster", False),
                                          ("asking", "next")])
    assert 'Heard "faster"? Say it again to be sure.' in mouth.spoken
    assert "times the normal rate" not in transcript
    transcript, _, _, mouth, _, _ = play([("reading", "next"), ("asking", "faster", False),
                                          ("asking", "faster", False), ("asking", "next")])
    assert "times the normal rate" not in transcript
    assert "Didn't catch that." in transcript and "unclear" in mouth.earcons
    assert "Not sure enough to change the voice: it stays as it is." in transcript
    transcript, *_ = play([("reading", "next"), ("asking", "faster", False),
                           ("asking", "faster"), ("asking", "next")])
    assert "Speaking at 1.2 times the normal rate." in transcript


def test_help_while_reading_says_what_can_be_said_then_the_cut_sentence_again():
    _, _, _, mouth, _, _ = play([("reading", "help"), ("asking", "next")])
    at = next(i for i, t in enumerate(mouth.spoken) if t.startswith("While I read you can say"))
    assert "next" in mouth.spoken[at] and "repeat" in mouth.spoken[at]
    after = at + 1 + mouth.spoken[at + 1].startswith("An answer to the coming question")
    assert mouth.spoken[after] == mouth.spoken[at - 1]


def test_speech_not_understood_while_reading_sounds_and_shows_didnt_catch_that():
    transcript, _, _, mouth, _, _ = play([("reading", "purple elephant"), ("asking", "next")])
    assert "unclear" in mouth.earcons and MISSED in transcript
    assert mouth.stops == 0  # one miss does not cut the reading
