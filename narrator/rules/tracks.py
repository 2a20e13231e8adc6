"""The track engine: the rules of any script that names no rules module of its own.

It reads the start track, then follows the tracks' links: a track with one way on waits for
"next", a track with several asks which way (by the link's ``when`` label or its number), a
track with none ends the game. The session hands it the loaded script; it opens no files.
It says three prompts, ``go_on``, ``choose`` (with ``{choices}``) and ``where`` (with
``{number}`` and ``{title}``), and for "what now" ``why.go_on`` and ``why.choose`` (with
``{title}``); a script may word them itself, else DEFAULT_PROMPTS are used.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Mapping

from narrator.events import Continue, Line, Number, ReadTrack
from narrator.rules.base import AcceptContinue, AcceptNumber, AcceptWords, Expectation, RulesInfo, Step
from narrator.rules.flow import Flow, FlowRules, Steps, push
from narrator.rules.options import OptionSet
from narrator.script.model import Link, Prompt, Script, Track, Where

#: the engine's prompts for a script that does not word them itself
DEFAULT_PROMPTS = {
    "go_on": "Say next to go on.",
    "choose": "Which way? Say {choices}.",
    "where": "We are at track {number}, {title}.",
    "why.go_on": "{title} has been read, and the next track follows it.",
    "why.choose": "{title} has been read, and the way you choose is the track read next.",
    "reject.over": "The game is over.",
    "reject.not_now": "That is not a way on from here: say {takes}.",
    "reject.blank": "Nothing was said: say {takes}.",
    "reject.word": "{word} is not a way on from here: say {takes}.",
    "reject.number": "There is no way {value}: say a number from {min} to {max}.",
    "reject.face": "No dice are rolled here.",
    "reject.dice_count": "No dice are rolled here.",
    "reject.successes": "No dice are rolled here.",
}


def label(link: Link, target: Track) -> str:
    """What a player says to take ``link``: its ``when`` text, else the target's title, as
    lower-case words."""
    return " ".join(re.findall(r"[a-z0-9']+", (link.when or target.title).lower()))


@dataclasses.dataclass(frozen=True)
class At:
    """Where the table is: the current track, and the question waiting there (none at an end)."""

    track: str
    todo: tuple[tuple, ...] = ()


class TrackEngine(FlowRules):
    """Rules that walk a script's track graph: one question, "way", at every track with a way
    on (run by the flow kernel, narrator/rules/flow.py)."""

    options = OptionSet()

    def __init__(self, script: Script) -> None:
        self._script = script
        self.name = re.sub(r"[^a-z0-9]+", "-", script.game.lower()).strip("-") or "game"
        self.script = script.folder.name
        steps = Steps()
        steps.question("way", self._expect)(self._way)
        self.flow = Flow(steps, over=lambda state: Line("go_on"))

    def start(self, options: Mapping[str, Any]) -> Step:
        return Step(*self._go(At(self._script.start), self._script.start))

    def choices(self, track: str) -> tuple[str, ...]:
        """The labels of the ways on from ``track``, in the script's order."""
        links = self._script.track(track).links
        return tuple(label(link, self._script.track(link.to)) for link in links)

    def _expect(self, state: At, track: str) -> Expectation:
        choices = self.choices(track)
        title = {"title": self._script.track(track).title}
        if len(choices) == 1:
            return Expectation(Line("go_on"), (AcceptContinue(),), Line("why.go_on", title))
        return Expectation(Line("choose", {"choices": " or ".join(choices)}),
                           (AcceptWords(choices), AcceptNumber(1, len(choices))),
                           Line("why.choose", title))

    def _way(self, state: At, given, track: str):
        links = self._script.track(track).links
        if isinstance(given, Continue):
            way = 0
        elif isinstance(given, Number):
            way = given.value - 1
        else:
            way = self.choices(track).index(given.word)
        return self._go(state, links[way].to)

    def status(self, state: At) -> tuple[Line, ...]:
        track = self._script.track(state.track)
        return (Line("where", {"number": track.number, "title": track.title}),)

    def _go(self, state: At, track: str):
        """Read ``track``; ask the way on when it has one."""
        state = At(track)
        if self._script.track(track).links:
            state = push(state, ("way", track))
        return state, (ReadTrack(track),)


def track_game(script: Script) -> tuple[RulesInfo, Script]:
    """The game a script without a rules module plays: its tracks, walked by the engine, and
    the script with the engine's default prompts added where it words none of its own."""
    where = Where(__name__, 0)
    prompts = {key: Prompt(key, text, where) for key, text in DEFAULT_PROMPTS.items()}
    script = dataclasses.replace(script, prompts={**prompts, **script.prompts})
    info = RulesInfo(rules=TrackEngine(script), title=script.title,
                     summary=f"the tracks of {script.folder}, played by the track engine")
    return info, script
