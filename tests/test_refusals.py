"""Every refusal, in every game, says why and then asks the question again.

The reasons a game's rules raise (``Refused("key", ...)`` in its package) are each worded in its
script; in random play, every refused input is answered by the session with exactly the reason
and then the question; and the session's own refusals (nothing to take back, no track 99, "next"
while a question waits) do the same.
"""

import ast
import importlib
import io
import random
import string
from pathlib import Path

import pytest

from narrator.events import Continue, Control, Dice, Line, Number, Utterance, Word
from narrator.rules import registry
from narrator.rules.base import AcceptContinue, AcceptDice, AcceptNumber, AcceptWords
from narrator.script.render import render_line
from narrator.session.console import Captions, TextEars
from narrator.session.game import Session
from narrator.session.loop import run
from narrator.understand import normalise
from test_conformance import ENGINE_GAME, random_input, rules_and_script
from test_session_loop import MemoryJournal
from toy_game import INFO, SCRIPT


def raised_reasons(game: str) -> list[tuple[str, set[str], str]]:
    """Each ``Refused(key, **fields)`` in the game's rules package: (key, fields, file:line); an
    f-string key gives its fixed start, and fields passed as ``**mapping`` give None."""
    package = Path(importlib.import_module(registry.GAMES[game]).__file__).parent
    found = []
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refused":
                first = node.args[0] if node.args else None
                fields = ({k.arg for k in node.keywords} if all(k.arg for k in node.keywords)
                          else None)
                where = f"{path.name}:{node.lineno}"
                if isinstance(first, ast.Constant):
                    found.append((first.value, fields, where))
                elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                    found.append((first.values[0].value + "*", fields, where))
    return found


@pytest.mark.parametrize("game", registry.names())
def test_every_reason_a_game_raises_is_worded_in_its_script(game):
    _rules, script = rules_and_script(game)
    for key, fields, where in raised_reasons(game):
        if key.endswith("*"):
            assert any(k.startswith(key[:-1]) for k in script.prompts), (
                f"{game} {where}: no prompt starts {key[:-1]!r}")
            continue
        assert key in script.prompts, f"{game} {where}: {key!r} is not worded in its script"
        if fields is None:  # every field the prompt names
            fields = {f for _, f, _, _ in string.Formatter().parse(script.prompts[key].text) if f}
        assert render_line(script, Line(key, {f: 7 for f in fields})).strip(), (
            f"{game} {where}: {key!r} says nothing")


def wrong_answers(expectation):
    """Answers the question cannot take: a number past its range, a face past the die, a word
    it does not offer, "next" where it does not just wait."""
    for a in expectation.accepts:
        if isinstance(a, AcceptNumber):
            yield Number(a.max + 1)
        elif isinstance(a, AcceptDice):
            yield Dice((a.sides + 1,) * a.min_count)
        elif isinstance(a, AcceptWords):
            yield Word("nonsense")
    if not expectation.find(AcceptContinue):
        yield Continue()


@pytest.mark.parametrize("game", registry.names())
def test_every_refused_answer_is_met_with_the_reason_then_the_question(game):
    rules, script = rules_and_script(game)
    info = registry.bound(registry.get(game), script)
    reasons = set()
    for seed in range(2):
        rng = random.Random(seed)
        session = Session(info, script, {})
        for _ in range(200):
            expectation = session.expectation
            if expectation.over:
                break
            question = render_line(script, expectation.prompt)
            tries = list(wrong_answers(expectation)) + [
                random_input(rng.choice(expectation.accepts), rng) for _ in range(60)]
            for given in tries:
                step = rules.apply(session.state, given)
                if step.rejected is None:
                    break
                said = session.hear(Utterance(str(given), given, 1.0, "text")).said
                reason = render_line(script, step.rejected)
                assert [(s.kind, s.text) for s in said] == [("reject", reason),
                                                            ("prompt", question)], game
                assert reason.strip() and reason != question, (game, step.rejected)
                reasons.add(step.rejected.key)
            else:
                break
            assert session.hear(Utterance(str(given), given, 1.0, "text")).record == given
            session.commit()
    assert len(reasons) >= 3, f"{game}: random play met too few refusals: {reasons}"


@pytest.mark.parametrize("control, arg, reason", [
    ("back", None, "There is nothing to take back yet."),
    ("goto", 99, "There is no track 99; this game has tracks 1 to 2."),
    ("next", None, "The game needs an answer before it goes on."),
    ("yes", None, '"yes" is not an answer to this question.'),
    ("roll", None, "There is nothing to roll right now."),
])
def test_the_session_s_own_refusals_say_why_then_ask_again(control, arg, reason):
    session = Session(INFO, SCRIPT, {})
    if control != "back":
        session.replay([Continue()])
    question = render_line(SCRIPT, session.expectation.prompt)
    said = session.hear(Utterance(control, Control(control, arg), 1.0, "text")).said
    assert [(s.kind, s.text) for s in said] == [("reject", reason), ("prompt", question)]
    assert session.inputs == ([] if control == "back" else [Continue()])


@pytest.mark.parametrize("typed", ["-1", "1.5", "\u22121", "+1", "- 1", ".5", "1\u00bd"])
def test_a_signed_or_fractional_number_typed_is_refused_never_taken(typed):
    info = registry.get("higher-lower")
    _rules, script = rules_and_script("higher-lower")
    out = io.StringIO()
    session = Session(info, script, {})
    captions = Captions(out)
    run(session, TextEars(io.StringIO(f"next\n{typed}\n"), echo=True, captions=captions),
        captions, MemoryJournal())
    assert session.inputs == [Continue()]  # the number of rounds is still to come
    assert (f'"{normalise(typed)}" doesn\'t answer this question: it takes a number from 1 to 5.\n'
            f"How many rounds? Say a number from 1 to 5.\n") in out.getvalue()


#: what each reason of the kernel that any game can meet must name (any one of the sets of
#: fields): what the question takes, or the range it was out of, or the word refused (the
#: question said after it names the choices)
NAMES = {"reject.not_now": [{"takes"}], "reject.blank": [{"takes"}],
         "reject.number": [{"min", "max"}, {"takes"}], "reject.word": [{"word"}]}


@pytest.mark.parametrize("game", registry.names() + [ENGINE_GAME])
def test_every_game_s_refusals_say_what_the_question_takes(game):
    _rules, script = rules_and_script(game)
    for key, needs in NAMES.items():
        text = script.prompts[key].text
        fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        assert any(need <= fields for need in needs), f"{game}: {key} ({text!r}) names no " \
            f"{' or '.join('/'.join(sorted(n)) for n in needs)}"
