"""Speech out without a sound card (issue 3): the render cache, the engine thread's timeout,
rates, earcons, recorded tracks in `narrator render`, and the device-loss fallback."""

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
from narrator.voice.tts import Renderer, TtsError, _TtsThread, cache_key

NO_DEVICE = Settings(output_device="no-such-device-anywhere")


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def renderer(tmp_path_factory):
    return Renderer(cache=tmp_path_factory.mktemp("speech"))


# ------------------------------------------------------------------ cache


def test_cache_key_changes_with_text_voice_rate_and_engine_version():
    base = ("Track 5: The Setting", "en", 175, "espeak-ng 1.51 22050")
    key = cache_key(*base)
    assert key == cache_key(*base)
    for i, other in enumerate(["Track 6: X", "gmw/en-US", 176, "espeak-ng 1.52 22050"]):
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
    lengths = [Clip.load(renderer.render(text, rate=r)).seconds for r in (0.5, 1.0, 3.0)]
    assert lengths[0] > 1.5 * lengths[1]
    assert lengths[2] < lengths[1] / 2


def test_an_unknown_voice_is_refused_by_name(renderer):
    with pytest.raises(TtsError, match="no-such-voice"):
        renderer.render("Hello", voice="no-such-voice")


# ------------------------------------------------------------------ engine thread


class _Hanging:
    """A speech engine whose rendering never returns, like runAndWait at its worst."""

    engine_id, default_rate = "hanging 1", 175

    def __init__(self):
        self.release = threading.Event()

    def voices(self):
        return []

    def synth(self, text, voice, wpm, path):
        self.release.wait()


def test_a_hanging_engine_times_out_and_reports_instead_of_freezing(tmp_path):
    backend = _Hanging()
    renderer = Renderer(cache=tmp_path, timeout=0.3, engine=_TtsThread(lambda: backend))
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
        Renderer(cache=tmp_path, engine=_TtsThread(broken))


def test_a_stuck_engine_turns_the_speaker_into_captions_only(tmp_path, capsys):
    backend = _Hanging()
    renderer = Renderer(cache=tmp_path, timeout=0.3, engine=_TtsThread(lambda: backend))
    speaker = Speaker(NO_DEVICE, renderer)
    speaker.say(Said("Track 1: Introduction", "heading"))
    assert speaker.wait(5)
    assert speaker.captions_only
    assert "captions only" in capsys.readouterr().err
    speaker.close()
    backend.release.set()


# ------------------------------------------------------------------ device loss


def test_no_output_device_gives_no_speaker_and_says_what_to_check(capsys):
    assert make_speaker(NO_DEVICE) is None
    err = capsys.readouterr().err
    assert "narrator devices" in err and "PulseAudio" in err


def test_quiet_gives_no_speaker_and_no_message(capsys):
    assert make_speaker(Settings(quiet=True)) is None
    assert capsys.readouterr().err == ""


def test_a_failing_device_turns_the_speaker_into_captions_only_once(renderer, capsys):
    speaker = Speaker(NO_DEVICE, renderer)
    speaker.say(Said("Track 5: The Setting", "heading"))
    assert speaker.wait(5)
    assert speaker.captions_only and not speaker.is_speaking
    speaker.say(Said("As a blacklisted spy, you're on all the watchlists."))
    speaker.earcon("accepted")
    assert speaker.wait(1)
    assert capsys.readouterr().err.count("captions only") == 1
    speaker.close()


# ------------------------------------------------------------------ rate control


def test_faster_and_slower_stay_between_half_and_three_times_and_persist(renderer):
    speaker = Speaker(Settings(rate=1.0), renderer)
    rates = [speaker.faster() for _ in range(8)]
    assert rates[0] > 1.0 and rates[-1] == 3.0
    assert load_settings().rate == 3.0
    rates = [speaker.slower() for _ in range(12)]
    assert rates[-1] == 0.5 and load_settings().rate == 0.5
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

    result = CliRunner().invoke(app, ["render", "slow-burn", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        f"Track{n:02d}.wav" for n in range(1, 20)]
    assert sf.info(tmp_path / "out" / "Track05.wav").duration > 10


@pytest.mark.parametrize("args, message", [(["--rate", "9"], "rate must be between"),
                                           (["--voice", "nope"], "no voice 'nope'")])
def test_narrator_render_refuses_a_bad_option_by_name(tmp_path, args, message):
    from typer.testing import CliRunner

    from narrator.cli import app

    result = CliRunner().invoke(app, ["render", "slow-burn", "--out", str(tmp_path), *args])
    assert result.exit_code == 1 and message in result.output


def test_narrator_voices_lists_english_voices_by_id():
    from typer.testing import CliRunner

    from narrator.cli import app

    result = CliRunner().invoke(app, ["voices", "--language", "en"])
    assert result.exit_code == 0 and "gmw/en-US" in result.output
    assert "Afrikaans" not in result.output
