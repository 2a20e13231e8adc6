"""Slow Burn (Leo Lalande, Game Chef 2009): blacklisted spies work a Job of seven segments
while the Agency interferes, and each episode every spy Pushes for Freedom.

The rules are pure: the flow is the step table in ``steps`` run by narrator/rules/flow.py, the
text in ``scripts/slow_burn/``. Table choices are named options, documented in docs/slow-burn.md.
"""

from __future__ import annotations

from typing import Any, Mapping

from narrator.events import Line
from narrator.rules.base import RulesInfo, Step
from narrator.rules.flow import Flow, FlowRules
from narrator.rules.options import Option, OptionSet
from narrator.rules.slow_burn import agency, job, mini, setup  # noqa: F401  (declare steps)
from narrator.rules.slow_burn.state import CHOICES, MEANINGS, Options, State
from narrator.rules.slow_burn.steps import STEPS
from narrator.rules.slow_burn.status import status


FLOW = Flow(STEPS, over=lambda state: Line("ask.over"), briefly=True)


class SlowBurn(FlowRules):
    """The Rules interface for Slow Burn."""

    flow = FLOW
    name = "slow-burn"
    script = "slow_burn"
    options = OptionSet(*(Option(name, values[0], MEANINGS[name], choices=values)
                          for name, values in CHOICES.items()))

    def start(self, options: Mapping[str, Any]) -> Step:
        return FLOW.start(State(Options.parse(options), todo=(("welcome", -1),)))

    def status(self, state: State) -> tuple[Line, ...]:
        return status(state)


INFO = RulesInfo(
    rules=SlowBurn(),
    title="Slow Burn",
    summary="Blacklisted spies take a Job in seven segments and push to get off the blacklist.",
    aliases=("slowburn", "slow burn"),
)
