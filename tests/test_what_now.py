""""what now" at any point says in one sentence what the game waits for and why."""

import random

import pytest

from narrator.events import Continue, Control, Dice, Line, Number, Said, Utterance
from narrator.rules import registry
from narrator.rules.base import AcceptDice, AcceptWords
from narrator.rules.flow import ask
from narrator.script.loader import find_script, load_script
from narrator.script.render import render_line
from narrator.session.game import Session
from narrator.understand import understand, wanted
from test_loop_states import no_echo_tail, play  # noqa: F401 (the fixture)
from test_conformance import ENGINE_GAME, random_input, rules_and_script
from test_refusals import wrong_answers
from toy_game import INFO, SCRIPT


def game_session(game):
    info = registry.get(game)
    script = load_script(find_script(info.rules.script))
    return Session(registry.bound(info, script), script, {})


def said(session, text, mode="asking"):
    return session.hear(Utterance(text, understand(text, session.expectation, mode), 1.0, "text"))


def test_what_now_is_a_control_in_every_mode():
    for mode in ("asking", "reading", "paused", "confirming"):
        for text in ("what now", "What now?", "what are we waiting for", "what happens now"):
            assert understand(text, None, mode) == Control("whatnow"), (mode, text)


def test_ask_carries_why_filled_with_the_question_s_params():
    e = ask("ask.roll", AcceptDice(6), why="why.roll", guess="higher")
    assert e.why == Line("why.roll", {"guess": "higher"})
    assert ask("ask.roll", AcceptDice(6)).why is None
    assert ask("ask.x", AcceptDice(6), why=Line("y", {"a": 1})).why == Line("y", {"a": 1})


def test_wanted_names_the_answers_in_a_few_words():
    assert wanted(ask("q", AcceptDice(6, 2, 2))) == "the faces of 2 six-sided dice"
    assert wanted(ask("q", AcceptDice(8))) == "the face of an eight-sided die"
    assert wanted(ask("q", AcceptWords(("higher", "lower")))) == '"higher" or "lower"'
    many = tuple("abcdefg")  # more than a sentence can list: the question names them
    assert wanted(ask("q", AcceptWords(many))) == "one of the 7 words the question names"


def test_what_now_without_a_why_restates_the_question():
    session = Session(INFO, SCRIPT, {})
    out = said(session, "what now").said
    assert out == [Said('The game is waiting for "next", to answer: Say next when you are '
                        'ready.', "info")]


def test_what_now_says_why_when_the_game_gives_one():
    session = game_session("higher-lower")
    session.replay([Continue(), Number(3), Dice((4,))])
    [line] = said(session, "what now").said
    assert line.text.startswith('The game is waiting for "higher" or "lower": ')
    assert line.text.endswith(".") and line.text.count(". ") == 0  # one sentence


def test_what_now_while_a_read_back_waits_for_yes():
    session = Session(INFO, SCRIPT, {}, confirm=True)
    session.replay([Continue(), Number(2)])
    assert said(session, "3 and 4").record is None  # read back, waiting for yes
    [line] = said(session, "what now", "confirming").said
    assert line.text == "The game is waiting for yes or no: 3 and 4 counts once you say yes."


def test_what_now_over_the_narration_and_while_paused_says_so_first():
    session = Session(INFO, SCRIPT, {})
    assert session.what_now("reading")[0].text.startswith(
        'After this reading, the game is waiting for "next"')
    assert session.what_now("paused")[0].text.startswith(
        'Paused (say resume to go on), then the game is waiting for "next"')


def test_what_now_when_the_game_is_over():
    session = Session(INFO, SCRIPT, {})
    session.replay([Continue(), Number(2), Dice((1, 2)), Dice((3, 4)), Dice((5, 6))])
    assert [s.text for s in said(session, "what now").said] == ["Nothing: the game is over."]


def test_what_now_over_the_narration_answers_then_reads_on():
    _, _, session, mouth, *_ = play([("reading", "what now"), ("asking", "next")])
    at = next(i for i, t in enumerate(mouth.spoken) if t.startswith("After this reading"))
    assert mouth.spoken[at] == ('After this reading, the game is waiting for "next", to answer: '
                                'Say next when you are ready.')
    assert mouth.spoken[at + 1] == mouth.spoken[at - 1]  # the sentence it cut, again
    assert "Doubles don't count." in mouth.spoken[at:] and session.state.read_rules


def test_what_now_while_paused_answers_and_stays_paused():
    _, _, session, mouth, ears, _ = play(
        [("reading", "pause"), ("paused", "what now"), ("paused", "resume"), ("asking", "next")])
    assert any(t.startswith("Paused (say resume to go on), then the game is waiting for")
               for t in mouth.spoken)
    assert [m for m, _ in ears.heard].count("paused") == 2 and session.state.read_rules


def test_what_now_is_spoken_and_captioned_while_a_question_waits():
    transcript, _, session, mouth, *_ = play([("asking", "next"), ("asking", "what now")])
    line = "The game is waiting for a number from 2 to 4, to answer: How many players?"
    assert line in mouth.spoken and line in transcript


# --------------------------------------------------------------------------- in every game

GAMES = registry.names() + [ENGINE_GAME]


def points_of_play(game, seed=0, turns=60):
    """A session of ``game`` at its start, then after each of ``turns`` random answers."""
    rules, script = rules_and_script(game)
    info = (registry.for_script(script)[0] if game == ENGINE_GAME
            else registry.bound(registry.get(game), script))
    session, rng = Session(info, script, {}), random.Random(seed)
    yield session, script
    for _ in range(turns):
        expectation = session.expectation
        if expectation.over:
            return
        for _attempt in range(60):
            given = random_input(rng.choice(expectation.accepts), rng)
            if rules.apply(session.state, given).rejected is None:
                break
        else:
            return
        assert session.hear(Utterance(str(given), given, 1.0, "text")).record == given
        session.commit()
        yield session, script


def check_what_now(session, script, mode="asking"):
    """"what now" is one sentence naming what answers the question, and why (or, with no why,
    the question itself)."""
    expectation = session.expectation
    [line] = session.what_now(mode)
    assert line.kind == "info"
    assert wanted(expectation) in line.text
    because = expectation.why or expectation.prompt
    assert render_line(script, because).strip() in line.text
    return line.text


@pytest.mark.parametrize("game", GAMES)
def test_what_now_at_the_start_mid_question_after_a_refusal_and_paused(game):
    seen = 0
    for n, (session, script) in enumerate(points_of_play(game)):
        if session.expectation.over or (n > 2 and n % 7):
            continue
        before = check_what_now(session, script)
        assert check_what_now(session, script, "paused").startswith("Paused (say resume")
        wrong = next((w for w in wrong_answers(session.expectation)
                      if session.rules.apply(session.state, w).rejected is not None), None)
        if wrong is not None:
            assert session.hear(Utterance("x", wrong, 1.0, "text")).said[0].kind == "reject"
            assert check_what_now(session, script) == before  # a refusal changed nothing
        seen += 1
    assert seen >= 2, f"{game}: too few points of play checked"


@pytest.mark.parametrize("game", GAMES)
def test_every_question_of_every_game_says_why(game):
    missing = set()
    for seed in range(3):
        for session, script in points_of_play(game, seed, turns=200):
            expectation = session.expectation
            if not expectation.over and expectation.why is None:
                missing.add(expectation.prompt.key)
    assert not missing, f"{game}: questions with no why: {', '.join(sorted(missing))}"
