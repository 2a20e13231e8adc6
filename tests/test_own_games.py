"""A table plays a script it wrote: by path, from its games folder, with a built-in's rules;
the track engine follows links and choices; the JSON Schema checks files as an editor would."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from narrator.cli import app
from narrator.script.loader import find_script, yaml_files

EXAMPLE = Path(__file__).parent / "examples" / "lighthouse.yaml"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "script-format.md"
runner = CliRunner()


def play(target, typed: str, save: Path):
    return runner.invoke(app, ["play", str(target), "--input", "text", "--save-dir", str(save)],
                         input=typed)


def test_the_docs_walkthrough_game_is_the_tested_example():
    blocks = re.findall(r"```yaml\n(# lighthouse.yaml\n.*?)```", DOCS.read_text(encoding="utf-8"),
                        re.S)
    assert blocks, "docs/script-format.md shows lighthouse.yaml"
    assert yaml.safe_load(blocks[0]) == yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))


def test_check_passes_the_example():
    result = runner.invoke(app, ["check", str(EXAMPLE)])
    assert result.exit_code == 0 and "No problems found." in result.output


@pytest.mark.parametrize("route, typed, passed", [
    ("stairs", "next\nclimb the stairs\n", ["Track 4: The Lamp"]),
    ("hatch", "next\nopen the hatch\nnext\n", ["Track 3: The Cellar", "Track 4: The Lamp"]),
    ("by number", "next\ntwo\nnext\n", ["Track 3: The Cellar", "Track 4: The Lamp"]),
])
def test_play_a_script_file_follows_its_links_and_choices(tmp_path, route, typed, passed):
    result = play(EXAMPLE, typed, tmp_path)
    assert result.exit_code == 0, result.output
    assert "Do you climb the stairs or open the hatch?" in result.output  # its own prompt
    for heading in passed:
        assert heading in result.output
    assert "Say next to go on." in result.output                     # the engine's default
    assert "The game is over" in result.output
    assert ("Track 3" in result.output) == (route != "stairs")


def test_a_wrong_choice_is_refused_and_the_game_waits(tmp_path):
    result = play(EXAMPLE, "next\njump in the sea\nfive\nclimb the stairs\n", tmp_path)
    assert result.exit_code == 0
    assert ('"jump in the sea" doesn\'t answer this question: it takes "climb the stairs", '
            '"open the hatch" or a number from 1 to 2.') in result.output
    assert "Track 3" not in result.output and "Track 4: The Lamp" in result.output


def test_a_game_played_from_a_path_resumes(tmp_path):
    first = play(EXAMPLE, "next\nquit\n", tmp_path)
    assert "Session saved" in first.output
    again = runner.invoke(app, ["resume", "--input", "text", "--save-dir", str(tmp_path)],
                          input="climb the stairs\n")
    assert again.exit_code == 0, again.output
    assert "Track 4: The Lamp" in again.output


def test_the_user_games_folder_is_listed_and_played_by_name(tmp_path, monkeypatch):
    games = tmp_path / "games"
    (games / "lighthouse").mkdir(parents=True)
    shutil.copy(EXAMPLE, games / "lighthouse" / "game.yaml")
    (games / "broken").mkdir()
    (games / "broken" / "game.yaml").write_text("game: [\n")
    monkeypatch.setenv("NARRATOR_GAMES", str(games))
    listed = runner.invoke(app, ["games"])
    assert "slow-burn" in listed.output  # the built-ins stay
    assert re.search(r"lighthouse +The Lighthouse \(track engine\)", listed.output)
    assert "broken" in listed.output and "does not load" in listed.output
    result = play("lighthouse", "next\nclimb the stairs\n", tmp_path / "saves")
    assert result.exit_code == 0 and "Track 4: The Lamp" in result.output


def test_a_script_may_name_a_built_in_rules_module(tmp_path):
    folder = Path(shutil.copytree(find_script("intensity"), tmp_path / "my_intensity"))
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    welcome = re.search(r"^  said\.welcome: .*$", text, re.M)[0]
    game.write_text(text.replace(welcome, '  said.welcome: "Our own table welcome."'),
                    encoding="utf-8")
    result = play(folder, "quit\n", tmp_path / "saves")
    assert result.exit_code == 0, result.output
    assert "Our own table welcome." in result.output


OWN_DECK = """cards:
  - name: Meadow
    kind: wander
    copies: 10
    steps:
      - either: Grass sways in a wind nobody else feels.
      - either: You rest. END CARD
  - name: Hermit
    kind: encounter
    steps:
      - either: A hermit asks your name. END CARD
  - name: Chill
    kind: condition
    steps:
      - either: You shiver. END CARD
"""


def test_a_copied_half_chance_script_plays_its_own_deck(tmp_path):
    folder = Path(shutil.copytree(find_script("half_chance"), tmp_path / "my_half_chance"))
    (folder / "cards.yaml").write_text(OWN_DECK, encoding="utf-8")
    checked = runner.invoke(app, ["check", str(folder)])
    assert checked.exit_code == 0 and "No problems found." in checked.output, checked.output
    result = play(folder, "2\nopen\nvirtual\n17\nI play the Meadow Wander\nquit\n", tmp_path / "saves")
    assert result.exit_code == 0, result.output
    assert "Player 1 plays the Meadow Wander." in result.output
    assert "Grass sways in a wind nobody else feels." in result.output
    assert "Ruins" not in result.output  # nothing of the built-in deck


def test_an_unknown_game_or_path_says_where_own_games_go(tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_GAMES", str(tmp_path / "mine"))
    result = play(tmp_path / "nothing.yaml", "", tmp_path)
    assert result.exit_code == 1
    assert "known games: slow-burn" in result.output and str(tmp_path / "mine") in result.output


def schema():
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    return json.loads(result.output)


def test_the_schema_accepts_every_shipped_script_file_and_the_example():
    validator = jsonschema.Draft202012Validator(schema())
    files = [f for folder in sorted(find_script(None).iterdir()) for f in yaml_files(folder)]
    for file in files + [EXAMPLE]:
        errors = list(validator.iter_errors(yaml.safe_load(file.read_text(encoding="utf-8"))))
        assert errors == [], f"{file}: {errors[0].message}"


def test_the_schema_flags_a_typo_and_a_wrong_type():
    validator = jsonschema.Draft202012Validator(schema())
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["tracks"][0]["nxt"] = data["tracks"][0].pop("next")
    data["tracks"][1]["number"] = "two"
    messages = sorted(e.message for e in validator.iter_errors(data))
    assert any("'nxt' was unexpected" in m for m in messages)
    assert any("'two' is not of type 'integer'" in m for m in messages)
