"""Held fatal impacts: used or let go when a deal is made, at a round's start, or at the
scene's end (when every one still held must be settled)."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import GameInput, Line
from narrator.rules.flow import Out
from narrator.rules.intensity.impacts import fall, wound
from narrator.rules.intensity.model import State, drop_held, with_char
from narrator.rules.intensity.steps import STEPS, go, words

SCENE_END = "scene_end"


def _holders(state: State) -> tuple[int, ...]:
    return tuple(dict.fromkeys(h for h, _ in state.held))


def _victims(state: State) -> tuple[int, ...]:
    return tuple(v for h, v in state.held if h == state.holder)


def _who(state: State) -> dict[str, str]:
    return {"name": state.chars[state.holder].name, "target": state.chars[state.victim].name}


@STEPS.action("held")
def enter_held(state: State) -> Out:
    """Ask whether a held fatal is used now; without any, go back where we came from."""
    return go(state.back, state) if not state.held else go("held.ask", state)


@STEPS.question("held.ask", lambda s: words("ask.held", tuple(s.chars[h].key for h in _holders(s)) + ("no",),
                               choices=[s.chars[h].name for h in _holders(s)]))
def take_held(state: State, given: GameInput) -> Out:
    if given.word == "no":
        return go(state.back, state)
    state = replace(state, holder=next(h for h in _holders(state)
                                       if state.chars[h].key == given.word))
    victims = _victims(state)
    if len(victims) == 1:
        return go("held_how", replace(state, victim=victims[0]))
    return go("held_victim", state)


@STEPS.question("held_victim", lambda s: words(
    "ask.held_victim", tuple(s.chars[v].key for v in _victims(s)), name=s.chars[s.holder].name,
    choices=[s.chars[v].name for v in _victims(s)]))
def take_held_victim(state: State, given: GameInput) -> Out:
    victim = next(v for v in _victims(state) if state.chars[v].key == given.word)
    return go("held_how", replace(state, victim=victim))


@STEPS.question("held_how", lambda s: words("ask.held_how", ("fatal", "wound", "release"), **_who(s)))
def take_held_how(state: State, given: GameInput) -> Out:
    line = Line(f"said.held_{given.word}", _who(state))
    state = replace(state, held=tuple(p for p in state.held if p != (state.holder, state.victim)))
    if given.word == "fatal":
        return _after_use(fall(state, state.victim), line)
    if given.word == "wound":
        state, wounded = wound(state, state.victim)
        if state.back == SCENE_END:  # the scene is ending: nobody need be put out of it
            return _after_use(state, line, wounded)
        return go("held_out", state, line, wounded)
    return _after_use(state, line)


@STEPS.question("held_out", lambda s: words("ask.held_out", ("yes", "no"), **_who(s)))
def take_held_out(state: State, given: GameInput) -> Out:
    if given.word == "no":
        return _after_use(state)
    state = drop_held(with_char(state, state.victim, out=True), state.victim)
    return _after_use(state, Line("said.knocked_out", _who(state)))


def _after_use(state: State, *say: Line) -> Out:
    """At the scene's end settle the next held impact; otherwise ask if anyone else uses one."""
    return go(SCENE_END if state.back == SCENE_END else "held", state, *say)


@STEPS.action(SCENE_END)
def enter_scene_end(state: State) -> Out:
    state = replace(state, decls=(), hands=(), order=(), fight=None)
    if state.held:
        holder, victim = state.held[0]
        state = replace(state, holder=holder, victim=victim, back=SCENE_END)
        return go("held_how", state, Line("said.still_held", _who(state)))
    return go("between", replace(state, back=""), Line("said.scene_over", {"scene": state.scene}))
