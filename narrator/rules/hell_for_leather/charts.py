"""The book's tables as pure functions: conflict results, Curse and Excess charts, dice counts."""

from __future__ import annotations

from narrator.rules.hell_for_leather.model import DRIVE_ZERO, Die

#: Victory Points by conflict result (How to Play 3, Victory Points)
VP = {"boon": 2, "merit": 2, "pass": 1, "curse": 0}


def best(dice: tuple[Die, ...], boons: bool = True) -> str:
    """The conflict's result once the last die is thrown: the best die counts, two Merits are a
    Boon (How to Play 1, Roll Results)."""
    merits = sum(d.word == "merit" for d in dice)
    if boons and merits >= 2:
        return "boon"
    if merits:
        return "merit"
    if any(d.word == "pass" for d in dice):
        return "pass"
    return "curse"


def curse_number(dice: tuple[Die, ...]) -> int:
    """The lowest face among the Curse dice (How to Play 2, Curse)."""
    return min(d.number for d in dice if d.word == "curse")


def heat_fall_score(fallen_total: int, standing: int) -> int:
    """A fallen Heat: the fallen dice's faces plus 3 for each die left standing (Heat Curse)."""
    return fallen_total + 3 * standing


def _chart(score: int) -> str:
    if score <= 3:
        return "fail"
    if score <= 7:
        return "gain heat"
    if score <= 11:
        return "hunters"
    return "trauma"


def _excess(score: int) -> str | None:
    if score <= 7:
        return None
    if score <= 11:
        return "hunters"
    return "trauma"


def curse_effects(score: int) -> tuple[str, ...]:
    """Every result of a Curse total: the Curse chart, then the Excess chart on each remainder
    over 12 ("a Curse of 27 is a Trauma, the remainder 15 another, the remainder 3 nothing")."""
    effects = [_chart(score)]
    rest = score - 12
    while rest > 0:
        extra = _excess(rest)
        if extra:
            effects.append(extra)
        rest -= 12
    return tuple(effects)


def finale_points(dice: tuple[Die, ...]) -> int:
    """Finale scoring: every die counts on its own, Pass 1 and Merit 2 (Finale Dice Results)."""
    return sum(VP[d.word] for d in dice)


def drive_dice(level: int) -> int:
    """d10s thrown at a Drive level; below Drive one (finale bonuses) one more die per level:
    Drive 1 and Off-Hand one die, Shotgun two at once, Drive 0 none, Drive 2 two, Drive 3 three."""
    if level < 0:
        return 1 - level
    return (1, 1, 2, 0)[min(level, DRIVE_ZERO)]


def hand(level: int) -> str:
    """How the Drive dice are thrown at this level: main, off (Off-Hand) or shotgun."""
    return {1: "off", 2: "shotgun"}.get(level, "main")
