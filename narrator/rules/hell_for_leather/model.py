"""Hell for Leather state as plain frozen data, and the small facts read off it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

#: the Drive track, best first; a Trauma moves one step right (How to Play 2, Drive Track)
DRIVE = ("drive one", "off hand", "shotgun", "drive zero", "rest in peace")
RIP = len(DRIVE) - 1
DRIVE_ZERO = RIP - 1
HEAT_MIN = 2
HEAT_START = 2
HUNTER_MARKS = 3
GOAL_PRICE = 5


@dataclass(frozen=True)
class Contestant:
    name: str
    who: str = ""
    hobbies: str = ""
    why: str = ""
    instinct: str = ""
    drive: int = 0  # index into DRIVE
    felony: int = 0  # Felony rank: stars filled
    spare: bool = False  # the exam winner's extra Drive circle (Appendix B)
    no_skills: bool = False  # a Skill Declaration cursed this session

    @property
    def alive(self) -> bool:
        return self.drive < RIP


@dataclass(frozen=True)
class Team:
    name: str = ""
    source: str = ""
    goals: tuple[str, ...] = ()  # in the order they must be achieved
    done: int = 0  # goals achieved
    heat: int = HEAT_START
    vp: int = 0
    hunters: int = 0  # Hunter Marks still to cross; 0 means no Hunters
    cup: int = 0  # member holding this team's Narrator Cup
    members: tuple[Contestant, ...] = ()
    scenes: int = 0  # turns this team has played as the Active Team

    def alive(self) -> tuple[int, ...]:
        return tuple(i for i, m in enumerate(self.members) if m.alive)

    def next_clockwise(self, start: int) -> int:
        """The next living member after ``start`` (``start`` itself when alone)."""
        n = len(self.members)
        for step in range(1, n + 1):
            i = (start + step) % n
            if self.members[i].alive:
                return i
        return start


@dataclass(frozen=True)
class Throw:
    """A d10 to be thrown: by which member of the rolling team, and why it is thrown."""

    who: int
    source: str  # drive, help, risk, felony


@dataclass(frozen=True)
class Die:
    """What a thrown d10 did: merit, pass or curse (with the face showing)."""

    word: str
    number: int = 0


@dataclass(frozen=True)
class Conflict:
    kind: str  # conflict, skill, finale, storm
    team: int
    roller: int
    plan: tuple[Throw, ...] = ()
    dice: tuple[Die, ...] = ()
    risks: int = 0
    felony: int = 0  # grade committed in this conflict
    felony_open: bool = False  # still rolling for the grade
    dilemma: bool = False
    helpers: tuple[int, ...] = ()
    fell_by: int | None = None  # member whose die brought the Heat down
    stayed: int = 0  # Heat dice left standing after a fall
    heat_score: int | None = None  # fallen faces + 3 per standing die
    curse_roll: int | None = None  # the d10 read at Drive 0 with no dice


@dataclass(frozen=True)
class Finale:
    first: int  # team opening the current round
    round: int = 1
    turn: int = 1
    vp: tuple[int, int] = (0, 0)
    victim: int | None = None  # member of the acting team whose death was narrated
    winner: int | None = None  # the last team standing


@dataclass(frozen=True)
class State:
    todo: tuple[tuple, ...]   # the steps still to come (narrator/rules/flow.py)
    mode: str = ""  # teams or coop
    teams: tuple[Team, ...] = ()
    active: int = 0
    goal_target: int = 3
    objective: str = ""
    conflict: Conflict | None = None
    finale: Finale | None = None
    storming: bool = False
    dilemma_raised: bool = False  # this turn
    dilemma: bool = False  # accepted for this turn's conflict
    sizes: tuple[int, ...] = ()  # team sizes when play began (uneven finale bonus)
    felony_stars: int = 6
    exams: bool = False
    outcome: str = ""  # won or lost, when the game is over
    #: prompt keys the table has heard (said or asked): how things are said, not where the
    #: game stands, so it takes no part in comparing states
    heard: tuple[str, ...] = field(default=(), compare=False)

    @property
    def coop(self) -> bool:
        return self.mode == "coop"

    @property
    def team(self) -> Team:
        return self.teams[self.active]

    @property
    def other(self) -> int:
        return 1 - self.active if len(self.teams) == 2 else self.active

    @property
    def narrator(self) -> Contestant:
        return self.team.members[self.team.cup]


def heat_status(height: int) -> str:
    """Quiet, busy, saturated or panic by the Heat's height (Heat Status & Narration)."""
    if height <= 3:
        return "quiet"
    if height <= 5:
        return "busy"
    if height <= 7:
        return "saturated"
    return "panic"


def set_team(s: State, t: int, **changes: Any) -> State:
    teams = list(s.teams)
    teams[t] = replace(teams[t], **changes)
    return replace(s, teams=tuple(teams))


def set_member(s: State, t: int, m: int, **changes: Any) -> State:
    members = list(s.teams[t].members)
    members[m] = replace(members[m], **changes)
    return set_team(s, t, members=tuple(members))


def add_heat(s: State, t: int, delta: int) -> State:
    """Raise or lower a team's Heat; it never drops below two dice."""
    return set_team(s, t, heat=max(HEAT_MIN, s.teams[t].heat + delta))
