"""Text to speech: an engine (``engines``) renders each sentence once to a cached WAV file.

Each engine lives in one thread of its own (``tts_thread(name)``), shared by the whole process:
pyttsx3 hangs when driven from several threads, Festival is one process fed in order. Every
call into that thread has a timeout; a timeout raises ``TtsError`` and marks the engine as
stuck, so callers report and go on instead of freezing.

Cache: ``$NARRATOR_CACHE/speech`` or ``user_cache_dir("narrator")/speech``; one file per
(text, voice, rate factor, engine and version).
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import re
import sys
import threading
import uuid
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any, Callable

from platformdirs import user_cache_dir

from narrator.voice.engines import Engine, EngineError, VoiceInfo, parse_voice, spec

INSTALL_HINT = {
    "linux": "install espeak-ng (apt install espeak-ng) or festival festvox-us-slt-hts",
    "darwin": "check System Settings > Accessibility > Spoken Content",
    "win32": "check Windows speech voices (Settings > Time & Language > Speech)",
}.get(sys.platform, "install espeak-ng")


SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


class TtsError(RuntimeError):
    """The speech engine is missing, failed, or did not answer in time."""


def sentences(text: str) -> list[str]:
    """``text`` cut after each sentence's final stop: the unit that is rendered and cached."""
    cuts = [m.end() for m in SENTENCE_END.finditer(text)]
    return [part.strip() for part in (text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)]))
            if part.strip()]


CLAUSE_END = re.compile(r"[,;:]\s+|\s+[-\u2013\u2014]+\s+")
CLAUSE_WORDS = 4  # a first clause is cut off only with this many words on each side


def first_clause(sentence: str) -> list[str]:
    """``sentence`` as its first clause and the rest, so the first words of a reading need not
    wait for a long sentence to render; whole when no clause break leaves CLAUSE_WORDS words on
    each side."""
    for match in CLAUSE_END.finditer(sentence):
        head, rest = sentence[:match.start() + 1].strip(), sentence[match.end():].strip()
        if len(head.split()) >= CLAUSE_WORDS and len(rest.split()) >= CLAUSE_WORDS:
            return [head, rest]
    return [sentence]


class _TtsThread:
    """The one thread that touches the speech engine; jobs run in order."""

    def __init__(self, make: Callable[[], Engine], name: str = "tts") -> None:
        self._jobs: queue.Queue[tuple[Callable[[Engine], Any], Future]] = queue.Queue()
        self.stuck: str | None = None
        self._thread = threading.Thread(target=self._run, args=(make,), name=name, daemon=True)
        self._thread.start()

    def _run(self, make: Callable[[], Engine]) -> None:
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
            except EngineError as exc:
                fut.set_exception(TtsError(str(exc)))
            except BaseException as exc:
                fut.set_exception(exc)

    def submit(self, fn: Callable[[Engine], Any]) -> Future:
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

    def call(self, fn: Callable[[Engine], Any], timeout: float) -> Any:
        return self.wait(self.submit(fn), timeout)


_THREADS: dict[str, _TtsThread] = {}
_THREAD_LOCK = threading.Lock()


def tts_thread(engine: str) -> _TtsThread:
    """The process's thread for ``engine`` (started on first use)."""
    with _THREAD_LOCK:
        if engine not in _THREADS:
            _THREADS[engine] = _TtsThread(spec(engine).make, f"tts-{engine}")
        return _THREADS[engine]


def cache_dir() -> Path:
    """Where rendered speech is kept."""
    root = os.environ.get("NARRATOR_CACHE") or user_cache_dir("narrator")
    return Path(root) / "speech"


def cache_key(text: str, voice: str | None, rate: float, engine_id: str) -> str:
    """The file name stem for one rendering; changes with any of its inputs."""
    blob = json.dumps([text, voice or "", round(float(rate), 3), engine_id], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


class Renderer:
    """Renders text to cached WAV files with one engine and voice, through its thread.

    ``voice`` is the ``--voice`` setting: an engine, ``engine:voice`` or a voice name (see
    ``engines.parse_voice``); None is the best installed engine's default voice."""

    def __init__(self, voice: str | None = None, cache: Path | None = None,
                 timeout: float = 20.0, thread: _TtsThread | None = None) -> None:
        self.engine, self.voice = parse_voice(voice) if thread is None else ("test", voice)
        self.cache = cache or cache_dir()
        self.timeout = timeout
        self._engine = thread or tts_thread(self.engine)
        self._pending: dict[Path, Future] = {}
        self._lock = threading.RLock()
        self.engine_id = self._engine.call(lambda b: b.engine_id, timeout)

    def warm(self) -> None:
        """Load the voice in the background (the first sentence then starts sooner)."""
        voice = self.voice
        self._engine.submit(lambda b: b.warm(voice))

    def voices(self) -> list[VoiceInfo]:
        """Every voice of the engine."""
        return self._engine.call(lambda b: b.voices(), self.timeout)

    def path_for(self, text: str, rate: float = 1.0) -> Path:
        """Where the rendering of ``text`` is (or will be) cached."""
        return self.cache / f"{cache_key(text, self.voice, rate, self.engine_id)}.wav"

    def _start(self, text: str, rate: float) -> tuple[Path, Future | None]:
        path = self.path_for(text, rate)
        with self._lock:
            fut = self._pending.get(path)
            if fut is None and not path.exists():
                voice = self.voice

                def job(backend: Engine) -> None:
                    self.cache.mkdir(parents=True, exist_ok=True)
                    tmp = path.with_name(f"{path.stem}.{uuid.uuid4().hex}.tmp")
                    try:
                        backend.synth(text, voice, rate, tmp)
                        os.replace(tmp, path)
                    finally:
                        tmp.unlink(missing_ok=True)

                fut = self._pending[path] = self._engine.submit(job)
                fut.add_done_callback(lambda _f: self._forget(path))  # may run at once
        return path, fut

    def _forget(self, path: Path) -> None:
        with self._lock:
            self._pending.pop(path, None)

    def prefetch(self, text: str, rate: float = 1.0) -> None:
        """Start rendering ``text`` in the background (nothing to wait for)."""
        self._start(text, rate)

    def cancel_prefetch(self) -> None:
        """Drop the renderings queued but not started (what was said is no longer wanted)."""
        with self._lock:
            for fut in list(self._pending.values()):
                fut.cancel()

    def render(self, text: str, rate: float = 1.0) -> Path:
        """The cached WAV of ``text``, rendering it first if needed. Raises TtsError."""
        path, fut = self._start(text, rate)
        if fut is not None:
            self._engine.wait(fut, self.timeout)
        return path
