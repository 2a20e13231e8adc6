"""Setting up the crew and the game structure (SRD "The Game Structure"): free play → choosing a
target and plan (with the load and the engagement roll) → score → downtime → free play."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import GameInput, Line
from narrator.rules.base import AcceptContinue, AcceptNumber, AcceptText, AcceptWords
from narrator.rules.flow import Out
from narrator.rules.blades.flow import (
    MENU, entry, menu_words, question, roll_accepts, roll_prompt, step,
)
from narrator.rules.blades.judge import judge
from narrator.rules.blades.state import LOADS, Character, State, unique

# --------------------------------------------------------------------------- setup


@question("crew_size", lambda s: Line("ask.crew_size"), lambda s: (AcceptNumber(1, 6),))
def _crew_size(state: State, given) -> Out:
    return step(replace(state, crew_size=given.value).then("name"))


@question("name", lambda s: Line("ask.name", {"n": len(s.crew) + 1}),
          lambda s: (AcceptText("name"),))
def _name(state: State, given) -> Out:
    state, said = add_character(state, given.text)
    if len(state.crew) < state.crew_size:
        return step(state.then("name"), *said)
    return step(replace(state, phase="free_play").menu(), *said, Line("phase.free_play"))


def add_character(state: State, name: str) -> tuple[State, list[Line]]:
    """A new scoundrel joins; a name already taken gets a number."""
    name = unique(name.strip(), [c.name for c in state.crew])
    state = replace(state, crew=state.crew + (Character(name),))
    return state, [Line("crew.joined", {"name": name, "n": len(state.crew)})]


@entry("recruit", among=None)
def _recruit(state: State) -> Out:
    return step(state.menu().then("recruit"))


@question("recruit", lambda s: Line("ask.recruit"), lambda s: (AcceptText("name"),))
def _recruit_name(state: State, given) -> Out:
    state, said = add_character(state, given.text)
    return step(state.menu(), *said)


# --------------------------------------------------------------------------- the phase menu


@question("menu", lambda s: Line(f"ask.menu.{s.phase}", {"choices": list(menu_words(s))}),
          lambda s: (AcceptWords(menu_words(s)),), why="why.menu")
def _menu(state: State, given) -> Out:
    return MENU[given.word].start(state)


@entry("next phase", among=None)
def _next_phase(state: State) -> Out:
    if state.phase == "free_play":
        return step(replace(state, phase="planning").menu().then("plan.target"),
                    Line("phase.planning"))
    if state.phase == "score":
        return step(replace(state, phase="downtime").menu().then("payoff"), Line("phase.payoff"))
    crew = tuple(replace(c, load="", items=0, activities=0, trained=()) for c in state.crew)
    return step(replace(state, phase="free_play", crew=crew, target="", plan="").menu(),
                Line("phase.free_play"))


# --------------------------------------------------------------------------- target and plan


@question("plan.target", lambda s: Line("ask.target"), lambda s: (AcceptText("target"),))
def _target(state: State, given) -> Out:
    return step(replace(state, target=given.text.strip()).then("plan.kind"))


@question("plan.kind", lambda s: Line("ask.plan", {"target": s.target}),
          lambda s: (AcceptText("plan"),))
def _plan(state: State, given) -> Out:
    return step(_next_load(replace(state, plan=given.text.strip())))


def _next_load(state: State) -> State:
    """Ask the next scoundrel without a load for theirs; then the engagement roll."""
    waiting = [i for i in state.active() if not state.crew[i].load]
    if waiting:
        return state.then("plan.load", who=waiting[0])
    return state.then("plan.engagement")


@question("plan.load", lambda s: Line("ask.load", {"name": s.who().name}),
          lambda s: (AcceptWords(tuple(LOADS)),), why="why.load")
def _load(state: State, given) -> Out:
    state = state.with_character(state.get("who"),
                                 replace(state.who(), load=given.word, armor_marked=0))
    return step(_next_load(state),
                Line("load.chosen", {"name": state.who().name, "load": given.word,
                                     "items": LOADS[given.word]}),
                *([Line("load.encumbered")] if given.word == "encumbered" else []))


@question("plan.engagement", lambda s: Line("ask.engagement_pool"),
          lambda s: (AcceptNumber(0, 6),), why="why.engagement")
def _engagement_pool(state: State, given) -> Out:
    return step(state.then("plan.engagement_dice", pool=given.value))


@question("plan.engagement_dice", lambda s: roll_prompt("ask.engagement_dice", s.get("pool")),
          lambda s: roll_accepts(s.get("pool")), why="why.engagement_dice")
def _engagement_dice(state: State, given) -> Out:
    result = judge(given.faces, state.get("pool"))
    return step(replace(state, phase="score").menu(),
                Line(f"engagement.{result}", {"faces": list(given.faces)}),
                Line("phase.score", {"target": state.target}))


# --------------------------------------------------------------------------- downtime opens


@question("payoff", lambda s: Line("ask.payoff"), lambda s: (AcceptNumber(0, 20),),
          why="why.payoff")
def _payoff(state: State, given) -> Out:
    coin = state.coin + given.value
    said = [Line("coin.crew", {"coin": coin})]
    if coin > state.lair_coin:
        said.append(Line("coin.over_lair", {"coin": coin, "limit": state.lair_coin}))
    return step(replace(state, coin=coin).then("rep"), *said)


@question("heat", lambda s: Line("ask.heat"), lambda s: (AcceptNumber(0, 10),), why="why.heat")
def _heat(state: State, given) -> Out:
    heat = state.heat + given.value
    return step(replace(state, heat=heat).then("entanglement"), Line("heat.now", {"heat": heat}))


@question("entanglement", lambda s: Line("ask.entanglement"), lambda s: (AcceptContinue(),))
def _entanglement(state: State, given: GameInput) -> Out:
    return step(state.menu(), Line("phase.downtime"))
