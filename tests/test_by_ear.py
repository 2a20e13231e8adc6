"""The simulated table's ear (bench/by_ear.py): a free-text read-back passes when it sounds like
what the player said, and the table (bench/table.py) takes only free text that way."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")

import by_ear  # noqa: E402


#: what Whisper wrote for names players said in the table runs of 2026-11-23
SOUNDS_THE_SAME = [
    ("Kim, a hacker", "Kimah Hacker"),
    ("Kim, a hacker", "Kim of Hacker."),
    ("the Lampblacks' coal yard", "The Lem Blacks, Call Yard."),
    ("Love for Jila", "Love for Gila."),
    ("open the yard gate quietly", "Open the yard date quietly."),
    ("Cato, a smuggler", "Kato, a smuggler"),
    ("Social Manipulator", "So shall manipulate her."),
]
#: a word lost or changed: a player hears that it is not what they said
SOUNDS_DIFFERENT = [
    ("Kim, a hacker", "A hacker."),
    ("Kim, a hacker", "Again, the hacker."),
    ("Kim, a hacker", "Game a hacker."),
    ("the Lampblacks' coal yard", "The Lemplex Colliard."),
    ("the Lampblacks' coal yard", "The lamp lets go yard"),
    ("Love for Jila", "Love for healing."),
    # alike as a whole, but a name changed (names_kept)
    ("Love for Jila", "love for g-lit"),
    ("Marta, a forger", "Martin, a forger."),
    ("Ray, a police sergeant", "May the police sergeant."),
    ("Bad Temper", "Mad temper."),
]


@pytest.mark.parametrize("said,heard", SOUNDS_THE_SAME)
def test_a_read_back_spelled_otherwise_that_sounds_the_same_is_accepted(said, heard):
    assert by_ear.sounds_like(said, heard), by_ear.unlikeness(said, heard)


@pytest.mark.parametrize("said,heard", SOUNDS_DIFFERENT)
def test_a_read_back_that_lost_or_changed_a_word_is_rejected(said, heard):
    assert not by_ear.sounds_like(said, heard), by_ear.unlikeness(said, heard)


def test_the_same_words_in_any_case_and_punctuation_are_alike_and_other_words_far_apart():
    assert by_ear.unlikeness("Kim, a hacker", "kim a hacker") == 0
    assert by_ear.unlikeness("Kim, a hacker", "the coal yard") > 2 * by_ear.BAR


def test_one_vowel_for_another_costs_half_a_consonant():
    assert by_ear.distance("kIm", "kam") == 0.5
    assert by_ear.distance("kIm", "gIm") == 1
    assert by_ear.distance("kIm", "kIm@") == 1


def test_the_table_takes_by_ear_only_free_text():
    import table
    text = {"type": "Text", "text": "Kim, a hacker"}
    assert table.judged({"type": "Text", "text": "Kim, a Hacker"}, text) == "same"
    assert table.judged({"type": "Text", "text": "Kimah Hacker"}, text) == "by ear"
    assert table.judged({"type": "Text", "text": "A hacker."}, text) is None
    nine = {"type": "Dice", "faces": [9], "by_app": False}
    assert table.judged({"type": "Dice", "faces": [5], "by_app": False}, nine) is None
    assert table.judged({"type": "Word", "word": "no", "number": None},
                        {"type": "Word", "word": "know", "number": None}) is None


def test_a_change_offered_is_answered_for_what_was_said_before_what_sounds_like_it():
    """Blades: "Alarm" spelled right, then offered mended from the "Alair" heard when said
    aloud: a table keeps what it spelled."""
    import table

    def text(said):
        return {"type": "Text", "text": said}

    assert table.chosen(text("Alarm"), text("Alairm"), text("Alarm")) == "keep"
    assert table.chosen(text("Alire"), text("Alarm"), text("Alarm")) == "change"
    assert table.chosen(text("Bad Tdmpdr"), text("Bad Temper"), text("Bad Temper")) == "change"
    assert table.chosen(text("Kimah Hacker"), text("Keema Hacker"), text("Kim a hacker")) == \
        "change"  # both by ear: the change
    assert table.chosen(text("Alire"), text("Blue"), text("Alarm")) is None


def test_a_name_taken_by_ear_is_then_chosen_as_the_game_spells_it():
    import table
    wanted = {"type": "Word", "word": "social manipulator", "number": None}
    heard = {"type": "Word", "word": "shall manipulate her", "number": None}
    assert table.judged(heard, wanted) is None
    respelled = {"social manipulator": "So shall manipulate her."}
    assert table.judged(heard, wanted, respelled) == "by ear"
    other = {"type": "Word", "word": "quick wits", "number": None}
    assert table.judged(other, wanted, respelled) is None


def test_a_name_taken_by_ear_within_a_longer_answer_is_then_chosen_as_the_game_spells_it():
    """Slow Burn: the spy named "Cato, a smuggler" was taken by ear as "Kato, a smuggler"; the
    table's later "Cato" at a choice of spies, taken as "kato", is the same spy."""
    import table
    respelled = {"cato a smuggler": "Kato, a smuggler"}
    wanted = {"type": "Word", "word": "cato", "number": None}
    assert table.judged({"type": "Word", "word": "kato", "number": None}, wanted,
                        respelled) == "by ear"
    assert table.judged({"type": "Word", "word": "sal", "number": None}, wanted,
                        respelled) is None
    assert table.held_as("Cato", respelled) == "kato"


def test_a_table_says_none_another_way_once_it_was_missed_twice_and_spells_only_names():
    """After two misses the narrator says what it takes ("from 0 to 1"): a table whose "none"
    was missed twice says "zero" (espeak-ng's "none" is written "Yeah." every time)."""
    import table
    none = table.Step("none", {"type": "Successes", "count": 0}, [])
    assert [table.again(none, failed) for failed in range(4)] == ["none", "none", "zero", "zero"]
    name = table.Step("Cato", {"type": "Text", "text": "Cato"}, [])
    assert [table.again(name, failed) for failed in range(5)] == [
        "Cato", "Cato", "spell it", "spell it", "Cato"]
    two = table.Step("two", {"type": "Dice", "faces": [2], "by_app": False}, [])
    assert table.again(two, 3) == "two"
