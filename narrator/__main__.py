"""``python -m narrator`` runs the command line."""

from narrator.cli import app

app(prog_name="narrator")
