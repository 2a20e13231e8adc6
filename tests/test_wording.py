"""Words said right: articles ("an 8") and plurals ("1 die", "2 dice") in every game's lines."""

import random
import re
import string
from collections import defaultdict
from pathlib import Path

import pytest

from narrator.dice import Roller
from narrator.events import Continue, Control, Line, Number, Utterance
from narrator.rules import registry
from narrator.rules.flow import ask
from narrator.script.diagnostics import Code
from narrator.script.lint import lint
from narrator.script.model import Prompt, Script, Where
from narrator.script.render import render_line
from narrator.session.game import Session
from narrator.understand import (
    AcceptDice, AcceptSuccesses, article, counted, understand, with_article,
)
from test_conformance import random_input, rules_and_script
from toy_game import INFO, SCRIPT


def test_article_goes_by_the_sound_of_the_number_or_word():
    assert [with_article(n) for n in (1, 6, 8, 11, 18, 80, 800, 12, "8-sided")] == [
        "a 1", "a 6", "an 8", "an 11", "an 18", "an 80", "an 800", "a 12", "an 8-sided"]
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


# --------------------------------------------------------------------------- every game's lines

#: count nouns, singular and plural, that a number may come before
NOUNS = {"die": "dice", "point": "points", "success": "successes", "turn": "turns",
         "round": "rounds", "card": "cards", "player": "players", "track": "tracks",
         "spy": "spies", "scene": "scenes", "token": "tokens", "dot": "dots",
         "tick": "ticks", "segment": "segments", "impact": "impacts", "wound": "wounds",
         "question": "questions", "answer": "answers", "vote": "votes", "episode": "episodes",
         "condition": "conditions", "item": "items", "activity": "activities"}
_COUNT = r"(?<![\w.,-])(\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
#: numbers a count may take in any line: one and many, and the ones said with "an"
SAMPLE_NUMBERS = (1, 2, 8, 11, 18)


def slips(text: str) -> list[str]:
    """Wrong articles and plurals in ``text``: "a 8", "an 6", "a insight", "1 dice", "2 die"."""
    found = [m.group(0) for m in re.finditer(r"(?<![\w'])(a|an|A|An) ([\w][\w-]*)", text)
             if article(m.group(2)) != m.group(1).lower()
             and (m.group(2)[0].isdigit() or m.group(2)[0].islower())]
    for one, many in NOUNS.items():
        found += [m.group(0) for m in re.finditer(_COUNT + rf" {many}\b", text)
                  if m.group(1) in ("1", "one")]
        found += [m.group(0) for m in re.finditer(_COUNT + rf" {one}\b(?![-'])", text)
                  if m.group(1) not in ("1", "one")
                  and not text[:m.start()].endswith("let ")]  # "let Ash die": a verb
    return found


def test_slips_finds_wrong_articles_and_plurals():
    assert slips("with a 8, an 6, a insight load, 1 dice, 3 die and 1 points") == [
        "a 8", "an 6", "a insight", "1 dice", "3 die", "1 points"]
    assert slips("with an 8, a 6, an 11-sided die, 1 die, 3 dice, the 1 point, a d8, a one") == []
    assert slips("ditch and let 2 die?") == []


def lines_heard(game: str, seeds=range(4)) -> tuple[object, list[Line]]:
    """Every Line a game says (prompts, whys, refusals, what it says, status) in random play."""
    rules, script = rules_and_script(game)
    heard: list[Line] = []
    for seed in seeds:
        rng = random.Random(seed)
        first = rules.start(dict(rules.options))
        state = first.state
        heard += [s for s in first.say if isinstance(s, Line)]
        for _ in range(300):
            expectation = rules.expects(state)
            heard += [line for line in (expectation.prompt, expectation.why) if line]
            if expectation.over:
                break
            for _attempt in range(60):
                step = rules.apply(state, random_input(rng.choice(expectation.accepts), rng))
                if step.rejected is None:
                    break
                heard.append(step.rejected)
            else:
                break
            heard += [s for s in step.say if isinstance(s, Line)]
            state = step.state
        heard += list(rules.status(state))
    return script, heard


def samples(script, heard: list[Line]):
    """Each prompt of the script filled every way play filled it, and with each number of
    SAMPLE_NUMBERS in every field play gave a number (a field play never filled: the values
    its name took in the game's other lines, or each number and a name). Values are told apart
    by their repr: a field may hold a list or a Line."""
    seen: dict[str, dict[str, dict]] = defaultdict(lambda: defaultdict(dict))
    for line in heard:
        for name, value in line.params.items():
            seen[line.key][name][repr(value)] = value
            seen[""][name][repr(value)] = value  # any line's
    fallback = {repr(v): v for v in ("Eve", *SAMPLE_NUMBERS)}
    for key, prompt in script.prompts.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(prompt.text) if f}
        values = {f: dict(seen[key].get(f) or seen[""].get(f) or fallback) for f in fields}
        for options in values.values():
            if any(isinstance(v, int) and not isinstance(v, bool) for v in options.values()):
                options.update({repr(n): n for n in SAMPLE_NUMBERS})
        base = {f: options[min(options)] for f, options in values.items()}
        for f, options in values.items():
            for value in options.values():
                yield key, {**base, f: value}


@pytest.mark.parametrize("game", registry.names())
def test_every_line_of_every_game_says_its_articles_and_plurals_right(game):
    script, heard = lines_heard(game)
    found = {}
    for key, params in samples(script, heard):
        text = render_line(script, Line(key, params))
        for slip in slips(text):
            found.setdefault((key, slip), text)
    assert not found, f"{game}: wording slips\n" + "\n".join(
        f"  {key}: {slip!r} in {text!r}" for (key, slip), text in found.items())


def test_the_understand_layer_s_own_reasons_say_articles_and_plurals_right():
    assert understand("nine", ask("q", AcceptDice(8))).reason == \
        "9 is not a face of an 8-sided die."
    assert understand("four", ask("q", AcceptDice(6, 2, 2))).reason == "I heard 1 die; I need 2."
    assert understand("one success", ask("q", AcceptSuccesses(0))).reason == \
        "1 success is more than there are dice (0)."


def test_a_field_format_that_is_no_word_format_is_NS019(tmp_path):
    script = tmp_path / "game.yaml"
    script.write_text('game: t\ntitle: T\nstart: a\ntracks:\n  - id: a\n    number: 1\n'
                      '    title: A\n    lines: ["Go."]\n    ending: true\nprompts:\n'
                      '  ok: "{n:die/dice} and {face:a}."\n  bad: "{n:>5}"\n')
    [found] = lint(tmp_path)
    assert found.code is Code.BAD_TEMPLATE and "{n:>5} is no word format" in found.message


def test_the_session_s_own_sentences_count_in_the_right_number():
    session = Session(INFO, SCRIPT, {}, roller=Roller(1))
    session.replay([Continue()])
    assert session.resumed()[0].text == "Resuming Toy after 1 input."
    info = registry.get("higher-lower")
    _rules, script = rules_and_script("higher-lower")
    session = Session(info, script, {}, roller=Roller(1))
    session.replay([Continue(), Number(3)])
    rolled = session.hear(Utterance("roll for me", Control("roll"), 1.0, "text")).said
    assert rolled[0].text.startswith("Rolled 1 die: ")
