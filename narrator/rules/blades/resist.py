"""The resistance roll asked for on its own (SRD "Resistance & Armor"), for a consequence the GM
brings outside an action roll: the attribute, then the same rating and dice questions as a
chained consequence (narrator/rules/blades/consequence.py)."""

from __future__ import annotations

from narrator.events import Line
from narrator.rules.base import AcceptWords
from narrator.rules.flow import Out
from narrator.rules.blades.flow import begin, entry, question, step
from narrator.rules.blades.state import ATTRIBUTES, State


@entry("resist")
def _resist(state: State) -> Out:
    return step(begin(state, "resist", "res.attribute"))


@question("res.attribute", lambda s: Line("ask.attribute", {"name": s.who().name}),
          lambda s: (AcceptWords(tuple(ATTRIBUTES)),), why="why.attribute")
def _attribute(state: State, given) -> Out:
    rating = state.who().rating(given.word)
    state = state.then("con.rating", attribute=given.word, kind="other", level=1, bonus=0)
    if rating is None:
        return step(state)
    return step(state.then("con.dice", rating=rating))
