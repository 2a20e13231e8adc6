"""Load a script folder (``scripts/<game>/*.yaml``) into a ``Script``, safely and with file:line.

YAML is parsed by a ``yaml.SafeLoader`` subclass: no Python tags, and every mapping, list and
text value it builds remembers its file and line. Only ``true``/``false`` are booleans, so
``yes``/``no``/``on``/``off`` stay text, and dates stay text. Files are merged in name order;
tracks are ordered by number. Anything wrong is collected and raised at once as a ``ScriptError``.
"""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from narrator.errors import NarratorError
from narrator.script.diagnostics import Code, Diagnostic
from narrator.script.model import Link, Prompt, Script, Track, Where

_BOOL = "tag:yaml.org,2002:bool"
_UNTYPED = {_BOOL, "tag:yaml.org,2002:timestamp"}


class ScriptError(NarratorError):
    """A script that cannot be loaded; ``diagnostics`` says every reason found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(map(str, diagnostics)))
        self.diagnostics = diagnostics


# --------------------------------------------------------------------------- YAML with places


class _Str(str):
    where: Where


class _Map(dict):
    where: Where


class _Seq(list):
    where: Where


#: limits that keep a hostile script cheap to refuse: bytes per file and per folder, values
#: (scalars, lists and mappings) per folder, nesting depth; the shipped scripts hold under 25 KiB
#: and 800 values a file
MAX_FILE_BYTES = 128 * 1024
MAX_FOLDER_BYTES = 512 * 1024
MAX_VALUES = 10_000
MAX_DEPTH = 32
#: libyaml's parser when PyYAML has it (several times faster), else PyYAML's own
_Fast = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader


class _Refused(yaml.MarkedYAMLError):
    """Something a script may not hold: a tag (``!!python/object``, ``!include``...), an alias,
    nesting past MAX_DEPTH. ``code`` is its diagnostic."""

    def __init__(self, code: Code, problem: str, mark: yaml.Mark | None):
        super().__init__(None, None, problem, mark)
        self.code = code


class _PlaceLoader(_Fast):  # type: ignore[misc, valid-type]
    """SafeLoader that stamps values with their place and types only true/false as booleans."""

    yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag not in _UNTYPED]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def __init__(self, text: str, file: str):
        super().__init__(text)
        self.file = file
        self.duplicates: list[Diagnostic] = []

    def where(self, node: yaml.Node) -> Where:
        return Where(self.file, node.start_mark.line + 1)


class Budget:
    """How many more values a folder's files may hold (MAX_VALUES in all)."""

    def __init__(self) -> None:
        self.left = MAX_VALUES


def _screen(text: str, budget: Budget) -> None:
    """Refuse aliases (a few nested ones expand to gigabytes), nesting past MAX_DEPTH and values
    past the budget, from the parser's events alone, before anything is built."""
    depth = 0
    for event in _events(text):
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(Code.YAML_ALIAS, f"the alias *{event.anchor} is not allowed in a "
                                            "script; write the value out", event.start_mark)
        if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
            budget.left -= 1
            if budget.left < 0:
                raise _Refused(Code.TOO_LARGE, f"the script holds more than {MAX_VALUES} values "
                                               "(texts, lists and mappings)", event.start_mark)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(event.start_mark)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _events(text: str):
    """The parser's events; libyaml's own depth limit (PyYAML 6.0.4 and later, 1000 flow
    levels, met while scanning ahead) is refused as any nesting past MAX_DEPTH is."""
    try:
        yield from yaml.parse(text, Loader=_Fast)
    except yaml.scanner.ScannerError as exc:
        if "nesting depth" not in (exc.problem or ""):
            raise
        raise _too_deep(exc.problem_mark) from exc


def _too_deep(mark: yaml.Mark | None) -> _Refused:
    return _Refused(Code.TOO_DEEP, f"lists and mappings are nested more than {MAX_DEPTH} deep",
                    mark)


def _construct_str(loader: _PlaceLoader, node: yaml.ScalarNode) -> _Str:
    value = _Str(loader.construct_scalar(node))
    value.where = loader.where(node)
    return value


def _construct_seq(loader: _PlaceLoader, node: yaml.SequenceNode):
    data = _Seq()
    data.where = loader.where(node)
    yield data
    data.extend(loader.construct_sequence(node))


def _construct_map(loader: _PlaceLoader, node: yaml.MappingNode):
    data = _Map()
    data.where = loader.where(node)
    yield data
    seen: dict[str, Where] = {}
    for key_node, _ in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
            here = loader.where(key_node)
            if key_node.value in seen:
                loader.duplicates.append(Diagnostic(
                    Code.DUPLICATE_KEY, f"{key_node.value!r} is given twice (first at line "
                                        f"{seen[key_node.value].line})", here))
            seen.setdefault(key_node.value, here)
    data.update(loader.construct_mapping(node))


def _construct_int(loader: _PlaceLoader, node: yaml.ScalarNode) -> int:
    try:
        return loader.construct_yaml_int(node)
    except ValueError:  # Python refuses to convert more than 4300 digits
        raise yaml.constructor.ConstructorError(None, None, f"a number of {len(node.value)} "
                                                "digits is too long", node.start_mark) from None


def _refuse_tag(loader: _PlaceLoader, node: yaml.Node):
    tag = node.tag.replace("tag:yaml.org,2002:", "!!")
    raise _Refused(Code.YAML_TAG, f"the tag {tag} is not allowed in a script", node.start_mark)


_PlaceLoader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|false)$"), list("tf"))
_PlaceLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_PlaceLoader.add_constructor("tag:yaml.org,2002:str", _construct_str)
_PlaceLoader.add_constructor("tag:yaml.org,2002:seq", _construct_seq)
_PlaceLoader.add_constructor("tag:yaml.org,2002:map", _construct_map)
_PlaceLoader.add_constructor(None, _refuse_tag)


def parse_file(path: Path, budget: Budget | None = None) -> tuple[Any, list[Diagnostic]]:
    """One YAML file as stamped data (None when empty, broken or refused) and the problems
    found; ``budget`` counts values across the files of a folder."""
    file = str(path)
    with open(path, "rb") as f:
        raw = f.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        return None, [Diagnostic(Code.TOO_LARGE, f"the file is larger than {MAX_FILE_BYTES // 1024}"
                                                 " KiB; split it into several files of the folder",
                                 Where(file, 1))]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, [Diagnostic(Code.YAML_SYNTAX, "not UTF-8 text", Where(file, line))]
    loader = _PlaceLoader(text, file)
    try:
        _screen(text, budget or Budget())
        return loader.get_single_data(), loader.duplicates
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Where(file, mark.line + 1 if mark else 0)
        code = exc.code if isinstance(exc, _Refused) else Code.YAML_SYNTAX
        message = " ".join(filter(None, (exc.context, exc.problem)))
        return None, [Diagnostic(code, message, where)]
    except (yaml.YAMLError, ValueError, OverflowError) as exc:  # e.g. an int of 5000 digits
        return None, [Diagnostic(Code.YAML_SYNTAX, " ".join(str(exc).split()), Where(file, 0))]
    finally:
        loader.dispose()


# --------------------------------------------------------------------------- building a Script

#: problems that leave a file unread (so fields it would give are not reported missing)
_UNPARSED = {Code.YAML_SYNTAX, Code.YAML_TAG, Code.TOO_LARGE, Code.YAML_ALIAS, Code.TOO_DEEP}
_KINDS = {str: "text", int: "a whole number", bool: "true or false", list: "a list", dict: "a mapping"}
#: top-level fields; ``cards`` is game data (the Half-Chance deck) handed to its rules as it is;
#: ``names`` are proper nouns a table may say in a free-text answer (the recogniser is told them)
TOP_FIELDS = {"game": str, "title": str, "rules": str, "start": str, "tracks": list,
              "prompts": dict, "cards": list, "names": list}
TRACK_FIELDS = {"id": str, "number": int, "title": str, "lines": list, "next": list,
                "ending": bool, "audio": str}
TRACK_REQUIRED = ("id", "number", "title", "lines")
LINK_FIELDS = {"to": str, "when": str}


def _is(value: Any, kind: type) -> bool:
    if kind is int:
        return type(value) is int
    return isinstance(value, kind)


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return repr(value if isinstance(value, (int, float)) else str(value))


class _Builder:
    """Turns merged YAML data into model objects, collecting diagnostics instead of stopping."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.problems: list[Diagnostic] = []

    def problem(self, code: Code, message: str, where: Where) -> None:
        self.problems.append(Diagnostic(code, message, where))

    def fields(self, data: Any, spec: dict[str, type], what: str, where: Where,
               required: tuple[str, ...]) -> dict[str, tuple[Any, Where]] | None:
        """The known fields of a mapping, type-checked: name -> (value, where); None if unusable."""
        if not isinstance(data, dict):
            self.problem(Code.WRONG_TYPE, f"{what} should be a mapping, found {_describe(data)}",
                         getattr(data, "where", where))
            return None
        where = getattr(data, "where", where)
        found: dict[str, tuple[Any, Where]] = {}
        for key, value in data.items():
            here = getattr(value, "where", getattr(key, "where", where))
            if key not in spec:
                known = ", ".join(spec)
                self.problem(Code.UNKNOWN_FIELD, f"{what}: unknown field {key!r} (known: {known})", here)
            elif not _is(value, spec[key]):
                self.problem(Code.WRONG_TYPE, f"{what}: {key} should be {_KINDS[spec[key]]}, "
                                              f"found {_describe(value)}", here)
            else:
                found[key] = (value, here)
        for name in required:
            if name not in data:
                self.problem(Code.MISSING_FIELD, f"{what}: {name} is missing", where)
        return found

    def texts(self, items: list, what: str) -> tuple[list[str], list[Where]]:
        """A list of texts with their places; a non-text item is a problem."""
        good, places = [], []
        for item in items:
            here = getattr(item, "where", items.where)
            if isinstance(item, str):
                good.append(str(item))
                places.append(here)
            else:
                self.problem(Code.WRONG_TYPE, f"{what} should be text, found {_describe(item)}", here)
        return good, places

    def track(self, data: Any, where: Where) -> Track | None:
        ident = data.get("id") if isinstance(data, dict) else None
        name = f"track {ident}" if isinstance(ident, str) else "a track"
        got = self.fields(data, TRACK_FIELDS, name, where, TRACK_REQUIRED)
        if got is None:
            return None
        if "number" in got and got["number"][0] < 1:
            self.problem(Code.WRONG_TYPE, f"{name}: number should be 1 or more", got.pop("number")[1])
        lines, places = self.texts(got["lines"][0], f"{name}: a line") if "lines" in got else ([], [])
        links = [link for item in got.get("next", ([], where))[0]
                 if (link := self.link(item, name, where)) is not None]
        audio = self.audio(*got["audio"]) if "audio" in got else None
        if not set(TRACK_REQUIRED) <= got.keys():
            return None
        return Track(id=str(got["id"][0]), number=got["number"][0], title=str(got["title"][0]),
                     lines=tuple(lines), links=tuple(links), ending=got.get("ending", (False,))[0],
                     audio=audio, where=data.where, line_where=tuple(places))

    def link(self, data: Any, track: str, where: Where) -> Link | None:
        got = self.fields(data, LINK_FIELDS, f"{track}: a link", where, ("to",))
        if got is None or "to" not in got:
            return None
        return Link(to=str(got["to"][0]), when=str(got.get("when", ("",))[0]), where=data.where)

    def audio(self, value: str, where: Where) -> Path | None:
        """The recording's real path, if it lies inside the folder and exists."""
        target = (self.folder / value).resolve()
        if Path(value).is_absolute() or not target.is_relative_to(self.folder.resolve()):
            self.problem(Code.OUTSIDE_FOLDER, f"audio {value!r} lies outside the script folder", where)
            return None
        if not target.is_file():
            self.problem(Code.MISSING_FILE, f"audio {value!r} does not exist", where)
            return None
        return target

    def prompts(self, data: dict, into: dict[str, Prompt]) -> None:
        for key, value in data.items():
            here = getattr(value, "where", getattr(key, "where", data.where))
            if not isinstance(key, str) or not isinstance(value, str):
                self.problem(Code.WRONG_TYPE, f"prompt {key!r} should map a text key to text, "
                                              f"found {_describe(value)}", here)
            elif key in into:
                self.problem(Code.DUPLICATE_KEY, f"prompt {key!r} is also given at "
                                                 f"{into[key].where}", here)
            else:
                into[str(key)] = Prompt(str(key), str(value), here)


def yaml_files(folder: Path) -> list[Path]:
    """The folder's script files, in the order they are merged."""
    return sorted(p for p in folder.glob("*.yaml") if p.is_file())


def load_script(path: Path) -> Script:
    """The script in folder ``path`` (every *.yaml merged) or in the one file ``path``, whose
    folder is then the script's folder. ScriptError lists every problem found."""
    path = Path(path)
    folder = path.parent if path.is_file() else path
    files = [path] if path.is_file() else yaml_files(path) if path.is_dir() else []
    if not files:
        raise ScriptError([Diagnostic(Code.NO_SCRIPT, "no *.yaml script file in this folder",
                                      Where(str(folder), 0))])
    total = sum(p.stat().st_size for p in files)
    if total > MAX_FOLDER_BYTES:
        raise ScriptError([Diagnostic(Code.TOO_LARGE, f"the script files hold {total // 1024} KiB "
                                                      f"together, over {MAX_FOLDER_BYTES // 1024} KiB",
                                      Where(str(folder), 0))])
    build = _Builder(folder)
    singles, raw_tracks, prompts, cards, names = _merge(build, folder, files)
    parsed = not any(p.code in _UNPARSED for p in build.problems)
    for name in ("game", "title"):
        if parsed and name not in singles:
            build.problem(Code.MISSING_FIELD, f"no file of the folder gives the script's {name}",
                          Where(str(folder), 0))
    if parsed and raw_tracks and "start" not in singles:
        build.problem(Code.MISSING_FIELD, "start (the first track's id) is missing",
                      Where(str(files[0]), 0))
    tracks = [t for item, where in raw_tracks if (t := build.track(item, where)) is not None]
    if "start" in singles and not build.problems and singles["start"][0] not in {t.id for t in tracks}:
        build.problem(Code.UNDEFINED_TARGET, f"start names track {singles['start'][0]!r}, "
                                             "which is not defined", singles["start"][1])
    if build.problems:
        raise ScriptError(build.problems)
    return Script(game=str(singles["game"][0]), title=str(singles["title"][0]), folder=folder,
                  rules=str(singles["rules"][0]) if "rules" in singles else None,
                  start=str(singles["start"][0]) if "start" in singles else None,
                  tracks=tuple(sorted(tracks, key=lambda t: t.number)), prompts=prompts,
                  cards=tuple(cards), names=tuple(dict.fromkeys(names)))


def _merge(build: _Builder, folder: Path, files: list[Path]):
    """The files' top-level fields: (game/title/start, raw tracks in file order, prompts,
    card entries in file order, names in file order)."""
    singles: dict[str, tuple[Any, Where]] = {}
    raw_tracks: list[tuple[Any, Where]] = []
    cards: list[Any] = []
    names: list[str] = []
    prompts: dict[str, Prompt] = {}
    budget = Budget()
    for path in files:
        if not path.resolve().is_relative_to(folder.resolve()):
            build.problem(Code.OUTSIDE_FOLDER, "this file links outside the script folder",
                          Where(str(path), 0))
            continue
        data, problems = parse_file(path, budget)
        build.problems.extend(problems)
        if data is None:
            continue
        got = build.fields(data, TOP_FIELDS, "a script file", Where(str(path), 1), ())
        for key, (value, where) in (got or {}).items():
            if key == "tracks":
                raw_tracks.extend((item, getattr(item, "where", where)) for item in value)
            elif key == "prompts":
                build.prompts(value, prompts)
            elif key == "cards":
                cards.extend(value)
            elif key == "names":
                names.extend(build.texts(value, "a name")[0])
            elif key in singles:
                build.problem(Code.DUPLICATE_KEY, f"{key} is also given at {singles[key][1]}", where)
            else:
                singles[key] = (value, where)
    return singles, raw_tracks, prompts, cards, names


def script_folders(root: Path) -> list[Path]:
    """The game folders under ``root`` (those holding a *.yaml file), in name order."""
    return sorted(p for p in Path(root).iterdir() if p.is_dir() and yaml_files(p))


def load_all(root: Path) -> list[Script]:
    """Every script under ``root`` (e.g. ``scripts/``); ScriptError lists the problems of all."""
    scripts, problems = [], []
    for folder in script_folders(root):
        try:
            scripts.append(load_script(folder))
        except ScriptError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise ScriptError(problems)
    return scripts


def builtin_scripts() -> Path:
    """The folder of the shipped games' script folders.

    $NARRATOR_SCRIPTS when set; else ``narrator/scripts`` inside the installed package (a
    wheel: importlib.resources); else ``scripts/`` beside the package (a source checkout or an
    editable install, where setup.py maps that folder in only at build time).
    """
    if os.environ.get("NARRATOR_SCRIPTS"):
        return Path(os.environ["NARRATOR_SCRIPTS"])
    packaged = resources.files("narrator") / "scripts"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(str(resources.files("narrator"))).parent / "scripts"


def find_script(folder_name: str | None) -> Path:
    """The shipped ``scripts/<folder_name>`` (the folder of them all for None)."""
    root = builtin_scripts()
    return root if folder_name is None else root / folder_name
