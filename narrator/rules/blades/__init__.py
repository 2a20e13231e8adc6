"""Blades in the Dark (SRD): the crew's phases, action rolls followed through to their
consequence, resistance and fortune rolls, stress, trauma, harm, armor, xp, rep and tier,
progress clocks, coin, stash and load, asked one question at a time.

The state is the phase, the question being asked (``ask``) with the answers so far, and the
crew's sheets. ``expects`` asks the current question (a waiting trauma choice comes first);
``apply`` checks the answer against what the question accepts, then lets the question's own
handler decide. See docs/blades.md for every question and rule choice.
"""

from __future__ import annotations

from typing import Any, Mapping

from narrator.events import Line
from narrator.rules.base import RulesInfo, Step
from narrator.rules.flow import Flow, FlowRules
# each flow module registers its questions and menu words when imported
from narrator.rules.blades import (  # noqa: F401
    action, advancement, clocks, consequence, downtime, fortune, ledger, phases, resist,
)
from narrator.rules.blades.clocks import read_clock
from narrator.rules.blades.flow import STEPS
from narrator.rules.blades.sheet import harm_words
from narrator.rules.blades.state import CREW_XP, REP_MAX, XP_TRACKS, State
from narrator.rules.options import Option, OptionSet


#: Blades has no end: the menu always comes back
FLOW = Flow(STEPS, over=lambda state: Line("reject.over"))


class BladesRules(FlowRules):
    flow = FLOW
    name = "blades"
    script = "blades"
    options = OptionSet(
        Option("stress_boxes", 9, "stress boxes on each scoundrel's sheet", low=1, high=18),
        Option("lair_coin", 4, "coin the lair holds (a vault raises it to 8 or 16)", low=1,
               high=16),
    )

    def start(self, options: Mapping[str, Any]) -> Step:
        merged = {**self.options, **options}
        state = State(stress_boxes=int(merged["stress_boxes"]),
                      lair_coin=int(merged["lair_coin"]))
        return Step(state, (Line("welcome"),))

    def status(self, state: State) -> tuple[Line, ...]:
        lines = [Line(f"status.{state.phase}", {"target": state.target, "plan": state.plan})]
        for i, c in enumerate(state.crew):
            kind = "dead" if c.dead else "retired" if c.retired else "character"
            lines.append(Line(f"status.{kind}", {
                "name": c.name, "stress": c.stress, "max": state.stress_boxes,
                "trauma": list(c.traumas) or "none", "harm": harm_words(state, i) or "none",
                "coin": c.coin, "stash": c.stash,
                "xp": ", ".join(f"{track} {c.marks(track)} of {size}"
                                for track, size in XP_TRACKS.items()),
                "armor": c.armor_left}))
            if state.phase == "score" and c.active:
                lines.append(Line("status.load", {"name": c.name, "load": c.load,
                                                  "items": c.items}))
        lines.append(Line("status.crew", {"coin": state.coin, "heat": state.heat,
                                          "rep": state.rep, "rep_max": REP_MAX,
                                          "tier": state.tier, "hold": state.hold,
                                          "xp": state.crew_xp, "xp_max": CREW_XP}))
        lines += [read_clock(c) for c in state.clocks]
        return tuple(lines)


RULES = BladesRules()
INFO = RulesInfo(
    rules=RULES,
    title="Blades in the Dark",
    summary="A crew of scoundrels: action, resistance and fortune rolls, stress, clocks, "
            "scores and downtime.",
    aliases=("blades-in-the-dark", "bitd"),
)
