"""The track engine: the rules of any script that names no rules module of its own.

It reads the start track, then follows the tracks' links: a track with one way on waits for
"next", a track with several asks which way (by the link's ``when`` label or its number), a
track with none ends the game. The session hands it the loaded script; it opens no files.
Its prompts come from the script like any game's: ``go_on``, ``choose`` (with ``{choices}``)
and ``where`` (with ``{number}`` and ``{title}``).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from narrator.events import Continue, GameInput, Line, Number, ReadTrack, Word
from narrator.rules.base import (
    AcceptContinue, AcceptNumber, AcceptWords, Expectation, RulesInfo, Step, reject,
)
from narrator.rules.options import OptionSet
from narrator.script.model import Link, Script, Track


def label(link: Link, target: Track) -> str:
    """What a player says to take ``link``: its ``when`` text, else the target's title, as
    lower-case words."""
    return " ".join(re.findall(r"[a-z0-9']+", (link.when or target.title).lower()))


class TrackEngine:
    """Rules that walk a script's track graph; the state is the current track's id."""

    options = OptionSet()

    def __init__(self, script: Script) -> None:
        self._script = script
        self.name = script.game
        self.script = script.folder.name

    def start(self, options: Mapping[str, Any]) -> Step:
        return Step(self._script.start, (ReadTrack(self._script.start),))

    def choices(self, state: str) -> tuple[str, ...]:
        """The labels of the ways on from track ``state``, in the script's order."""
        links = self._script.track(state).links
        return tuple(label(link, self._script.track(link.to)) for link in links)

    def expects(self, state: str) -> Expectation:
        choices = self.choices(state)
        if not choices:
            return Expectation(Line("go_on"), ())
        if len(choices) == 1:
            return Expectation(Line("go_on"), (AcceptContinue(),))
        return Expectation(Line("choose", {"choices": " or ".join(choices)}),
                           (AcceptWords(choices), AcceptNumber(1, len(choices))))

    def apply(self, state: str, given: GameInput) -> Step:
        links = self._script.track(state).links
        choices = self.choices(state)
        if isinstance(given, Continue) and len(links) == 1:
            return self._go(links[0].to)
        if isinstance(given, Word) and given.word in choices and len(links) > 1:
            return self._go(links[choices.index(given.word)].to)
        if isinstance(given, Number) and len(links) > 1 and 1 <= given.value <= len(links):
            return self._go(links[given.value - 1].to)
        return reject(state, "choose", choices=" or ".join(choices) or "nothing: the game is over")

    def status(self, state: str) -> tuple[Line, ...]:
        track = self._script.track(state)
        return (Line("where", {"number": track.number, "title": track.title}),)

    def _go(self, track: str) -> Step:
        return Step(track, (ReadTrack(track),))


def track_game(script: Script) -> RulesInfo:
    """The game a script without a rules module plays: its tracks, walked by the engine."""
    return RulesInfo(rules=TrackEngine(script), title=script.title,
                     summary=f"the tracks of {script.folder}, played by the track engine")
