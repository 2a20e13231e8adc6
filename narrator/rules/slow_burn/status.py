"""Where a Slow Burn game stands ("status", "where are we")."""

from __future__ import annotations

from narrator.events import Line
from narrator.rules.slow_burn.state import MINI_SCENES, State


def status(state: State) -> tuple[Line, ...]:
    """The Job, any mini segment, each spy, and the Handler's dice and tokens."""
    if state.episode:
        out = [Line("status.job", {"episode": state.episode, "segment": state.segment,
                                   "dice": state.opposition, "scene": state.scene.number})]
    else:
        out = [Line("status.setup")]
    if state.mini is not None:
        out.append(Line(f"status.{state.mini.kind}", {"scene": state.mini.scene,
                                                      "of": MINI_SCENES,
                                                      "dice": state.mini.opposition}))
    for spy in state.spies:
        if not spy.name:
            continue
        params = {"spy": spy.name, "path": spy.path, "persistent": spy.persistent,
                  "penalty": spy.penalty}
        kind = "free" if spy.free else "character" if spy.path is None else "spy"
        out.append(Line(f"status.{kind}", params))
        if spy.ignoring:
            out.append(Line("status.ignoring", params))
        if spy.penalty:
            out.append(Line("status.penalty", params))
    out.append(Line("status.handler", {"agency": state.agency, "fleur": state.fleur}))
    return tuple(out)
