"""The Rules interface every game implements, and the values it trades in.

A rules module is pure: no I/O, no clock, no randomness of its own. The session loop asks
``expects(state)`` what is legal now, turns what a player said into one game input, and calls
``apply(state, input)``. Dice the app rolls ("roll for me") arrive as ordinary ``Dice`` inputs
with ``by_app=True``; the rules never roll.

Everything said is a ``Line`` (a key into ``scripts/<game>/prompts.yaml`` with parameters) or a
``ReadTrack``: game text lives in the script folder, decisions live here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

from narrator.events import GameInput, Line, Say
from narrator.rules.options import OptionSet
from narrator.script.model import Script
from narrator.understand.expect import (  # noqa: F401  (the rules' vocabulary of what is legal)
    Accept,
    AcceptContinue,
    AcceptDice,
    AcceptNumber,
    AcceptSuccesses,
    AcceptText,
    AcceptWords,
    Expectation,
)

# --------------------------------------------------------------------------- the result of apply


@dataclass(frozen=True)
class Step:
    """What ``apply`` returns: the new state and what to say.

    When ``rejected`` is set, the input was illegal: ``state`` is the unchanged state and
    ``rejected`` is the Line giving the reason (made only by narrator/rules/flow.py).
    """

    state: Any
    say: tuple[Say, ...] = ()
    rejected: Line | None = None


# --------------------------------------------------------------------------- the interface


class Rules(Protocol):
    """One game's rules. Implementations are pure and their state is plain, comparable data."""

    #: the name used on the command line ("slow-burn")
    name: str
    #: the folder under scripts/ that holds its text ("slow_burn")
    script: str
    #: typed options a table may set (``--option key=value``); as a mapping, name -> default
    options: OptionSet

    def for_script(self, script: Script) -> Rules:
        """These rules bound to the game data of the script they play (e.g. a card deck); the
        registry calls it, so the rules read no files."""

    def start(self, options: Mapping[str, Any]) -> Step:
        """The initial state and what to say first."""

    def expects(self, state: Any) -> Expectation:
        """What input is legal now, and the question that asks for it."""

    def apply(self, state: Any, given: GameInput) -> Step:
        """Act on one input, or reject it with the reason and the unchanged state."""

    def status(self, state: Any) -> tuple[Line, ...]:
        """Where the game stands, for "status" / "where are we"."""


@dataclass(frozen=True)
class RulesInfo:
    """A registered game: its rules, title and a one-line summary (``narrator games``)."""

    rules: Rules
    title: str
    summary: str
    aliases: tuple[str, ...] = field(default_factory=tuple)
