"""Over the narration, a control the recogniser decoded ahead (at the speaker's first pause)
with the confidence that acts (sure or not) ends the utterance as soon as that decoding is
back, not after the full quiet that ends any other: the reading stops sooner (issue 17's
latency). An answer said over the narration, and any phrase while the narrator is quiet,
still wait for the quiet: more may follow ("four ... and nine", "pause ... please"). A
"please" heard on its own right after a command asks nothing."""

from __future__ import annotations

from narrator.events import Control, Dice, Line
from narrator.understand import AcceptDice, Expectation
from narrator.voice.asr import Heard
from narrator.voice.listener import Ears
from narrator.voice.mic import FRAME, RATE, Endpointer
from scripted import Scripted, sounds

DICE = Expectation(Line("ask.roll"), (AcceptDice(6, 1, 2),))
WORD_ENDS = 30 * FRAME / RATE  # 10 quiet frames, then 20 loud ones
QUIET = Endpointer.end_frames * FRAME / RATE - 0.001  # what ends an utterance otherwise
# (300 ms, less rounding)


class DecodingAhead(Scripted):
    """Scripted, and decoding ahead like Whisper: from the pause on, with its transcript's
    confidence (or, with ``aheads``, each decoding ahead with the next of those); ``clock``:
    when each decoding ahead began is kept (``began``)."""

    def __init__(self, *heard: Heard, aheads: tuple[Heard, ...] = (), clock=None) -> None:
        super().__init__(*heard)
        self.aheads, self.clock, self.began = list(aheads), clock, []

    def start(self, grammar) -> None:
        super().start(grammar)
        self.ahead: Heard | None = None

    def prepare(self) -> None:
        self.ahead = self.aheads.pop(0) if self.aheads else self.heard[0]
        if self.clock is not None:
            self.began.append(self.clock())

    def back(self) -> bool:
        return self.ahead is not None

    def discard(self) -> None:
        self.ahead = None

    def decided(self, at: float) -> str:
        return self.ahead.text if self.ahead and self.ahead.confidence >= at else ""


def quiet_before_the_end(transcript: str, mode: str,
                         confidence: float = 1.0) -> tuple[float, object]:
    """Seconds of quiet after a word before the ears hand it on, and what it meant."""
    source = sounds([50] * 10 + [9000] * 20 + [50] * 40, seed=3)
    ears = Ears(DecodingAhead(Heard(transcript, confidence, 0.0)), source,
                clock=lambda: source.seconds_read)
    got = ears.listen(DICE, mode=mode)
    assert got is not None
    return ears.ended_at - WORD_ENDS, got.meaning


def test_over_the_narration_a_sure_control_ends_the_utterance_once_decoded_ahead():
    waited, meaning = quiet_before_the_end("pause", "reading")
    assert meaning == Control("pause")
    assert waited <= 0.2 < QUIET


def test_over_the_narration_an_unsure_control_that_acts_ends_it_as_soon_too():
    """ "Pause" written "Follows." (0.17): it acts, so the reading need not wait the full
    quiet for it."""
    waited, meaning = quiet_before_the_end("pause", "reading", confidence=0.17)
    assert meaning == Control("pause")
    assert waited <= 0.2 < QUIET


def test_over_the_narration_a_control_too_unsure_to_act_waits_for_the_quiet():
    waited, _ = quiet_before_the_end("pause", "reading", confidence=0.05)
    assert waited >= QUIET


def decodings_ahead(mode: str, *aheads: Heard) -> list[float]:
    """Seconds of quiet after a word when each decoding ahead of it began."""
    source = sounds([50] * 10 + [9000] * 20 + [50] * 40, seed=3)
    recognizer = DecodingAhead(Heard("pause", 0.3, 0.0), aheads=aheads,
                               clock=lambda: source.seconds_read)
    Ears(recognizer, source, clock=lambda: source.seconds_read).listen(DICE, mode=mode)
    return [round(t - WORD_ENDS, 3) for t in recognizer.began]


def test_over_the_narration_decoding_ahead_begins_after_a_shorter_quiet():
    """90 ms of quiet over the narration, 120 ms elsewhere: an unsure command, whose decoding
    takes longest, stops the reading sooner."""
    assert decodings_ahead("reading") == [0.09]
    assert decodings_ahead("asking") == [0.12]


def test_over_the_narration_a_decoding_ahead_that_acts_on_nothing_is_done_again_at_120_ms():
    """The soft end of a word may lie in the 30 ms between: a decoding back under the bar
    (or an answer) is done again, once, on all that was heard by 120 ms of quiet."""
    unsure, acts = Heard("pause", 0.05, 0.0), Heard("pause", 0.3, 0.0)
    assert decodings_ahead("reading", unsure, unsure, unsure) == [0.09, 0.12]
    assert decodings_ahead("reading", Heard("four", 0.9, 0.0), acts) == [0.09, 0.12]
    assert decodings_ahead("reading", acts, acts) == [0.09]


def test_an_answer_over_the_narration_waits_for_the_quiet_more_may_follow():
    waited, meaning = quiet_before_the_end("four", "reading")
    assert meaning == Dice((4,)) and waited >= QUIET


def test_with_the_narrator_quiet_a_control_waits_for_the_quiet_a_please_may_follow():
    waited, meaning = quiet_before_the_end("pause", "asking")
    assert meaning == Control("pause") and waited >= QUIET


def test_a_please_after_a_command_ended_sooner_asks_nothing_of_its_own():
    """ "Pause ... please" with a pause between: "pause" acts, "please" is not "didn't catch
    that", and the next word is heard."""
    word, gap = [9000] * 20, [50] * 9  # 270 ms: "pause" has ended, "please" not yet begun
    source = sounds([50] * 10 + word + gap + word + [50] * 40 + word + [50] * 40, seed=4)
    ears = Ears(DecodingAhead(*(Heard(t, 1.0, 0.0) for t in ("pause", "please", "resume"))),
                source, clock=lambda: source.seconds_read)
    assert ears.listen(DICE, mode="reading").meaning == Control("pause")
    assert ears.listen(DICE, mode="paused").meaning == Control("resume")


def test_a_please_long_after_the_utterance_before_is_heard_as_any_other():
    """Whisper wrote flite awb's "player 3" in pink noise as "Please," and fitted "three" at
    0.34, seconds after the table's last words: that is an answer to read back, not the end of
    a command already acted on."""
    word, gap = [9000] * 20, [50] * 100  # 3 s between them
    source = sounds([50] * 10 + word + gap + word + [50] * 40, seed=5)
    please = Heard("three", 0.34, 0.0, free="Please,")
    ears = Ears(Scripted(Heard("four", 0.34, 0.0, free="For."), please), source,
                clock=lambda: source.seconds_read)
    assert ears.listen(DICE, mode="asking").meaning == Dice((4,))
    heard = ears.listen(DICE, mode="asking")
    assert heard.meaning == Dice((3,)) and not heard.sure
