"""``narrator voices``: every speech engine and voice with its licence, and a sample of one."""

from __future__ import annotations

from narrator.events import Said
from narrator.settings import load_settings
from narrator.voice.engines import ENGINES, EngineError, best_engine
from narrator.voice.tts import Renderer, TtsError

SAMPLE = ("Welcome to the table. Roll two dice and tell me what they show; say repeat, "
          "pause or louder whenever you like.")


def voice_lines(language: str | None = None) -> list[str]:
    """One heading per engine (licence, whether installed, whether it is the one chosen), then
    its voices as ``engine:voice``, name, languages and licence."""
    best = best_engine()
    lines: list[str] = []
    for engine in ENGINES:
        missing = engine.missing()
        state = "chosen by default" if engine.name == best else (missing or "installed")
        lines.append(f"{engine.name} ({engine.licence}): {state}")
        if missing is not None:
            continue
        try:
            found = engine.listed() if engine.listed else Renderer(engine.name).voices()
        except TtsError as exc:
            lines.append(f"  {exc}")
            continue
        for v in found:
            if language is None or any(lang.startswith(language) for lang in v.languages):
                voice_id = f"{engine.name}:{v.id}"
                lines.append(f"  {voice_id:40} {v.name:30} {', '.join(v.languages):8} "
                             f"{v.licence}")
    return lines


def play_sample(voice: str) -> str:
    """Speak SAMPLE with ``voice`` on the saved output device; what was played."""
    from narrator.voice.speaker import Speaker

    settings = load_settings()
    settings.voice = voice
    try:
        renderer = Renderer(voice)
        renderer.render(SAMPLE, settings.rate)  # fails here, with a message, on a bad voice
    except (TtsError, EngineError) as exc:
        raise RuntimeError(str(exc)) from None
    speaker = Speaker(settings, renderer)
    try:
        speaker.say(Said(SAMPLE, "line"))
        speaker.wait(60)
        if speaker.captions_only:
            raise RuntimeError("no sound output: see `narrator devices`")
    finally:
        speaker.close()
    return f"Played {renderer.engine}:{renderer.voice or 'default voice'}."
