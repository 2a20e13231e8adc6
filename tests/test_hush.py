"""The narrator hushed while a word said over it is decoded (issue 17: the reading stops soon
after "pause" ends): the ears hush it at the first pause of an utterance as short as a
command and let it go on when the utterance grows into talk or is left unanswered; the loop
lets it go on after an answer or a volume change, and a cut leaves nothing hushed. Scripted
recogniser and sound; the Speaker's hush on a real device is in tests/test_speak_audio.py."""

from __future__ import annotations

import numpy as np
import pytest

from narrator.events import Control
from narrator.voice.asr import Heard
from narrator.voice.listener import ECHO_LIKE, HUSH_UP_TO, Ears
from narrator.voice.mic import RATE, Frames
from narrator.voice.spoken import Echo, Spoken
from scripted import Scripted
from test_echo_timed import FILLER, NEXT_LINE, READING
from test_loop_states import READ_FIRST, Mouth, play

PAUSE = Heard("pause", 1.0, 0.0, free="Pause.")


class Narration:
    """What the ears do to the narrator's voice, in order."""

    def __init__(self):
        self.calls: list[str] = []

    def hush(self):
        self.calls.append("hush")

    def unhush(self):
        self.calls.append("unhush")


def sound(*parts: float) -> bytes:
    """Quiet, then loud and quiet seconds in turn (loud first), then quiet."""
    out = [np.zeros(RATE, np.int16)]
    for i, seconds in enumerate(parts):
        level = 3000 if i % 2 == 0 else 0
        out.append(np.full(int(seconds * RATE), level, np.int16))
    out.append(np.zeros(RATE, np.int16))
    return np.concatenate(out).tobytes()


def heard_over_narration(heard: Heard, pcm: bytes, mode: str = "reading", likeness=None):
    """What the ears hand over and do to the narration for ``pcm``; ``likeness(seconds)``: how
    much the microphone's canceller says the last seconds are the narrator's echo (None: no
    canceller)."""
    narration = Narration()
    mic = Frames(pcm)
    mic.hears_narrator = True
    if likeness is not None:
        mic.echo_likeness = likeness
    ears = Ears(Scripted(heard), mic, clock=lambda: 1.5)
    ears.narration = narration
    said = Spoken()
    said.start(NEXT_LINE, 0.0)  # still reading
    got = ears.listen(READING, mode=mode, echo=Echo(NEXT_LINE, said))
    return got, narration.calls


def test_a_short_word_over_the_narration_hushes_it_until_the_loop_acts():
    got, calls = heard_over_narration(PAUSE, sound(0.5))
    assert got.meaning == Control("pause")
    assert calls[:1] == ["hush"] and "unhush" not in calls  # the loop stops it for good


def test_a_short_sound_left_as_the_narrators_echo_lets_the_narration_go_on():
    got, calls = heard_over_narration(FILLER, sound(0.5))
    assert got is None
    assert calls[0] == "hush" and calls[-1] == "unhush"


def test_talk_that_pauses_early_hushes_the_narration_only_until_it_runs_on():
    got, calls = heard_over_narration(FILLER, sound(0.4, 0.2, HUSH_UP_TO + 1.0))
    assert calls[0] == "hush" and calls[-1] == "unhush"
    assert got is None


def test_talk_without_a_pause_and_words_while_the_narrator_is_quiet_hush_nothing():
    _, calls = heard_over_narration(FILLER, sound(HUSH_UP_TO + 1.0))
    assert "hush" not in calls
    got, calls = heard_over_narration(PAUSE, sound(0.5), mode="asking")
    assert got is not None and calls == []


def test_the_narrators_own_echo_leaking_through_hushes_nothing_and_a_player_does():
    """A sound the canceller finds coherent with what the narrator played is its echo: the
    narration goes on while it is decoded; one that is not (a player) hushes it."""
    got, calls = heard_over_narration(PAUSE, sound(0.5), likeness=lambda _: ECHO_LIKE + 0.3)
    assert calls == [] and got.meaning == Control("pause")  # still decided as before
    got, calls = heard_over_narration(PAUSE, sound(0.5), likeness=lambda _: ECHO_LIKE - 0.05)
    assert calls[:1] == ["hush"]


def test_the_echo_is_judged_over_the_word_so_far_and_a_little_before_it():
    asked = []
    heard_over_narration(PAUSE, sound(0.5), likeness=lambda seconds: asked.append(seconds))
    assert asked and 0.5 + 0.12 <= asked[0] <= 0.5 + 0.12 + 0.3  # the word, its pause, a lead-in


class HushedMouth(Mouth):
    """A mouth the ears hush before each utterance they hand over while it reads."""

    def __init__(self):
        super().__init__()
        self.hushed = False
        self.unhushed = 0

    def hush(self):
        self.hushed = True

    def unhush(self):
        self.unhushed += self.hushed
        self.hushed = False

    def stop(self):
        super().stop()
        self.hushed = False


class HushingEars:
    def __init__(self, ears):
        self._ears = ears

    def __getattr__(self, name):
        return getattr(self._ears, name)

    def listen(self, expectation, *, mode="asking", **how):
        if mode == "reading" and self._ears.script and self._ears.script[0][0] == "reading":
            self._ears.mouth.hush()
        return self._ears.listen(expectation, mode=mode, **how)


@pytest.fixture
def hushing(monkeypatch):
    import test_loop_states

    made = test_loop_states.Ears
    monkeypatch.setattr(test_loop_states, "Ears", lambda *a, **k: HushingEars(made(*a, **k)))


def test_an_answer_over_the_narration_lets_it_go_on_without_saying_the_sentence_again(hushing):
    _, _, session, mouth, *_ = play([("reading", "three"), ("confirming", "yes")],
                                    mouth=HushedMouth(), rules=READ_FIRST)
    assert mouth.unhushed == 1 and not mouth.hushed
    assert mouth.spoken.count("Track 1: Rules") == 1  # held, not cut and said again
    assert session.state.players == 3


def test_louder_over_the_narration_lets_it_go_on_and_next_cuts_it(hushing):
    _, _, _, mouth, *_ = play([("reading", "louder"), ("asking", "next")], mouth=HushedMouth())
    assert mouth.volume == 0.75 and mouth.unhushed == 1
    _, _, session, mouth, *_ = play([("reading", "next"), ("asking", "next")],
                                    mouth=HushedMouth())
    assert mouth.stops >= 1 and mouth.unhushed == 0 and not mouth.hushed
    assert session.state.read_rules
