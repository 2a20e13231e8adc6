"""The understanding layer as the ears use it: spoken forms, homophones, and fuzzing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.events import Continue, Control, Dice, Successes, Unclear, Word
from narrator.understand import AcceptDice, AcceptSuccesses
from narrator.understand import understand
from narrator.voice.hear import FULL, command_of


@pytest.mark.parametrize("said, command", [
    ("next", "next"), ("go back", "back"), ("roll for me", "roll"), ("heads", "heads"),
    ("curse", "curse"), ("boon", "boon"), ("go to track seven", "goto 7"),
    ("track twelve", "goto 12"), ("three successes", "successes 3"),
    ("no successes", "successes 0"), ("four and nine", "dice 4 9"),
    ("a six and a six", "dice 6 6"), ("two, seven and eleven", "dice 2 7 11"),
    ("to and for", "dice 2 4"), ("4 9", "dice 4 9"),
])
def test_spoken_forms_give_their_command(said, command):
    assert command_of(understand(said, FULL)) == command


@pytest.mark.parametrize("said", ["next time", "three guys come out of the alley",
                                  "roll initiative everybody", "seven dwarves"])
def test_table_talk_is_no_command(said):
    assert isinstance(understand(said, FULL), Unclear)


def test_faces_outside_the_die_are_refused():
    d6 = FULL.__class__(FULL.prompt, (AcceptDice(6, 1, 2),))
    assert isinstance(understand("seven", d6), Unclear)
    assert understand("six", d6) == Dice((6,))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_understand_never_raises_on_any_string(text):
    assert isinstance(understand(text, FULL), (Unclear, Control, Continue, Dice, Successes, Word))


@settings(max_examples=150, deadline=None)
@given(sides=st.integers(2, 20), faces=st.lists(st.integers(0, 40), min_size=1, max_size=3))
def test_dice_outside_the_die_are_refused_and_inside_accepted(sides, faces):
    expect = FULL.__class__(FULL.prompt, (AcceptDice(sides, 1, 3),))
    result = understand(" and ".join(map(str, faces)), expect)
    if all(1 <= f <= sides for f in faces):
        assert result == Dice(tuple(faces))
    else:
        assert isinstance(result, Unclear)


@settings(max_examples=100, deadline=None)
@given(most=st.integers(0, 12), count=st.integers(0, 30))
def test_success_counts_above_the_pool_are_refused(most, count):
    expect = FULL.__class__(FULL.prompt, (AcceptSuccesses(most),))
    result = understand(f"{count} successes", expect)
    if count <= most:
        assert result == Successes(count)
    else:
        assert isinstance(result, Unclear)
