"""Downtime activities (SRD "The Game Structure", "Coin Use"): two per scoundrel, more at 1 coin
each. The SRD names indulging a vice, recovering, long-term projects and training but not how
each is rolled, so the table states the result and the app keeps the marks."""

from __future__ import annotations

from narrator.events import Line
from narrator.rules.base import AcceptNumber, AcceptWords
from narrator.rules.flow import Out
from narrator.rules.blades.advancement import trainable
from narrator.rules.blades.clocks import candidates
from narrator.rules.blades.flow import begin, entry, question, step
from narrator.rules.blades.ledger import set_marks
from narrator.rules.blades.sheet import heal, mark_stress
from narrator.rules.blades.state import HARM_LEVELS, State

FREE_ACTIVITIES = 2
KINDS = ("vice", "recover", "project", "train")


def _can_act(state: State) -> list[int]:
    return [i for i in state.active()
            if state.crew[i].activities < FREE_ACTIVITIES or state.crew[i].coin >= 1]


@entry("activity", phases=("downtime",), among=_can_act)
def _activity(state: State) -> Out:
    return step(begin(state, "activity", "activity.kind", among=_can_act(state)))


def _kinds(s: State) -> tuple[str, ...]:
    """The activities open to the scoundrel now: recovering needs harm, a project a clock with
    room, training a track not yet trained this downtime."""
    open_now = {"vice": True, "recover": bool(s.who().harm),
                "project": bool(candidates(s, "tick")), "train": bool(trainable(s))}
    return tuple(k for k in KINDS if open_now[k])


@question("activity.kind", lambda s: Line("ask.activity", {"name": s.who().name,
                                                           "taken": s.who().activities,
                                                           "kinds": list(_kinds(s))}),
          lambda s: (AcceptWords(_kinds(s)),))
def _kind(state: State, given) -> Out:
    c = state.who()
    paid = c.activities >= FREE_ACTIVITIES
    state = set_marks(state, activities=c.activities + 1, coin=c.coin - int(paid))
    said = [Line("activity.paid", {"name": c.name})] if paid else []
    if given.word == "train":
        return step(state.then("train.track"), *said)
    if given.word == "project":
        return step(state.then("clock.pick", op="tick"), *said)
    return step(state.then(f"activity.{given.word}"), *said)


@question("activity.vice", lambda s: Line("ask.vice", {"name": s.who().name,
                                                       "stress": s.who().stress}),
          lambda s: (AcceptNumber(0, s.who().stress),))
def _vice(state: State, given) -> Out:
    state, said = mark_stress(state.menu(), state.get("who"), -given.value)
    return step(state, *said)


def _harm_levels(s: State) -> tuple[str, ...]:
    return tuple(dict.fromkeys(HARM_LEVELS[level] for level, _ in s.who().harm))


@question("activity.recover", lambda s: Line("ask.recover", {"name": s.who().name,
                                                             "levels": list(_harm_levels(s))}),
          lambda s: (AcceptWords(_harm_levels(s)),))
def _recover(state: State, given) -> Out:
    level = next(n for n, w in HARM_LEVELS.items() if w == given.word)
    state, said = heal(state.menu(), state.get("who"), level)
    return step(state, *said)
