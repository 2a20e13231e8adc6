"""Hell for Leather (playtest 0.9): team vs team or co-op, played hands-free.

The table throws the dice at the Conflict Target and says what each did; these rules keep the
teams, the Narrator Cups, the Heat, Drive, Felonies, Hunters, Victory Points, Goals and the
Finale. docs/hell-for-leather.md lists every decision point and rule choice.
"""

from __future__ import annotations

from typing import Any, Mapping

from narrator.events import Line
from narrator.rules.base import RulesInfo, Step
from narrator.rules.flow import Flow, FlowRules
from narrator.rules.hell_for_leather import (  # noqa: F401  (each declares its steps)
    consequences, conflict, finale, setup, storm, turn,
)
from narrator.rules.hell_for_leather.steps import STEPS
from narrator.rules.hell_for_leather.model import DRIVE, State, heat_status
from narrator.rules.options import Option, OptionSet
from narrator.rules.why import with_whys

OPTIONS = OptionSet(
    Option("exams", False, "Appendix B: exam winners' spare Drive circle, Team A starts with 1 VP"),
    Option("felony_stars", 6, "length of the Felony rank track (the sheet is not in the text)",
           low=1, high=20),
)


def _flag(value: Any) -> bool:
    return value if isinstance(value, bool) else str(value).strip().lower() in ("1", "true", "yes", "on")


#: the why of a question whose prompt family says too little ("goal" asks to buy, not reward)
WHY = {"goal.reward": "why.goal_reward", "heal.who": "why.goal_reward"}
with_whys(STEPS, lambda key: WHY.get(key, "why." + key.split(".")[0]))
#: each prompt in full until the table has heard it once, then its short form (flow.py)
FLOW = Flow(STEPS, over=lambda s: Line(f"over.{s.outcome or 'lost'}"), briefly=True)


class HellForLeather(FlowRules):
    flow = FLOW
    name = "hell-for-leather"
    script = "hell_for_leather"
    options = OPTIONS

    def start(self, options: Mapping[str, Any]) -> Step:
        opts = {**OPTIONS, **(options or {})}
        s = State(todo=setup.first_steps(), exams=_flag(opts["exams"]),
                  felony_stars=max(1, int(opts["felony_stars"])))
        return FLOW.start(s, Line("intro"), Line("primer"))

    def status(self, state: State) -> tuple[Line, ...]:
        if not state.teams or not state.sizes:
            return (Line("status.setup"),)
        lines = []
        if not state.todo:
            lines.append(Line(f"over.{state.outcome or 'lost'}"))
        elif state.finale is not None and not state.storming:
            f = state.finale
            lines.append(Line("status.finale", {
                "round": f.round, "turn": f.turn, "narrator": state.narrator.name,
                "target": state.teams[state.other].members[state.teams[state.other].cup].name,
                "team": state.team.name, "vp": f.vp[state.active], "rival_vp": f.vp[state.other]}))
        else:
            lines.append(Line("status.storm" if state.storming else "status.turn", {
                "team": state.team.name, "narrator": state.narrator.name,
                "adversary": turn.adversary(state)}))
        for team in state.teams:
            lines.append(Line("status.team", {
                "team": team.name, "heat": team.heat, "heat_status": heat_status(team.heat),
                "vp": team.vp, "done": team.done, "target": len(team.goals),
                "cup": team.members[team.cup].name if team.members else "",
                "goal": team.goals[team.done] if team.done < len(team.goals) else state.objective}))
            if team.hunters:
                lines.append(Line("status.hunters", {"team": team.name, "marks": team.hunters}))
            for m in team.members:
                lines.append(Line("status.contestant", {
                    "name": m.name, "drive": DRIVE[m.drive], "felony": m.felony}))
        return tuple(lines)


INFO = RulesInfo(
    rules=HellForLeather(),
    title="Hell for Leather",
    summary="Contestants run the Gauntlet, a deadly game show: dice thrown at a target, a tower "
            "of Heat, Felonies and a bloody finale. Team against team, or co-op.",
    aliases=("hfl", "hell_for_leather", "hell for leather"),
)
