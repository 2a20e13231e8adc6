"""How many answers a Blades table gives for an action roll and for a consequence (issue 15
targets: an action roll in 4 or fewer, a chained consequence with its resistance in 3 or fewer).

Each scenario plays the rules through the understanding layer, answering each question as a
table would (by its prompt key, so the same script measures older flows too), and counts the
answers from the menu word (or, for a consequence, from the roll's result) until the menu is
back. Usage: python bench/blades_answers.py [--code DIR]   (DIR: the checkout whose narrator
package to measure, e.g. /work/main for the "before" column; default: this one)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

DEBUG = False

#: what the table says to each question, by prompt key (both the old and the new flow's keys)
TABLE = {
    "ask.who": "Cross", "ask.goal": "pick the lock", "ask.action": "tinker",
    "ask.action.same": "tinker", "ask.rating": "two", "ask.position": "next",
    "ask.effect": "next", "ask.factors": "next", "ask.assist": "no", "ask.bonus": "neither",
    "ask.attribute": "prowess", "ask.attribute_rating": "three", "ask.resist_push": "no",
    "ask.harm_level": "lesser", "ask.harm_what": "cut", "ask.clock_pick": "alarm",
    "ask.ticks": "two", "ask.clock_op": "new", "ask.clock_kind": "next",
    "ask.clock_kind.first": "next", "ask.clock_size": "six", "ask.clock_name": "Alarm",
    "ask.resist.harm": "prowess", "ask.resist.complication": "take",
    "ask.complication_clock": "alarm",
}
#: the faces said at any dice question, by scenario step
DICE_KEYS = ("ask.action_dice", "ask.roll", "ask.roll.zero", "ask.resist_dice",
             "ask.zero_dice")


@dataclass
class Scenario:
    """``before``: menu words and dice played first, not counted; ``menu`` and ``faces``: the
    words said at the menu and the dice said while counting, until ``done``; ``table``:
    answers that differ from TABLE."""

    name: str
    before: tuple[str, ...]
    before_faces: tuple[str, ...]
    menu: tuple[str, ...]
    faces: tuple[str, ...]
    done: str = "menu"
    table: dict[str, str] = field(default_factory=dict)
    changes: tuple[str, ...] = ()     # said at the new flow's dice question before the faces
    target: int | None = None


#: a first tinker roll and a first prowess resistance leave both ratings on the sheet (where
#: the new flow keeps them); a roll of five three is the 4/5 a consequence follows
SCENARIOS = (
    Scenario("action roll, first time with this action", (), (), ("action",), ("six two",)),
    Scenario("action roll, rating known (common case)", ("action",), ("six two",),
             ("action",), ("six two",), target=4),
    Scenario('action roll, "same as last time"', ("action",), ("six two",),
             ("action",), ("six two",), table={"ask.action.same": "same"}, target=4),
    Scenario("action roll, desperate and pushed", ("action",), ("six two",),
             ("action",), ("six two one",),
             table={"ask.position": "desperate", "ask.bonus": "push"},
             changes=("desperate", "push")),
    Scenario("consequence: moderate harm resisted (common case)", ("resist", "action"),
             ("six two one", "five three"), ("resist", "harm"), ("four two one",), "harm",
             table={"ask.consequence.risky.partial": "harm"}, target=3),
    Scenario("consequence: moderate harm taken", ("action",), ("five three",), ("harm",), (),
             "harm", table={"ask.harm_level": "moderate", "ask.resist.harm": "take",
                            "ask.consequence.risky.partial": "harm"}),
    Scenario("consequence: complication on a clock", ("clock", "action"), ("five three",),
             ("clock",), (), "clock",
             table={"ask.consequence.risky.partial": "complication", "ask.clock_op": "tick"}),
)


def _done(rules, state, what: str) -> bool:
    """Back at the menu, with Cross's harm or a clock's ticks marked when that is the aim."""
    if not rules.expects(state).prompt.key.startswith("ask.menu."):
        return False
    status = rules.status(state)
    if what == "harm":
        return any(line.params.get("name") == "Cross" and line.params.get("harm") != "none"
                   for line in status if line.key == "status.character")
    if what == "clock":
        return any(line.params.get("filled") for line in status if line.key.startswith("clock"))
    return True


def run(scenario: Scenario) -> int:
    """The answers ``scenario`` takes while counting."""
    from narrator.events import GAME_INPUTS
    from narrator.rules.blades import INFO
    from narrator.understand import understand

    rules = INFO.rules
    state = rules.start(dict(rules.options)).state
    names = ["two", "Cross", "Silas"]

    def answer(text: str):
        meaning = understand(text, rules.expects(state))
        if not isinstance(meaning, GAME_INPUTS):
            raise SystemExit(f"{scenario.name}: {text!r} not understood at "
                             f"{rules.expects(state).prompt.key}: {meaning}")
        step = rules.apply(state, meaning)
        if step.rejected is not None:
            raise SystemExit(f"{scenario.name}: {text!r} refused: {step.rejected}")
        return step.state

    table = TABLE
    menu, faces, changes = list(scenario.before), list(scenario.before_faces), []
    counting, count = False, 0
    for _ in range(80):
        key = rules.expects(state).prompt.key
        if not counting and not menu and not faces:
            counting, menu, faces = True, list(scenario.menu), list(scenario.faces)
            table, changes = {**TABLE, **scenario.table}, list(scenario.changes)
        if counting and count and _done(rules, state, scenario.done):
            return count
        if key in ("ask.crew_size", "ask.name"):   # the crew is made first, not counted
            state = answer(names.pop(0))
            continue
        if key.startswith("ask.roll") and changes:
            text = changes.pop(0)
        elif key.startswith("ask.menu."):
            text = menu.pop(0)
        elif key in DICE_KEYS:
            text = faces.pop(0)
        else:
            text = table[key]
        if DEBUG:
            print(f"    {'counted' if counting else 'before'}: {key} -> {text}")
        state = answer(text)
        count += counting
    raise SystemExit(f"{scenario.name}: never came back to the menu")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout whose narrator package is measured")
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    print(f"answers per Blades scenario ({args.code}):")
    for s in SCENARIOS:
        target = f"  (target <= {s.target})" if s.target else ""
        print(f"  {run(s):3d}  {s.name}{target}")


if __name__ == "__main__":
    main()
