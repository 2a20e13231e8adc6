"""`narrator models`: which speech-recognition models are installed, how to add vosk's, and
whether noise suppression (the optional ``denoise`` extra) is there."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from narrator.voice.asr import VOSK_ENV, VOSK_MODEL_NAME, find_vosk_model, vosk_model_dirs

VOSK_URL = f"https://alphacephei.com/vosk/models/{VOSK_MODEL_NAME}.zip"


def pocketsphinx_model() -> Path | None:
    """The English model shipped inside the pocketsphinx wheel, or None if it is missing."""
    try:
        from pocketsphinx import get_model_path
    except ImportError:
        return None
    path = Path(get_model_path()) / "en-us"
    return path if (path / "en-us").is_dir() else None


def denoise_line() -> str:
    """Whether RNNoise (pyrnnoise, an optional extra) is installed, and what happens without."""
    if importlib.util.find_spec("pyrnnoise") is not None:
        return "noise suppression: RNNoise (pyrnnoise) installed; --no-denoise turns it off"
    return ("noise suppression: not installed, so the microphone is heard raw; to add it "
            "(Linux): pip install 'narrator[denoise]'")


def whisper_line(model: str | None = None) -> str:
    """Whisper's state: where its model is and whether faster-whisper can load it (not loaded
    here: only its files and the library are checked)."""
    from importlib.util import find_spec

    from narrator.voice.asr import EngineMissing
    from narrator.voice.decoder import MODEL_NAME, model_dir

    try:
        path = model_dir(model)
    except EngineMissing as exc:
        return f"whisper: {exc} (pocketsphinx is used instead)"
    if find_spec("faster_whisper") is None:
        return "whisper: faster-whisper is missing: pip install faster-whisper"
    return f"whisper: {MODEL_NAME} installed at {path} (the default engine)"


def report(model: str | None = None) -> list[str]:
    """Lines saying what is installed and, when vosk has no model, how to get one."""
    lines = [whisper_line(), denoise_line()]
    sphinx = pocketsphinx_model()
    lines.append(f"pocketsphinx: {'installed, English model at ' + str(sphinx) if sphinx else 'missing: pip install pocketsphinx'}"
                 + (" (the light fallback: --engine pocketsphinx)" if sphinx else ""))
    if importlib.util.find_spec("vosk") is None:
        lines.append("vosk: not installed (an optional engine): pip install 'narrator[vosk]', "
                     "then its English model as below")
    found = find_vosk_model(model)
    if found is not None:
        lines.append(f"vosk: English model at {found} (use it with --engine vosk)")
        return lines
    looked = [str(p) for p in vosk_model_dirs(model)] or ["(no candidate folders)"]
    project = Path(__file__).resolve().parents[2] / "models"
    lines += [
        "vosk: no English model installed (--engine vosk falls back to whisper).",
        f"  looked in: {', '.join(looked)}",
        f"  To install {VOSK_MODEL_NAME} (about 40 MB), download it yourself:",
        f"    {VOSK_URL}",
        f"  unzip it into {project}/ (so {project}/{VOSK_MODEL_NAME}/am exists),",
        f"  or anywhere and set {VOSK_ENV}=/path/to/{VOSK_MODEL_NAME}, or pass --model PATH.",
        "  narrator never downloads a model by itself.",
    ]
    return lines
