"""The phrase language's grammar (narrator.understand) fitted to one recogniser's dictionary:
phrases with a word the recogniser cannot say are left out and reported in ``Grammar.unknown``."""

from __future__ import annotations

from typing import Callable

from narrator.understand import MAX_TRACK, Expectation, Grammar, grammar


def build(expectation: Expectation | None, known: Callable[[str], bool], *,
          mode: str = "asking", wake: bool = False, tracks: int = MAX_TRACK) -> Grammar:
    """The grammar for ``mode`` (tracks 1 to ``tracks``) without the phrases that need a word
    ``known`` lacks."""
    whole = grammar(expectation, mode, wake, tracks)
    return whole.without({w for w in whole.words() if not known(w)})
