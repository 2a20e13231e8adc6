"""Where the conflict stands: scene and round, action order, every character's dice and hurts,
advantage points and held fatal impacts."""

from __future__ import annotations

from narrator.events import Line
from narrator.rules.intensity.declare import order_words
from narrator.rules.intensity.model import State, die_name


def status(state: State) -> tuple[Line, ...]:
    if state.scene == 0:
        ready = sum(1 for c in state.chars if c.traits and state.todo[:1] != (("trait_name",),))
        return (Line("status.setup", {"ready": ready, "planned": state.planned}),)
    lines = [Line("status.scene", {"scene": state.scene, "round": state.round})]
    if state.order:
        lines.append(Line("status.order", {"order": order_words(state, state.order)}))
    for c in state.chars:
        lines.append(Line("status.character", {"name": c.name, "traits": [
            f"{t.name} {die_name(c.size(k))}" for k, t in enumerate(c.traits)]}))
        for key, count, traits in (
                ("status.wounds", c.wounds, None),
                ("status.taxed", None, [t.name for t in c.traits if t.tax]),
                ("status.damaged", None, [t.name for t in c.traits if t.damage])):
            if count or traits:
                lines.append(Line(key, {"name": c.name, "count": count, "traits": traits}))
        if c.fallen or c.out:
            lines.append(Line("status.fallen" if c.fallen else "status.out", {"name": c.name}))
    lines += [Line("status.ap", {"name": state.chars[h].name, "target": state.chars[t].name,
                                 "count": n}) for h, t, n in state.ap]
    lines += [Line("status.held", {"name": state.chars[h].name, "target": state.chars[v].name})
              for h, v in state.held]
    return tuple(lines)
