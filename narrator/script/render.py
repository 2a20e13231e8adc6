"""Turn what the rules say (``Line``, ``ReadTrack``) into the sentences spoken and captioned."""

from __future__ import annotations

from typing import Any

from narrator.events import Line, ReadTrack, Said, Say
from narrator.script.model import Script
from narrator.understand.words import counted, spoken_list, with_article


class _Word:
    """A field's value with the word formats of a prompt: ``{face:a}`` gives it its article
    ("an 8"), ``{count:die/dice}`` its noun in the right number ("1 die", "2 dice"); any other
    format is the value's own."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        if spec == "a":
            return with_article(self.value)
        if "/" in spec:
            return counted(self.value, *spec.split("/", 1))
        return format(self.value, spec)


class _Fields(dict):
    """format_map values: lists read as spoken lists, a ``Line`` as its own prompt's text (so a
    question can list worded options), and the word formats of ``_Word``; a missing field
    raises KeyError."""

    def __init__(self, script: Script, params: dict) -> None:
        super().__init__(params)
        self.script = script

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if isinstance(value, (list, tuple)):
            return spoken_list(self._text(v) for v in value)
        return _Word(self._text(value))

    def _text(self, value: Any) -> Any:
        return render_line(self.script, value) if isinstance(value, Line) else value


def render_line(script: Script, line: Line) -> str:
    """The text of one prompt with its fields filled. KeyError names a missing prompt or field."""
    prompt = script.prompts.get(line.key)
    if prompt is None:
        raise KeyError(f"{script.game}: no prompt {line.key!r}")
    try:
        return prompt.text.format_map(_Fields(script, line.params))
    except KeyError as exc:
        raise KeyError(f"{prompt.where}: prompt {line.key!r} needs field {exc}") from None


def render(script: Script, say: Say, kind: str = "line") -> list[Said]:
    """Everything one ``Say`` speaks: a track is its heading then each of its lines; a brief
    track is its reminder, and a brief line its short form (``<key>.short``), when the game's
    prompts have one (the Said keeps what it stands for: "repeat" says that)."""
    if isinstance(say, ReadTrack) and say.brief and f"reminder.{say.track}" in script.prompts:
        return [Said(render_line(script, Line(f"reminder.{say.track}")), kind, track=say.track)]
    if isinstance(say, ReadTrack):
        track = script.track(say.track)
        audio = str(track.audio) if track.audio else None
        # With a recording, the heading plays it and the lines are captions only.
        line_kind = "caption" if audio else "line"
        return [Said(track.heading, "heading", audio)] + [Said(t, line_kind) for t in track.lines]
    text = render_line(script, say)
    if say.brief and f"{say.key}.short" in script.prompts:
        short = render_line(script, Line(f"{say.key}.short", say.params))
        return [Said(short, kind, full=text)]
    return [Said(text, kind)]
