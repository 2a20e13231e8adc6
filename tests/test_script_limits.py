"""Hostile scripts are refused with an NS code and file:line, never an uncaught exception:
the caps on size and values, aliases, nesting depth; and the loader fuzzed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from hostile_scripts import HOSTILE
from narrator.cli import app
from narrator.script.loader import ScriptError, find_script, load_script

PLACE = re.compile(r"^(?P<file>[^:]+)(:(?P<line>\d+))?: (?P<code>NS\d{3}) ")


def hostile(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "hostile"
    folder.mkdir()
    HOSTILE[name][1](folder)
    return folder


@pytest.mark.parametrize("name", list(HOSTILE))
def test_each_hostile_script_is_refused_with_its_code_and_place(tmp_path, name):
    folder = hostile(tmp_path, name)
    with pytest.raises(ScriptError) as caught:
        load_script(folder)
    found = [d for d in caught.value.diagnostics if d.code.value == HOSTILE[name][0]]
    assert found, "\n".join(map(str, caught.value.diagnostics))
    for d in found:
        assert d.where.file.startswith(str(folder))
        if Path(d.where.file).is_file() and d.code.value != "NS004":
            assert d.where.line >= 1


@pytest.mark.parametrize("name", ["alias bomb", "50 MB file", "50000 nested lists",
                                  "int of 100000 digits"])
def test_narrator_check_prints_the_code_without_a_traceback(tmp_path, name):
    folder = hostile(tmp_path, name)
    result = CliRunner().invoke(app, ["check", str(folder)])
    assert result.exit_code == 1
    assert HOSTILE[name][0] in result.output and "Traceback" not in result.output
    assert all(PLACE.match(line) for line in result.output.splitlines())


def test_the_shipped_scripts_are_well_inside_the_limits():
    for folder in sorted(p for p in find_script(None).iterdir() if p.is_dir()):
        if any(folder.glob("*.yaml")):
            load_script(folder)  # raises on NS020/NS021/NS022 like any other problem


SEED = (find_script("slow_burn") / "game.yaml").read_text(encoding="utf-8")[:3000]
YAML_BITS = st.sampled_from(["[", "]", "{", "}", ":", "- ", "&a ", "*a", "!!", "!x ", "\n",
                             "  ", "'", '"', "#", ",", "? ", "|", ">", "%YAML 1.1\n", "---\n",
                             "<<: ", "9" * 50, "\t", "\x00", "\ufeff", "é", "\\"])


@st.composite
def mutated(draw) -> bytes:
    """The start of a real script with random YAML-significant edits, or random bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=400))
    text = SEED
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.integers(0, 2))
        if kind == 0:
            text = text[:at] + draw(YAML_BITS) * draw(st.integers(1, 40)) + text[at:]
        elif kind == 1:
            text = text[:at] + text[at + draw(st.integers(1, 200)):]
        else:
            text = text[:at] + text[at:at + 80] * draw(st.integers(2, 30)) + text[at:]
    return text.encode("utf-8", "surrogatepass")


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.large_base_example, HealthCheck.data_too_large])
@given(data=mutated())
def test_fuzzed_scripts_load_or_are_refused_with_codes_never_crash(tmp_path, data):
    folder = tmp_path / "fuzz"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_bytes(data)
    try:
        load_script(folder)
    except ScriptError as exc:
        assert exc.diagnostics and all(PLACE.match(str(d)) for d in exc.diagnostics)
