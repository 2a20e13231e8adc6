"""The consequence of a 4/5 or 1-3 action roll, followed through (SRD "Consequences and Harm",
"Resistance & Armor"): the table picks one of the consequences that fit the position and the
outcome, then takes it, marks armor, or resists with an attribute and rolls for the stress;
the sheet is marked and read back in one sentence.

Resisting or armor lowers harm one level and a complication one tick, and avoids the other
consequences (the SRD leaves reduced-or-avoided to the GM; a GM who rules otherwise marks it
with harm or clock).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line, Number
from narrator.rules.base import AcceptNumber, AcceptWords
from narrator.rules.flow import Out
from narrator.rules.blades.clocks import candidates, tick
from narrator.rules.blades.flow import question, roll_accepts, step
from narrator.rules.blades.judge import judge, kept, resistance_cost
from narrator.rules.blades.sheet import mark_stress, read_sheet, record_harm
from narrator.rules.blades.state import (
    ATTRIBUTES, EFFECTS, HARM_LEVELS, WORSE, State, spoken,
)

#: how hard a consequence hits at each position: harm level and complication ticks
SEVERITY = {"controlled": 1, "risky": 2, "desperate": 3}
#: the consequences that fit each position and outcome: a success is never taken back (no lost
#: opportunity on a 4/5), a failure has no effect to reduce, desperate cannot get worse, and a
#: controlled 1-3 only presses on from a risky position (or withdraws: "none")
OFFERED = {
    ("controlled", "partial"): ("harm", "complication", "reduced", "worse"),
    ("controlled", "bad"): ("worse",),
    ("risky", "partial"): ("harm", "complication", "reduced", "worse"),
    ("risky", "bad"): ("harm", "complication", "worse", "lost"),
    ("desperate", "partial"): ("harm", "complication", "reduced"),
    ("desperate", "bad"): ("harm", "complication", "lost"),
}
NONE, TAKE, ARMOR, PUSH = "none", "take", "armor", "push"


def begin_consequence(state: State, result: str) -> State:
    """After the roll: the question offering what fits its position and outcome."""
    return state.then("con.kind", result=result)


def _name(s: State) -> dict:
    return {"name": s.who().name}


def _offered(s: State) -> tuple[str, ...]:
    return OFFERED[s.get("position"), s.get("result")]


@question("con.kind",
          lambda s: Line(f"ask.consequence.{s.get('position')}.{s.get('result')}", _name(s)),
          lambda s: (AcceptWords(_offered(s) + (NONE,)),), why="why.consequence")
def _kind(state: State, given) -> Out:
    if given.word == NONE:
        return step(state.menu(), Line("consequence.none"))
    return step(state.then("con.resist", kind=given.word, level=SEVERITY[state.get("position")]))


def _resist_words(s: State) -> tuple[str, ...]:
    """Armor is instead of a roll: once a box is marked, only another box or taking it."""
    attributes = () if s.get("armored") else tuple(ATTRIBUTES)
    return attributes + ((ARMOR,) if s.who().armor_left else ()) + (TAKE,)


def _resist_prompt(s: State) -> Line:
    level = s.get("level")
    armor = ".armored" if s.get("armored") else ".armor" if s.who().armor_left else ""
    return Line(f"ask.resist.{s.get('kind')}{armor}", {
        **_name(s), "harm": HARM_LEVELS[level], "ticks": level,
        "position": WORSE.get(s.get("position"), ""), "armor": s.who().armor_left})


@question("con.resist", _resist_prompt, lambda s: (AcceptWords(_resist_words(s)),),
          why="why.resist")
def _resist(state: State, given) -> Out:
    if given.word == TAKE:
        return _suffer(state, lowered=False)
    who = state.get("who")
    if given.word == ARMOR:
        c = replace(state.who(), armor_marked=state.who().armor_marked + 1)
        state = state.with_character(who, c)
        marked = Line("armor.marked", {"name": c.name})
        if state.get("kind") == "harm" and state.get("level") > 1 and c.armor_left:
            # heavy armor: a second box can lower the harm again (SRD "Armor")
            return step(state.then("con.resist", level=state.get("level") - 1, armored=True),
                        marked)
        state, said = _suffer(state, lowered=True)
        return step(state, marked, *said)
    rating = state.who().rating(given.word)
    if rating is None:
        return step(state.then("con.rating", attribute=given.word))
    return step(state.then("con.dice", attribute=given.word, rating=rating, bonus=0))


@question("con.rating",
          lambda s: Line("ask.attribute_rating", {
              **_name(s), "attribute": s.get("attribute"),
              # one field each: the actions are counted here, not answers to choose from
              **dict(zip(("a", "b", "c", "d"), ATTRIBUTES[s.get("attribute")]))}),
          lambda s: (AcceptNumber(0, 4),), why="why.attribute_rating")
def _rating(state: State, given) -> Out:
    """An attribute's rating is how many of its four actions have a first dot (SRD "Attribute
    Ratings"); asked once, then kept on the sheet."""
    c = state.who().with_rating(state.get("attribute"), given.value)
    state = state.with_character(state.get("who"), c)
    return step(state.then("con.dice", rating=given.value, bonus=0))


def pool(s: State) -> int:
    return s.get("rating") + s.get("bonus")


def _dice_prompt(s: State) -> Line:
    n = pool(s)
    return Line("ask.resist_dice.zero" if n <= 0 else "ask.resist_dice",
                {"count": n,
                 "attribute": s.get("attribute"), "push": not s.get("bonus")})


@question("con.dice", _dice_prompt,
          lambda s: roll_accepts(pool(s)) + ((AcceptWords((PUSH,)),) if not s.get("bonus")
                                             else ()), why="why.resist_dice")
def _dice(state: State, given) -> Out:
    """Pushing adds a die for 2 stress (SRD "Pushing Yourself"). The roll costs 6 stress minus
    the kept die, and a critical clears 1 instead (SRD "Resistance & Armor")."""
    who = state.get("who")
    if not hasattr(given, "faces"):
        return mark_stress(state.then("con.dice", bonus=1), who, 2)
    faces, n = given.faces, pool(state)
    name = state.who().name
    if judge(faces, n) == "critical":
        head = Line("resist.critical", {"name": name, "faces": list(faces)})
    else:
        head = Line("resist.cost", {"name": name, "faces": list(faces), "die": kept(faces, n),
                                    "cost": resistance_cost(faces, n)})
    state, said = mark_stress(state, who, resistance_cost(faces, n))
    state, more = _suffer(state, lowered=True)
    return step(state, head, *[s for s in said if s.key != "stress.now"], *more)


def _suffer(state: State, lowered: bool) -> Out:
    """The consequence, lowered by resistance or armor, marked; then the sheet read back."""
    kind, who = state.get("kind"), state.get("who")
    level = state.get("level") - lowered
    done = state.menu()
    if kind == "other":
        return step(done, Line("resist.done"), read_sheet(done, who))
    if kind == "complication" and level and candidates(state, "tick"):
        return step(state.then("con.clock", ticks=level))
    if kind == "harm" and level:
        done, said = record_harm(done, who, level, f"{state.get('action')} wound")
        return step(done, *[s for s in said if s.key != "harm.recorded"], read_sheet(done, who))
    graded = kind in ("harm", "complication")   # lowered a level; the others are avoided
    if not level or (lowered and not graded):
        return step(done, Line("consequence.avoided", _name(state)), read_sheet(done, who))
    if kind == "complication":
        return step(done, Line("consequence.complication", {"ticks": level}))
    if kind == "reduced":
        lower = EFFECTS[max(0, EFFECTS.index(state.get("effect")) - 1)]
        return step(done, Line("consequence.reduced", {"effect": lower}))
    if kind == "worse":
        position = WORSE[state.get("position")]
        done = done.with_character(who, replace(state.who(), position=position))
        return step(done, Line("consequence.worse", {**_name(state), "position": position}))
    return step(done, Line("consequence.lost", _name(state)))


def _clock_names(s: State) -> list[str]:
    return [c.name for c in candidates(s, "tick")]


@question("con.clock",
          lambda s: Line("ask.complication_clock", {"ticks": s.get("ticks"),
                                                    "names": _clock_names(s)}),
          lambda s: (AcceptWords(tuple(spoken(n) for n in _clock_names(s)) + (NONE,)),
                     AcceptNumber(1, len(_clock_names(s)))), why="why.complication_clock")
def _clock(state: State, given) -> Out:
    """A complication ticks a clock the table names, or is played out ("none")."""
    names = _clock_names(state)
    ticks = state.get("ticks")
    if getattr(given, "word", None) == NONE:
        return step(state.menu(), Line("consequence.complication", {"ticks": ticks}))
    name = (names[given.value - 1] if isinstance(given, Number)
            else next(n for n in names if spoken(n) == given.word))
    return tick(state.menu(), name, ticks)
