"""``narrator check``: every problem of a script folder, as numbered diagnostics.

``lint(folder)`` reports what stops the folder from loading; once it loads, it checks the track
graph (targets, reachability, dead ends, duplicates), the text (empty tracks, "Track N: Title"
cross-references, jumps without a link) and the prompts (valid templates).
"""

from __future__ import annotations

import re
import string
from collections import deque
from pathlib import Path
from typing import Iterator

from narrator.script.diagnostics import Code, Diagnostic
from narrator.script.loader import ScriptError, load_script, script_folders, yaml_files
from narrator.script.model import Script, Where

_REFERENCE = re.compile(r"\btrack (\d+)(:\s*)?", re.IGNORECASE)
_JUMP = re.compile(r"\b(?:proceed|jump|go|return|continue)(?: back)? to track (\d+)", re.IGNORECASE)


def lint(folder: Path) -> list[Diagnostic]:
    """Every problem of one script folder, in file and line order."""
    try:
        script = load_script(Path(folder))
    except ScriptError as exc:
        problems = exc.diagnostics
    else:
        problems = list(check(script))
    return sorted(problems, key=lambda d: (d.where.file, d.where.line, d.code.value))


def lint_path(path: Path) -> list[Diagnostic]:
    """Lint a script folder, or every script folder inside ``path`` (such as ``scripts/``)."""
    path = Path(path)
    if not path.is_dir() or yaml_files(path):
        return lint(path)
    folders = script_folders(path)
    if not folders:
        return [Diagnostic(Code.NO_SCRIPT, "no script folder (a folder of *.yaml files) here",
                           Where(str(path), 0))]
    return [problem for folder in folders for problem in lint(folder)]


def check(script: Script) -> Iterator[Diagnostic]:
    """The checks that need a loaded script."""
    yield from _duplicates(script)
    yield from _graph(script)
    yield from _text(script)
    yield from _templates(script)


def _duplicates(script: Script) -> Iterator[Diagnostic]:
    ids, numbers = {}, {}
    for track in script.tracks:
        if track.id in ids:
            yield Diagnostic(Code.DUPLICATE_ID, f"track id {track.id!r} is also used at "
                                                f"{ids[track.id]}", track.where)
        if track.number in numbers:
            yield Diagnostic(Code.DUPLICATE_NUMBER, f"track {track.id}: number {track.number} is "
                                                    f"also used at {numbers[track.number]}", track.where)
        ids.setdefault(track.id, track.where)
        numbers.setdefault(track.number, track.where)


def reachable(script: Script) -> set[str]:
    """The ids of the tracks the links lead to from the start track."""
    ids = {t.id for t in script.tracks}
    seen, todo = set(), deque([script.start] if script.start in ids else [])
    while todo:
        track = script.track(todo.popleft())
        if track.id in seen:
            continue
        seen.add(track.id)
        todo.extend(link.to for link in track.links if link.to in ids)
    return seen


def _graph(script: Script) -> Iterator[Diagnostic]:
    ids = {t.id for t in script.tracks}
    reached = reachable(script)
    for track in script.tracks:
        for link in track.links:
            if link.to not in ids:
                yield Diagnostic(Code.UNDEFINED_TARGET, f"track {track.id} links to {link.to!r}, "
                                                        "which is not defined", link.where)
        if track.id not in reached:
            yield Diagnostic(Code.UNREACHABLE, f"track {track.id} ({track.heading}) cannot be reached "
                                               f"from the start track {script.start}", track.where)
        if not track.links and not track.ending:
            yield Diagnostic(Code.DEAD_END, f"track {track.id} ({track.heading}) has no way on "
                                            "(next) and is not marked ending: true", track.where)


def _text(script: Script) -> Iterator[Diagnostic]:
    by_number = {t.number: t for t in reversed(script.tracks)}
    for track in script.tracks:
        if not track.lines:
            yield Diagnostic(Code.EMPTY_TRACK, f"track {track.id} has no lines", track.where)
        targets = {link.to for link in track.links}
        for line, where in zip(track.lines, track.line_where or [track.where] * len(track.lines)):
            yield from _references(line, where, by_number)
            for jump in _JUMP.finditer(line):
                target = by_number.get(int(jump[1]))
                if target is not None and target.id not in targets:
                    yield Diagnostic(Code.UNLINKED_JUMP, f"track {track.id} says {jump[0]!r} but has "
                                                         f"no link to {target.id}", where)


def _references(line: str, where: Where, by_number: dict) -> Iterator[Diagnostic]:
    """"Track N: Title" must name an existing track by its own title (case aside)."""
    for ref in _REFERENCE.finditer(line):
        number = int(ref[1])
        target = by_number.get(number)
        if target is None:
            yield Diagnostic(Code.NO_SUCH_TRACK, f"the text names Track {number}, which does not exist",
                             where)
            continue
        if not ref[2]:
            continue
        rest = line[ref.end():]
        title = target.title
        if rest[:len(title)].lower() != title.lower() or rest[len(title):len(title) + 1].isalnum():
            named = re.split(r"[.;,]", rest, maxsplit=1)[0].strip()
            yield Diagnostic(Code.WRONG_TITLE, f"the text names \"Track {number}: {named}\", but "
                                               f"track {number} is \"{target.heading}\"", where)


def _templates(script: Script) -> Iterator[Diagnostic]:
    for prompt in script.prompts.values():
        try:
            parsed = [(name, spec) for _, name, spec, _ in string.Formatter().parse(prompt.text)
                      if name is not None]
        except ValueError as exc:
            yield Diagnostic(Code.BAD_TEMPLATE, f"prompt {prompt.key!r}: {exc}", prompt.where)
            continue
        fields = [name for name, _ in parsed]
        for name, spec in parsed:
            if spec and spec != "a" and not re.fullmatch(r"[^/]+/[^/]+", spec):
                yield Diagnostic(Code.BAD_TEMPLATE, f"prompt {prompt.key!r}: {{{name}:{spec}}} is "
                                                    f"no word format; say {{{name}:a}} or "
                                                    f"{{{name}:one/many}}", prompt.where)
        if any(name == "" or name.isdigit() for name in fields):
            yield Diagnostic(Code.BAD_TEMPLATE, f"prompt {prompt.key!r} has a positional field {{}}; "
                                                "name it, as in {count}", prompt.where)
