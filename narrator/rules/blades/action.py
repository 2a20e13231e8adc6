"""The action roll in its six steps (SRD "Action Roll") and gathering information, which turns
into an action roll when there is an obstacle and into a fortune roll when there is none."""

from __future__ import annotations

from narrator.events import Continue, Line
from narrator.rules.base import AcceptContinue, AcceptNumber, AcceptText, AcceptWords
from narrator.rules.flow import Out, Refused
from narrator.rules.blades.flow import (
    begin, character_accepts, chosen_character, entry, question, roll_accepts, roll_prompt, step,
)
from narrator.rules.blades.judge import judge, kept
from narrator.rules.blades.sheet import mark_stress
from narrator.rules.blades.state import ACTIONS, ATTRIBUTE_OF, EFFECTS, POSITIONS, State

PUSH = ("push", "push yourself")
BARGAIN = ("bargain", "devil's bargain", "devils bargain")
NONE = ("neither", "no")


def _name(s: State) -> dict:
    return {"name": s.who().name}


# --------------------------------------------------------------------------- 1-2: goal, action


@entry("action")
def _action(state: State) -> Out:
    return step(begin(state, "action", "act.goal"))


@question("act.goal", lambda s: Line("ask.goal", _name(s)), lambda s: (AcceptText("goal"),))
def _goal(state: State, given) -> Out:
    return step(state.then("act.action", goal=given.text.strip()))


@question("act.action", lambda s: Line("ask.action", _name(s)),
          lambda s: (AcceptWords(ACTIONS),))
def _which_action(state: State, given) -> Out:
    return step(state.then("act.rating", action=given.word))


@question("act.rating", lambda s: Line("ask.rating", {**_name(s), "action": s.get("action")}),
          lambda s: (AcceptNumber(0, 4),))
def _rating(state: State, given) -> Out:
    if state.get("flow") == "information":
        return step(state.then("fortune.dice", pool=given.value, purpose="information"))
    return step(state.then("act.position", rating=given.value))


# --------------------------------------------------------------------------- 3-4: position, effect


@question("act.position", lambda s: Line("ask.position"),
          lambda s: (AcceptWords(POSITIONS), AcceptContinue()))
def _position(state: State, given) -> Out:
    position = "risky" if isinstance(given, Continue) else given.word
    return step(state.then("act.effect", position=position))


@question("act.effect", lambda s: Line("ask.effect"),
          lambda s: (AcceptWords(EFFECTS[1:4]), AcceptContinue()))
def _effect(state: State, given) -> Out:
    effect = "standard" if isinstance(given, Continue) else given.word
    return step(state.then("act.factors", effect=effect))


@question("act.factors", lambda s: Line("ask.factors", {"effect": s.get("effect")}),
          lambda s: (AcceptWords(("better", "worse", "push")), AcceptContinue()))
def _factors(state: State, given) -> Out:
    """Potency, quality and scale move the effect a level each way, down to zero and up to
    extreme; pushing yourself adds a level for 2 stress, once per action."""
    if isinstance(given, Continue):
        others = [i for i in state.active() if i != state.get("who")]
        return step(state.then("act.assist" if others else "act.bonus"))
    level = EFFECTS.index(state.get("effect"))
    if given.word == "push" and state.get("pushed_effect"):
        raise Refused("reject.pushed_effect")
    shift = -1 if given.word == "worse" else 1
    if not 0 <= level + shift < len(EFFECTS):
        raise Refused("reject.effect_limit", effect=state.get("effect"))
    state = state.then("act.factors", effect=EFFECTS[level + shift])
    if given.word != "push":
        return step(state)
    state, said = mark_stress(state.then("act.factors", pushed_effect=True), state.get("who"), 2)
    return step(state, *said)


# --------------------------------------------------------------------------- 5: bonus dice


@question("act.assist", lambda s: Line("ask.assist", _name(s)),
          lambda s: character_accepts(s, [i for i in s.active() if i != s.get("who")], "no"))
def _assist(state: State, given) -> Out:
    if getattr(given, "word", None) == "no":
        return step(state.then("act.bonus", assist=0))
    helper = chosen_character(state, given)
    if helper == state.get("who") or helper not in state.active():
        raise Refused("reject.assist", name=state.crew[helper].name)
    state, said = mark_stress(state.then("act.bonus", assist=1), helper, 1)
    return step(state, Line("action.assisted", {"helper": state.crew[helper].name}), *said)


@question("act.bonus", lambda s: Line("ask.bonus", _name(s)),
          lambda s: (AcceptWords(PUSH + BARGAIN + NONE + ("both",)),))
def _bonus(state: State, given) -> Out:
    """The second bonus die: push yourself (2 stress) or a Devil's Bargain, never both."""
    if given.word == "both":
        raise Refused("reject.push_and_bargain")
    if given.word in NONE:
        return step(state.then("act.dice", bonus=0))
    state = state.then("act.dice", bonus=1)
    if given.word in BARGAIN:
        return step(state, Line("action.bargain"))
    state, said = mark_stress(state, state.get("who"), 2)
    return step(state, *said)


# --------------------------------------------------------------------------- 6: roll and judge


def pool(s: State) -> int:
    return s.get("rating") + s.get("assist", 0) + s.get("bonus", 0)


@question("act.dice", lambda s: roll_prompt("ask.action_dice", pool(s)),
          lambda s: roll_accepts(pool(s)))
def _dice(state: State, given) -> Out:
    result = judge(given.faces, pool(state))
    position, effect, name = state.get("position"), state.get("effect"), state.who().name
    said = [Line(f"action.{result}", {"name": name, "faces": list(given.faces),
                                      "die": kept(given.faces, pool(state)),
                                      "goal": state.get("goal")})]
    if result in ("critical", "full", "partial"):
        said.append(Line("action.effect.critical" if result == "critical" else "action.effect",
                         {"effect": effect}))
    if result in ("partial", "bad"):
        said.append(Line(f"consequence.{position}", {"name": name}))
    if position == "desperate":
        said.append(Line("xp.desperate", {"name": name,
                                          "attribute": ATTRIBUTE_OF[state.get("action")]}))
    return step(state.menu(), *said)


# --------------------------------------------------------------------------- gathering information


@entry("information")
def _information(state: State) -> Out:
    return step(begin(state, "information", "info.question"))


@question("info.question", lambda s: Line("ask.info_question", _name(s)),
          lambda s: (AcceptText("question"),))
def _info_question(state: State, given) -> Out:
    return step(state.then("info.kind", goal=given.text.strip()))


@question("info.kind", lambda s: Line("ask.info_kind"),
          lambda s: (AcceptWords(("common", "obstacle", "neither")),))
def _info_kind(state: State, given) -> Out:
    """Common knowledge is simply answered; an obstacle calls for an action roll; otherwise a
    fortune roll on the action rating sets how much is learned (SRD "Gathering Information")."""
    if given.word == "common":
        return step(state.menu(), Line("info.common"))
    if given.word == "obstacle":
        return step(state.then("act.action", flow="action"), Line("info.obstacle"))
    return step(state.then("act.action"))
