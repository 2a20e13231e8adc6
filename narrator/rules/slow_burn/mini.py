"""Mini segments (Tracks 15 and 17): an Interference Segment or a Push for Freedom.

At most three scenes; only the members' resources, no Agency dice; both sides succeed at 5 or
under; the members win when the Opposition dice are gone by the third scene.
"""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line
from narrator.rules.base import AcceptNumber
from narrator.rules.flow import Out, push
from narrator.rules.slow_burn.steps import (
    STEPS, ask, faces_said, outcome, roll, successes, track,
)
from narrator.rules.slow_burn.state import (
    MINI_SCENES, PATH_END, Mini, State, names, with_spy,
)


def start_mini(state: State, kind: str, members: tuple[int, ...], dice: int) -> Out:
    """Begin a mini segment of ``kind`` ("interference" or "push") with ``dice`` Opposition."""
    state = replace(state, mini=Mini(kind, members, dice))
    said = (Line(f"said.{kind}_start", {"spies": names(state, members), "dice": dice}),)
    return push(state, ("mini_scene", -1)), said


def _mini(state: State) -> Mini:
    assert state.mini is not None
    return state.mini


@STEPS.action("mini_scene")
def _mini_scene(state: State, _: int):
    mini = replace(_mini(state), scene=_mini(state).scene + 1, dice=0, against=0, successes=0)
    state = replace(state, mini=mini)
    said = (Line("said.mini_scene", {"scene": mini.scene, "of": MINI_SCENES,
                                     "dice": mini.opposition}),)
    resources = tuple(("mini_resources", i) for i in mini.members)
    return push(state, *resources, ("mini_roll", -1)), said


@STEPS.question("mini_resources", lambda s, i: ask(
    "ask.mini_resources", AcceptNumber(0, s.spies[i].resources),
    spy=s.spies[i].name, free=s.spies[i].resources))
def _mini_resources(state: State, given, index: int):
    state = replace(state, mini=replace(_mini(state), dice=_mini(state).dice + given.value))
    return state, (Line("said.resources", {"spy": state.spies[index].name,
                                           "dice": given.value}),)


@STEPS.action("mini_roll")
def _mini_roll(state: State, _: int):
    job = (("mini_job", -1),) if _mini(state).dice else ()
    return push(state, ("mini_opposition", -1), *job, ("mini_resolve", -1)), ()


@STEPS.question("mini_opposition", lambda s, _: ask(
    "ask.mini_opposition", *roll(_mini(s).opposition),
    dice=_mini(s).opposition))
def _mini_opposition(state: State, given, _: int):
    count = successes(given)
    state = replace(state, mini=replace(_mini(state), against=count))
    return state, faces_said(given) + (Line("said.opposition_successes", {"successes": count}),)


@STEPS.question("mini_job", lambda s, _: ask("ask.mini_job", *roll(_mini(s).dice),
                                       dice=_mini(s).dice))
def _mini_job(state: State, given, _: int):
    count = successes(given)
    state = replace(state, mini=replace(_mini(state), successes=count))
    return state, faces_said(given) + (Line("said.mini_successes", {"successes": count}),)


@STEPS.action("mini_resolve")
def _mini_resolve(state: State, _: int):
    mini = _mini(state)
    left = max(0, mini.opposition - mini.successes)
    said = (outcome(mini.successes, mini.against, state.options.tie),
            Line("said.discard", {"left": left}))
    state = replace(state, mini=replace(mini, opposition=left))
    if left and mini.scene < MINI_SCENES:
        return push(state, ("mini_scene", -1)), said
    state, more = _end(state, won=not left)
    return push(state, ("narrate", -1), ("back_to_job", -1)), said + more


@STEPS.action("back_to_job")
def _back_to_job(state: State, _: int):
    return state, (Line("said.back_to_job"),)


def _end(state: State, won: bool) -> Out:
    mini = _mini(state)
    state = replace(state, mini=None)
    if mini.kind == "interference":
        key = "said.interference_won" if won else "said.interference_lost"
        return state, (Line(key, {"spies": names(state, mini.members)}),)
    if not won:
        return state, (Line("said.push_failed", {"spies": names(state, mini.members)}),)
    said: tuple = ()
    for index in mini.members:
        state, more = advance(state, index)
        said += more
    return state, said


def advance(state: State, index: int) -> Out:
    """Track 17: a won push moves the spy one space; the final push takes them off the
    blacklist (Track 19). Which push is final is the option ``final_push``."""
    spy = state.spies[index]
    assert spy.path is not None
    onto = state.options.final_push == "onto_ten"
    path = min(PATH_END, spy.path + 1)
    if (path if onto else spy.path) < PATH_END:
        return (with_spy(state, index, path=path),
                (Line("said.advance", {"spy": spy.name, "path": path}),))
    state = with_spy(state, index, path=PATH_END, free=True, persistent=0, ignoring=False,
                     penalty=0)
    state, said = track(state, 19)
    return state, said + (Line("said.freed", {"spy": spy.name}),)
