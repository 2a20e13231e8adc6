"""``narrator schema``: a JSON Schema of one script file, built from the loader's own field
lists, so an editor (the YAML language server, for one) flags a typo as it is typed.

The schema checks one file's shape; what spans files or needs the rules (links, prompt keys,
decks) is ``narrator check``'s.
"""

from __future__ import annotations

from typing import Any

from narrator.script.loader import LINK_FIELDS, TOP_FIELDS, TRACK_FIELDS, TRACK_REQUIRED

_JSON_TYPES = {str: "string", int: "integer", bool: "boolean", list: "array", dict: "object"}
_MEANING = {
    "game": "the name the command line uses (narrator play NAME)",
    "title": "the game's title, said when it starts",
    "rules": "a built-in rules module that plays this script (narrator games); "
             "without it the track engine follows the tracks' links",
    "start": "the id of the first track read",
    "tracks": "the passages read aloud, each whole",
    "prompts": "sentences the rules say by key; {name} fields are filled in",
    "cards": "a card deck (Half-Chance's format: docs/half-chance.md)",
    "names": "proper nouns a table may say in a free-text answer (factions, places): "
             "the recogniser is told them",
    "id": "the track's id, unique in the script; links name it",
    "number": "the track's number, unique: 'go to track N' and the heading 'Track N: Title'",
    "lines": "the sentences read aloud, in order, after the heading",
    "next": "the ways on; with several, the table chooses by the link's when",
    "ending": "the game may end here (a track needs next, or ending: true)",
    "audio": "a recording inside the script folder, played instead of the lines",
    "to": "the id of the track this way leads to",
    "when": "when this way is taken: the words a player says to choose it",
}


def _properties(fields: dict[str, type], items: dict[str, Any] | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for name, kind in fields.items():
        prop: dict[str, Any] = {"type": _JSON_TYPES[kind], "description": _MEANING[name]}
        if kind is int:
            prop["minimum"] = 1
        if items and name in items:
            prop["items"] = items[name]
        props[name] = prop
    return props


def script_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a script file."""
    link = {"type": "object", "additionalProperties": False, "required": ["to"],
            "properties": _properties(LINK_FIELDS)}
    track = {"type": "object", "additionalProperties": False, "required": list(TRACK_REQUIRED),
             "properties": _properties(TRACK_FIELDS, {"lines": {"type": "string"},
                                                      "next": link})}
    top = _properties(TOP_FIELDS, {"tracks": track, "cards": {"type": "object"},
                                   "names": {"type": "string"}})
    top["prompts"]["additionalProperties"] = {"type": "string"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "narrator game script (one file of a script folder)",
        "type": "object",
        "additionalProperties": False,
        "properties": top,
    }
