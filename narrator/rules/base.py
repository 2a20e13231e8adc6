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
from typing import Any, Mapping, Protocol, Union

from narrator.events import GameInput, Line, Say
from narrator.rules.options import OptionSet

# --------------------------------------------------------------------------- what is legal now


@dataclass(frozen=True)
class AcceptContinue:
    """"next" goes on."""


@dataclass(frozen=True)
class AcceptDice:
    """Between ``min_count`` and ``max_count`` faces of a die with ``sides`` sides.

    ``can_roll``: the app may roll them on request ("roll for me"); a game that keeps dice
    physical sets it to False and ``roll_refusal`` says why.
    """

    sides: int
    min_count: int = 1
    max_count: int = 1
    can_roll: bool = True
    roll_refusal: str = ""


@dataclass(frozen=True)
class AcceptSuccesses:
    """A success count from 0 to ``max``."""

    max: int


@dataclass(frozen=True)
class AcceptNumber:
    """A whole number from ``min`` to ``max``."""

    min: int
    max: int


@dataclass(frozen=True)
class AcceptWords:
    """One of ``words``; those also in ``numbered`` carry a number ("curse 7")."""

    words: tuple[str, ...]
    numbered: tuple[str, ...] = ()


@dataclass(frozen=True)
class AcceptText:
    """Free text (names and labels); ``label`` says what it is."""

    label: str = "text"


Accept = Union[AcceptContinue, AcceptDice, AcceptSuccesses, AcceptNumber, AcceptWords, AcceptText]


@dataclass(frozen=True)
class Expectation:
    """What the game waits for: the question to ask and the inputs that answer it.

    An empty ``accepts`` means the game is over.
    """

    prompt: Line
    accepts: tuple[Accept, ...]

    @property
    def over(self) -> bool:
        return not self.accepts

    def find(self, kind: type) -> Any | None:
        """The first accepted input spec of ``kind``, or None."""
        return next((a for a in self.accepts if isinstance(a, kind)), None)


# --------------------------------------------------------------------------- the result of apply


@dataclass(frozen=True)
class Step:
    """What ``apply`` returns: the new state and what to say.

    When ``rejected`` is set, the input was illegal: ``state`` is the unchanged state and
    ``rejected`` is the Line giving the reason.
    """

    state: Any
    say: tuple[Say, ...] = ()
    rejected: Line | None = None


def reject(state: Any, key: str, **params: Any) -> Step:
    """An illegal input: the unchanged state and the reason."""
    return Step(state=state, rejected=Line(key, params))


# --------------------------------------------------------------------------- the interface


class Rules(Protocol):
    """One game's rules. Implementations are pure and their state is plain, comparable data."""

    #: the name used on the command line ("slow-burn")
    name: str
    #: the folder under scripts/ that holds its text ("slow_burn")
    script: str
    #: typed options a table may set (``--option key=value``); as a mapping, name -> default
    options: OptionSet

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
