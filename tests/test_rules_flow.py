"""The flow kernel: steps run in queue order, inputs are checked once, refusals change nothing."""

from dataclasses import dataclass

import pytest

from narrator.events import Continue, Dice, Line, Number, Successes, Text, Word
from narrator.rules.base import (
    AcceptContinue, AcceptDice, AcceptNumber, AcceptSuccesses, AcceptText, AcceptWords,
)
from narrator.rules.flow import REASONS, Flow, Refused, Steps, ask, check, push
from narrator.understand import wanted


@dataclass(frozen=True)
class S:
    todo: tuple = (("hello",), ("pick", 3))
    log: tuple = ()


STEPS = Steps()


@STEPS.action("hello")
def _hello(s):
    return S(s.todo, s.log + ("hello",)), (Line("hi"),)


@STEPS.question("pick", lambda s, most: ask("ask.pick", AcceptNumber(1, most), most=most))
def _pick(s, given, most):
    if given.value == 2:
        raise Refused("reject.two", most=most)
    return push(S(s.todo, s.log + (given.value,)), ("bye",)), ()


@STEPS.action("bye")
def _bye(s):
    return s, (Line("bye"),)


FLOW = Flow(STEPS, over=lambda s: Line("over"))


def test_start_runs_actions_up_to_the_first_question_and_asks_it_with_its_args():
    step = FLOW.start(S(), Line("welcome"))
    assert step.say == (Line("welcome"), Line("hi"))
    assert FLOW.expects(step.state).prompt == Line("ask.pick", {"most": 3})


def test_an_answer_pops_its_step_and_runs_on_to_the_end():
    state = FLOW.start(S()).state
    step = FLOW.apply(state, Number(3))
    assert step.rejected is None and step.state.log == ("hello", 3)
    assert step.say == (Line("bye"),) and FLOW.expects(step.state).over
    assert FLOW.expects(step.state).prompt == Line("over")
    assert FLOW.apply(step.state, Number(1)).rejected == Line("reject.over")


def test_a_step_s_own_refusal_and_the_kernel_s_check_keep_the_state():
    state = FLOW.start(S()).state
    mine = FLOW.apply(state, Number(2))
    assert mine.state is state and mine.rejected == Line("reject.two", {"most": 3})
    checked = FLOW.apply(state, Number(9))
    assert checked.state is state
    assert checked.rejected == Line("reject.number", {"value": 9, "min": 1, "max": 3,
                                                      "takes": "a number from 1 to 3"})


@pytest.mark.parametrize("accepts, given, reason", [
    ((AcceptContinue(),), Number(1), "reject.not_now"),
    ((AcceptDice(6, 2, 2),), Dice((7, 1)), "reject.face"),
    ((AcceptDice(6, 2, 2),), Dice((3,)), "reject.dice_count"),
    ((AcceptSuccesses(2),), Successes(3), "reject.successes"),
    ((AcceptNumber(0, 3), AcceptNumber(5, 6)), Number(4), "reject.number"),
    ((AcceptWords(("heads", "tails")),), Word("edge"), "reject.word"),
    ((AcceptWords(("pass",), numbered=("curse",)),), Word("pass", 3), "reject.word"),
    ((AcceptText(),), Text("  "), "reject.blank"),
])
def test_check_names_why_an_input_does_not_answer(accepts, given, reason):
    line = check(ask("q", *accepts), given)
    assert line is not None and line.key == reason
    assert set(line.params) == set(REASONS[reason])
    assert line.params["takes"] == wanted(ask("q", *accepts))  # what it takes, for the reason


@pytest.mark.parametrize("accepts, given", [
    ((AcceptContinue(),), Continue()),
    ((AcceptDice(12, 1, 3),), Dice((12, 1))),
    ((AcceptSuccesses(2),), Successes(0)),
    ((AcceptNumber(0, 3), AcceptNumber(5, 6)), Number(6)),
    ((AcceptWords(("pass",), numbered=("curse",)),), Word("curse", 7)),
    ((AcceptText(),), Text("Ash")),
])
def test_check_passes_a_legal_answer(accepts, given):
    assert check(ask("q", *accepts), given) is None


def test_a_step_declared_twice_is_an_error():
    steps = Steps()
    steps.action("x")(lambda s: (s, ()))
    with pytest.raises(ValueError, match="'x' is declared twice"):
        steps.action("x")(lambda s: (s, ()))


# --------------------------------------------------------------------------- briefly


@dataclass(frozen=True)
class H:
    todo: tuple = (("note",), ("count",), ("note",), ("count",))
    heard: tuple = ()


SHORT = Steps()


@SHORT.action("note")
def _note(h):
    return h, (Line("said.note"),)


@SHORT.question("count", lambda h: ask("ask.count", AcceptNumber(1, 3)))
def _count(h, given):
    return h, ()


BRIEFLY = Flow(SHORT, over=lambda h: Line("over"), briefly=True)


def test_a_flow_said_briefly_says_each_sentence_in_full_until_it_is_heard_then_briefly():
    step = BRIEFLY.start(H())
    assert [s.brief for s in step.say] == [False]
    assert not BRIEFLY.expects(step.state).prompt.brief
    refusal = BRIEFLY.apply(step.state, Number(9))  # refused: the question was not answered
    assert refusal.state == step.state and not BRIEFLY.expects(refusal.state).prompt.brief
    after = BRIEFLY.apply(step.state, Number(1))
    assert [s.brief for s in after.say] == [True]
    assert BRIEFLY.expects(after.state).prompt.brief
    assert after.state.heard == ("said.note", "ask.count")


def test_a_flow_not_said_briefly_says_every_sentence_in_full_every_time():
    full = Flow(SHORT, over=lambda h: Line("over"))
    after = full.apply(full.start(H()).state, Number(1))
    assert [s.brief for s in after.say] == [False] and not full.expects(after.state).prompt.brief
