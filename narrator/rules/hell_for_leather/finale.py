"""Chapter 5, Finale: reaching the Objective, Rewards, rounds of Attack / Defend / Ditch with the
two Narrator Cups, resolution by Victory Points, deaths and resets, and the Epilogue."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Continue, Line, Number
from narrator.rules.base import AcceptNumber
from narrator.rules.hell_for_leather import charts, conflict
from narrator.rules.hell_for_leather.consequences import heal, wound
from narrator.rules.flow import ask, push
from narrator.rules.hell_for_leather.steps import STEPS, NEXT, choices, words
from narrator.rules.hell_for_leather.model import (
    DRIVE_ZERO, RIP, Finale, State, Team, add_heat, set_member, set_team,
)
from narrator.understand.words import spoken_list

FINALE_HEAT = 3
REWARD_VP = 2


def _f(s: State) -> Finale:
    assert s.finale is not None
    return s.finale


def _setf(s: State, **changes) -> State:
    return replace(s, finale=replace(_f(s), **changes))


@STEPS.action("reach_objective")
def _objective(s, t):
    """The first team to reach the Objective: every unspent VP is discarded, the Hunters are
    recalled, and the winners get (Goal Target - the losers' Goals) rewards (Rewards)."""
    teams = tuple(replace(tm, vp=0, hunters=0) for tm in s.teams)
    s = replace(s, teams=teams, active=t, conflict=None)
    say = [Line("objective.reached", {"team": s.teams[t].name, "objective": s.objective})]
    if s.coop:
        return push(s, ("coop_finale",)), tuple(say)
    rewards = s.goal_target - s.teams[1 - t].done
    s = replace(s, finale=Finale(first=t))
    say.append(Line("rewards.count", {"team": s.teams[t].name, "rewards": rewards}))
    return push(s, *[("reward", t, k + 1, rewards) for k in range(rewards)],
                ("finale_prep",)), tuple(say)


# --------------------------------------------------------------------------- Rewards


def _woundable(team: Team) -> list[int]:
    """Opponents a reward Trauma may hit: it may not kill."""
    return [i for i in team.alive() if team.members[i].drive < DRIVE_ZERO or team.members[i].spare]


def _hurt(team: Team) -> list[int]:
    return [i for i in team.alive() if team.members[i].drive > 0]


def _finale_rewards(s: State, t: int) -> tuple[str, ...]:
    """Heat and points always; heal while someone is hurt; trauma while a rival can survive one."""
    return (("heat",) + (("heal",) if _hurt(s.teams[t]) else ())
            + (("trauma",) if _woundable(s.teams[1 - t]) else ()) + ("points",))


def _ask_reward(s, t, n, count):
    offered = _finale_rewards(s, t)
    return ask("rewards.ask", words(*offered), n=n, count=count, team=s.teams[t].name,
               rival=s.teams[1 - t].name, choices=list(offered))


@STEPS.question("reward", _ask_reward)
def _reward(s, given, t, *_):
    rival = 1 - t
    say: list = []
    if given.word == "heat":
        s = add_heat(s, rival, 1)
        say.append(Line("rewards.heat", {"team": s.teams[rival].name,
                                         "heat": s.teams[rival].heat}))
    elif given.word == "points":
        vp = list(_f(s).vp)
        vp[t] += REWARD_VP
        s = _setf(s, vp=tuple(vp))
        say.append(Line("rewards.points", {"vp": vp[t]}))
    elif given.word == "heal":
        s = push(s, ("reward_pick", t, "heal"))
    else:
        s = push(s, ("reward_pick", rival, "trauma"))
    s = add_heat(s, t, -1)
    say.append(Line("rewards.own_heat", {"heat": s.teams[t].heat}))
    return s, tuple(say)


def _ask_pick(s, t, what):
    team = s.teams[t]
    pool = _hurt(team) if what == "heal" else _woundable(team)
    return ask(f"rewards.pick_{what}", AcceptNumber(1, len(pool)),
               choices=choices([team.members[i].name for i in pool]))


@STEPS.question("reward_pick", _ask_pick)
def _pick(s, given: Number, t, what):
    team = s.teams[t]
    pool = _hurt(team) if what == "heal" else _woundable(team)
    m = pool[given.value - 1]
    if what == "heal":
        return heal(s, t, m)
    s, line = wound(s, t, m)
    member = s.teams[t].members[m]
    return push(s, ("narrate", "narrate.reward_trauma", member.name, member.why, "")), (line,)


# --------------------------------------------------------------------------- Co-op at the Objective


def _ask_coop(s):
    """Storm, or fight each other while two or more are alive."""
    if len(s.team.alive()) < 2:
        return ask("coop.finale_alone", words("storm"))
    return ask("coop.finale", words("storm", "fight"))


@STEPS.question("coop_finale", _ask_coop)
def _coop(s, given):
    alive = s.team.alive()
    if given.word == "storm":
        return push(s, ("storm_begin", 0)), ()
    if len(alive) == 2:
        return _sides(s, [alive[0]], [alive[1]]), ()
    return push(s, ("coop_alone",)), ()


def _ask_alone(s):
    names = [s.team.members[i].name for i in s.team.alive()]
    return ask("coop.alone", AcceptNumber(1, len(names)), choices=choices(names))


@STEPS.question("coop_alone", _ask_alone)
def _alone(s, given: Number):
    alive = s.team.alive()
    lone = alive[given.value - 1]
    return _sides(s, [i for i in alive if i != lone], [lone]), ()


def _sides(s: State, first: list[int], second: list[int]) -> State:
    """Turn the co-op team against itself: two sides keep the team's Heat; the larger side (or
    the Narrator's, when even) opens, and a smaller side gets the uneven-teams bonus."""
    team = s.team
    if len(first) == len(second) and team.cup in second:
        first, second = second, first
    sides = tuple(Team(name=spoken_list(team.members[i].name for i in side), heat=team.heat,
                       members=tuple(team.members[i] for i in side)) for side in (first, second))
    s = replace(s, teams=sides, active=0, sizes=(len(first), len(second)), finale=Finale(first=0))
    return push(s, ("finale_prep",))


# --------------------------------------------------------------------------- rounds and turns


@STEPS.action("finale_prep")
def _prep(s):
    """Preparation: each Instinct's homework, then every contestant's entrance."""
    say = tuple(Line(f"finale.homework.{m.instinct}", {"name": m.name})
                for tm in s.teams for m in tm.members if m.alive)
    return push(s, ("narrate", "narrate.entrances", "", "", ""), ("round",)), (
        Line("finale.begins", {"objective": s.objective}),) + say


@STEPS.action("round")
def _round(s):
    f = _f(s)
    s = replace(s, active=f.first)
    s = _setf(s, turn=1, victim=None)
    steps = []
    for t, role in ((f.first, "narrator"), (1 - f.first, "target")):
        alive = s.teams[t].alive()
        if len(alive) == 1:
            s = set_team(s, t, cup=alive[0])
        else:
            steps.append(("holder", role, t))
    return push(s, *steps, ("f_intent",)), (Line("finale.round", {
        "round": f.round, "team": s.teams[f.first].name}),)


def _ask_holder(s, role, t):
    team = s.teams[t]
    names = [team.members[i].name for i in team.alive()]
    return ask(f"finale.choose_{role}", AcceptNumber(1, len(names)), team=team.name,
               choices=choices(names))


@STEPS.question("holder", _ask_holder)
def _holder(s, given: Number, role, t):
    return set_team(s, t, cup=s.teams[t].alive()[given.value - 1]), ()


def _holder_name(s: State, t: int) -> str:
    return s.teams[t].members[s.teams[t].cup].name


def _ask_intent(s):
    f = _f(s)
    params = dict(narrator=s.narrator.name, target=_holder_name(s, s.other),
                  vp=f.vp[s.active], rival_vp=f.vp[s.other])
    if f.turn == 1:
        return ask("finale.attack", NEXT, **params)
    victim = s.team.members[f.victim].name
    return ask("finale.defend_or_ditch", words("defend", "ditch"), victim=victim, **params)


@STEPS.question("f_intent", _ask_intent)
def _intent(s, given):
    if isinstance(given, Continue) or given.word == "defend":
        return conflict.start(s, "finale", finale_level(s)), ()
    return push(s, ("finale_death", s.active, _f(s).victim)), (
        Line("finale.ditched", {"name": s.team.members[_f(s).victim].name}),)


def finale_level(s: State) -> int:
    """Drive + 1 level per surviving ally, + 1 for a team that began smaller (Drive & Risks in
    the Finale; Uneven Players)."""
    team = s.team
    allies = len(team.alive()) - 1
    smaller = int(len(s.sizes) == 2 and s.sizes[s.active] < s.sizes[s.other])
    return s.narrator.drive - allies - smaller


@STEPS.action("finale_score")
def _finale_score(s):
    """Resolution: VP equal to or below the enemy's kills the roller; otherwise the narration
    stands and play passes to the other team, whose Cup moves clockwise from the third turn."""
    f = _f(s)
    points = charts.finale_points(s.conflict.dice)
    vp = list(f.vp)
    vp[s.active] += points
    s = _setf(s, vp=tuple(vp))
    say = [Line("finale.points", {"points": points, "vp": vp[s.active], "rival": vp[s.other],
                                  "heat": s.team.heat})]
    if vp[s.active] <= vp[s.other]:
        return push(s, ("finale_death", s.active, s.team.cup)), tuple(say)
    s = replace(s, active=s.other, conflict=None)
    s = _setf(s, turn=f.turn + 1, victim=s.team.cup)
    if f.turn + 1 >= 3:
        s = set_team(s, s.active, cup=s.team.next_clockwise(s.team.cup))
        say.append(Line("finale.cup_moves", {"name": s.narrator.name}))
    return push(s, ("f_intent",)), tuple(say)


@STEPS.action("finale_fall")
def _finale_fall(s):
    """Finale Heat: a fallen Heat kills the contestant whose turn it is."""
    return push(s, ("finale_death", s.active, s.team.cup)), (Line("finale.heat_fell"),)


@STEPS.action("finale_death")
def _death(s, t, m):
    name = s.teams[t].members[m].name
    s = set_member(s, t, m, drive=RIP)
    s = replace(s, conflict=None)
    return push(s, ("narrate", "narrate.own_death", name, "", ""),
                ("round_reset", 1 - t)), (Line("finale.dead", {"name": name}),)


@STEPS.action("round_reset")
def _reset(s, killer):
    """After a death every Heat goes back to 3 and all VP to 0; the killers tidy the story and
    open the next round. When one team is left, the Epilogue."""
    if not s.teams[1 - killer].alive():
        return epilogue(s, killer), (Line("finale.won", {"team": s.teams[killer].name}),)
    teams = tuple(replace(tm, heat=FINALE_HEAT) for tm in s.teams)
    s = replace(s, teams=teams)
    s = _setf(s, round=_f(s).round + 1, first=killer, vp=(0, 0))
    return push(s, ("narrate", "narrate.tidy", s.teams[killer].name, "", ""),
                ("round",)), (Line("finale.reset", {"heat": FINALE_HEAT}),)


def epilogue(s: State, t: int) -> State:
    """Each survivor of the winning team wraps up their story, a year on (Epilogue)."""
    team = s.teams[t]
    steps = [("narrate", "narrate.epilogue", team.members[i].name, team.members[i].hobbies, "")
             for i in team.alive()]
    return push(replace(s, active=t), *steps, ("won",))


@STEPS.action("won")
def _won(s):
    return replace(s, outcome="won", todo=()), (Line("over.won"),)
