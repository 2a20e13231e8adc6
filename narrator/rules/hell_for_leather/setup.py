"""Setup (Setup, Contestant Number X): teams, Goal Target, Objective, Sources, Goals in reverse
order, and each contestant's Who, Hobbies, Why and Instinct."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Continue, Line, Number, Text, Word
from narrator.rules.base import AcceptNumber, AcceptText
from narrator.rules.flow import ask, push
from narrator.rules.hell_for_leather.steps import STEPS, NEXT, words
from narrator.rules.hell_for_leather.model import Contestant, Team, set_member, set_team

INSTINCTS = ("coward", "traitor", "wretch")
LETTERS = "AB"
DEFAULT_GOAL_TARGET = 3


def first_steps() -> tuple:
    return (("mode",),)


def _letter(t: int) -> str:
    return LETTERS[t]


def _ask_mode(s):
    return ask("setup.mode", words("teams", "co op", "coop"))


@STEPS.question("mode", _ask_mode)
def _mode(s, given: Word):
    coop = given.word != "teams"
    n = 1 if coop else 2
    s = replace(s, mode="coop" if coop else "teams", teams=tuple(Team() for _ in range(n)))
    per_team = [(k, t) for t in range(n) for k in ("team_name", "team_size")]
    sources = [("source", t) for t in range(n)]
    s = push(s, *per_team, ("goal_target",), ("objective",), *sources,
             ("goal_list",), ("roster",), ("begin",))
    return s, (Line("setup.mode_chosen.coop" if coop else "setup.mode_chosen.teams"),)


def _ask_team_name(s, t):
    return ask("setup.team_name", AcceptText("team name"), letter=_letter(t))


@STEPS.question("team_name", _ask_team_name)
def _team_name(s, given: Text, t):
    return set_team(s, t, name=given.text.strip()), ()


def _ask_team_size(s, t):
    if s.coop:
        return ask("setup.players_coop", AcceptNumber(2, 3))
    return ask("setup.team_size", AcceptNumber(1, 3), team=s.teams[t].name)


@STEPS.question("team_size", _ask_team_size)
def _team_size(s, given: Number, t):
    members = tuple(Contestant(name="") for _ in range(given.value))
    return set_team(s, t, members=members), ()


def _ask_goal_target(s):
    return ask("setup.goal_target", AcceptNumber(1, 12), NEXT, standard=DEFAULT_GOAL_TARGET)


@STEPS.question("goal_target", _ask_goal_target)
def _goal_target(s, given):
    target = DEFAULT_GOAL_TARGET if isinstance(given, Continue) else given.value
    return replace(s, goal_target=target), (Line("setup.goal_target_set", {"target": target}),)


def _ask_objective(s):
    return ask("setup.objective", AcceptText("objective"))


@STEPS.question("objective", _ask_objective)
def _objective(s, given: Text):
    return replace(s, objective=given.text.strip()), ()


def _ask_source(s, t):
    return ask("setup.source", AcceptText("source"), team=s.teams[t].name)


@STEPS.question("source", _ask_source)
def _source(s, given: Text, t):
    return set_team(s, t, source=given.text.strip()), ()


@STEPS.action("goal_list")
def _goal_list(s):
    """Goals are named last first; with two teams each names the other's, alternating, Team A
    first (Goals)."""
    n = s.goal_target
    order = (0,) if s.coop else (1, 0)
    slots = [("goal", t, n - 1 - k) for k in range(n) for t in order]
    teams = [replace(t, goals=("",) * n) for t in s.teams]
    s = replace(s, teams=tuple(teams))
    return push(s, *slots), ()


def _ask_goal(s, t, slot):
    params = dict(team=s.teams[t].name, n=slot + 1, count=s.goal_target)
    if s.coop:
        return ask("setup.goal_coop", AcceptText("goal"), **params)
    return ask("setup.goal", AcceptText("goal"), by=s.teams[1 - t].name, **params)


@STEPS.question("goal", _ask_goal)
def _goal(s, given: Text, t, slot):
    goals = list(s.teams[t].goals)
    goals[slot] = given.text.strip()
    return set_team(s, t, goals=tuple(goals)), ()


CONTESTANT_FIELDS = ("name", "who", "hobbies", "why", "instinct")


@STEPS.action("roster")
def _roster(s):
    steps = [("contestant", field, t, m) for t, team in enumerate(s.teams)
             for m in range(len(team.members)) for field in CONTESTANT_FIELDS]
    return push(s, *steps), ()


def _ask_contestant(s, field, t, m):
    if field == "name":
        return ask("setup.name", AcceptText("name"), team=s.teams[t].name, n=m + 1)
    name = s.teams[t].members[m].name
    if field == "instinct":
        return ask("setup.instinct", words(*INSTINCTS), name=name)
    return ask(f"setup.{field}", AcceptText(field), name=name)


@STEPS.question("contestant", _ask_contestant)
def _contestant(s, given, field, t, m):
    value = given.word if isinstance(given, Word) else given.text.strip()
    return set_member(s, t, m, **{field: value}), ()


@STEPS.action("begin")
def _begin(s):
    """Drive starts at 1 for all; with the exams option (Appendix B) each team's contestant 1
    has a spare Drive circle and Team A starts with 1 Victory Point."""
    say = [Line("setup.drive")]
    if s.exams:
        for t in range(len(s.teams)):
            s = set_member(s, t, 0, spare=True)
        s = set_team(s, 0, vp=1)
        say.append(Line("setup.exams", {"team": s.teams[0].name,
                                        "first": [t.members[0].name for t in s.teams]}))
    s = replace(s, sizes=tuple(len(t.members) for t in s.teams), active=0)
    return push(s, ("turn",)), tuple(say) + (Line("play.begins"),)
