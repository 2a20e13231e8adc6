"""Earcons: short tones made by code, told apart by pitch and direction.

* listening — two rising notes: "your turn, I'm listening";
* unclear — two falling low notes: "I did not get that";
* accepted — one short high note: "got it".
"""

from __future__ import annotations

import numpy as np

#: name → notes as (frequency Hz, seconds)
EARCONS: dict[str, tuple[tuple[float, float], ...]] = {
    "listening": ((660.0, 0.07), (880.0, 0.09)),
    "unclear": ((330.0, 0.09), (247.0, 0.13)),
    "accepted": ((1175.0, 0.08),),
}
LEVEL = 0.3


def _note(freq: float, seconds: float, samplerate: int) -> np.ndarray:
    t = np.arange(int(seconds * samplerate)) / samplerate
    fade = np.minimum(1.0, np.minimum(t, seconds - t) / 0.01)  # 10 ms ramps: no clicks
    return (LEVEL * fade * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def earcon(name: str, samplerate: int) -> np.ndarray:
    """The mono samples of earcon ``name`` at ``samplerate``; KeyError names the known ones."""
    if name not in EARCONS:
        raise KeyError(f"no earcon {name!r}; known: {', '.join(EARCONS)}")
    return np.concatenate([_note(f, s, samplerate) for f, s in EARCONS[name]])
