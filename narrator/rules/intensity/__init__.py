"""Intensity System: conflict rounds of declared intensity and trait dice, impacts by rating.

The flow is a table of phases (``phases.PHASES``), each one question; docs/intensity.md lists
them with every rule choice.
"""

from __future__ import annotations

from typing import Any, Mapping

from narrator.events import GameInput, Line
from narrator.rules.base import Expectation, RulesInfo, Step
from narrator.rules.intensity import between, declare, exchange, held, impacts, setup  # noqa: F401
from narrator.rules.intensity.model import State
from narrator.rules.intensity.phases import PHASES, check
from narrator.rules.intensity.status import status
from narrator.rules.options import OptionSet


class IntensityRules:
    """The Rules interface over the phase table."""

    name = "intensity"
    script = "intensity"
    options = OptionSet()

    def start(self, options: Mapping[str, Any]) -> Step:
        return Step(State(phase="count"), (Line("said.welcome"),))

    def expects(self, state: State) -> Expectation:
        return PHASES[state.phase].ask(state)

    def apply(self, state: State, given: GameInput) -> Step:
        refused = check(state, self.expects(state), given)
        return refused or PHASES[state.phase].take(state, given)

    def status(self, state: State) -> tuple[Line, ...]:
        return status(state)


INFO = RulesInfo(
    rules=IntensityRules(),
    title="Intensity System",
    summary="Conflict rounds: declare target, intensity and trait; highest die acts first; "
            "impacts by rating.",
    aliases=("intensity-system",),
)
