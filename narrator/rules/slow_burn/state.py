"""Slow Burn's game state: plain frozen data, compared whole when a journal is replayed."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

#: a step still to do: (the name of a question or an action, a spy's index or -1)
Item = tuple[str, int]

#: every named option and its allowed values; the first value is the default
CHOICES: dict[str, tuple[str, ...]] = {
    "players": ("spies", "with_handler"),
    "tie": ("unfavourable", "favourable", "mixed"),
    "interference_dice": ("responders", "implicated"),
    "ignore_penalty": ("until_answered", "whole_job"),
    "final_push": ("from_ten", "onto_ten"),
    "fleur": ("carry", "refresh"),
    "freed": ("new_spy", "contact"),
    "reread": ("reminder", "always", "first"),
}
DEFAULTS: dict[str, str] = {name: values[0] for name, values in CHOICES.items()}
#: what each option decides, in one line (docs/slow-burn.md tells the whole choice)
MEANINGS: dict[str, str] = {
    "players": "who counts as a player for the Opposition dice: the spies, or the Handler too",
    "tie": "how a scene ends when both sides roll as many successes",
    "interference_dice": "Interference dice: one per spy who responds, or per implicated spy",
    "ignore_penalty": "whether an ignoring spy's penalty ends on responding or with the Job",
    "final_push": "which push frees a spy: the one made from space 10, or the one reaching it",
    "fleur": "whether spent Fleur-de-Lis tokens stay spent or come back each episode",
    "freed": "what a freed spy's player plays next: a new spy, or a contact with no path",
    "reread": "after a track's first reading in an episode: a short reminder, the whole track "
              "again, or nothing",
}

MIN_SPIES, MAX_SPIES = 2, 5
JOB_SEGMENTS = 7
MINI_SCENES = 3
PATH_END = 10
FLEUR_TOKENS = 2
OPPOSITION_TARGET = 5  # Opposition dice, and both sides in mini segments, succeed at 5 or under
AGENCY_TARGET = 2      # an Agency die on 1 or 2 interferes
IMPLICATED_TARGET = 5  # a spy not implicated outright is implicated on 5 or under


@dataclass(frozen=True)
class Options:
    """The table's choices where the track script is ambiguous (docs/slow-burn.md)."""

    players: str = DEFAULTS["players"]
    tie: str = DEFAULTS["tie"]
    interference_dice: str = DEFAULTS["interference_dice"]
    ignore_penalty: str = DEFAULTS["ignore_penalty"]
    final_push: str = DEFAULTS["final_push"]
    fleur: str = DEFAULTS["fleur"]
    freed: str = DEFAULTS["freed"]
    reread: str = DEFAULTS["reread"]

    @classmethod
    def parse(cls, given: Mapping[str, Any]) -> Options:
        """Options from ``name=value`` pairs; ValueError names a bad name or value."""
        for name, value in given.items():
            if name not in CHOICES:
                raise ValueError(f"slow-burn has no option {name!r}; "
                                 f"options: {', '.join(CHOICES)}")
            if value not in CHOICES[name]:
                raise ValueError(f"option {name} is one of {', '.join(CHOICES[name])}, "
                                 f"not {value!r}")
        return cls(**{f.name: given.get(f.name, getattr(cls, f.name)) for f in fields(cls)})


@dataclass(frozen=True)
class Spy:
    """One player's character. ``path`` None: a character with no Path to Freedom (Track 19)."""

    name: str = ""
    speciality: str = ""
    contacts: tuple[str, ...] = ()
    path: int | None = 1
    persistent: int = 1       # persistent Agency dice
    ignoring: bool = False    # ignoring the Agency's interference (Track 14)
    penalty: int = 0          # taken off the Job dice target, one per scene ignored
    pushed: bool = False      # has Pushed for Freedom this episode
    free: bool = False        # off the blacklist

    @property
    def resources(self) -> int:
        """Resources free for a scene: the speciality and each contact, less one lost to
        ignored interference."""
        return 1 + len(self.contacts) - (1 if self.ignoring else 0)

    @property
    def blacklisted(self) -> bool:
        return self.path is not None and not self.free


@dataclass(frozen=True)
class Scene:
    """The Job scene in progress."""

    number: int = 0
    dice: tuple[int, ...] = ()         # Job dice per spy index
    triggered: tuple[int, ...] = ()    # spies whose persistent Agency dice interfered
    handler: bool = False              # the Handler's Agency dice or a Fleur-de-Lis interfered
    implicated: tuple[int, ...] = ()
    responders: tuple[int, ...] = ()   # spies who answer the Agency before the scene goes on
    against: int = 0                   # the Opposition's successes
    successes: int = 0                 # the spies' successes


@dataclass(frozen=True)
class Mini:
    """An Interference Segment or a Push for Freedom segment (Tracks 15 and 17)."""

    kind: str                  # "interference" or "push"
    members: tuple[int, ...]
    opposition: int
    scene: int = 0
    dice: int = 0
    against: int = 0
    successes: int = 0


@dataclass(frozen=True)
class State:
    """The whole game: setup answers, the campaign, the Job, and the steps still to do."""

    options: Options
    todo: tuple[Item, ...] = ()
    first_session: bool = True
    spies: tuple[Spy, ...] = ()
    fleur: int = FLEUR_TOKENS
    episode: int = 0
    segment: int = 0
    opposition: int = 0
    agency: int = 0                    # the Handler's Agency dice this segment
    pushers: tuple[int, ...] = ()      # spies Pushing for Freedom this segment
    scene: Scene = Scene()
    mini: Mini | None = None
    read: tuple[str, ...] = ()         # tracks read in full this episode (option reread)
    heard: tuple[str, ...] = ()        # prompt keys said in full this episode (then short)


def with_spy(state: State, index: int, **changes: Any) -> State:
    """``state`` with one spy changed."""
    spies = list(state.spies)
    spies[index] = replace(spies[index], **changes)
    return replace(state, spies=tuple(spies))


def on_job(state: State) -> tuple[int, ...]:
    """The spies working the Job this segment (everyone not Pushing for Freedom)."""
    return tuple(i for i in range(len(state.spies)) if i not in state.pushers)


def names(state: State, indices: tuple[int, ...]) -> list[str]:
    return [state.spies[i].name for i in indices]
