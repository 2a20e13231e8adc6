"""The Agency (Tracks 10, 11, 14, 15): the interference check, who is implicated, and each
implicated spy's choice to respond or ignore."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line
from narrator.rules.base import AcceptDice, AcceptWords
from narrator.rules.flow import ask, push
from narrator.rules.slow_burn.steps import STEPS, agency_roll, faces_said, interferes, SIDES, track
from narrator.rules.slow_burn.mini import start_mini
from narrator.rules.slow_burn.state import (
    AGENCY_TARGET, IMPLICATED_TARGET, State, names, on_job, with_spy,
)

RESPOND_WORDS = ("respond", "ignore")


def respond(state: State, index: int):
    """Spy ``index`` answers the Agency: the lost resource comes back (and, unless the table
    keeps penalties for the whole Job, the penalty ends); they play the Interference Segment."""
    spy = state.spies[index]
    penalty = spy.penalty if state.options.ignore_penalty == "whole_job" else 0
    state = with_spy(state, index, ignoring=False, penalty=penalty)
    state = replace(state, scene=replace(state.scene,
                                         responders=state.scene.responders + (index,)))
    return state, (Line("said.respond", {"spy": spy.name}),)


@STEPS.action("prepare")
def _prepare(state: State, _: int):
    """Tracks 10–11: the spies on the Job roll their persistent dice, the Handler theirs."""
    state, said = track(state, 10)
    state, more = track(state, 11)
    spies = tuple(("persistent_roll", i) for i in on_job(state) if state.spies[i].persistent)
    handler = (("handler_roll", -1),) if state.agency else ()
    return push(state, *spies, *handler, ("maybe_fleur", -1), ("interfere", -1)), said + more


@STEPS.question("persistent_roll", lambda s, i: ask(
    "ask.persistent_roll", *agency_roll(s.spies[i].persistent),
    spy=s.spies[i].name, dice=s.spies[i].persistent))
def _persistent_roll(state: State, given, index: int):
    spy = state.spies[index]
    if not interferes(given, AGENCY_TARGET):
        return state, faces_said(given) + (Line("said.persistent_quiet", {"spy": spy.name}),)
    state = with_spy(state, index, persistent=0)
    scene = replace(state.scene, triggered=state.scene.triggered + (index,))
    return (replace(state, scene=scene),
            faces_said(given) + (Line("said.persistent_hit", {"spy": spy.name}),))


@STEPS.question("handler_roll", lambda s, _: ask("ask.handler_roll", *agency_roll(s.agency),
                                           dice=s.agency))
def _handler_roll(state: State, given, _: int):
    if not interferes(given, AGENCY_TARGET):
        return state, faces_said(given) + (Line("said.handler_quiet"),)
    state = replace(state, agency=0, scene=replace(state.scene, handler=True))
    return state, faces_said(given) + (Line("said.handler_hit"),)


@STEPS.action("maybe_fleur")
def _maybe_fleur(state: State, _: int):
    """Track 11: with no interference rolled, the Handler may spend a Fleur-de-Lis."""
    quiet = not state.scene.triggered and not state.scene.handler
    return (push(state, ("fleur", -1)) if quiet and state.fleur else state), ()


@STEPS.question("fleur", lambda s, _: ask("ask.fleur", AcceptWords(("yes", "no")), left=s.fleur))
def _fleur(state: State, given, _: int):
    if given.word == "no":
        return state, (Line("said.fleur_kept", {"left": state.fleur}),)
    state = replace(state, fleur=state.fleur - 1, scene=replace(state.scene, handler=True))
    return state, (Line("said.fleur_spent", {"left": state.fleur}),)


@STEPS.action("interfere")
def _interfere(state: State, _: int):
    """Track 14: who is implicated. Own dice implicate their spy outright; the Handler's dice
    make every other spy on the Job roll a die."""
    scene = state.scene
    if not scene.triggered and not scene.handler:
        return push(state, ("roll", -1)), (Line("said.no_interference"),)
    state, said = track(state, 14)
    state = replace(state, scene=replace(scene, implicated=scene.triggered))
    rolls = ()
    if scene.handler:
        rolls = tuple(("implicate_roll", i) for i in on_job(state)
                      if i not in scene.triggered and not state.spies[i].free)
    return push(state, *rolls, ("implicated", -1)), said


@STEPS.question("implicate_roll", lambda s, i: ask("ask.implicate_roll", AcceptDice(SIDES),
                                             spy=s.spies[i].name))
def _implicate_roll(state: State, given, index: int):
    spy = state.spies[index].name
    if given.faces[0] > IMPLICATED_TARGET:
        return state, faces_said(given) + (Line("said.not_implicated", {"spy": spy}),)
    scene = replace(state.scene, implicated=state.scene.implicated + (index,))
    return replace(state, scene=scene), faces_said(given) + (Line("said.implicated_roll",
                                                                  {"spy": spy}),)


@STEPS.action("implicated")
def _implicated(state: State, _: int):
    """Implicated spies' resources are distracted: they give no Job dice this scene."""
    implicated = state.scene.implicated
    if not implicated:
        return push(state, ("roll", -1)), (Line("said.nobody_implicated"),)
    dice = tuple(0 if i in implicated else n for i, n in enumerate(state.scene.dice))
    state = replace(state, scene=replace(state.scene, dice=dice))
    said = (Line("said.implicated", {"spies": names(state, implicated)}),)
    choices = tuple(("respond", i) for i in implicated)
    return push(state, *choices, ("answer_interference", -1), ("roll", -1)), said


@STEPS.question("respond", lambda s, i: ask("ask.respond", AcceptWords(RESPOND_WORDS),
                                      spy=s.spies[i].name))
def _respond(state: State, given, index: int):
    if given.word == "respond":
        return respond(state, index)
    spy = state.spies[index]
    penalty = spy.penalty if spy.ignoring else spy.penalty + 1
    state = with_spy(state, index, ignoring=True, penalty=penalty,
                     persistent=spy.persistent + 2)
    return state, (Line("said.ignore", {"spy": spy.name, "penalty": penalty,
                                        "persistent": spy.persistent + 2}),)


@STEPS.action("answer_interference")
def _answer_interference(state: State, _: int):
    """Track 15: the spies who respond play an Interference Segment now."""
    scene = state.scene
    if not scene.responders:
        return state, ()
    members = scene.responders
    dice = len(members)
    if state.options.interference_dice == "implicated":
        dice = len(set(members) | set(scene.implicated))
    state = replace(state, scene=replace(scene, responders=()))
    state, said = track(state, 15)
    state, more = start_mini(state, "interference", members, dice)
    return state, said + more
