"""The ``narrator`` command line (Typer).

Modules a command needs are imported inside it, and help is always plain text (no rich boxes:
they cost ~250 ms of start-up and are hard for screen readers), so ``narrator --help`` stays
fast. Captions and messages are plain too when output is not a terminal, with NO_COLOR set,
or with ``--plain``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

import typer

from narrator.cli_errors import BoundaryGroup, saved_line, session_started

if TYPE_CHECKING:
    from narrator.rules.base import RulesInfo
    from narrator.script.model import Script
    from narrator.session.journal import Journal
    from narrator.session.game import Session


def plain_output(argv: list[str] = sys.argv) -> bool:
    """Plain text wanted: ``--plain`` given, NO_COLOR set, or stdout not a terminal."""
    return "--plain" in argv or "NO_COLOR" in os.environ or not sys.stdout.isatty()


app = typer.Typer(cls=BoundaryGroup, help="Runs a tabletop game hands-free: reads its script aloud, listens for "
                       "commands and dice results, offline.", no_args_is_help=True,
                  rich_markup_mode=None,
                  pretty_exceptions_enable=False)


def _version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import PackageNotFoundError, version
        try:
            typer.echo(f"narrator {version('narrator')}")
        except PackageNotFoundError:
            typer.echo("narrator (not installed: run from a source folder)")
        raise typer.Exit()


@app.callback()
def main(_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and stop."),
         _plain: bool = typer.Option(False, "--plain",
                                     help="Plain output, no colour or emphasis (also when "
                                          "NO_COLOR is set or output is not a terminal).")
         ) -> None:
    """Runs a tabletop game hands-free: reads its script aloud, listens for commands and dice
    results, offline."""

SaveDir = typer.Option(None, "--save-dir", help="Where sessions are saved "
                                                "(default: $NARRATOR_SAVE_DIR or the user data folder).")
InputMode = typer.Option("voice", "--input", help="voice (microphone) or text (type on stdin).")
Confirm = typer.Option(None, "--confirm/--no-confirm",
                       help="Read dice and success results back for a yes before they count "
                            "(default: on with voice, off with text).")
Speech = typer.Option(None, "--speak/--quiet",
                      help="Speak aloud, or captions only (default: speak with voice input).")
Seed = typer.Option(None, "--seed", help="Seed for the app's own dice (for repeatable tests).")
Model = typer.Option(None, "--model", help="A model folder for the engine (see narrator models).")
Events = typer.Option(None, "--events", metavar="FILE",
                      help="Write what is said, asked, heard and done to FILE, one JSON object "
                           "per line (see docs/session-loop.md).")
Denoise = typer.Option(None, "--denoise/--no-denoise",
                       help="Take a noisy room's noise out of the microphone (RNNoise: what "
                            "pocketsphinx and vosk hear; for Whisper, where a word begins; "
                            "default on).")
#: the speech and device settings a session may override: (setting, type, option)
DEVICE_OPTIONS: tuple[tuple[str, type, Any], ...] = (
    ("voice", str, typer.Option(None, "--voice", help="Speech engine or voice: piper, festival, "
                                                    "espeak-ng or engine:voice (see narrator voices).")),
    ("rate", float, typer.Option(None, "--rate", help="Speech rate, 0.5 to 3 times normal.")),
    ("volume", float, typer.Option(None, "--volume", help="Speech volume, 0 to 2 (1 is normal).")),
    ("output_device", str, typer.Option(None, "--output-device",
                                        help="Sound output: a number, name or PulseAudio sink "
                                             "(see narrator devices).")),
    ("input_device", str, typer.Option(None, "--input-device",
                                       help="Microphone: a number, name or PulseAudio source "
                                            "(see narrator devices).")),
    ("engine", str, typer.Option(None, "--engine",
                                 help="Recogniser: whisper (default), pocketsphinx (light) or vosk.")),
    ("model", str, Model),
    ("listen_mode", str, typer.Option(None, "--listen",
                                      help="open (always listening), wake (start with 'narrator') "
                                           "or push (press Enter to talk); see docs/speech-in.md.")),
    ("denoise", bool, Denoise),
)


def with_device_options(command: Callable) -> Callable:
    """Give a command every option of DEVICE_OPTIONS; it receives them as one ``devices`` dict."""
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values()
           if p.name != "devices"]
    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option,
                               annotation=Optional[kind]) for name, kind, option in DEVICE_OPTIONS]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        devices = {name: kwargs.pop(name) for name, _, _ in DEVICE_OPTIONS}
        return command(*args, devices=devices, **kwargs)

    wrapper.__signature__ = inspect.Signature(own + extra)
    return wrapper


def fail(message: str) -> None:
    """Print a clear message and stop with status 1."""
    typer.secho(message, fg=None if plain_output() else "red", err=True)
    raise typer.Exit(1)


def _fail_script(exc: Exception) -> None:
    fail("the game script has problems:\n" + "\n".join(map(str, exc.diagnostics)))


def _game(target: str) -> tuple[RulesInfo, Script, str]:
    """The game ``target`` names (a built-in, a user game or a script path): its rules, its
    script and the name its journal keeps (a built-in's name, else the script's full path)."""
    from narrator.rules import registry
    from narrator.script.catalog import find_game, user_games
    from narrator.script.loader import ScriptError, find_script, load_script
    try:
        info = registry.find(target)
        if info is not None:
            script = load_script(find_script(info.rules.script))
            return registry.bound(info, script), script, info.rules.name
        path = find_game(target)
        if path is None:
            fail(f"no game or script called {target!r}; known games: "
                 f"{', '.join(registry.names())}; your own games go in {user_games()}")
        info, script = registry.for_script(load_script(path))
        return info, script, str(path)
    except ScriptError as exc:
        _fail_script(exc)
    except KeyError as exc:
        fail(f"{target}: {exc.args[0]}")
    raise AssertionError("unreachable")


def _options(info: RulesInfo, pairs: list[str]) -> dict[str, Any]:
    """``key=value`` options checked against the game's typed options (defaults filled in)."""
    from narrator.rules.options import OptionError
    try:
        return info.rules.options.parse(pairs)
    except OptionError as exc:
        fail(f"{info.title}: {exc}")
        raise


def _settings(**options: Any):
    """The saved settings with this session's command-line options on top (not saved)."""
    from narrator.settings import load_settings, with_options
    try:
        return with_options(load_settings(), **options)
    except ValueError as exc:
        fail(f"bad option: {exc}")


def _play(session: Session, journal: Journal, input_mode: str, speech: Optional[bool],
          devices: dict[str, Any], first: list | None = None,
          events: Optional[Path] = None) -> None:
    from narrator.session.console import Captions, TextEars
    from narrator.session.loop import run
    if input_mode not in ("voice", "text"):
        fail("--input is voice or text")
    captions = Captions(plain=plain_output())
    ears, mouth, cues = TextEars(captions=captions), None, None
    if input_mode == "voice" or speech:
        from narrator.session.devices import open_devices
        settings = _settings(**devices)
        tracks = max((t.number for t in session.script.tracks), default=0)
        ears, mouth = open_devices(input_mode == "voice", speech is not False, ears, settings,
                                   tracks)
        if mouth is None and input_mode == "voice":  # --quiet keeps the earcons
            from narrator.voice.earcons import make_cues
            cues = make_cues(settings)
    log, ended = None, None
    if events is not None:
        from narrator.session import event_log
        log = event_log.EventLog(events, warn=lambda m: typer.secho(m, err=True))
        captions, ears, journal = (log.captions(captions), event_log.LoggedEars(ears, log),
                                   event_log.LoggedJournal(journal, log))
        mouth, cues = (None if d is None else event_log.LoggedCues(d, log) for d in (mouth, cues))
    # each closes even when Ctrl+C comes while another closes: a microphone left open at
    # exit had its echo canceller torn down under it, printing livekit's errors
    with contextlib.ExitStack() as closing:
        if hasattr(ears, "close"):
            closing.callback(ears.close)
        for device in (cues, mouth):
            if device is not None:
                closing.callback(device.close)
        closing.callback(journal.close)
        if log is not None:  # also when stopped by Ctrl+C or an error
            closing.callback(lambda: log.close(ended is True))
        ended = run(session, ears, captions, journal, mouth, first, cues)
    if not ended:
        typer.echo(saved_line())


@app.command()
@with_device_options
def play(game: str = typer.Argument(..., help="A game (see narrator games), or the path of "
                                                "a script file or folder of your own."),
         option: list[str] = typer.Option([], "--option", "-o", help="A rule option key=value."),
         input_mode: str = InputMode, confirm: Optional[bool] = Confirm, speech: Optional[bool] = Speech,
         seed: Optional[int] = Seed, save: Optional[Path] = SaveDir,
         events: Optional[Path] = Events, devices: Optional[dict] = None) -> None:
    """Start a new session of GAME (a built-in or your own game, or a script path)."""
    from narrator.dice import Roller
    from narrator.session.journal import Journal
    from narrator.session.game import Session
    from narrator.session.resume import new_session_path, save_dir
    info, script, name = _game(game)
    options = _options(info, option)
    session = Session(info, script, options, confirm=_confirming(confirm, input_mode),
                      roller=Roller(seed))
    journal = Journal.create(new_session_path(save_dir(save), info.rules.name), name, options)
    session_started(journal.name)
    _play(session, journal, input_mode, speech, devices, events=events)


@app.command()
@with_device_options
def resume(session_name: Optional[str] = typer.Argument(None, metavar="SESSION",
                                                        help="A saved session (default: the last)."),
           input_mode: str = InputMode, confirm: Optional[bool] = Confirm,
           speech: Optional[bool] = Speech, seed: Optional[int] = Seed,
           save: Optional[Path] = SaveDir, events: Optional[Path] = Events,
           devices: Optional[dict] = None) -> None:
    """Go on with a saved session where it stopped."""
    from narrator.dice import Roller
    from narrator.rules.options import OptionError
    from narrator.session.journal import Journal, inputs_of
    from narrator.session.game import ReplayError, Session
    from narrator.session.resume import find_session, save_dir
    path, notes = find_session(save_dir(save), session_name)
    journal, loaded = Journal.reopen(path)
    session_started(journal.name)
    try:
        for note in notes + loaded.warnings:
            typer.secho(note, fg=None if plain_output() else "yellow", err=True)
        info, script, _ = _game(loaded.game)
        try:
            options = info.rules.options.check(loaded.options)
        except OptionError as exc:
            fail(f"{path}: its saved options are refused: {exc}")
            raise
        session = Session(info, script, options,
                          confirm=_confirming(confirm, input_mode), roller=Roller(seed))
        try:
            session.replay(inputs_of(loaded.records))
        except ReplayError as exc:
            fail(f"{path}: {exc}")
    except BaseException:
        journal.close()
        raise
    _play(session, journal, input_mode, speech, devices, session.resumed(), events)


def _confirming(confirm: Optional[bool], input_mode: str) -> bool:
    return confirm if confirm is not None else input_mode == "voice"


@app.command()
def games() -> None:
    """List the built-in games and your own (the user games folder)."""
    from narrator.rules import registry
    from narrator.script.catalog import user_games, user_scripts
    for name in registry.names():
        info = registry.get(name)
        typer.echo(f"{name:18} {info.title}: {info.summary}")
    typer.echo(f"\nYour games, in {user_games()} (narrator play NAME):")
    found = user_scripts()
    for folder, script in found:
        if hasattr(script, "diagnostics"):
            typer.echo(f"  {folder.name:16} does not load: narrator check {folder}")
        else:
            typer.echo(f"  {script.game:16} {script.title} ({script.rules or 'track engine'})")
    if not found:
        typer.echo("  none yet: put a script folder there, or play any script with "
                   "narrator play PATH")


@app.command()
def config(changes: list[str] = typer.Argument(None, metavar="[SETTING=VALUE]...",
                                               help="Settings to change, e.g. rate=1.2 "
                                                    "listen_mode=push voice=en-us.")) -> None:
    """Show the saved settings (voice, rate, volume, devices, listening), or change some."""
    import dataclasses

    from narrator.settings import config_path, load_settings, save_settings, with_options
    settings = load_settings()
    if changes:
        pairs = [change.partition("=") for change in changes]
        bad = [change for change, (_, sep, _) in zip(changes, pairs) if not sep]
        if bad:
            fail(f"{bad[0]!r} is not SETTING=VALUE")
        try:
            settings = with_options(settings, **{k.strip(): v.strip() for k, _, v in pairs})
        except TypeError as exc:
            known = ", ".join(f.name for f in dataclasses.fields(settings))
            fail(f"{exc.args[0]}; the settings are {known}")
        except ValueError as exc:
            fail(f"bad setting: {exc}")
        save_settings(settings)
    typer.echo(f"Settings ({config_path()}):")
    for field in dataclasses.fields(settings):
        value = getattr(settings, field.name)
        typer.echo(f"  {field.name:14} {'(default)' if value is None else value}")


@app.command()
def schema() -> None:
    """Print the JSON Schema of the script format (for editors that check YAML as you type)."""
    import json

    from narrator.script.schema import script_schema
    typer.echo(json.dumps(script_schema(), indent=2))


@app.command()
def options(game: str = typer.Argument(..., help="A game or a script path.")) -> None:
    """List GAME's rule options: name, type, allowed values, default and meaning."""
    info = _game(game)[0]
    declared = info.rules.options.declared
    if not declared:
        typer.echo(f"{info.title} has no options.")
    for o in declared:
        default = str(o.default).lower() if isinstance(o.default, bool) else o.default
        typer.echo(f"{o.name}  ({o.kind}: {o.allowed()}; default {default})\n    {o.meaning}")


@app.command()
def check(path: Optional[Path] = typer.Argument(None, help="A script file or folder, or a folder "
                                                           "of them (default: the built-in games).")
          ) -> None:
    """Check that game scripts are playable; print each problem as file:line: NSxxx message."""
    from narrator.rules.playable import check_path
    from narrator.script.loader import find_script
    root = path or find_script(None)
    if not root.exists():
        fail(f"{root} does not exist: give a script file or folder, or a folder of them")
    problems = check_path(root)
    for problem in problems:
        typer.echo(str(problem))
    if problems:
        raise typer.Exit(1)
    typer.echo("No problems found.")


@app.command()
def graph(game: str = typer.Argument(..., help="A game or a script path."), fmt: str = typer.Option("mermaid", "--format", help="mermaid or dot.")) -> None:
    """Print GAME's track graph (Mermaid or Graphviz DOT)."""
    from narrator.script.graph import to_dot, to_mermaid
    if fmt not in ("mermaid", "dot"):
        fail("--format is mermaid or dot")
    _, script, _ = _game(game)
    typer.echo(to_mermaid(script) if fmt == "mermaid" else to_dot(script))


@app.command()
def voices(language: Optional[str] = typer.Option(None, "--language", "-l",
                                                  help="Only voices whose language starts so, e.g. en."),
           sample: Optional[str] = typer.Option(None, "--try", metavar="VOICE",
                                                help="Play a sample of VOICE (an engine, "
                                                     "engine:voice or a voice).")) -> None:
    """List every speech engine and voice with its licence (use one with --voice)."""
    from narrator.voice.voices import play_sample, voice_lines
    try:
        lines = [play_sample(sample)] if sample else voice_lines(language)
    except RuntimeError as exc:
        fail(str(exc))
        raise
    typer.echo("\n".join(lines))


@app.command()
def devices() -> None:
    """List the sound devices by name (use one with --output-device or --input-device)."""
    from narrator.session.devices import device_lines
    try:
        typer.echo("\n".join(device_lines()))
    except RuntimeError as exc:
        fail(str(exc))


@app.command("render")
def render_tracks(game: str = typer.Argument(..., help="A game or a script path."), out: Path = typer.Option(..., "--out", help="Folder for Track01.wav ..."),
                  voice: Optional[str] = typer.Option(None, "--voice", help="See narrator voices."),
                  rate: Optional[float] = typer.Option(None, "--rate", help="0.5 to 3 (default 1).")) -> None:
    """Write GAME's audio tracks, one WAV per track, rebuilt from its script."""
    from narrator.settings import load_settings, with_options
    from narrator.understand import counted
    from narrator.voice.render_tracks import render_with_progress
    from narrator.voice.tts import TtsError
    try:
        settings = with_options(load_settings(), voice=voice, rate=rate)
        paths = render_with_progress(_game(game)[1], out, settings.voice, settings.rate,
                                     plain=plain_output())
    except (ValueError, TtsError) as exc:
        fail(str(exc))
        raise
    typer.echo(f"{counted(len(paths), 'track')} written to {out}")


@app.command()
def hear(files: list[Path] = typer.Argument(..., help="Sound files, one utterance each."),
         engine: str = typer.Option("whisper", "--engine",
                                    help="whisper, pocketsphinx or vosk."),
         game: Optional[str] = typer.Option(None, "--game", help="Listen for what GAME asks "
                                                                  "first (default: every command)."),
         model: Optional[str] = Model, denoise: Optional[bool] = Denoise,
         as_json: bool = typer.Option(False, "--json", help="One JSON line per file.")) -> None:
    """What the recogniser hears in recorded clips, and the command it would act on. A file
    that cannot be heard gets one error line; the others are still heard (exit status 1)."""
    import json

    from narrator.voice.asr import make_recognizer
    from narrator.voice.hear import hear_files
    failed = False
    try:
        for r in hear_files(make_recognizer(engine, model), files, game, denoise is not False):
            failed = failed or "error" in r
            typer.echo(json.dumps(r) if as_json else
                       f"{r['file']}: error: {r['error']}" if "error" in r else
                       f"{r['file']}: {r['command'] or '-'} (heard {r['text']!r}, "
                       f"confidence {r['confidence']:.2f}, {r['ms']:.0f} ms)")
    except (KeyError, ValueError, RuntimeError) as exc:
        fail(str(exc))
    if failed:
        raise typer.Exit(1)


@app.command()
def models(model: Optional[str] = typer.Option(None, "--model", help="A vosk model folder.")) -> None:
    """Which speech-recognition models are installed, and how to add vosk's English model."""
    from narrator.voice.models import report
    typer.echo("\n".join(report(model)))


def run() -> None:
    """The ``narrator`` program. Once its command is done, Ctrl-C no longer interrupts the
    clean-up Python runs on the way out (Festival stopped, the audio device closed), which
    would print a traceback: a table pressing it as the game ends saw one."""
    try:
        app(prog_name="narrator")
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
