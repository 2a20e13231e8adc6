"""``narrator graph``: the track graph as Mermaid and DOT, with labelled edges and endings."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from narrator.script.graph import to_dot, to_mermaid
from narrator.script.model import Link, Script, Track, Where

HERE = Where("game.yaml", 1)


def script() -> Script:
    tracks = (
        Track("a", 1, "Start", ("Go.",), (Link("b", "first session", HERE), Link("c", "", HERE))),
        Track("b", 2, 'The "Job"', ("Work.",), (Link("zz", "broken", HERE),)),
        Track("c", 3, "End", ("Done.",), ending=True),
    )
    return Script(game="demo", title="Demo", folder=Path("."), start="a", tracks=tracks)


def test_mermaid_is_a_flowchart_with_every_track_and_labelled_link():
    text = to_mermaid(script())
    assert text.splitlines()[0] == "flowchart TD"
    nodes = dict(re.findall(r"^\s+(n\d+)\W+\"(Track \d+: [^\"]*|missing: \w+)\"", text, re.M))
    ids = {label: node for node, label in nodes.items()}
    a, b, c = ids["Track 1: Start"], ids["Track 2: The #quot;Job#quot;"], ids["Track 3: End"]
    assert f'{a} -->|"first session"| {b}' in text and f"{a} --> {c}" in text
    assert f'{b} -->|"broken"| {ids["missing: zz"]}' in text


def test_mermaid_marks_the_start_and_the_endings():
    text = to_mermaid(script())
    assert re.search(r'\(\["Track 1: Start"\]\):::start', text)
    assert re.search(r'\[\["Track 3: End"\]\]:::ending', text)


def test_dot_has_every_link_with_its_label_and_doubles_the_ending():
    text = to_dot(script())
    assert text.startswith('digraph "demo" {') and text.rstrip().endswith("}")
    assert '"a" -> "b" [label="first session"];' in text and '"a" -> "c";' in text
    assert '"c" [label="Track 3: End", peripheries=2];' in text
    assert '"b" [label="Track 2: The \\"Job\\""];' in text
    assert '"zz" [label="missing: zz", color=red, fontcolor=red];' in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graphviz_accepts_the_dot():
    subprocess.run(["dot", "-Tsvg"], input=to_dot(script()), text=True, check=True, capture_output=True)
