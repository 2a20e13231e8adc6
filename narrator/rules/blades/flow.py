"""The hub-and-spoke flow: Blades' table of steps (run by narrator/rules/flow.py) and its menu.

Each question is declared with ``@question(id, prompt, accepts)`` on the function that takes
its answer. A flow starts from the menu with ``begin`` (which first asks who, when the crew has
more than one scoundrel able to act) and goes back to the menu when it is done.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from narrator.events import GameInput, Line, Number, Say
from narrator.rules.base import Accept, AcceptDice, AcceptNumber, AcceptWords, Expectation
from narrator.rules.flow import Out, Steps
from narrator.rules.blades.judge import dice_to_roll
from narrator.rules.blades.state import State, spoken


STEPS = Steps()


def question(ask: str, prompt: Callable[[State], Line],
             accepts: Callable[[State], tuple[Accept, ...]], why: str = ""):
    """Declare the decorated ``answer(state, given)`` as step ``ask``: it asks ``prompt(state)``
    and takes any of ``accepts(state)``; ``why`` (by default ``why.<ask>``) is the prompt key
    saying why it matters ("what now"), filled with the prompt's fields."""
    def expect(state: State) -> Expectation:
        asked = prompt(state)
        return Expectation(asked, accepts(state), Line(why or f"why.{ask}", asked.params))
    return STEPS.question(ask, expect)


def step(state: State, *say: Say) -> Out:
    return state, tuple(say)


@dataclass(frozen=True)
class Entry:
    """A menu word: the phases it is offered in, who may take it, and where its flow starts."""

    phases: tuple[str, ...]
    among: Callable[[State], list[int]] | None
    start: Callable[[State], Out]


#: the menu words in the order the menu says them
ORDER = ("action", "resist", "fortune", "opposed", "information", "clock", "clocks", "harm",
         "stress", "coin", "stash", "item", "armor", "activity", "recruit", "tier up",
         "experience", "next phase")
MENU: dict[str, Entry] = {}
PLAY_PHASES = ("free_play", "score", "downtime")


def entry(word: str, phases: tuple[str, ...] = PLAY_PHASES,
          among: Callable[[State], list[int]] | None = State.active):
    """Register the decorated function as what menu word ``word`` does. ``among``: the
    characters it can be about (the word is offered only when there is one); None: anyone."""
    def register(start: Callable[[State], Out]):
        MENU[word] = Entry(phases, among, start)
        return start
    return register


def menu_words(state: State) -> tuple[str, ...]:
    return tuple(w for w in ORDER if state.phase in MENU[w].phases
                 and (MENU[w].among is None or MENU[w].among(state)))


def begin(state: State, flow: str, first: str, among: list[int] | None = None) -> State:
    """Start ``flow`` at question ``first``, first asking who (out of ``among``, by default
    those able to act) when more than one could."""
    among = state.active() if among is None else among
    fresh = state.menu()
    if len(among) == 1:
        return fresh.then(first, flow=flow, who=among[0])
    return fresh.then("who", flow=flow, next=first, among=tuple(among))


def character_accepts(state: State, indexes: list[int], *extra: str) -> tuple[Accept, ...]:
    """A character is chosen by name or by their number in the roster (1 is the first)."""
    names = tuple(spoken(state.crew[i].name) for i in indexes)
    return (AcceptWords(names + extra),) + tuple(AcceptNumber(i + 1, i + 1) for i in indexes)


def chosen_character(state: State, given: GameInput) -> int | None:
    """The roster index a name or number picks, or None."""
    if isinstance(given, Number):
        return given.value - 1
    return next((i for i, c in enumerate(state.crew) if spoken(c.name) == given.word), None)


def roll_prompt(key: str, pool: int, **params) -> Line:
    """Ask for a roll's faces; a zero pool is told to roll two and keep the lower."""
    if pool <= 0:
        return Line("ask.zero_dice")
    return Line(key, {"count": pool, **params})


def roll_accepts(pool: int) -> tuple[Accept, ...]:
    return (AcceptDice(6, dice_to_roll(pool), dice_to_roll(pool)),)


def names(state: State, indexes: list[int]) -> list[str]:
    return [state.crew[i].name for i in indexes]


@question("who", lambda s: Line("ask.who", {"names": names(s, list(s.get("among")))}),
          lambda s: character_accepts(s, list(s.get("among"))), why="why.who")
def _who(state: State, given: GameInput) -> Out:
    return step(state.then(state.get("next"), who=chosen_character(state, given)))
