"""Making characters: how many, then each one's name, main or minor, and trait names."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import GameInput, Line
from narrator.rules.base import AcceptNumber, AcceptText, Expectation, Step, reject
from narrator.rules.intensity.model import TRAIT_DICE, Character, State, Trait, key_of, put
from narrator.rules.intensity.phases import go, phase, words
from narrator.understand import spoken

MIN_CHARACTERS, MAX_CHARACTERS = 2, 8
#: answers other questions take alongside names ("no", "nobody"), or trait names ("wound")
RESERVED = ("no", "nobody", "wound")


def _dice(c: Character) -> tuple[int, ...]:
    return TRAIT_DICE["main" if c.main else "minor"]


@phase("count", lambda s: Expectation(
    Line("ask.count", {"low": MIN_CHARACTERS, "high": MAX_CHARACTERS}),
    (AcceptNumber(MIN_CHARACTERS, MAX_CHARACTERS),)))
def take_count(state: State, given: GameInput) -> Step:
    return go("name", replace(state, planned=given.value))


@phase("name", lambda s: Expectation(Line("ask.name", {"number": len(s.chars) + 1}),
                                     (AcceptText("name"),)))
def take_name(state: State, given: GameInput) -> Step:
    name = " ".join(given.text.split())
    key = key_of(name)
    if not key or key in RESERVED:
        return reject(state, "reject.name", name=name)
    taken = {c.key for c in state.chars}
    say: tuple[Line, ...] = ()
    if key in taken:
        # a second "Cultist" becomes "Cultist two": distinct, and still easy to say
        name = next(f"{name} {spoken(n)}" for n in range(2, 100) if key_of(f"{name} {n}") not in taken)
        key = key_of(name)
        say = (Line("said.renamed", {"name": name}),)
    chars = state.chars + (Character(name, key),)
    return Step(replace(state, chars=chars, phase="kind"), say)


@phase("kind", lambda s: words("ask.kind", ("main", "minor"), name=s.chars[-1].name))
def take_kind(state: State, given: GameInput) -> Step:
    c = replace(state.chars[-1], main=given.word == "main")
    return Step(replace(state, chars=put(state.chars, len(state.chars) - 1, c), phase="trait_name"))


def _ask_trait_name(state: State) -> Expectation:
    c = state.chars[-1]
    size = _dice(c)[len(c.traits)]
    return Expectation(Line("ask.trait_name", {"name": c.name, "number": len(c.traits) + 1,
                                               "die": f"d{size}"}), (AcceptText("trait"),))


@phase("trait_name", _ask_trait_name)
def take_trait_name(state: State, given: GameInput) -> Step:
    c = state.chars[-1]
    name = " ".join(given.text.split())
    key = key_of(name)
    if not key or key in RESERVED:
        return reject(state, "reject.name", name=name)
    if key in {t.key for t in c.traits}:
        return reject(state, "reject.trait_taken", name=c.name, trait=name)
    c = replace(c, traits=c.traits + (Trait(name, key, _dice(c)[len(c.traits)]),))
    state = replace(state, chars=put(state.chars, len(state.chars) - 1, c))
    if len(c.traits) < len(_dice(c)):
        return Step(state)
    ready = Line("said.ready", {"name": c.name, "kind": "main" if c.main else "minor",
                                "traits": [f"{t.name} d{t.base}" for t in c.traits]})
    if len(state.chars) < state.planned:
        return go("name", state, ready)
    return go("scene" if state.scene == 0 else "between", state, ready)
