"""A round up to the action order: declarations, raising intensity, everyone's roll."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import GameInput, Line
from narrator.rules.base import AcceptDice, Expectation
from narrator.rules.flow import Out
from narrator.rules.intensity.model import (
    LEVEL_OF, LEVELS, ROLES, Declaration, Hand, State, pair, put,
)
from narrator.rules.intensity.steps import STEPS, go, words

NOBODY = "nobody"


def can_act(state: State, i: int) -> bool:
    """Present, with a usable trait and someone to act against."""
    c = state.chars[i]
    return c.present and bool(c.usable()) and bool(targets(state, i))


def targets(state: State, i: int) -> tuple[int, ...]:
    """Everyone ``i`` may act against."""
    return tuple(j for j, c in enumerate(state.chars) if j != i and c.present)


def _decl(state: State, **changes) -> State:
    i = state.cursor
    return replace(state, decls=put(state.decls, i, replace(state.decls[i], **changes)))


@STEPS.action("scene")
def enter_scene(state: State) -> Out:
    chars = tuple(replace(c, out=False) for c in state.chars)
    state = replace(state, chars=chars, scene=state.scene + 1, round=0)
    return go("round", state, Line("said.scene", {"scene": state.scene}))


@STEPS.action("round")
def enter_round(state: State) -> Out:
    n = len(state.chars)
    state = replace(state, round=state.round + 1, decls=(None,) * n, hands=(None,) * n,
                    order=(), turn=0, fight=None, cursor=0)
    start = Line("said.round", {"round": state.round})
    if state.held:
        return go("held", replace(state, back="declare"), start)
    return go("declare", state, start)


@STEPS.action("declare")
def enter_declare(state: State) -> Out:
    """The next character from ``cursor`` on who can act declares; then raising."""
    if state.cursor == 0 and not any(can_act(state, i) for i in range(len(state.chars))):
        return go("scene_end", state, Line("said.no_fight"))
    i = next((i for i in range(state.cursor, len(state.chars)) if can_act(state, i)), None)
    if i is None:
        return go("raise", state)
    return go("target", replace(state, cursor=i))


def _ask_target(state: State) -> Expectation:
    options = targets(state, state.cursor)
    return words("ask.target", tuple(state.chars[j].key for j in options) + (NOBODY,),
                 name=state.chars[state.cursor].name,
                 choices=[state.chars[j].name for j in options] + [NOBODY])


@STEPS.question("target", _ask_target)
def take_target(state: State, given: GameInput) -> Out:
    """A target starts the declaration; "nobody" sits the round out (no dice, no defence)."""
    i = state.cursor
    if given.word == NOBODY:
        line = Line("said.sits_out", {"name": state.chars[i].name})
        return go("declare", replace(state, cursor=i + 1), line)
    j = next(j for j, c in enumerate(state.chars) if c.key == given.word)
    return go("intensity", replace(state, decls=put(state.decls, i, Declaration(target=j))))


@STEPS.question("intensity", lambda s: words("ask.intensity", tuple(LEVELS),
                                    name=s.chars[s.cursor].name))
def take_intensity(state: State, given: GameInput) -> Out:
    state = _decl(state, level=LEVELS[given.word])
    usable = state.chars[state.cursor].usable()
    if len(usable) == 1:
        return _declared(_decl(state, trait=usable[0]))
    return go("trait", state)


def _ask_trait(state: State) -> Expectation:
    c = state.chars[state.cursor]
    return words("ask.trait", tuple(c.traits[t].key for t in c.usable()), name=c.name,
                 choices=[f"{c.traits[t].name} d{c.size(t)}" for t in c.usable()])


@STEPS.question("trait", _ask_trait)
def take_trait(state: State, given: GameInput) -> Out:
    c = state.chars[state.cursor]
    return _declared(_decl(state, trait=next(t for t in c.usable()
                                             if c.traits[t].key == given.word)))


def _declared(state: State) -> Out:
    i = state.cursor
    d, c = state.decls[i], state.chars[i]
    line = Line("said.declared", {"name": c.name, "target": state.chars[d.target].name,
                                  "level": LEVEL_OF[d.level], "trait": c.traits[d.trait].name,
                                  "die": f"d{c.size(d.trait)}"})
    foes = tuple(sorted(set(state.foes) | {pair(i, d.target)}))
    return go("declare", replace(state, cursor=i + 1, foes=foes), line)


def _raisers(state: State) -> tuple[int, ...]:
    return tuple(i for i, d in enumerate(state.decls) if d and d.level < max(LEVELS.values()))


@STEPS.action("raise")
def enter_raise(state: State) -> Out:
    if not _raisers(state):
        return go("roll_all", state)
    return go("raise.ask", state)


@STEPS.question("raise.ask", lambda s: words("ask.raise", tuple(s.chars[i].key for i in _raisers(s))
                                + ("no",), choices=[s.chars[i].name for i in _raisers(s)]))
def take_raise(state: State, given: GameInput) -> Out:
    if given.word == "no":
        return go("roll_all", state)
    i = next(i for i in _raisers(state) if state.chars[i].key == given.word)
    return go("raise_to", replace(state, cursor=i))


def _higher(state: State) -> tuple[str, ...]:
    return tuple(w for w, size in LEVELS.items() if size > state.decls[state.cursor].level)


@STEPS.question("raise_to", lambda s: words("ask.raise_to", _higher(s), name=s.chars[s.cursor].name,
                                   level=LEVEL_OF[s.decls[s.cursor].level],
                                   choices=list(_higher(s))))
def take_raise_to(state: State, given: GameInput) -> Out:
    line = Line("said.raised", {"name": state.chars[state.cursor].name, "level": given.word})
    return go("raise", _decl(state, level=LEVELS[given.word]), line)


@STEPS.action("roll_all")
def enter_roll_all(state: State) -> Out:
    hands = tuple(d and Hand((d.level, state.chars[i].size(d.trait)))
                  for i, d in enumerate(state.decls))
    return go("roll", replace(state, hands=hands, cursor=0, die=0), Line("said.roll"))


@STEPS.action("roll")
def enter_roll(state: State) -> Out:
    """Ask the next character from ``cursor`` on for their dice; then the order."""
    i = next((i for i in range(state.cursor, len(state.hands)) if state.hands[i]), None)
    if i is None:
        return go("order", state)
    return go("roll.ask", replace(state, cursor=i))


def _ask_roll(state: State) -> Expectation:
    """One question for two dice of a size; die by die when they differ."""
    name, sizes = state.chars[state.cursor].name, state.hands[state.cursor].sizes
    if sizes[0] == sizes[1]:
        return Expectation(Line("ask.roll_pair", {"name": name, "die": f"d{sizes[0]}"}),
                           (AcceptDice(sizes[0], 2, 2),))
    size = sizes[state.die]
    return Expectation(Line("ask.roll_die", {"name": name, "role": ROLES[state.die],
                                             "die": f"d{size}"}), (AcceptDice(size),))


@STEPS.question("roll.ask", _ask_roll)
def take_roll(state: State, given: GameInput) -> Out:
    hand = state.hands[state.cursor]
    faces = given.faces if len(given.faces) == 2 else put(hand.faces, state.die, given.faces[0])
    state = replace(state, hands=put(state.hands, state.cursor, replace(hand, faces=faces)))
    if len(given.faces) == 1 and state.die == 0:
        return go("roll.ask", replace(state, die=1))
    return go("roll", replace(state, cursor=state.cursor + 1, die=0))


@STEPS.action("order")
def enter_order(state: State) -> Out:
    """Highest single die first, the other die breaking ties, then the order of the table."""
    rolled = [i for i, h in enumerate(state.hands) if h]
    order = tuple(sorted(rolled, key=lambda i: (-max(state.hands[i].faces),
                                                -min(state.hands[i].faces), i)))
    line = Line("said.order", {"order": order_words(state, order)})
    return go("action", replace(state, order=order, turn=0), line)


def order_words(state: State, order: tuple[int, ...]) -> list[str]:
    """"Louise with 9", one per character in action order."""
    return [f"{state.chars[i].name} with {max(state.hands[i].faces)}" for i in order]
