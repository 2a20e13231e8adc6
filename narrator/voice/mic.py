"""Capture and endpointing: 16 kHz mono frames from a microphone, cut into utterances.

``Mic`` runs a sounddevice input stream (its callback runs in PortAudio's own thread) and hands
30 ms frames, put together from 10 ms blocks, over a queue, each with the time it was captured;
it counts overflows reported in the callback status, and shows each frame as captured to its
``tap`` (a level meter that must see the narrator's voice before it is cancelled). Given an echo
canceller (``voice/echo.py``), a thread of its own takes the narrator's voice out of each frame
as it comes in (``EchoCanceller.take``: a new microphone's first seconds of narration may wait
for it to learn the echo), so cancellation keeps up with the sound even while a recogniser
decoding holds up the reader; ``read`` gives the frame the recogniser hears and ``gate`` the same
frame with the narrator's voice suppressed as well, which the endpointer judges speech by (with
the heard frame far down, for a voice the suppressor took whole). ``Endpointer`` is a
voice-activity detector with an adaptive noise floor: speech starts after a few loud frames (with
the audio just before kept as pre-roll) and ends after a short run of quiet frames, a shorter one
when the listener says that what was heard is a phrase that cannot go on. Where others talk on
around the table, the floor falls into the dips between their words; the room's median level
(over its last 4 s outside utterances, and over any utterance cut for its length) then stands for
the floor, so their talk neither holds a player's words open nor merges them. Floor and room
over the narration (its residue through the suppressor) and at a question are each kept apart.
Where the room's level swings as talk does (``talking``: words and gaps), an utterance hardly
louder than that median is theirs (``distant``), not a player's at the microphone, and the
recogniser gets the player's words and 150 ms either side of them, the talk around them as
silence (``focusing``, not over the narration). Where it is steady (a fan, a hum), no one is
talking: a word's weaker sounds over it still count as the word (``_steady``), and a word hardly
louder than it starts an utterance when the frame with the noise taken out (RNNoise:
``voiced``) is loud as well (``voice_share``). Either way, an utterance whose loud frames are
hardly over the floor is ``noisy`` (the ears read its answer back). A second of an utterance
that hardly swings in level is the room's own sound risen over the floor (the narrator stopped,
and the echo canceller's suppression of the room with it): it ends the utterance there, or voids
it when that is all it held, and is the floor from then on. A short quiet inside the utterance is
a *pause* (the speaker may have finished: a recogniser can start decoding ahead), and the next
loud frame *resumes* it (what was decoded ahead is void).
"""

from __future__ import annotations

import contextlib
import queue
import threading
import sys
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

import numpy as np

from narrator.voice import streams
from narrator.voice.echo import SampleClock

RATE = 16000
FRAME = 480  # samples: 30 ms
BLOCK = 160  # samples: 10 ms, what the input stream hands over at a time (frames are put
# together from them): PulseAudio holds two blocks back, so 30 ms blocks reached the ears
# about 40 ms later than 10 ms ones (docs/barge-in.md, "Stop 44, afternoon")
#: over the narration, a frame is as loud as its gate or its heard level this many times
#: (22 dB) down, whichever is louder: a word AEC3's suppressor takes whole still starts an
#: utterance, while the narrator's residue (about 27 dB under its voice) does not
HEARD_SHARE = 12.0


def rms(frame: bytes) -> float:
    """Root mean square level of int16 samples."""
    samples = np.frombuffer(frame, dtype=np.int16).astype(np.float64)
    return float(np.sqrt(np.mean(samples ** 2))) if samples.size else 0.0


@dataclass
class Endpointer:
    """Voice activity: ``push(frame)`` returns ("silence" | "start" | "speech" | "pause" |
    "resume" | "end" | "void", audio).

    On "start" the audio is the pre-roll plus the frame; on "speech", "pause" (the quiet run
    reached ``pause_frames``) and "resume" (the first loud frame after a pause) the frame; on
    "end" the frame that ended it; "void" takes back the utterance started: it was a noise that
    rose, no voice (``_hum``). ``start_ratio``/``end_ratio`` are levels over the noise floor.
    """

    start_frames: int = 3        # 90 ms of loud frames start an utterance
    end_frames: int = 10         # 300 ms of quiet frames end it
    final_frames: int = 6        # 180 ms do when ``complete()`` says the phrase cannot go on
    pause_frames: int = 4        # 120 ms of quiet are a pause
    preroll_frames: int = 10
    max_frames: int = 200        # 6 s: longer is talk, not a command; cut it
    letter_end_frames: int = 34  # while ``spelling``: 1 s of quiet ends it (a pause between
    letter_max_frames: int = 330  # letters does not), and 10 s (the recogniser's window) cut it;
    letter_part_frames: int = 200  # past 6 s, a pause between letters parts it (``cut``: the
    # ears join the parts; Whisper loops on letters cut off at the window's end)
    start_ratio: float = 3.0     # ~10 dB over the noise floor
    room_frames: int = 134       # 4 s of the room's level (see the module docstring)
    near_ratio: float = 2.5      # an utterance whose loud frames (80th percentile) are not
    # 8 dB over the room's median is its talk (``distant``), not a player at the microphone
    talk_swing: float = 3.0      # a room whose level swings this far (90th percentile over
    # 10th: babble 6.5 and up, pink noise 1.4-1.6) is talk, words and gaps; a steadier one is
    # a noise (a fan, a hum), over which a player's word is no one else's talk
    focus_frames: int = 5        # where others talk, what is this long (150 ms) after a frame
    # that near (or before the start) is their talk: handed on as silence (``_focus``)
    end_ratio: float = 2.0
    steady_start_ratio: float = 2.0  # over a steady noise (``_steady``), whose level
    steady_end_ratio: float = 1.4    # hardly swings, a word's weaker sounds still count
    # (at 2.5, Festival's "yes" 10 dB over pink noise peaked at 2-3x it for 60 ms and never
    # started; words 6 dB over it, 7 voices: 42 of 70 reached the ears at 2.5, 67 at 2.0;
    # the noise alone, 60 s, starts nothing either way)
    voice_share: float = 0.5     # over a steady noise, a frame ``steady_end_ratio`` over the
    # floor whose ``voiced`` (the frame with the noise taken out: RNNoise) is this share of the
    # floor loud (and ``min_level``) is loud too: Festival's "next" 10 dB over pink noise rose
    # to 2-5x the floor for two frames, never started, and was said four times in vain; with
    # the noise out it is 0.7-3.4x the floor for 200 ms, the noise itself at most 0.25x (60 s,
    # at a fifth to eight times its loudness). The narrator's echo as it stops is a voice to RNNoise
    # too (0.6-1.2x), but hardly over the floor once suppressed (1.0-1.3x): it starts nothing
    noisy_ratio: float = 8.0  # an utterance whose loud frames (90th percentile) are not this
    # far (18 dB) over the floor was said in a noise near the voice (``noisy``)
    hum_frames: int = 33         # a second of an utterance whose frames' levels swing (90th
    hum_swing: float = 1.6       # percentile over 10th) less than this is a steady sound, no
    # voice (``_hum``): pink noise swings 1.2-1.6 (a room's hum: 1.2), a voice's syllables 3+
    min_level: float = 120.0     # int16 rms under which nothing is speech
    complete: Callable[[], bool] | None = None

    def __post_init__(self) -> None:
        self.floor: float | None = None
        self.in_speech = False
        self.spelling = False  # a name is being spelled, letter by letter
        self.cut = False  # the last utterance was cut or parted, not ended by a quiet
        self._loud = 0
        self._quiet = 0
        self._length = 0
        self._recent: deque[bytes] = deque(maxlen=self.preroll_frames)
        self.room = 0.0  # the room's median level: a floor where others talk on
        self.talking = False  # whether the room's level swings as talk does (``talk_swing``)
        self.hearing_room = True  # whether frames outside utterances count towards it (not
        # while the narrator reads into a microphone without an echo canceller: the ears)
        self._spoken: list[float] = []  # the levels of the utterance's frames
        self._focusing = False
        #: the room as heard over the narration (not ``focusing``) and at a question: each its
        #: own floor and levels (``focusing``)
        self._rooms: dict[bool, deque[float]] = {
            key: deque(maxlen=self.room_frames) for key in (False, True)}
        self._floors: dict[bool, float | None] = {False: None, True: None}
        self._focused = False  # this utterance's is
        self._since_near = 0  # frames since the last as loud as a player at the microphone
        self.distant = False  # the last utterance was no louder than the room's talk
        self.noisy = False  # the last utterance was said in a noise near the voice

    def push(self, frame: bytes, gate: bytes | None = None,
             voiced: bytes | None = None) -> tuple[str, bytes]:
        """The event ``frame`` makes; its loudness is ``gate``'s when given (the frame with the
        narrator's echo suppressed: ``Mic.gate``), or the frame's HEARD_SHARE times down when
        that is louder; ``voiced``: the frame with the room's noise taken out (a denoiser's),
        which starts an utterance over a steady noise (``voice_share``)."""
        level = rms(frame) if gate is None else max(rms(gate), rms(frame) / HEARD_SHARE)
        if self.floor is None:
            self.floor = max(level, 1.0)
        if not self.in_speech:
            return self._silent(frame, level, voiced)
        self._length += 1
        paused = self._quiet >= self.pause_frames
        ratio = self.steady_end_ratio if self._steady else self.end_ratio
        self._quiet = self._quiet + 1 if level < self._threshold(ratio) else 0
        longest = self.letter_max_frames if self.spelling else self.max_frames
        ended = self._ended()
        parted = (self.spelling and self._length >= self.letter_part_frames
                  and self._quiet >= self.pause_frames)
        self._spoken.append(level)
        frame = self._focus(frame, level)
        hum = self._hum()
        if ended or parted or hum or self._length >= longest:
            self.cut = not (ended or hum)
            self.distant = self.talking and float(np.percentile(self._spoken, 80)) < self._near
            self.noisy = (float(np.percentile(self._spoken, 90))
                          < self.noisy_ratio * max(self.floor, self.room))
            if hum:  # the room's level rose under the floor: its steady level is the floor
                steady = self._spoken[-self.hum_frames:]  # now, and the room's level
                self.floor = max(self.floor, float(np.median(steady)))
                if self.hearing_room:
                    self._hear_room(steady)
            elif self._length >= longest and not self.spelling:  # a sound this long is the
                self.floor = max(self.floor, level)  # new floor (letters are not), and the
                if self.hearing_room:  # room's level
                    self._hear_room(self._spoken)
            self.in_speech = False
            self._recent.clear()
            void = hum and len(self._spoken) == self.hum_frames  # all hum, no voice
            return ("void" if void else "end"), frame
        if self._quiet == self.pause_frames:
            return "pause", frame
        return ("resume" if paused and not self._quiet else "speech"), frame

    def _hum(self) -> bool:
        """Whether the utterance's last second is a steady sound, no voice (its levels hardly
        swing, as a voice's syllables and gaps do): the room's own level rose over the floor.
        While the narrator spoke, the echo canceller's suppression took the room's hum with its
        voice, and the floor followed it down; when it stopped, the hum came back whole and
        held an utterance open to the 6 s cut, so that a player's "resume" or "yes" in it was
        dropped as talk (pink noise 10 dB down). Not while spelling: letters are not a hum."""
        if self.spelling or len(self._spoken) < self.hum_frames:
            return False
        last = sorted(self._spoken[-self.hum_frames:])
        return last[len(last) * 9 // 10] < self.hum_swing * max(last[len(last) // 10], 1.0)

    @property
    def focusing(self) -> bool:
        """Whether to keep an utterance's audio to the player's words where others talk
        (``_focus``): the ears do, but not over the narration."""
        return self._focusing

    @focusing.setter
    def focusing(self, focusing: bool) -> None:
        """Over the narration the floor and the room's level are the narrator's residue through
        the echo suppressor, which takes a steady noise down with its voice; at a question they
        are the room's again. Each is kept apart, and taken up where it was left (once heard):
        a question's answer, said as the narration ended, was judged against 4 s of suppressed
        residue and risen noise, a swing that passed for talk over pink noise 10 dB down (the
        steady bars off, the word's weaker sounds cut away)."""
        if focusing == self._focusing:
            return
        self._floors[self._focusing] = self.floor
        self._focusing = focusing
        if self._floors[focusing] is not None:
            self.floor = self._floors[focusing]
        self._judge_room()

    @property
    def _room(self) -> deque[float]:
        """The levels of the room heard as now: over the narration, or at a question."""
        return self._rooms[self._focusing]

    @property
    def quiet(self) -> int:
        """Quiet frames since the utterance's last loud one."""
        return self._quiet

    def _focus(self, frame: bytes, level: float) -> bytes:
        """The frame as the recogniser should hear it: silence where others talk around the
        table and the player's words stopped more than ``focus_frames`` ago (Whisper writes
        whatever talk it is given: a player's "resume" came back as the talk around it)."""
        self._since_near = 0 if level >= self._near else self._since_near + 1
        return bytes(len(frame)) if self._focused and self._since_near > self.focus_frames \
            else frame

    @property
    def _steady(self) -> bool:
        """Whether the room is a steady noise the players speak over: not talk, and not the
        narrator's residue (``focusing`` is off over the narration)."""
        return self.focusing and not self.talking

    @property
    def _near(self) -> float:
        """How loud a player at the microphone is where others talk: ``near_ratio`` over the
        room's median."""
        return self.near_ratio * self.room

    def _ended(self) -> bool:
        if self._quiet >= (self.letter_end_frames if self.spelling else self.end_frames):
            return True
        return (self._quiet >= self.final_frames and self.complete is not None
                and self.complete())

    def _threshold(self, ratio: float) -> float:
        return max(max(self.floor, self.room) * ratio, self.min_level)

    def _hear_room(self, levels) -> None:
        self._room.extend(levels)
        self._judge_room()

    def _judge_room(self) -> None:
        """The room's median level, and whether it swings as talk does, once it is heard
        (``preroll_frames``; till then they stay as they were)."""
        if len(self._room) < self.preroll_frames:
            return
        ordered = sorted(self._room)  # once a frame: a fifth of numpy's time here
        last = len(ordered) - 1
        self.room = (ordered[last // 2] + ordered[len(ordered) // 2]) / 2  # the median
        self.talking = ordered[last * 9 // 10] >= self.talk_swing * ordered[last // 10]

    def _voiced(self, level: float, voiced: bytes | None) -> bool:
        """Whether a frame hardly over a steady noise is a voice: ``steady_end_ratio`` over the
        floor, and with the noise taken out (``voiced``) still ``voice_share`` of it."""
        return (self._steady and voiced is not None
                and level >= self._threshold(self.steady_end_ratio)
                and rms(voiced) >= max(self.voice_share * self.floor, self.min_level))

    def _silent(self, frame: bytes, level: float, voiced: bytes | None) -> tuple[str, bytes]:
        self._recent.append(frame)
        if self.hearing_room:
            self._hear_room((level,))
        if level >= self._threshold(self.steady_start_ratio if self._steady
                                    else self.start_ratio) or self._voiced(level, voiced):
            self._loud += 1
        else:
            self._loud = 0
            # the floor follows quiet quickly and loud slowly
            rate = 0.05 if level > self.floor else 0.2
            self.floor += rate * (level - self.floor)
        if self._loud < self.start_frames:
            return "silence", frame
        if self.hearing_room:  # its first sounds are the utterance's, not the room's (a
            for _ in range(min(self._loud, len(self._room))):  # question's answers made its
                self._room.pop()  # room swing as talk)
        self.in_speech, self._loud, self._quiet = True, 0, 0
        self._spoken, self._since_near = [], 0
        self._length = len(self._recent)
        self._focused = (self.focusing and self.talking and not self.spelling
                         and self._near >= self.min_level)
        kept = self.start_frames + self.focus_frames  # of the pre-roll, when focused
        audio = b"".join(f if not self._focused or i >= len(self._recent) - kept
                         else bytes(len(f)) for i, f in enumerate(self._recent))
        self._recent.clear()
        return "start", audio


class Framer:
    """Blocks of captured audio put together into FRAME-long frames, each with the capture time
    of its first sample and how far the capture clock's stamps had moved by then
    (``SampleClock.moved``, which the echo canceller's delay follows: a move stamped on a later
    block of the frame belongs with the next frame's time)."""

    def __init__(self) -> None:
        self._part = bytearray()  # the frame being put together
        self._at = 0.0  # its capture time
        self._moved = 0.0  # the clock's moves by then

    def add(self, at: float, block, gap: bool = False,
            moved: float = 0.0) -> list[tuple[float, bytes, float]]:
        """The frames ``block`` (any buffer, captured from ``at``, the clock's stamps moved
        ``moved`` by then) completes, as (time, frame, moved); ``gap``: audio was lost before
        it, so what was kept no longer leads up to it and is dropped."""
        if gap:
            self._part.clear()
        if not self._part:
            self._at, self._moved = at, moved
        self._part += block
        frames = []
        while len(self._part) >= 2 * FRAME:
            frames.append((self._at, bytes(self._part[:2 * FRAME]), self._moved))
            del self._part[:2 * FRAME]
            self._at += FRAME / RATE
        return frames


class Mic:
    """A 16 kHz mono int16 input stream; ``read(timeout)`` gives one 30 ms frame or None."""

    def __init__(self, device: str | int | None = None, echo=None) -> None:
        import sounddevice as sd

        self.echo = echo  # an EchoCanceller, or None: the frames as captured
        #: called with each frame as captured, before echo cancellation (in PortAudio's thread)
        self.tap: Callable[[bytes], None] | None = None
        self._frames: queue.Queue[tuple[float, bytes, bytes | None]] = queue.Queue(maxsize=400)
        self.captured_until = 0.0  # monotonic time the end of the last frame read was captured
        #: the last frame read with the narrator's voice suppressed too (None: judge the frame
        #: as read, after any denoiser): what the endpointer judges speech by, while the
        #: recogniser hears the frame
        self.gate: bytes | None = None
        #: (capture time, frame, how far the capture clock's stamps had moved by then)
        self._captured: queue.Queue[tuple[float, bytes, float] | None] = queue.Queue(
            maxsize=400)
        self._canceller: threading.Thread | None = None
        self._closing = threading.Event()  # set by ``close``: the canceller stops at once
        if echo is not None:
            self._canceller = threading.Thread(target=self._cancel, name="echo-cancel",
                                               daemon=True)
            self._canceller.start()
        self.overflows = 0
        self.dropped = 0
        self._opened_at = time.monotonic()
        self._heard_at: float | None = None
        self._clock = SampleClock(RATE, output=False)
        self._framer = Framer()
        try:
            self._stream = streams.open_stream(lambda: sd.RawInputStream(
                samplerate=RATE, blocksize=BLOCK, device=device, channels=1, dtype="int16",
                callback=self._callback))
            streams.start_stream(self._stream)
        except (sd.PortAudioError, ValueError) as exc:
            raise RuntimeError(f"cannot open the microphone {device!r}: {exc}. Check "
                               f"`narrator devices` and pass --input-device, or play with "
                               f"--input text.") from exc

    def _callback(self, data, frames, when, status) -> None:
        self._heard_at = now = time.monotonic()
        ago = when.currentTime - when.inputBufferAdcTime
        if not 0.0 <= ago < 1.0:  # no usable time stamps from this host API
            ago = self._stream.latency
        at = self._clock.stamp(now - ago - frames / RATE, frames, bool(status.input_overflow))
        if status.input_overflow:
            self.overflows += 1
            print("narrator: microphone overflow (audio lost); is the machine busy?",
                  file=sys.stderr)
        for start, frame, moved in self._framer.add(at, data, bool(status.input_overflow),
                                                    self._clock.moved):
            self._hand_over(start, frame, moved)

    def _hand_over(self, at: float, frame: bytes, moved: float) -> None:
        """One whole frame, captured from ``at`` (the clock's stamps moved ``moved`` by then):
        to the tap, then to the reader (through the echo canceller when there is one)."""
        if self.tap is not None:
            self.tap(frame)
        try:
            if self.echo is None:
                self._frames.put_nowait((at, frame, None))
            else:
                self._captured.put_nowait((at, frame, moved))
        except queue.Full:
            self.dropped += 1

    def _cancel(self) -> None:
        """Echo-cancel each captured frame as it comes, until ``close`` (frames still waiting
        then are left: the program may be tearing the canceller down as it exits; one such
        frame printed a traceback after a session was saved). A canceller that fails hands
        on the frames as captured from then on, said once on stderr: the table is still
        heard."""
        failed = False
        while (captured := self._captured.get()) is not None and not self._closing.is_set():
            at, frame, moved = captured
            taken = [(at, (frame, frame))]
            if not failed:
                try:
                    taken = self.echo.take(frame, at, moved)
                except Exception as exc:  # any: livekit fails by assertion as well
                    failed = True
                    print(f"narrator: echo cancellation stopped ({type(exc).__name__}: "
                          f"{exc}); the narrator's own voice may cover what the table says "
                          f"while it reads.", file=sys.stderr)
            for at, (heard, gate) in taken:
                try:
                    self._frames.put_nowait((at, heard, None if gate is heard else gate))
                except queue.Full:
                    self.dropped += 1

    @property
    def alive(self) -> bool:
        """The stream runs and delivered audio within the last second (within 3 s of opening:
        PulseAudio takes a while); False once the device is gone: open a new Mic when it returns."""
        since, limit = ((self._opened_at, 3.0) if self._heard_at is None
                        else (self._heard_at, 1.0))
        return self._stream.active and time.monotonic() - since < limit

    @property
    def hears_narrator(self) -> bool:
        """Whether the narrator's voice may reach this microphone: False once the echo
        canceller has listened for it through seconds of narration and not found it; True
        without a canceller (nothing tells)."""
        return self.echo is None or not self.echo.delay.deaf

    @property
    def cancels_narrator(self) -> bool:
        """Whether the echo canceller has found the narrator's voice in this microphone, and
        so takes it out, our earcons with it (they are played as the narration is)."""
        return self.echo is not None and self.echo.delay.found

    def echo_likeness(self, start: float, end: float) -> float | None:
        """How much of what the recogniser heard from ``start`` to ``end`` (capture times) is
        the narrator's voice leaking through the canceller (``echo_likeness.Recent``); None
        without a canceller, or when the narrator was not heard then."""
        return None if self.echo is None else self.echo.recent.likeness(start, end)

    @property
    def stopped(self) -> bool:
        """The stream stopped by itself (its device went away: PulseAudio ends the stream at
        once); a stall, by contrast, shows only in ``alive``."""
        return not self._stream.active

    def read(self, timeout: float | None = None) -> bytes | None:
        try:
            at, frame, self.gate = self._frames.get(timeout=timeout)
        except queue.Empty:
            return None
        self.captured_until = at + len(frame) / 2 / RATE
        return frame

    def drain(self) -> None:
        """Forget audio captured so far (e.g. while listening was off)."""
        while self.read(timeout=0) is not None:
            pass

    def close(self) -> None:
        """Release the stream. Stopping one whose device has gone can block inside PortAudio
        for good, so it is aborted (no draining) on a helper thread, waited for at most a
        second (``streams.close_stream``)."""
        streams.close_stream(self._stream)
        self._closing.set()
        if self._canceller is not None:  # it ends now, not killed mid-frame at exit
            while True:
                try:
                    self._captured.put_nowait(None)
                    break
                except queue.Full:  # frames no one will read: drop them
                    with contextlib.suppress(queue.Empty):
                        self._captured.get_nowait()
            self._canceller.join(timeout=1.0)


def check_input(device: str | int | None = None) -> None:
    """Raise a clear RuntimeError when there is no usable input device."""
    try:
        import sounddevice as sd
    except OSError as exc:
        raise RuntimeError(f"cannot listen: {exc}. Install PortAudio (Debian/Ubuntu: "
                           f"apt-get install libportaudio2) or play with --input text.") from exc
    try:
        sd.check_input_settings(device=device, samplerate=RATE, channels=1, dtype="int16")
    except Exception as exc:
        raise RuntimeError(f"no microphone to listen with ({exc}). Plug one in, pick one "
                           f"from `narrator devices` with --input-device, or play with "
                           f"--input text.") from exc


class Frames:
    """Recorded audio as a frame source (``read`` like ``Mic``; EOFError at the end)."""

    def __init__(self, pcm: bytes) -> None:
        self._pcm = pcm
        self._at = 0

    @property
    def seconds_read(self) -> float:
        """How far into the recording the reader has come."""
        return self._at / 2 / RATE

    def read(self, timeout: float | None = None) -> bytes:
        if self._at >= len(self._pcm):
            raise EOFError
        frame = self._pcm[self._at:self._at + 2 * FRAME]
        self._at += 2 * FRAME
        return frame.ljust(2 * FRAME, b"\0")
