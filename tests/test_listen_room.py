"""Talk around the table known by its sound alone (``Ears._room_talk``): an utterance no louder
than the talk going on around it, or cut for its length where no free text is asked, is not
acted on, whatever it decodes as."""

from __future__ import annotations

from narrator.events import Dice, Line, Text
from narrator.understand import AcceptDice, AcceptText, Expectation
from narrator.voice.asr import Heard
from narrator.voice.listener import Ears
from scripted import Scripted, sounds

DICE = Expectation(Line("ask.roll"), (AcceptDice(6, 1, 2),))
NAME = Expectation(Line("ask.name"), (AcceptText("name"),))
#: the others' talk: syllables at 1500 with dips to silence, going on (7 s: one utterance of
#: it is cut at 6 s, and the ears know the room's level)
TALK = [1500, 1500, 1500, 0] * 60


def heard(levels: list[float], transcript: str, expectation: Expectation):
    """What the ears hand on from a stream at ``levels`` (int16 rms, 30 ms frames) when each
    utterance decodes as ``transcript``."""
    source = sounds(levels, seed=5)
    ears = Ears(Scripted(Heard(transcript, 1.0, 0.0)), source, clock=lambda: source.seconds_read)
    return ears.listen(expectation)


def test_a_word_at_the_microphone_over_the_talk_is_heard():
    got = heard([50] * 10 + TALK + [9000] * 20 + TALK[:40], "four", DICE)
    assert got is not None and got.meaning == Dice((4,))


def test_a_word_no_louder_than_the_talk_around_it_is_not_acted_on():
    assert heard([50] * 10 + TALK + [2500] * 20 + TALK[:40], "four", DICE) is None


def test_an_utterance_cut_for_its_length_is_talk_unless_free_text_is_asked():
    """A command cut in two at 6 s ("one" of "one and five") must not count as a die; a long
    name can still be answered."""
    long_quiet_room = [50] * 10 + [3000, 3000, 3000, 800] * 58 + [50] * 40
    assert heard(long_quiet_room, "four", DICE) is None
    got = heard(long_quiet_room, "Marguerite of the Seven Bridges", NAME)
    assert got is not None and got.meaning == Text("Marguerite of the Seven Bridges")


def test_a_word_in_a_hum_that_rose_is_heard_a_second_after_it():
    """The narrator stops and the room's hum, which the echo canceller took out with its
    voice, comes back whole: an utterance begins on it. A player's word in it is heard a
    second after the word, when the hum is the floor; at 10 dB, "resume" (1.0) just after
    "Paused." ran on with the hum to the 6 s cut, was dropped as talk, and the table waited
    30 s to say it again."""
    hum = [1000, 1150, 950, 1250, 1100, 1050] * 40
    got = heard([200] * 100 + hum[:15] + [9000] * 12 + hum[:45], "four", DICE)
    assert got is not None and got.meaning == Dice((4,))
