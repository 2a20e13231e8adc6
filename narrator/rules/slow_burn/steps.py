"""Slow Burn's table of steps and what its steps share: reading tracks, rolls and outcomes.

Every step is declared on ``STEPS`` (see narrator/rules/flow.py); a queued step is ``(name, spy)``
with the spy's index, or -1 when it is about nobody in particular.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from narrator.dice import count_at_most
from narrator.events import Dice, GameInput, Line, ReadTrack, Say, Successes, Word
from narrator.rules.base import AcceptDice, AcceptSuccesses
from narrator.rules.base import Accept, Expectation
from narrator.rules.flow import Out, Steps
from narrator.rules.flow import ask as flow_ask
from narrator.rules.slow_burn.state import OPPOSITION_TARGET, State

SIDES = 12
STEPS = Steps()


#: tracks said again as a short reminder after their first reading in an episode (option
#: reread=reminder): the ones that start something. The scene's own Tracks 9-13 come round
#: every scene, and what the game says and asks there already tells the table where it is.
REMINDED = (7, 8, 14, 15, 16, 17, 19)


def track(state: State, number: int) -> Out:
    """Read track ``number``: in full the first time in an episode; after that its short
    reminder (option ``reread=reminder``, tracks in REMINDED), nothing (``first``, or a scene
    track), or in full again (``always``)."""
    tid = f"t{number:02d}"
    if tid not in state.read:
        return replace(state, read=state.read + (tid,)), (ReadTrack(tid),)
    reread = state.options.reread
    if reread == "always":
        return state, (ReadTrack(tid),)
    if reread == "reminder" and number in REMINDED:
        return state, (ReadTrack(tid, brief=True),)
    return state, ()


def ask(key: str, *accepts: Accept, why: str | None = None, **params: Any) -> Expectation:
    """A question whose "what now" reason is ``why``, by default its own ("why.resources" for
    "ask.resources"), filled with the same params."""
    return flow_ask(key, *accepts, why=why or "why." + key.split(".", 1)[1], **params)


# --------------------------------------------------------------------------- dice answers

AGENCY_WORDS = ("interference", "no interference")
#: the Handler's command to spend a Fleur-de-Lis (Track 11), said when they choose to: "spend a
#: fleur-de-lis", or "spend a token" (a word any recogniser spells)
FLEUR_WORDS = ("fleur de lis", "token")


def roll(count: int) -> tuple:
    """Accept ``count`` dice as faces or as a success count."""
    return (AcceptSuccesses(count), AcceptDice(SIDES, count, count))


def faces_said(given: GameInput) -> tuple[Say, ...]:
    """Read back the faces a player gave (the session already said the app's own roll)."""
    if not isinstance(given, Dice) or given.by_app:
        return ()
    return (Line("roll.faces", {"faces": list(given.faces)}),)


def successes(given: GameInput, target: int = OPPOSITION_TARGET) -> int:
    """Successes in a roll given as faces (each at ``target`` or under) or as a count."""
    if isinstance(given, Dice):
        return count_at_most(given.faces, target)
    assert isinstance(given, Successes)
    return given.count


def interferes(given: GameInput, target: int) -> bool:
    """Did Agency dice (faces or the word) interfere?"""
    if isinstance(given, Dice):
        return any(face <= target for face in given.faces)
    assert isinstance(given, Word)
    return given.word == "interference"


def outcome(spies: int, opposition: int, tie: str) -> Line:
    """Track 13: more successes decides; a tie goes the way the table chose, and says so."""
    if spies == opposition:
        return Line(f"said.tie_{tie}")
    return Line("said.favourable" if spies > opposition else "said.unfavourable")
