"""Persistent user settings: voice, rate, volume, devices, listening engine.

Stored as YAML in ``user_config_dir("narrator")/config.yaml``; the environment variable
``NARRATOR_CONFIG`` names another file (tests always use a temporary one). A missing file
means defaults; a damaged one is reported on stderr and ignored, so a session always starts.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from platformdirs import user_config_dir

RATE_MIN, RATE_MAX = 0.5, 3.0
LISTEN_MODES = ("open", "push", "wake")
ENGINES = ("whisper", "pocketsphinx", "vosk")


@dataclass
class Settings:
    """What a player chose once and keeps."""

    voice: str | None = None
    rate: float = 1.0  # factor of the speech engine's default rate
    volume: float = 1.0  # 1 is normal, 2 the loudest ("louder"/"quieter" step by 0.25)
    output_device: str | int | None = None
    quiet: bool = False
    # speech in (listening)
    input_device: str | int | None = None
    engine: str = "whisper"
    model: str | None = None
    listen_mode: str = "open"
    denoise: bool = True  # RNNoise on the microphone when the room is noisy


def config_path() -> Path:
    """Where settings live: ``$NARRATOR_CONFIG`` or the user config directory."""
    override = os.environ.get("NARRATOR_CONFIG")
    if override:
        return Path(override)
    return Path(user_config_dir("narrator")) / "config.yaml"


def parse_device(value: Any) -> str | int | None:
    """A device as given on the command line or in the file: "3" → 3, "pulse" → "pulse"."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a device: {value!r}")
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if text.isdigit() else text


def check_rate(value: Any) -> float:
    """A speech rate factor between 0.5 and 3; ValueError otherwise."""
    rate = float(value)
    if not RATE_MIN <= rate <= RATE_MAX:
        raise ValueError(f"rate must be between {RATE_MIN} and {RATE_MAX} (got {rate:g})")
    return rate


def check_volume(value: Any) -> float:
    """A volume between 0 and 2 (1 is normal); ValueError otherwise."""
    volume = float(value)
    if not 0.0 <= volume <= 2.0:
        raise ValueError(f"volume must be between 0 and 2 (got {volume:g})")
    return volume


def _optional_text(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise ValueError(f"not yes or no: {value!r}")


def _listen_mode(value: Any) -> str:
    if value not in LISTEN_MODES:
        raise ValueError(f"listen_mode must be one of {', '.join(LISTEN_MODES)} (got {value!r})")
    return value


def _engine(value: Any) -> str:
    """A speech engine name."""
    engine = str(value).strip().lower()
    if engine not in ENGINES:
        raise ValueError(f"{value!r} is not a speech engine; use {', '.join(ENGINES)}")
    return engine


_CHECKS = {
    "voice": _optional_text,
    "rate": check_rate,
    "volume": check_volume,
    "output_device": parse_device,
    "quiet": _flag,
    "input_device": parse_device,
    "engine": _engine,
    "model": _optional_text,
    "listen_mode": _listen_mode,
    "denoise": _flag,
}


def with_options(settings: Settings, **options: Any) -> Settings:
    """A copy of ``settings`` with the given options checked and applied.

    Options whose value is None are left as they are (an option not given on the command
    line). ValueError names the first bad option; TypeError an unknown one.
    """
    changes = {}
    for name, value in options.items():
        if name not in _CHECKS:
            raise TypeError(f"unknown setting {name!r}")
        if value is not None:
            try:
                changes[name] = _CHECKS[name](value)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{name}: {exc}") from None
    return dataclasses.replace(settings, **changes)


def _warn(message: str) -> None:
    print(f"narrator: {message}", file=sys.stderr)


def load_settings() -> Settings:
    """The saved settings; defaults where the file is missing, damaged or holds bad values."""
    path = config_path()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, yaml.YAMLError) as exc:
        _warn(f"ignoring settings file {path}: {exc}")
        return Settings()
    if not isinstance(data, dict):
        if data is not None:
            _warn(f"ignoring settings file {path}: not a mapping")
        return Settings()
    settings = Settings()
    for name, value in data.items():
        try:
            settings = with_options(settings, **{str(name): value})
        except (TypeError, ValueError) as exc:
            _warn(f"{path}: ignoring {exc}")
    return settings


def save_settings(settings: Settings) -> None:
    """Write ``settings`` to the config file (atomically: a crash leaves the old file)."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(yaml.safe_dump(dataclasses.asdict(settings), sort_keys=False), encoding="utf-8")
    os.replace(tmp, path)
