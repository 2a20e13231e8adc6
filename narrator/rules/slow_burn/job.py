"""The Job (Tracks 7–13, 16, 18): segments, scenes, resources, scene dice and resolution,
declaring a Push for Freedom, and the end of an episode."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line
from narrator.rules.base import AcceptContinue, AcceptNumber, AcceptWords
from narrator.rules.slow_burn.agency import (
    RESPOND_WORDS, fleur_open, respond, spend_fleur, spent_fleur,
)
from narrator.rules.flow import push
from narrator.rules.slow_burn.steps import (
    FLEUR_WORDS, STEPS, ask, faces_said, outcome, roll, successes, track,
)
from narrator.rules.slow_burn.mini import start_mini
from narrator.rules.slow_burn.setup import NOBODY, call_name, creation, introduction
from narrator.rules.slow_burn.state import (
    FLEUR_TOKENS, JOB_SEGMENTS, Scene, Spy, State, names, on_job, with_spy,
)


def players(state: State) -> int:
    """Track 8's "players": the spies, or the spies and the Handler (option ``players``)."""
    return len(state.spies) + (state.options.players == "with_handler")


def target(state: State, index: int) -> int:
    """Track 12: Job dice succeed at the segment number plus one, less ignored scenes."""
    return state.segment + 1 - state.spies[index].penalty


@STEPS.action("job")
def _job(state: State, _: int):
    state = replace(state, episode=state.episode + 1, segment=0, read=(), heard=())
    state, said = track(state, 7)
    return push(state, ("segment", -1)), said


@STEPS.action("segment")
def _segment(state: State, _: int):
    state = replace(state, segment=state.segment + 1, opposition=2 * players(state), agency=0,
                    pushers=(), scene=Scene())
    state, said = track(state, 8)
    said += (Line("said.segment", {"segment": state.segment, "dice": state.opposition}),)
    declare = (("push", -1),) if pushable(state) else ()
    return push(state, *declare, ("scene", -1)), said


# --------------------------------------------------------------------------- Track 16


def can_push(state: State, index: int) -> bool:
    """Track 16: a spy may declare a push once an episode, if on the blacklist (with a path),
    not yet declared, and not the last spy left on the Job."""
    spy = state.spies[index]
    return (index not in state.pushers and spy.blacklisted and not spy.pushed
            and len(on_job(state)) > 1)


def pushable(state: State) -> tuple[int, ...]:
    return tuple(i for i in range(len(state.spies)) if can_push(state, i))


def _ask_push(state: State, _: int):
    """Only the spies who may push are offered (with "nobody" or "done")."""
    free = pushable(state)
    words = AcceptWords(tuple(call_name(state.spies[i].name) for i in free) + NOBODY)
    key = "ask.push_more" if state.pushers else "ask.push"
    return ask(key, words, why="why.push", spies=names(state, free))


@STEPS.question("push", _ask_push)
def _push(state: State, given, _: int):
    if given.word in NOBODY:
        if state.pushers:
            return state, (Line("said.pushers", {"spies": names(state, state.pushers)}),)
        return state, (Line("said.no_push"),)
    index = next(i for i, s in enumerate(state.spies) if call_name(s.name) == given.word)
    said: tuple = ()
    if not state.pushers:
        state, said = track(state, 16)
    state = replace(state, pushers=state.pushers + (index,))
    said += (Line("said.push", {"spy": state.spies[index].name}),)
    return push(state, ("push", -1)) if pushable(state) else state, said


# --------------------------------------------------------------------------- Tracks 9–13


@STEPS.action("scene")
def _scene(state: State, _: int):
    scene = Scene(number=state.scene.number + 1, dice=(0,) * len(state.spies))
    state = replace(state, scene=scene)
    state, said = track(state, 9)
    said += (Line("said.scene", {"segment": state.segment, "scene": scene.number,
                                 "dice": state.opposition}),)
    job = on_job(state)
    still = tuple(("still_ignoring", i) for i in job if state.spies[i].ignoring)
    resources = tuple(("resources", i) for i in job)
    return push(state, *still, ("answer_interference", -1), *resources, ("opening", -1),
                ("prepare", -1)), said


# the table plays: the scene's opening before the dice, the end of a scene or mini segment


@STEPS.question("opening", lambda s, _: ask("ask.opening", AcceptContinue()))
def _opening(state: State, given, _: int):
    return state, ()


@STEPS.question("narrate", lambda s, _: ask("ask.narrate", AcceptContinue()))
def _narrate(state: State, given, _: int):
    return state, ()


@STEPS.question("still_ignoring", lambda s, i: ask("ask.still_ignoring", AcceptWords(RESPOND_WORDS),
                                             spy=s.spies[i].name, penalty=s.spies[i].penalty))
def _still_ignoring(state: State, given, index: int):
    if given.word == "respond":
        return respond(state, index)
    spy = state.spies[index]
    state = with_spy(state, index, penalty=spy.penalty + 1)
    return state, (Line("said.still_ignoring", {"spy": spy.name, "penalty": spy.penalty + 1}),)


@STEPS.question("resources", lambda s, i: ask("ask.resources", AcceptNumber(0, s.spies[i].resources),
                                        spy=s.spies[i].name, free=s.spies[i].resources))
def _resources(state: State, given, index: int):
    count, extra = given.value, max(0, given.value - 1)
    dice = list(state.scene.dice)
    dice[index] = count
    state = replace(state, scene=replace(state.scene, dice=tuple(dice)),
                    agency=state.agency + extra)
    spy = state.spies[index].name
    if extra:
        return state, (Line("said.resources_agency", {"spy": spy, "dice": count, "agency": extra}),)
    return state, (Line("said.resources", {"spy": spy, "dice": count}),)


@STEPS.action("roll")
def _roll(state: State, _: int):
    state, said = track(state, 12)
    return push(state, ("opposition_roll", -1)), said


def _ask_opposition_roll(state: State, _: int):
    if fleur_open(state):  # the Handler's last chance to spend a Fleur-de-Lis this scene
        return ask("ask.opposition_roll_fleur", *roll(state.opposition),
                   AcceptWords(FLEUR_WORDS), why="why.opposition_roll", dice=state.opposition)
    return ask("ask.opposition_roll", *roll(state.opposition), dice=state.opposition)


@STEPS.question("opposition_roll", _ask_opposition_roll)
def _opposition_roll(state: State, given, _: int):
    if spent_fleur(given):  # before the scene dice: the Agency interferes first (Track 11)
        state, said = spend_fleur(state)
        return push(state, ("interfere", -1)), said
    count = successes(given)
    state = replace(state, scene=replace(state.scene, against=count))
    said = faces_said(given) + (Line("said.opposition_successes", {"successes": count}),)
    rolls = []
    for index, dice in enumerate(state.scene.dice):
        if dice and target(state, index) < 1:
            said += (Line("said.job_hopeless", {"spy": state.spies[index].name,
                                                "penalty": state.spies[index].penalty}),)
        elif dice:
            rolls.append(("job_roll", index))
    return push(state, *rolls, ("resolve", -1)), said


def _ask_job_roll(state: State, index: int):
    dice, aim = state.scene.dice[index], target(state, index)
    return ask("ask.job_roll", *roll(dice), spy=state.spies[index].name, dice=dice,
               target=aim)


@STEPS.question("job_roll", _ask_job_roll)
def _job_roll(state: State, given, index: int):
    count = successes(given, target(state, index))
    scene = replace(state.scene, successes=state.scene.successes + count)
    line = Line("said.job_successes", {"spy": state.spies[index].name, "successes": count})
    return replace(state, scene=scene), faces_said(given) + (line,)


@STEPS.action("resolve")
def _resolve(state: State, _: int):
    state, said = track(state, 13)
    scene = state.scene
    left = max(0, state.opposition - scene.successes)
    said += (outcome(scene.successes, scene.against, state.options.tie),
             Line("said.discard", {"left": left}))
    state = replace(state, opposition=left)
    if left:
        return push(state, ("narrate", -1), ("scene", -1)), said
    state = replace(state, agency=0)
    said += (Line("said.segment_over", {"segment": state.segment}),)
    pushing = (("push_segment", -1),) if state.pushers else ()
    last = "finish" if state.segment == JOB_SEGMENTS else "segment"
    return push(state, ("narrate", -1), *pushing, (last, -1)), said


# --------------------------------------------------------------------------- Tracks 17–18


@STEPS.action("push_segment")
def _push_segment(state: State, _: int):
    state, said = track(state, 17)
    for index in state.pushers:
        state = with_spy(state, index, pushed=True)
    state, more = start_mini(state, "push", state.pushers, len(state.pushers))
    return state, said + more


@STEPS.action("finish")
def _finish(state: State, _: int):
    """Track 18, then Track 16's price for every spy who did not push this episode."""
    state, said = track(state, 18)
    spies = []
    for spy in state.spies:
        if spy.blacklisted and not spy.pushed:
            spy = replace(spy, path=max(1, spy.path - 1), persistent=spy.persistent + 1)
            said += (Line("said.drift", {"spy": spy.name, "path": spy.path}),)
        spies.append(replace(spy, pushed=False, ignoring=False, penalty=0))
    state = replace(state, spies=tuple(spies))
    state = replace(state, opposition=0, agency=0, pushers=())
    if state.options.freed == "contact" and not any(s.blacklisted for s in state.spies):
        return state, said + (Line("said.series_over"),)
    return push(state, ("another", -1)), said


@STEPS.question("another", lambda s, _: ask("ask.another", AcceptWords(("yes", "no"))))
def _another(state: State, given, _: int):
    """Another episode now, or at the next evening: the campaign is never closed, so
    ``narrator resume`` starts the next episode from here with the same spies."""
    if given.word == "no":
        return push(state, ("next_evening", -1)), (Line("said.until_next"),)
    return next_episode(state)


@STEPS.question("next_evening", lambda s, _: ask("ask.next_evening", AcceptContinue()))
def _next_evening(state: State, given, _: int):
    return next_episode(state)


def next_episode(state: State):
    """Track 19's new characters, then Track 7. A new spy is made as at the first session:
    Track 2, their questions, Track 3 (their Fleur-de-Lis) and Track 6 (their introduction)."""
    new = Spy() if state.options.freed == "new_spy" else Spy(path=None, persistent=0)
    freed = tuple(i for i, s in enumerate(state.spies) if s.free)
    said = tuple(Line("said.replace", {"spy": state.spies[i].name}) for i in freed)
    spies = tuple(replace(new, name=s.name) if s.free else s for s in state.spies)
    state = replace(state, spies=spies)
    if state.options.fleur == "refresh":
        state = replace(state, fleur=FLEUR_TOKENS)
    items = sum((creation(i, True) for i in freed), ())
    if items:
        items = (("read", 2),) + items + introduction()
    return push(state, *items, ("job", -1)), said + (Line("said.another"),)
