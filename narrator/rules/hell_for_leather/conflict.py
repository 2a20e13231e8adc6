"""Rolling a conflict at the Conflict Target: Call for Help, the dice as the table reports them,
Risks, Felony grade rolls, a fallen Heat, and a recount when a die was knocked.

Dice stay physical: the table says what each d10 did (merit, pass, curse and its face, or
"heat fell"); the app never rolls. Scoring is done by the step named after the conflict's kind.
"""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Continue, Line, Number, Word
from narrator.rules.base import AcceptNumber
from narrator.rules.hell_for_leather import charts
from narrator.rules.flow import Refused, ask, push
from narrator.rules.hell_for_leather.steps import STEPS, NEXT, NO_ROLLING, choices, words
from narrator.rules.hell_for_leather.model import (
    DRIVE_ZERO, Conflict, Die, State, Throw, add_heat, set_member, set_team,
)

MAX_FELONY_DICE = 3
#: the automatic step that scores each kind of conflict
SCORER = {"conflict": "score", "skill": "score", "finale": "finale_score", "storm": "storm_score"}
FALL = {"conflict": "heat_stayed", "skill": "heat_stayed", "finale": "finale_fall",
        "storm": "storm_fall"}


def start(s: State, kind: str, level: int) -> State:
    """Begin a conflict for the active team's Narrator, throwing Drive dice for ``level``."""
    team = s.team
    c = Conflict(kind=kind, team=s.active, roller=team.cup, dilemma=s.dilemma)
    s = replace(s, conflict=c)
    allies = [i for i in team.alive() if i != team.cup]
    if kind in ("conflict", "skill") and team.vp and allies:
        return push(s, ("help",), ("plan", level))
    return push(s, ("plan", level))


def normal_level(s: State) -> int:
    """The Narrator's Drive level for an ordinary conflict; a Dilemma rolls at Drive -2."""
    level = s.narrator.drive + (2 if s.dilemma else 0)
    return min(level, DRIVE_ZERO)


def _conflict(s: State) -> Conflict:
    assert s.conflict is not None
    return s.conflict


def _set(s: State, **changes) -> State:
    return replace(s, conflict=replace(_conflict(s), **changes))


# --------------------------------------------------------------------------- Call for Help


def _allies(s: State) -> list[int]:
    c = _conflict(s)
    return [i for i in s.team.alive() if i != c.roller and i not in c.helpers]


def _ask_help(s):
    most = min(s.team.vp, len(_allies(s)))
    return ask("help.ask", AcceptNumber(0, most), NEXT, vp=s.team.vp,
               allies=[s.team.members[i].name for i in _allies(s)])


@STEPS.question("help", _ask_help)
def _help(s, given):
    n = 0 if isinstance(given, Continue) else given.value
    allies = _allies(s)
    if n == 0:
        return s, ()
    s = set_team(s, s.active, vp=s.team.vp - n)
    if n == len(allies):
        s = _set(s, helpers=tuple(allies))
        return s, (Line("help.called", {"helpers": [s.team.members[i].name for i in allies],
                                        "vp": n}),)
    return push(s, *[("helper",) for _ in range(n)]), (Line("help.paid", {"vp": n}),)


def _ask_helper(s):
    names = [s.team.members[i].name for i in _allies(s)]
    return ask("help.which", AcceptNumber(1, len(names)), choices=choices(names))


@STEPS.question("helper", _ask_helper)
def _helper(s, given: Number):
    chosen = _allies(s)[given.value - 1]
    s = _set(s, helpers=_conflict(s).helpers + (chosen,))
    return s, (Line("help.joins", {"name": s.team.members[chosen].name}),)


@STEPS.action("plan")
def _plan(s, level):
    """The Narrator throws first, then each helper in turn, then the Narrator's other dice
    (Call for Help)."""
    c = _conflict(s)
    own = charts.drive_dice(level)
    first = [Throw(c.roller, "drive")][:own]
    rest = [Throw(c.roller, "drive")] * (own - len(first))
    plan = tuple(first + [Throw(h, "help") for h in c.helpers] + rest)
    s = _set(s, plan=plan)
    say = (Line(f"roll.hand.{charts.hand(level)}", {"name": s.team.members[c.roller].name,
                                                          "dice": own}),) if own else ()
    return push(s, ("die" if plan else "no_dice", level)), say


# --------------------------------------------------------------------------- the dice


def _die_words(c: Conflict, recount: bool = False):
    """Merit, pass, curse with its number (a bare curse in the finale and the storm, where the
    number does not count), and heat fell unless recounting."""
    bare = ("curse",) if c.kind in ("finale", "storm") else ()
    options = ("merit", "pass") + bare + (() if recount else ("heat fell",))
    return words(*options, numbered=("curse",))


def _ask_die(s, level):
    c = _conflict(s)
    throw = c.plan[len(c.dice)]
    team = s.teams[c.team]
    key = {"drive": f"die.drive.{charts.hand(level)}"}.get(throw.source, f"die.{throw.source}")
    thrower = team.members[throw.who].name
    return ask(key, _die_words(c), why="why.die", n=len(c.dice) + 1, count=len(c.plan),
               name=thrower, heat=s.teams[c.team].heat)


def _read_die(given: Word) -> Die:
    """The Die a spoken result names (a bare curse, where allowed, is a ten); Refused for a
    face a d10 does not have."""
    if given.word != "curse":
        return Die(given.word)
    if given.number is None:
        return Die("curse", 10)
    if not 0 <= given.number <= 10:
        raise Refused("die.curse_range", number=given.number)
    return Die("curse", given.number or 10)  # a d10's 0 is its ten


@STEPS.question("die", _ask_die)
def _die(s, given, level):
    c = _conflict(s)
    throw = c.plan[len(c.dice)]
    if isinstance(given, Word) and given.word == "heat fell":
        s = _set(s, fell_by=throw.who)
        say = ()
        if c.felony_open:
            s, say = _commit_felony(s, sum(t.source == "felony" for t in c.plan))
        return push(s, (FALL[c.kind],)), say
    die = _read_die(given)
    s, say = _after_throw(_set(s, dice=c.dice + (die,)), throw, die)
    c = _conflict(s)
    nxt = ("die", level) if len(c.dice) < len(c.plan) else ("after_roll", level)
    return push(s, nxt), say


def _after_throw(s: State, throw: Throw, die: Die):
    """Risks & Felonies: a Risk die that is no Merit escalates to a Felony; the grade is the
    number of d10s thrown until a Merit (or a fallen Heat), at most three."""
    c = _conflict(s)
    if c.kind not in ("conflict", "skill"):
        return s, ()
    roller = s.teams[c.team].members[c.roller]
    if throw.source == "risk" and die.word != "merit":
        if roller.felony >= s.felony_stars:
            return s, (Line("felony.no_stars", {"name": roller.name}),)
        s = _set(s, felony_open=True, plan=c.plan + (Throw(c.roller, "felony"),))
        return s, (Line("felony.escalated", {"name": roller.name}),)
    if throw.source == "felony":
        thrown = sum(t.source == "felony" for t in c.plan)
        if die.word == "merit" or thrown == MAX_FELONY_DICE:
            return _commit_felony(s, thrown)
        return _set(s, plan=c.plan + (Throw(c.roller, "felony"),)), ()
    return s, ()


def _commit_felony(s: State, grade: int):
    c = _conflict(s)
    roller = s.teams[c.team].members[c.roller]
    rank = min(s.felony_stars, roller.felony + grade)
    s = set_member(s, c.team, c.roller, felony=rank)
    s = _set(s, felony=grade, felony_open=False)
    return s, (Line("felony.committed", {"name": roller.name, "grade": grade, "rank": rank}),)


# --------------------------------------------------------------------------- after the last die


def risk_allowed(c: Conflict) -> str | None:
    """None when a Risk may be taken now, else the refusal's key."""
    if c.kind == "skill":
        return "risk.skill"
    if c.kind != "finale" and c.risks:
        return "risk.once"
    return None


def _ask_after(s, *_):
    """Score, recount a knocked die, or (while one is allowed) take a Risk."""
    c = _conflict(s)
    heat = s.teams[c.team].heat
    if c.kind == "finale":
        return ask("after.finale", words("risk", "recount"), NEXT,
                   points=charts.finale_points(c.dice), heat=heat)
    if risk_allowed(c) is None:
        return ask("after.risk", words("risk", "recount"), NEXT,
                   why="why.after", result=charts.best(c.dice))
    return ask("after.final", words("recount"), NEXT, why="why.after",
               result=charts.best(c.dice))


@STEPS.question("after_roll", _ask_after)
def _after(s, given, level):
    c = _conflict(s)
    if isinstance(given, Continue):
        return push(s, (SCORER[c.kind],)), ()
    if given.word == "recount":
        if len(c.dice) == 1:
            return push(s, ("recount_die", 0, level)), ()
        return push(s, ("recount_which", level)), ()
    return _take_risk(s, level)


def _die_name(die: Die) -> str:
    """"curse 4", "merit": a die as the table reported it."""
    return f"{die.word} {die.number}" if die.word == "curse" else die.word


def _ask_recount_which(s, level):
    dice = _conflict(s).dice
    return ask("recount.which", AcceptNumber(1, len(dice)), why="why.recount",
                 count=len(dice), choices=choices([_die_name(d) for d in dice]))


@STEPS.question("recount_which", _ask_recount_which)
def _recount_which(s, given: Number, level):
    return push(s, ("recount_die", given.value - 1, level)), ()


def _ask_recount_die(s, k, level):
    c = _conflict(s)
    return ask("die.recount", _die_words(c, recount=True), n=k + 1,
               was=_die_name(c.dice[k]), name=s.teams[c.team].members[c.plan[k].who].name)


@STEPS.question("recount_die", _ask_recount_die)
def _recount_die(s, given, k, level):
    """Results count after the last die: a die knocked to a new face (or off the target) is
    read again, the others stand (Conflict Target)."""
    c = _conflict(s)
    die = _read_die(given)
    dice = c.dice[:k] + (die,) + c.dice[k + 1:]
    return push(_set(s, dice=dice), ("after_roll", level)), ()


def _take_risk(s: State, level):
    c = _conflict(s)
    refusal = risk_allowed(c)
    if refusal:
        raise Refused(refusal)
    s = add_heat(s, c.team, 1)
    s = _set(s, risks=c.risks + 1, plan=c.plan + (Throw(c.roller, "risk"),))
    return push(s, ("die", level)), (Line("risk.taken", {"heat": s.teams[c.team].heat}),)


# --------------------------------------------------------------------------- Drive 0, no dice


def _ask_no_dice(s, *_):
    c = _conflict(s)
    name = s.teams[c.team].members[c.roller].name
    if c.kind in ("finale", "storm"):
        return ask(f"nodice.{c.kind}", words("risk"), NEXT, name=name)
    if risk_allowed(c) is not None:
        return ask("nodice.no_risk", AcceptNumber(0, 10), NO_ROLLING, name=name)
    return ask("nodice.conflict", AcceptNumber(0, 10), words("risk"), NO_ROLLING,
               name=name)


@STEPS.question("no_dice", _ask_no_dice)
def _no_dice(s, given, level):
    c = _conflict(s)
    if isinstance(given, Word):
        return _take_risk(s, level)
    if isinstance(given, Continue):
        return push(s, (SCORER[c.kind],)), ()
    face = given.value if isinstance(given, Number) else given.faces[0]
    return push(_set(s, curse_roll=face or 10), (SCORER[c.kind],)), ()


# --------------------------------------------------------------------------- a fallen Heat


def _ask_stayed(s):
    heat = s.teams[_conflict(s).team].heat
    return ask("fall.stayed", AcceptNumber(0, heat - 1), heat=heat)


@STEPS.question("heat_stayed", _ask_stayed)
def _stayed(s, given: Number):
    return push(_set(s, stayed=given.value), ("heat_total",)), ()


def _ask_total(s):
    c = _conflict(s)
    fallen = s.teams[c.team].heat - c.stayed
    return ask("fall.total", AcceptNumber(fallen, 6 * fallen), fallen=fallen)


@STEPS.question("heat_total", _ask_total)
def _total(s, given: Number):
    c = _conflict(s)
    score = charts.heat_fall_score(given.value, c.stayed)
    return push(_set(s, heat_score=score), ("score",)), (
        Line("fall.scored", {"total": given.value, "stayed": c.stayed, "score": score}),)
