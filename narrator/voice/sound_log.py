"""Sound-library noise goes to a log file, never between the captions.

alsa-lib prints its complaints ("underrun occurred", unknown PCM cards) straight to stderr,
where a terminal shows them among the captions. ``route_library_noise()`` hands them to
alsa-lib's error handler hook instead, which writes them to the log:
``$NARRATOR_LOG`` or ``user_log_dir("narrator")/narrator.log``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
from pathlib import Path

from platformdirs import user_log_dir

LOG = logging.getLogger("narrator.sound")
_HANDLER = None  # kept alive: alsa-lib holds a pointer to it
_ALSA_HANDLER_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                      ctypes.c_int, ctypes.c_char_p)


def log_path() -> Path:
    """Where narrator's log is written."""
    return Path(os.environ.get("NARRATOR_LOG") or Path(user_log_dir("narrator")) / "narrator.log")


def _log_to_file() -> None:
    logger = logging.getLogger("narrator")
    if logger.handlers:
        return
    path = log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def _on_alsa_error(file: bytes, line: int, function: bytes, err: int, fmt: bytes) -> None:
    # the message's printf arguments are not passed on; its format and place say enough
    LOG.info("ALSA %s:%d (%s) %s [error %d]", (file or b"").decode(errors="replace"), line,
             (function or b"").decode(errors="replace"), (fmt or b"").decode(errors="replace"),
             err)


def route_library_noise() -> bool:
    """Send alsa-lib's messages to the log; False when there is no alsa-lib here."""
    global _HANDLER
    _log_to_file()
    if _HANDLER is not None:
        return True
    name = ctypes.util.find_library("asound")
    if name is None:
        return False
    try:
        alsa = ctypes.CDLL(name)
        _HANDLER = _ALSA_HANDLER_TYPE(_on_alsa_error)
        alsa.snd_lib_error_set_handler(_HANDLER)
    except (OSError, AttributeError):
        return False
    return True
