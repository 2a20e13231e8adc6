"""Open the microphone and the speaker for a session, and keep the session going as they come
and go.

No microphone at the start: typed input; with one, typing still works beside it (``LiveEars``;
except in push-to-talk mode, where Enter opens the microphone). No sound output: captions
only. A microphone lost mid-session is said and printed (typing goes on), and it is tried
again every second until it returns (then said again; PortAudio re-scans its devices between
tries when no stream is open, so a raw ALSA device that returns under a new number is found). The speaker does the same for its output
(``Speaker``). Devices are named by index, by PortAudio name, or by PulseAudio/PipeWire sink or
source name (``pactl``), which is routed through PortAudio's ``pulse`` device. The microphone
is opened, and its recogniser loaded, once the narrator's first words are heard, so that they
come sooner.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import replace
from typing import Any, Callable

from narrator.events import Said
from narrator.rules.base import Expectation
from narrator.session.console import LiveEars, TextEars
from narrator.session.loop import Ears, Mouth
from narrator.settings import Settings
from narrator.understand import MAX_TRACK
from narrator.voice.streams import rescan

RETRY_SECONDS = 1.0
SLICE_SECONDS = 0.3  # how long one look at the microphone lasts before checking on it
CONFIRM_SECONDS = 0.5  # a stalled (not stopped) microphone is lost when still stalled then
FIRST_SOUND_WAIT = 5.0  # the ears are made once the first words are heard, or after this
MIC_LOST = ("The microphone is gone. Type your answers and press Enter; I will listen again "
            "when it is back.")
MIC_BACK = "The microphone is back."
NO_MIC = "There is no microphone. Type your answers and press Enter."
ECHO = ("I can hear myself in the microphone, loudly. Turn the speaker down or away from the "
        "microphone, or use headphones, or I may mishear the table.")
ECHO_FRAMES = 50  # 1.5 s of microphone frames while speaking, and as many while quiet
ECHO_RATIO = 10.0  # 20 dB louder while the narrator speaks than while it is quiet
ECHO_LEVEL = 300.0  # int16 RMS under which it is not loud, whatever the ratio


# ---------------------------------------------------------------------- device names


def pulse_devices(kind: str) -> list[str]:
    """PulseAudio/PipeWire ``sinks`` or ``sources`` by name ([] without pactl or a server)."""
    if shutil.which("pactl") is None:
        return []
    try:
        out = subprocess.run(["pactl", "list", "short", kind], capture_output=True, text=True,
                             timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.split("\t")[1] for line in out.stdout.splitlines()
            if out.returncode == 0 and line.count("\t") >= 1]


def device_lines() -> list[str]:
    """What ``narrator devices`` prints: PulseAudio/PipeWire sinks and sources, then PortAudio's
    (ALSA) devices; RuntimeError when there are none at all."""
    lines = [f"  output  {name}" for name in pulse_devices("sinks")]
    lines += [f"  input   {name}" for name in pulse_devices("sources")]
    if lines:
        lines.insert(0, "PulseAudio / PipeWire (use the name with --output-device / "
                        "--input-device):")
    try:
        import sounddevice as sd

        found = sd.query_devices()
        defaults = tuple(sd.default.device)
    except OSError as exc:
        if not lines:
            raise RuntimeError(f"no sound devices: {exc} (install libportaudio2)") from None
        return lines
    if found:
        lines.append("ALSA / PortAudio (use the number or the name):")
    for i, d in enumerate(found):
        default = " (default)" if i in defaults else ""
        lines.append(f"{i:3} {d['name']:40} in {d['max_input_channels']:2}  "
                     f"out {d['max_output_channels']:2}{default}")
    if not lines:
        raise RuntimeError("no sound devices found: check that a device is connected and "
                           "PulseAudio or PipeWire runs")
    return lines


def route_pulse_names(settings: Settings) -> Settings:
    """Settings whose PulseAudio sink/source names are reached through PortAudio's ``pulse``
    device (the name goes to ``PULSE_SINK`` / ``PULSE_SOURCE``, read when a stream opens)."""
    changes: dict[str, Any] = {}
    for field, kind, variable in (("output_device", "sinks", "PULSE_SINK"),
                                  ("input_device", "sources", "PULSE_SOURCE")):
        name = getattr(settings, field)
        if isinstance(name, str) and name != "pulse" and name in pulse_devices(kind):
            os.environ[variable] = name
            changes[field] = "pulse"
    return replace(settings, **changes) if changes else settings


# ---------------------------------------------------------------------- a microphone that goes


class WatchedEars:
    """Voice ears whose microphone may go away (``LiveEars`` keeps typing beside them): the
    loss is announced, nothing is heard meanwhile, and the microphone is opened again every
    second until it returns. ``announce`` says and prints a message.

    ``later`` makes the ears on the first ``listen`` after the narrator's first words
    (``make, first_sound``), so opening the microphone and loading the recogniser never hold
    them up; nothing is heard (``ready`` is False) until then."""

    def __init__(self, ears: Any, reopen: Callable[[], Any], announce: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic, *,
                 later: tuple[Callable[[], Any], threading.Event] | None = None):
        self.ears = ears
        self.reopen = reopen
        self.announce = announce
        self.clock = clock
        self.lost = False
        self._retry_at = 0.0
        self._silent_since: float | None = None  # when the source was first seen stalled
        self.echo = EchoCheck()
        self._later, self._made_by = later, clock() + FIRST_SOUND_WAIT
        if ears is not None:
            self._meter(ears.source)

    def _made(self, wait: float) -> bool:
        """Whether the ears are there, making them once the first words were heard (waiting
        up to ``wait`` for them); a microphone that cannot be opened then is announced."""
        if self.ears is not None:
            return True
        if self._later is None:
            return False
        make, first_sound = self._later
        if not first_sound.wait(wait) and self.clock() < self._made_by:
            return False
        self._later = None
        try:
            self.ears = make()
        except Exception as exc:  # any failure to open a microphone must not end the game
            print(f"narrator: voice input is not available: {exc}", file=sys.stderr, flush=True)
            self.announce(NO_MIC)
            return False
        self._meter(self.ears.source)
        return True

    @property
    def ready(self) -> bool:
        """Whether the ears are made and their recogniser has loaded."""
        return self.ears is not None and getattr(self.ears, "ready", True)

    @property
    def notices(self) -> tuple[str, ...]:
        """News for the table, which the session says once each before a question: the ears'
        own (another engine in use), and ECHO once the microphone is found to hear the narrator
        loudly. Not said from here as found: that fell on the moment the table spoke ("Paused.
        Say resume to go on."), and the table's "resume" said over it was taken for the
        narrator's echo of its last words."""
        own = getattr(self.ears, "notice", None) if self.ears is not None else None
        return tuple(n for n in (own, ECHO if self.echo.heard_itself else None) if n)

    def listen(self, expectation: Expectation | None, *, mode: str = "asking", echo: str = "",
               timeout: float | None = None) -> Any:
        deadline = None if timeout is None else self.clock() + timeout
        while True:
            left = SLICE_SECONDS if deadline is None else min(SLICE_SECONDS,
                                                               deadline - self.clock())
            if left <= 0:
                return None
            if not self._made(left):
                if self.ears is None and self._later is None:  # no microphone after all
                    time.sleep(left)
                continue
            if self.lost:
                self._retry()
            if self.lost:
                time.sleep(min(left, 0.05))
                continue
            self.echo.speaking = mode == "reading"
            heard = self.ears.listen(expectation, mode=mode, echo=echo, timeout=left)
            if heard is not None:
                return heard
            source = self.ears.source
            if getattr(source, "stopped", False):  # gone for sure: no need to wait and see
                self._lose()
            elif getattr(source, "alive", True):
                self._silent_since = None
            elif self._silent_since is None:  # a busy machine's audio comes in bursts
                self._silent_since = self.clock()
            elif self.clock() - self._silent_since >= CONFIRM_SECONDS:
                self._lose()

    def __getattr__(self, name: str) -> Any:  # notice, ended_at, ... of the ears
        if name == "ears" or self.ears is None:
            raise AttributeError(name)
        return getattr(self.ears, name)

    def _lose(self) -> None:
        self.lost, self._retry_at = True, self.clock() + RETRY_SECONDS
        self._silent_since = None
        close = getattr(self.ears.source, "close", None)
        if close is not None:
            try:
                close()
            except Exception:  # the device is already gone; nothing to release
                pass
        self.announce(MIC_LOST)

    def _retry(self) -> None:
        if self.clock() < self._retry_at:
            return
        self._retry_at = self.clock() + RETRY_SECONDS
        try:
            self.ears.source = self.reopen()
        except RuntimeError:
            rescan()  # a raw ALSA device may come back under a new number
            return
        self._meter(self.ears.source)
        self.lost = False
        self.announce(MIC_BACK)

    def _meter(self, source: Any) -> None:
        """Let the echo check see every frame the microphone captures, before the echo
        canceller takes the narrator's voice out of it (a source without a ``tap``, such as a
        recording, is not checked)."""
        if hasattr(source, "tap"):
            source.tap = self.echo.hear
        canceller = getattr(source, "echo", None)
        if canceller is not None:
            self.echo.found = lambda: canceller.delay.found

    def close(self) -> None:
        if self.ears is not None and not self.lost:
            self.ears.close()


class EchoCheck:
    """Finds (``heard_itself``) that the microphone is far louder while the narrator speaks
    than while it is quiet, and the narrator's voice is found in it (``found``: the echo
    canceller's delay tracker; a table talking over the narration into a microphone that cannot
    hear it is no echo): it hears its own voice (a speaker next to the microphone, or a
    loopback). ``hear`` takes the raw capture (any thread)."""

    def __init__(self) -> None:
        self.found: Callable[[], bool] = lambda: True  # no canceller: loudness alone
        self.speaking = False
        self.levels: dict[bool, list[float]] = {True: [], False: []}
        self.heard_itself = False

    def hear(self, frame: bytes) -> None:
        if self.heard_itself:
            return
        from narrator.voice.mic import rms

        levels = self.levels[self.speaking]
        levels.append(rms(frame))
        del levels[:-ECHO_FRAMES]
        loud, quiet = (self.levels[True], self.levels[False])
        if len(loud) < ECHO_FRAMES or len(quiet) < ECHO_FRAMES:
            return
        speaking_level = sorted(loud)[len(loud) // 2]
        quiet_level = max(sorted(quiet)[len(quiet) // 2], 1.0)
        if speaking_level > ECHO_LEVEL and speaking_level > ECHO_RATIO * quiet_level \
                and self.found():
            self.heard_itself = True


# ---------------------------------------------------------------------- opening


def open_devices(voice: bool, speak: bool, text_ears: TextEars, settings: Settings,
                 tracks: int = MAX_TRACK) -> tuple[Ears, Mouth | None]:
    """The ears and mouth to use: voice input if asked for and possible, else ``text_ears``
    (voice ears for a game whose highest track is ``tracks``)."""
    from narrator.voice.sound_log import route_library_noise

    route_library_noise()
    settings = route_pulse_names(settings)
    mouth: Mouth | None = None
    if speak:
        from narrator.voice.speaker import make_speaker
        mouth = make_speaker(settings)

    def announce(text: str) -> None:
        """Said and captioned (as it is heard) by the mouth, else printed."""
        if mouth is not None:
            mouth.say(Said(text, "info"))
        else:
            print(f"narrator: {text}", file=sys.stderr, flush=True)

    ears: Ears = text_ears
    if voice:
        from narrator.voice.mic import Mic, check_input

        def make() -> Any:
            from narrator.voice.listener import make_ears
            return make_ears(settings, tracks)

        def reopen() -> Mic:
            return Mic(settings.input_device)

        push = settings.listen_mode == "push"  # Enter opens the microphone: no typing beside
        try:
            check_input(settings.input_device)
            if push or mouth is None:  # made now: nothing to wait for, or to fall back on later
                watched = WatchedEars(make(), reopen, announce)
            else:
                watched = WatchedEars(None, reopen, announce, later=(make, mouth.first_sound))
            ears = LiveEars(watched, None if push else text_ears, speaks=mouth is not None)
        except Exception as exc:  # any failure to open a microphone must not end the game
            print(f"Voice input is not available: {exc}\nFalling back to typed input: type "
                  f"what you would say and press Enter.", file=sys.stderr)
            if mouth is not None:
                mouth.say(Said(NO_MIC, "info"))
    return ears, mouth
