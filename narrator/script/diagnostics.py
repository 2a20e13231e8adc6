"""Numbered script problems: each has a code (NS001...), a one-line summary and a place.

Every code has a bad example folder under ``tests/script/<code>/`` that produces exactly it, and
docs/script-format.md explains each one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from narrator.script.model import Where


class Code(Enum):
    """A kind of script problem; ``Code("NS004")`` finds one by its number."""

    YAML_SYNTAX = "NS001", "the file is not valid YAML, or not UTF-8 text"
    YAML_TAG = "NS002", "a YAML tag (!!python/..., !include, ...) is not allowed in a script"
    WRONG_TYPE = "NS003", "a value has the wrong type (a mapping, list, text, number or true/false was expected)"
    MISSING_FIELD = "NS004", "a required field is missing"
    UNKNOWN_FIELD = "NS005", "a field the format does not know (often a typo)"
    DUPLICATE_KEY = "NS006", "the same key is given twice (in one mapping, or in two files of the folder)"
    NO_SCRIPT = "NS007", "no script here: the folder holds no *.yaml file"
    OUTSIDE_FOLDER = "NS008", "a referenced file lies outside the script folder (../, absolute path or symlink)"
    MISSING_FILE = "NS009", "a referenced audio file does not exist"
    UNDEFINED_TARGET = "NS010", "a link (or start) names a track id that is not defined"
    UNREACHABLE = "NS011", "a track cannot be reached from the start track"
    DEAD_END = "NS012", "a track has no way on and is not marked as an ending"
    DUPLICATE_ID = "NS013", "two tracks have the same id"
    DUPLICATE_NUMBER = "NS014", "two tracks have the same number"
    EMPTY_TRACK = "NS015", "a track has no lines"
    WRONG_TITLE = "NS016", "text names \"Track N: Title\" but track N has another title"
    NO_SUCH_TRACK = "NS017", "text names \"Track N\" but there is no track N"
    UNLINKED_JUMP = "NS018", "text sends the table to a track (\"proceed to Track N\") the track has no link to"
    BAD_TEMPLATE = "NS019", ("a prompt is not a valid template (unbalanced { }, a positional field "
                             "or a format other than {x:a} and {x:one/many})")
    TOO_LARGE = "NS020", "a script is too large: a file over 128 KiB, a folder over 512 KiB or 10000 values"
    YAML_ALIAS = "NS021", "a YAML alias (*name) is not allowed in a script"
    TOO_DEEP = "NS022", "lists and mappings are nested more than 32 deep"
    UNKNOWN_RULES = "NS023", "rules: names no built-in rules module, or one that does not load"
    MISSING_PROMPT = "NS024", "a prompt key the game's rules say is missing from the script"
    BAD_CARDS = "NS025", "a card deck in the folder does not load"

    def __new__(cls, number: str, summary: str) -> "Code":
        member = object.__new__(cls)
        member._value_ = number
        member.summary = summary
        return member


@dataclass(frozen=True)
class Diagnostic:
    """One problem at one place; ``str()`` reads ``file:line: NS0xx message``."""

    code: Code
    message: str
    where: Where

    def __str__(self) -> str:
        place = f"{self.where.file}:{self.where.line}" if self.where.line else self.where.file
        return f"{place}: {self.code.value} {self.message}"
