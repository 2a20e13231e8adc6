"""Utterances decoded and not acted on (table talk, the narrator's own echo, a word that ended
with an earcon), and the start of each utterance, are told to the ``narrator.hearing`` logger at
DEBUG. Nothing is said to the table: ``--events`` logs them (``ignored``, ``hearing``), so a
program beside the table can tell a miss from silence, and words never heard from words still
being decoded; narrator's log file keeps INFO and above, never what the table said."""

from __future__ import annotations

import logging

HEARING = logging.getLogger("narrator.hearing")


def left_unanswered(text: str, why: str, **decoded) -> None:
    """Tell ``narrator.hearing`` of one utterance left unanswered, and why; ``decoded``: what
    the recogniser made of it, when it was decoded (``phrase``, ``confidence``, ``seconds``)."""
    HEARING.debug("left unanswered: %r (%s)", text, why,
                  extra={"ignored": (text, why, decoded)})


def began_hearing() -> None:
    """Tell ``narrator.hearing`` that an utterance began (a voice rose over the room: Wyoming's
    voice-started), whatever it turns out to be."""
    HEARING.debug("an utterance began", extra={"hearing": True})
