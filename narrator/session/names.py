"""Session names: a name is a name, never a path.

A session is the journal ``<name>.jsonl`` in the save folder. A name is letters, digits, ``-``
and ``_``, at most 64 characters; a journal that is a symlink must stay inside the folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from narrator.errors import NarratorError

SUFFIX = ".jsonl"
MAX_LENGTH = 64
_NAME = re.compile(r"[A-Za-z0-9_-]{1,%d}" % MAX_LENGTH)
RULE = f"letters, digits, - and _ only, at most {MAX_LENGTH} characters"


class SessionNameError(NarratorError):
    """A session name that breaks the rule, or names a file outside the save folder."""


def is_name(name: str) -> bool:
    """Whether ``name`` follows the rule."""
    return _NAME.fullmatch(name) is not None


def check_name(name: str) -> str:
    """``name`` (``.jsonl`` may be given and is dropped), or SessionNameError with the rule."""
    bare = name[:-len(SUFFIX)] if name.endswith(SUFFIX) else name
    if not is_name(bare):
        shown = repr(bare[:MAX_LENGTH] + ("…" if len(bare) > MAX_LENGTH else ""))
        raise SessionNameError(f"{shown} is not a session name: a name is {RULE} "
                               f"(like slow-burn-20261123-1930), never a path")
    return bare


def inside(folder: Path, path: Path) -> Path | None:
    """Where ``path`` really is, if that is inside ``folder`` once every symlink is followed."""
    real = path.resolve()
    return real if real.parent == folder.resolve() else None


def journal_path(folder: Path, name: str) -> Path:
    """The journal of session ``name`` in ``folder`` (it may not exist yet)."""
    path = folder / (check_name(name) + SUFFIX)
    if not path.is_symlink():
        return path
    real = inside(folder, path)
    if real is None or real.suffix != SUFFIX or not is_name(real.stem):
        raise SessionNameError(f"{path} links outside the save folder (or to no journal); "
                               f"narrator only reads journals inside {folder}")
    return real
