"""Fortune rolls (SRD "Fortune Roll"): any trait rating or 1d for luck; opposed rolls compare
two sides; gathering information reads its fortune roll as how much is learned."""

from __future__ import annotations

from narrator.events import Line, Number
from narrator.rules.base import AcceptNumber, AcceptWords
from narrator.rules.flow import Out
from narrator.rules.blades.flow import entry, question, roll_accepts, roll_prompt, step
from narrator.rules.blades.judge import RESULTS, judge
from narrator.rules.blades.state import State


@entry("fortune", among=None)
def _fortune(state: State) -> Out:
    return step(state.menu().then("fortune.pool", purpose="fortune"))


@entry("opposed", among=None)
def _opposed(state: State) -> Out:
    return step(state.menu().then("fortune.pool", purpose="opposed", side=1))


def _pool_prompt(s: State) -> Line:
    if s.get("purpose") == "opposed":
        return Line("ask.opposed_pool", {"side": s.get("side")})
    return Line("ask.fortune_pool")


@question("fortune.pool", _pool_prompt, lambda s: (AcceptNumber(0, 6), AcceptWords(("luck",))))
def _pool(state: State, given) -> Out:
    pool = given.value if isinstance(given, Number) else 1
    return step(state.then("fortune.dice", pool=pool))


@question("fortune.dice", lambda s: roll_prompt("ask.fortune_dice", s.get("pool")),
          lambda s: roll_accepts(s.get("pool")))
def _dice(state: State, given) -> Out:
    result = judge(given.faces, state.get("pool"))
    purpose = state.get("purpose")
    faces = {"faces": list(given.faces)}
    if purpose == "opposed" and state.get("side") == 1:
        return step(state.then("fortune.pool", side=2, first=result),
                    Line(f"fortune.{result}", faces))
    if purpose == "opposed":
        return step(state.menu(), Line(f"fortune.{result}", faces),
                    _compare(state.get("first"), result))
    return step(state.menu(), Line(f"{purpose}.{result}", faces))


def _compare(first: str, second: str) -> Line:
    """The better result level wins; equal levels are an even match for the table to call."""
    a, b = RESULTS.index(first), RESULTS.index(second)
    if a == b:
        return Line("opposed.even", {"result": first})
    return Line("opposed.wins", {"side": 1 if a < b else 2})
