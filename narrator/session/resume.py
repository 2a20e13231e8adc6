"""Where sessions are saved, and finding the one to resume (by name, or the last one).

Only the save folder is searched. Entries that are not journals (folders, FIFOs, other files,
links out of the folder) are skipped with a note; without a name, an empty or damaged newest
journal is reported and the one before it is taken.
"""

from __future__ import annotations

import os
import stat
from datetime import datetime
from pathlib import Path

import platformdirs

from narrator.session.journal import JournalError, load
from narrator.session.names import SUFFIX, inside, is_name, journal_path

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
    path = folder / f"{game}-{stamp}{SUFFIX}"
    n = 2
    while path.exists():
        path = folder / f"{game}-{stamp}-{n}{SUFFIX}"
        n += 1
    return path


def sessions(folder: Path) -> tuple[list[Path], list[str]]:
    """The folder's journals (the most recently changed last) and a note per skipped entry."""
    if not folder.is_dir():
        return [], []
    found: list[tuple[float, Path]] = []
    notes: list[str] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            path = Path(entry.path)
            why = _not_a_journal(folder, path)
            if why:
                notes.append(f"Skipped {entry.name!r} in {folder}: {why}.")
            else:
                found.append((path.stat().st_mtime, inside(folder, path) or path))
    return [p for _, p in sorted(found)], sorted(notes)


def _not_a_journal(folder: Path, path: Path) -> str | None:
    """Why ``path`` is not a session journal of ``folder``, or None."""
    if path.suffix != SUFFIX or not is_name(path.stem):
        return f"not a session journal (those are NAME{SUFFIX}, a name being letters, " \
               f"digits, - and _)"
    if path.is_symlink() and inside(folder, path) is None:
        return "a link to outside the save folder"
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    return None if stat.S_ISREG(mode) else "a folder, not a journal" if stat.S_ISDIR(mode) \
        else "not a regular file"


def find_session(folder: Path, name: str | None) -> tuple[Path, list[str]]:
    """The journal to resume and notes for the user: session ``name``, or the last good one."""
    if name is not None:
        path = journal_path(folder, name)
        if not path.exists():
            known, _ = sessions(folder)
            listed = ", ".join(p.stem for p in known[-5:]) or "none"
            raise JournalError(f"no saved session called {name!r} in {folder} "
                               f"(the last ones: {listed})")
        return path, []
    found, notes = sessions(folder)
    for path in reversed(found):
        try:
            load(path)
        except JournalError as exc:
            notes.append(f"{exc} Skipped; trying the session before it.")
            continue
        if notes and notes[-1].endswith("before it."):
            notes.append(f"Resuming {path.stem}.")
        return path, notes
    raise JournalError("\n".join(notes + [f"no saved session in {folder} that can be resumed; "
                                           f"start one with narrator play GAME"]))
