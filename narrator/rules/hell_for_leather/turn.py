"""The ordinary turn (How to Play 1, Turn Order): an optional Dilemma, Set the Threat, the
Solution (the Narrator narrates, the Adversary may veto and calls "conflict")."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Continue, Line
from narrator.rules.hell_for_leather import conflict
from narrator.rules.flow import ask, push
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
                               "adversary": adversary(s)}),
           Line(f"heat.{heat_status(team.heat)}", {"heat": team.heat})]
    if team.scenes == 0:
        say.append(Line("turn.first_scene", {"source": team.source}))
    if team.hunters:
        say.append(Line("turn.hunters", {"marks": team.hunters}))
    return push(s, ("threat",)), tuple(say)


def _dilemma_open(s: State) -> bool:
    """A Dilemma may be raised: once a turn; with teams, not on a Hunted team and only by an
    Adversary with a Victory Point to pay (Dilemmas)."""
    if s.dilemma_raised:
        return False
    return s.coop or (not s.team.hunters and s.teams[s.other].vp >= 1)


def _ask_threat(s):
    """Set the threat; ``dilemma`` is offered only when the Adversary may raise one now."""
    if not _dilemma_open(s):
        return ask("threat.ask", NEXT, why="why.threat", team=s.team.name)
    return ask("threat.ask_dilemma", NEXT, words("dilemma"), why="why.threat",
               team=s.team.name,
               adversary=adversary(s))


@STEPS.question("threat", _ask_threat)
def _threat(s, given):
    if isinstance(given, Continue):
        return _to_solution(s)
    if s.coop:
        return _accept_dilemma(replace(s, dilemma_raised=True))
    s = set_team(s, s.other, vp=s.teams[s.other].vp - 1)
    s = replace(s, dilemma_raised=True)
    raised = Line("dilemma.raised", {"adversary": adversary(s)})
    if s.team.vp < 1:  # nothing to buy it off with: the dilemma stands
        accepted, say = _accept_dilemma(s)
        return accepted, (raised, Line("dilemma.cannot_buy", {"team": s.team.name})) + say
    return push(s, ("dilemma",)), (raised,)


def _ask_dilemma(s):
    return ask("dilemma.ask", words("accept", "buy off"), team=s.team.name)


@STEPS.question("dilemma", _ask_dilemma)
def _dilemma(s, given):
    if given.word == "accept":
        return _accept_dilemma(s)
    s = set_team(s, s.active, vp=s.team.vp - 1)
    s = set_team(s, s.other, vp=s.teams[s.other].vp + 2)
    return push(s, ("threat",)), (Line("dilemma.bought", {"team": s.team.name}),)


def _accept_dilemma(s: State):
    s = replace(s, dilemma=True)
    say = (Line("dilemma.accepted", {"narrator": s.narrator.name, "adversary": adversary(s)}),)
    return conflict.start(s, "conflict", conflict.normal_level(s)), say


def _to_solution(s: State):
    """The Narrator is told to narrate (coloured by the Heat); then the Adversary's question."""
    return push(s, ("solution",)), (Line(f"solution.{heat_status(s.team.heat)}", {
        "narrator": s.narrator.name, "goal": next_goal(s)}),)


def _ask_solution(s):
    """Conflict or veto; ``skill`` only while the Narrator may still claim a skill."""
    key = "solution.ask_no_skill" if s.narrator.no_skills else "solution.ask"
    options = ("conflict", "veto") if s.narrator.no_skills else ("conflict", "veto", "skill")
    return ask(key, words(*options), why="why.solution", adversary=adversary(s))


@STEPS.question("solution", _ask_solution)
def _solution(s, given):
    if given.word == "veto":
        return push(s, ("solution",)), (Line("solution.veto", {"narrator": s.narrator.name}),)
    kind = "skill" if given.word == "skill" else "conflict"
    return conflict.start(s, kind, conflict.normal_level(s)), (Line(f"called.{kind}"),)
