"""Intensity System: conflict rounds of declared intensity and trait dice, impacts by rating.

The flow is a table of steps (``steps.STEPS``, run by narrator/rules/flow.py); docs/intensity.md
lists them with every rule choice.
"""

from __future__ import annotations

from typing import Any, Mapping

from narrator.events import Line
from narrator.rules.base import RulesInfo, Step
from narrator.rules.flow import Flow, FlowRules
from narrator.rules.intensity import between, declare, exchange, held, impacts, setup  # noqa: F401
from narrator.rules.intensity.model import State
from narrator.rules.intensity.steps import STEPS
from narrator.rules.intensity.status import status
from narrator.rules.options import OptionSet
from narrator.rules.why import with_whys


with_whys(STEPS, lambda key: "why." + key.removeprefix("ask.").removesuffix("_hopeless"))
FLOW = Flow(STEPS, over=lambda state: Line("ask.over"))


class IntensityRules(FlowRules):
    """The Rules interface over the step table."""

    flow = FLOW
    name = "intensity"
    script = "intensity"
    options = OptionSet()

    def start(self, options: Mapping[str, Any]) -> Step:
        return FLOW.start(State(todo=(("count",),)), Line("said.welcome"))

    def status(self, state: State) -> tuple[Line, ...]:
        return status(state)


INFO = RulesInfo(
    rules=IntensityRules(),
    title="Intensity System",
    summary="Conflict rounds: declare target, intensity and trait; highest die acts first; "
            "impacts by rating.",
    aliases=("intensity-system",),
)
