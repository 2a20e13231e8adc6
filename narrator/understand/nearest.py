"""The whole phrases of a grammar nearest to a free transcript, however many phrases it has.

A recogniser that scores a short list of candidates (Whisper) needs that list even when the
grammar is too large to enumerate (three dice of a d12: hundreds of thousands of phrases).
``nearest(root, words)`` aligns the transcript's words with each top-level alternative of the
expanded expression (one per live template) by a word edit distance in which a substituted
word costs by spelling ("before" is nearer "four" than "twelve") and an extra carrier word is
cheap, and returns each alternative's best phrase, nearest first.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from functools import lru_cache

from narrator.understand.template import Expr
from narrator.understand.words import FILLERS

MISSING = 1.0   # a phrase word the transcript lacks
EXTRA = 1.0     # a transcript word the phrase lacks
CARRIER = 0.3   # ... when it is a carrier ("um", "the")
MAX_WORDS = 12

Best = tuple  # (cost, phrase words)


@lru_cache(maxsize=65536)
def _unlike(a: str, b: str) -> float:
    return 0.0 if a == b else 1.0 - SequenceMatcher(None, a, b).ratio()


def nearest(root: Expr, words: list[str], limit: int = 8) -> list[str]:
    """Up to ``limit`` whole phrases of the expanded ``root``, nearest to ``words`` first."""
    words = words[:MAX_WORDS]
    extra = [CARRIER if w in FILLERS else EXTRA for w in words]
    memo: dict = {}

    def skipped(i: int, j: int) -> float:
        return sum(extra[i:j])

    def best(expr: Expr, i: int, j: int) -> Best:
        key = (id(expr), i, j)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _best(expr, i, j)
        return found

    def _best(expr: Expr, i: int, j: int) -> Best:
        kind = expr[0]
        if kind == "w":
            if i == j:
                return MISSING, (expr[1],)
            cost = min(min(_unlike(f, words[k]) for f in expr[1:]) - extra[k]
                       for k in range(i, j))
            return cost + skipped(i, j), (expr[1],)
        if kind == "opt":
            return min((skipped(i, j), ()), best(expr[1], i, j))
        if kind == "alt":
            return min(best(e, i, j) for e in expr[1:])
        row = {k: (skipped(i, k), ()) for k in range(i, j + 1)}  # seq: items so far end at k
        for item in expr[1:]:
            row = {k: min((row[m][0] + c, row[m][1] + p)
                          for m in range(i, k + 1) for c, p in [best(item, m, k)])
                   for k in range(i, j + 1)}
        return row[j]

    parts = root[1:] if root[0] == "alt" else (root,)
    scored = sorted(best(part, 0, len(words)) for part in parts)
    return list(dict.fromkeys(" ".join(p) for _, p in scored))[:limit]
