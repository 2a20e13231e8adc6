"""Barge-in benchmark: the table talking over the narrator in a PulseAudio room.

    python bench/bargein.py [--part erle|commands|idle|clocks|replay|all] [--voices N|V1,V2,...]
                            [--engine NAME] [--idle-minutes M] [--out DIR] [--recancel]

The room (tests/audio_room.py) is one null sink: the narrator plays Slow Burn into it, the
players' synthesized voices are mixed into it with ``paplay`` (their speech as loud as the
narrator's, 0 dB, and 6 dB under it), and the microphone is its monitor, so the narrator hears
itself as a laptop does at a table.

* ``erle``: the narrator reads Track 1 for 20 s with nobody speaking; echo return loss
  enhancement (capture power over cancelled power, dB, over the seconds in which the
  narrator is heard, after the first 5 s), the output → capture delay the tracker settles on,
  and the canceller's CPU time as a share of one core.
* ``commands``: the whole session loop reads Track 1 (from its start for each trial);
  "pause", "next", "stop" and "repeat" are said over the narration by ``--voices`` voices at
  each level (a number: that many of tests/clips.py's voices, spread over the list; or their
  names, e.g. ``flite:rms,espeak:en-gb``; flite's slt is the same speaker, CMU's SLT, as the
  narrator's default Festival voice). Acted: the loop did what the word asks (paused; went to
  the question; read the passage again) within 5 s. Latency: end of the word (the clip's last
  loud 10 ms, found in the capture by cross-correlation) to the narration stopping (its
  last 0.8 s before the speaker was told to stop, skip or pause, found in the raw capture
  the same way), p50/p95: both ends in the one captured stream, as the table hears them.
  Also printed as measured up to stop 44, "by the clocks": the word's end on the capture's
  clock to the stop call plus the output stream's latency on the speaker's (the two clocks
  disagree by 30-150 ms from run to run). Each trial prints what the ears handed the loop (and in
  which mode), what the recogniser decoded meanwhile (free text -> the phrase chosen,
  confidence, utterance length) and, when it missed, the captions shown; the capture before
  and after the canceller, what was played and the trials are kept in ``--out``
  (commands_*.wav/.npy, with what the narrator said when: commands_said.npy, and what the
  canceller was fed: commands_feed.npz).
* ``replay`` (not in ``all``; no room): the ``commands`` recording in ``--out`` again, offline,
  through the ears as the code has them now (the frames the recogniser heard, AEC3's output
  for the endpointer, the capture times, and the narrator's timed words for the guard): the
  share acted at each level, each miss with what was handed to the loop near it, and what was
  handed to the loop away from the words. It reproduces a run's outcome in a couple of minutes,
  so a change to the endpointer, recogniser or guard can be tried on many runs before one is
  played again. (The loop's own reactions are not replayed: what a trial's command would have
  stopped goes on in the recording.) With ``--recancel`` the capture goes through the echo
  canceller as the code has it now first, fed exactly as in the run (commands_feed.npz: every
  frame and every write to the reference, in the order they came; the same code gives the
  same samples), so a change to the canceller can be tried on recordings too.
* ``idle``: the loop reads with nobody speaking for ``--idle-minutes`` (Track 1 again from its
  start whenever it reaches the question); every utterance the ears hand to the loop (a
  command acted on, an answer held or "didn't catch that") is a self-trigger; the count is
  scaled to an hour. Each is printed with what the recogniser decoded and whether it would
  be read back; its audio (capture, cancelled, played) is kept in ``--out`` (idle_N_*.wav).
* ``clocks``: the self-trigger guard's two clocks, compared: the Track 1 question is said 4
  times with the microphone read only 1.5 s after each; when the speaker says its last loud
  sample is heard, against the capture stamp of the last loud frame (ms; near 0 is right).

Figures depend on the machine's load: say so when reporting them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import clips  # noqa: E402
from audio_room import audio_room  # noqa: E402
from narrator.events import Said  # noqa: E402
from narrator.rules import registry  # noqa: E402
from narrator.script.loader import find_script, load_script  # noqa: E402
from narrator.session.game import Session  # noqa: E402
from narrator.session.loop import PAUSED, Table  # noqa: E402
from narrator.settings import Settings  # noqa: E402
from narrator.voice.echo import PLAYED, Cleaned, EchoCanceller, OutputReference  # noqa: E402
from narrator.voice.echo_likeness import Recent  # noqa: E402
from narrator.voice.asr import load_recognizer  # noqa: E402
from narrator.voice.listener import Ears  # noqa: E402
from narrator.voice.mic import FRAME, RATE, Mic  # noqa: E402
from narrator.voice.spoken import Echo, Spoken  # noqa: E402
from narrator.understand import understand  # noqa: E402

COMMANDS = ("pause", "next", "stop", "repeat")
LEVELS = (0.0, -6.0)  # dB of the player's speech relative to the narrator's
ACT_WITHIN = 5.0
SETTLE = 3.0  # seconds of reading before a command is said
PAPLAY_LATE = 0.14  # seconds paplay returns after the end of its sound was captured (median)
CLOSE_STEP = 0.5  # seconds the bench's ears listen at a time, so a table it closes stops
CONVERGE = 5  # seconds the canceller is given to find the delay and adapt
STATES = ("[reading]", "[listening]", PAUSED)
AGAIN = "(again) "  # how the speaker captions a sentence said again
LAST_HEARD = 0.8  # seconds of the narration before a stop that place its end in the capture
CLOCKS_APART = 0.3  # seconds it is looked for either side of where the clocks put it (they
# were 0.03-0.15 s apart)
LOUD = 0.01  # RMS (full scale 1) over which a block counts as the narrator's sound (clocks)


def slow_burn() -> Session:
    info = registry.get("slow-burn")
    return Session(info, load_script(find_script(info.rules.script)), info.rules.options)


def speech_level(samples: np.ndarray) -> float:
    """RMS over the loud part (within 30 dB of the peak)."""
    loud = np.abs(samples) > 0.03 * np.abs(samples).max()
    return float(np.sqrt(np.mean(samples[loud] ** 2)))


def word_end(samples: np.ndarray, rate: int) -> float:
    """Seconds into a clip at which its speech ends (its last loud 10 ms)."""
    step = rate // 100
    levels = [np.abs(samples[i:i + step]).max() for i in range(0, len(samples) - step, step)]
    peak = max(levels)
    last = max(i for i, level in enumerate(levels) if level > 0.05 * peak)
    return (last + 1) * step / rate


def located(capture: np.ndarray, starts: np.ndarray, samples: np.ndarray, near: float,
            before: float, after: float) -> float | None:
    """When ``samples`` began in the capture, on the capture's clock: where they correlate
    best with the capture from ``before`` s before ``near`` to ``after`` s after it.
    ``starts``: the capture time of each 30 ms frame's first sample."""
    first = int(np.searchsorted(starts, near - before))
    span = capture[first * FRAME:int(np.searchsorted(starts, near + after)) * FRAME]
    if first >= len(starts) or len(span) <= len(samples):
        return None
    size = len(span) + len(samples)
    match = np.fft.irfft(np.fft.rfft(span, size) * np.conj(np.fft.rfft(samples, size)), size)
    at = int(np.argmax(np.abs(match[:len(span) - len(samples) + 1])))
    return float(starts[first] + at / RATE)


def heard_end(capture: np.ndarray, starts: np.ndarray, clip: Path, end: float,
              near: float) -> float | None:
    """When the word in ``clip`` (its speech ending ``end`` s in) ended in the capture, on the
    capture's clock: where the clip is found from 2.5 s before ``near`` to 1.5 s after
    (``paplay`` returns about PAPLAY_LATE after its sound was captured)."""
    samples, _ = sf.read(clip, dtype="float64")
    began = located(capture, starts, samples, near, 2.5, 1.5)
    return None if began is None else began + end


def silent_from(capture: np.ndarray, starts: np.ndarray, last: float) -> float | None:
    """When the narration fell silent in the capture, on the capture's clock: ``last`` is when
    the last sound played before the stop is heard, on the clock of what was played
    (``PLAYED``); the LAST_HEARD seconds of it up to then are found in the capture, as a word
    is. Both ends of the latency are so measured in the one captured stream: the capture's
    time stamps and the speaker's disagree by 30-150 ms (docs/barge-in.md, "Stop 44,
    afternoon")."""
    played = PLAYED.read(last - LAST_HEARD, round(LAST_HEARD * RATE)).astype(np.float64)
    if not played.any():
        return None
    began = located(capture, starts, played, last - LAST_HEARD, CLOCKS_APART,
                    CLOCKS_APART + LAST_HEARD)
    return None if began is None else began + LAST_HEARD


class Levels:
    """Player clips scaled to the narrator's speech level (measured on its own voice)."""

    def __init__(self, folder: Path, narrator_level: float) -> None:
        self.folder, self.narrator_level = folder, narrator_level

    def clip(self, word: str, voice: str, db: float) -> tuple[Path, float]:
        """A WAV of ``word`` said by ``voice`` ``db`` relative to the narrator; its word end."""
        made = clips.make_clip(self.folder, word, word, voice, pad=0.3)
        samples, rate = sf.read(made.path, dtype="float64")
        gain = self.narrator_level / speech_level(samples) * 10 ** (db / 20)
        out = self.folder / f"{made.path.stem}.{db:+.0f}dB.wav"
        sf.write(out, np.clip(samples * gain, -1, 1), rate, subtype="PCM_16")
        return out, word_end(samples, rate)


class Watched:
    """The Speaker, noting when it was told to stop or pause, and what it said when."""

    def __init__(self, speaker) -> None:
        self._speaker = speaker
        #: (when it was told, when the last sound played before is heard: ``PLAYED``'s clock)
        self.stops: list[tuple[float, float]] = []
        self.closed = False  # the bench closed the table: what it still says is not played

    def say(self, said, **how) -> None:
        if not self.closed:
            self._speaker.say(said, **how)

    def __getattr__(self, name):
        return getattr(self._speaker, name)

    def stop(self) -> None:
        self._stopped(self._speaker.stop)

    def pause(self) -> None:
        self._stopped(self._speaker.pause)

    def skip(self) -> None:
        self._stopped(self._speaker.skip)

    def _stopped(self, how) -> None:
        told = time.monotonic()
        how()
        self.stops.append((told, PLAYED.handed_until))

    @property
    def is_speaking(self) -> bool:
        return self._speaker.is_speaking


class Injected:
    """The live ears, plus utterances the bench types (to go back to reading between trials)."""

    def __init__(self, ears) -> None:
        self.ears = ears
        self.typed: list[str] = []
        self.heard: list[tuple[float, str, str]] = []  # (when, mode, text) heard by voice
        self.placed: list[str] = []  # where each was captured, against the narrator's words
        self.spans: list[tuple[float, float, bool]] = []  # (start, end) captured; sure
        self.closing = threading.Event()

    def __getattr__(self, name):
        return getattr(self.ears, name)

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        from narrator.session.console import TextEars

        if self.typed:
            return TextEars(echo=False).typed(self.typed.pop(0), expectation, mode)
        deadline = None if timeout is None else time.monotonic() + timeout
        heard = None
        while heard is None and not self.closing.is_set():  # a closed table stops listening
            left = CLOSE_STEP if deadline is None else min(CLOSE_STEP, deadline - time.monotonic())
            if left <= 0:
                return None
            heard = self.ears.listen(expectation, mode=mode, echo=echo, timeout=left)
        if heard is not None:
            self.heard.append((time.monotonic(), mode, heard.text))
            self.placed.append(self._placed(echo))
            voice = self.ears.voice
            self.spans.append((voice.ended_at - voice.last.seconds, voice.ended_at, heard.sure))
        return heard

    def _placed(self, echo) -> str:
        """Where the last utterance was captured, against the narrator's last sentence (its
        start and end in the loop's log, the self-trigger guard's memory), in seconds."""
        voice, spoken = self.ears.voice, getattr(echo, "spoken", None)
        said = spoken._said[-1] if spoken is not None and spoken._said else None
        if said is None or voice.last is None:
            return "no sentence logged"
        text, began, ended = said
        start = voice.ended_at - voice.last.seconds
        return (f"captured {start - began:+.2f}..{voice.ended_at - began:+.2f} s from the start "
                f"of {text[-40:]!r}, which ended at "
                + (f"{ended - began:+.2f} s" if ended is not None else "(still playing)"))


class Captions:
    def __init__(self) -> None:
        self.shown: list[tuple[float, str, str]] = []

    def __call__(self, said: Said) -> None:
        self.shown.append((time.monotonic(), said.kind, said.text))

    def since(self, at: float) -> list[tuple[float, str, str]]:
        return [c for c in list(self.shown) if c[0] >= at]


class NoJournal:
    def append(self, given):
        pass

    def append_undo(self):
        pass


class Room:
    """A reading session in the room, with live ears on its monitor."""

    def __init__(self, env: dict[str, str], engine: str) -> None:
        from narrator.session.console import LiveEars
        from narrator.voice.listener import make_ears
        from narrator.voice.speaker import Speaker

        self.env = env
        self.ears = Injected(LiveEars(make_ears(Settings(input_device="pulse",
                                                         engine=engine))))
        source = self.ears.ears.voice.source  # measured from the microphone's first frames
        self.measured = source.echo = Measured(source.echo)
        self.mouth = Watched(Speaker(Settings(output_device="pulse")))
        self.captions = Captions()
        self.decoded: list[tuple[float, object]] = []  # (when, Heard): every decoding
        self.said: list[list] = []  # every sentence the tables said: [text, start, end]
        self.table: Table | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        """Load the recogniser (tracing its decodings), then read Track 1."""
        voice = self.ears.ears.voice
        if not voice.wait_ready(180):
            raise SystemExit("the recogniser did not load")
        finish = voice.recognizer.finish

        def traced():
            heard = finish()
            self.decoded.append((time.monotonic(), heard))
            return heard

        voice.recognizer.finish = traced
        self.read_track_1()

    def read_track_1(self) -> bool:
        """A new session reading Track 1 from its start (the last one, if any, ends)."""
        self.stop_table()
        self.ears.closing.clear()
        self.mouth.closed = False
        t = time.monotonic()
        self.table = Table(slow_burn(), self.ears, self.captions, NoJournal(), self.mouth)
        self.table._said = Kept(self.said)
        self.thread = threading.Thread(target=self.table.run, daemon=True)
        self.thread.start()
        return self.wait(lambda c: c[2] == "[reading]", t, 30) is not None

    def stop_table(self) -> None:
        if self.thread is None:
            return
        self.ears.closing.set()
        self.mouth.closed = True  # the rest of its passage is not read
        self.mouth._speaker.stop()  # the bench's own stop: not one the table asked for
        self.thread.join(timeout=30)
        if self.thread.is_alive():
            print("  the last table did not stop within 30 s: it may still take utterances",
                  flush=True)

    def wait(self, test, after: float, timeout: float):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [c for c in self.captions.since(after) if test(c)]
            if found:
                return found[0]
            time.sleep(0.05)
        return None

    def reading_again(self) -> bool:
        """Reading (Track 1 again from its start, unless it still reads its narration: its
        question, read after a "next" or "stop", is no narration to talk over), and heard."""
        state = [c[2] for c in self.captions.shown if c[2] in STATES][-1]
        if (state != "[reading]" or self.asking()) and not self.read_track_1():
            print(f"  the session: {[c[2][:60] for c in self.captions.shown[-6:]]}")
            return False
        return self.wait(lambda c: self.mouth.is_speaking, 0, 15) is not None

    def question(self) -> str:
        """The text of the question Track 1 leads to (rendered by the session: ask once)."""
        return self.table.session.question()[0].text

    def asking(self) -> bool:
        """Whether the last sentence captioned is the question's."""
        said = [c[2] for c in self.captions.shown if c[1] != "state"]
        return bool(said) and of_question(said[-1], self.question())

    def transcripts(self, since: float, until: float = float("inf")) -> list[str]:
        """What the recogniser made of each utterance decoded between ``since`` and ``until``:
        free text, the phrase it chose and its confidence, the utterance's length."""
        return [f"{h.free!r}->{h.text!r} {h.confidence:.2f} {h.seconds:.1f}s"
                for t, h in list(self.decoded) if since <= t <= until]

    def heard_end(self, clip: Path, end: float, near: float) -> float | None:
        """When the word of ``clip`` said near ``near`` ended in what the recogniser heard so
        far (``heard_end``), on the capture's clock."""
        got = self._captured(self.measured.heard, near)
        return None if got is None else heard_end(*got, clip, end, near)

    def silent_from(self, last: float) -> float | None:
        """When the narration, its last sound heard at ``last`` (``PLAYED``'s clock), fell
        silent in the raw capture (``silent_from``), on the capture's clock."""
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline and (not self.measured.times
                                               or self.measured.times[-1][0] < last + 0.5):
            time.sleep(0.05)  # until the capture has it, and a little after
        got = self._captured(self.measured.raw, last)
        return None if got is None else silent_from(*got, last)

    def _captured(self, frames: list, near: float) -> tuple[np.ndarray, np.ndarray] | None:
        """The capture (``frames``: raw or as heard, full scale 1) from 3 s before ``near``
        on, with each frame's capture time."""
        frames = list(frames)
        starts = np.array([at for at, *_ in list(self.measured.times)[:len(frames)]])
        first = max(0, int(np.searchsorted(starts, near - 3.0)))
        if first >= len(starts):
            return None
        return (np.concatenate(frames[first:len(starts)]).astype(np.float64) / 32768,
                starts[first:])

    def say(self, clip: Path) -> float:
        """Play a player's clip into the room; when it ended (monotonic)."""
        subprocess.run(["paplay", str(clip)], env={**os.environ, **self.env}, check=True,
                       timeout=30)
        return time.monotonic()

    def close(self) -> None:
        self.stop_table()
        self.mouth.close()
        self.ears.ears.close()


def of_question(caption: str, question: str) -> bool:
    """Whether ``caption`` is a sentence of ``question`` (captioned sentence by sentence;
    marked AGAIN in a passage said again)."""
    return len(caption) > 10 and question.startswith(caption.removeprefix(AGAIN))


def acted(word: str, room: Room, after: float) -> bool:
    """Whether the loop did what ``word`` asks, from the captions after ``after``."""
    question = room.question()
    asked = lambda c: of_question(c[2], question)  # noqa: E731
    # said again: the sentence playing cut, then captioned as said again (a passage already
    # being said again goes on captioned so: that alone is no sign)
    again = lambda c: (c[2].startswith(AGAIN)  # noqa: E731
                       and any(after < t < c[0] for t, _ in room.mouth.stops))
    want = {"pause": lambda c: c[2] == PAUSED, "next": asked, "stop": asked,
            "repeat": again}[word]
    return room.wait(want, after, ACT_WITHIN) is not None


def pcm(frame: bytes) -> np.ndarray:
    """int16 samples as float64."""
    return np.frombuffer(frame, np.int16).astype(np.float64)


class Measured:
    """A canceller, keeping what it took in and gave out (with the time each frame was
    captured) and its CPU, and what its reference was fed and when (to run it again on the
    same input: ``feed``)."""

    def __init__(self, inner: EchoCanceller) -> None:
        self.inner = inner
        self.recent = inner.recent
        self.raw, self.cleaned, self.heard, self.played, self.times = [], [], [], [], []
        self.cpu = 0.0
        self._waiting: deque[bytes] = deque()  # frames taken and not yet handed on
        self.calls: list[tuple] = []    # (called, at, moved) per frame
        self.writes: list[tuple] = []   # (called, writer, samplerate, now, ahead, gap, block)
        write = inner.reference.write

        def recorded(writer, block, samplerate, now, ahead, gap=False):
            self.writes.append((time.monotonic(), id(writer), samplerate, now, ahead, gap,
                                np.array(block, np.float32)))
            write(writer, block, samplerate, now, ahead, gap)

        inner.reference.write = recorded

    def take(self, frame: bytes, at: float, moved: float = 0.0) -> list[tuple[float, Cleaned]]:
        self.calls.append((time.monotonic(), at, moved))
        self._waiting.append(frame)
        start = time.thread_time()
        taken = self.inner.take(frame, at, moved)
        self.cpu += time.thread_time() - start
        for at, cleaned in taken:  # in the order captured (the first seconds come late)
            raw = self._waiting.popleft()
            self.times.append((at, self.inner.delay.seconds, self.inner.delay.audible(at)))
            self.raw.append(pcm(raw))
            self.played.append(self.inner.reference.read(at, len(raw) // 2))
            self.cleaned.append(pcm(cleaned.gate))
            self.heard.append(pcm(cleaned.heard))
        return taken

    def save(self, out: Path, name: str, span: tuple[float, float] | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The capture (raw), AEC3's output (clean), the linear filter's (heard) and what was
        played as WAVs in ``out`` (and the frames' times, .npy; without ``span``, what it was
        fed: ``feed``); the first three arrays. ``span``: only the frames captured between
        its two times."""
        keep = [span is None or span[0] <= at <= span[1] for at, *_ in self.times]
        pick = lambda frames: [f for f, k in zip(frames, keep) if k] or [np.zeros(1)]  # noqa: E731
        raw, clean, heard = (np.concatenate(pick(sound))
                             for sound in (self.raw, self.cleaned, self.heard))
        for kind, sound in (("raw", raw), ("clean", clean), ("heard", heard)):
            sf.write(out / f"{name}_{kind}.wav", sound / 32768, 16000)
        np.save(out / f"{name}_times.npy", np.array(pick(self.times)))
        sf.write(out / f"{name}_played.wav", np.concatenate(pick(self.played)), 16000)
        if span is None:
            self.feed(out / f"{name}_feed.npz")
        return raw, clean, heard

    def feed(self, path: Path) -> None:
        """What the canceller was given, in the order it came: every frame (int16) with its
        call time, capture time and clock move, and every write to the reference (its call
        time, arguments and samples, mono)."""
        writes, frames = list(self.writes), list(self.raw)
        calls = self.calls[:len(frames)]  # a frame being cleaned has its call, not its samples
        mono = [w[6].mean(axis=1) if w[6].ndim == 2 else w[6] for w in writes]
        np.savez_compressed(path, calls=np.array(calls, float),
                            frames=np.concatenate(frames).astype(np.int16),
                            writes=np.array([w[:6] for w in writes], float),
                            lengths=np.array([len(m) for m in mono], int),
                            samples=np.concatenate(mono or [np.zeros(0, np.float32)]))


def part_erle(env, out: Path) -> None:
    from narrator.voice.speaker import Speaker

    measured = Measured(EchoCanceller())
    mic = Mic("pulse", echo=measured)
    speaker = Speaker(Settings(output_device="pulse"))
    session = slow_burn()
    for said in session.opening():
        speaker.say(said)
    seconds = 20.0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        mic.read(timeout=0.1)
    speaker.stop()
    speaker.close()
    mic.close()
    raw, clean, heard = measured.save(out, "erle")
    for kind, cancelled in (("AEC3 (the endpointer's gate)", clean),
                            ("linear (what the recogniser hears)", heard)):
        seconds_heard = [(np.mean(raw[i:i + 16000] ** 2), np.mean(cancelled[i:i + 16000] ** 2))
                         for i in range(CONVERGE * 16000, len(raw) - 16000, 16000)]
        seconds_heard = [(r, c) for r, c in seconds_heard if r > 300.0 ** 2]
        erle = [10 * np.log10(r / max(c, 1e-3)) for r, c in seconds_heard]
        total = 10 * np.log10(sum(r for r, _ in seconds_heard)
                              / max(sum(c for _, c in seconds_heard), 1e-3))
        print(f"{kind}: ERLE after the first {CONVERGE} s, over {len(erle)} s of narration: "
              f"{total:.1f} dB overall; per second median {statistics.median(erle):.1f} dB, "
              f"worst {min(erle):.1f} dB")
    print(f"delay tracked: {measured.inner.delay.seconds * 1000:.0f} ms (last estimates "
          f"{[round(e * 1000) for e, _ in measured.inner.delay.estimates]}); "
          f"{measured.inner.reference.gaps} output underruns reported")
    print(f"echo canceller CPU: {100 * measured.cpu / (len(raw) / 16000):.1f}% of one core")


def part_commands(env, out: Path, voices, engine: str) -> None:
    room = Room(env, engine)
    levels = Levels(out / "clips", narrator_level(room))
    results: dict[tuple[float, str], list[bool]] = {(db, v): [] for db in LEVELS
                                                     for v in voices}
    latencies: list[float] = []  # word end to silence in the capture
    clocked: list[float] = []  # the same by the capture's and the speaker's clocks
    trials = []
    room.start()
    try:
        for db in LEVELS:
            for voice in voices:
                for word in COMMANDS:
                    if not room.reading_again():
                        print(f"  could not get back to reading; skipped {word} {voice}")
                        continue
                    began = time.monotonic()
                    time.sleep(SETTLE)
                    clip, end = levels.clip(word, voice, db)
                    length = sf.info(clip).duration
                    ended = room.say(clip)
                    spoken = ended - length + end
                    ok = acted(word, room, spoken - 0.5)
                    stops = [stop for stop in room.mouth.stops if stop[0] > spoken - 0.5]
                    heard_at = room.heard_end(clip, end, spoken)
                    silent = room.silent_from(stops[0][1]) if ok and stops else None
                    latency = (silent - heard_at if silent is not None and heard_at is not None
                               else None)
                    by_clocks = (stops[0][0] + room.mouth._player.latency - heard_at
                                 if ok and stops and heard_at is not None else None)
                    if latency is not None:
                        latencies.append(latency)
                    if by_clocks is not None:
                        clocked.append(by_clocks)
                    results[(db, voice)].append(ok)
                    trials.append((db, voice, word, began, spoken, ok, heard_at))
                    heard = [f"{h[2]} ({h[1]})" for h in room.ears.heard if h[0] > spoken - 0.5]
                    shown = [] if ok else [c[2][:50] for c in room.captions.since(spoken - 0.5)]
                    print(f"  {db:+.0f} dB {voice:18} {word:7} {'acted' if ok else 'MISSED'}"
                          + (f" {1000 * latency:.0f} ms" if latency is not None else "")
                          + (f" ({1000 * by_clocks:.0f} ms by the clocks)"
                             if by_clocks is not None else "")
                          + f"  heard {heard}; decoded {room.transcripts(began)}"
                          + (f"; shown {shown}" if shown else ""), flush=True)
    finally:
        room.close()
        room.measured.save(out, "commands")
        np.save(out / "commands_said.npy", np.array(room.said, dtype=object))
        np.save(out / "commands_trials.npy", np.array(trials, dtype=object))
    for db in LEVELS:
        got = [ok for (level, _), oks in results.items() if level == db for ok in oks]
        each = ", ".join(f"{v} {sum(results[(db, v)])}/{len(results[(db, v)])}" for v in voices)
        print(f"acted at {db:+.0f} dB: {sum(got)}/{len(got)} = "
              f"{100 * sum(got) / max(len(got), 1):.0f}% ({each})")
    for name, got, how in (
            ("in the capture", latencies, "the word's end and the narration's last sound "
             "both found in the raw capture"),
            ("by the clocks", clocked, "the word's end on the capture's clock, to the "
             "speaker's stop call plus its output latency on its own")):
        if got:
            q = np.percentile(got, [50, 95]) * 1000
            print(f"word end → narration stopped, {name}: p50 {q[0]:.0f} ms, p95 {q[1]:.0f} ms "
                  f"(n={len(got)}; {how})")


def narrator_level(room: Room) -> float:
    """The narrator's speech level, from its first sentence rendered by its own voice."""
    said = slow_burn().opening()
    clip = room.mouth._speaker._clip(next(s for s in said if s.kind == "line"))
    return speech_level(clip.samples[:, 0].astype(np.float64))


def part_clocks(env, sentences: int = 4) -> None:
    """Whether the guard's two clocks agree: the speaker's time for its last sample heard
    (``heard_until``) and the microphone's capture stamp of the narrator's last loud frame,
    read a while after (as by ears behind the sound)."""
    from narrator.voice.speaker import Speaker

    question = next(s for s in slow_burn().question() if s.kind != "state")
    speaker = Speaker(Settings(output_device="pulse"))
    tail = quiet_tail(speaker._clip(question))
    mic = Mic("pulse")
    try:
        for _ in range(sentences):
            speaker.say(question)
            while speaker.is_speaking:
                time.sleep(0.01)
            handed = time.monotonic()
            time.sleep(1.5)  # nothing read meanwhile
            loud = []
            while (frame := mic.read(timeout=0)) is not None:
                if loudness(np.frombuffer(frame, np.int16) / 32768) > LOUD:
                    loud.append(mic.captured_until)
            last = speaker.heard_until - tail  # when its last loud sample is heard
            print(f"  heard until {1000 * (speaker.heard_until - handed):+.0f} ms after handed "
                  f"over; last loud frame captured {1000 * (loud[-1] - last):+.0f} ms from "
                  f"when the speaker says it is heard" if loud else "  nothing loud captured",
                  flush=True)
    finally:
        mic.close()
        speaker.close()


def quiet_tail(clip) -> float:
    """Seconds of quiet (20 ms blocks no louder than LOUD, the bar the captured frames are
    held to) at the end of ``clip``."""
    samples, block = clip.samples[:, 0], clip.samplerate // 50
    loud = [i for i in range(0, len(samples), block) if loudness(samples[i:i + block]) > LOUD]
    return (len(samples) - loud[-1] - block) / clip.samplerate


def loudness(samples: np.ndarray) -> float:
    """RMS of ``samples`` (full scale 1)."""
    return float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)))


def part_idle(env, out: Path, minutes: float, engine: str) -> None:
    room = Room(env, engine)
    room.start()
    began = time.monotonic()
    try:
        while time.monotonic() - began < minutes * 60:
            room.reading_again()
            time.sleep(1.0)
    finally:
        room.close()
    reading = time.monotonic() - began
    acts = len(room.ears.heard)  # each acted, was held or was "didn't catch that"
    print("heard while nobody spoke:")
    for n, ((at, mode, text), placed, (start, end, sure)) in enumerate(
            zip(room.ears.heard, room.ears.placed, room.ears.spans)):
        decoded = room.transcripts(at - 10.0, at)[-1:]
        print(f"  {mode}: {text!r} ({'sure' if sure else 'read back'}), {placed}; "
              f"decoded {decoded}; audio idle_{n}_*.wav")
        room.measured.save(out, f"idle_{n}", (start - 0.5, end + 0.5))
    print(f"self-triggers: {acts} in {reading / 60:.1f} min of narration "
          f"= {acts * 3600 / reading:.1f} per hour (scaled from the shorter run)")


class Kept(Spoken):
    """The loop's log of what it said, every sentence also kept in ``whole`` (the recording's
    timed echo for ``--part replay``)."""

    def __init__(self, whole: list[list]) -> None:
        super().__init__()
        self.whole = whole

    def start(self, text: str, at: float) -> None:
        super().start(text, at)
        self.whole.append(self._said[-1])


class Logged(Spoken):
    """A recorded run's log as the ears knew it: a sentence begun after an utterance ended
    (the loop's answer to it, "Paused.") was not yet said when it was judged."""

    def during(self, start: float, end: float) -> str:
        known = Spoken()
        known._said = [sentence for sentence in self._said if sentence[1] <= end]
        return known.during(start, end)


class Recorded:
    """A ``commands`` recording as a microphone: each frame as the recogniser heard it, with
    its gate (AEC3's output) and capture time, read as fast as the ears take them; what was
    heard while the narrator was audible is kept with its echo's reference, as the canceller
    keeps it (``echo_likeness``)."""

    def __init__(self, out: Path, recancel: bool = False) -> None:
        if recancel:
            heard, gate, self._times = recancelled(out)
        else:
            heard, _ = sf.read(out / "commands_heard.wav", dtype="int16")
            gate, _ = sf.read(out / "commands_clean.wav", dtype="int16")
            self._times = np.load(out / "commands_times.npy", allow_pickle=True).astype(float)
        self._played, _ = sf.read(out / "commands_played.wav", dtype="float32")
        self.starts = self._times[:, 0]
        self._heard, self._gate = heard, gate
        self._next = 0
        self.gate: bytes | None = None
        self.captured_until = 0.0
        self.recent = Recent()

    def read(self, timeout: float | None = None) -> bytes:
        i = self._next
        if i >= len(self.starts):
            raise EOFError
        self._next += 1
        self.gate = self._gate[i * FRAME:(i + 1) * FRAME].tobytes()
        self.captured_until = self.starts[i] + FRAME / RATE
        heard = self._heard[i * FRAME:(i + 1) * FRAME]
        at, delay, audible = self._times[i]
        if audible:  # the played sound is kept at each frame's capture time: its echo is later
            echo = max(0, i * FRAME - round(delay * RATE))
            reference = self._played[echo:echo + FRAME]
            self.recent.keep(at, heard / 32768.0, np.pad(reference, (0, FRAME - len(reference))))
        return heard.tobytes()

    def echo_likeness(self, start: float, end: float) -> float | None:
        return self.recent.likeness(start, end)


def recancelled(out: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``commands`` run in ``out`` through the echo canceller as it is now, fed exactly as
    it was (commands_feed.npz: frames and writes to the reference in the order they came):
    what the recogniser heard and AEC3's output (int16), and each frame's capture time, delay
    and whether the narrator was audible."""
    feed = dict(np.load(out / "commands_feed.npz"))
    calls, writes, frames, samples = feed["calls"], feed["writes"], feed["frames"], feed["samples"]
    starts = np.concatenate([[0], np.cumsum(feed["lengths"])])
    reference = OutputReference()
    canceller = EchoCanceller(reference)
    writers: dict[float, object] = {}
    heard, gate, times = [], [], []
    for _, is_frame, i in sorted([(w[0], False, i) for i, w in enumerate(writes)]
                                 + [(c[0], True, k) for k, c in enumerate(calls)]):
        if not is_frame:
            _, writer, rate, now, ahead, gap = writes[i]
            reference.write(writers.setdefault(writer, object()),
                            samples[starts[i]:starts[i + 1]], int(rate), now, ahead, bool(gap))
            continue
        _, at, moved = calls[i]
        for at, got in canceller.take(frames[i * FRAME:(i + 1) * FRAME].tobytes(), at, moved):
            heard.append(np.frombuffer(got.heard, np.int16))
            gate.append(np.frombuffer(got.gate, np.int16))
            times.append((at, canceller.delay.seconds, canceller.delay.audible(at)))
    return np.concatenate(heard), np.concatenate(gate), np.array(times)


def part_replay(out: Path, engine: str, recancel: bool = False) -> None:
    """The ``commands`` recording in ``out`` through the ears as they are now, offline: the
    same frames, gate and capture times and what the narrator said when (the guard's echo;
    none in a recording made before it was kept), in minutes instead of a run; ``recancel``:
    the frames through the echo canceller as it is now first (``recancelled``)."""
    session = slow_burn()
    list(session.opening())
    recognizer, notice = load_recognizer(engine)
    if notice:
        print(notice)
    source = Recorded(out, recancel)
    ears = Ears(recognizer, source)
    said = out / "commands_said.npy"
    log = sorted(map(list, np.load(said, allow_pickle=True)) if said.exists() else [],
                 key=lambda sentence: sentence[1])
    for sentence, following in zip(log, log[1:]):
        if sentence[2] is None:  # left playing by a table the bench closed
            sentence[2] = following[1]
    spoken = Logged()
    spoken._said = log
    heard = []
    while (got := ears.listen(session.expectation, mode="reading", echo=Echo("", spoken))):
        heard.append((ears.ended_at, got))
    trials = np.load(out / "commands_trials.npy", allow_pickle=True)
    counts: dict[float, list[bool]] = {db: [] for db in LEVELS}
    claimed = set()
    for db, voice, word, _, said_at, _, *located in trials:  # (older runs: no word's end)
        end = located[0] if located and located[0] is not None else said_at - PAPLAY_LATE
        near = [(at, u) for at, u in heard if end - 0.5 <= at <= end + 1.5]
        claimed.update(at for at, _ in near)
        ok = any(u.meaning == understand(word, session.expectation, "reading") for _, u in near)
        counts[db].append(ok)
        if not ok:
            print(f"  {db:+.0f} dB {voice:18} {word:7} MISSED  heard {[u.text for _, u in near]}")
    for db, oks in counts.items():
        print(f"acted at {db:+.0f} dB: {sum(oks)}/{len(oks)}")
    other = [f"{u.text!r} at {at:.1f}" for at, u in heard if at not in claimed]
    print(f"handed to the loop away from the words: {len(other)} {other}")


def player_voices(setting: str) -> tuple[str, ...]:
    """``--voices``: a number of tests/clips.py's voices, spread over its list, or names."""
    if setting.isdigit():
        count = int(setting)
        return clips.VOICES[::max(1, len(clips.VOICES) // count)][:count]
    names = tuple(v.strip() for v in setting.split(",") if v.strip())
    unknown = [v for v in names if v not in clips.VOICES + clips.TUNE_VOICES]
    if unknown:
        raise SystemExit(f"unknown voices {unknown}; voices: {', '.join(clips.VOICES)}")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("erle", "commands", "idle", "clocks", "replay",
                                           "all"),
                        default="all")
    parser.add_argument("--voices", default="3",
                        help="how many player voices, or their names (comma-separated)")
    parser.add_argument("--engine", default="whisper")
    parser.add_argument("--idle-minutes", type=float, default=3.0)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--recancel", action="store_true",
                        help="replay: run the echo canceller again on the recorded feed")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bargein-"))
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("NARRATOR_CONFIG", str(out / "config.yaml"))
    os.environ.setdefault("NARRATOR_CACHE", str(out / "cache"))
    voices = player_voices(args.voices)
    if args.part == "replay":
        part_replay(out, args.engine, args.recancel)
        return
    with audio_room() as env:
        if args.part in ("erle", "all"):
            part_erle(env, out)
        if args.part in ("commands", "all"):
            part_commands(env, out, voices, args.engine)
        if args.part in ("idle", "all"):
            part_idle(env, out, args.idle_minutes, args.engine)
        if args.part in ("clocks", "all"):
            part_clocks(env)


if __name__ == "__main__":
    main()
