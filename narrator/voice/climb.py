"""The spelling ``respell`` climbs from, and how well a spelling near it can do at most.

A decoder's log probability of a text is the sum of its tokens' (its end's included), each at
most 0. A text that begins as the one climbed from shares that one's steps until they part,
so those shared tokens and its own token at the step where it parts bound its score from
above (``Climb.bound``). ``respell`` needs a neighbour to gain EDIT_GAIN on the spelling it
climbs from; one bounded under that is not scored, and the climb ends where it ended before,
sooner: most neighbours part from it at a token the spoken word makes unlikely.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Climb:
    """A text scored (its tokens) and the decoder's log probabilities over the vocabulary at
    each of its steps, its end's step last; empty before the first."""

    ids: tuple[int, ...] = ()
    steps: list[np.ndarray] = field(default_factory=list)

    def bound(self, ids: tuple[int, ...], end: int) -> float:
        """At least the log probability of the text ``ids`` and its ``end`` token: the steps
        shared with the text climbed from and the first that parts (exact when ``ids``
        begins it); 0 before anything is climbed from."""
        if not self.steps:
            return 0.0
        parts = next((k for k, (a, b) in enumerate(zip(ids, self.ids)) if a != b),
                     min(len(ids), len(self.ids)))
        shared = sum(float(self.steps[k][ids[k]]) for k in range(parts))
        return shared + float(self.steps[parts][ids[parts] if parts < len(ids) else end])
