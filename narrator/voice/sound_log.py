"""Sound-library noise goes to a log file, never between the captions.

alsa-lib and PortAudio print their complaints ("underrun occurred", "Expression ... failed in
src/hostapi/alsa/pa_linux_alsa.c") straight to the process's stderr, where a terminal shows
them among the captions. ``route_library_noise()`` gives alsa-lib an error handler that logs,
and puts a filter on file descriptor 2: lines that look like sound-library noise go to the
log, everything else to the real stderr. The log: ``$NARRATOR_LOG`` or
``user_log_dir("narrator")/narrator.log``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import re
import threading
from pathlib import Path

from platformdirs import user_log_dir

LOG = logging.getLogger("narrator.sound")
_HANDLER = None  # kept alive: alsa-lib holds a pointer to it
_FILTERING = False
NOISE = re.compile(rb"^(ALSA lib |Expression '|PaAlsa|Cannot connect to server|jack server|"
                   rb"JackShm|.*underrun occurred|.*pa_linux_alsa\.c)")
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
    handler.setLevel(logging.INFO)  # not what the table said (voice/unanswered.py)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def _on_alsa_error(file: bytes, line: int, function: bytes, err: int, fmt: bytes) -> None:
    # the message's printf arguments are not passed on; its format and place say enough
    LOG.info("ALSA %s:%d (%s) %s [error %d]", (file or b"").decode(errors="replace"), line,
             (function or b"").decode(errors="replace"), (fmt or b"").decode(errors="replace"),
             err)


class Repeats:
    """Logs a noise line once, then how often it came again at 10, 100, 1000... times: a stream
    left behind on a device that went away can print the same line millions of times an hour,
    and the log must not fill the disk."""

    def __init__(self) -> None:
        self.last: str | None = None
        self.count = 0

    def log(self, line: str) -> None:
        if line != self.last:
            self.last, self.count = line, 0
            LOG.info("%s", line)
            return
        self.count += 1
        if self.count >= 10 and str(self.count).strip("0") == "1":
            LOG.info("(the line above came %d more times)", self.count)


def _filter_stderr() -> None:
    """Route fd 2 through a pipe; a thread logs the noise and passes the rest on."""
    global _FILTERING
    if _FILTERING:
        return
    _FILTERING = True
    real = os.dup(2)
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)

    def pump() -> None:
        noise = Repeats()
        with os.fdopen(read_end, "rb", buffering=0) as pipe:
            pending = b""
            while chunk := pipe.read(4096):
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if NOISE.match(line):
                        noise.log(line.decode(errors="replace"))
                    else:
                        os.write(real, line + b"\n")
            if pending:
                os.write(real, pending)

    threading.Thread(target=pump, name="stderr-filter", daemon=True).start()


def route_library_noise() -> bool:
    """Send alsa-lib's and PortAudio's messages to the log; False when alsa-lib is missing
    (then only the stderr filter works)."""
    global _HANDLER
    _log_to_file()
    _filter_stderr()
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
