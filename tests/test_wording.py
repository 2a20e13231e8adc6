"""Words said right: articles ("an 8") and plurals ("1 die", "2 dice") in every game's lines."""

from pathlib import Path

from narrator.events import Line
from narrator.script.model import Prompt, Script, Where
from narrator.script.render import render_line
from narrator.understand import article, counted, with_article


def test_article_goes_by_the_sound_of_the_number_or_word():
    assert [with_article(n) for n in (1, 6, 8, 11, 18, 80, 800, 12)] == [
        "a 1", "a 6", "an 8", "an 11", "an 18", "an 80", "an 800", "a 12"]
    assert [article(w) for w in ("ace", "one", "unit", "hour", "spy", "eight-sided")] == [
        "an", "a", "a", "an", "a", "an"]


def test_counted_puts_the_noun_in_the_right_number():
    assert counted(1, "die", "dice") == "1 die"
    assert counted(2, "die", "dice") == "2 dice"
    assert counted(0, "point") == "0 points"


def test_a_prompt_field_takes_the_word_formats():
    script = Script(game="t", title="T", folder=Path("."), start="", tracks=(), prompts={
        "roll": Prompt("roll", "Roll {n:die/dice}; you need {face:a}.", Where("t.yaml", 1))})
    assert render_line(script, Line("roll", {"n": 1, "face": 8})) == "Roll 1 die; you need an 8."
    assert render_line(script, Line("roll", {"n": 3, "face": 6})) == "Roll 3 dice; you need a 6."
