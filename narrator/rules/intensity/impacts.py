"""The impact the successful attacker chooses, or a negotiated outcome instead."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import GameInput, Line
from narrator.rules.base import Expectation
from narrator.rules.flow import Out
from narrator.rules.intensity.exchange import fight_names
from narrator.rules.intensity.model import (
    State, add_ap, ap_of, die_name, drop_held, with_char, with_trait,
)
from narrator.rules.intensity.steps import STEPS, go, words


def _taxable(state: State) -> tuple[int, ...]:
    return state.chars[state.fight.defender].usable()


def _tax(state: State, t: int) -> Out:
    d = state.fight.defender
    trait = state.chars[d].traits[t]
    state = with_trait(state, d, t, tax=trait.tax + 1)
    return go("done", state, Line("said.taxed", {"target": state.chars[d].name,
                                                 "trait": trait.name,
                                                 "die": die_name(state.chars[d].size(t))}))


@STEPS.action("impact.tax")
def impact_tax(state: State) -> Out:
    usable = _taxable(state)
    return _tax(state, usable[0]) if len(usable) == 1 else go("tax", state)


def _ask_tax(state: State) -> Expectation:
    c = state.chars[state.fight.defender]
    return words("ask.tax", tuple(c.traits[t].key for t in _taxable(state)), target=c.name,
                 choices=[c.traits[t].name for t in _taxable(state)])


@STEPS.question("tax", _ask_tax)
def take_tax(state: State, given: GameInput) -> Out:
    c = state.chars[state.fight.defender]
    return _tax(state, next(t for t in _taxable(state) if c.traits[t].key == given.word))


@STEPS.action("impact.advantage")
def impact_advantage(state: State) -> Out:
    f = state.fight
    state = add_ap(state, f.attacker, f.defender, 1)
    line = Line("said.advantage", {**fight_names(state),
                                   "count": ap_of(state, f.attacker, f.defender)})
    return go("done", state, line)


@STEPS.action("impact.damage")
def impact_damage(state: State) -> Out:
    """Damage falls on the trait the defender used this round."""
    d = state.fight.defender
    t = state.decls[d].trait
    trait = state.chars[d].traits[t]
    state = with_trait(state, d, t, damage=trait.damage + 1)
    return go("done", state, Line("said.damaged", {"target": state.chars[d].name,
                                                   "trait": trait.name,
                                                   "die": die_name(state.chars[d].size(t))}))


def wound(state: State, i: int) -> tuple[State, Line]:
    """Character ``i`` wounded: every trait one step lower."""
    state = with_char(state, i, wounds=state.chars[i].wounds + 1)
    c = state.chars[i]
    return state, Line("said.wounded", {"target": c.name, "traits": [
        f"{t.name} {die_name(c.size(k))}" for k, t in enumerate(c.traits)]})


@STEPS.action("impact.wound")
def impact_wound(state: State) -> Out:
    state, line = wound(state, state.fight.defender)
    return go("done", state, line)


def fall(state: State, i: int) -> State:
    """Character ``i`` taken by a fatal impact: out for good, nothing held by or on them."""
    return drop_held(with_char(state, i, fallen=True), i)


@STEPS.action("impact.fatal")
def impact_fatal(state: State) -> Out:
    line = Line("said.fatal", fight_names(state))
    return go("done", fall(state, state.fight.defender), line)


@STEPS.action("impact.hold")
def impact_hold(state: State) -> Out:
    f = state.fight
    held = tuple(sorted(set(state.held) | {(f.attacker, f.defender)}))
    return go("done", replace(state, held=held), Line("said.hold", fight_names(state)))


@STEPS.action("impact.negotiate")
def impact_negotiate(state: State) -> Out:
    """No impact; the deal may spend a held fatal impact (asked when the action is done)."""
    return go("done", state, Line("said.negotiated", fight_names(state)))
