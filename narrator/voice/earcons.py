"""Earcons: short tones made by code, told apart by pitch and direction.

* listening — two rising notes: "your turn, I'm listening";
* unclear — two falling low notes: "I did not get that";
* accepted — one short high note: "got it";
* reading — one longer middle note: "I am reading; you may talk over me";
* paused — the same low note twice: "I am paused, waiting for resume".

``Cues`` plays them on their own, for a session with no speech (``--quiet``): a blind player
still needs them.
"""

from __future__ import annotations

import numpy as np

#: name → notes as (frequency Hz, seconds)
EARCONS: dict[str, tuple[tuple[float, float], ...]] = {
    "listening": ((660.0, 0.07), (880.0, 0.09)),
    "unclear": ((330.0, 0.09), (247.0, 0.13)),
    "accepted": ((1175.0, 0.08),),
    "reading": ((523.0, 0.16),),
    "paused": ((392.0, 0.1), (392.0, 0.1)),
}
LEVEL = 0.3


def _note(freq: float, seconds: float, samplerate: int) -> np.ndarray:
    t = np.arange(int(seconds * samplerate)) / samplerate
    fade = np.minimum(1.0, np.minimum(t, seconds - t) / 0.01)  # 10 ms ramps: no clicks
    return (LEVEL * fade * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def earcon_seconds(name: str) -> float:
    """How long earcon ``name`` sounds."""
    return sum(seconds for _, seconds in EARCONS[name])


def earcon(name: str, samplerate: int) -> np.ndarray:
    """The mono samples of earcon ``name`` at ``samplerate``; KeyError names the known ones."""
    if name not in EARCONS:
        raise KeyError(f"no earcon {name!r}; known: {', '.join(EARCONS)}")
    return np.concatenate([_note(f, s, samplerate) for f, s in EARCONS[name]])


class Cues:
    """Earcons on an output device, with no speech (``--quiet``)."""

    def __init__(self, device: str | int | None = None, volume: float = 1.0) -> None:
        import sounddevice as sd

        from narrator.voice.player import Player
        self._errors = (sd.PortAudioError, ValueError)
        self._player = Player(device, volume)
        try:
            self._player.check(keep=True)  # a stream kept open plays a cue at once
        except self._errors:
            self._player.release()

    def earcon(self, name: str) -> None:
        """Play earcon ``name`` now; a failing device is let go (captions carry on)."""
        try:
            self._player.cue(lambda rate: earcon(name, rate))
        except self._errors:
            self._player.release()

    def close(self) -> None:
        self._player.release()


def make_cues(settings) -> Cues | None:
    """Earcons on the settings' output device, or None when there is no sound library."""
    try:
        return Cues(getattr(settings, "output_device", None), getattr(settings, "volume", 1.0))
    except OSError:
        return None
