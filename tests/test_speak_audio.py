"""Speech out on real audio devices (issue 3, "Tests and measures"): Slow Burn tracks played
into a private PulseAudio null sink and recorded from its monitor."""

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
from narrator.voice.tts import Renderer

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

    def make(**settings):
        made.append(Speaker(Settings(output_device="pulse", **settings)))
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
    renderer = Renderer()
    clips = [Clip.load(renderer.render(s.text, None, rate)) for s in saids]
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


def test_the_room_disappearing_mid_track_leaves_captions_only(tmp_path, monkeypatch, capsys,
                                                              slow_burn):
    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path / "cache"))
    with audio_room() as env:
        narrator = Speaker(Settings(output_device="pulse"))
        for said in render(slow_burn, ReadTrack("t01")):
            narrator.say(said)
        time.sleep(1.0)
        assert narrator.is_speaking
        subprocess.run(["pulseaudio", "--kill"], env={**__import__("os").environ, **env},
                       timeout=30)
        assert narrator.wait(8), "the speaker gave up on the lost device"
        assert narrator.captions_only and not narrator.is_speaking
        narrator.say(Said("Track 2: Character Creation", "heading"))
        assert narrator.wait(1)
        narrator.close()
    assert capsys.readouterr().err.count("captions only") == 1
