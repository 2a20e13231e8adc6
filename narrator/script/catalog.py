"""Where games' scripts are found besides the shipped ones: a path given on the command line,
or the user's games folder (``narrator games`` lists it)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from narrator.script.loader import ScriptError, load_script, script_folders
from narrator.script.model import Script

ENV_GAMES = "NARRATOR_GAMES"


def user_games() -> Path:
    """The user's own games: $NARRATOR_GAMES, else ``games/`` in the user data folder."""
    if os.environ.get(ENV_GAMES):
        return Path(os.environ[ENV_GAMES])
    return Path(platformdirs.user_data_dir("narrator")) / "games"


def user_scripts() -> list[tuple[Path, Script | ScriptError]]:
    """Every script folder of the user games folder, loaded (or the reason it did not load)."""
    root = user_games()
    found: list[tuple[Path, Script | ScriptError]] = []
    for folder in script_folders(root) if root.is_dir() else []:
        try:
            found.append((folder, load_script(folder)))
        except ScriptError as exc:
            found.append((folder, exc))
    return found


def find_game(target: str) -> Path | None:
    """The script ``target`` names: a file or folder path, or a folder of the user games folder
    called so (by folder name or by its ``game:`` name); None when there is none."""
    path = Path(target).expanduser()
    if path.exists():
        return path.resolve()
    for folder, script in user_scripts():
        if target in (folder.name, getattr(script, "game", None)):
            return folder.resolve()
    return None
