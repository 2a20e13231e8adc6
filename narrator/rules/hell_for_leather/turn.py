"""The ordinary turn (How to Play 1, Turn Order): an optional Dilemma, Set the Threat, the
Solution (the Narrator narrates, the Adversary may veto and calls "conflict")."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Continue, Line
from narrator.rules.hell_for_leather import conflict
from narrator.rules.flow import Refused, ask, push
from narrator.rules.hell_for_leather.steps import STEPS, NEXT, words
from narrator.rules.hell_for_leather.model import State, heat_status, set_team


def adversary(s: State) -> str | list[str]:
    """Who plays the Adversary: the other team, or in co-op everyone but the Narrator."""
    if s.coop:
        return [m.name for i, m in enumerate(s.team.members) if m.alive and i != s.team.cup]
    return s.teams[s.other].name


def next_goal(s: State) -> str:
    team = s.team
    return team.goals[team.done] if team.done < len(team.goals) else s.objective


@STEPS.action("turn")
def _turn(s):
    s = replace(s, conflict=None, dilemma=False, dilemma_raised=False)
    team = s.team
    say = [Line("turn.start", {"team": team.name, "narrator": s.narrator.name,
                               "adversary": adversary(s)})]
    if team.scenes == 0:
        say.append(Line("turn.first_scene", {"source": team.source}))
    if team.hunters:
        say.append(Line("turn.hunters", {"marks": team.hunters}))
    return push(s, ("threat",)), tuple(say)


def _dilemma_refusal(s: State) -> str | None:
    """Why no Dilemma may be raised now, or None (Dilemmas)."""
    if s.dilemma_raised:
        return "dilemma.once"
    if s.coop:
        return None
    if s.team.hunters:
        return "dilemma.hunted"
    if s.teams[s.other].vp < 1:
        return "dilemma.no_vp"
    return None


def _ask_threat(s):
    return ask(f"threat.{heat_status(s.team.heat)}", NEXT, words("dilemma"), team=s.team.name,
               heat=s.team.heat, adversary=adversary(s))


@STEPS.question("threat", _ask_threat)
def _threat(s, given):
    if isinstance(given, Continue):
        return push(s, ("solution",)), ()
    refusal = _dilemma_refusal(s)
    if refusal:
        raise Refused(refusal)
    if s.coop:
        return _accept_dilemma(replace(s, dilemma_raised=True))
    s = set_team(s, s.other, vp=s.teams[s.other].vp - 1)
    s = replace(s, dilemma_raised=True)
    return push(s, ("dilemma",)), (Line("dilemma.raised", {"adversary": adversary(s)}),)


def _ask_dilemma(s):
    return ask("dilemma.ask", words("accept", "buy off"), team=s.team.name, vp=s.team.vp)


@STEPS.question("dilemma", _ask_dilemma)
def _dilemma(s, given):
    if given.word == "accept":
        return _accept_dilemma(s)
    if s.team.vp < 1:
        raise Refused("dilemma.cannot_buy", team=s.team.name)
    s = set_team(s, s.active, vp=s.team.vp - 1)
    s = set_team(s, s.other, vp=s.teams[s.other].vp + 2)
    return push(s, ("threat",)), (Line("dilemma.bought", {"team": s.team.name}),)


def _accept_dilemma(s: State):
    s = replace(s, dilemma=True)
    say = (Line("dilemma.accepted", {"narrator": s.narrator.name, "adversary": adversary(s)}),)
    return conflict.start(s, "conflict", conflict.normal_level(s)), say


def _ask_solution(s):
    return ask(f"solution.{heat_status(s.team.heat)}", words("conflict", "veto", "skill"),
               narrator=s.narrator.name, goal=next_goal(s), adversary=adversary(s))


@STEPS.question("solution", _ask_solution)
def _solution(s, given):
    if given.word == "veto":
        return push(s, ("solution",)), (Line("solution.veto", {"narrator": s.narrator.name}),)
    if given.word == "skill" and s.narrator.no_skills:
        raise Refused("skill.barred", name=s.narrator.name)
    kind = "skill" if given.word == "skill" else "conflict"
    return conflict.start(s, kind, conflict.normal_level(s)), (Line(f"called.{kind}"),)
