"""The base of every expected problem: its message says what is wrong and what to do.

The command line's one error boundary prints such a message as one line (no traceback); any
other exception is unexpected and gets a crash report (``narrator/cli_errors.py``).
"""


class NarratorError(Exception):
    """An expected problem, reported to the user as its message alone."""
