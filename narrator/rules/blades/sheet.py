"""Marks on a scoundrel's sheet: stress and trauma, harm, retirement by stash."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line
from narrator.rules.blades.state import HARM_LEVELS, HARM_ROWS, XP_TRACKS, State


def mark_stress(state: State, index: int, amount: int) -> tuple[State, list[Line]]:
    """Mark (or, when negative, clear) stress. Marking the last box is trauma: the scoundrel
    is out of action, their stress goes to zero, and they choose a condition next."""
    c = state.crew[index]
    stress = max(0, c.stress + amount)
    if stress < state.stress_boxes:
        return state.with_character(index, replace(c, stress=stress)), (
            [Line("stress.now", {"name": c.name, "stress": stress, "max": state.stress_boxes})]
            if amount else [])
    state = state.with_character(index, replace(c, stress=0))
    return state.traumatise(index), [
        Line("stress.trauma", {"name": c.name})]


def add_trauma(state: State, index: int, condition: str) -> tuple[State, list[Line]]:
    """Circle a trauma condition; the fourth retires the scoundrel, fated by their stash."""
    c = state.crew[index]
    c = replace(c, traumas=c.traumas + (condition,))
    state = state.with_character(index, c)
    lines = [Line("trauma.taken", {"name": c.name, "condition": condition,
                                   "count": len(c.traumas)})]
    if c.retired:
        lines.append(Line(f"retire.{fate(c.stash)}", {"name": c.name, "stash": c.stash}))
    return state, lines


def fate(stash: int) -> str:
    """Where a retiring scoundrel ends up (SRD "Stash & Retirement")."""
    if stash <= 10:
        return "poor"
    return "meager" if stash <= 20 else "modest" if stash < 40 else "fine"


def record_harm(state: State, index: int, level: int, what: str) -> tuple[State, list[Line]]:
    """Write harm in its row, moving up a row while the row is full; fatal harm kills, and
    harm past a full top row is a catastrophic consequence (SRD "Harm", "Death")."""
    c = state.crew[index]
    if level == 4:
        return state.with_character(index, replace(c, dead=True)), [
            Line("harm.fatal", {"name": c.name, "what": what})]
    while level in HARM_ROWS and sum(1 for lv, _ in c.harm if lv == level) >= HARM_ROWS[level]:
        level += 1
    if level == 4:
        return state, [Line("harm.catastrophic", {"name": c.name, "what": what})]
    state = state.with_character(index, replace(c, harm=c.harm + ((level, what),)))
    return state, [Line("harm.recorded", {"name": c.name, "what": what,
                                          "level": HARM_LEVELS[level]}),
                   Line(f"harm.penalty.{level}", {"name": c.name})]


def heal(state: State, index: int, level: int) -> tuple[State, list[Line]]:
    """Clear the first harm recorded at ``level``."""
    c = state.crew[index]
    gone = next(h for h in c.harm if h[0] == level)
    harm = list(c.harm)
    harm.remove(gone)
    return state.with_character(index, replace(c, harm=tuple(harm))), [
        Line("harm.healed", {"name": c.name, "what": gone[1]})]


def harm_words(state: State, index: int) -> list[str]:
    """What a scoundrel's harm sounds like in a status line."""
    return [f"{what} ({HARM_LEVELS[level]})" for level, what in state.crew[index].harm]


def mark_xp(state: State, index: int, track: str, amount: int) -> tuple[State, list[Line]]:
    """Mark xp on a track; a full track is cleared for an advance (SRD "PC Advancement"):
    a special ability from the playbook, an action dot under an attribute."""
    c = state.crew[index]
    marks = c.marks(track) + amount
    advance = marks >= XP_TRACKS[track]
    if advance:
        marks -= XP_TRACKS[track]
    c = replace(c, xp=tuple({**dict(c.xp), track: marks}.items()))
    lines = [Line("xp.marked", {"name": c.name, "track": track, "xp": marks,
                                "max": XP_TRACKS[track]})]
    if advance:
        lines.append(Line("xp.advance.playbook" if track == "playbook" else "xp.advance",
                          {"name": c.name, "track": track}))
    return state.with_character(index, c), lines


def read_sheet(state: State, index: int) -> Line:
    """One sentence: a scoundrel's stress, harm and armor left, after a consequence."""
    c = state.crew[index]
    return Line("sheet.now", {"name": c.name, "stress": c.stress, "max": state.stress_boxes,
                              "harm": harm_words(state, index) or "no harm",
                              "armor": c.armor_left})
