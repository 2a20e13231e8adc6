"""Storming the Gauntlet (Finale, co-op sidebar; Appendix A, Dying): 2 Goals + 1 per player,
Heat starts at 5 and rises after every conflict, roll first and narrate after, no Felony,
Dilemma, Call for Help or Curse chart, and a fallen Heat kills."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line, Text
from narrator.rules.base import AcceptText
from narrator.rules.hell_for_leather import charts, conflict
from narrator.rules.hell_for_leather.consequences import goal_buyable
from narrator.rules.hell_for_leather.finale import epilogue
from narrator.rules.flow import ask, push
from narrator.rules.hell_for_leather.steps import STEPS
from narrator.rules.hell_for_leather.model import RIP, add_heat, set_member, set_team

STORM_HEAT = 5
STORM_BASE_GOALS = 2


@STEPS.action("storm_begin")
def _begin(s, t):
    count = STORM_BASE_GOALS + len(s.teams[t].members)
    s = replace(s, active=t, storming=True, conflict=None, dilemma=False)
    s = set_team(s, t, goals=("",) * count, done=0, vp=0, heat=STORM_HEAT, hunters=0)
    return push(s, *[("storm_goal", i) for i in range(count)], ("storm_turn",)), (
        Line("storm.begins", {"team": s.team.name, "goals": count, "heat": STORM_HEAT}),)


def _ask_goal(s, n):
    return ask("storm.goal", AcceptText("goal"), n=n + 1, count=len(s.team.goals))


@STEPS.question("storm_goal", _ask_goal)
def _goal(s, given: Text, n):
    goals = list(s.team.goals)
    goals[n] = given.text.strip()
    return set_team(s, s.active, goals=tuple(goals)), ()


@STEPS.action("storm_turn")
def _turn(s):
    team = s.team
    if team.done >= len(team.goals):
        return epilogue(s, s.active), (Line("storm.won", {"team": team.name}),)
    if not team.alive():
        return replace(s, outcome="lost", todo=()), (Line("over.all_dead"),)
    s = replace(s, conflict=None)
    return conflict.start(s, "storm", s.narrator.drive), (Line("storm.turn", {
        "narrator": s.narrator.name, "heat": team.heat, "goal": team.goals[team.done]}),)


@STEPS.action("storm_score")
def _score(s):
    """Results as before (VP, Boon lowers the Heat), a Curse simply fails; then Heat +1."""
    c = s.conflict
    result = "curse" if c.curse_roll is not None or not c.dice else charts.best(c.dice)
    team = s.team
    say = [Line(f"result.{result}", {"name": s.narrator.name, "total": 0})]
    gain = charts.VP[result]
    s = set_team(s, s.active, vp=team.vp + gain)
    if gain:
        say.append(Line("vp.gain", {"gain": gain, "vp": s.team.vp, "team": team.name}))
    steps = [("narrate", "narrate.storm", s.narrator.name, "", "")]
    if result == "boon":
        s = add_heat(s, s.active, -1)
        steps.append(("narrate", "narrate.boon_flashback", s.narrator.name, s.narrator.why, s.narrator.hobbies))
    if result in ("merit", "boon") and goal_buyable(s):
        steps.append(("buy_goal",))
    return push(s, *steps, ("storm_next",)), tuple(say)


@STEPS.action("storm_fall")
def _fall(s):
    name = s.narrator.name
    s = set_member(s, s.active, s.team.cup, drive=RIP)
    return push(s, ("narrate", "narrate.own_death", name, "", ""), ("storm_next",)), (
        Line("storm.heat_fell", {"name": name}),)


@STEPS.action("storm_next")
def _next(s):
    """After every conflict the Heat rises by one and the Narrator Cup moves on."""
    s = add_heat(s, s.active, 1)
    team = s.team
    s = set_team(s, s.active, cup=team.next_clockwise(team.cup))
    return push(s, ("storm_turn",)), (Line("storm.heat_up", {"heat": s.team.heat}),)
