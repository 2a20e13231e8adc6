"""A small template language and the one expression tree both ears and keyboard read.

Templates are written like hassil's: ``[optional]``, ``(one|other)``, ``{slot}``, and
``a/an`` for one word written two ways (both read, only the first said in a grammar), e.g.
``"[please] pause"`` or ``"[go to] track {n}"``. ``parse`` makes an expression:

* ``("w", word, *spellings)``  a word; spellings are other ways to write the same sound ("to")
* ``("seq", *items)``, ``("alt", *items)``, ``("opt", item)``
* ``("num", tag, lo, hi)``     a number from ``lo`` to ``hi``, captured as ``(tag, n)``
* ``("plural", tag, lo, hi)``  a plural die face ("sixes"), captured as ``(tag, 6)``
* ``("val", tag, value, item)``  ``item``, captured as ``(tag, value)`` (which control, which word)
* ``("list", lo, hi, single, group, sep)``  ``lo`` to ``hi`` dice: ``single`` counts one,
  ``group`` ("two sixes") counts its number, ``sep`` goes between

Two readings of one tree: **strict** (what a recogniser may say: whole phrases, numbers in
range; ``ends``, ``jsgf``, ``words``, ``count``, ``enumerate`` work on ``expand(expr)``) and
**lenient** (``parse_text``, for typed or transcribed text: carrier words skipped, numbers
read out of range too, so the matcher can say *why* "seven" is not a face of a d6).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import product
from typing import Iterator

from narrator.understand.words import FILLERS, HUNDRED, PLURAL_FACES, TENS, UNITS, number_words

Expr = tuple
Caps = tuple  # ((tag, value), ...) in the order heard
MORE = -1  # ends(): the words ran out where the expression could still go on


def W(text: str, *spellings: str) -> Expr:
    """A phrase of one or more words (``spellings``: other ways to write a single word)."""
    words = text.split()
    if len(words) == 1:
        return ("w", words[0], *spellings)
    return ("seq", *(("w", w) for w in words))


def seq(*items: Expr) -> Expr:
    return items[0] if len(items) == 1 else ("seq", *items)


def alt(items) -> Expr:
    items = tuple(dict.fromkeys(items))
    return items[0] if len(items) == 1 else ("alt", *items)


def opt(item: Expr) -> Expr:
    return ("opt", item)


# --------------------------------------------------------------------------- parsing templates

_TOKENS = re.compile(r"\{\w+\}|[\[\]()|]|[^\s\[\]()|{}]+")


def parse(template: str, **slots: Expr) -> Expr:
    """The expression of ``template``; ``{name}`` is replaced by ``slots[name]``."""
    tokens = _TOKENS.findall(template)
    expr, end = _alternatives(tokens, 0, slots)
    if end != len(tokens):
        raise ValueError(f"unbalanced template: {template!r}")
    return expr


def _alternatives(tokens: list[str], i: int, slots: dict) -> tuple[Expr, int]:
    options = []
    while True:
        items, i = _sequence(tokens, i, slots)
        options.append(seq(*items) if items else ("seq",))
        if i < len(tokens) and tokens[i] == "|":
            i += 1
            continue
        return alt(options), i


def _sequence(tokens: list[str], i: int, slots: dict) -> tuple[list[Expr], int]:
    items: list[Expr] = []
    while i < len(tokens) and tokens[i] not in ("|", ")", "]"):
        token = tokens[i]
        if token in ("(", "["):
            inner, i = _alternatives(tokens, i + 1, slots)
            close = ")" if token == "(" else "]"
            if i >= len(tokens) or tokens[i] != close:
                raise ValueError(f"missing {close!r}")
            items.append(inner if token == "(" else opt(inner))
        elif token.startswith("{"):
            items.append(slots[token[1:-1]])
        else:
            items.append(W(*token.split("/")))  # "a/an": one sound, two spellings
        i += 1
    return items, i


# --------------------------------------------------------------------------- strict reading


@lru_cache(maxsize=None)
def _numbers(lo: int, hi: int) -> Expr:
    forms = []
    for n in range(max(lo, 0), min(hi, HUNDRED) + 1):
        spoken, *spellings = number_words(n)
        forms.append(W(spoken, *spellings))
    return alt(forms)


def _compositions(lo: int, hi: int) -> Iterator[tuple[int, ...]]:
    """Ways to say ``lo`` to ``hi`` dice: all single, or with one group ("two sixes")."""
    for count in range(max(lo, 1), hi + 1):
        yield (1,) * count
        for size in range(2, count + 1):
            for at in range(count - size + 1):
                yield (1,) * at + (size,) + (1,) * (count - size - at)


def expand(expr: Expr) -> Expr:
    """``expr`` in plain words, seqs, alts and opts: what a recogniser may say."""
    kind = expr[0]
    if kind == "w":
        return expr
    if kind == "num":
        return _numbers(expr[2], expr[3])
    if kind == "plural":
        return alt(W(PLURAL_FACES[n - 1]) for n in range(expr[2], min(expr[3], 12) + 1))
    if kind == "val":
        return expand(expr[3])
    if kind == "opt":
        return opt(expand(expr[1]))
    if kind == "list":
        _, lo, hi, single, group, sep = expr
        single, sep = expand(single), expand(sep)
        options = []
        for parts in _compositions(lo, hi):
            items = [single if p == 1 else expand(_group_of(group, p)) for p in parts]
            joined = [items[0]]
            for item in items[1:]:
                joined += [sep, item]
            options.append(seq(*joined))
        return alt(options)
    return (kind, *(expand(e) for e in expr[1:]))


def _group_of(group: Expr, size: int) -> Expr:
    """``group`` with its count fixed at ``size`` ("two sixes" when two dice are grouped)."""
    if group[0] == "num":
        return ("num", group[1], size, size)
    return (group[0], *(_group_of(e, size) if isinstance(e, tuple) else e for e in group[1:]))


def ends(expr: Expr, words: list[str], i: int = 0) -> set[int]:
    """Where the expanded ``expr`` may stop after reading ``words`` from ``i`` (MORE: it
    could go on when the words ran out)."""
    kind = expr[0]
    if kind == "w":
        if i == len(words):
            return {MORE}
        return {i + 1} if words[i] in expr[1:] else set()
    if kind == "opt":
        return {i} | ends(expr[1], words, i)
    if kind == "alt":
        return set().union(*(ends(e, words, i) for e in expr[1:]))
    here = {i}
    for item in expr[1:]:
        here = {MORE} & here | set().union(*(ends(item, words, j) for j in here if j != MORE))
    return here


def words_of(expr: Expr) -> set[str]:
    """Every word the expanded ``expr`` can say (spoken forms only)."""
    if expr[0] == "w":
        return {expr[1]}
    return set().union(set(), *(words_of(e) for e in expr[1:]))


def jsgf(expr: Expr) -> str:
    kind = expr[0]
    if kind == "w":
        return expr[1]
    if kind == "opt":
        return f"[ {jsgf(expr[1])} ]"
    if len(expr) == 1:
        return "<NULL>"
    inner = (" " if kind == "seq" else " | ").join(jsgf(e) for e in expr[1:])
    return f"( {inner} )"


def count(expr: Expr) -> int:
    """How many word sequences the expanded ``expr`` says (duplicates included)."""
    kind = expr[0]
    if kind == "w":
        return 1
    if kind == "opt":
        return 1 + count(expr[1])
    if kind == "alt":
        return sum(count(e) for e in expr[1:])
    total = 1
    for e in expr[1:]:
        total *= count(e)
    return total


def enumerate_phrases(expr: Expr) -> Iterator[tuple[str, ...]]:
    """Every word sequence of the expanded ``expr``, spoken forms only."""
    kind = expr[0]
    if kind == "w":
        yield (expr[1],)
    elif kind == "opt":
        yield ()
        yield from enumerate_phrases(expr[1])
    elif kind == "alt":
        for e in expr[1:]:
            yield from enumerate_phrases(e)
    else:
        for parts in product(*(list(enumerate_phrases(e)) for e in expr[1:])):
            yield tuple(w for p in parts for w in p)


def prune(expr: Expr, missing: set[str]) -> Expr | None:
    """The expanded ``expr`` without the phrases that need a word of ``missing``."""
    kind = expr[0]
    if kind == "w":
        return None if expr[1] in missing else expr
    if kind == "opt":
        inner = prune(expr[1], missing)
        return None if inner is None else opt(inner)
    kids = [prune(e, missing) for e in expr[1:]]
    if kind == "seq":  # a missing optional part is left out, a missing required one drops all
        if any(k is None and e[0] != "opt" for k, e in zip(kids, expr[1:])):
            return None
        return ("seq", *(k for k in kids if k is not None))
    kept = [k for k in kids if k is not None]
    return alt(kept) if kept else None


# --------------------------------------------------------------------------- lenient reading

Reads = dict  # {(end, caps): carriers skipped}


def parse_text(expr: Expr, words: list[str]) -> tuple[int, Caps] | None:
    """How ``words`` reads as a whole phrase of ``expr`` read leniently: (carrier words
    skipped where the template does not use them, what it captured); fewest skips wins."""
    best = None
    for (end, caps), skips in _reads(expr, words, 0).items():
        tail = len(words) - end
        if all(w in FILLERS for w in words[end:]) and (best is None or skips + tail < best[0]):
            best = (skips + tail, caps)
    return best


def _add(out: Reads, end: int, caps: Caps, skips: int) -> None:
    if out.get((end, caps), skips + 1) > skips:
        out[(end, caps)] = skips


def _terminal(words: list[str], i: int, read) -> Reads:
    """``read(j) -> [(end, caps)]`` tried at ``i`` and after each run of carriers from it."""
    out: Reads = {}
    skips = 0
    while True:
        for end, caps in read(i + skips):
            _add(out, end, caps, skips)
        if i + skips < len(words) and words[i + skips] in FILLERS:
            skips += 1
            continue
        return out


def _reads(expr: Expr, words: list[str], i: int) -> Reads:
    kind = expr[0]
    if kind == "w":
        return _terminal(words, i, lambda j: [(j + 1, ())] if j < len(words)
                         and words[j] in expr[1:] else [])
    if kind in ("num", "plural"):
        reader = read_number if kind == "num" else _plural
        return _terminal(words, i, lambda j: [(e, ((expr[1], n),)) for e, n in reader(words, j)])
    if kind == "val":
        found = _reads(expr[3], words, i).items()
        return {(end, ((expr[1], expr[2]),) + caps): s for (end, caps), s in found}
    if kind == "opt":
        out = dict(_reads(expr[1], words, i))
        _add(out, i, (), 0)
        return out
    if kind == "alt":
        out: Reads = {}
        for e in expr[1:]:
            for (end, caps), skips in _reads(e, words, i).items():
                _add(out, end, caps, skips)
        return out
    if kind == "list":
        return _list(expr, words, i)
    here: Reads = {(i, ()): 0}
    for item in expr[1:]:
        here = _then(here, item, words)
    return here


def _then(here: Reads, item: Expr, words: list[str]) -> Reads:
    out: Reads = {}
    for (j, caps), skips in here.items():
        for (end, more), extra in _reads(item, words, j).items():
            _add(out, end, caps + more, skips + extra)
    return out


def _list(expr: Expr, words: list[str], i: int) -> Reads:
    """Any number of dice, so the matcher can say "I heard four dice; I need two"."""
    _, _lo, _hi, single, group, sep = expr
    item = ("alt", single, group)
    out: Reads = {}
    here = _reads(item, words, i)
    while here:
        for (end, caps), skips in here.items():
            _add(out, end, caps, skips)
        here = _then(_then(here, sep, words), item, words)
        here = {k: s for k, s in here.items() if k[0] > i and (k not in out or out[k] > s)}
    return out


def read_number(words: list[str], i: int) -> list[tuple[int, int]]:
    """Numbers that start at ``words[i]``, each as (end, value): "twenty seven" gives both 20
    and 27; any size, so that an out-of-range number can be refused with a reason."""
    if i >= len(words):
        return []
    w = words[i]
    out = []
    if w.isdigit():
        out.append((i + 1, int(w)))
    value = next((n for n in range(HUNDRED) if n < 20 and w in number_words(n)), None)
    if value is None and w in TENS:
        value = TENS[w]
        if i + 1 < len(words) and words[i + 1] in UNITS[1:10]:
            out.append((i + 2, value + UNITS.index(words[i + 1])))
    if value is not None:
        out.append((i + 1, value))
        if value == 1 and i + 1 < len(words) and words[i + 1] == "hundred":
            out.append((i + 2, HUNDRED))
    return out


def _plural(words: list[str], i: int) -> list[tuple[int, int]]:
    if i < len(words) and words[i] in PLURAL_FACES:
        return [(i + 1, PLURAL_FACES.index(words[i]) + 1)]
    return []
