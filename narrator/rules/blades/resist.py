"""The resistance roll (SRD "Resistance & Armor", "Pushing Yourself")."""

from __future__ import annotations

from narrator.events import Line
from narrator.rules.base import AcceptNumber, AcceptWords
from narrator.rules.flow import Out
from narrator.rules.blades.flow import begin, entry, question, roll_accepts, roll_prompt, step
from narrator.rules.blades.judge import judge, kept, resistance_cost
from narrator.rules.blades.sheet import mark_stress
from narrator.rules.blades.state import ATTRIBUTES, State


@entry("resist")
def _resist(state: State) -> Out:
    return step(begin(state, "resist", "res.attribute"))


@question("res.attribute", lambda s: Line("ask.attribute", {"name": s.who().name}),
          lambda s: (AcceptWords(tuple(ATTRIBUTES)),))
def _attribute(state: State, given) -> Out:
    return step(state.then("res.rating", attribute=given.word))


@question("res.rating",
          lambda s: Line("ask.attribute_rating", {"name": s.who().name,
                                                  "attribute": s.get("attribute"),
                                                  "actions": list(ATTRIBUTES[s.get("attribute")])}),
          lambda s: (AcceptNumber(0, 4),))
def _rating(state: State, given) -> Out:
    """The attribute's rating is how many of its four actions have a first dot."""
    return step(state.then("res.push", rating=given.value),
                Line("resist.rating", {"attribute": state.get("attribute"),
                                       "rating": given.value}))


@question("res.push", lambda s: Line("ask.resist_push", {"name": s.who().name}),
          lambda s: (AcceptWords(("push", "no")),))
def _push(state: State, given) -> Out:
    if given.word == "no":
        return step(state.then("res.dice", bonus=0))
    state, said = mark_stress(state.then("res.dice", bonus=1), state.get("who"), 2)
    return step(state, *said)


def pool(s: State) -> int:
    return s.get("rating") + s.get("bonus")


@question("res.dice", lambda s: roll_prompt("ask.resist_dice", pool(s)),
          lambda s: roll_accepts(pool(s)))
def _dice(state: State, given) -> Out:
    """Resisting always works; it costs 6 stress minus the kept die, and a critical clears 1."""
    cost = resistance_cost(given.faces, pool(state))
    name = state.who().name
    if judge(given.faces, pool(state)) == "critical":
        head = Line("resist.critical", {"name": name, "faces": list(given.faces)})
    else:
        head = Line("resist.cost", {"name": name, "faces": list(given.faces),
                                    "die": kept(given.faces, pool(state)), "cost": cost})
    state, said = mark_stress(state.menu(), state.get("who"), cost)
    return step(state, head, *said, Line("resist.done"))
