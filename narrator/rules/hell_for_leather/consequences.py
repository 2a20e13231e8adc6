"""Phase 3, Consequences, of an ordinary conflict: the result, Victory Points, Hunters, Boon,
the Curse and Excess charts, Traumas, buying Goals, then the Narrator Cup and the team roles."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Continue, Line, Number
from narrator.rules.base import AcceptNumber
from narrator.rules.hell_for_leather import charts
from narrator.rules.flow import ask, push
from narrator.rules.hell_for_leather.steps import STEPS, NEXT, choices, words
from narrator.rules.hell_for_leather.model import (
    DRIVE, GOAL_PRICE, HEAT_MIN, HUNTER_MARKS, RIP, State, Team, add_heat, set_member, set_team,
)
from narrator.rules.hell_for_leather.turn import adversary

TRAUMA_RELIEF = 2


def _result(s: State) -> tuple[str, int, int]:
    """(result, Curse total, member who bears the Curse) of the finished conflict."""
    c = s.conflict
    team = s.teams[c.team]
    if c.heat_score is not None:
        who = c.fell_by if c.fell_by is not None else c.roller
        return "curse", c.heat_score + team.members[who].felony, who
    rank = team.members[c.roller].felony
    if c.curse_roll is not None:
        return "curse", c.curse_roll + rank, c.roller
    result = charts.best(c.dice)
    total = charts.curse_number(c.dice) + rank if result == "curse" else 0
    return result, total, c.roller


@STEPS.action("score")
def _score(s):
    c = s.conflict
    t = c.team
    result, total, bearer = _result(s)
    narrator = s.teams[t].members[c.roller]
    say = [Line(f"result.{result}", {"name": narrator.name, "total": total})]
    if bearer != c.roller:
        say.append(Line("fall.helper", {"name": s.teams[t].members[bearer].name}))
    if c.kind == "skill":
        say.append(Line(f"skill.{result}", {"name": narrator.name}))
        if result == "curse":
            s = set_member(s, t, c.roller, no_skills=True)
    s, more = _victory_points(s, result)
    say += more
    if result == "boon":
        s = add_heat(s, t, -1)
        say.append(Line("boon.heat", {"heat": s.teams[t].heat}))
    steps = []
    if result == "curse":
        s, more, steps = _curse(s, total, bearer)
        say += more
    if not any(st[0] == "trauma" for st in steps):
        steps.append(("narrate", *_narration(s, result)))
    if result == "boon":
        steps.append(("narrate", "narrate.boon_flashback", narrator.name, narrator.why, narrator.hobbies))
    if result in ("merit", "boon") and goal_buyable(s):
        steps.append(("buy_goal",))
    return push(s, *steps, ("end_turn",)), tuple(say)


def _victory_points(s: State, result: str):
    """Pass 1, Merit and Boon 2; none while Hunted. Merits cross Hunter Marks, a Boon all;
    a co-op Dilemma won with a Merit or Boon adds 1 even while Hunted."""
    t = s.conflict.team
    team = s.teams[t]
    gain = 0 if team.hunters else charts.VP[result]
    say = [Line("vp.hunted")] if team.hunters and charts.VP[result] else []
    if s.coop and s.conflict.dilemma and result in ("merit", "boon"):
        gain += 1
        say.append(Line("vp.dilemma_bonus"))
    if team.hunters and result in ("merit", "boon"):
        left = 0 if result == "boon" else team.hunters - 1
        say.append(Line("hunters.lost" if left == 0 else "hunters.crossed", {"marks": left}))
        s = set_team(s, t, hunters=left)
    s = set_team(s, t, vp=s.teams[t].vp + gain)
    if gain:
        say.append(Line("vp.gain", {"gain": gain, "vp": s.teams[t].vp, "team": team.name}))
    return s, tuple(say)


def _hunters(s: State, t: int) -> tuple[State, Line]:
    """Hunters arrive (3 marks), or refresh a crossed mark, or count as Gain Heat; always +1
    Heat (Hunters)."""
    marks = s.teams[t].hunters
    s = add_heat(s, t, 1)
    heat = {"heat": s.teams[t].heat}
    if marks == 0:
        return set_team(s, t, hunters=HUNTER_MARKS), Line("curse.hunters_arrive", heat)
    if marks < HUNTER_MARKS:
        return set_team(s, t, hunters=marks + 1), Line("curse.hunters_refresh", heat)
    return s, Line("curse.hunters_as_gain_heat", heat)


def _curse(s: State, total: int, bearer: int):
    t = s.conflict.team
    effects = charts.curse_effects(total)
    say, steps = [], []
    for i, effect in enumerate(effects):
        if effect == "fail":
            say.append(Line("curse.fail"))
        elif effect == "gain heat":
            s = add_heat(s, t, 1)
            say.append(Line("curse.gain_heat", {"heat": s.teams[t].heat}))
        elif effect == "hunters":
            s, line = _hunters(s, t)
            say.append(line)
        else:
            steps.append(("trauma" if i == 0 else "extra_trauma", t, bearer))
    if len(effects) > 1:
        say.insert(0, Line("curse.excess", {"extra": len(effects) - 1}))
    # a fallen Heat's score was just said: the total again only when a Felony rank adds to it
    if s.conflict.heat_score != total:
        say.insert(0, Line("curse.total", {"total": total}))
    return s, say, steps


@STEPS.action("extra_trauma")
def _extra_trauma(s, t, bearer):
    """Traumas from the Excess chart: the bearer takes it or passes it to a teammate."""
    alive = s.teams[t].alive()
    if len(alive) > 1:
        return push(s, ("trauma_who", t, bearer)), ()
    return (push(s, ("trauma", t, alive[0])) if alive else s), ()


def _ask_trauma_who(s, t, bearer):
    team = s.teams[t]
    names = [team.members[i].name for i in team.alive()]
    return ask("trauma.who", AcceptNumber(1, len(names)), bearer=team.members[bearer].name,
               choices=choices(names))


@STEPS.question("trauma_who", _ask_trauma_who)
def _trauma_who(s, given: Number, t, *_):
    return push(s, ("trauma", t, s.teams[t].alive()[given.value - 1])), ()


def wound(s: State, t: int, m: int) -> tuple[State, Line]:
    """One Trauma: the spare circle goes first, else Drive drops one level (Trauma)."""
    member = s.teams[t].members[m]
    if member.spare:
        return set_member(s, t, m, spare=False), Line("trauma.spare", {"name": member.name})
    s = set_member(s, t, m, drive=member.drive + 1)
    return s, Line("trauma.drive", {"name": member.name,
                                    "drive": drive_name(s.teams[t].members[m].drive)})


def drive_name(level: int) -> str:
    return DRIVE[level]


@STEPS.action("trauma")
def _trauma(s, t, m):
    """Trauma: Drive -1, a flashback about the Why, the wounded narrates the consequences,
    then the team's Heat drops 2 (minimum 2). A Trauma at Drive 0 is R.I.P."""
    if not s.teams[t].members[m].alive:  # a second Trauma on the dead: nothing more to take
        return s, ()
    s, line = wound(s, t, m)
    member = s.teams[t].members[m]
    s = add_heat(s, t, -TRAUMA_RELIEF)
    say = (line, Line("trauma.heat", {"heat": s.teams[t].heat}))
    if member.drive == RIP:
        return push(s, ("narrate", "narrate.rip", member.name, member.why, "")), say
    return push(s, ("narrate", "narrate.trauma", member.name, member.why, "")), say


def _narration(s: State, result: str) -> tuple[str, str, str, str]:
    """Who narrates the outcome: after a Risk always the Adversary, with the Felony or the
    Instinct; otherwise the Narrator on a Merit or Boon, the Adversary on a Pass or Curse."""
    c = s.conflict
    narrator = s.teams[c.team].members[c.roller]
    if c.felony:
        return "narrate.felony", narrator.name, str(c.felony), result
    if c.risks:
        return "narrate.instinct", narrator.name, narrator.instinct, result
    return f"narrate.{result}", narrator.name, "", ""


def _ask_narrate(s, key, name, detail, extra):
    return ask(key, NEXT, name=name, detail=detail, extra=extra,
               adversary=adversary(s) if s.finale is None else "")


@STEPS.question("narrate", _ask_narrate)
def _narrate(s, given, *_):
    return s, ()


# --------------------------------------------------------------------------- Goals


def _hurt(team: Team) -> list[int]:
    return [i for i in team.alive() if team.members[i].drive > 0]


def _ask_buy(s):
    team = s.teams[s.conflict.team]
    return ask("goal.ask", words("buy"), NEXT, vp=team.vp, goal=team.goals[team.done],
               price=GOAL_PRICE)


def goal_buyable(s: State) -> bool:
    """Goals are bought for 5 VP after a Merit or Boon, one at a time, in order (Goals)."""
    team = s.teams[s.conflict.team]
    return team.vp >= GOAL_PRICE and team.done < len(team.goals)


@STEPS.question("buy_goal", _ask_buy)
def _buy(s, given):
    if isinstance(given, Continue):
        return s, ()
    t = s.conflict.team
    team = s.teams[t]
    s = set_team(s, t, vp=team.vp - GOAL_PRICE, done=team.done + 1)
    say = (Line("goal.bought", {"goal": team.goals[team.done], "done": team.done + 1,
                                "target": len(team.goals)}),)
    offered = _rewards(team)
    if len(offered) == 1:  # no choice to make: the one reward there is
        s, more = _take_reward(s, t, offered[0])
        return s, say + more
    if offered:
        s = push(s, ("goal_reward", t))
    return s, say


def _rewards(team: Team) -> tuple[str, ...]:
    """The Goal rewards possible now: lower a Heat above two, heal a hurt contestant."""
    return (("heat",) if team.heat > HEAT_MIN else ()) + (("heal",) if _hurt(team) else ())


def _ask_reward(s, t):
    offered = _rewards(s.teams[t])
    return ask("goal.reward", words(*offered), heat=s.teams[t].heat, choices=list(offered))


@STEPS.question("goal_reward", _ask_reward)
def _reward(s, given, t):
    return _take_reward(s, t, given.word)


def _take_reward(s: State, t: int, reward: str):
    if reward == "heat":
        s = add_heat(s, t, -1)
        return s, (Line("heat.lowered", {"heat": s.teams[t].heat}),)
    hurt = _hurt(s.teams[t])
    if len(hurt) == 1:
        return heal(s, t, hurt[0])
    return push(s, ("heal_who", t)), ()


def _ask_heal(s, t):
    team = s.teams[t]
    return ask("heal.who", AcceptNumber(1, len(_hurt(team))),
               choices=choices([team.members[i].name for i in _hurt(team)]))


@STEPS.question("heal_who", _ask_heal)
def _heal_who(s, given: Number, t):
    return heal(s, t, _hurt(s.teams[t])[given.value - 1])


def heal(s: State, t: int, m: int):
    member = s.teams[t].members[m]
    s = set_member(s, t, m, drive=member.drive - 1)
    return s, (Line("heal.done", {"name": member.name, "drive": drive_name(member.drive - 1)}),)


# --------------------------------------------------------------------------- end of the turn


@STEPS.action("end_turn")
def _end_turn(s):
    """The Narrator Cup passes clockwise on the Active Team and the team roles switch; in co-op
    only the Narrator changes (Selecting a Narrator; Co-Op Rules)."""
    t = s.active
    team = s.teams[t]
    s = set_team(s, t, scenes=team.scenes + 1, cup=team.next_clockwise(team.cup))
    s = replace(s, conflict=None)
    if team.done >= s.goal_target:
        return push(s, ("reach_objective", t)), ()
    wiped = [i for i, tm in enumerate(s.teams) if not tm.alive()]
    if wiped and s.coop:
        return replace(s, outcome="lost", todo=()), (Line("over.all_dead"),)
    if wiped:
        return push(s, ("storm_begin", 1 - wiped[0])), (
            Line("team.wiped", {"team": s.teams[wiped[0]].name}),)
    s = push(replace(s, active=s.other), ("turn",))
    if s.coop:  # the next turn, the team's own, says who narrates now
        return s, ()
    return s, (Line("cup.passed", {
        "team": team.name, "holder": s.teams[t].members[s.teams[t].cup].name}),)
