"""Text to speech: pyttsx3 renders each text once to a cached WAV file.

The speech engine lives in one thread of its own (``tts_thread()``), shared by the whole
process: pyttsx3 hangs when driven from several threads, and its event loop (``runAndWait``)
can fail to return. Every call into that thread has a timeout; a timeout raises ``TtsError``
and marks the engine as stuck, so callers report and go on instead of freezing.

On Linux pyttsx3's default engine is espeak-ng. Its pyttsx3 driver runs espeak in
asynchronous mode, where ``save_to_file`` may return before the file exists and a rate change
applies one utterance late; so on espeak we drive pyttsx3's own espeak-ng binding in
synchronous mode, which is exact and takes a few milliseconds a sentence. Other platforms
(SAPI5, NSSpeechSynthesizer) use pyttsx3's public ``save_to_file``.

Cache: ``$NARRATOR_CACHE/speech`` or ``user_cache_dir("narrator")/speech``; one file per
(text, voice, rate in words a minute, engine version).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import queue
import sys
import threading
import uuid
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np
import soundfile as sf
from platformdirs import user_cache_dir

INSTALL_HINT = {
    "linux": "install espeak-ng (apt install espeak-ng)",
    "darwin": "check System Settings > Accessibility > Spoken Content",
    "win32": "check Windows speech voices (Settings > Time & Language > Speech)",
}.get(sys.platform, "install espeak-ng")


class TtsError(RuntimeError):
    """The speech engine is missing, failed, or did not answer in time."""


@dataclass(frozen=True)
class VoiceInfo:
    """One voice the engine offers."""

    id: str
    name: str
    languages: tuple[str, ...] = ()


class _Backend(Protocol):
    engine_id: str
    default_rate: int

    def voices(self) -> list[VoiceInfo]: ...

    def synth(self, text: str, voice: str | None, wpm: int, path: Path) -> None: ...


class _Espeak:
    """espeak-ng through pyttsx3's binding, in synchronous mode (no event loop to hang)."""

    default_rate = 175  # espeakRATE_NORMAL, words a minute
    default_voice = b"en"

    def __init__(self) -> None:
        from pyttsx3.drivers import _espeak  # raises when libespeak-ng is missing

        self._es = _espeak
        self.samplerate = _espeak.Initialize(_espeak.AUDIO_OUTPUT_SYNCHRONOUS, 500)
        if self.samplerate <= 0:
            raise TtsError("espeak-ng could not start")
        self.engine_id = f"espeak-ng {_espeak.Info(None).decode()} {self.samplerate}"
        self._chunks: list[bytes] = []
        _espeak.SetSynthCallback(self._collect)

    def _collect(self, wav: Any, count: int, events: Any) -> int:
        if count > 0:
            self._chunks.append(ctypes.string_at(wav, count * 2))
        return 0

    def voices(self) -> list[VoiceInfo]:
        return [
            VoiceInfo(v.identifier.decode(), v.name.decode(),
                      (v.languages[1:].decode(errors="ignore"),) if v.languages else ())
            for v in self._es.ListVoices(None)
        ]

    def synth(self, text: str, voice: str | None, wpm: int, path: Path) -> None:
        es = self._es
        name = voice.encode() if voice else self.default_voice
        if es.SetVoiceByName(name) != es.EE_OK:
            raise TtsError(f"no voice {voice!r} (see `narrator voices`)")
        es.SetParameter(es.RATE, wpm, 0)
        self._chunks = []
        if es.Synth(text, flags=es.ENDPAUSE | es.CHARS_UTF8) != es.EE_OK:
            raise TtsError("espeak-ng failed to speak")
        samples = np.frombuffer(b"".join(self._chunks), dtype=np.int16)
        sf.write(path, samples, self.samplerate, format="WAV", subtype="PCM_16")


class _Pyttsx3:
    """pyttsx3's public API, for the engines other than espeak."""

    def __init__(self) -> None:
        import pyttsx3

        self._engine = pyttsx3.init()
        self.default_rate = int(self._engine.getProperty("rate"))
        self.engine_id = f"pyttsx3 {self._engine} {getattr(pyttsx3, '__version__', '?')}"

    def voices(self) -> list[VoiceInfo]:
        return [VoiceInfo(v.id, v.name, tuple(str(x) for x in v.languages or ()))
                for v in self._engine.getProperty("voices")]

    def synth(self, text: str, voice: str | None, wpm: int, path: Path) -> None:
        if voice:
            self._engine.setProperty("voice", voice)
        self._engine.setProperty("rate", wpm)
        self._engine.save_to_file(text, str(path))
        self._engine.runAndWait()
        if not path.exists():
            raise TtsError(f"{self.engine_id} wrote no audio")


def _make_backend() -> _Backend:
    import pyttsx3.engine

    if pyttsx3.engine.default_engine_by_sys_platform() == "espeak":
        return _Espeak()
    return _Pyttsx3()


class _TtsThread:
    """The one thread that touches the speech engine; jobs run in order."""

    def __init__(self, make: Callable[[], _Backend] = _make_backend) -> None:
        self._jobs: queue.Queue[tuple[Callable[[_Backend], Any], Future]] = queue.Queue()
        self.stuck: str | None = None
        self._thread = threading.Thread(target=self._run, args=(make,), name="tts", daemon=True)
        self._thread.start()

    def _run(self, make: Callable[[], _Backend]) -> None:
        try:
            backend = make()
            failure: BaseException | None = None
        except Exception as exc:  # engine missing: every job reports it
            failure = TtsError(f"no speech engine ({exc}); {INSTALL_HINT}")
        while True:
            fn, fut = self._jobs.get()
            if not fut.set_running_or_notify_cancel():
                continue
            if failure is not None:
                fut.set_exception(failure)
                continue
            try:
                fut.set_result(fn(backend))
            except BaseException as exc:
                fut.set_exception(exc)

    def submit(self, fn: Callable[[_Backend], Any]) -> Future:
        """Queue ``fn(backend)`` on the engine thread."""
        fut: Future = Future()
        if self.stuck:
            fut.set_exception(TtsError(self.stuck))
        else:
            self._jobs.put((fn, fut))
        return fut

    def wait(self, fut: Future, timeout: float) -> Any:
        """The job's result; TtsError (and the engine marked stuck) after ``timeout`` seconds."""
        try:
            return fut.result(timeout)
        except FutureTimeout:
            self.stuck = f"the speech engine did not answer within {timeout:g} s"
            raise TtsError(self.stuck) from None

    def call(self, fn: Callable[[_Backend], Any], timeout: float) -> Any:
        return self.wait(self.submit(fn), timeout)


_THREAD: _TtsThread | None = None
_THREAD_LOCK = threading.Lock()


def tts_thread() -> _TtsThread:
    """The process's speech-engine thread (started on first use)."""
    global _THREAD
    with _THREAD_LOCK:
        if _THREAD is None:
            _THREAD = _TtsThread()
        return _THREAD


def cache_dir() -> Path:
    """Where rendered speech is kept."""
    root = os.environ.get("NARRATOR_CACHE") or user_cache_dir("narrator")
    return Path(root) / "speech"


def cache_key(text: str, voice: str | None, wpm: int, engine_id: str) -> str:
    """The file name stem for one rendering; changes with any of its inputs."""
    blob = json.dumps([text, voice or "", int(wpm), engine_id], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


class Renderer:
    """Renders text to cached WAV files through the engine thread."""

    def __init__(self, cache: Path | None = None, timeout: float = 20.0,
                 engine: _TtsThread | None = None) -> None:
        self.cache = cache or cache_dir()
        self.timeout = timeout
        self._engine = engine or tts_thread()
        self._pending: dict[Path, Future] = {}
        self._lock = threading.RLock()
        self.engine_id, self.default_rate = self._engine.call(
            lambda b: (b.engine_id, b.default_rate), timeout)

    def voices(self) -> list[VoiceInfo]:
        """Every voice of the engine."""
        return self._engine.call(lambda b: b.voices(), self.timeout)

    def wpm(self, rate: float) -> int:
        """Words a minute for a rate factor."""
        return max(1, round(self.default_rate * rate))

    def path_for(self, text: str, voice: str | None = None, rate: float = 1.0) -> Path:
        """Where the rendering of ``text`` is (or will be) cached."""
        return self.cache / f"{cache_key(text, voice, self.wpm(rate), self.engine_id)}.wav"

    def _start(self, text: str, voice: str | None, rate: float) -> tuple[Path, Future | None]:
        path = self.path_for(text, voice, rate)
        with self._lock:
            fut = self._pending.get(path)
            if fut is None and not path.exists():
                wpm = self.wpm(rate)

                def job(backend: _Backend) -> None:
                    self.cache.mkdir(parents=True, exist_ok=True)
                    tmp = path.with_name(f"{path.stem}.{uuid.uuid4().hex}.tmp")
                    try:
                        backend.synth(text, voice, wpm, tmp)
                        os.replace(tmp, path)
                    finally:
                        tmp.unlink(missing_ok=True)

                fut = self._pending[path] = self._engine.submit(job)
                fut.add_done_callback(lambda _f: self._forget(path))  # may run at once
        return path, fut

    def _forget(self, path: Path) -> None:
        with self._lock:
            self._pending.pop(path, None)

    def prefetch(self, text: str, voice: str | None = None, rate: float = 1.0) -> None:
        """Start rendering ``text`` in the background (nothing to wait for)."""
        self._start(text, voice, rate)

    def cancel_prefetch(self) -> None:
        """Drop the renderings queued but not started (what was said is no longer wanted)."""
        with self._lock:
            for fut in list(self._pending.values()):
                fut.cancel()

    def render(self, text: str, voice: str | None = None, rate: float = 1.0) -> Path:
        """The cached WAV of ``text``, rendering it first if needed. Raises TtsError."""
        path, fut = self._start(text, voice, rate)
        if fut is not None:
            self._engine.wait(fut, self.timeout)
        return path
