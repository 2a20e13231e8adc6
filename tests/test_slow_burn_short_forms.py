"""Slow Burn said short: each question and read-back in full the first time an episode, then its
short form; "repeat" and a refused answer give the whole sentence again."""

from __future__ import annotations

import re
from pathlib import Path
from string import Formatter

from narrator.dice import Roller
from narrator.events import Control, Dice, Line, Utterance
from narrator.rules import registry
from narrator.script.loader import find_script, load_script
from narrator.script.render import render_line
from narrator.session.game import Session
from narrator.understand import understand

GOLDEN_IN = Path(__file__).parent / "golden" / "slow-burn.in"
INFO = registry.get("slow-burn")
SCRIPT = load_script(find_script(INFO.rules.script))


def job_roll_prompts(count: int):
    """The golden table typed into a session until the Job roll has been asked ``count`` times:
    the session and each of those prompts as said (a Said) with the Line it came from."""
    session = Session(INFO, SCRIPT, dict(INFO.rules.options), roller=Roller(7))
    said, asked = session.opening(), []
    for line in GOLDEN_IN.read_text().splitlines():
        prompt = session.expectation.prompt
        if prompt.key == "ask.job_roll":
            asked.append((said[-1], prompt))
            if len(asked) == count:
                return session, asked
        outcome = session.hear(Utterance(line, understand(line, session.expectation), 1.0, "text"))
        said = session.commit() if outcome.record is not None else outcome.said
    raise AssertionError(f"the golden playthrough asks for a Job roll fewer than {count} times")


def test_the_second_job_roll_of_an_episode_is_asked_short_and_repeat_says_it_whole():
    session, [(first, first_line), (second, line)] = job_roll_prompts(2)
    assert first.text == render_line(SCRIPT, first_line)  # "Ash, roll 1 Job die, 2 or under."
    whole = render_line(SCRIPT, line)
    assert second.text == render_line(SCRIPT, Line("ask.job_roll.short", line.params))
    assert len(second.text) < len(whole) and second.full == whole
    repeated = session.hear(Utterance("repeat", Control("repeat"), 1.0, "text")).said
    assert repeated[-1].text == whole and second.text not in [s.text for s in repeated]


def test_a_refused_roll_hears_why_then_the_whole_question():
    session, [_, (second, line)] = job_roll_prompts(2)
    faces = (1,) * (line.params["dice"] + 1)  # one die too many
    said = session.hear(Utterance("", Dice(faces), 1.0, "text")).said
    assert said[0].kind == "reject" and "I need exactly" in said[0].text
    assert said[-1].text == render_line(SCRIPT, line) != second.text


def test_a_session_resumed_on_another_evening_hears_the_whole_question():
    played, [_, (second, line)] = job_roll_prompts(2)
    session = Session(INFO, SCRIPT, dict(INFO.rules.options), roller=Roller(7))
    session.replay(played.inputs)
    assert session.resumed()[-1].text == render_line(SCRIPT, line) != second.text


def fields(text: str) -> set[str]:
    return {re.split(r"[:!.\[]", name)[0] for _, name, _, _ in Formatter().parse(text) if name}


def test_every_short_form_stands_for_a_sentence_and_is_shorter_with_no_field_of_its_own():
    shorts = {key: p for key, p in SCRIPT.prompts.items() if key.endswith(".short")}
    assert len(shorts) >= 20
    for key, short in shorts.items():
        whole = SCRIPT.prompts.get(key.removesuffix(".short"))
        assert whole is not None, f"{key} is the short form of no sentence"
        assert fields(short.text) <= fields(whole.text), key
        assert len(short.text) < len(whole.text), key
