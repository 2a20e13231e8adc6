"""Half-Chance's plain state: the table's cards, the caller chain and the question now open."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

HAND = 5          # cards a player holds, counting Conditions
DEADLY = 5        # Conditions that kill
MAX_PLAYERS = 6
CUT_MAX = 99      # the cut that seeds the virtual shuffle: a number from 1 to 99
#: a target length in rounds (every living player one turn), by the word the table says
ROUNDS = {"short": 3, "normal": 6, "long": 10}
MAX_TURNS = 999   # the most turns a table may name as its target


@dataclass(frozen=True)
class Frame:
    """A card in play: who plays it, why (turn, encounter, injury) and where they are on it."""

    player: int
    card: str
    purpose: str
    pos: int = 0


class Ask(NamedTuple):
    """The open question, queued as a step (narrator/rules/flow.py): ``what`` (the step's name)
    is asked of ``player``; ``purpose`` says what a card is for.

    what: players, length, deck, cut, play, drawn, flip, call, discard, heal, swap, trim, next.
    """

    what: str
    player: int = 0
    purpose: str = ""


@dataclass(frozen=True)
class State:
    """Everything the table holds. Players are numbered from 1; ``hands`` are known only when
    the app runs the deck (``physical`` False); Conditions are tracked in both modes."""

    todo: tuple[Ask, ...]   # the open question; empty once the game is over
    players: int = 0
    physical: bool = False
    cut: int = 0
    turn: int = 0
    turns: int = 0    # turns begun so far
    target: int = 0   # the table's target length in turns; 0 plays on until one is left
    hands: tuple[tuple[str, ...], ...] = ()
    conditions: tuple[tuple[str, ...], ...] = ()
    dead: tuple[int, ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    condition_deck: tuple[str, ...] = ()
    condition_discard: tuple[str, ...] = ()
    shuffles: int = 0
    chain: tuple[Frame, ...] = ()
    played: tuple[str, ...] = ()

    @property
    def ask(self) -> Ask:
        """The open question ("over" once there is none)."""
        return self.todo[0] if self.todo else Ask("over")

    def hand(self, player: int) -> tuple[str, ...]:
        return self.hands[player - 1] if self.hands else ()

    def owned(self, player: int) -> tuple[str, ...]:
        return self.conditions[player - 1]

    def alive(self) -> tuple[int, ...]:
        return tuple(p for p in range(1, self.players + 1) if p not in self.dead)

    @property
    def top(self) -> Frame:
        return self.chain[-1]


def shuffled(cards: tuple[str, ...], cut: int, pile: str, count: int) -> tuple[str, ...]:
    """A fair shuffle (Fisher-Yates) fixed by the cut, the pile and how often it was shuffled."""
    order = list(cards)
    random.Random(f"half-chance:{cut}:{pile}:{count}").shuffle(order)
    return tuple(order)


def distinct(names: tuple[str, ...]) -> tuple[str, ...]:
    """Names once each, in order."""
    return tuple(dict.fromkeys(names))


def without(names: tuple[str, ...], name: str) -> tuple[str, ...]:
    """``names`` less one copy of ``name``."""
    i = names.index(name)
    return names[:i] + names[i + 1:]


def replaced(items: tuple, player: int, value) -> tuple:
    """``items`` with player ``player``'s entry set to ``value``."""
    return items[:player - 1] + (value,) + items[player:]
