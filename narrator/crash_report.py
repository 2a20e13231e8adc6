"""An unexpected error's full report, written to the user state folder for a bug report (by
the command line's error boundary, and by the microphone when hearing one utterance fails)."""

from __future__ import annotations

import platform
import sys
import tempfile
import traceback
from datetime import datetime
from importlib import metadata
from pathlib import Path

import platformdirs


def report_folder() -> Path:
    """Where crash reports go: the user state folder (``$XDG_STATE_HOME/narrator`` on Linux)."""
    return Path(platformdirs.user_state_dir("narrator"))


def write_report(exc: BaseException, session: str | None = None) -> str:
    """Write the full report of ``exc`` (in ``session``, if one is open); say where it is (or
    why it could not be written)."""
    try:
        version = metadata.version("narrator")
    except metadata.PackageNotFoundError:
        version = "(not installed)"
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    text = "".join([
        f"narrator {version} crash report, {datetime.now().isoformat(timespec='seconds')}\n",
        f"python {platform.python_version()} on {platform.platform()}\n",
        f"command: {' '.join(sys.argv)}\n",
        f"session: {session or '-'}\n\n",
        *traceback.format_exception(exc),
    ])
    problems = []
    for folder in (report_folder(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"narrator-crash-{stamp}.log"
            path.write_text(text, encoding="utf-8", errors="backslashreplace")
            return f"The full report is in {path}; please include it when you report this."
        except OSError as err:
            problems.append(f"{folder}: {err.strerror or err}")
    return "The full report could not be written (" + "; ".join(problems) + ")."
