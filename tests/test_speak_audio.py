"""Speech out on real audio devices (issues 3 and 14): Slow Burn tracks played into a private
PulseAudio null sink and recorded from its monitor; captions against what was heard; stop,
repeat, louder and --quiet at the speaker; the sink removed and added back mid-session."""

import io
import os
import re
import subprocess
import threading
import time

import numpy as np
import pytest
import soundfile as sf

from audio_room import audio_room, missing_tools
from narrator.events import ReadTrack, Said
from narrator.script.loader import find_script, load_script
from narrator.script.render import render
from narrator.settings import Settings
from narrator.voice.player import Clip
from narrator.voice.speaker import Speaker
from narrator.voice.tts import Renderer, sentences

pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(bool(missing_tools()),
                                 reason=f"PulseAudio tools missing: {missing_tools()}")]

ROOM_RATE = 16000  # tests/audio_room.py makes a 16 kHz null sink
BLOCK = 320  # 20 ms
LOUD = 0.003  # RMS of a 20 ms block that counts as sound


@pytest.fixture(scope="module")
def slow_burn():
    return load_script(find_script("slow_burn"))


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    with pytest.MonkeyPatch.context() as env:
        env.setenv("NARRATOR_CONFIG", str(tmp_path_factory.mktemp("cfg") / "config.yaml"))
        env.setenv("NARRATOR_CACHE", str(tmp_path_factory.mktemp("cache")))
        with audio_room():
            yield


@pytest.fixture
def speaker(room):
    made = []

    def make(show=lambda said: None, speak=True, **settings):
        settings.setdefault("voice", "espeak-ng")
        made.append(Speaker(Settings(output_device="pulse", **settings), show=show, speak=speak))
        return made[-1]

    yield make
    for s in made:
        s.close()


class Recorder:
    """Records the room's monitor in this process; each 20 ms block with its arrival time."""

    def __init__(self):
        import sounddevice as sd

        self.blocks: list[tuple[float, np.ndarray]] = []
        self.overflows = 0
        self._lock = threading.Lock()
        self._stream = sd.InputStream(device="pulse", samplerate=ROOM_RATE, channels=1,
                                      dtype="float32", blocksize=BLOCK, callback=self._take)

    def _take(self, data, frames, _time, status):
        with self._lock:
            self.blocks.append((time.monotonic(), data[:, 0].copy()))
            self.overflows += bool(status.input_overflow)

    def __enter__(self):
        """Start recording; return once blocks arrive in real time (PulseAudio takes a while)."""
        self._stream.start()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with self._lock:
                if self.blocks and time.monotonic() - self.blocks[0][0] > 0.3:
                    return self
            time.sleep(0.05)
        raise RuntimeError("the room's monitor records nothing")

    def __exit__(self, *exc):
        self._stream.close()

    def loud_times(self) -> np.ndarray:
        """When each block holding sound was heard (monotonic clock).

        Blocks arrive late and in bursts on a busy machine, so times come from the sample
        count (the sink's clock), anchored on the block that arrived with the least delay.
        """
        with self._lock:
            assert not self.overflows, "the recording lost samples"
            starts = np.arange(len(self.blocks)) * BLOCK / ROOM_RATE
            anchor = min(t - s for (t, _), s in zip(self.blocks, starts))
            return np.array([anchor + s for (_, b), s in zip(self.blocks, starts)
                             if np.sqrt(np.mean(b ** 2)) > LOUD])

    def samples(self) -> np.ndarray:
        with self._lock:
            return np.concatenate([b for _, b in self.blocks])


def sound_span(clips: list[Clip]) -> float:
    """Seconds from the first to the last audible sample of clips played back to back."""
    whole = np.concatenate([c.samples[:, 0] for c in clips])
    audible = np.flatnonzero(np.abs(whole) > 0.01)
    return (audible[-1] - audible[0]) / clips[0].samplerate


def test_track5_pauses_within_300ms_and_resumes_where_it_stopped(slow_burn, speaker):
    saids = render(slow_burn, ReadTrack("t05"))[:2]  # "Track 5: The Setting" and its first line
    rate = 1.5
    renderer = Renderer("espeak-ng")
    clips = [Clip.load(renderer.render(text, rate)) for s in saids for text in sentences(s.text)]
    narrator = speaker(rate=rate)
    with Recorder() as rec:
        for said in saids:
            narrator.say(said)
        time.sleep(2.0)
        paused_at = time.monotonic()
        narrator.pause()
        assert not narrator.is_speaking
        time.sleep(1.0)
        resumed_at = time.monotonic()
        narrator.resume()
        assert narrator.is_speaking
        assert narrator.wait(30)
        time.sleep(0.4)
    loud = rec.loud_times()
    speaking = loud[(loud > paused_at - 1.5) & (loud <= paused_at)]
    assert len(speaking) > 0.4 * 1.5 / 0.02, "sound while speaking"
    during_pause = loud[(loud > paused_at + 0.3) & (loud < resumed_at)]
    assert len(during_pause) == 0, f"sound {during_pause.max() - paused_at:.2f} s after pause"
    assert loud.max() > resumed_at + 1.0, "playback goes on after resume"
    heard = (loud.max() - loud.min()) - (resumed_at - paused_at)
    assert heard == pytest.approx(sound_span(clips), abs=0.25), "no restart, no skip"


def _words(text: str) -> str:
    numbers = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
               "fourteen fifteen sixteen seventeen eighteen nineteen").split()
    text = re.sub(r"\d+", lambda m: numbers[int(m.group())], text.lower().replace("-", " "))
    return " ".join(re.sub(r"[^a-z' ]", " ", text).split())


def test_track16_title_heard_in_the_room_is_spotted_among_all_titles(slow_burn, speaker,
                                                                      tmp_path):
    """pocketsphinx's English model hears espeak's voice poorly as free speech (this heading
    decodes as "to be pushing for free"), so it spots the 19 titles as key phrases: only the
    title of the track that played may be found."""
    from pocketsphinx import Decoder

    titles = {_words(t.title) for t in slow_burn.tracks}
    phrases = tmp_path / "titles.kws"
    phrases.write_text("".join(f"{t} /1e-20/\n" for t in sorted(titles)))
    narrator = speaker(voice="gmw/en-US")
    with Recorder() as rec:
        narrator.say(render(slow_burn, ReadTrack("t16"))[0])
        assert narrator.wait(15)
        time.sleep(0.4)
    pcm = (np.clip(rec.samples(), -1, 1) * 32767).astype(np.int16).tobytes()
    decoder = Decoder(samprate=ROOM_RATE, loglevel="FATAL")
    decoder.add_kws("titles", str(phrases))
    decoder.activate_search("titles")
    decoder.start_utt()
    decoder.process_raw(pcm, full_utt=True)
    decoder.end_utt()
    spotted = {seg.word.strip() for seg in decoder.seg()}
    assert spotted == {"pushing for freedom"}


def test_a_recorded_track_plays_instead_of_speech(tmp_path, speaker):
    recording = tmp_path / "track01.ogg"
    tone = 0.3 * np.sin(np.arange(ROOM_RATE) * 2 * np.pi * 440 / ROOM_RATE)
    sf.write(recording, tone, ROOM_RATE)
    narrator = speaker()
    with Recorder() as rec:
        narrator.say(Said("Track 1: Introduction", "heading", str(recording)))
        narrator.say(Said("Welcome, and thank you for playing Slow Burn.", "caption"))
        assert narrator.wait(10)
        time.sleep(0.4)
    loud = rec.loud_times()
    assert loud.max() - loud.min() == pytest.approx(1.0, abs=0.15)  # the tone, no speech
    heard = rec.samples()
    spectrum = np.abs(np.fft.rfft(heard))
    assert np.fft.rfftfreq(len(heard), 1 / ROOM_RATE)[spectrum.argmax()] == pytest.approx(440, abs=5)


class Shown(list):
    """Captions with the time each was shown."""

    def __call__(self, said):
        self.append((time.monotonic(), said.text))

    def texts(self):
        return [text for _, text in self]


def bursts(loud: np.ndarray, gap: float = 0.15) -> list[tuple[float, float]]:
    """(start, end) of each run of sound separated from the next by ``gap`` seconds of quiet."""
    if not len(loud):
        return []
    breaks = np.flatnonzero(np.diff(loud) > gap)
    starts = np.concatenate([[loud[0]], loud[breaks + 1]])
    ends = np.concatenate([loud[breaks], [loud[-1]]]) + BLOCK / ROOM_RATE
    return list(zip(starts, ends))


SHORT = ["Roll the dice.", "Count the sixes.", "Tell me the total."]


def test_each_caption_shows_as_its_sentence_is_heard_never_ahead(speaker):
    """And the loop is told each sentence as it is heard (``heard_to``: the self-trigger
    guard's memory), not when queued."""
    shown, told = Shown(), Shown()
    narrator = speaker(show=shown)
    narrator.heard_to(lambda text: told(Said(text)))
    with Recorder() as rec:
        narrator.say(Said(" ".join(SHORT)))
        assert narrator.wait(15)
        time.sleep(0.4)
    heard = bursts(rec.loud_times())
    assert shown.texts() == SHORT == told.texts() and len(heard) == len(SHORT), heard
    for (at, text), (start, _), previous in [*zip(shown, heard, [None] + heard[:-1]),
                                             *zip(told, heard, [None] + heard[:-1])]:
        # late is allowed up to a second (a loaded CI machine delivers callbacks in bursts);
        # ahead of its sound is not (issue 14's target: 0 captions ahead)
        assert at <= start + 1.0, f"{text!r} captioned {at - start:.2f} s after it was heard"
        if previous is not None:
            assert at >= previous[1] - 0.15, f"{text!r} captioned before the last one ended"


def test_stop_silences_the_reading_and_captions_the_rest_as_skipped(slow_burn, speaker):
    shown = Shown()
    narrator = speaker(show=shown)
    track = render(slow_burn, ReadTrack("t01"))
    with Recorder() as rec:
        for said in track:
            narrator.say(said)
        time.sleep(2.5)
        stopped_at = time.monotonic()
        narrator.skip()
        assert narrator.wait(1) and not narrator.is_speaking
        time.sleep(1.0)
    loud = rec.loud_times()
    assert len(loud[loud < stopped_at]) > 20 and not len(loud[loud > stopped_at + 0.3])
    skipped = [t for t in shown.texts() if t.startswith("(skipped) ")]
    spoken = [t for t in shown.texts() if not t.startswith("(skipped) ")]
    every = [text for said in track for text in sentences(said.text)]
    assert spoken + [t.removeprefix("(skipped) ") for t in skipped] == every
    assert len(spoken) >= 2 and len(skipped) > 10


def test_repeat_plays_the_passage_again_from_its_first_sentence(speaker):
    shown = Shown()
    narrator = speaker(show=shown)
    with Recorder() as rec:
        narrator.say(Said(" ".join(SHORT)))
        deadline = time.monotonic() + 10  # the table has heard the second sentence begin
        while len(shown) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)
        narrator.repeat()
        assert narrator.wait(15)
        time.sleep(0.4)
    texts = shown.texts()
    assert f"(again) {SHORT[0]}" in texts, texts
    again = texts.index(f"(again) {SHORT[0]}")
    assert texts[again:] == [f"(again) {s}" for s in SHORT] and texts[0] == SHORT[0]
    assert len(bursts(rec.loud_times())) >= len(SHORT) + 1


def burst_peaks(samples: np.ndarray, gap_blocks: int = 8) -> list[float]:
    """The peak of each run of loud 20 ms blocks (runs split by ``gap_blocks`` quiet ones)."""
    blocks = samples[:len(samples) // BLOCK * BLOCK].reshape(-1, BLOCK)
    loud = np.flatnonzero(np.sqrt(np.mean(blocks ** 2, axis=1)) > LOUD)
    runs = np.split(loud, np.flatnonzero(np.diff(loud) > gap_blocks) + 1) if len(loud) else []
    return [float(np.abs(blocks[run[0]:run[-1] + 1]).max()) for run in runs]


def test_louder_applies_from_the_next_sentence_and_quieter_brings_it_back(speaker):
    steps = []

    def show(said):  # the worker calls this as each sentence starts
        steps.append(said.text)
        if len(steps) == 1:
            narrator.louder()
        elif len(steps) == 2:
            narrator.quieter()

    narrator = speaker(show=show)
    with Recorder() as rec:
        narrator.say(Said("Roll the dice. Roll the dice. Roll the dice."))
        assert narrator.wait(15)
        time.sleep(0.4)
    peaks = burst_peaks(rec.samples())
    assert len(peaks) == 3, peaks
    assert peaks[1] / peaks[0] == pytest.approx(1.25, abs=0.08)
    assert peaks[2] / peaks[0] == pytest.approx(1.0, abs=0.08)
    assert narrator.settings.volume == 1.0


def test_quiet_captions_without_speaking_and_still_plays_earcons(speaker):
    shown = Shown()
    narrator = speaker(show=shown, speak=False)
    with Recorder() as rec:
        narrator.say(Said(" ".join(SHORT)))
        assert narrator.wait(2)
        time.sleep(0.5)
        quiet_until = time.monotonic()
        narrator.earcon("listening")
        time.sleep(0.6)
    assert shown.texts() == SHORT
    loud = rec.loud_times()
    assert not len(loud[loud < quiet_until]) and len(loud[loud > quiet_until]) >= 5


class _Journal(list):
    def append_undo(self):
        self.append("undo")


def _pactl(env, *args):
    return subprocess.run(["pactl", *args], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=30).stdout


def test_the_sink_removed_mid_track_and_added_back_the_session_goes_on(tmp_path, monkeypatch,
                                                                      slow_burn):
    """Typed answers are taken while the sink is gone; speech comes back with it."""
    from narrator.rules import registry
    from narrator.session.console import TextEars
    from narrator.session.loop import Session, run

    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path / "cache"))
    read_end, write_end = os.pipe()
    typed = os.fdopen(write_end, "w", buffering=1)
    shown, journal = Shown(), _Journal()
    with audio_room() as env:
        narrator = Speaker(Settings(output_device="pulse", voice="espeak-ng"), show=shown)
        session = Session(registry.get("slow-burn"), slow_burn, {})
        ears = TextEars(io.TextIOWrapper(os.fdopen(read_end, "rb")), echo=False)
        loop = threading.Thread(target=run, args=(session, ears, shown, journal, narrator))
        loop.start()
        time.sleep(1.5)
        assert narrator.is_speaking and not narrator.captions_only
        [module] = [line.split()[0] for line in _pactl(env, "list", "short", "modules").splitlines()
                    if "module-null-sink" in line]
        _pactl(env, "unload-module", module)
        deadline = time.monotonic() + 15  # how soon: bench/speak.py (device_loss_noticed_s)
        while not any(t.startswith("The sound output is gone") for t in shown.texts()):
            assert time.monotonic() < deadline, "the loss was not noticed"
            time.sleep(0.05)
        typed.write("first session\n")  # answered while there is no sound
        deadline = time.monotonic() + 10
        while "Track 2: Character Creation" not in shown.texts():
            assert time.monotonic() < deadline, "the typed answer was not taken"
            time.sleep(0.05)
        assert len(journal) == 1
        # the rest of Track 2 is captioned at once while there is no sound; the sink comes back
        # once the question waits (back mid-track, the whole track would be read aloud before
        # typing is read again: a minute and more)
        deadline = time.monotonic() + 10
        while "[listening]" not in shown.texts()[shown.texts().index("Track 2: Character "
                                                                      "Creation"):]:
            assert time.monotonic() < deadline, "Track 2's question did not come"
            time.sleep(0.05)
        _pactl(env, "load-module", "module-null-sink", "sink_name=room", "rate=16000")
        deadline = time.monotonic() + 15  # how soon: bench/speak.py (device_return_noticed_s)
        while "The sound output is back." not in shown.texts():
            assert time.monotonic() < deadline, "the sink's return was not noticed"
            time.sleep(0.05)
        with Recorder() as rec:
            typed.write("status\n")  # spoken
            deadline = time.monotonic() + 15
            while len(rec.loud_times()) <= 25:  # half a second of speech
                assert time.monotonic() < deadline, "speech did not resume in the room"
                time.sleep(0.1)
        typed.write("quit\n")
        typed.close()  # and the input ends: the session is saved and the loop returns
        loop.join(60)
        assert not loop.is_alive()
        narrator.close()


class _Gated:
    """espeak-ng behind a gate: a sentence starting "Hold" renders only once ``gate`` is set,
    and holds up every sentence queued after it."""

    engine_id = "gated-espeak-ng"

    def __init__(self, real: Renderer) -> None:
        self.real = real
        self.gate = threading.Event()

    def warm(self, voice) -> None:
        pass

    def synth(self, text, voice, rate, path) -> None:
        if text.startswith("Hold"):
            self.gate.wait(10)
        path.write_bytes(self.real.render(text, rate).read_bytes())


def test_stop_while_the_next_sentence_waits_to_render_leaves_the_narrator_speaking(room,
                                                                                 tmp_path):
    """"stop" drops a sentence whose rendering had not started while the speaker waited for
    it; the speaker goes on with what is said next (its thread died here, and a session that
    said "stop" in the middle of a track never ended)."""
    from narrator.voice.tts import _TtsThread

    engine = _Gated(Renderer("espeak-ng", cache=tmp_path / "real"))
    renderer = Renderer(cache=tmp_path / "gated", thread=_TtsThread(lambda: engine))
    shown = Shown()
    narrator = Speaker(Settings(output_device="pulse"), renderer, shown)
    try:
        renderer.prefetch("Hold the line.")  # the engine is busy with it
        narrator.say(Said("Roll the dice."))  # waits behind it
        time.sleep(0.5)
        narrator.stop()  # dropped while it waits
        engine.gate.set()
        with Recorder() as rec:
            narrator.say(Said("Count the sixes."))
            assert narrator.wait(10), "the speaker stopped working"
            time.sleep(0.4)
        assert shown.texts() == ["Count the sixes."]
        assert len(rec.loud_times()) > 10  # heard
    finally:
        narrator.close()


def test_in_a_session_each_sentence_is_captioned_as_it_is_heard_never_ahead(speaker):
    """Through the session loop: a line of two sentences and a question are captioned
    sentence by sentence as each is heard (the loop hands its captions to the speaker)."""
    from narrator.session.console import TextEars
    from narrator.session.game import Session
    from narrator.session.loop import Table
    from toy_game import INFO, SCRIPT

    shown = Shown()
    read_end, write_end = os.pipe()  # typed input that stays quiet
    ears = TextEars(io.TextIOWrapper(os.fdopen(read_end, "rb")), echo=False)
    table = Table(Session(INFO, SCRIPT, {}), ears, shown, _Journal(), speaker())
    with Recorder() as rec:
        table.deliver([Said(" ".join(SHORT[:2]), "line"), Said(SHORT[2], "prompt")])
        time.sleep(0.4)
    os.close(write_end)
    heard = [(a, b) for a, b in bursts(rec.loud_times()) if b - a > 0.2]  # not an underrun's
    captions = [(at, text) for at, text in shown if not text.startswith("[")]
    assert [text for _, text in captions] == SHORT and len(heard) == len(SHORT), heard
    for (at, text), (start, _), previous in zip(captions, heard, [None] + heard[:-1]):
        # late is allowed up to a second (a loaded CI machine delivers callbacks in bursts);
        # ahead of its sound is not (issue 14's target: 0 captions ahead)
        assert at <= start + 1.0, f"{text!r} captioned {at - start:.2f} s after it was heard"
        assert at >= start - 0.05, f"{text!r} captioned {start - at:.2f} s ahead of its sound"
        if previous is not None:
            assert at >= previous[1] - 0.15, f"{text!r} captioned before the last one ended"
