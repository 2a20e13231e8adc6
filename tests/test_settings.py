"""Settings persist in a config file (issue 3: "Settings persist in a config file") and the
play options (--voice --rate --volume --output-device --quiet) are checked when parsed."""

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from narrator.settings import (Settings, config_path, load_settings, parse_device,
                               save_settings, with_options)


@pytest.fixture(autouse=True)
def config(tmp_path, monkeypatch):
    path = tmp_path / "narrator" / "config.yaml"
    monkeypatch.setenv("NARRATOR_CONFIG", str(path))
    return path


def test_no_config_file_gives_the_defaults(config):
    assert load_settings() == Settings()
    assert not config.exists()


def test_config_path_follows_NARRATOR_CONFIG(config):
    assert config_path() == config


@hsettings(max_examples=30, deadline=None)
@given(voice=st.one_of(st.none(), st.sampled_from(["gmw/en-US", "en", "yes"])),
       rate=st.floats(0.5, 3.0), volume=st.floats(0.0, 1.0),
       device=st.one_of(st.none(), st.integers(0, 40), st.sampled_from(["pulse", "USB Audio"])),
       quiet=st.booleans(), mode=st.sampled_from(["open", "push"]))
def test_settings_round_trip_through_the_file(voice, rate, volume, device, quiet, mode):
    saved = Settings(voice=voice, rate=rate, volume=volume, output_device=device, quiet=quiet,
                     input_device=device, engine="vosk", model="small-en", listen_mode=mode)
    save_settings(saved)
    assert load_settings() == saved


def test_a_damaged_config_file_is_reported_and_defaults_used(config, capsys):
    config.parent.mkdir(parents=True)
    config.write_text("rate: [unclosed\n")
    assert load_settings() == Settings()
    assert str(config) in capsys.readouterr().err


def test_a_bad_value_in_the_file_is_ignored_and_the_rest_kept(config, capsys):
    config.parent.mkdir(parents=True)
    config.write_text("rate: 9\nvoice: gmw/en-US\ncolour: red\n")
    loaded = load_settings()
    assert loaded.rate == 1.0 and loaded.voice == "gmw/en-US"
    err = capsys.readouterr().err
    assert "rate" in err and "colour" in err


@pytest.mark.parametrize("given_text, device", [("3", 3), ("pulse", "pulse"), ("", None),
                                                (" 12 ", 12), (None, None)])
def test_output_device_option_takes_an_index_or_a_name(given_text, device):
    assert parse_device(given_text) == device


def test_options_given_override_and_options_not_given_keep_the_setting():
    base = Settings(voice="en", rate=1.5)
    got = with_options(base, voice=None, rate="2", volume=0.5, output_device="7", quiet=True)
    assert got == Settings(voice="en", rate=2.0, volume=0.5, output_device=7, quiet=True)
    assert base.rate == 1.5  # the original is untouched


@pytest.mark.parametrize("option", [{"rate": 0.2}, {"rate": 3.5}, {"volume": 2.5},
                                    {"rate": "fast"}, {"listen_mode": "always"}])
def test_an_option_out_of_range_is_refused_with_its_name(option):
    with pytest.raises(ValueError, match=next(iter(option))):
        with_options(Settings(), **option)
