"""The ``narrator`` command line (Typer)."""

from __future__ import annotations

import functools
import inspect
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from narrator.cli_errors import BoundaryGroup, saved_line, session_started
from narrator.dice import Roller
from narrator.rules import registry
from narrator.rules.base import RulesInfo
from narrator.rules.options import OptionError
from narrator.script.loader import ScriptError, find_script, load_script
from narrator.session.console import Captions, TextEars
from narrator.session.journal import Journal, inputs_of
from narrator.session.loop import ReplayError, Session, run
from narrator.session.resume import find_session, new_session_path, save_dir

app = typer.Typer(cls=BoundaryGroup, help="Runs a tabletop game hands-free: reads its script aloud, listens for "
                       "commands and dice results, offline.", no_args_is_help=True)

SaveDir = typer.Option(None, "--save-dir", help="Where sessions are saved "
                                                "(default: $NARRATOR_SAVE_DIR or the user data folder).")
InputMode = typer.Option("voice", "--input", help="voice (microphone) or text (type on stdin).")
Confirm = typer.Option(None, "--confirm/--no-confirm",
                       help="Read dice and success results back for a yes before they count "
                            "(default: on with voice, off with text).")
Speech = typer.Option(None, "--speak/--quiet",
                      help="Speak aloud, or captions only (default: speak with voice input).")
Seed = typer.Option(None, "--seed", help="Seed for the app's own dice (for repeatable tests).")
Model = typer.Option(None, "--model", help="A vosk model folder (see narrator models).")
Denoise = typer.Option(None, "--denoise/--no-denoise",
                       help="Take a noisy room's noise out of the microphone (RNNoise; default on).")
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
                                 help="Recogniser: pocketsphinx (built in) or vosk.")),
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
    typer.secho(message, fg="red", err=True)
    raise typer.Exit(1)


def _game(name: str) -> RulesInfo:
    try:
        return registry.get(name)
    except KeyError as exc:
        fail(str(exc.args[0]))
        raise


def _script(info: RulesInfo):
    try:
        return load_script(find_script(info.rules.script))
    except ScriptError as exc:
        fail("the game script has problems:\n" + "\n".join(map(str, exc.diagnostics)))
        raise


def _options(info: RulesInfo, pairs: list[str]) -> dict[str, Any]:
    """``key=value`` options checked against the game's typed options (defaults filled in)."""
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
          devices: dict[str, Any], first: list | None = None) -> None:
    if input_mode not in ("voice", "text"):
        fail("--input is voice or text")
    captions = Captions()
    ears, mouth = TextEars(captions=captions), None
    if input_mode == "voice" or speech:
        from narrator.session.devices import open_devices
        ears, mouth = open_devices(input_mode == "voice", speech is not False, ears,
                                   _settings(**devices), captions)
    try:
        ended = run(session, ears, captions, journal, mouth, first)
    finally:
        journal.close()
        if mouth is not None:
            mouth.close()
        if hasattr(ears, "close"):
            ears.close()
    if not ended:
        typer.echo(saved_line())


@app.command()
@with_device_options
def play(game: str = typer.Argument(..., help="The game: see narrator games."),
         option: list[str] = typer.Option([], "--option", "-o", help="A rule option key=value."),
         input_mode: str = InputMode, confirm: Optional[bool] = Confirm, speech: Optional[bool] = Speech,
         seed: Optional[int] = Seed, save: Optional[Path] = SaveDir,
         devices: Optional[dict] = None) -> None:
    """Start a new session of GAME."""
    info = _game(game)
    script = _script(info)
    options = _options(info, option)
    session = Session(info, script, options, confirm=_confirming(confirm, input_mode),
                      roller=Roller(seed))
    journal = Journal.create(new_session_path(save_dir(save), info.rules.name),
                             info.rules.name, options)
    session_started(journal.name)
    _play(session, journal, input_mode, speech, devices)


@app.command()
@with_device_options
def resume(session_name: Optional[str] = typer.Argument(None, metavar="SESSION",
                                                        help="A saved session (default: the last)."),
           input_mode: str = InputMode, confirm: Optional[bool] = Confirm,
           speech: Optional[bool] = Speech, seed: Optional[int] = Seed,
           save: Optional[Path] = SaveDir, devices: Optional[dict] = None) -> None:
    """Go on with a saved session where it stopped."""
    path, notes = find_session(save_dir(save), session_name)
    journal, loaded = Journal.reopen(path)
    session_started(journal.name)
    try:
        for note in notes + loaded.warnings:
            typer.secho(note, fg="yellow", err=True)
        info = _game(loaded.game)
        try:
            options = info.rules.options.check(loaded.options)
        except OptionError as exc:
            fail(f"{path}: its saved options are refused: {exc}")
            raise
        session = Session(info, _script(info), options,
                          confirm=_confirming(confirm, input_mode), roller=Roller(seed))
        try:
            session.replay(inputs_of(loaded.records))
        except ReplayError as exc:
            fail(f"{path}: {exc}")
    except BaseException:
        journal.close()
        raise
    _play(session, journal, input_mode, speech, devices, session.resumed())


def _confirming(confirm: Optional[bool], input_mode: str) -> bool:
    return confirm if confirm is not None else input_mode == "voice"


@app.command()
def games() -> None:
    """List the games narrator can run."""
    for name in registry.names():
        info = registry.get(name)
        typer.echo(f"{name:18} {info.title}: {info.summary}")


@app.command()
def check(path: Optional[Path] = typer.Argument(None, help="A script folder or a folder of them "
                                                           "(default: the shipped scripts).")) -> None:
    """Check game scripts; print each problem as file:line: code message."""
    from narrator.rules.half_chance import lint_cards
    from narrator.script.lint import lint_path, script_folders
    root = path or find_script(None)
    if not root.is_dir():
        fail(f"{root} is not a folder: give a script folder, or a folder of them")
    problems = [str(p) for p in lint_path(root)]
    folders = script_folders(root) or [root]
    problems += [p for folder in folders for p in lint_cards(folder)]
    problems = list(dict.fromkeys(problems))  # the card check re-reads unparsable files
    for problem in problems:
        typer.echo(problem)
    if problems:
        raise typer.Exit(1)
    typer.echo("No problems found.")


@app.command()
def graph(game: str, fmt: str = typer.Option("mermaid", "--format", help="mermaid or dot.")) -> None:
    """Print GAME's track graph (Mermaid or Graphviz DOT)."""
    from narrator.script.graph import to_dot, to_mermaid
    if fmt not in ("mermaid", "dot"):
        fail("--format is mermaid or dot")
    script = _script(_game(game))
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
def render_tracks(game: str, out: Path = typer.Option(..., "--out", help="Folder for Track01.wav ..."),
                  voice: Optional[str] = typer.Option(None, "--voice", help="See narrator voices."),
                  rate: Optional[float] = typer.Option(None, "--rate", help="0.5 to 3 (default 1).")) -> None:
    """Write GAME's audio tracks, one WAV per track, rebuilt from its script."""
    from narrator.settings import load_settings, with_options
    from narrator.voice.render_tracks import render_with_progress
    from narrator.voice.tts import TtsError
    try:
        settings = with_options(load_settings(), voice=voice, rate=rate)
        paths = render_with_progress(_script(_game(game)), out, settings.voice, settings.rate)
    except (ValueError, TtsError) as exc:
        fail(str(exc))
        raise
    typer.echo(f"{len(paths)} tracks written to {out}")


@app.command()
def hear(files: list[Path] = typer.Argument(..., help="WAV files, one utterance each."),
         engine: str = typer.Option("pocketsphinx", "--engine", help="pocketsphinx or vosk."),
         game: Optional[str] = typer.Option(None, "--game", help="Listen for what GAME asks "
                                                                  "first (default: every command)."),
         model: Optional[str] = Model, denoise: Optional[bool] = Denoise,
         as_json: bool = typer.Option(False, "--json", help="One JSON line per file.")) -> None:
    """What the recogniser hears in recorded clips, and the command it would act on."""
    import json

    from narrator.voice.asr import make_recognizer
    from narrator.voice.hear import hear_files
    try:
        records = hear_files(make_recognizer(engine, model), files, game, denoise is not False)
        for r in records:
            typer.echo(json.dumps(r) if as_json else
                       f"{r['file']}: {r['command'] or '-'} (heard {r['text']!r}, "
                       f"confidence {r['confidence']:.2f}, {r['ms']:.0f} ms)")
    except (KeyError, ValueError, RuntimeError) as exc:
        fail(str(exc))


@app.command()
def models(model: Optional[str] = typer.Option(None, "--model", help="A vosk model folder.")) -> None:
    """Which speech-recognition models are installed, and how to add vosk's English model."""
    from narrator.voice.models import report
    typer.echo("\n".join(report(model)))
