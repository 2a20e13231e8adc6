"""``narrator check``, the whole of it: a script is playable when it loads and lints clean
(narrator/script/lint.py), its ``rules:`` names a rules module that loads, every prompt key
those rules can say is in the script, and every card deck in its folder loads.

The prompt keys are read from the rules' source, not run: every text literal given as the key
of a ``Line``, or of a function that passes one of its parameters on as a Line's key
(``reject(state, key)``, a game's own ``ask(key, ...)``), found again and again until no new
such function turns up. A key built with an f-string (``f"status.{kind}"``) must match at least
one prompt; a key held in a variable is not seen.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
import sys
from pathlib import Path
from typing import Iterator

from narrator.rules import registry
from narrator.rules.half_chance.cards import DeckError, deck_diagnostics
from narrator.rules.base import RulesInfo
from narrator.script.diagnostics import Code, Diagnostic
from narrator.script.lint import check as lint_script, lint
from narrator.script.loader import ScriptError, load_script, script_folders, yaml_files
from narrator.script.model import Script, Where

#: a function turning a text argument into a Line key: name -> the argument's position
KeyMakers = dict[str, int]


def check_path(path: Path) -> list[Diagnostic]:
    """Every problem of a script (file or folder), or of each script folder under ``path``."""
    path = Path(path)
    if path.is_dir() and not yaml_files(path) and script_folders(path):
        return [d for folder in script_folders(path) for d in check_script(folder)]
    return check_script(path)


def check_script(path: Path) -> list[Diagnostic]:
    """Every problem of one script, in file and line order."""
    try:
        script = load_script(path)
    except ScriptError:
        return lint(path)
    problems = list(lint_script(script)) + list(_rules_problems(script)) + _card_problems(script)
    return sorted(problems, key=lambda d: (d.where.file, d.where.line, d.code.value))


def _rules_problems(script: Script) -> Iterator[Diagnostic]:
    where = _rules_where(script)
    try:
        info, full = registry.for_script(script)
    except DeckError:  # its deck is bad: said by _card_problems
        info, full = registry.get(script.rules), script
    except KeyError as exc:
        yield Diagnostic(Code.UNKNOWN_RULES, str(exc.args[0]), where)
        return
    except Exception as exc:  # a rules module that cannot load (a bad option default ...)
        yield Diagnostic(Code.UNKNOWN_RULES, f"rules {script.rules!r} does not load: {exc}", where)
        return
    keys, patterns = prompt_keys(info)
    for key in sorted(set(keys) - set(full.prompts)):
        file, line = keys[key]
        yield Diagnostic(Code.MISSING_PROMPT, f"prompt {key!r} is missing: {info.title}'s rules "
                                              f"say it ({file}:{line})", where)
    for pattern, (file, line) in sorted(patterns.items()):
        if not fnmatch.filter(full.prompts, pattern):
            yield Diagnostic(Code.MISSING_PROMPT, f"no prompt matches {pattern!r}: {info.title}'s "
                                                  f"rules say one ({file}:{line})", where)


def _rules_where(script: Script) -> Where:
    """Where the script names its rules (else its game)."""
    for field in ("rules:", "game:"):
        for file in yaml_files(script.folder):
            for n, text in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                if text.startswith(field):
                    return Where(str(file), n)
    return Where(str(script.folder), 0)


def _card_problems(script: Script) -> list[Diagnostic]:
    return deck_diagnostics(script)


# --------------------------------------------------------------------------- keys from the source


def rules_files(info: RulesInfo) -> list[Path]:
    """The source files of a game's rules: its package's modules, or its one module."""
    file = Path(sys.modules[type(info.rules).__module__].__file__)
    in_package = file.name == "__init__.py" or file.parent.name != "rules"
    return sorted(file.parent.rglob("*.py")) if in_package else [file]


def prompt_keys(info: RulesInfo) -> tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]]]:
    """The prompt keys a game's rules can say: literal keys and f-string patterns (``*`` for
    each field), each with the first file and line that says it."""
    shared = sorted(Path(importlib.util.find_spec("narrator.rules").origin).parent.glob("*.py"))
    own = [(path, _parse(path)) for path in rules_files(info)]
    makers = _key_makers([(path, _parse(path)) for path in shared if path not in dict(own)] + own)
    keys: dict[str, tuple[str, int]] = {}
    patterns: dict[str, tuple[str, int]] = {}
    for path, tree in own:
        for call in ast.walk(tree):
            at = makers.get(_callee(call)) if isinstance(call, ast.Call) else None
            if at is None or len(call.args) <= at:
                continue
            arg = call.args[at]
            name = path.relative_to(shared[0].parents[2]).as_posix()
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys.setdefault(arg.value, (name, arg.lineno))
            elif isinstance(arg, ast.JoinedStr):
                pattern = "".join("*" if isinstance(v, ast.FormattedValue) else str(v.value)
                                  for v in arg.values)
                patterns.setdefault(pattern, (name, arg.lineno))
    return keys, patterns


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _key_makers(trees: list[tuple[Path, ast.Module]]) -> KeyMakers:
    """``Line`` and every function (or class, by its ``__init__``) that hands one of its
    parameters to a key maker as a key."""
    makers: KeyMakers = {"Line": 0}
    grown = True
    while grown:
        grown = False
        for _, tree in trees:
            for name, func in _callables(tree):
                if name not in makers:
                    at = _passes_key(func, makers)
                    if at is not None:
                        makers[name] = at
                        grown = True
    return makers


def _callables(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Every function by its name, and every class's ``__init__`` by the class's name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    yield node.name, item
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and not node.name.startswith("__"):
            yield node.name, node


def _passes_key(func: ast.FunctionDef, makers: KeyMakers) -> int | None:
    """The position of ``func``'s parameter that it passes on as a key, if any."""
    params = [a.arg for a in func.args.posonlyargs + func.args.args]
    if params[:1] in (["self"], ["cls"]):
        params = params[1:]
    for call in ast.walk(func):
        at = makers.get(_callee(call)) if isinstance(call, ast.Call) else None
        if at is not None and len(call.args) > at and isinstance(call.args[at], ast.Name) \
                and call.args[at].id in params:
            return params.index(call.args[at].id)
    return None
