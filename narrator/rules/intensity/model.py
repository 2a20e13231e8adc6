"""Intensity System state: characters and traits, the round's dice, advantage points, held fatals.

Everything is a frozen dataclass of tuples and numbers, so states compare and replay exactly.
Characters are referred to by their index in ``State.chars``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from narrator.understand import key

#: die sizes from best to worst; 0 is "unusable"
LADDER = (12, 10, 8, 6, 4, 0)
#: intensity level → die size
LEVELS = {"calm": 6, "invested": 8, "passionate": 10, "fanatical": 12}
LEVEL_OF = {size: name for name, size in LEVELS.items()}
#: a character's two dice this round, in this order
ROLES = ("intensity", "trait")
#: trait dice a new character gets: main, minor
TRAIT_DICE = {"main": (10, 8, 8), "minor": (6, 6)}
#: intensity maximum assumed for a defender who declared nothing this round (calm)
UNDECLARED_LEVEL = 6


def step_down(size: int, steps: int) -> int:
    """``size`` lowered ``steps`` rungs of d12→d10→d8→d6→d4→unusable."""
    return LADDER[min(LADDER.index(size) + steps, len(LADDER) - 1)]


def die_name(size: int) -> str:
    """"d8", or "unusable" for a die stepped below d4."""
    return f"d{size}" if size else "unusable"


def key_of(text: str) -> str:
    """The phrase the understanding layer makes of ``text`` as a spoken word choice."""
    return key(text)


@dataclass(frozen=True)
class Trait:
    """A trait with its starting die and the steps it has lost to damage and taxes."""

    name: str
    key: str
    base: int
    damage: int = 0
    tax: int = 0


@dataclass(frozen=True)
class Character:
    """A character in the conflict. ``out``: for the rest of the scene; ``fallen``: for good."""

    name: str
    key: str
    main: bool = True
    traits: tuple[Trait, ...] = ()
    wounds: int = 0
    out: bool = False
    fallen: bool = False

    def size(self, t: int) -> int:
        """Current die of trait ``t``: its base lowered by damage, tax and every wound."""
        trait = self.traits[t]
        return step_down(trait.base, trait.damage + trait.tax + self.wounds)

    def usable(self) -> tuple[int, ...]:
        """Indices of the traits that still have a die."""
        return tuple(t for t in range(len(self.traits)) if self.size(t))

    @property
    def present(self) -> bool:
        return not (self.out or self.fallen)

    @property
    def hurt(self) -> bool:
        """Has a wound or a damaged trait (what healing mends)."""
        return self.wounds > 0 or any(t.damage for t in self.traits)


@dataclass(frozen=True)
class Declaration:
    """Who a character acts against, at which intensity (die size), with which trait."""

    target: int
    level: int = 0
    trait: int = -1


@dataclass(frozen=True)
class Hand:
    """A character's two dice this round: sizes and faces in ROLES order.

    ``guard``: dice picked up to defend (they cannot attack); ``acted``: the action is spent,
    so every die is free to defend.
    """

    sizes: tuple[int, int]
    faces: tuple[int, int] = (0, 0)
    guard: tuple[bool, bool] = (False, False)
    acted: bool = False

    def standing(self) -> tuple[int, ...]:
        """Dice still able to attack."""
        return () if self.acted else tuple(i for i in (0, 1) if not self.guard[i])

    def attack_die(self) -> int:
        """Index of the best standing die (highest face, then the bigger die)."""
        return max(self.standing(), key=lambda i: (self.faces[i], self.sizes[i]))


@dataclass(frozen=True)
class Exchange:
    """One attack being resolved: the defender's dice (indices) and their defence faces."""

    attacker: int
    defender: int
    dice: tuple[int, ...] = ()
    faces: tuple[int, ...] = ()
    spent: tuple[str, ...] = ()
    impact: str = ""  # the impact the attacker chose


@dataclass(frozen=True)
class State:
    """The whole game. ``cursor``/``die`` say whom and which die a question is about;
    ``holder``/``victim``/``back`` belong to the held-fatal questions."""

    todo: tuple[tuple, ...]   # the steps still to come (narrator/rules/flow.py)
    chars: tuple[Character, ...] = ()
    planned: int = 0
    cursor: int = 0
    die: int = 0
    scene: int = 0
    round: int = 0
    decls: tuple[Declaration | None, ...] = ()
    hands: tuple[Hand | None, ...] = ()
    order: tuple[int, ...] = ()
    turn: int = 0
    fight: Exchange | None = None
    ap: tuple[tuple[int, int, int], ...] = ()
    held: tuple[tuple[int, int], ...] = ()
    foes: tuple[tuple[int, int], ...] = ()
    holder: int = -1
    victim: int = -1
    back: str = ""
    healed: tuple[tuple[int, str], ...] = ()


def put(items: tuple, i: int, value: Any) -> tuple:
    """``items`` with position ``i`` replaced."""
    return items[:i] + (value,) + items[i + 1:]


def with_char(state: State, i: int, **changes: Any) -> State:
    """``state`` with character ``i`` changed."""
    return replace(state, chars=put(state.chars, i, replace(state.chars[i], **changes)))


def with_trait(state: State, i: int, t: int, **changes: Any) -> State:
    """``state`` with trait ``t`` of character ``i`` changed."""
    traits = state.chars[i].traits
    return with_char(state, i, traits=put(traits, t, replace(traits[t], **changes)))


def ap_of(state: State, holder: int, target: int) -> int:
    """Advantage points ``holder`` has against ``target``."""
    return next((n for h, t, n in state.ap if (h, t) == (holder, target)), 0)


def add_ap(state: State, holder: int, target: int, n: int) -> State:
    """``state`` with ``n`` more (or fewer) points for ``holder`` against ``target``."""
    count = ap_of(state, holder, target) + n
    rest = tuple(e for e in state.ap if e[:2] != (holder, target))
    return replace(state, ap=tuple(sorted(rest + (((holder, target, count),) if count else ()))))


def drop_held(state: State, i: int) -> State:
    """Forget every held fatal impact held by or on character ``i``."""
    return replace(state, held=tuple(p for p in state.held if i not in p))


def pair(a: int, b: int) -> tuple[int, int]:
    """An unordered pair of characters."""
    return (min(a, b), max(a, b))
