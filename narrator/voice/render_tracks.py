"""``narrator render``: a game's audio tracks rebuilt from its script, one WAV per track.

A track is its heading then each line, sentence by sentence as the Speaker says them, with a
short pause between lines; a track with a recording is that recording. Rendering goes through the speech
cache, so it also makes the first sound of a session immediate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
import soundfile as sf

from narrator.events import ReadTrack
from narrator.script.model import Script, Track
from narrator.script.render import render
from narrator.voice.tts import Renderer, sentences

GAP_SECONDS = 0.4


def track_audio(script: Script, track: Track, renderer: Renderer,
                rate: float = 1.0) -> tuple[np.ndarray, int]:
    """The samples (frames × channels) and sample rate of one whole track."""
    saids = render(script, ReadTrack(track.id))
    if saids[0].audio:
        samples, samplerate = sf.read(saids[0].audio, dtype="float32", always_2d=True)
        return samples, samplerate
    parts, samplerate = [], 0
    for said in saids:
        for sentence in sentences(said.text):  # as the Speaker renders them: one cache
            samples, samplerate = sf.read(renderer.render(sentence, rate),
                                          dtype="float32", always_2d=True)
            parts.append(samples)
        parts.append(np.zeros((int(GAP_SECONDS * samplerate), 1), np.float32))
    return np.concatenate(parts[:-1]), samplerate


def track_file(track: Track) -> str:
    """Track01.wav, Track02.wav, ..."""
    return f"Track{track.number:02d}.wav"


def render_script(script: Script, out: Path, renderer: Renderer, rate: float = 1.0,
                  done: Callable[[Track], None] = lambda t: None) -> list[Path]:
    """Write every track of ``script`` into ``out``; ``done`` is called after each one."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for track in script.tracks:
        samples, samplerate = track_audio(script, track, renderer, rate)
        path = out / track_file(track)
        sf.write(path, samples, samplerate, subtype="PCM_16")
        written.append(path)
        done(track)
    return written


def render_with_progress(script: Script, out: Path, voice: str | None = None,
                         rate: float = 1.0, plain: bool = False) -> list[Path]:
    """``render_script`` with a rich progress bar (the CLI's ``narrator render``); ``plain``:
    no bar (a screen reader, a pipe, NO_COLOR or --plain)."""
    from rich.progress import Progress

    renderer = Renderer(voice)
    with Progress(disable=plain) as progress:
        task = progress.add_task(f"Rendering {script.title}", total=len(script.tracks))
        return render_script(script, out, renderer, rate,
                             done=lambda t: progress.advance(task))
