"""Utterances decoded and not acted on (table talk, the narrator's own echo, a word that ended
with an earcon) are told to the ``narrator.hearing`` logger at DEBUG. Nothing is said to the
table: ``--events`` logs them (``ignored``), so a program beside the table can tell a miss
from silence; narrator's log file keeps INFO and above, never what the table said."""

from __future__ import annotations

import logging

HEARING = logging.getLogger("narrator.hearing")


def left_unanswered(text: str, why: str, **decoded) -> None:
    """Tell ``narrator.hearing`` of one utterance left unanswered, and why; ``decoded``: what
    the recogniser made of it, when it was decoded (``phrase``, ``confidence``, ``seconds``)."""
    HEARING.debug("left unanswered: %r (%s)", text, why,
                  extra={"ignored": (text, why, decoded)})
