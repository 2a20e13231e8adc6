"""The spare output stream (narrator/voice/spare_stream.py) that lets a pause drop what the
device had buffered: taken only once it plays at once, renewed after each take, closed for
good; a device that holds one stream only leaves the player as it was. The room test is
tests/test_speak_audio.py::test_a_pause_is_silent_at_once_not_after_the_sound_the_device_had_buffered."""

from __future__ import annotations

import time

from narrator.voice import spare_stream
from narrator.voice.spare_stream import Spare


class FakeStream:
    def __init__(self) -> None:
        self.active, self.closed = True, False

    def abort(self, ignore_errors: bool = True) -> None:
        self.active = False

    def close(self, ignore_errors: bool = True) -> None:
        self.closed = True


def opener(fail: bool = False):
    made: list[FakeStream] = []

    def open_stream() -> FakeStream:
        if fail:
            raise ValueError("device busy")
        made.append(FakeStream())
        return made[-1]

    return open_stream, made


def settle(spare: Spare) -> None:
    if spare._opener is not None:
        spare._opener.join(2)


def test_a_spare_is_taken_once_it_plays_at_once_and_another_opens_behind_it(monkeypatch):
    open_stream, made = opener()
    spare = Spare(open_stream)
    settle(spare)
    assert spare.take() is None  # just opened: what it is given would not be heard yet
    monkeypatch.setattr(spare_stream, "READY", 0.0)
    first = spare.take()
    assert first is made[0] and not spare.is_stream(first)
    settle(spare)
    assert len(made) == 2 and spare.is_stream(made[1])
    spare.close()
    assert made[1].closed and spare.take() is None


def test_a_spare_that_stopped_is_not_taken(monkeypatch):
    monkeypatch.setattr(spare_stream, "READY", 0.0)
    open_stream, made = opener()
    spare = Spare(open_stream)
    settle(spare)
    made[0].active = False  # its device went away
    assert spare.take() is None


def test_a_device_that_holds_one_stream_only_gives_no_spare(monkeypatch):
    monkeypatch.setattr(spare_stream, "READY", 0.0)
    open_stream, _ = opener(fail=True)
    spare = Spare(open_stream)
    settle(spare)
    assert spare.take() is None


def test_a_spare_opened_after_close_is_closed_at_once():
    made: list[FakeStream] = []

    def slow_open() -> FakeStream:
        time.sleep(0.2)
        made.append(FakeStream())
        return made[-1]

    spare = Spare(slow_open)
    spare.close()  # while it is still opening
    settle(spare)
    assert made and made[0].closed
