"""Setup (Tracks 1–6): first session or new episode, the spies, their paths and dice."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line
from narrator.rules.base import AcceptContinue, AcceptNumber, AcceptText, AcceptWords
from narrator.rules.flow import Refused, push
from narrator.rules.slow_burn.steps import STEPS, ask, track
from narrator.rules.slow_burn.state import (
    FLEUR_TOKENS, MAX_SPIES, MIN_SPIES, PATH_END, Item, Spy, State, with_spy,
)
from narrator.understand import is_command, key

SESSION_WORDS = ("first session", "new episode", "first", "new")
CONTACTS = 2          # Track 2: the players on either side each write one contact
MAX_PERSISTENT = 12   # a sanity bound for a spy's persistent Agency dice on a new episode
#: words that answer "who pushes for freedom" with nobody; no spy may be called one
NOBODY = ("nobody", "no one", "done")


def call_name(name: str) -> str:
    """How a spy is named by voice: the words understand() keeps ("The Fox" → "fox")."""
    return key(name)


def creation(index: int, first_session: bool) -> tuple[Item, ...]:
    """The questions that make spy ``index``: name, speciality, contacts (and, when the spies
    already exist, where they stand)."""
    items = (("name", index), ("speciality", index)) + (("contact", index),) * CONTACTS
    return items if first_session else items + (("path", index), ("persistent", index))


@STEPS.action("welcome")
def _welcome(state: State, _: int):
    state, said = track(state, 1)
    return push(state, ("session", -1)), said


@STEPS.question("session", lambda s, _: ask("ask.session", AcceptWords(SESSION_WORDS)))
def _session(state: State, given, _: int):
    first = given.word.startswith("first")
    state = replace(state, first_session=first)
    if not first:
        return push(state, ("spy_count", -1)), (Line("said.new_episode"),)
    state, said = track(state, 2)
    return push(state, ("spy_count", -1)), said


@STEPS.question("spy_count", lambda s, _: ask("ask.spy_count", AcceptNumber(MIN_SPIES, MAX_SPIES)))
def _spy_count(state: State, given, _: int):
    count = given.value
    state = replace(state, spies=(Spy(),) * count)
    items = sum((creation(i, state.first_session) for i in range(count)), ())
    if state.first_session:
        items += introduction(4, 5)
    elif state.options.fleur == "carry":
        items += (("fleur_left", -1),)
    return push(state, *items, ("job", -1)), (Line("said.spy_count", {"count": count}),)


def introduction(*between: int) -> tuple[Item, ...]:
    """Track 3 (the Fleur-de-Lis), the tracks ``between``, then Track 6 (the spies'
    introduction), each followed by "next" when the table is ready."""
    return sum(((("read", n), ("ready", -1)) for n in (3, *between, 6)), ())


@STEPS.action("read")
def _read(state: State, number: int):
    return track(state, number)


@STEPS.question("ready", lambda s, _: ask("ask.ready", AcceptContinue()))
def _ready(state: State, given, _: int):
    return state, ()


@STEPS.question("name", lambda s, i: ask("ask.name", AcceptText("spy's name"), number=i + 1))
def _name(state: State, given, index: int):
    name = " ".join(given.text.split())
    call = call_name(name)
    if not call or call in NOBODY or is_command(call):
        raise Refused("reject.name_unclear", name=name)
    if any(call_name(s.name) == call for j, s in enumerate(state.spies) if j != index):
        raise Refused("reject.name_taken", name=name)
    state = with_spy(state, index, name=name)
    return state, (Line("said.name", {"number": index + 1, "spy": name}),)


#: Track 2's own examples of a speciality, which a table told them often says: the recogniser
#: is given them at the speciality and contact questions (without them Whisper wrote "Magic
#: Tech." and "Demolations." for flite's and Festival's voices; with them, as said)
SPECIALITIES = ("Gadget Tech", "Demolitions", "Forgery")


@STEPS.question("speciality", lambda s, i: ask("ask.speciality",
                                         AcceptText("speciality", SPECIALITIES),
                                         spy=s.spies[i].name))
def _speciality(state: State, given, index: int):
    speciality = " ".join(given.text.split())
    spy = state.spies[index]
    return (with_spy(state, index, speciality=speciality),
            (Line("said.speciality", {"spy": spy.name, "speciality": speciality}),))


@STEPS.question("contact", lambda s, i: ask("ask.contact", AcceptText("contact", SPECIALITIES),
                                            spy=s.spies[i].name,
                                            number=len(s.spies[i].contacts) + 1))
def _contact(state: State, given, index: int):
    contact = " ".join(given.text.split())
    spy = state.spies[index]
    return (with_spy(state, index, contacts=spy.contacts + (contact,)),
            (Line("said.contact", {"spy": spy.name, "contact": contact}),))


@STEPS.question("path", lambda s, i: ask("ask.path", AcceptNumber(1, PATH_END), spy=s.spies[i].name))
def _path(state: State, given, index: int):
    spy = state.spies[index]
    return (with_spy(state, index, path=given.value),
            (Line("said.path", {"spy": spy.name, "path": given.value}),))


@STEPS.question("persistent", lambda s, i: ask("ask.persistent", AcceptNumber(0, MAX_PERSISTENT),
                                         spy=s.spies[i].name))
def _persistent(state: State, given, index: int):
    spy = state.spies[index]
    return (with_spy(state, index, persistent=given.value),
            (Line("said.persistent", {"spy": spy.name, "dice": given.value}),))


@STEPS.question("fleur_left", lambda s, _: ask("ask.fleur_left", AcceptNumber(0, FLEUR_TOKENS)))
def _fleur_left(state: State, given, _: int):
    return replace(state, fleur=given.value), (Line("said.fleur_left", {"left": given.value}),)
