"""The script loader: safe YAML, file:line on every problem, merged folders, confined audio."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from narrator.script.diagnostics import Code
from narrator.script.loader import ScriptError, find_script, load_all, load_script
from narrator.script.model import Where

GAME = """\
game: demo
title: Demo
start: a
tracks:
  - id: b
    number: 2
    title: End
    lines: ["Bye."]
    ending: true
  - id: a
    number: 1
    title: Start
    lines:
      - "Hello."
      - "Proceed to Track 2: End."
    next: [{to: b, when: always}]
"""


def folder_with(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "demo"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text)
    return folder


def problems(folder: Path) -> list:
    with pytest.raises(ScriptError) as caught:
        load_script(folder)
    return caught.value.diagnostics


def test_loads_tracks_in_number_order_with_their_places(tmp_path):
    script = load_script(folder_with(tmp_path, game=GAME))
    assert (script.game, script.title, script.start) == ("demo", "Demo", "a")
    assert [t.id for t in script.tracks] == ["a", "b"]
    start = script.track("a")
    assert start.lines == ("Hello.", "Proceed to Track 2: End.")
    assert start.where.line == 10 and [w.line for w in start.line_where] == [14, 15]
    assert start.links[0].to == "b" and start.links[0].when == "always"
    assert script.track("b").ending is True and start.ending is False


def test_merges_every_yaml_file_of_the_folder(tmp_path):
    folder = folder_with(tmp_path, game=GAME, prompts="prompts:\n  hello: 'Hi {name}.'\n",
                         more="tracks:\n  - {id: c, number: 3, title: Extra, lines: [x], ending: true}\n")
    script = load_script(folder)
    assert [t.number for t in script.tracks] == [1, 2, 3]
    assert script.prompts["hello"].text == "Hi {name}."
    assert script.prompts["hello"].where == Where(str(folder / "prompts.yaml"), 2)


def test_names_from_every_file_reach_the_script_once_each(tmp_path):
    folder = folder_with(tmp_path, game=GAME + "names: [Lampblacks, Crow's Foot]\n",
                         table="names: [Bazso Baz, Lampblacks]\n")
    assert load_script(folder).names == ("Lampblacks", "Crow's Foot", "Bazso Baz")


def test_a_name_that_is_not_text_is_reported_at_its_line(tmp_path):
    folder = folder_with(tmp_path, game=GAME, table="names:\n  - Lampblacks\n  - {a: 1}\n")
    [found] = problems(folder)
    assert found.code is Code.WRONG_TYPE
    assert str(found).startswith(f"{folder / 'table.yaml'}:3: NS003 a name should be text")


def test_a_prompt_key_given_in_two_files_is_reported_where_repeated(tmp_path):
    folder = folder_with(tmp_path, game=GAME + "prompts:\n  hello: Hi.\n", prompts="prompts:\n  hello: Hey.\n")
    [found] = problems(folder)
    assert found.code is Code.DUPLICATE_KEY
    assert str(found).startswith(f"{folder / 'prompts.yaml'}:2: NS006 ")


def test_errors_read_file_line_code_message(tmp_path):
    folder = folder_with(tmp_path, game=GAME.replace("number: 2", "number: two"))
    [found] = problems(folder)
    assert str(found) == (f"{folder / 'game.yaml'}:6: NS003 track b: number should be a whole "
                          "number, found 'two'")


def test_yaml_syntax_error_names_its_line(tmp_path):
    folder = folder_with(tmp_path, game=GAME.replace('lines: ["Bye."]', 'lines: ["Bye."'))
    [found] = problems(folder)
    assert found.code is Code.YAML_SYNTAX and found.where.file.endswith("game.yaml")
    assert found.where.line in (8, 9)


def test_yes_no_on_off_stay_text(tmp_path):
    folder = folder_with(tmp_path, game=GAME, prompts="prompts:\n  yes: yes\n  no: no\n  on: on\n  off: 'off'\n"
                                                      "  date: 2009-10-04\n")
    prompts = load_script(folder).prompts
    assert {k: p.text for k, p in prompts.items()} == {
        "yes": "yes", "no": "no", "on": "on", "off": "off", "date": "2009-10-04"}


def test_ending_yes_is_refused_because_only_true_and_false_are_booleans(tmp_path):
    [found] = problems(folder_with(tmp_path, game=GAME.replace("ending: true", "ending: yes")))
    assert found.code is Code.WRONG_TYPE and "true or false" in found.message and "'yes'" in found.message


def test_python_tags_are_refused_and_never_run(tmp_path):
    marker = tmp_path / "ran"
    evil = GAME.replace("title: Demo", f'title: !!python/object/apply:os.system ["touch {marker}"]')
    [found] = problems(folder_with(tmp_path, game=evil))
    assert found.code is Code.YAML_TAG and found.where.line == 2
    assert not marker.exists()


def test_unknown_and_missing_fields_name_the_track(tmp_path):
    text = GAME.replace("    ending: true\n", "    ending: true\n    nxt: a\n").replace("    title: Start\n", "")
    found = sorted(problems(folder_with(tmp_path, game=text)), key=lambda d: d.where.line)
    assert [(d.code, d.where.line) for d in found] == [(Code.UNKNOWN_FIELD, 10), (Code.MISSING_FIELD, 11)]
    assert "nxt" in found[0].message and "track a: title is missing" == found[1].message


def test_duplicate_key_in_one_mapping(tmp_path):
    [found] = problems(folder_with(tmp_path, game=GAME.replace("title: End", "title: End\n    title: Fin")))
    assert found.code is Code.DUPLICATE_KEY and found.where.line == 8


def test_start_must_name_a_track(tmp_path):
    [found] = problems(folder_with(tmp_path, game=GAME.replace("start: a", "start: z")))
    assert found.code is Code.UNDEFINED_TARGET and found.where.line == 3


def test_a_folder_without_yaml_is_no_script(tmp_path):
    [found] = problems(tmp_path)
    assert found.code is Code.NO_SCRIPT


# --------------------------------------------------------------------------- audio confinement

def with_audio(tmp_path: Path, audio: str) -> Path:
    return folder_with(tmp_path, game=GAME.replace("ending: true", f"ending: true\n    audio: {audio}"))


def test_audio_inside_the_folder_loads_as_its_real_path(tmp_path):
    folder = with_audio(tmp_path, "recordings/end.ogg")
    (folder / "recordings").mkdir()
    (folder / "recordings" / "end.ogg").write_bytes(b"OggS")
    assert load_script(folder).track("b").audio == (folder / "recordings" / "end.ogg").resolve()


@pytest.mark.parametrize("audio", ["../secret.ogg", "recordings/../../secret.ogg", "/etc/passwd"])
def test_audio_climbing_out_of_the_folder_is_refused(tmp_path, audio):
    (tmp_path / "secret.ogg").write_bytes(b"OggS")
    [found] = problems(with_audio(tmp_path, audio))
    assert found.code is Code.OUTSIDE_FOLDER and found.where.line == 10


def test_audio_symlink_pointing_outside_is_refused(tmp_path):
    (tmp_path / "secret.ogg").write_bytes(b"OggS")
    folder = with_audio(tmp_path, "end.ogg")
    os.symlink(tmp_path / "secret.ogg", folder / "end.ogg")
    [found] = problems(folder)
    assert found.code is Code.OUTSIDE_FOLDER


def test_a_yaml_file_symlinked_from_outside_is_refused(tmp_path):
    folder = folder_with(tmp_path, game=GAME)
    (tmp_path / "extra.yaml").write_text("prompts:\n  a: b\n")
    os.symlink(tmp_path / "extra.yaml", folder / "extra.yaml")
    [found] = problems(folder)
    assert found.code is Code.OUTSIDE_FOLDER and found.where.file.endswith("extra.yaml")


def test_missing_audio_is_reported(tmp_path):
    [found] = problems(with_audio(tmp_path, "nowhere.ogg"))
    assert found.code is Code.MISSING_FILE


# --------------------------------------------------------------------------- folders of scripts

def test_load_all_loads_every_game_folder_and_reports_all_problems(tmp_path):
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "game.yaml").write_text(GAME.replace("demo", name))
    (tmp_path / "notes").mkdir()
    assert [s.game for s in load_all(tmp_path)] == ["one", "two"]
    (tmp_path / "two" / "game.yaml").write_text(GAME.replace("start: a", "start: z"))
    with pytest.raises(ScriptError) as caught:
        load_all(tmp_path)
    assert [d.code for d in caught.value.diagnostics] == [Code.UNDEFINED_TARGET]


def test_find_script_uses_the_repository_scripts_or_NARRATOR_SCRIPTS(monkeypatch, tmp_path):
    monkeypatch.delenv("NARRATOR_SCRIPTS", raising=False)
    assert find_script("slow_burn") == Path(__file__).resolve().parents[1] / "scripts" / "slow_burn"
    monkeypatch.setenv("NARRATOR_SCRIPTS", str(tmp_path))
    assert find_script(None) == tmp_path and find_script("x") == tmp_path / "x"


@pytest.mark.parametrize("old, new, line", [
    ("number: 2", "number: 0", 6),                        # numbers start at 1
    ("lines: [\"Bye.\"]", "lines: [\"Bye.\", 7]", 8),      # a line must be text
    ("next: [{to: b, when: always}]", "next: [b]", 16),   # a link is a mapping
])
def test_wrong_typed_values_are_NS003_at_their_line(tmp_path, old, new, line):
    [found] = problems(folder_with(tmp_path, game=GAME.replace(old, new)))
    assert (found.code, found.where.line) == (Code.WRONG_TYPE, line)


@pytest.mark.parametrize("extra", ["- just\n- a list\n", "tracks: none\n", "prompts: [a, b]\n"])
def test_a_file_or_section_of_the_wrong_shape_is_NS003(tmp_path, extra):
    [found] = problems(folder_with(tmp_path, game=GAME, extra=extra))
    assert found.code is Code.WRONG_TYPE and found.where.file.endswith("extra.yaml")
