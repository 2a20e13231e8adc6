"""Advancement and the crew's standing (SRD "PC Advancement", "Crew Advancement",
"Development", "Armor"): end-of-session xp in one question per scoundrel and one for the crew,
training, rep from a score, tier, and the armor each scoundrel wears."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line, Number
from narrator.rules.base import AcceptNumber, AcceptWords
from narrator.rules.flow import Out, Refused
from narrator.rules.blades.flow import begin, entry, question, step
from narrator.rules.blades.ledger import loaded
from narrator.rules.blades.sheet import mark_xp
from narrator.rules.blades.state import (
    ARMOR, CREW_XP, REP_MAX, STASH_MAX, TIER_MAX, XP_TRACKS, State,
)

PLAYBOOK = "playbook"
#: three triggers, each 1 xp or 2 when it happened a lot (SRD "PC Advancement")
SESSION_XP_MAX = 6
#: four crew triggers, each 1 or 2 (SRD "Crew Advancement")
CREW_XP_MAX = 8


# --------------------------------------------------------------------------- end of session


@entry("experience", among=None)
def _end_session(state: State) -> Out:
    return step(_next_scoundrel(state.menu(), -1))


def _next_scoundrel(state: State, after: int) -> State:
    """The next active scoundrel after roster index ``after`` is asked; then the crew."""
    rest = [i for i in state.active() if i > after]
    return state.then("xp.session", who=rest[0]) if rest else state.then("xp.crew")


@question("xp.session", lambda s: Line("ask.session_xp", {"name": s.who().name,
                                                          "max": SESSION_XP_MAX}),
          lambda s: (AcceptNumber(0, SESSION_XP_MAX),
                     AcceptWords((), tuple(XP_TRACKS))), why="why.session_xp")
def _session(state: State, given) -> Out:
    """A number goes on the playbook track; "prowess 2" puts it on an attribute instead (SRD:
    any track the player wants)."""
    if isinstance(given, Number):
        track, amount = PLAYBOOK, given.value
    else:
        track, amount = given.word, given.number
    if not 0 <= amount <= SESSION_XP_MAX:
        raise Refused("reject.session_xp", value=amount, max=SESSION_XP_MAX)
    who = state.get("who")
    state, said = mark_xp(state, who, track, amount) if amount else (state, [])
    return step(_next_scoundrel(state, who), *said)


@question("xp.crew", lambda s: Line("ask.crew_xp", {"max": CREW_XP_MAX}),
          lambda s: (AcceptNumber(0, CREW_XP_MAX),), why="why.crew_xp")
def _crew(state: State, given) -> Out:
    """A full crew track is an advance: each scoundrel's stash gains the tier + 2 in profits
    (SRD "Profits")."""
    xp = state.crew_xp + given.value
    if xp < CREW_XP:
        return step(replace(state, crew_xp=xp).menu(),
                    Line("crew.xp", {"xp": xp, "max": CREW_XP}))
    profit = state.tier + 2
    crew = tuple(replace(c, stash=min(STASH_MAX, c.stash + profit)) if c.active else c
                 for c in state.crew)
    return step(replace(state, crew_xp=xp - CREW_XP, crew=crew).menu(),
                Line("crew.advance", {"profit": profit}))


# --------------------------------------------------------------------------- training


def trainable(s: State) -> tuple[str, ...]:
    return tuple(t for t in XP_TRACKS if t not in s.who().trained)


@question("train.track", lambda s: Line("ask.train", {"name": s.who().name,
                                                      "tracks": list(trainable(s))}),
          lambda s: (AcceptWords(trainable(s)),), why="why.train")
def _train(state: State, given) -> Out:
    """Training marks 1 xp on a track, each track once per downtime."""
    who = state.get("who")
    c = state.who()
    state = state.with_character(who, replace(c, trained=c.trained + (given.word,)))
    return mark_xp(state.menu(), who, given.word, 1)


# --------------------------------------------------------------------------- rep and tier


@question("rep", lambda s: Line("ask.target_tier", {"tier": s.tier}),
          lambda s: (AcceptNumber(0, TIER_MAX),), why="why.rep")
def _rep(state: State, given) -> Out:
    """A score earns 2 rep, +1 per tier the target is above the crew, -1 per tier below
    (at least 0); the tracker holds 12 (SRD "Development")."""
    gain = max(0, 2 + given.value - state.tier)
    rep = min(REP_MAX, state.rep + gain)
    said = [Line("rep.now", {"gain": gain, "rep": rep, "max": REP_MAX})]
    if rep == REP_MAX and state.hold == "weak":
        return step(replace(state, rep=0, hold="strong").then("heat"), *said,
                    Line("rep.hold"))
    if rep == REP_MAX:
        said.append(Line("rep.full", {"cost": _tier_cost(state), "tier": state.tier + 1}))
    return step(replace(state, rep=rep).then("heat"), *said)


def _tier_cost(state: State) -> int:
    return (state.tier + 1) * 8


def _can_tier_up(state: State) -> list[int]:
    """"tier up" is offered (as if about the whole crew) when rep is full, hold strong, and the
    crew holds the coin."""
    ready = (state.rep >= REP_MAX and state.hold == "strong" and state.tier < TIER_MAX
             and state.coin >= _tier_cost(state))
    return [0] if ready else []


@entry("tier up", among=_can_tier_up)
def _tier_up(state: State) -> Out:
    """Pay the new tier x 8 coin: tier +1, rep to zero, hold weak (SRD "Development")."""
    tier = state.tier + 1
    state = replace(state, tier=tier, rep=0, hold="weak", coin=state.coin - _tier_cost(state))
    return step(state.menu(), Line("tier.up", {"tier": tier, "coin": state.coin}))


# --------------------------------------------------------------------------- armor


@entry("armor", phases=("score",), among=loaded)
def _armor(state: State) -> Out:
    return step(begin(state, "armor", "armor.wear", among=loaded(state)))


@question("armor.wear", lambda s: Line("ask.armor", {"name": s.who().name}),
          lambda s: (AcceptWords(tuple(ARMOR)),), why="why.armor")
def _wear(state: State, given) -> Out:
    """Armor gives one box, heavy armor a second; a marked box stays marked until the next
    load is chosen (SRD "Armor")."""
    c = replace(state.who(), armor=ARMOR[given.word])
    state = state.with_character(state.get("who"), c)
    return step(state.menu(), Line("armor.worn", {"name": c.name, "left": c.armor_left}))
