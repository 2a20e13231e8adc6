"""Half-Chance cards: the deck format (YAML ``cards:`` lists), its parser and its checks.

A card is an ordered list of instructions, each marked ``plus`` (heads), ``minus`` (tails) or
``either``. The top instruction is always followed; after each one the player flips a coin and
moves down to the next instruction that matches. An instruction whose text ends in ``END CARD``
ends the card; ``then:`` adds an effect (see ``EFFECTS``). Every ``*.yaml`` file of the script
folder that has a ``cards:`` list adds its cards to the deck, so a table adds its own cards by
dropping a file beside the starter deck. The script loader reads those lists into
``Script.cards``; this module only parses that data (no files).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from narrator.errors import NarratorError
from narrator.script.diagnostics import Code, Diagnostic
from narrator.script.model import Script, Where
from narrator.understand import is_command, lost_words

KINDS = ("wander", "encounter", "condition")
MARKS = ("plus", "minus", "either")
#: ``then:`` effects: call a player for an Encounter, draw a Condition and follow it, draw a
#: card, discard a card from hand, lose one of your Conditions
EFFECTS = ("encounter", "injured", "draw", "discard", "heal")
END = "END CARD"
FLIPS = ("plus", "minus")
_CARD_FIELDS = ("name", "kind", "copies", "steps")
_NAME = re.compile(r"^[A-Za-z]+(?: [A-Za-z]+)*$")


@dataclass(frozen=True)
class Instruction:
    """One line of a card: its mark, what to read, an optional effect, and whether it ends."""

    mark: str
    text: str
    then: str = ""
    end: bool = False
    where: Where = Where("?", 0)

    def matches(self, flip: str) -> bool:
        """Whether a flip (``plus`` or ``minus``) stops here."""
        return self.mark in (flip, "either")


@dataclass(frozen=True)
class Card:
    """A card as printed: name, kind and instructions; ``copies`` in the deck."""

    name: str
    kind: str
    steps: tuple[Instruction, ...]
    copies: int = 1
    where: Where = Where("?", 0)

    @property
    def title(self) -> str:
        """How the card is named aloud: "Fog Wander"."""
        return f"{self.name} {self.kind.capitalize()}"

    def next_step(self, pos: int, flip: str) -> int | None:
        """The first instruction below ``pos`` that ``flip`` matches (never one above)."""
        return next((i for i in range(pos + 1, len(self.steps)) if self.steps[i].matches(flip)),
                    None)


@dataclass(frozen=True)
class Deck:
    """Every card a table plays with."""

    cards: tuple[Card, ...]

    def card(self, name: str) -> Card:
        return next(c for c in self.cards if c.name == name)

    def names(self, *kinds: str) -> tuple[str, ...]:
        """The names of the cards of these kinds, in deck order."""
        return tuple(c.name for c in self.cards if c.kind in kinds)

    def pile(self, *kinds: str) -> tuple[str, ...]:
        """One name per physical card of these kinds (copies repeated), unshuffled."""
        return tuple(c.name for c in self.cards if c.kind in kinds for _ in range(c.copies))


class DeckError(NarratorError):
    """A deck with problems; the message lists them, one file:line each."""


# --------------------------------------------------------------------------- reading


def read_deck(script: Script) -> tuple[Deck, list[str]]:
    """The cards of ``script`` (its files' ``cards:`` lists) and every problem found."""
    problems: list[str] = []
    deck = Deck(tuple(_cards(list(script.cards), Where(str(script.folder), 0), problems)))
    problems.extend(_deck_problems(deck))
    return deck, problems


def lint_cards(script: Script) -> list[str]:
    """Every problem of ``script``'s cards as ``file:line: message`` (empty when sound, and for
    a script that holds no cards, so it can run on every script)."""
    return read_deck(script)[1]


_PLACE = re.compile(r"^(?P<file>.*?):(?P<line>\d+): (?P<message>.*)$", re.S)


def deck_diagnostics(script: Script, playing: bool = False) -> list[Diagnostic]:
    """Every problem of ``script``'s cards as an NS025 diagnostic at its file and line; when
    ``playing``, a folder with no cards at all is one too."""
    deck, problems = read_deck(script)
    found = []
    for problem in problems:
        place = _PLACE.match(problem)
        where = Where(place["file"], int(place["line"])) if place else Where(str(script.folder), 0)
        found.append(Diagnostic(Code.BAD_CARDS, place["message"] if place else problem, where))
    if playing and not deck.cards:
        found.append(Diagnostic(Code.BAD_CARDS, "no cards: no file has a cards: list",
                                Where(str(script.folder), 0)))
    return found


def load_deck(script: Script) -> Deck:
    """The deck of ``script``; ``DeckError`` lists its problems when it has any."""
    deck, problems = read_deck(script)
    if not deck.cards:
        problems.append(f"{script.folder}: no cards: no file has a cards: list")
    if problems:
        raise DeckError("\n".join(problems))
    return deck


def _where(value: Any, default: Where) -> Where:
    return getattr(value, "where", default)


def _cards(items: Any, where: Where, problems: list[str]) -> list[Card]:
    if not isinstance(items, list):
        problems.append(f"{_where(items, where)}: cards should be a list of cards")
        return []
    found = [_card(item, _where(items, where), problems) for item in items]
    return [c for c in found if c is not None]


def _card(data: Any, where: Where, problems: list[str]) -> Card | None:
    where = _where(data, where)
    if not isinstance(data, dict):
        problems.append(f"{where}: a card should be a mapping with {', '.join(_CARD_FIELDS)}")
        return None
    bad = len(problems)
    for key in data:
        if key not in _CARD_FIELDS:
            problems.append(f"{_where(key, where)}: unknown card field {key!r} "
                            f"(known: {', '.join(_CARD_FIELDS)})")
    name, kind, copies = data.get("name"), data.get("kind"), data.get("copies", 1)
    if not isinstance(name, str) or not _NAME.match(name):
        problems.append(f"{where}: a card needs a name of plain words (letters and spaces)")
    else:
        problems.extend(f"{where}: card {name}: {p}" for p in _name_problems(name))
    if kind not in KINDS:
        problems.append(f"{_where(kind, where)}: card {name}: kind should be one of "
                        f"{', '.join(KINDS)}")
    if type(copies) is not int or copies < 1:
        problems.append(f"{where}: card {name}: copies should be a whole number of 1 or more")
    steps = _steps(data.get("steps"), where, f"card {name}", problems)
    if len(problems) > bad:
        return None
    card = Card(str(name), str(kind), tuple(steps), copies, where)
    problems.extend(_flow_problems(card))
    return card


def _name_problems(name: str) -> list[str]:
    """Names must survive the listener: no dropped or rewritten words, no command phrases."""
    out = [f"the listener drops or changes the word {w!r}; players could not name this card"
           for w in lost_words(name)]
    if is_command(name) or name.lower() in ("keep", "heads", "tails"):
        out.append(f"{name!r} is also a command word; players could not name this card")
    return out


def _steps(items: Any, where: Where, what: str, problems: list[str]) -> list[Instruction]:
    if not isinstance(items, list) or not items:
        problems.append(f"{where}: {what}: steps should be a list of instructions")
        return []
    return [s for item in items if (s := _step(item, _where(items, where), what, problems))]


def _step(data: Any, where: Where, what: str, problems: list[str]) -> Instruction | None:
    where = _where(data, where)
    marks = [k for k in data if k in MARKS] if isinstance(data, dict) else []
    if len(marks) != 1:
        problems.append(f"{where}: {what}: an instruction is one of {', '.join(MARKS)}: "
                        f"followed by its text")
        return None
    unknown = [k for k in data if k not in MARKS and k != "then"]
    text, then = data[marks[0]], data.get("then", "")
    if unknown:
        problems.append(f"{where}: {what}: unknown instruction field {unknown[0]!r}")
    if not isinstance(text, str) or not text.strip():
        problems.append(f"{where}: {what}: an instruction needs text")
        return None
    if then not in ("",) + EFFECTS:
        problems.append(f"{_where(then, where)}: {what}: then should be one of "
                        f"{', '.join(EFFECTS)}")
    body = text.strip()
    end = body.endswith(END)
    body = body.removesuffix(END).strip()
    if END in body:
        problems.append(f"{where}: {what}: END CARD must close the instruction's text")
    return Instruction(marks[0], body, str(then), end, where)


# --------------------------------------------------------------------------- checking a card


def _flow_problems(card: Card) -> list[str]:
    """No END CARD, a flip that falls off the card, an instruction no flip can reach."""
    steps, out = card.steps, []
    if steps[0].mark != "either":
        out.append(f"{steps[0].where}: card {card.name}: the top instruction is always "
                   f"followed; mark it either")
    if not any(s.end for s in steps):
        out.append(f"{card.where}: card {card.name} has no END CARD")
    reached, todo = {0}, [0]
    while todo:
        pos = todo.pop()
        if steps[pos].end:
            continue
        for flip in FLIPS:
            nxt = card.next_step(pos, flip)
            if nxt is None:
                out.append(f"{steps[pos].where}: card {card.name}: after this instruction a "
                           f"{flip} flip finds nothing below it, so the card stops without "
                           f"END CARD")
            elif nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    out.extend(f"{steps[i].where}: card {card.name}: no flip can reach this instruction"
               for i in range(len(steps)) if i not in reached)
    return out


def _deck_problems(deck: Deck) -> list[str]:
    out, seen = [], {}
    for card in deck.cards:
        if card.name.lower() in seen:
            out.append(f"{card.where}: card {card.name}: the name is also used at "
                       f"{seen[card.name.lower()]}")
        seen.setdefault(card.name.lower(), card.where)
    if deck.cards:
        out.extend(f"{deck.cards[0].where}: the deck has no {kind} card"
                   for kind in KINDS if not deck.names(kind))
    return out
