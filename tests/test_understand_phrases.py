"""The phrase language: every phrase the README promises is understood by typing and is a whole
phrase of the voice grammar for its moment; table talk is not; the help says what is legal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator.events import Continue, Control, Dice, Line, Number, Successes, Text, Unclear, Word
from narrator.session.game import CHOICE
from narrator.understand import (
    AcceptContinue,
    AcceptDice,
    AcceptNumber,
    AcceptSuccesses,
    AcceptText,
    AcceptWords,
    Expectation,
    controls,
    describe,
    grammar,
    understand,
)

README = Path(__file__).resolve().parents[1] / "README.md"


def ask(*accepts) -> Expectation:
    return Expectation(Line("ask"), accepts)


DICE = ask(AcceptDice(12, 1, 3))
WORDS = ask(AcceptWords(("merit", "pass", "curse", "boon"), ("curse",)))
CHANGE_OFFERED = ("Other words said at a name's read-back: offered as a change (\"Keep 'Mara', "
                  "or change it to 'Maura'?\")")
#: the README's "When" column → the mode and what the game asks then
MOMENTS = {
    "A question waits": ("asking", ask(AcceptContinue(), AcceptDice(12, 1, 3))),
    "The narrator reads": ("reading", None),
    "Paused": ("paused", DICE),
    "Dice": ("asking", DICE),
    "Successes": ("asking", ask(AcceptSuccesses(5))),
    "A number": ("asking", ask(AcceptNumber(0, 20))),
    "A coin": ("asking", ask(AcceptWords(("heads", "tails")))),
    "A word the question names": ("asking", WORDS),
    'A read-back ("four and nine. Right?")': ("confirming", ask(AcceptWords(("yes", "no")),
                                                                AcceptDice(12, 1, 3))),
    "A name or other free text": ("asking", ask(AcceptText("name"))),
    CHANGE_OFFERED: ("confirming", ask(CHOICE)),
    'Spelling (after "spell it")': ("spelling", ask(AcceptText("name"))),
}
#: what each README phrase must mean (a control by its name, or the game input)
MEANS = {
    "next": Continue(), "go on": Continue(), "repeat": "repeat", "repeat that": "repeat",
    "say that again": "repeat", "go back": "back", "undo": "back", "status": "status",
    "where are we": "status", "help": "help", "what can I say": "help", "pause please": "pause",
    "slower": "slower", "faster": "faster", "go to track seven": Control("goto", 7),
    "quit": "quit", "save and quit": "quit", "pause": "pause", "hold on": "pause",
    "stop": "stop", "skip": "next", "louder": "louder", "quieter": "quieter", "resume": "resume",
    "carry on": "resume", "keep reading": "resume", "say again": "repeat", "undo that": "back",
    "wait a second": "pause", "wait": "pause", "move on": "next", "four and nine": Dice((4, 9)),
    "I rolled a four and a nine": Dice((4, 9)),
    "two, seven and eleven": Dice((2, 7, 11)), "two sixes": Dice((6, 6)),
    "I rolled a twelve": Dice((12,)), "roll for me": "roll", "three successes": Successes(3),
    "one success": Successes(1), "no successes": Successes(0), "none": Successes(0),
    "zero": Successes(0),
    "three": Number(3), "it's twelve": Number(12), "heads": Word("heads"),
    "it's heads": Word("heads"), "tails": Word("tails"), "merit": Word("merit"),
    "pass": Word("pass"), "curse seven": Word("curse", 7), "boon": Word("boon"),
    "yes": Word("yes"), "that's right": Word("yes"), "no": Word("no"), "wrong": Word("no"),
    "yup": Word("yes"), "yes, that's right": Word("yes"), "nah": Word("no"),
    "no, that's wrong": Word("no"), "not quite": Word("no"),
    "what now": "whatnow", "what are we waiting for": "whatnow", "spell it": "spell",
    "let me spell it": "spell", "keep": Word("keep"), "change": Word("change"),
    "S. A. L. Done.": Text("Sal"),
    "A. S. H. space. G. R. E. Y.": Text("Ash Grey"), "Sierra. Alpha. Lima. Done.": Text("Sal"),
    "O. apostrophe. B. R. I. E. N.": Text("O'Brien"),
}
#: in these moments "next" and "go on" are controls, not the game's Continue
CONTROL_MOMENTS = {"The narrator reads": {"next": "next"},
                   "Paused": {"next": "next", "go on": "resume"},
                   CHANGE_OFFERED: {"no": "no"}}


def readme_phrases() -> list[tuple[str, str]]:
    """(when, phrase) for every bold phrase in the table of README's "What you can say"."""
    text = README.read_text()
    section = text[text.index("## What you can say"):text.index("## Sessions")]
    out = []
    for row in re.findall(r"^\| (.+?) \| (.+) \|$", section, re.M):
        when, say = row
        out += [(when, phrase) for phrase in re.findall(r"\*\*(.+?)\*\*", say)]
    return out


PHRASES = readme_phrases()


def meaning_of(when: str, phrase: str):
    expected = CONTROL_MOMENTS.get(when, {}).get(phrase, MEANS[phrase])
    return Control(expected) if isinstance(expected, str) else expected


def test_the_readme_table_lists_every_moment_and_enough_phrases():
    assert {when for when, _ in PHRASES} == set(MOMENTS)
    assert len(PHRASES) >= 50


@pytest.mark.parametrize("when, phrase", PHRASES)
def test_every_readme_phrase_is_understood_when_typed(when, phrase):
    mode, expectation = MOMENTS[when]
    assert understand(phrase, expectation, mode) == meaning_of(when, phrase)


@pytest.mark.parametrize("when, phrase", PHRASES)
def test_every_readme_phrase_is_a_whole_phrase_of_the_voice_grammar(when, phrase):
    mode, expectation = MOMENTS[when]
    assert grammar(expectation, mode).matches(phrase)


@pytest.mark.parametrize("said, meaning", [
    ("Go back, please.", Control("back")), ("PAUSE!", Control("pause")),
    ("Next track.", Continue()), ("um, I rolled a 4 and a 9", Dice((4, 9))),
    ("I rolled an eight", Dice((8,))), ("Two sixes and a one.", Dice((6, 6, 1))),
    ("twenty-seven", Number(27)), ("It is heads.", Word("heads")), ("head", Word("heads")),
    ("Curse 4", Word("curse", 4)),
])
def test_transcripts_with_case_punctuation_digits_and_carriers_read_as_their_phrase(said, meaning):
    expectation = ask(AcceptContinue(), AcceptDice(12, 1, 3), AcceptNumber(20, 30),
                      AcceptWords(("heads", "tails"), ("curse",)))
    assert understand(said, expectation) == meaning


@pytest.mark.parametrize("talk", [
    "next round's on me", "yes, but only after lunch", "I would rather not go back there",
    "pause the movie when the pizza comes", "roll initiative everybody", "stop it you two",
    "three guys come out of the alley", "heads will roll", "help yourself to crisps",
    "please be quiet",  # to the children; also what Whisper writes for "please speak quieter"
])
def test_table_talk_with_command_words_is_neither_understood_nor_a_whole_phrase(talk):
    expectation = ask(AcceptContinue(), AcceptDice(12, 1, 3), AcceptSuccesses(5),
                      AcceptWords(("heads", "tails", "yes", "no")))
    for mode in ("asking", "reading", "paused", "confirming"):
        assert isinstance(understand(talk, expectation, mode), Unclear), (talk, mode)
        assert not grammar(expectation, mode).matches(talk), (talk, mode)


@pytest.mark.parametrize("said", ["-1", "1.5", "3.0", "-3", "\u22121", "\u20131", "+1", "- 1",
                                  ".5", "1\u00bd", "1,5", "four and -1", "2 and 1.5"])
def test_signed_or_fractional_numbers_are_not_numbers(said):
    expectation = ask(AcceptNumber(-5, 5), AcceptDice(6, 1, 3), AcceptSuccesses(5))
    assert isinstance(understand(said, expectation), Unclear)
    assert not grammar(expectation).matches(said)


def test_a_number_out_of_range_is_refused_with_the_reason():
    assert understand("seven", ask(AcceptDice(6))).reason == "7 is not a face of a 6-sided die."
    assert understand("four successes", ask(AcceptSuccesses(2))).reason == \
        "4 successes is more than there are dice (2)."
    assert understand("21", ask(AcceptNumber(1, 20))).reason == \
        "21 is out of range: say a number from 1 to 20."
    assert understand("one two three", ask(AcceptDice(6, 2, 2))).reason == \
        "I heard 3 dice; I need 2."
    assert not grammar(ask(AcceptDice(6))).matches("seven")


def test_each_mode_hears_only_its_controls():
    reading, paused = grammar(DICE, "reading"), grammar(DICE, "paused")
    assert reading.matches("louder") and reading.matches("four and nine")
    assert reading.matches("go back") and not reading.matches("resume")
    assert not reading.matches("undo") and not reading.matches("back")  # remarks fit them
    assert paused.matches("resume") and paused.matches("quit")
    assert not paused.matches("four and nine") and not paused.matches("slower")
    assert understand("go on", DICE, "paused") == Control("resume")
    assert understand("go on", DICE, "asking") == Control("next")
    assert isinstance(understand("status", DICE, "reading"), Unclear)


def test_a_word_choice_beats_a_control_with_the_same_words():
    assert understand("no", ask(AcceptWords(("yes", "no")))) == Word("no")
    assert understand("no", DICE, "confirming") == Control("no")
    assert isinstance(understand("no", DICE), Unclear)  # no yes/no question: not heard
    assert not grammar(ask(AcceptWords(("heads", "tails")))).matches("yes")
    assert not grammar(ask(AcceptNumber(1, 3))).matches("roll for me")  # nothing to roll
    assert understand("next phase", ask(AcceptWords(("next phase",)))) == Word("next phase")


def test_next_said_to_a_yes_or_no_at_a_question_that_waits_for_it_goes_on():
    """'Did you say "go back"?' asked where the game waits for "next": the table's "next" is
    the answer said instead; where the question waits for dice it is still no reply."""
    waits = ask(AcceptContinue(), AcceptWords(("end game",)))
    assert understand("next", waits, "confirming") == Continue()
    assert understand("yes", waits, "confirming") == Control("yes")
    assert isinstance(understand("next", DICE, "confirming"), Unclear)


def test_next_where_the_game_does_not_wait_is_the_one_choice_that_begins_with_it():
    """Blades' menus list "next phase": said in a noise, Whisper wrote it "next" (sure), and
    the game refused "next" as not an answer, four times in a row."""
    menu = ask(AcceptWords(("action", "clock", "next phase")))
    assert understand("next", menu) == Word("next phase")
    assert understand("next", menu, "reading") == Control("next")  # over the narration: skip
    assert understand("skip", menu) == Control("next")  # only "next" itself
    assert understand("next", ask(AcceptWords(("next phase",)), AcceptContinue())) == Continue()
    two = ask(AcceptWords(("next phase", "next segment")))
    assert understand("next", two) == Control("next")  # which one is not said


def test_free_text_is_taken_whole_but_controls_still_win():
    name = ask(AcceptText("name"))
    assert understand("Sal, a fence", name) == Text("Sal, a fence")
    assert understand("go back", name) == Control("back")
    # the full stop Whisper ends a transcript with is no part of a name read in later prompts
    assert understand("Falcon.", name) == Text("Falcon")
    assert understand("  Steal a jet  from Heathrow! ", name) == Text("Steal a jet from Heathrow")
    assert understand("Elsa, Evans,", name) == Text("Elsa, Evans")  # "Elsa, Evans,, what do..."
    read_back = ask(AcceptWords(("yes", "no")), AcceptText("name"))
    assert understand("No thanks.", read_back, "confirming") == Word("no")  # not a new name
    assert grammar(name).free and grammar(name, "reading").matches("pause")


def test_phrases_lists_every_whole_phrase_when_there_are_few():
    g = grammar(ask(AcceptWords(("heads", "tails"))), "paused")
    listed = g.phrases()
    assert "resume" in listed and "go on" in listed and "please resume" in listed
    assert all(g.matches(p) for p in listed)
    assert "heads" not in listed  # paused: no answers
    assert grammar(ask(AcceptDice(12, 1, 3))).phrases(limit=500) is None
    assert len(grammar(ask(AcceptWords(("heads", "tails")))).phrases(limit=10_000)) < 10_000


def test_a_grammar_key_names_its_phrases():
    assert grammar(DICE).key == grammar(DICE).key != grammar(DICE, "reading").key
    assert grammar(DICE, wake=True).matches("narrator four and nine")
    assert not grammar(DICE, wake=True).matches("four and nine")


def test_the_help_names_phrases_the_grammar_hears():
    for mode in ("asking", "reading", "paused", "confirming"):
        for label in controls(mode):
            said = label.replace(" N", " seven")
            assert grammar(None, mode).matches(said), (mode, label)
            assert not isinstance(understand(said, None, mode), Unclear), (mode, label)
    assert controls() == ["repeat", "go back", "status", "what now", "help", "pause", "resume",
                          "slower", "faster", "go to track N", "quit"]


def test_the_help_examples_are_understood_as_what_they_describe():
    dice, successes = ask(AcceptDice(8, 2, 2)), ask(AcceptSuccesses(4))
    for expectation in (dice, successes, ask(AcceptSuccesses(1)), ask(AcceptSuccesses(0))):
        for sentence in describe(expectation):
            for example in re.findall(r'"([^"]+)"', sentence):
                assert not isinstance(understand(example, expectation), Unclear), example
    assert describe(dice) == ['the faces of 2 8-sided dice, like "four and one", or "roll for me"']
    assert 'like "four, nine and two"' in describe(ask(AcceptDice(12, 3, 3)))[0]
    assert describe(dice, "paused") == []
    # an example the question takes: Slow Burn's one-die roll takes 0 or 1 success
    assert describe(ask(AcceptSuccesses(1)))[0].endswith('like "one success"')


@pytest.mark.parametrize("transcript, phrase", [
    ("Do 7 and 11.", "two seven and eleven"), ("Feds.", "heads"), ("Next.", "next"),
    ("Go back, please!", "go back please"), ("tales", "tails"),
])
def test_nearest_finds_the_phrase_of_a_garbled_transcript_even_in_a_huge_grammar(transcript,
                                                                                   phrase):
    g = grammar(ask(AcceptDice(12, 1, 3), AcceptWords(("heads", "tails"))))
    assert g.phrases() is None  # too many to list
    found = g.nearest(transcript, limit=3)
    assert found[0] == phrase and all(g.matches(p) for p in found)


def test_only_a_question_of_numbers_alone_has_its_nearest_dice_guessed():
    """Dice nearest a transcript's words are a fair guess where nothing but numbers answers;
    where a name or a word does too, espeak-ng's "Silas" written "See you in..." became the dice
    "three one" at Blades' action roll."""
    dice = AcceptDice(6, 2, 2)
    assert grammar(ask(dice)).numeric and grammar(ask(AcceptSuccesses(3), dice)).numeric
    assert not grammar(ask(dice, AcceptWords(("push", "silas")))).numeric
    assert not grammar(ask(dice), "confirming").numeric  # a read-back takes yes or no too
    assert not grammar(ask(AcceptText("name"))).numeric


def test_awaited_phrases_are_a_short_questions_choices_and_the_control_the_moment_waits_for():
    """What a recogniser that scores candidates weighs whatever it transcribed ("harm" said by
    a robotic voice and written "Time."; "pause" said as a question comes, written "Force?")."""
    harm = ask(AcceptWords(("harm", "complication", "reduced", "worse", "push effect")))
    assert grammar(harm).awaited() == ["harm", "complication", "reduced", "worse", "pause"]
    assert grammar(harm, wake=True).awaited() == ["narrator harm", "narrator complication",
                                                  "narrator reduced", "narrator worse",
                                                  "narrator pause"]
    assert grammar(harm, "paused").awaited() == ["resume"]  # a pause hears no answers
    assert grammar(harm, "reading").awaited()[-1] == "pause"
    assert "pause" not in grammar(harm, "confirming").awaited()  # yes, no, or the answer
    many = ask(AcceptWords(tuple("abcdefgh")))
    assert grammar(many).awaited() == ["pause"]
    assert grammar(ask(AcceptText("name"))).awaited() == []  # free text: a name may be "Paws"


def answers_awaited(g) -> list[str]:
    """The phrases ``g`` awaits, less the control its mode waits for."""
    return [p for p in g.awaited() if p not in g.awaited_control()]


def test_the_numbers_of_a_one_number_answer_are_awaited_while_asking():
    """Every face of the one die asked for is weighed (espeak-ng's "nine" written "Yeah, I"
    is scored as "nine"), and every number of a short range; while asking, and at a
    read-back (the answer said again: in noise Whisper wrote "two" as "Yeah."), not while
    reading; not where several dice may answer (a face alone would be a rival of "four two
    one"), nor for more numbers than a short list, nor for a coin, said "heads" or "tails"."""
    d6 = ask(AcceptWords(tuple("abcdefgh")), AcceptDice(6))
    assert answers_awaited(grammar(d6)) == ["one", "two", "three", "four", "five", "six"]
    assert answers_awaited(grammar(ask(AcceptDice(12))))[-1] == "twelve"
    assert answers_awaited(grammar(ask(AcceptNumber(0, 3), AcceptWords(("luck",))))) == \
        ["luck", "zero", "one", "two", "three"]
    assert grammar(d6, "confirming").awaited() == ["one", "two", "three", "four", "five", "six"]
    assert not {"one", "six"} & set(grammar(d6, "reading").awaited())
    assert answers_awaited(grammar(ask(AcceptDice(6, 1, 3)))) == []
    assert answers_awaited(grammar(ask(AcceptDice(20)))) == []
    assert answers_awaited(grammar(ask(AcceptNumber(1, 20)))) == []
    coin = ask(AcceptWords(("heads", "tails")), AcceptDice(2, faces=("heads", "tails")))
    assert answers_awaited(grammar(coin)) == ["heads", "tails"]  # not "one", "two"


def test_none_is_awaited_where_a_count_of_successes_answers_while_asking():
    """Slow Burn's mini job takes a count of successes or three dice: espeak-ng's "none" was
    written "Yeah." three times and typed; "none" is weighed while asking and at a read-back,
    not over the narration."""
    job = ask(AcceptSuccesses(3), AcceptDice(12, 3, 3))
    assert answers_awaited(grammar(job)) == ["none"] == grammar(job, "confirming").awaited()
    assert "none" not in grammar(job, "reading").awaited()


def test_the_voice_grammar_holds_track_numbers_to_the_tracks_the_game_has():
    """Slow Burn has 19 tracks, Blades none: "skip to track thirty" is then nothing a player
    could mean, and cannot outscore "thirteen"; typing still gets the reason for a refusal."""
    nineteen, none = grammar(DICE, tracks=19), grammar(DICE, tracks=0)
    assert nineteen.matches("skip to track thirteen") and nineteen.matches("track nineteen")
    assert not nineteen.matches("skip to track thirty") and not nineteen.matches("track twenty")
    assert not any(none.matches(p) for p in ("go to track one", "track three", "read track two"))
    assert grammar(DICE).matches("skip to track thirty")  # not told: up to MAX_TRACK
    assert understand("go to track twenty", DICE) == Control("goto", 20)


@pytest.mark.parametrize("written, apart", [
    ("421", "4 2 1"), ("553.", "5 5 3."), ("3.5", "3 5"), ("3-5.", "3 5."),
    ("Track 21.", "Track 2 1."), ("four two one", "four two one"), ("6, 2", "6, 2"),
])
def test_digits_a_recogniser_ran_together_are_set_apart(written, apart):
    """How Whisper writes dice said in a run ("four two one" as "421"); a variant it tries
    against the grammar when what it wrote is no phrase (voice/whisper.py)."""
    from narrator.understand.words import digits_apart

    assert digits_apart(written) == apart
