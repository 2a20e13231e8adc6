"""Where sessions are saved, finding the last one, and rebuilding a session from its journal."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import platformdirs

from narrator.session.journal import JournalError

ENV_SAVE_DIR = "NARRATOR_SAVE_DIR"


def save_dir(override: Path | None = None) -> Path:
    """``--save-dir``, else $NARRATOR_SAVE_DIR, else the platform's user data folder."""
    if override is not None:
        return override
    if os.environ.get(ENV_SAVE_DIR):
        return Path(os.environ[ENV_SAVE_DIR])
    return Path(platformdirs.user_data_dir("narrator")) / "sessions"


def new_session_path(folder: Path, game: str) -> Path:
    """A fresh journal file name: game and start time."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{game}-{stamp}.jsonl"
    n = 2
    while path.exists():
        path = folder / f"{game}-{stamp}-{n}.jsonl"
        n += 1
    return path


def sessions(folder: Path) -> list[Path]:
    """Saved journals, the most recently changed last."""
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime)


def find_session(folder: Path, name: str | None) -> Path:
    """The journal called ``name`` (a path, a file name or its stem), or the last one."""
    if name is None:
        found = sessions(folder)
        if not found:
            raise JournalError(f"no saved session in {folder}; start one with narrator play GAME")
        return found[-1]
    for candidate in (Path(name), folder / name, folder / f"{name}.jsonl"):
        if candidate.is_file():
            return candidate
    raise JournalError(f"no saved session called {name!r} in {folder}")
