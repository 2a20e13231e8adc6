"""Marks the table asks for directly: harm, stress, trauma, coin, stash and load items
(SRD "Harm", "Stress & Trauma", "Coin and Stash", "Loadout")."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line, Number
from narrator.rules.base import AcceptNumber, AcceptText, AcceptWords
from narrator.rules.flow import Out, Refused, ask
from narrator.rules.blades.flow import (
    STEPS, begin, character_accepts, chosen_character, entry, question, step,
)
from narrator.rules.blades.sheet import add_trauma, mark_stress, record_harm
from narrator.rules.blades.state import (
    CARRY_MAX, HARM_LEVELS, LOADS, STASH_MAX, TRAUMAS, State,
)

CANCEL = "cancel"


def _name(s: State) -> dict:
    return {"name": s.who().name}


# --------------------------------------------------------------------------- harm


@entry("harm")
def _harm(state: State) -> Out:
    return step(begin(state, "harm", "harm.level"))


@question("harm.level", lambda s: Line("ask.harm_level", _name(s)),
          lambda s: (AcceptWords(tuple(HARM_LEVELS.values())), AcceptNumber(1, 4)))
def _harm_level(state: State, given) -> Out:
    level = (given.value if isinstance(given, Number)
             else next(n for n, w in HARM_LEVELS.items() if w == given.word))
    return step(state.then("harm.what", level=level))


@question("harm.what", lambda s: Line("ask.harm_what", _name(s)),
          lambda s: (AcceptText("harm"),))
def _harm_what(state: State, given) -> Out:
    state, said = record_harm(state.menu(), state.get("who"), state.get("level"),
                              given.text.strip())
    return step(state, *said)


# --------------------------------------------------------------------------- stress and trauma


@entry("stress")
def _stress(state: State) -> Out:
    return step(begin(state, "stress", "stress.change"))


@question("stress.change", lambda s: Line("ask.stress", {**_name(s), "stress": s.who().stress}),
          lambda s: (AcceptWords((), ("mark", "clear")),))
def _stress_change(state: State, given) -> Out:
    amount = given.number if given.word == "mark" else -given.number
    state, said = mark_stress(state.menu(), state.get("who"), amount)
    return step(state, *said)


def _open_traumas(state: State, index: int) -> tuple[str, ...]:
    """The conditions not yet taken: each is taken once."""
    return tuple(t for t in TRAUMAS if t not in state.crew[index].traumas)


@STEPS.question("trauma", lambda s, index: ask("ask.trauma",
                                           AcceptWords(_open_traumas(s, index)),
                                           why="why.trauma",
                                           name=s.crew[index].name,
                                           conditions=list(_open_traumas(s, index))))
def _trauma(state: State, given, index: int) -> Out:
    state, said = add_trauma(state, index, given.word)
    return step(state, *said)


# --------------------------------------------------------------------------- coin and stash


@entry("coin", among=None)
def _coin(state: State) -> Out:
    return step(state.menu().then("coin.who"))


@question("coin.who", lambda s: Line("ask.coin_who"),
          lambda s: character_accepts(s, s.active(), "crew"))
def _coin_who(state: State, given) -> Out:
    if getattr(given, "word", None) == "crew":
        return step(state.then("coin.change", who=None))
    return step(state.then("coin.change", who=chosen_character(state, given)))


def _holder(s: State) -> dict:
    if s.get("who") is None:
        return {"name": "the crew", "coin": s.coin}
    return {"name": s.who().name, "coin": s.who().coin}


@question("coin.change",
          lambda s: Line("ask.coin_crew" if s.get("who") is None else "ask.coin", _holder(s)),
          lambda s: (AcceptWords((CANCEL,), ("gain", "spend")),))
def _coin_change(state: State, given) -> Out:
    """Spending more than is held is refused; a scoundrel keeps at most 4 coin on hand and the
    lair holds its limit (the excess must be spent soon)."""
    if given.word == CANCEL:
        return step(state.menu())
    holder = _holder(state)
    amount = given.number if given.word == "gain" else -given.number
    if holder["coin"] + amount < 0:
        raise Refused("reject.no_coin", **holder)
    if state.get("who") is None:
        coin = state.coin + amount
        said = [Line("coin.crew", {"coin": coin})]
        if coin > state.lair_coin:
            said.append(Line("coin.over_lair", {"coin": coin, "limit": state.lair_coin}))
        return step(replace(state, coin=coin).menu(), *said)
    if holder["coin"] + amount > CARRY_MAX:
        raise Refused("reject.carry", **holder)
    return step(set_marks(state, coin=holder["coin"] + amount).menu(),
                Line("coin.held", {"name": holder["name"], "coin": holder["coin"] + amount}))


def set_marks(state: State, **marks) -> State:
    return state.with_character(state.get("who"), replace(state.who(), **marks))


@entry("stash")
def _stash(state: State) -> Out:
    return step(begin(state, "stash", "stash.change"))


@question("stash.change",
          lambda s: Line("ask.stash", {**_name(s), "stash": s.who().stash, "coin": s.who().coin}),
          lambda s: (AcceptWords((CANCEL,), ("put", "take")),))
def _stash_change(state: State, given) -> Out:
    """Put coin in the stash (up to 40), or take coin out at two stash for each coin."""
    if given.word == CANCEL:
        return step(state.menu())
    c, n = state.who(), given.number
    if given.word == "put":
        if n > c.coin:
            raise Refused("reject.no_coin", name=c.name, coin=c.coin)
        if c.stash + n > STASH_MAX:
            raise Refused("reject.stash_full", name=c.name, stash=c.stash)
        state = set_marks(state, coin=c.coin - n, stash=c.stash + n)
    else:
        if 2 * n > c.stash:
            raise Refused("reject.stash_low", name=c.name, stash=c.stash)
        if c.coin + n > CARRY_MAX:
            raise Refused("reject.carry", name=c.name, coin=c.coin)
        state = set_marks(state, coin=c.coin + n, stash=c.stash - 2 * n)
    c = state.who()
    return step(state.menu(), Line("stash.now", {"name": c.name, "stash": c.stash,
                                                 "coin": c.coin, "lifestyle": c.stash // 10}))


# --------------------------------------------------------------------------- load


def loaded(state: State) -> list[int]:
    return [i for i in state.active() if state.crew[i].load]


@entry("item", phases=("score",), among=loaded)
def _item(state: State) -> Out:
    return step(begin(state, "item", "item.size", among=loaded(state)))


@question("item.size", lambda s: Line("ask.item", _name(s)),
          lambda s: (AcceptNumber(1, 2), AcceptWords((CANCEL,))))
def _item_size(state: State, given) -> Out:
    """An item fills one or two boxes; no more than the chosen load allows."""
    if not isinstance(given, Number):
        return step(state.menu())
    c = state.who()
    limit = LOADS[c.load]
    if c.items + given.value > limit:
        raise Refused("reject.load", name=c.name, load=c.load, items=c.items, limit=limit)
    state = set_marks(state, items=c.items + given.value)
    return step(state.menu(), Line("item.used", {"name": c.name, "items": c.items + given.value,
                                                 "limit": limit}))
