"""Reading a Blades dice pool (SRD "Rolling the Dice"): the one judgement every roll uses."""

from __future__ import annotations

#: results best first
RESULTS = ("critical", "full", "partial", "bad")


def dice_to_roll(pool: int) -> int:
    """How many dice a pool rolls: zero (or fewer) rolls two and keeps the lowest."""
    return pool if pool > 0 else 2


def kept(faces: tuple[int, ...], pool: int) -> int:
    """The die that counts: the highest, or the lowest when the pool was zero."""
    return max(faces) if pool > 0 else min(faces)


def judge(faces: tuple[int, ...], pool: int) -> str:
    """critical (two or more 6s, never from a zero pool), full (6), partial (4/5), bad (1-3)."""
    if pool > 0 and faces.count(6) >= 2:
        return "critical"
    top = kept(faces, pool)
    return "full" if top == 6 else "partial" if top >= 4 else "bad"


def resistance_cost(faces: tuple[int, ...], pool: int) -> int:
    """Stress a resistance roll costs: 6 minus the kept die; a critical clears 1 instead."""
    return -1 if judge(faces, pool) == "critical" else 6 - kept(faces, pool)
