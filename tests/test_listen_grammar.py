"""The grammar built from what the game expects now, fitted to a recogniser's dictionary
(narrator/voice/grammar.py over narrator.understand)."""

from __future__ import annotations

from narrator.events import Line
from narrator.understand import AcceptDice, AcceptSuccesses, AcceptText, AcceptWords, Expectation
from narrator.voice.grammar import build

EVERY_WORD = lambda word: True  # noqa: E731
DICE = Expectation(Line("ask"), (AcceptDice(6, 1, 2),))


def test_controls_are_always_live_and_game_inputs_only_when_expected():
    g = build(DICE, EVERY_WORD)
    assert g.matches("next") and g.matches("go to track seven") and g.matches("roll for me")
    assert g.matches("four and six") and g.matches("a six and a six") and g.matches("five")
    assert not g.matches("three successes")
    assert build(None, EVERY_WORD).matches("pause")
    assert not build(None, EVERY_WORD).matches("four and six")


def test_only_whole_phrases_match_not_fragments_or_extra_words():
    g = build(DICE, EVERY_WORD)
    for talk in ("next time", "hold", "go to", "four and six and", "six six six", "seven"):
        assert not g.matches(talk), talk


def test_while_reading_only_the_reading_controls_and_the_pending_answers_are_live():
    g = build(DICE, EVERY_WORD, mode="reading")
    assert g.matches("pause") and g.matches("stop") and g.matches("hold on")
    assert g.matches("next") and g.matches("four") and g.matches("louder")
    assert g.matches("go back") and not g.matches("quit") and not g.matches("status")
    assert not build(None, EVERY_WORD, mode="reading").matches("four")


def test_words_missing_from_the_dictionary_are_reported_and_left_out():
    g = build(Expectation(Line("ask"), (AcceptWords(("heads", "grumbleweed")),)),
              lambda word: word != "grumbleweed")
    assert g.unknown == ("grumbleweed",)
    assert g.matches("heads") and not g.matches("grumbleweed")
    assert "grumbleweed" not in g.jsgf() and "grumbleweed" not in g.words()


def test_wake_mode_needs_the_wake_word_first():
    g = build(DICE, EVERY_WORD, wake=True)
    assert g.matches("narrator next") and not g.matches("next")


def test_success_counts_up_to_the_pool_and_none():
    g = build(Expectation(Line("ask"), (AcceptSuccesses(3),)), EVERY_WORD)
    assert g.matches("three successes") and g.matches("no successes") and g.matches("none")
    assert not g.matches("four successes")


def test_free_text_is_a_free_grammar():
    g = build(Expectation(Line("ask"), (AcceptText("name"),)), EVERY_WORD)
    assert g.free and g.matches("Agent Sparrow")


def test_a_phrase_is_complete_when_no_longer_phrase_goes_on_from_it():
    g = build(Expectation(Line("ask"), (AcceptDice(12, 1, 3),)), EVERY_WORD)
    for done in ("help", "next track please", "go back please", "go to track seven",
                 "two seven and eleven", "a six a six a six"):
        assert g.complete(done), done
    for open_ in ("next", "go back", "five", "four and nine", "go to track twenty", "go to track",
                  "next time"):  # "next track", "go back please", "four and nine" may follow
        assert not g.complete(open_), open_
    assert build(DICE, EVERY_WORD).complete("four and six")  # two dice at most here
    assert build(DICE, EVERY_WORD, wake=True).complete("narrator help")
    assert not build(Expectation(Line("ask"), (AcceptText("name"),)), EVERY_WORD).complete("x")


def test_a_questions_listed_words_are_told_while_it_is_asked_only():
    """What Whisper is prompted with when unsure of an answer ("Insight, Prowess, ..."): the
    words a question lists, numbered ones too, once each; none at a read-back or for free
    text."""
    xp = Expectation(Line("ask"), (AcceptWords(("playbook", "curse"), ("curse",)),
                                   AcceptDice(6)))
    assert build(xp, EVERY_WORD, mode="asking").listed() == ("playbook", "curse")
    assert build(xp, EVERY_WORD, mode="confirming").listed() == ()
    assert build(Expectation(Line("ask"), (AcceptText("name"),)), EVERY_WORD).listed() == ()


def test_the_dice_a_question_takes_are_told_while_asked_and_read_back_only():
    """Not a coin's: its faces are said by name, and found by number they were scored as
    "one" and "two" (tails), which a coin's "heads" in noise came out as."""
    assert build(DICE, EVERY_WORD).dice() == AcceptDice(6, 1, 2)
    assert build(DICE, EVERY_WORD, mode="confirming").dice() == AcceptDice(6, 1, 2)
    assert build(DICE, EVERY_WORD, mode="reading").dice() is None
    assert build(Expectation(Line("ask"), (AcceptSuccesses(3),)), EVERY_WORD).dice() is None
    coin = (AcceptWords(("heads", "tails")), AcceptDice(2, faces=("heads", "tails")))
    assert build(Expectation(Line("ask"), coin), EVERY_WORD).dice() is None  # said by name
