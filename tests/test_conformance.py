"""The same random-play conformance test for every game (open_spiel style).

Random legal-looking inputs are drawn from what ``expects()`` says it accepts. Every step must
render (each Line has its prompt and fields), a refusal must leave the state unchanged, the game
must never get stuck, and replaying the accepted inputs must rebuild the live state.
"""

import random
from pathlib import Path

import pytest

from narrator.events import Continue, Dice, Number, Successes, Text, Word
from narrator.rules import registry
from narrator.rules.flow import REASONS, Flow, FlowRules
from narrator.rules.base import (
    AcceptContinue, AcceptDice, AcceptNumber, AcceptSuccesses, AcceptText, AcceptWords,
)
from narrator.script.loader import find_script, load_script
from narrator.events import Line
from narrator.script.render import render, render_line

NAMES = ("Ash", "Blue", "Cato", "Dee", "Eve")
#: a script played by the track engine (docs/script-format.md's walkthrough game)
ENGINE_GAME = str(Path(__file__).parent / "examples" / "lighthouse.yaml")


def rules_and_script(game):
    """A built-in game's rules and script, or the track engine's for a script path."""
    if game == ENGINE_GAME:
        info, script = registry.for_script(load_script(Path(game)))
        return info.rules, script
    info = registry.get(game)
    script = load_script(find_script(info.rules.script))
    return registry.bound(info, script).rules, script


def random_input(accept, rng):
    if isinstance(accept, AcceptContinue):
        return Continue()
    if isinstance(accept, AcceptDice):
        n = rng.randint(accept.min_count, accept.max_count)
        return Dice(tuple(rng.randint(1, accept.sides) for _ in range(n)), by_app=rng.random() < .5)
    if isinstance(accept, AcceptSuccesses):
        return Successes(rng.randint(0, accept.max))
    if isinstance(accept, AcceptNumber):
        return Number(rng.randint(accept.min, accept.max))
    if isinstance(accept, AcceptWords):
        word = rng.choice(accept.words + accept.numbered)
        return Word(word, rng.randint(0, 30) if word in accept.numbered else None)
    if isinstance(accept, AcceptText):
        return Text(rng.choice(NAMES))
    raise AssertionError(f"unknown accept spec {accept!r}")


@pytest.mark.parametrize("game", registry.names() + [ENGINE_GAME])
@pytest.mark.parametrize("seed", range(6))
def test_random_play_never_sticks_renders_every_line_and_replays(game, seed):
    rules, script = rules_and_script(game)
    rng = random.Random(seed)
    first = rules.start(dict(rules.options))
    state, accepted = first.state, []
    for say in first.say:
        render(script, say)
    for _ in range(400):
        expectation = rules.expects(state)
        render(script, expectation.prompt)
        if expectation.over:
            break
        for _attempt in range(60):
            given = random_input(rng.choice(expectation.accepts), rng)
            step = rules.apply(state, given)
            if step.rejected is None:
                break
            assert step.state == state, f"{game}: a refused {given} changed the state"
            render(script, step.rejected)
        else:
            pytest.fail(f"{game}: 60 random inputs in a row refused at {expectation.prompt}")
        for say in step.say:
            render(script, say)
        state = step.state
        accepted.append(given)
    replayed = rules.start(dict(rules.options)).state
    for given in accepted:
        replayed = rules.apply(replayed, given).state
    assert replayed == state, f"{game}: replaying the inputs does not rebuild the state"
    for line in rules.status(state):
        render(script, line)


@pytest.mark.parametrize("game", registry.names())
def test_every_game_runs_on_the_flow_kernel(game):
    rules = registry.get(game).rules
    assert isinstance(rules, FlowRules) and isinstance(rules.flow, Flow), (
        f"{game} does not run on narrator/rules/flow.py")


@pytest.mark.parametrize("game", registry.names())
def test_every_game_words_every_reason_the_flow_refuses_with(game):
    script = load_script(find_script(registry.get(game).rules.script))
    for key, fields in REASONS.items():
        text = render_line(script, Line(key, {f: 7 for f in fields}))
        assert text.strip(), f"{game}: {key} says nothing"
