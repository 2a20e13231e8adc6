"""Packaging beyond pyproject.toml: the game scripts kept in ``scripts/`` ship inside the
package as ``narrator/scripts`` (read with importlib.resources), in wheels and sdists alike."""

from setuptools import find_namespace_packages, find_packages, setup

GAMES = ["narrator.scripts." + folder for folder in find_namespace_packages("scripts")]

setup(
    packages=find_packages(include=["narrator", "narrator.*"]) + ["narrator.scripts"] + GAMES,
    package_dir={"narrator.scripts": "scripts"},
    package_data={game: ["*"] for game in GAMES},  # the YAML, FIXES.md, any recordings
)
