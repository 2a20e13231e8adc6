"""A free-text question tells the recogniser the proper nouns its answer may hold: the script's
``names`` and those in the table's earlier free-text answers (``Session.expectation``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from narrator.dice import Roller
from narrator.events import Utterance
from narrator.rules import registry
from narrator.script.loader import find_script, load_script
from narrator.session.game import Session, proper_nouns
from narrator.understand import AcceptText, understand

GOLDEN_IN = Path(__file__).parent / "golden" / "slow-burn.in"
INFO = registry.get("slow-burn")
SCRIPT = load_script(find_script(INFO.rules.script))


def names_asked(script=SCRIPT) -> list[tuple[str, tuple[str, ...]]]:
    """The golden table typed into a session: each free-text answer with the names its
    question carried."""
    session = Session(INFO, script, dict(INFO.rules.options), roller=Roller(7))
    session.opening()
    asked = []
    for line in GOLDEN_IN.read_text().splitlines():
        free = session.expectation.find(AcceptText)
        if free is not None:
            asked.append((line, free.names))
        outcome = session.hear(Utterance(line, understand(line, session.expectation), 1.0, "text"))
        if outcome.record is not None:
            session.commit()
    return asked


def test_a_free_text_question_carries_the_names_the_table_gave_before():
    asked = dict(names_asked())
    assert "Kim" not in asked["Kim, a hacker"]  # not yet said
    assert {"Ash", "Marta", "Joe"} <= set(asked["Kim, a hacker"])  # the spies named before
    assert "Kim" in asked["Sal, a fence"]


def test_the_scripts_names_come_first():
    script = dataclasses.replace(SCRIPT, names=("Vantablack", "Ostrova"))
    [(first, names), *_] = names_asked(script)
    assert names == ("Vantablack", "Ostrova")


def test_only_capitalised_words_that_are_names_count():
    assert proper_nouns(["the Lampblacks' coal yard", "The Red Sashes", "a fire"]) == (
        "Lampblacks", "Red", "Sashes")
