"""The action roll (SRD "Action Roll", its six steps) in as few answers as the table needs, and
gathering information, which turns into an action roll when there is an obstacle and into a
fortune roll when there is none.

Common case: the action ("same" repeats the last one), then the dice. The rating is asked the
first time an action is used and kept on the sheet; position and effect start at risky and
standard (SRD "Setting Position & Effect") and the dice question says them, taking a word
to change them, a bonus die or a helper's name before the faces.
"""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line
from narrator.rules.base import AcceptNumber, AcceptText, AcceptWords
from narrator.rules.flow import Out, Refused
from narrator.rules.blades.consequence import begin_consequence
from narrator.rules.blades.flow import (
    STEPS, begin, entry, question, roll_accepts, step,
)
from narrator.rules.blades.judge import judge, kept
from narrator.rules.blades.sheet import mark_stress, mark_xp
from narrator.rules.blades.state import (
    ACTIONS, ATTRIBUTE_OF, EFFECTS, POSITIONS, State, spoken,
)

#: "same as last time": the scoundrel's last action again
SAME = ("same", "same as last time", "same again")
PUSH, BARGAIN, PUSH_EFFECT, RATING = "push", "bargain", "push effect", "rating"
#: effect levels the GM can set outright; zero and extreme come only from factors
SET_EFFECTS = EFFECTS[1:4]


def _name(s: State) -> dict:
    return {"name": s.who().name}


# --------------------------------------------------------------------------- 1-2: action, rating


@entry("action")
def _action(state: State) -> Out:
    return step(begin(state, "action", "act.action"))


def _action_words(s: State) -> tuple[str, ...]:
    return ACTIONS + (SAME if s.who().last else ())


@question("act.action",
          lambda s: Line("ask.action.same" if s.who().last else "ask.action",
                         {**_name(s), "last": s.who().last}),
          lambda s: (AcceptWords(_action_words(s)),), why="why.action")
def _which_action(state: State, given) -> Out:
    action = state.who().last if given.word in SAME else given.word
    return step(state.then("act.route", action=action))


@STEPS.action("act.route")
def _route(state: State) -> Out:
    """The rating from the sheet, or asked once; position and effect at their defaults."""
    c = state.who()
    rating = c.rating(state.get("action"))
    if rating is None:
        return step(state.then("act.rating"))
    if state.get("flow") == "information":
        return step(state.then("fortune.dice", pool=rating, purpose="information"))
    return step(state.then("act.dice", rating=rating, position=c.position or "risky",
                           effect="standard", assist=0, bonus=0, helper=None))


@question("act.rating", lambda s: Line("ask.rating", {**_name(s), "action": s.get("action")}),
          lambda s: (AcceptNumber(0, 4),), why="why.rating")
def _rating(state: State, given) -> Out:
    who = state.get("who")
    state = state.with_character(who, state.who().with_rating(state.get("action"), given.value))
    return step(state.then("act.route"))


# --------------------------------------------------------------------------- 3-6: one question


def pool(s: State) -> int:
    return s.get("rating") + s.get("assist") + s.get("bonus")


def helpers(s: State) -> list[int]:
    """Who can still assist: another active scoundrel, when nobody has yet."""
    if s.get("assist"):
        return []
    return [i for i in s.active() if i != s.get("who")]


def changes(s: State) -> tuple[str, ...]:
    """The words that change the roll before it is made, each legal now."""
    level = EFFECTS.index(s.get("effect"))
    words = [p for p in POSITIONS if p != s.get("position")]
    words += [e for e in SET_EFFECTS if e != s.get("effect")]
    words += ["better"] * (level < len(EFFECTS) - 1) + ["worse"] * (level > 0)
    words += [PUSH, BARGAIN] * (not s.get("bonus")) + [PUSH_EFFECT] * (not s.get("pushed_effect"))
    # a helper whose name is one of these words (a scoundrel called Push) is left out
    words += [n for n in (spoken(s.crew[i].name) for i in helpers(s))
              if n not in words and n != RATING]
    return tuple(words)


def _dice_prompt(s: State) -> Line:
    n = pool(s)
    return Line("ask.roll.zero" if n <= 0 else "ask.roll", {
        **_name(s), "action": s.get("action"), "position": s.get("position"),
        "effect": s.get("effect"), "count": n,
        "changes": [_shown(s, w) for w in changes(s)]})


def _shown(s: State, word: str) -> str:
    """A change word as the prompt says it: a helper by the name on their sheet."""
    return next((s.crew[i].name for i in helpers(s) if spoken(s.crew[i].name) == word), word)


@question("act.dice", _dice_prompt,
          lambda s: roll_accepts(pool(s)) + (AcceptWords(changes(s), (RATING,)),),
          why="why.roll")
def _dice(state: State, given) -> Out:
    if hasattr(given, "faces"):
        return _judge(state, given.faces)
    return _change(state, given.word, given.number)


def _change(state: State, word: str, number: int | None) -> Out:
    """Position, effect (SRD "Assessing Factors"), bonus dice (SRD "5. Add Bonus Dice") or the
    rating, changed before the roll; the same question comes back with the new pool."""
    who = state.get("who")
    if word == RATING:
        if not 0 <= number <= 4:
            raise Refused("reject.rating", value=number)
        state = state.with_character(who, state.who().with_rating(state.get("action"), number))
        return step(state.then("act.dice", rating=number))
    if word in POSITIONS:
        return step(state.then("act.dice", position=word))
    if word in SET_EFFECTS:
        return step(state.then("act.dice", effect=word))
    if word in ("better", "worse"):
        level = EFFECTS.index(state.get("effect")) + (1 if word == "better" else -1)
        return step(state.then("act.dice", effect=EFFECTS[level]))
    if word == BARGAIN:
        return step(state.then("act.dice", bonus=1), Line("action.bargain"))
    if word == PUSH:
        return mark_stress(state.then("act.dice", bonus=1), who, 2)
    if word == PUSH_EFFECT:
        level = min(EFFECTS.index(state.get("effect")) + 1, len(EFFECTS) - 1)
        return mark_stress(state.then("act.dice", effect=EFFECTS[level],
                                       pushed_effect=True), who, 2)
    helper = next(i for i in helpers(state) if spoken(state.crew[i].name) == word)
    state, said = mark_stress(state.then("act.dice", assist=1, helper=helper), helper, 1)
    return step(state, Line("action.assisted", {"helper": state.crew[helper].name}), *said)


def _judge(state: State, faces: tuple[int, ...]) -> Out:
    """Read the roll (SRD "6. Roll the Dice and Judge the Result"); a desperate roll marks xp in
    the action's attribute (SRD "PC Advancement"); a 4/5 or 1-3 goes on to its consequence."""
    result = judge(faces, pool(state))
    position, effect, who = state.get("position"), state.get("effect"), state.get("who")
    name, action = state.who().name, state.get("action")
    state = state.with_character(who, replace(state.who(), last=action, position=""))
    said = [Line(f"action.{result}", {"name": name, "faces": list(faces),
                                      "die": kept(faces, pool(state))})]
    if result in ("critical", "full", "partial"):
        said.append(Line("action.effect.critical" if result == "critical" else "action.effect",
                         {"effect": effect}))
    if position == "desperate":
        state, xp = mark_xp(state, who, ATTRIBUTE_OF[action], 1)
        said += xp
    if result in ("critical", "full"):
        return step(state.menu(), *said)
    return step(begin_consequence(state, result), *said)


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
