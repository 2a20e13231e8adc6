"""The track engine: the rules of any script that names no rules module of its own.

It reads the start track, then follows the tracks' links: a track with one way on waits for
"next", a track with several asks which way (by the link's ``when`` label or its number), a
track with none ends the game. The session hands it the loaded script; it opens no files.
It says three prompts, ``go_on``, ``choose`` (with ``{choices}``) and ``where`` (with
``{number}`` and ``{title}``); a script may word them itself, else DEFAULT_PROMPTS are used.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Mapping

from narrator.events import Continue, GameInput, Line, Number, ReadTrack, Word
from narrator.rules.base import (
    AcceptContinue, AcceptNumber, AcceptWords, Expectation, RulesInfo, Step, reject,
)
from narrator.rules.options import OptionSet
from narrator.script.model import Link, Prompt, Script, Track, Where

#: the engine's prompts for a script that does not word them itself
DEFAULT_PROMPTS = {
    "go_on": "Say next to go on.",
    "choose": "Which way? Say {choices}.",
    "where": "We are at track {number}, {title}.",
}


def label(link: Link, target: Track) -> str:
    """What a player says to take ``link``: its ``when`` text, else the target's title, as
    lower-case words."""
    return " ".join(re.findall(r"[a-z0-9']+", (link.when or target.title).lower()))


class TrackEngine:
    """Rules that walk a script's track graph; the state is the current track's id."""

    options = OptionSet()

    def __init__(self, script: Script) -> None:
        self._script = script
        self.name = re.sub(r"[^a-z0-9]+", "-", script.game.lower()).strip("-") or "game"
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


def track_game(script: Script) -> tuple[RulesInfo, Script]:
    """The game a script without a rules module plays: its tracks, walked by the engine, and
    the script with the engine's default prompts added where it words none of its own."""
    where = Where(__name__, 0)
    prompts = {key: Prompt(key, text, where) for key, text in DEFAULT_PROMPTS.items()}
    script = dataclasses.replace(script, prompts={**prompts, **script.prompts})
    info = RulesInfo(rules=TrackEngine(script), title=script.title,
                     summary=f"the tracks of {script.folder}, played by the track engine")
    return info, script
