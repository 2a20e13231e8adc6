"""scripts/slow_burn: the whole track script, corrected only as FIXES.md lists (issue 2)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from narrator.script.diagnostics import Code
from narrator.script.lint import lint, reachable
from narrator.script.loader import find_script, load_script

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "script" / "slow_burn_uncorrected"
SOURCE = Path("/work/shared/games/slow-burn-track-script.txt")
SOURCE_TITLES = [
    "Introduction", "Character Creation", "Fleur-de-Lis Tokens", "The Path To Freedom",
    "The Setting", "Character Introduction", "The Job", "Playing A Segment", "Playing A Scene",
    "Preparing Dice", "Interference Check", "Rolling Scene Dice", "Resolving the Scene",
    "The Agency Interferes", "Playing the Interference Segment", "Pushing For Freedom",
    "Playing the Push for Freedom", "Finishing the Job", "Off the Blacklist",
]


@pytest.fixture(scope="module")
def corrected():
    return load_script(find_script("slow_burn"))


@pytest.fixture(scope="module")
def uncorrected():
    return load_script(FIXTURE)


def fixes() -> list[tuple[int, int, str, str, str]]:
    """FIXES.md's table rows: (track, line, before, after, why)."""
    rows = []
    for row in (find_script("slow_burn") / "FIXES.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].isdigit():
            rows.append((int(cells[0]), int(cells[1]), *cells[2:]))
    return rows


def test_nineteen_tracks_t01_to_t19_with_the_source_titles(corrected):
    assert [(t.id, t.number, t.title) for t in corrected.tracks] == [
        (f"t{n:02d}", n, title) for n, title in enumerate(SOURCE_TITLES, 1)]
    assert corrected.game == "slow-burn" and corrected.start == "t01"


def test_every_source_line_is_kept_changed_only_as_FIXES_md_lists(corrected, uncorrected):
    table = fixes()
    assert len(table) >= 15 and all(why for *_, why in table)
    for number in range(1, 20):
        lines = list(uncorrected.track_number(number).lines)
        rows = [row for row in table if row[0] == number]
        for _, line, before, after, _ in rows:
            if before == "(added)":
                lines.insert(line - 1, after)
        for _, line, before, after, _ in rows:
            if before != "(added)":
                assert before in lines[line - 1], f"FIXES.md: track {number} line {line} has no {before!r}"
                lines[line - 1] = lines[line - 1].replace(before, after, 1)
        assert list(corrected.track_number(number).lines) == lines, f"track {number}"


@pytest.mark.parametrize("word", ["instrucrions", "joepardizing", "persistant", "Segemnt",
                                  "you may used", "handing your their", "speciality",
                                  "Rolling Dice", "Track 11: Resolving", "Track 18: Off"])
def test_the_misspellings_and_wrong_references_of_issue_2_are_gone(corrected, word):
    assert not [t.number for t in corrected.tracks for line in t.lines if word in line]


def test_the_source_has_the_three_wrong_cross_references_at_their_lines(uncorrected):
    found = lint(FIXTURE)
    text = (FIXTURE / "game.yaml").read_text(encoding="utf-8").splitlines()

    def line_of(words: str) -> int:
        return next(i for i, line in enumerate(text, 1) if words in line)

    wrong = [(d.where.line, d.message) for d in found if d.code is Code.WRONG_TITLE]
    assert wrong == [
        (line_of("Track 11: Resolving the Scene"), 'the text names "Track 11: Resolving the Scene", '
                                                   'but track 11 is "Track 11: Interference Check"'),
        (line_of("Track 10: Rolling Dice"), 'the text names "Track 10: Rolling Dice", '
                                            'but track 10 is "Track 10: Preparing Dice"'),
        (line_of("Track 18: Off the Blacklist"), 'the text names "Track 18: Off the Blacklist", '
                                                 'but track 18 is "Track 18: Finishing the Job"'),
    ]
    assert all(d.where.file == str(FIXTURE / "game.yaml") for d in found)
    # The source also never sends the table to Track 16, and Track 19 only through the wrong reference.
    assert [d.message.split()[1] for d in found if d.code is Code.UNREACHABLE] == ["t16", "t17", "t19"]
    assert len(found) == 6


@pytest.mark.skipif(not SOURCE.exists(), reason="the shared source text is not on this machine")
def test_the_uncorrected_fixture_is_what_the_importer_makes_of_the_source():
    spec = importlib.util.spec_from_file_location("import_track_script", ROOT / "tools" / "import_track_script.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    made = tool.to_yaml(tool.parse(SOURCE.read_text(encoding="utf-8")), SOURCE.name)
    assert made == (FIXTURE / "game.yaml").read_text(encoding="utf-8")


def test_the_corrected_script_has_no_problems(corrected):
    game_file = str(find_script("slow_burn") / "game.yaml")
    # Problems in prompts.yaml belong to the rules' prompts, not to the track script.
    assert [str(d) for d in lint(find_script("slow_burn")) if d.where.file == game_file] == []
    assert reachable(corrected) == {t.id for t in corrected.tracks}


def ways_on(script, track_id: str) -> set[str]:
    return {link.to for link in script.track(track_id).links}


def added_routes() -> set[tuple[str, str]]:
    """FIXES.md's table of routes the rules add: (from, to) track ids."""
    text = (find_script("slow_burn") / "FIXES.md").read_text(encoding="utf-8")
    section = text[text.index("## Routes the rules add"):]
    rows = [[c.strip() for c in row.strip().strip("|").split("|")] for row in section.splitlines()]
    return {(f"t{int(r[0]):02d}", f"t{int(r[1]):02d}") for r in rows if len(r) == 3
            and r[0].isdigit()}


def test_track_flow_follows_the_corrected_text(corrected):
    text = {"t01": {"t02", "t07"}, "t07": {"t08"}, "t08": {"t09", "t16"}, "t09": {"t10"},
            "t10": {"t11"}, "t11": {"t12", "t14"}, "t12": {"t13"}, "t13": {"t08", "t09", "t18"},
            "t14": {"t12", "t15"}, "t15": {"t12"}, "t16": {"t17"}, "t17": {"t08", "t18", "t19"}}
    links = {(t.id, link.to) for t in corrected.tracks for link in t.links}
    said = {(a, b) for a, ways in text.items() for b in ways}
    assert said <= links
    assert links - said - {(t, f"t{int(t[1:]) + 1:02d}") for t in ("t02", "t03", "t04", "t05",
                                                                    "t06")} == added_routes()
    assert [t.id for t in corrected.tracks if t.ending] == ["t18", "t19"]


def test_interference_segment_returns_to_roll_the_interrupted_scene_track_15(corrected):
    assert "t12" in ways_on(corrected, "t15")
    assert corrected.track("t15").lines[-1].endswith("Jump back to Track 12: Rolling Scene Dice.")


def test_ignoring_the_interference_goes_on_to_the_scene_dice_track_14(corrected):
    assert corrected.track("t14").lines[-1] == (
        "If you choose to ignore the Agency's interference, proceed to Track 12: Rolling Scene Dice.")
