"""Progress clocks (SRD "Progress clocks"): made, ticked and read back by voice, one question
at a time. Racing clocks are made as a pair; a linked clock opens when the clock it follows
fills; only a tug-of-war clock can be ticked down."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Continue, Line, Number
from narrator.rules.base import AcceptContinue, AcceptNumber, AcceptText, AcceptWords
from narrator.rules.flow import Out
from narrator.rules.blades.flow import entry, question, step
from narrator.rules.blades.state import CLOCK_SIZES, Clock, State, spoken, unique

KINDS = ("progress", "racing", "linked", "tug", "tug war", "tug of war")


def read_clock(clock: Clock) -> Line:
    """A clock said aloud: its fill, and what makes it special."""
    params = {"name": clock.name, "filled": clock.filled, "size": clock.size}
    if clock.after:
        return Line("clock.read.linked", {**params, "after": clock.after})
    if clock.rival:
        return Line("clock.read.racing", {**params, "rival": clock.rival})
    return Line("clock.read.tug" if clock.tug else "clock.read", params)


def _open(state: State, clock: Clock) -> bool:
    """A linked clock can be ticked once the clock it follows is full."""
    return not clock.after or state.clock(clock.after).full


def candidates(state: State, op: str) -> list[Clock]:
    """The clocks an operation can be about."""
    if op == "tick":
        return [c for c in state.clocks if not c.full and _open(state, c)]
    if op == "tick down":
        return [c for c in state.clocks if c.tug and c.filled and not c.full]
    return list(state.clocks)


@entry("clock", among=None)
def _clock(state: State) -> Out:
    """With no clock to tick or remove, a new one is the only choice: its questions start."""
    return step(state.menu().then("clock.op" if len(_ops(state)) > 1 else "clock.kind"))


@entry("clocks", among=None)
def _clocks(state: State) -> Out:
    return step(state.menu(), *([read_clock(c) for c in state.clocks] or [Line("clock.none")]))


def _ops(s: State) -> tuple[str, ...]:
    """new, and each operation some clock can take now."""
    return ("new",) + tuple(op for op in ("tick", "tick down", "remove") if candidates(s, op))


@question("clock.op", lambda s: Line("ask.clock_op", {"ops": list(_ops(s))}),
          lambda s: (AcceptWords(_ops(s)),))
def _op(state: State, given) -> Out:
    if given.word == "new":
        return step(state.then("clock.kind"))
    return step(state.then("clock.pick", op=given.word))


def _kinds(s: State) -> tuple[str, ...]:
    """A linked clock needs a clock to follow."""
    return tuple(k for k in KINDS if k != "linked" or s.clocks)


@question("clock.kind", lambda s: Line("ask.clock_kind" if s.clocks else "ask.clock_kind.first"),
          lambda s: (AcceptWords(_kinds(s)), AcceptContinue()))
def _kind(state: State, given) -> Out:
    kind = "progress" if isinstance(given, Continue) else given.word.split()[0]
    if kind == "linked":
        return step(state.then("clock.pick", op="link", kind=kind))
    return step(state.then("clock.size", kind=kind))


def _pick_names(s: State) -> list[str]:
    return [c.name for c in candidates(s, s.get("op"))]


@question("clock.pick", lambda s: Line("ask.clock_pick", {"names": _pick_names(s)}),
          lambda s: (AcceptWords(tuple(spoken(n) for n in _pick_names(s))),
                     AcceptNumber(1, len(_pick_names(s)))))
def _pick(state: State, given) -> Out:
    """A clock is chosen by name or by its place in the list just read."""
    names = _pick_names(state)
    name = (names[given.value - 1] if isinstance(given, Number)
            else next(n for n in names if spoken(n) == given.word))
    op = state.get("op")
    if op == "link":
        return step(state.then("clock.size", after=name))
    if op == "remove":
        return step(_remove(state, name).menu(), Line("clock.removed", {"name": name}))
    return step(state.then("clock.ticks", clock=name))


def _remove(state: State, name: str) -> State:
    """Drop a clock; clocks linked to it or racing it stand alone."""
    rest = tuple(replace(c, after="" if c.after == name else c.after,
                         rival="" if c.rival == name else c.rival)
                 for c in state.clocks if c.name != name)
    return replace(state, clocks=rest)


@question("clock.size",
          lambda s: Line("ask.rival_size" if s.get("racer") else "ask.clock_size"),
          lambda s: tuple(AcceptNumber(n, n) for n in CLOCK_SIZES))
def _size(state: State, given) -> Out:
    return step(state.then("clock.name", size=given.value))


@question("clock.name",
          lambda s: Line("ask.rival_name" if s.get("racer") else "ask.clock_name",
                         {"size": s.get("size"), "racer": s.get("racer")}),
          lambda s: (AcceptText("clock name"),))
def _name(state: State, given) -> Out:
    name = unique(given.text.strip(), [c.name for c in state.clocks])
    racer = state.get("racer")
    clock = Clock(name, state.get("size"), tug=state.get("kind") == "tug",
                  rival=racer or "", after=state.get("after") or "")
    state = replace(state, clocks=state.clocks + (clock,))
    said = Line("clock.made", {"name": name, "size": clock.size})
    if racer:
        return step(state.with_clock(replace(state.clock(racer), rival=name)).menu(), said,
                    Line("clock.racing", {"name": racer, "rival": name}))
    if state.get("kind") == "racing":
        return step(state.then("clock.size", racer=name), said)
    return step(state.menu(), said)


@question("clock.ticks",
          lambda s: Line("ask.ticks", {"name": s.get("clock"), "op": s.get("op")}),
          lambda s: (AcceptNumber(1, s.clock(s.get("clock")).size),))
def _ticks(state: State, given) -> Out:
    state, said = tick(state.menu(), state.get("clock"),
                       -given.value if state.get("op") == "tick down" else given.value)
    return step(state, *said)


def tick(state: State, name: str, amount: int) -> tuple[State, list[Line]]:
    """Fill (or empty) segments; a clock that fills may win its race and opens linked ones."""
    clock = state.clock(name)
    clock = replace(clock, filled=max(0, min(clock.size, clock.filled + amount)))
    state = state.with_clock(clock)
    said = [Line("clock.ticked", {"name": name, "filled": clock.filled, "size": clock.size})]
    if clock.full:
        said.append(Line("clock.full", {"name": name}))
        if clock.rival and not state.clock(clock.rival).full:
            said.append(Line("clock.won", {"name": name, "rival": clock.rival}))
        said += [Line("clock.opened", {"name": c.name, "after": name})
                 for c in state.clocks if c.after == name]
    return state, said
