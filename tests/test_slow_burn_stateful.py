"""Slow Burn played at random through whole campaigns (Hypothesis stateful test).

Inputs are drawn from what ``expects()`` accepts; after every input the campaign must still make
sense: Opposition dice never negative, the segment within 1-7 and never going back inside a Job,
paths within 1-10, a legal input always there, something always said (or, after a "next", asked) and every word it
offers understood when spoken. Refused inputs change
nothing, and replaying the accepted inputs from ``start()`` rebuilds the live state ("back" and
resume depend on it).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from narrator.events import Continue, Dice, Number, Successes, Text, Word
from narrator.rules.base import (
    AcceptContinue, AcceptDice, AcceptNumber, AcceptSuccesses, AcceptText, AcceptWords,
)
from narrator.rules.slow_burn import INFO
from narrator.rules.slow_burn.state import CHOICES, JOB_SEGMENTS, PATH_END
from narrator.script.loader import find_script, load_script
from narrator.script.render import render
from narrator.understand import understand

RULES = INFO.rules
SCRIPT = load_script(find_script(RULES.script))


#: answers a table gives more often than not (so random play gets through several episodes)
USUAL = {"ask.another": "yes", "ask.respond": "respond", "ask.still_ignoring": "respond"}


def legal(accept, rng: random.Random, serial: int, asked: str = ""):
    """A random input that ``accept`` takes (the rules may still refuse it, e.g. a name in use)."""
    if isinstance(accept, AcceptContinue):
        return Continue()
    if isinstance(accept, AcceptDice):
        faces = tuple(rng.randint(1, accept.sides) for _ in range(accept.max_count))
        return Dice(faces, by_app=rng.random() < .5)
    if isinstance(accept, AcceptSuccesses):  # often all: only the spies' successes deplete
        return Successes(accept.max if rng.random() < .6 else rng.randint(0, accept.max))
    if isinstance(accept, AcceptNumber):
        return Number(rng.randint(accept.min, accept.max))
    if isinstance(accept, AcceptWords):
        usual = USUAL.get(asked)
        return Word(usual if usual and rng.random() < .8 else rng.choice(accept.words))
    assert isinstance(accept, AcceptText)
    return Text(f"Agent {serial % 7}")


def illegal(accept):
    """An input of the accepted kind that can never be right here, or None."""
    if isinstance(accept, AcceptDice):
        return Dice((accept.sides + 1,) * accept.max_count)
    if isinstance(accept, AcceptSuccesses):
        return Successes(accept.max + 1)
    if isinstance(accept, AcceptNumber):
        return Number(accept.max + 1)
    if isinstance(accept, AcceptWords):
        return Word("maybe")
    return None


@settings(max_examples=10, stateful_step_count=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
class SlowBurnCampaign(RuleBasedStateMachine):
    @initialize(options=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in CHOICES.items()}))
    def begin(self, options):
        self.options = options
        first = RULES.start(options)
        assert first.say
        self.state, self.inputs, self.serial = first.state, [], 0
        self.where = (0, 0)  # (episode, segment): the segment never goes back inside a Job

    @precondition(lambda self: not RULES.expects(self.state).over)
    @rule(seed=st.integers(0, 2**32 - 1), burst=st.integers(20, 150))
    def play(self, seed, burst):
        rng = random.Random(seed)
        for _ in range(burst):
            expectation = RULES.expects(self.state)
            if expectation.over:
                return
            for _attempt in range(50):
                self.serial += 1
                given = legal(rng.choice(expectation.accepts), rng, self.serial,
                              expectation.prompt.key)
                step = RULES.apply(self.state, given)
                if step.rejected is None:
                    break
                assert step.state == self.state
            else:
                raise AssertionError(f"no legal input found for {expectation.prompt}")
            # a "next" may lead straight to the next question (which the session asks)
            assert step.say or isinstance(given, Continue), \
                f"nothing said after {given} at {expectation.prompt}"
            for said in step.say:
                render(SCRIPT, said)  # every prompt and track exists, with every field
            self.state = step.state
            self.inputs.append(given)
            self.check()

    @precondition(lambda self: not RULES.expects(self.state).over)
    @rule(pick=st.integers(0, 5))
    def refuse_impossible(self, pick):
        accepts = RULES.expects(self.state).accepts
        given = illegal(accepts[pick % len(accepts)])
        if given is not None:
            step = RULES.apply(self.state, given)
            assert step.rejected is not None and step.state == self.state

    @precondition(lambda self: len(self.inputs) > 1)
    @rule()
    def back_is_a_replay_without_the_last_input(self):
        before = replay(self.options, self.inputs[:-1])
        assert RULES.apply(before, self.inputs[-1]).state == self.state

    def check(self):
        state = self.state
        assert state.opposition >= 0
        assert state.mini is None or state.mini.opposition >= 0
        assert all(1 <= s.path <= PATH_END for s in state.spies if s.path is not None)
        if state.episode:
            assert 1 <= state.segment <= JOB_SEGMENTS
            if state.episode == self.where[0]:
                assert state.segment >= self.where[1]
            self.where = (state.episode, state.segment)
        for line in RULES.status(state):
            render(SCRIPT, line)
        expectation = RULES.expects(state)
        render(SCRIPT, expectation.prompt)
        words = expectation.find(AcceptWords)
        for word in words.words if words else ():
            assert understand(word, expectation) == Word(word), f"{word!r} is not understood"

    def teardown(self):
        event(f"episode reached: {self.state.episode}")  # --hypothesis-show-statistics

    @invariant()
    def replaying_the_inputs_rebuilds_the_live_state(self):
        assert replay(self.options, self.inputs) == self.state


def replay(options, inputs):
    state = RULES.start(options).state
    for given in inputs:
        step = RULES.apply(state, given)
        assert step.rejected is None, f"{given} refused on replay"
        state = step.state
    return state


TestSlowBurnCampaign = pytest.mark.slow(SlowBurnCampaign.TestCase)  # a fuzzing campaign
