"""The Agency (Tracks 10, 11, 14, 15): the interference check, who is implicated, and each
implicated spy's choice to respond or ignore."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line, Word
from narrator.rules.base import AcceptDice, AcceptWords
from narrator.rules.flow import Out, push
from narrator.rules.slow_burn.steps import (
    AGENCY_WORDS, FLEUR_WORDS, SIDES, STEPS, ask, faces_said, interferes, track,
)
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
    return push(state, *spies, *handler, ("interfere", -1)), said + more


# --------------------------------------------------------------------------- the Fleur-de-Lis


def fleur_open(state: State) -> bool:
    """Track 11: the Handler may spend a Fleur-de-Lis from the interference check until the
    scene dice are rolled, when a token is left and the Agency has not interfered yet."""
    scene = state.scene
    return state.fleur > 0 and state.mini is None and not scene.triggered and not scene.handler


def spend_fleur(state: State) -> Out:
    """The Handler spends a Fleur-de-Lis: the Agency interferes in this scene."""
    state = replace(state, fleur=state.fleur - 1, scene=replace(state.scene, handler=True))
    return state, (Line("said.fleur_spent", {"left": state.fleur}),)


def spent_fleur(given) -> bool:
    return isinstance(given, Word) and given.word in FLEUR_WORDS


def agency_roll(state: State, count: int) -> tuple:
    """Accept Agency dice as faces, or "interference" / "no interference" (or, while it is
    legal, the Handler's Fleur-de-Lis)."""
    fleur = FLEUR_WORDS if fleur_open(state) else ()
    return (AcceptWords(AGENCY_WORDS + fleur), AcceptDice(SIDES, count, count))


@STEPS.question("persistent_roll", lambda s, i: ask(
    "ask.persistent_roll", *agency_roll(s, s.spies[i].persistent),
    spy=s.spies[i].name, dice=s.spies[i].persistent))
def _persistent_roll(state: State, given, index: int):
    spy = state.spies[index]
    if spent_fleur(given):
        state, said = spend_fleur(state)
        return push(state, ("persistent_roll", index)), said
    if not interferes(given, AGENCY_TARGET):
        return state, faces_said(given) + (Line("said.persistent_quiet", {"spy": spy.name}),)
    state = with_spy(state, index, persistent=0)
    scene = replace(state.scene, triggered=state.scene.triggered + (index,))
    return (replace(state, scene=scene),
            faces_said(given) + (Line("said.persistent_hit", {"spy": spy.name}),))


@STEPS.question("handler_roll", lambda s, _: ask("ask.handler_roll", *agency_roll(s, s.agency),
                                           dice=s.agency))
def _handler_roll(state: State, given, _: int):
    if spent_fleur(given):
        state, said = spend_fleur(state)
        return push(state, ("handler_roll", -1)), said
    if not interferes(given, AGENCY_TARGET):
        return state, faces_said(given) + (Line("said.handler_quiet"),)
    state = replace(state, agency=0, scene=replace(state.scene, handler=True))
    return state, faces_said(given) + (Line("said.handler_hit"),)


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
