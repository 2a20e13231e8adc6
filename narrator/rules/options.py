"""Typed game options: each declares its type, its range or choices, its default and a meaning.

A game's ``options`` is an ``OptionSet``; as a mapping it reads name -> default, so rules code
can merge it with given values. The command line (``--option key=value``), the journal header
and resume all go through ``OptionSet.parse`` / ``OptionSet.check``: a wrong value is refused
with the values that are allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

from narrator.errors import NarratorError

_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")


class OptionError(NarratorError, ValueError):
    """An unknown option or a value it does not allow; the message lists what is allowed."""


@dataclass(frozen=True)
class Option:
    """One named table choice.

    The default's type is the option's type: ``bool``, ``int`` (``low``..``high``, inclusive)
    or ``str`` (one of ``choices``). ``meaning`` is one line for ``narrator options``.
    """

    name: str
    default: bool | int | str
    meaning: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.default, str) and not self.choices:
            raise TypeError(f"option {self.name}: a text option needs its choices")
        self.parse(self.default)

    @property
    def kind(self) -> str:
        """``true/false``, ``number`` or ``choice``."""
        if isinstance(self.default, bool):
            return "true/false"
        return "number" if isinstance(self.default, int) else "choice"

    def allowed(self) -> str:
        """The values it takes, in words: ``true or false``, ``a whole number from 1 to 18``..."""
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, int):
            low = "" if self.low is None else f" from {self.low}"
            high = "" if self.high is None else f" to {self.high}"
            return f"a whole number{low}{high}"
        return "one of " + ", ".join(self.choices)

    def parse(self, raw: Any) -> bool | int | str:
        """``raw`` (text from the command line, or a value from a journal) as this option's type."""
        value = self._convert(raw)
        if value is None:
            raise OptionError(f"{self.name}={_show(raw)} is refused: {self.name} is "
                              f"{self.allowed()} (default {_show(self.default)})")
        return value

    def _convert(self, raw: Any) -> bool | int | str | None:
        text = raw.strip().lower() if isinstance(raw, str) else None
        if isinstance(self.default, bool):
            if isinstance(raw, bool):
                return raw
            return True if text in _TRUE else False if text in _FALSE else None
        if isinstance(self.default, int):
            if isinstance(raw, int) and not isinstance(raw, bool):
                number = raw
            elif text is not None and text.lstrip("-").isdigit() and len(text) <= 12:
                number = int(text)
            else:
                return None
            inside = (self.low is None or number >= self.low) and \
                     (self.high is None or number <= self.high)
            return number if inside else None
        return text if text in self.choices else None


class OptionSet(Mapping[str, Any]):
    """A game's declared options; as a mapping, each name gives its default."""

    def __init__(self, *declared: Option) -> None:
        self._options = {o.name: o for o in declared}

    def __getitem__(self, name: str) -> Any:
        return self._options[name].default

    def __iter__(self) -> Iterator[str]:
        return iter(self._options)

    def __len__(self) -> int:
        return len(self._options)

    @property
    def declared(self) -> tuple[Option, ...]:
        """Every option, in declaration order."""
        return tuple(self._options.values())

    def parse(self, pairs: Iterable[str]) -> dict[str, Any]:
        """Every option's value: the defaults, with ``key=value`` pairs (command line) on top."""
        given: dict[str, Any] = {}
        for pair in pairs:
            key, sep, raw = pair.partition("=")
            if not sep:
                raise OptionError(f"{_show(pair)} is not key=value; {self.summary()}")
            given[key.strip()] = raw
        return self.check(given)

    def check(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The defaults with ``given`` values (a journal header, a resume) checked on top."""
        values = dict(self)
        for key, raw in given.items():
            option = self._options.get(key) if isinstance(key, str) else None
            if option is None:
                raise OptionError(f"unknown option {_show(key)}; {self.summary()}")
            values[key] = option.parse(raw)
        return values

    def summary(self) -> str:
        """The options with what each allows and its default, in one line."""
        if not self._options:
            return "this game has no options"
        return "the options are " + "; ".join(
            f"{o.name} ({o.allowed()}, default {_show(o.default)})" for o in self._options.values())


def _show(value: Any) -> str:
    """A value as the user would type it (true, 9, tie), clipped to a readable length."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return repr(text[:40] + "…" if len(text) > 40 else text)[1:-1] if isinstance(value, str) \
        else text
