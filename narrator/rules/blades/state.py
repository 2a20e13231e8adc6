"""Blades in the Dark: the game's plain state and the fixed lists the SRD names."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

#: the 12 actions, each under the attribute whose first column it fills (SRD "Action Ratings";
#: the attribute table itself is missing from the text, its xp examples agree: Skirmish→Prowess,
#: Hunt→Insight)
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "insight": ("hunt", "study", "survey", "tinker"),
    "prowess": ("finesse", "prowl", "skirmish", "wreck"),
    "resolve": ("attune", "command", "consort", "sway"),
}
ACTIONS: tuple[str, ...] = tuple(sorted(a for group in ATTRIBUTES.values() for a in group))
ATTRIBUTE_OF: dict[str, str] = {a: attr for attr, group in ATTRIBUTES.items() for a in group}

POSITIONS = ("controlled", "risky", "desperate")
#: effect levels low to high; zero and extreme come only from factors (SRD "Assessing Factors")
EFFECTS = ("zero", "limited", "standard", "great", "extreme")
TRAUMAS = ("cold", "haunted", "obsessed", "paranoid", "reckless", "soft", "unstable", "vicious")
#: harm levels by number (SRD "Harm examples") and how many injuries each row holds
HARM_LEVELS = {1: "lesser", 2: "moderate", 3: "severe", 4: "fatal"}
HARM_ROWS = {1: 2, 2: 2, 3: 1}
#: the most items each load level allows (SRD "Loadout")
LOADS = {"light": 3, "normal": 5, "heavy": 6, "encumbered": 9}
CARRY_MAX = 4    # coin a scoundrel can keep on hand (SRD "Coin")
STASH_MAX = 40   # the stash tracker's last box (SRD "Stash & Retirement")
CLOCK_SIZES = (4, 6, 8)
#: boxes on each xp track (SRD "PC Advancement", "Crew Advancement" name the tracks, not their
#: length: these are the sheets' usual ones)
XP_TRACKS = {"insight": 6, "prowess": 6, "resolve": 6, "playbook": 8}
CREW_XP = 8
REP_MAX = 12     # the rep tracker (SRD "Development")
TIER_MAX = 6     # factions go up to tier VI (SRD "Tier")
#: armor boxes a scoundrel can wear: standard armor, then heavy armor (SRD "Armor")
ARMOR = {"none": 0, "armor": 1, "heavy": 2}
#: the position a "worse position" consequence moves to
WORSE = {"controlled": "risky", "risky": "desperate"}


def spoken(text: str) -> str:
    """How a name is matched when said: lower case words, no punctuation."""
    return " ".join(re.sub(r"[^a-z0-9' ]+", " ", text.lower()).split())


def unique(name: str, taken: list[str]) -> str:
    """``name``, numbered ("Ash 2") when another already uses it."""
    keys = {spoken(t) for t in taken}
    if spoken(name) not in keys:
        return name
    n = 2
    while spoken(f"{name} {n}") in keys:
        n += 1
    return f"{name} {n}"


@dataclass(frozen=True)
class Character:
    """One scoundrel's sheet as far as the rules need it."""

    name: str
    stress: int = 0
    traumas: tuple[str, ...] = ()
    harm: tuple[tuple[int, str], ...] = ()   # (level, what), in the order recorded
    coin: int = 0
    stash: int = 0
    load: str = ""          # chosen for the current score
    items: int = 0          # load used this score
    activities: int = 0     # downtime activities taken this downtime
    dead: bool = False
    #: known ratings, action or attribute -> dots (asked once, then kept: "rating 3" changes one)
    ratings: tuple[tuple[str, int], ...] = ()
    last: str = ""          # the action of their last action roll ("same")
    position: str = ""      # a worse position their next action roll starts from
    xp: tuple[tuple[str, int], ...] = ()     # marks on each xp track
    trained: tuple[str, ...] = ()            # xp tracks trained this downtime
    armor: int = 0          # armor boxes worn this score
    armor_marked: int = 0   # of those, marked (restored with the next load)

    def rating(self, key: str) -> int | None:
        return dict(self.ratings).get(key)

    def with_rating(self, key: str, value: int) -> "Character":
        return replace(self, ratings=tuple({**dict(self.ratings), key: value}.items()))

    def marks(self, track: str) -> int:
        return dict(self.xp).get(track, 0)

    @property
    def armor_left(self) -> int:
        return max(0, self.armor - self.armor_marked)

    @property
    def retired(self) -> bool:
        return len(self.traumas) >= 4

    @property
    def active(self) -> bool:
        return not self.dead and not self.retired


@dataclass(frozen=True)
class Clock:
    """A progress clock. ``rival``: the clock it races; ``after``: the clock that must fill
    before this one can be ticked (linked); ``tug``: it may also be ticked down."""

    name: str
    size: int
    filled: int = 0
    tug: bool = False
    rival: str = ""
    after: str = ""

    @property
    def full(self) -> bool:
        return self.filled >= self.size


@dataclass(frozen=True)
class State:
    """The whole game: phase, the question being asked and its answers so far, the crew."""

    phase: str = "setup"
    todo: tuple[tuple, ...] = (("crew_size",),)   # the steps to come (narrator/rules/flow.py)
    draft: tuple[tuple[str, Any], ...] = ()
    crew_size: int = 0
    crew: tuple[Character, ...] = ()
    clocks: tuple[Clock, ...] = ()
    coin: int = 0           # the crew's coin in the lair
    heat: int = 0
    target: str = ""
    plan: str = ""
    stress_boxes: int = 9
    lair_coin: int = 4
    rep: int = 0
    tier: int = 0
    hold: str = "strong"
    crew_xp: int = 0

    # ---------------------------------------------------------------- the current question

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.draft).get(key, default)

    def then(self, ask: str, **answers: Any) -> "State":
        """Go to question ``ask`` (after any trauma waiting), keeping the answers so far plus
        ``answers``."""
        return replace(self, todo=self._traumas() + ((ask,),),
                       draft=tuple({**dict(self.draft), **answers}.items()))

    def menu(self) -> "State":
        """Back to the phase menu (after any trauma waiting), answers dropped."""
        return replace(self, todo=self._traumas() + (("menu",),), draft=())

    def traumatise(self, index: int) -> "State":
        """Character ``index`` chooses a trauma condition next, after any already waiting."""
        waiting = self._traumas()
        return replace(self, todo=waiting + (("trauma", index),) + self.todo[len(waiting):])

    def _traumas(self) -> tuple[tuple, ...]:
        """The trauma choices waiting at the front of the queue."""
        waiting = 0
        while waiting < len(self.todo) and self.todo[waiting][0] == "trauma":
            waiting += 1
        return self.todo[:waiting]

    # ---------------------------------------------------------------- the crew

    def active(self) -> list[int]:
        """Indexes of the characters who can still act."""
        return [i for i, c in enumerate(self.crew) if c.active]

    def who(self) -> Character:
        """The character the current question is about."""
        return self.crew[self.get("who")]

    def with_character(self, index: int, character: Character) -> "State":
        crew = list(self.crew)
        crew[index] = character
        return replace(self, crew=tuple(crew))

    # ---------------------------------------------------------------- clocks

    def clock(self, name: str) -> Clock:
        return next(c for c in self.clocks if c.name == name)

    def with_clock(self, clock: Clock) -> "State":
        return replace(self, clocks=tuple(clock if c.name == clock.name else c
                                          for c in self.clocks))
