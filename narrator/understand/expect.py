"""What a game waits for now: the question and the kinds of input that answer it.

These are the understanding layer's input: ``understand()``, ``grammar()`` and ``describe()``
all read an ``Expectation``. Rules build them (``narrator.rules.base`` re-exports them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from narrator.events import GameInput, Line


@dataclass(frozen=True)
class AcceptContinue:
    """"next" goes on."""


@dataclass(frozen=True)
class AcceptDice:
    """Between ``min_count`` and ``max_count`` faces of a die with ``sides`` sides.

    ``can_roll``: the app may roll them on request ("roll for me"); a game that keeps dice
    physical sets it to False and ``roll_refusal`` says why. ``faces``: one die's faces by
    name, in order (a coin: "heads", "tails"); a face said or typed as its number means its
    name, a ``Word`` ("one" is heads), as the question's words say it. By voice such a die is
    heard by its names, which the question lists as words too (Half-Chance's flip).
    """

    sides: int
    min_count: int = 1
    max_count: int = 1
    can_roll: bool = True
    roll_refusal: str = ""
    faces: tuple[str, ...] = ()


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
    """Free text (names and labels); ``label`` says what it is. ``names``: proper nouns the
    answer may hold that a recogniser would not spell unaided (the game's factions and
    districts, the names the table gave before); Whisper is prompted with them. ``refused``:
    what was heard by voice at this question and not taken (read back and refused, or said
    again over its read-back): the answer said again is not heard as one of those if Whisper
    has another way to write it."""

    label: str = "text"
    names: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()


Accept = Union[AcceptContinue, AcceptDice, AcceptSuccesses, AcceptNumber, AcceptWords, AcceptText]


@dataclass(frozen=True)
class Expectation:
    """What the game waits for: the question to ask and the inputs that answer it.

    An empty ``accepts`` means the game is over. ``why``: one line saying why the game waits
    for this answer ("The job roll decides whether the spy's plan works"), for "what now".
    ``passed``: the answer last read back and refused at this question (not free text, which
    has ``AcceptText.refused``): said again and heard as that once more, a recogniser that
    scores its candidates reads back its next likeliest instead.
    """

    prompt: Line
    accepts: tuple[Accept, ...]
    why: Line | None = None
    passed: GameInput | None = None

    @property
    def over(self) -> bool:
        return not self.accepts

    def find(self, kind: type) -> Any | None:
        """The first accepted input spec of ``kind``, or None."""
        return next((a for a in self.accepts if isinstance(a, kind)), None)
