"""The command line's one error boundary: no command ever shows a Python traceback.

An expected problem (``NarratorError``) is printed as its one-line message. Anything else is
unexpected: the full report goes to a log file in the user state folder (``crash_report``) and
the user is told where. Ctrl-C stops any command; when a session is open it says how to pick
it up again (its journal holds every confirmed input, so nothing is lost).
"""

from __future__ import annotations

import io
import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from narrator.crash_report import write_report
from narrator.errors import NarratorError

#: exit status of an unexpected error (sysexits' EX_SOFTWARE) and of Ctrl-C (128 + SIGINT)
UNEXPECTED, INTERRUPTED = 70, 130

_open_session: list[str] = []

#: what the command line reports itself (usage errors, exits); typer may use click or a copy
#: of its own, so its ClickException is found through typer's own BadParameter
_COMMAND_LINE_ERRORS = (typer.Exit, typer.Abort,
                        next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"))


def session_started(name: str) -> None:
    """The session ``name`` is open: Ctrl-C or a crash from here on says how to resume it."""
    _open_session[:] = [name]


def saved_line() -> str | None:
    """"Session saved as NAME. ..." for the open session, if there is one."""
    if not _open_session:
        return None
    name = _open_session[0]
    return f"Session saved as {name}. `narrator resume {name}` picks it up."


class BoundaryGroup(TyperGroup):
    """Typer's command group, with every command run inside the error boundary."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except _COMMAND_LINE_ERRORS:
            raise
        except NarratorError as exc:
            _say(str(exc), "red")
            raise typer.Exit(1) from None
        except BrokenPipeError:  # the reader went away (narrator games | head -1): say nothing
            _quiet_stdout()
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            _say("\n" + (saved_line() or "Stopped; nothing was saved."), "yellow")
            raise typer.Exit(INTERRUPTED) from None
        except Exception as exc:  # the boundary: everything else is reported, not shown raw
            where = write_report(exc, _open_session[0] if _open_session else None)
            _say(f"narrator stopped on an unexpected error ({type(exc).__name__}: "
                 f"{_clip(str(exc))}). {where}", "red")
            if saved_line():
                _say(saved_line() or "", "yellow")
            raise typer.Exit(UNEXPECTED) from None
        finally:
            _open_session.clear()


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so Python's last flush does not complain about the pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def _say(text: str, colour: str) -> None:
    typer.secho(text, fg=colour, err=True)


def _clip(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"
