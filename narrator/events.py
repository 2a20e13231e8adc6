"""Every message that travels through the session loop, as a small frozen dataclass.

Three families:

* game inputs (``Continue``, ``Dice``, ``Successes``, ``Number``, ``Word``, ``Text``):
  what a player said that a game's rules act on; these are journaled;
* controls (``Control``): what the app itself acts on (pause, repeat, back, ...);
* output (``Line``, ``ReadTrack``, ``Said``): what the app says;
* hearing (``Utterance``): what the ears hand the session, its meaning already understood.

``to_dict``/``from_dict`` give every message a JSON form; the journal stores that form.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

_REGISTRY: dict[str, type] = {}
#: fields that hold another message (written as its own JSON form)
_NESTED = ("meaning",)


def message(cls: type) -> type:
    """Class decorator: make ``cls`` a frozen dataclass known to ``from_dict``."""
    cls = dataclass(frozen=True)(cls)
    _REGISTRY[cls.__name__] = cls
    return cls


def all_messages() -> dict[str, type]:
    """Every registered message class by name (tests round-trip each one)."""
    return dict(_REGISTRY)


def to_dict(msg: Any) -> dict[str, Any]:
    """JSON-ready form of a message: its fields plus ``type``."""
    out: dict[str, Any] = {"type": type(msg).__name__}
    for f in dataclasses.fields(msg):
        value = getattr(msg, f.name)
        if f.name in _NESTED:
            value = to_dict(value)
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Mapping):
            value = dict(value)
        out[f.name] = value
    return out


def from_dict(data: Mapping[str, Any]) -> Any:
    """Inverse of ``to_dict``; raises ``ValueError`` on an unknown type or bad fields."""
    data = dict(data)
    name = data.pop("type", None)
    cls = _REGISTRY.get(name)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown message type {name!r}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            value = data[f.name]
            if f.name in _NESTED and isinstance(value, Mapping):
                value = from_dict(value)
            kwargs[f.name] = tuple(value) if isinstance(value, list) else value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad fields for {name}: {exc}") from exc


# --------------------------------------------------------------------------- game inputs


@message
class Continue:
    """"next" at a point where the game only waits to go on."""


@message
class Dice:
    """Die faces in the order spoken; ``by_app`` when the app rolled them ("roll for me")."""

    faces: tuple[int, ...]
    by_app: bool = False


@message
class Successes:
    """A count of successes ("three successes", "no successes")."""

    count: int


@message
class Number:
    """A plain count or position ("two", "seven")."""

    value: int


@message
class Word:
    """One of a fixed set of words (yes, no, heads, risky, curse ...), optionally with a number."""

    word: str
    number: int | None = None


@message
class Text:
    """Free text: a name, a speciality, a clock's label."""

    text: str


GameInput = Union[Continue, Dice, Successes, Number, Word, Text]
GAME_INPUTS = (Continue, Dice, Successes, Number, Word, Text)
ANSWERS = (Dice, Successes, Number, Word, Text)  # the game inputs that answer a question
#: the words that reply to a read-back ("I heard 4. Right?": yes or no; "Keep 'Mara', or change
#: it?": keep or change), not an answer given in place of the one read back
CONFIRMS = ("yes", "no")
CHOICES = ("keep", "change")
REPLIES = CONFIRMS + CHOICES


# --------------------------------------------------------------------------- controls

@message
class Control:
    """Something the app acts on itself (the names are narrator.understand's controls);
    ``goto`` carries the track number in ``arg``."""

    name: str
    arg: int | None = None


@message
class Unclear:
    """An utterance that is not a legal input now, with the reason to say back."""

    heard: str
    reason: str


# --------------------------------------------------------------------------- output


@message
class Line:
    """A sentence to say, named by its key in the game's prompts (``params`` fill its fields);
    with ``brief`` its short form (the prompt ``<key>.short``) where the game has one. A brief
    Line equals the full one: it is the same sentence, said shorter."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    brief: bool = field(default=False, compare=False)

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))


@message
class ReadTrack:
    """Read a whole track of the game's script (heading and every line), or with ``brief`` its
    reminder (the prompt ``reminder.<track id>``) where the game has one."""

    track: str
    brief: bool = False


@message
class Said:
    """A rendered sentence as it is spoken and captioned.

    ``kind`` is one of: heading, line, caption (shown, not spoken: a recording plays), prompt,
    readback, reject, info.
    ``audio`` names a recorded file that plays instead of speech (captions still print).
    ``track``: the track id a reminder stands for ("repeat" reads that track in full).
    ``full``: the whole sentence a short form stands for ("repeat" says it).
    """

    text: str
    kind: str = "line"
    audio: str | None = None
    track: str | None = None
    full: str | None = None


Say = Union[Line, ReadTrack]


# --------------------------------------------------------------------------- hearing

#: the engines an utterance may come from
ENGINES = ("text", "whisper", "pocketsphinx", "vosk")


@message
class Utterance:
    """One thing heard, understood once by the ears (``meaning``: Control, a game input or
    Unclear). ``confidence`` is 0..1 (1.0 typed); ``sure`` False: read it back before it
    counts (low confidence, or free text heard by voice); ``transcript``: the recogniser's own
    words when they are not ``text`` (a spelling's "Bravo, Uniform", a phrase fitted to "Pass.");
    ``likeness``: over the narration, how coherent its sound was with what was played (the
    narrator's leaked voice 0.1 and up), where the echo canceller measured it."""

    text: str
    meaning: Any
    confidence: float
    engine: str
    sure: bool = True
    transcript: str = ""
    likeness: float | None = None
