"""What the narrator said, with when each sentence was audible: the self-trigger guard's
memory (``meant.decide`` drops an utterance its own words explain).

The ears decode seconds behind the sound on a busy machine, so by the time leftover echo is
decoded the sentence it came from may have ended. The session loop logs each sentence as its
first sound is heard (``Speaker.heard_to``; as it is given to a mouth that cannot tell) and
the narrator falling quiet (its last sound heard: ``Mouth.heard_until``) in a ``Spoken``
log, and hands the ears an ``Echo``: the words playing now, with that log; the ears ask for
the words audible over the span an utterance was captured in (``echo_during``, by the
microphone's capture time stamps): from ``ROOM_TAIL`` before it to ``ECHO_MARGIN`` after.
"""

from __future__ import annotations

import math

ECHO_MARGIN = 0.5   # seconds: a sentence's start queued before it sounds
ROOM_TAIL = 0.2     # seconds its last sound may still reach an utterance captured after it
SPOKEN_KEPT = 60.0  # seconds of the narrator's words kept


class Spoken:
    """What the narrator said, each sentence with the clock times it was audible."""

    def __init__(self) -> None:
        self._said: list[list] = []  # [text, start, end or None while it plays]

    def start(self, text: str, at: float) -> None:
        """``text`` starts being heard at ``at`` (the one before has ended)."""
        self.end(at)
        self._said = [s for s in self._said if s[2] is None or s[2] > at - SPOKEN_KEPT]
        self._said.append([text, at, None])

    def end(self, at: float) -> None:
        """The narrator is quiet from ``at``."""
        if self._said and self._said[-1][2] is None:
            self._said[-1][2] = at

    def latest(self, at: float) -> str:
        """The sentence audible at ``at`` ("" when none is): the one before it is echo only as
        timed (``during``), so "resume" said after "Say resume to go on." while the next plays
        (or is rendered) is the table's."""
        last = self._said[-1] if self._said else None
        return last[0] if last is not None and (last[2] is None or last[2] >= at) else ""

    def during(self, start: float, end: float) -> str:
        """The narrator's words audible between ``start`` and ``end``: a sentence that began by
        ECHO_MARGIN after ``end`` and had not ended before ``start``, whole; of one that ended
        before ``start``, its words said from ROOM_TAIL before it (its words taken as evenly
        spread over the time it was audible). A player who says "Tails" as "Heads or tails?"
        ends said a word the narrator said; its last sound may still be heard back."""
        since = start - ROOM_TAIL
        heard = []
        for text, began, ended in self._said:
            if began > end + ECHO_MARGIN or (ended is not None and ended < since):
                continue
            words = text.split()
            if ended is not None and ended < start and began < since:
                share = (ended - since) / (ended - began)
                words = words[-max(1, math.ceil(len(words) * share)):]
            heard.append(" ".join(words))
        return " ".join(heard)


class Echo(str):
    """The narrator's words playing now (the text), with ``spoken``: its timed log."""

    def __new__(cls, text: str, spoken: Spoken) -> "Echo":
        echo = super().__new__(cls, text)
        echo.spoken = spoken
        return echo


def echo_during(echo: str, start: float, end: float) -> str:
    """The narrator's words an utterance captured from ``start`` to ``end`` may hold: those
    audible then (an ``Echo``), and those playing now."""
    spoken = getattr(echo, "spoken", None)
    timed = spoken.during(start, end) if spoken is not None else ""
    return " ".join(t for t in (timed, str(echo)) if t)
