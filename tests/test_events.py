"""Every message in the loop survives its JSON round trip (found automatically)."""

import json

import pytest

from narrator import events
from narrator.events import all_messages, from_dict, to_dict

SAMPLES = {
    "Continue": events.Continue(),
    "Dice": events.Dice((4, 9, 12), by_app=True),
    "Successes": events.Successes(3),
    "Number": events.Number(7),
    "Word": events.Word("curse", 7),
    "Text": events.Text("Agent Moss"),
    "Control": events.Control("goto", 7),
    "Unclear": events.Unclear("blah", "not now"),
    "Line": events.Line("total", {"faces": [4, 9], "total": 13}),
    "ReadTrack": events.ReadTrack("t07"),
    "Said": events.Said("Track 7: The Job", "heading", "audio/t07.ogg"),
    "Utterance": events.Utterance("four and nine", events.Dice((4, 9)), 0.62, "whisper", False),
}


@pytest.mark.parametrize("meaning", [events.Control("goto", 7), events.Unclear("um", "no"),
                                     events.Text("Mara"), events.Continue()])
def test_an_utterance_keeps_its_meaning_through_json(meaning):
    heard = events.Utterance("x", meaning, 1.0, "text")
    assert from_dict(json.loads(json.dumps(to_dict(heard)))) == heard


@pytest.mark.parametrize("name", sorted(all_messages()))
def test_every_message_round_trips_through_json(name):
    assert name in SAMPLES, f"add a sample of {name} to SAMPLES"
    msg = SAMPLES[name]
    assert from_dict(json.loads(json.dumps(to_dict(msg)))) == msg


def test_unknown_message_type_is_refused():
    with pytest.raises(ValueError, match="unknown message type"):
        from_dict({"type": "Nope"})
