"""The game-script format as dataclasses: a game's tracks (read aloud) and prompts (said by rules).

A script folder ``scripts/<game>/`` holds YAML files; the loader merges them into one ``Script``.
Every element remembers where it was written (``Where``) so problems point at file:line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping


@dataclass(frozen=True)
class Where:
    """A place in a script file."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Link:
    """A way on from a track: ``to`` is a track id, ``when`` says when it is taken."""

    to: str
    when: str
    where: Where


@dataclass(frozen=True)
class Track:
    """One passage read aloud as a whole ("Track 8: Playing a Segment").

    ``audio`` is a recorded file (inside the script folder) that plays instead of speech.
    ``ending`` marks a track where the flow may stop (no way on needed).
    """

    id: str
    number: int
    title: str
    lines: tuple[str, ...]
    links: tuple[Link, ...] = ()
    ending: bool = False
    audio: Path | None = None
    where: Where = Where("?", 0)
    line_where: tuple[Where, ...] = ()

    @property
    def heading(self) -> str:
        return f"Track {self.number}: {self.title}"


@dataclass(frozen=True)
class Prompt:
    """A sentence the rules say by key; ``text`` may hold ``{name}`` fields."""

    key: str
    text: str
    where: Where


@dataclass(frozen=True)
class Script:
    """A loaded game script; ``rules`` names a built-in rules module (None: the track engine).
    ``cards`` is every file's ``cards:`` entries in file order, as YAML data stamped with their
    places (the Half-Chance deck: its rules parse and check it). ``names``: proper nouns a
    table may say in a free-text answer (factions, places), told to the recogniser."""

    game: str
    title: str
    folder: Path
    start: str | None = None
    tracks: tuple[Track, ...] = ()
    prompts: Mapping[str, Prompt] = field(default_factory=dict)
    rules: str | None = None
    cards: tuple[Any, ...] = ()
    names: tuple[str, ...] = ()

    def track(self, track_id: str) -> Track:
        """The track with this id (KeyError if none)."""
        for t in self.tracks:
            if t.id == track_id:
                return t
        raise KeyError(track_id)

    def track_number(self, number: int) -> Track | None:
        """The track with this number, or None."""
        return next((t for t in self.tracks if t.number == number), None)
