"""Turn the Slow Burn track script text into script YAML, UNCORRECTED.

    python tools/import_track_script.py /work/shared/games/slow-burn-track-script.txt > game.yaml

Every "Track N: Title" heading starts a track (id tNN); every bullet below it is one line,
verbatim, in order. Each "proceed / jump (back) to Track N" becomes a link, its ``when`` taken
from an "If ..., " clause (or "otherwise") of the same sentence. A track whose text gives no way on is where the
text stops, so it is marked ``ending: true``. Nothing is fixed: this output is the test fixture
tests/script/slow_burn_uncorrected/game.yaml that the linter must find the source's mistakes in.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HEADING = re.compile(r"^Track (\d+): (.+?)\s*$")
BULLET = re.compile(r"^\s*•\s*(.*?)\s*$")
JUMP = re.compile(r"\b(?:proceed|jump)(?: back)? to Track (\d+)", re.IGNORECASE)
CONDITION = re.compile(r"^(?:If|Once) (.+?), ")


def parse(text: str) -> list[dict]:
    """The tracks of the source text: number, title, lines and links."""
    tracks: list[dict] = []
    for raw in text.splitlines():
        if heading := HEADING.match(raw):
            tracks.append({"number": int(heading[1]), "title": heading[2], "lines": [], "next": []})
        elif tracks and (bullet := BULLET.match(raw)):
            tracks[-1]["lines"].append(bullet[1])
            tracks[-1]["next"] += links(bullet[1])
    return tracks


def links(line: str) -> list[tuple[int, str]]:
    """(track number, when) for each jump a line states."""
    found = []
    for sentence in re.split(r"(?<=\.)\s+|;\s*(?=otherwise)", line):
        condition = CONDITION.match(sentence)
        when = condition[1] if condition else "otherwise" if sentence.startswith("otherwise") else ""
        found += [(int(jump[1]), when) for jump in JUMP.finditer(sentence)]
    return found


def q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def to_yaml(tracks: list[dict], source: str) -> str:
    """The script file: one track per block, one line per bullet."""
    out = [f"# Imported UNCORRECTED from {source} by tools/import_track_script.py.",
           "# Regenerate, do not edit: the corrected script is scripts/slow_burn/game.yaml.",
           "game: slow-burn", "title: Slow Burn", "start: t01", "tracks:"]
    for track in tracks:
        out += [f"  - id: t{track['number']:02d}", f"    number: {track['number']}",
                f"    title: {q(track['title'])}", "    lines:"]
        out += [f"      - {q(line)}" for line in track["lines"]]
        if track["next"]:
            out.append("    next:")
            out += [f"      - {{to: t{number:02d}" + (f", when: {q(when)}}}" if when else "}")
                    for number, when in track["next"]]
        else:
            out.append("    ending: true")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source = Path(argv[1])
    sys.stdout.write(to_yaml(parse(source.read_text(encoding="utf-8")), source.name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
