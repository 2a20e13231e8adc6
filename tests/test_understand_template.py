"""The template language under the phrases: [optional], (a | b), {slot}, a/an spellings."""

from __future__ import annotations

import pytest

from narrator.understand import template as t


def said(template: str, **slots) -> set[str]:
    return {" ".join(p) for p in t.enumerate_phrases(t.expand(t.parse(template, **slots)))}


def test_optional_parts_alternatives_and_slots_give_every_phrase():
    assert said("[please] pause") == {"pause", "please pause"}
    assert said("(go | come) back [now]") == {"go back", "come back", "go back now",
                                              "come back now"}
    assert said("track {n}", n=("num", "n", 1, 3)) == {"track one", "track two", "track three"}


def test_a_second_spelling_is_read_but_not_said():
    expr = t.expand(t.parse("[a/an] eight"))
    assert said("[a/an] eight") == {"eight", "a eight"}
    assert t.MORE not in t.ends(expr, ["an", "eight"]) and 2 in t.ends(expr, ["an", "eight"])
    assert "an" not in t.jsgf(expr) and t.words_of(expr) == {"a", "eight"}


def test_a_number_slot_is_held_to_its_range_strictly_but_read_out_of_range_leniently():
    expr = t.parse("{n} successes", n=("num", "n", 0, 3))
    assert 2 not in t.ends(t.expand(expr), ["seven", "successes"])
    assert t.parse_text(expr, ["seven", "successes"]) == (0, (("n", 7),))
    assert t.parse_text(expr, ["twenty", "seven", "successes"]) == (0, (("n", 27),))


def test_carriers_are_skipped_leniently_and_fewest_skips_win():
    expr = t.parse("[a] {n}", n=("num", "n", 1, 6))
    assert t.parse_text(expr, ["um", "a", "four"]) == (1, (("n", 4),))
    assert t.parse_text(expr, ["four", "please"]) == (1, (("n", 4),))
    assert t.parse_text(expr, ["four", "biscuits"]) is None


def test_a_dice_list_counts_groups_and_is_held_to_its_size_strictly():
    single = t.parse("[a] {face}", face=("num", "face", 1, 6))
    group = t.parse("{count} {faces}", count=("num", "count", 2, 3),
                    faces=("plural", "faces", 1, 6))
    dice = ("list", 2, 3, single, group, t.opt(t.W("and")))
    strict = t.expand(dice)
    assert 5 in t.ends(strict, "two sixes and a one".split())
    assert 2 not in t.ends(strict, ["four", "nine"])  # no nine on a d6
    assert 4 not in t.ends(strict, "one two three four".split())  # four dice: too many
    assert t.parse_text(dice, "one two three four".split())[1] == tuple(
        ("face", n) for n in (1, 2, 3, 4))  # read, so the matcher can say how many it heard


@pytest.mark.parametrize("bad", ["[please pause", "(a | b", "a ] b", "pause )"])
def test_an_unbalanced_template_is_refused(bad):
    with pytest.raises(ValueError):
        t.parse(bad)
