"""Setup (Setup, Contestant Number X): teams, Goal Target, Objective, Sources, Goals in reverse
order, and each contestant's Who, Hobbies, Why and Instinct."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Continue, Line, Number, Text, Word
from narrator.rules.base import AcceptNumber, AcceptText
from narrator.rules.hell_for_leather.flow import NEXT, acts, ask, asks, auto, push, todo, words
from narrator.rules.hell_for_leather.model import Contestant, Team, set_member, set_team

INSTINCTS = ("coward", "traitor", "wretch")
LETTERS = "AB"
DEFAULT_GOAL_TARGET = 3


def first_steps() -> tuple:
    return (todo("mode"),)


def _letter(t: int) -> str:
    return LETTERS[t]


@asks("mode")
def _ask_mode(s, step):
    return ask("setup.mode", words("teams", "co op", "coop"))


@acts("mode")
def _mode(s, given: Word, step):
    coop = given.word != "teams"
    n = 1 if coop else 2
    s = replace(s, mode="coop" if coop else "teams", teams=tuple(Team() for _ in range(n)))
    per_team = [todo(k, t) for t in range(n) for k in ("team_name", "team_size")]
    sources = [todo("source", t) for t in range(n)]
    s = push(s, *per_team, todo("goal_target"), todo("objective"), *sources,
             todo("goal_list"), todo("roster"), todo("begin"))
    return s, (Line("setup.mode_chosen.coop" if coop else "setup.mode_chosen.teams"),)


@asks("team_name")
def _ask_team_name(s, step):
    return ask("setup.team_name", AcceptText("team name"), letter=_letter(step.args[0]))


@acts("team_name")
def _team_name(s, given: Text, step):
    return set_team(s, step.args[0], name=given.text.strip()), ()


@asks("team_size")
def _ask_team_size(s, step):
    t = step.args[0]
    if s.coop:
        return ask("setup.players_coop", AcceptNumber(2, 3))
    return ask("setup.team_size", AcceptNumber(1, 3), team=s.teams[t].name)


@acts("team_size")
def _team_size(s, given: Number, step):
    t = step.args[0]
    members = tuple(Contestant(name="") for _ in range(given.value))
    return set_team(s, t, members=members), ()


@asks("goal_target")
def _ask_goal_target(s, step):
    return ask("setup.goal_target", AcceptNumber(1, 12), NEXT, standard=DEFAULT_GOAL_TARGET)


@acts("goal_target")
def _goal_target(s, given, step):
    target = DEFAULT_GOAL_TARGET if isinstance(given, Continue) else given.value
    return replace(s, goal_target=target), (Line("setup.goal_target_set", {"target": target}),)


@asks("objective")
def _ask_objective(s, step):
    return ask("setup.objective", AcceptText("objective"))


@acts("objective")
def _objective(s, given: Text, step):
    return replace(s, objective=given.text.strip()), ()


@asks("source")
def _ask_source(s, step):
    return ask("setup.source", AcceptText("source"), team=s.teams[step.args[0]].name)


@acts("source")
def _source(s, given: Text, step):
    return set_team(s, step.args[0], source=given.text.strip()), ()


@auto("goal_list")
def _goal_list(s, step):
    """Goals are named last first; with two teams each names the other's, alternating, Team A
    first (Goals)."""
    n = s.goal_target
    order = (0,) if s.coop else (1, 0)
    slots = [todo("goal", t, n - 1 - k) for k in range(n) for t in order]
    teams = [replace(t, goals=("",) * n) for t in s.teams]
    s = replace(s, teams=tuple(teams))
    return push(s, *slots), ()


@asks("goal")
def _ask_goal(s, step):
    t, slot = step.args
    params = dict(team=s.teams[t].name, n=slot + 1, count=s.goal_target)
    if s.coop:
        return ask("setup.goal_coop", AcceptText("goal"), **params)
    return ask("setup.goal", AcceptText("goal"), by=s.teams[1 - t].name, **params)


@acts("goal")
def _goal(s, given: Text, step):
    t, slot = step.args
    goals = list(s.teams[t].goals)
    goals[slot] = given.text.strip()
    return set_team(s, t, goals=tuple(goals)), ()


CONTESTANT_STEPS = ("c_name", "c_who", "c_hobbies", "c_why", "c_instinct")


@auto("roster")
def _roster(s, step):
    steps = [todo(k, t, m) for t, team in enumerate(s.teams)
             for m in range(len(team.members)) for k in CONTESTANT_STEPS]
    return push(s, *steps), ()


@asks("c_name")
def _ask_name(s, step):
    t, m = step.args
    return ask("setup.name", AcceptText("name"), team=s.teams[t].name, n=m + 1)


@asks("c_who")
@asks("c_hobbies")
@asks("c_why")
def _ask_bio(s, step):
    t, m = step.args
    label = step.kind[2:]
    return ask(f"setup.{label}", AcceptText(label), name=s.teams[t].members[m].name)


@asks("c_instinct")
def _ask_instinct(s, step):
    t, m = step.args
    return ask("setup.instinct", words(*INSTINCTS), name=s.teams[t].members[m].name)


@acts("c_name")
@acts("c_who")
@acts("c_hobbies")
@acts("c_why")
@acts("c_instinct")
def _bio(s, given, step):
    t, m = step.args
    field = {"c_name": "name", "c_who": "who", "c_hobbies": "hobbies", "c_why": "why",
             "c_instinct": "instinct"}[step.kind]
    value = given.word if isinstance(given, Word) else given.text.strip()
    return set_member(s, t, m, **{field: value}), ()


@auto("begin")
def _begin(s, step):
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
    return push(s, todo("turn")), tuple(say) + (Line("play.begins", {"team": s.teams[0].name,
                                                                     "narrator": s.narrator.name}),)
