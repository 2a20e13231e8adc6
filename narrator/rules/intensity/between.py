"""Between rounds and between scenes: another round, rest (taxes end), healing, new characters."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import GameInput, Line
from narrator.rules.flow import Out
from narrator.rules.intensity.model import State, add_ap, pair, with_char, with_trait
from narrator.rules.intensity.steps import STEPS, go, words

BETWEEN = ("scene", "rest", "heal", "add", "finish")
#: advantage points an unhurt main character earns when a foe heals this
HEAL_AWARD = {"damage": 1, "wound": 2}


@STEPS.question("round_end", lambda s: words("ask.round_end", ("round", "end")))
def take_round_end(state: State, given: GameInput) -> Out:
    return go("round" if given.word == "round" else "scene_end", state)


@STEPS.question("between", lambda s: words("ask.between", BETWEEN))
def take_between(state: State, given: GameInput) -> Out:
    if given.word == "rest":
        chars = tuple(replace(c, traits=tuple(replace(t, tax=0) for t in c.traits))
                      for c in state.chars)
        return go("between", replace(state, chars=chars), Line("said.rested"))
    if given.word == "add":
        return go("name", replace(state, planned=len(state.chars) + 1))
    if given.word == "finish":
        return state, (Line("said.finished"),)  # nothing left: the end
    return go(given.word, state)


def _healer(state: State, start: int) -> int | None:
    return next((i for i in range(start, len(state.chars))
                 if state.chars[i].hurt and not state.chars[i].fallen), None)


@STEPS.action("heal")
def enter_heal(state: State) -> Out:
    first = _healer(state, 0)
    if first is None:
        return go("between", replace(state, foes=()), Line("said.no_heal"))
    return go("heal.ask", replace(state, cursor=first, healed=()))


def _heal_words(state: State) -> tuple[tuple[str, ...], list[str]]:
    c = state.chars[state.cursor]
    damaged = [t for t in c.traits if t.damage]
    keys = (("wound",) if c.wounds else ()) + tuple(t.key for t in damaged)
    return keys, (["a wound"] if c.wounds else []) + [t.name for t in damaged]


@STEPS.question("heal.ask", lambda s: words("ask.heal", _heal_words(s)[0] + ("no",),
                               name=s.chars[s.cursor].name, choices=_heal_words(s)[1]))
def take_heal(state: State, given: GameInput) -> Out:
    """Each hurt character gets to heal one impact, or may decline ("no": not in the fiction)."""
    i = state.cursor
    c = state.chars[i]
    if given.word == "no":
        line = Line("said.heal_declined", {"name": c.name})
    elif given.word == "wound":
        state, kind = with_char(state, i, wounds=c.wounds - 1), "wound"
        line = Line("said.healed_wound", {"name": c.name})
    else:
        t = next(k for k, t in enumerate(c.traits) if t.key == given.word)
        state, kind = with_trait(state, i, t, damage=c.traits[t].damage - 1), "damage"
        line = Line("said.healed_damage", {"name": c.name, "trait": c.traits[t].name})
    if given.word != "no":
        state = replace(state, healed=state.healed + ((i, kind),))
    following = _healer(state, i + 1)
    if following is not None:
        return go("heal.ask", replace(state, cursor=following), line)
    return _award(state, line)


def _award(state: State, *say: Line) -> Out:
    """Unhurt main characters gain advantage on each foe (since the last healing) who healed."""
    healers = {i for i, _ in state.healed}
    lines = list(say)
    for m, c in enumerate(state.chars):
        if not c.main or c.fallen or m in healers:
            continue
        for h, kind in state.healed:
            if pair(m, h) in state.foes:
                state = add_ap(state, m, h, HEAL_AWARD[kind])
                lines.append(Line("said.heal_award", {"name": c.name, "count": HEAL_AWARD[kind],
                                                      "target": state.chars[h].name}))
    return go("between", replace(state, foes=(), healed=()), *lines)
