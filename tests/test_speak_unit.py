"""Speech out without a sound card (issues 3 and 14): engines and the render cache, the engine
thread's timeout, sentences, rates and volumes, earcons, recorded tracks in `narrator render`,
`narrator voices`, and captions going on without a device."""

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
import soundfile as sf

from narrator.events import Said
from narrator.script.model import Script, Track
from narrator.settings import Settings, load_settings
from narrator.voice.earcons import EARCONS, earcon
from narrator.voice.player import Clip
from narrator.voice.render_tracks import render_script
from narrator.voice.speaker import Speaker, make_speaker
from narrator.voice.engines import best_engine, parse_voice, spec
from narrator.voice.tts import Renderer, TtsError, _TtsThread, cache_key, sentences

NO_DEVICE = Settings(output_device="no-such-device-anywhere")


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def renderer(tmp_path_factory):
    return Renderer("espeak-ng", cache=tmp_path_factory.mktemp("speech"))


# ------------------------------------------------------------------ cache


def test_cache_key_changes_with_text_voice_rate_and_engine_version():
    base = ("Track 5: The Setting", "en", 1.0, "espeak-ng 1.51 22050")
    key = cache_key(*base)
    assert key == cache_key(*base)
    for i, other in enumerate(["Track 6: X", "gmw/en-US", 1.25, "festival 2.5.0"]):
        changed = list(base)
        changed[i] = other
        assert cache_key(*changed) != key


def test_a_rendered_text_is_served_from_the_cache_the_second_time(renderer):
    path = renderer.render("Proceed to Track 3: Fleur-de-Lis Tokens.")
    first = path.stat().st_mtime_ns
    assert renderer.render("Proceed to Track 3: Fleur-de-Lis Tokens.") == path
    assert path.stat().st_mtime_ns == first
    assert Clip.load(path).seconds > 1.0


def test_faster_rate_renders_shorter_speech(renderer):
    text = "Write a track of consecutive numbers from one through to ten."
    lengths = [Clip.load(renderer.render(text, r)).seconds for r in (0.5, 1.0, 3.0)]
    assert lengths[0] > 1.5 * lengths[1]
    assert lengths[2] < lengths[1] / 2


def test_an_unknown_voice_is_refused_by_name(tmp_path):
    for voice in ("espeak-ng:no-such-voice", "festival:no-such-voice"):
        with pytest.raises(TtsError, match="no-such-voice"):
            Renderer(voice, cache=tmp_path).render("Hello")


def test_voice_settings_name_an_engine_a_voice_or_both():
    assert parse_voice(None) == (best_engine(), None)
    assert parse_voice("festival") == ("festival", None)
    assert parse_voice("festival:cmu_us_slt_arctic_hts") == ("festival", "cmu_us_slt_arctic_hts")
    assert parse_voice("cmu_us_slt_arctic_hts") == ("festival", "cmu_us_slt_arctic_hts")
    assert parse_voice("gmw/en-US") == ("espeak-ng", "gmw/en-US")


def test_festival_is_preferred_to_espeak_and_renders_at_the_rate_asked(tmp_path):
    assert best_engine() in ("piper", "festival")  # festvox-us-slt-hts is installed (.ci/run)
    festival = Renderer("festival", cache=tmp_path)
    text = "Write a track of consecutive numbers from one through to ten."
    normal, fast = (Clip.load(festival.render(text, r)).seconds for r in (1.0, 1.6))
    assert normal > 2.0 and fast < normal / 1.3


def test_festival_leaves_no_temporary_folder_when_the_app_is_stopped(tmp_path):
    """Each `narrator play` stopped with Ctrl-C left a narrator-festival-* folder in /tmp: the
    speech thread still held the engine at exit, so it was never cleaned. A process that
    speaks from such a thread and is interrupted now leaves none."""
    speaks = ("import sys\nfrom pathlib import Path\n"
              "from narrator.voice.tts import Renderer\n"
              "Renderer('festival', cache=Path(sys.argv[1])).render('Hello.', 1.0)\n"
              "raise KeyboardInterrupt\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    done = subprocess.run([sys.executable, "-c", speaks, str(tmp_path / "cache")],
                          env={**os.environ, "TMPDIR": str(tmp)}, capture_output=True,
                          text=True, timeout=60)
    assert "KeyboardInterrupt" in done.stderr and (tmp_path / "cache").exists()
    assert not list(tmp.glob("narrator-festival-*"))


def test_a_festival_folder_left_by_a_killed_app_is_removed_by_the_next_one(tmp_path):
    """A process killed outright (SIGKILL) runs no clean-up and left its narrator-festival-*
    folder in /tmp (2 per CI run). The next Festival engine removes it; the folder of a
    process still running is kept."""
    killed = ("import os, signal, sys\nfrom pathlib import Path\n"
              "from narrator.voice.tts import Renderer\n"
              "Renderer('festival', cache=Path(sys.argv[1])).render('Hello.', 1.0)\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    subprocess.run([sys.executable, "-c", killed, str(tmp_path / "cache")], env=env,
                   timeout=60)
    left = list(tmp.glob("narrator-festival-*"))
    assert len(left) == 1
    running = tmp / f"narrator-festival-{os.getpid()}-live"
    running.mkdir()
    subprocess.run([sys.executable, "-c", killed.replace("os.kill", "0 and os.kill"),
                    str(tmp_path / "cache")], env=env, check=True, timeout=60)
    assert not left[0].exists() and running.exists()


@pytest.mark.skipif(spec("piper").missing() is not None,
                    reason="no Piper voice installed (see models/README.md)")
def test_piper_renders_with_an_installed_voice_at_the_rate_asked(tmp_path):
    piper = Renderer("piper", cache=tmp_path)
    text = "Write a track of consecutive numbers from one through to ten."
    normal, fast = (Clip.load(piper.render(text, r)).seconds for r in (1.0, 1.6))
    assert normal > 2.0 and fast < normal / 1.3
    assert any(v.licence for v in piper.voices())


def test_text_is_cut_into_sentences_after_their_final_stop():
    assert sentences('Roll two dice. "Six!" she said. Is it 3? Yes... 4 more. e.g. x') == [
        "Roll two dice.", '"Six!" she said.', "Is it 3?", "Yes...", "4 more. e.g. x"]
    assert sentences("Track 5: The Setting") == ["Track 5: The Setting"]


# ------------------------------------------------------------------ engine thread


class _Hanging:
    """A speech engine whose rendering never returns, like runAndWait at its worst."""

    name, engine_id = "hanging", "hanging 1"

    def __init__(self):
        self.release = threading.Event()

    def voices(self):
        return []

    def synth(self, text, voice, rate, path):
        self.release.wait()


def test_a_hanging_engine_times_out_and_reports_instead_of_freezing(tmp_path):
    backend = _Hanging()
    renderer = Renderer(cache=tmp_path, timeout=0.3, thread=_TtsThread(lambda: backend))
    start = time.monotonic()
    with pytest.raises(TtsError, match="did not answer"):
        renderer.render("Track 1: Introduction")
    with pytest.raises(TtsError):  # stuck: later calls fail at once
        renderer.render("Track 2: Character Creation")
    assert time.monotonic() - start < 2
    backend.release.set()


def test_a_missing_engine_names_what_to_install(tmp_path):
    def broken():
        raise RuntimeError("This means you probably do not have eSpeak or eSpeak-ng installed!")

    with pytest.raises(TtsError, match="espeak-ng"):
        Renderer(cache=tmp_path, thread=_TtsThread(broken))


# ------------------------------------------------------------------ device loss


def test_no_output_device_gives_no_speaker_and_says_what_to_check(capsys):
    assert make_speaker(NO_DEVICE) is None
    err = capsys.readouterr().err
    assert "narrator devices" in err and "PulseAudio" in err


def test_without_a_device_every_sentence_is_captioned_in_order_and_the_loss_once(renderer):
    shown = []
    speaker = Speaker(NO_DEVICE, renderer, shown.append)
    deadline = time.monotonic() + 5
    while not speaker.captions_only and time.monotonic() < deadline:  # no device: noticed
        time.sleep(0.01)
    speaker.say(Said("Track 5: The Setting", "heading"))
    speaker.say(Said("As a blacklisted spy, you're on all the watchlists. Nobody helps."))
    assert speaker.wait(5)
    assert speaker.captions_only and not speaker.is_speaking
    speaker.say(Said("Proceed to Track 6."))
    speaker.earcon("accepted")
    assert speaker.wait(1)
    texts = [s.text for s in shown]
    assert texts[1:] == ["Track 5: The Setting", "As a blacklisted spy, you're on all the "
                         "watchlists.", "Nobody helps.", "Proceed to Track 6."]
    assert texts[0].startswith("The sound output is gone")
    assert sum(t.startswith("The sound output is gone") for t in texts) == 1
    speaker.close()


# ------------------------------------------------------------------ rate control


def test_faster_and_slower_stay_between_half_and_three_times_and_persist(renderer):
    speaker = Speaker(NO_DEVICE, renderer)
    rates = [speaker.faster() for _ in range(8)]
    assert rates[0] > 1.0 and rates[-1] == 3.0
    assert load_settings().rate == 3.0
    rates = [speaker.slower() for _ in range(12)]
    assert rates[-1] == 0.5 and load_settings().rate == 0.5
    speaker.close()


def test_louder_and_quieter_step_between_a_quarter_and_twice_and_persist(renderer):
    speaker = Speaker(NO_DEVICE, renderer)
    assert speaker.louder() == 1.25 and load_settings().volume == 1.25
    assert [speaker.louder() for _ in range(5)][-1] == 2.0
    assert [speaker.quieter() for _ in range(10)][-1] == 0.25
    assert load_settings().volume == 0.25 and load_settings().rate == 1.0
    speaker.close()


# ------------------------------------------------------------------ earcons


def _pitch(samples, rate):
    spectrum = np.abs(np.fft.rfft(samples))
    return np.fft.rfftfreq(len(samples), 1 / rate)[spectrum.argmax()]


def test_listening_rises_unclear_falls_and_accepted_is_one_short_note():
    rate = 16000
    for name, direction in (("listening", 1), ("unclear", -1)):
        tone = earcon(name, rate)
        half = len(tone) // 2
        assert np.sign(_pitch(tone[half:], rate) - _pitch(tone[:half], rate)) == direction
    assert len(earcon("accepted", rate)) / rate < 0.1
    assert all(0.05 < len(earcon(n, rate)) / rate < 0.3 for n in EARCONS)
    assert all(np.abs(earcon(n, rate)).max() <= 0.5 for n in EARCONS)


# ------------------------------------------------------------------ narrator render


def test_render_writes_one_file_per_track_and_a_recorded_track_is_its_recording(
        tmp_path, renderer):
    folder = tmp_path / "game"
    folder.mkdir()
    tone = 0.2 * np.sin(np.arange(8000) * 2 * np.pi * 440 / 16000)
    sf.write(folder / "intro.flac", tone, 16000)
    script = Script("toy", "Toy", folder, "t01", (
        Track("t01", 1, "Introduction", ("Welcome.",), audio=folder / "intro.flac"),
        Track("t02", 2, "The Job", ("Someone needs help.", "Proceed to Track 3.")),
    ))
    done = []
    paths = render_script(script, tmp_path / "out", renderer, done=done.append)
    assert [p.name for p in paths] == ["Track01.wav", "Track02.wav"]
    assert [t.id for t in done] == ["t01", "t02"]
    recorded, rate = sf.read(paths[0])
    assert rate == 16000 and len(recorded) == 8000
    spoken = sf.info(paths[1]).duration
    parts = sum(Clip.load(renderer.render(t)).seconds
                for t in ("Track 2: The Job", "Someone needs help.", "Proceed to Track 3."))
    assert parts < spoken < parts + 1.0


# ------------------------------------------------------------------ command line


def test_narrator_render_slow_burn_writes_its_19_tracks(tmp_path):
    from typer.testing import CliRunner

    from narrator.cli import app

    result = CliRunner().invoke(app, ["render", "slow-burn", "--out", str(tmp_path / "out"),
                                      "--voice", "espeak-ng"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        f"Track{n:02d}.wav" for n in range(1, 20)]
    assert sf.info(tmp_path / "out" / "Track05.wav").duration > 10


@pytest.mark.parametrize("args, message", [(["--rate", "9"], "rate must be between"),
                                           (["--voice", "nope"], "no voice 'nope'"),
                                           (["--voice", "festival:nope"], "no voice 'nope'")])
def test_narrator_render_refuses_a_bad_option_by_name(tmp_path, args, message):
    from typer.testing import CliRunner

    from narrator.cli import app

    result = CliRunner().invoke(app, ["render", "slow-burn", "--out", str(tmp_path), *args])
    assert result.exit_code == 1 and message in result.output


def test_narrator_voices_lists_every_engine_and_english_voice_with_its_licence():
    from typer.testing import CliRunner

    from narrator.cli import app

    result = CliRunner().invoke(app, ["voices", "--language", "en"])
    assert result.exit_code == 0, result.output
    assert "espeak-ng:gmw/en-US" in result.output and "Afrikaans" not in result.output
    assert "festival:cmu_us_slt_arctic_hts" in result.output
    assert "EST-2003 (festvox-us-slt-hts)" in result.output
    assert "GPL-3.0-or-later (espeak-ng)" in result.output
    assert result.output.startswith("piper (")  # listed even when not installed, with why
    assert "chosen by default" in result.output


def test_narrator_voices_try_refuses_an_unknown_voice_by_name():
    from typer.testing import CliRunner

    from narrator.cli import app

    result = CliRunner().invoke(app, ["voices", "--try", "festival:nope"])
    assert result.exit_code == 1 and "no voice 'nope'" in result.output


def test_a_mouth_that_captions_shows_each_line_as_heard_and_marks_a_passage_said_again():
    """The loop hands its captions to a Speaker-like mouth (``caption_to``): every spoken line
    is captioned once, by the mouth, and a passage said again after "repeat" is marked."""
    from test_loop_states import Mouth, play

    class Captioning(Mouth):
        def caption_to(self, show):
            self.show = show

        def say(self, said, again=False):
            super().say(said)
            self.show(Said(f"(again) {said.text}" if again else said.text, said.kind))

    transcript, _, _, mouth, *_ = play([("asking", "next"), ("asking", "go to track 2"),
                                        ("asking", "repeat")], mouth=Captioning())
    shown = [line for line in transcript.splitlines() if line and not line.startswith("[")]
    again = len(["Track 2: Credits", "Made for tests.", "How many players?"])
    assert shown == mouth.spoken[:-again] + [f"(again) {t}" for t in mouth.spoken[-again:]]
    assert mouth.spoken[-again:] == ["Track 2: Credits", "Made for tests.", "How many players?"]


def test_the_first_words_of_a_long_sentence_render_as_their_own_clause():
    from narrator.voice.tts import first_clause

    long = "You have been dumped in a city, with no money and no friends to call on."
    assert first_clause(long) == ["You have been dumped in a city,",
                                  "with no money and no friends to call on."]
    assert first_clause("Roll three dice for the Opposition, please.") == [
        "Roll three dice for the Opposition, please."]  # too little on one side: whole
    assert first_clause("Roll the dice.") == ["Roll the dice."]


def test_a_sound_library_line_said_a_million_times_is_logged_a_few_times(caplog):
    """A stream left behind on a lost device repeats one complaint endlessly: the log keeps it
    once with counts, so it cannot fill the disk; a different line is logged at once."""
    from narrator.voice.sound_log import Repeats

    spin = "Expression 'self->capture.ready || self->playback.ready' failed in 'pa_linux_alsa.c'"
    noise = Repeats()
    with caplog.at_level("INFO", logger="narrator.sound"):
        for _ in range(1_000_000):
            noise.log(spin)
        noise.log("ALSA lib pcm.c: underrun occurred")
    logged = [r.getMessage() for r in caplog.records]
    assert logged[0] == spin and logged[-1] == "ALSA lib pcm.c: underrun occurred"
    assert len(logged) == 1 + 5 + 1  # then at 10, 100, ... 100000 more times
    assert logged[-2] == "(the line above came 100000 more times)"


# ------------------------------------------------------------------ the first words first


class _Ears:
    """Ears that hear "ready" at once (what WatchedEars makes and wraps)."""

    ready = True

    def __init__(self) -> None:
        from narrator.voice.mic import Frames
        self.source = Frames(b"\0" * 960 * 10)

    def listen(self, expectation, *, mode="asking", echo="", timeout=None):
        return "ready"


def test_the_microphone_is_opened_only_once_the_first_words_are_heard():
    from narrator.session.devices import WatchedEars

    made, said, first_sound = [], [], threading.Event()
    ears = WatchedEars(None, _Ears, said.append,
                       later=(lambda: made.append(_Ears()) or made[-1], first_sound))
    assert ears.listen(None, timeout=0.3) is None
    assert not made and not ears.ready  # the recogniser is not loading yet: typing works
    first_sound.set()
    assert ears.listen(None, timeout=0.3) == "ready"
    assert len(made) == 1 and ears.ready and not said


def test_a_microphone_that_cannot_be_opened_after_the_first_words_is_said_once(capsys):
    from narrator.session.devices import NO_MIC, WatchedEars

    said, first_sound = [], threading.Event()
    first_sound.set()

    def no_microphone():
        raise RuntimeError("no microphone to listen with")

    ears = WatchedEars(None, _Ears, said.append, later=(no_microphone, first_sound))
    assert ears.listen(None, timeout=0.2) is None and ears.listen(None, timeout=0.2) is None
    assert said == [NO_MIC] and not ears.ready
    assert "no microphone to listen with" in capsys.readouterr().err


def test_without_a_device_the_first_words_are_not_waited_for(renderer):
    speaker = Speaker(NO_DEVICE, renderer)
    assert speaker.first_sound.wait(5)  # the device is gone: nothing will be heard
    speaker.close()


class _ReadingMouth:
    """A mouth that reads each line for a second (what the loop waits on)."""

    def __init__(self) -> None:
        self.until = 0.0

    def say(self, said) -> None:
        self.until = time.monotonic() + 1.0

    @property
    def is_speaking(self) -> bool:
        return time.monotonic() < self.until

    def earcon(self, name: str) -> None:
        pass


def test_typed_play_with_speech_waits_idle_while_the_narrator_reads():
    """`--input text --speak`: nothing is typed while a line is read, and the loop must not spin
    meanwhile (it took a third of a core, and starved the speaker's thread of its lock)."""
    import io
    import os

    from narrator.session.console import TextEars
    from narrator.session.game import Session
    from narrator.session.loop import Table
    from toy_game import INFO, SCRIPT

    read_end, write_end = os.pipe()
    ears = TextEars(io.TextIOWrapper(os.fdopen(read_end, "rb")), echo=False)
    table = Table(Session(INFO, SCRIPT, {}), ears, lambda said: None, [], _ReadingMouth())
    used = []

    def deliver() -> None:
        start = time.thread_time()
        table.deliver([Said("Roll the dice.", "line")])
        used.append(time.thread_time() - start)

    reader = threading.Thread(target=deliver)
    reader.start()
    reader.join(5)
    os.close(write_end)
    assert used and used[0] < 0.2, f"{used} s of CPU while a 1 s line was read"


class _StoppedSource:
    """A microphone whose stream stopped (its device went away)."""

    stopped, alive = True, False

    def read(self, timeout=None):
        return None

    def close(self) -> None:
        pass


def test_a_microphone_whose_stream_stopped_is_lost_at_the_first_look():
    from narrator.session.devices import MIC_LOST, WatchedEars

    ears, said = _Ears(), []
    ears.listen = lambda *a, **k: None  # nothing heard: the stream ended
    watched = WatchedEars(ears, _StoppedSource, said.append)
    ears.source = _StoppedSource()
    start = time.monotonic()
    watched.listen(None, timeout=0.35)
    assert watched.lost and said == [MIC_LOST]
    assert time.monotonic() - start < 0.5  # not after a further half second of stall
