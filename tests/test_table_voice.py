"""A game followed through ``--events FILE``, and (marked audio) played by voice through a
PulseAudio room by the simulated table of bench/table.py."""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import clips
from audio_room import missing_tools
from golden import GOLDEN, SEED
from narrator.cli import app
from narrator.events import Said
from narrator.session.event_log import EventLog, LoggedCues

runner = CliRunner()


def typed(game, *extra, input=None):
    """``narrator play GAME --input text`` fed its golden inputs (or ``input``)."""
    lines = input if input is not None else (GOLDEN / f"{game}.in").read_text()
    return runner.invoke(app, ["play", game, "--input", "text", "--seed", SEED, *extra],
                         input=lines)


def events_of(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_typed_session_writes_what_was_said_asked_heard_and_done_in_order(tmp_path):
    log = tmp_path / "events.jsonl"
    result = typed("higher-lower", "--save-dir", str(tmp_path), "--events", str(log))
    assert result.exit_code == 0, result.output
    events = events_of(log)
    kinds = [e["event"] for e in events]
    opening = kinds.index("expect")
    assert opening > 0 and set(kinds[:opening]) == {"said"}
    assert events[opening - 1]["kind"] == "prompt"  # the question is said, then expected
    assert kinds[opening + 1:opening + 3] == ["heard", "applied"]
    assert kinds[-1] == "end" and events[-1]["completed"] is True
    # each typed line is heard once, and each heard answer is applied before what follows it
    heard = [e for e in events if e["event"] == "heard"]
    assert [e["text"] for e in heard] == (GOLDEN / "higher-lower.in").read_text().split("\n")[:-1]
    first = events.index(heard[0])
    assert events[first + 1]["event"] == "applied"
    assert events[first + 1]["input"] == {"type": "Continue"}
    # the question is logged with what answers it, and every caption is in the log
    asks = [e for e in events if e["event"] == "expect"]
    assert all(e["mode"] == "asking" and e["accepts"] for e in asks)
    said = [e["text"] for e in events if e["event"] == "said"]
    assert "The game is over. Thank you for playing." in said
    assert all(line in result.output for line in said)


def test_a_question_whose_prompt_holds_other_lines_is_logged_and_the_game_ends(tmp_path):
    # Intensity's defence question names the dice standing, each a Line of its own
    log = tmp_path / "events.jsonl"
    result = typed("intensity", "--save-dir", str(tmp_path), "--events", str(log))
    assert result.exit_code == 0 and "unexpected error" not in result.output, result.output
    events = events_of(log)
    assert events[-1] == {**events[-1], "event": "end", "completed": True}
    nested = [e for e in events if e["event"] == "expect" and any(
        isinstance(d, dict) and d.get("type") == "Line"
        for d in e["prompt"]["params"].get("dice", []))]
    assert nested and nested[0]["prompt"]["params"]["dice"][0]["key"] == "said.die_standing"


def test_a_refused_answer_is_heard_and_said_but_not_applied(tmp_path):
    log = tmp_path / "events.jsonl"
    result = typed("higher-lower", "--save-dir", str(tmp_path), "--events", str(log),
                   input="next\nseventeen\nquit\n")
    assert result.exit_code == 0, result.output
    events = events_of(log)
    [refused] = [i for i, e in enumerate(events) if e["event"] == "heard"
                 and e["text"] == "seventeen"]
    after = [e["event"] for e in events[refused + 1:]]
    assert "applied" not in after and after[0] == "said"
    assert events[-1] == {**events[-1], "event": "end", "completed": False}


def test_a_resumed_session_writes_its_events_too(tmp_path):
    typed("higher-lower", "--save-dir", str(tmp_path), input="next\nthree\nquit\n")
    log = tmp_path / "events.jsonl"
    result = runner.invoke(app, ["resume", "--input", "text", "--save-dir", str(tmp_path),
                                 "--events", str(log)], input="four\nquit\n")
    assert result.exit_code == 0, result.output
    events = events_of(log)
    assert events[0]["event"] == "said" and "after 2 inputs" in events[0]["text"]
    assert {"event": "applied", "input": {"type": "Dice", "faces": [4], "by_app": False}} in [
        {k: v for k, v in e.items() if k != "t"} for e in events]
    assert events[-1]["event"] == "end" and events[-1]["completed"] is False


def test_an_events_file_on_a_full_disk_is_a_message_and_the_game_goes_on(tmp_path):
    plain = typed("higher-lower", "--save-dir", str(tmp_path))
    full = typed("higher-lower", "--save-dir", str(tmp_path), "--events", "/dev/full")
    assert full.exit_code == 0, full.output
    assert "the events file /dev/full cannot be written (No space left on device)" in full.output
    assert full.output.count("cannot be written") == 1
    assert "Traceback" not in full.output
    assert _game(full.output) == _game(plain.output)


def test_an_events_file_that_cannot_be_opened_is_a_message_and_the_game_goes_on(tmp_path):
    plain = typed("higher-lower", "--save-dir", str(tmp_path))
    bad = typed("higher-lower", "--save-dir", str(tmp_path), "--events", str(tmp_path))
    assert bad.exit_code == 0, bad.output
    assert f"the events file {tmp_path} cannot be written" in bad.output
    assert _game(bad.output) == _game(plain.output)


def test_a_passage_said_again_reaches_the_speaker_marked_and_is_logged(tmp_path):
    """"repeat" with --events: the logged mouth hands the speaker its "again" (it crashed)."""
    class Speaker:
        is_speaking = False

        def __init__(self):
            self.said = []

        def say(self, said, again=False):
            self.said.append((said.text, again))

    speaker, log = Speaker(), EventLog(tmp_path / "events.jsonl", print)
    mouth = LoggedCues(speaker, log)
    mouth.say(Said("Track 1: Rules", "heading"))
    mouth.say(Said("Track 1: Rules", "heading"), again=True)
    assert not mouth.is_speaking
    log.close(completed=False)
    assert speaker.said == [("Track 1: Rules", False), ("Track 1: Rules", True)]
    spoken = [e["text"] for e in events_of(tmp_path / "events.jsonl") if e["event"] == "spoken"]
    assert spoken == ["Track 1: Rules", "Track 1: Rules"]


def _game(output):
    """What the table saw of the game (not the save line, nor the events file's message)."""
    return [line for line in output.splitlines()
            if not line.startswith("Session saved") and "events file" not in line]


# --------------------------------------------------------------------------- by voice (audio)

def bench_table():
    """The module bench/table.py."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import table as bench
    return bench


@pytest.fixture(scope="module")
def table():
    """bench/table.py, when the room and the voices can be made here."""
    bench = bench_table()
    missing = missing_tools() + clips.missing_tools(bench.PLAYERS)
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    return bench


def test_the_table_report_names_its_slowest_waits_and_ends_with_the_summary_line():
    bench = bench_table()
    waits = [(0.2, "flite:slt 'yes'"), (1.1, "flite:awb 'B. U. D.'"), (0.4, "espeak:en-us 'no'")]
    tally = bench.Tally(needed=3, first=3, waits=waits)
    run = bench.Run("half-chance", None, "babble", True, tally, 12.0, 8.0, 2.0, 2.0, 1)
    lines = bench.report(run).splitlines()
    assert any(line.split() == ["Python", "tracebacks", "printed", "1"] for line in lines)
    assert any("12 s / 10 s = 1.20x" in line for line in lines)  # narration + speech
    assert any("12 s / 12 s = 1.00x" in line for line in lines)  # and the table's own pauses
    slow = [line.strip() for line in lines if line.strip().startswith("slow:")]
    assert slow[0] == "slow: 1100 ms after flite:awb 'B. U. D.'"  # the slowest first
    assert slow[-1] == "slow: 200 ms after flite:slt 'yes'"
    assert lines[-1] == "half-chance: completed yes; correct 3/3; wrong 0; p95 wait 1100 ms"


def test_the_table_s_own_pauses_count_only_where_the_narrator_is_quiet():
    """Its reaction before an answer counts; its reaction over a passage was narration."""
    bench = bench_table()
    spoken = [(0.0, 10.0), (12.0, 20.0)]
    assert bench.outside((10.0, 10.4), spoken) == pytest.approx(0.4)  # after a question
    assert bench.outside((5.0, 5.4), spoken) == 0.0  # over the narration
    assert bench.outside((11.8, 12.2), spoken) == pytest.approx(0.2)  # into the next sentence


def test_a_word_left_unanswered_is_reported_with_what_it_was_decoded_as():
    bench = bench_table()
    ignored = {"event": "ignored", "text": "What are you doing?", "why": "table talk",
               "phrase": "resume", "confidence": 0.0, "seconds": 1.93}
    assert bench.left(ignored) == "What are you doing? (ignored: 'resume' at 0.0, 1.93 s)"
    assert bench.left({"event": "ignored", "text": "Next.", "why": "it ended with an earcon"}) \
        == "Next. (ignored)"
    leaked = {**ignored, "text": "class.", "phrase": "pause", "confidence": 0.13,
              "seconds": 0.51, "likeness": 0.164}
    assert bench.left(leaked) == \
        "class. (ignored: 'pause' at 0.13, 0.51 s, like the narrator 0.164)"


def test_words_the_narrator_never_began_to_hear_are_said_again_soon_and_words_begun_waited_for(
        tmp_path, monkeypatch):
    """A table says again what drew no sign of being heard within a few seconds (no
    ``hearing`` event), as a person does; words the narrator began to hear are waited for
    (a loaded machine decodes slowly). Before, every miss cost the table QUIET (30 s) of wall
    time, though the narrator had heard nothing."""
    bench = bench_table()
    monkeypatch.setattr(bench, "UNHEARD", 1.0)
    monkeypatch.setattr(bench, "QUIET", 8.0)
    events = tmp_path / "events.jsonl"
    events.write_text("")
    stream = bench.Stream(events)
    players = bench.Players(stream, None, None, talk=0.0, interrupt=True)

    def write(event):
        with events.open("a") as file:
            file.write(json.dumps({**event, "t": time.time()}) + "\n")

    def heard(e):
        return e["event"] == "heard"

    try:
        began = time.monotonic()
        assert players.reaction(0, time.time() - 1.0, time.time(), heard) == (None, None)
        assert time.monotonic() - began < 4.0  # not QUIET
        write({"event": "hearing"})
        decoded = threading.Timer(2.0, write, ({"event": "heard", "text": "two"},))
        decoded.start()
        at, _ = players.reaction(0, time.time() - 1.0, time.time(), heard)
        assert at is not None and stream.events[at]["text"] == "two"  # waited past UNHEARD
    finally:
        stream.close()


def test_a_word_left_unanswered_before_its_clip_ends_is_not_waited_out(tmp_path, monkeypatch):
    """Half-Chance at pink 10 dB: espeak-ng's "yes" to a read-back was left unanswered 0.2 s
    before its clip's closing silence had played, and the table, looking only for what was
    left after its words ended, waited QUIET (30 s) before saying it again. Talk said before
    the words and left as they are said is still no reaction to them."""
    bench = bench_table()
    for name, seconds in (("QUIET", 5.0), ("NOTHING_BACK", 0.5)):
        monkeypatch.setattr(bench, name, seconds)
    started = time.time()
    ended = started + 0.9
    events = tmp_path / "events.jsonl"
    events.write_text("".join(json.dumps(event) + "\n" for event in (
        {"event": "hearing", "t": started + 0.3},
        {"event": "ignored", "t": started + 0.6, "seconds": 1.7, "text": "Where were we?"},
        {"event": "ignored", "t": started + 0.7, "seconds": 0.48, "text": "Yes."})))
    stream = bench.Stream(events)
    players = bench.Players(stream, None, None, talk=0.0, interrupt=True)
    began = time.monotonic()
    try:
        assert players.reaction(0, started, ended, bench.response) == (None, "Yes. (ignored)")
    finally:
        stream.close()
    assert time.monotonic() - began < 2.5  # NOTHING_BACK after it, not QUIET


def test_a_word_acted_on_over_the_narration_is_reported_with_how_like_the_narrator_it_was():
    bench = bench_table()
    heard = {"event": "heard", "text": "one six", "transcript": "1, 6,"}
    assert bench.heard_as(heard) == "one six (written '1, 6,')"
    assert bench.heard_as({**heard, "likeness": 0.27}) == \
        "one six (written '1, 6,') (like the narrator 0.27)"


def test_a_player_takes_the_same_answer_in_other_words_read_back_as_theirs():
    bench = bench_table()
    nobody = {"type": "Word", "word": "nobody"}
    assert bench.judged({"type": "Word", "word": "no one"}, nobody) == "same"
    assert bench.judged({"type": "Word", "word": "ash"}, nobody) is None
    player_3 = {"type": "Word", "word": "player", "number": 3}  # Half-Chance's "who plays?"
    assert bench.judged({"type": "Number", "value": 3}, player_3) == "same"
    assert bench.judged({"type": "Number", "value": 2}, player_3) is None
    assert bench.judged({"type": "Number", "value": 3},
                        {"type": "Word", "word": "curse", "number": 3}) is None


def test_a_pause_said_as_the_game_ends_is_not_counted_as_needed_nor_missed(tmp_path):
    bench = bench_table()
    events = tmp_path / "events.jsonl"
    events.write_text(json.dumps({"event": "said", "t": 1.0, "text": "The game is over."}) + "\n")
    stream = bench.Stream(events)
    players = bench.Players(stream, None, None, talk=0.0, interrupt=True)
    said = []

    def say(text, talk=False):  # the narrator ends while the word is said
        said.append(text)
        with events.open("a") as file:
            file.write(json.dumps({"event": "end", "t": 3.0, "completed": True}) + "\n")
        return 2.0, 2.5

    players.say = say
    try:
        assert players.control("pause", bench.paused) is None
        assert said == ["pause"]  # not said again once the game is over
        assert players.control("pause", bench.paused) is None
        assert said == ["pause"]  # nor said at all after it
    finally:
        stream.close()
    assert (players.tally.needed, players.tally.misses, players.tally.findings) == (0, 0, [])


def test_a_go_back_the_narrator_asks_about_is_answered_yes_and_counts_at_first_hearing(
        tmp_path):
    """An unsure "go back" is asked about ('Did you say "go back"? Yes or no.', each sentence
    logged as it is heard): the table answers yes, as it would a read-back, and says "go back"
    no more. (Half-Chance at pink 10 dB: the table, looking for the question as one sentence,
    waited QUIET, 30 s, then said "go back" into it, four times in a run.)"""
    bench = bench_table()
    events = tmp_path / "events.jsonl"
    events.write_text("")
    stream = bench.Stream(events)
    players = bench.Players(stream, None, None, talk=0.0, interrupt=True)
    replies = {"go back": [{"event": "said", "text": 'Did you say "go back"?'},
                           {"event": "said", "text": "Yes or no."},
                           {"event": "expect", "mode": "confirming"}],
               "yes": [{"event": "undone"}]}
    said = []

    def say(text, talk=False):
        said.append(text)
        with events.open("a") as file:
            for event in replies[text]:
                file.write(json.dumps({**event, "t": 3.0}) + "\n")
        return 2.0, 2.5

    players.say = say
    try:
        assert players.undo()
    finally:
        stream.close()
    assert said == ["go back", "yes"] and players._clean and players.tally.repeats == 0


def scripted(bench, tmp_path, replies):
    """A table in a room that answers each utterance (or line typed) with the next list of
    events of ``replies`` (written to the events file the players follow): the players, what
    they say as (words, player, times said before; a line typed as ("typed WORDS", None,
    None)), and the stream to close."""
    events = tmp_path / "events.jsonl"
    events.write_text("")
    said, replies = [], iter(replies)

    def reply() -> None:
        with events.open("a") as file:
            for event in next(replies):
                file.write(json.dumps({"t": 3.0, **event}) + "\n")  # or the event's own

    class Room:
        def say(self, text, player, again):
            said.append((text, player, again))
            reply()
            return 2.0, 2.5

    def keyboard(line):
        said.append((f"typed {line}", None, None))
        reply()

    stream = bench.Stream(events)
    players = bench.Players(stream, Room(), None, talk=0.0, interrupt=True, keyboard=keyboard)
    players.type = lambda line, ready=False: (keyboard(line), (2.0, 2.0))[1]  # typed on the room's clock
    return players, said, stream


def answered(bench, tmp_path, steps, replies):
    """Each of ``steps`` answered in a ``scripted`` room (each done): what was said as (words,
    player, times said before), and the tally."""
    players, said, stream = scripted(bench, tmp_path, replies)
    try:
        assert all(players.answer(step) for step in steps)
    finally:
        stream.close()
    return said, players.tally


def test_the_player_who_answered_refuses_its_read_back_and_confirms_it_in_their_own_voice(
        tmp_path, monkeypatch):
    """At a table the answerer corrects their own read-back (the narrator knows an answer said
    again only in the same voice), saying it once more a little otherwise; the next answer is
    the next player's."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    number = {n: {"type": "Number", "value": n} for n in (2, 3, 4)}

    def read_back(n, mode):
        return [{"event": "heard", "mode": mode, "meaning": number[n], "text": str(n)},
                {"event": "said", "kind": "line", "text": f"I heard {n}. Right?"},
                {"event": "expect", "mode": "confirming"}]

    taken = [{"event": "expect", "mode": "asking"}]
    said, tally = answered(bench, tmp_path, [bench.Step(str(n), number[n], [number[n]])
                                             for n in (4, 2)], [
        read_back(3, "asking"), read_back(4, "confirming"),
        [{"event": "applied", "input": number[4]}, *taken],
        [{"event": "applied", "input": number[2]}, *taken]])
    assert said == [("4", 0, 0), ("4", 0, 1), ("yes", 0, 0), ("2", 1, 0)]  # the second "4"
    # said otherwise (AGAIN)
    assert (tally.needed, tally.first, tally.rejected) == (2, 1, 1)


def test_a_question_asked_again_just_before_the_answer_is_not_taken_for_the_next(tmp_path,
                                                                                 monkeypatch):
    """Table talk said as a question was asked was not caught, and the question was asked
    again just before a player's answer began; the table took that for the question after
    its answer, missed the answer being taken and said it again at the next question, out
    of step to the end (stop 97's Slow Burn run). What came before the words is no reaction
    to them."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    one = {"type": "Number", "value": 1}
    talk = {"type": "Unclear", "heard": "Okay, so where were we?"}
    said, tally = answered(bench, tmp_path, [bench.Step("1", one, [one])], [[
        {"event": "heard", "mode": "asking", "text": talk["heard"], "meaning": talk, "t": 1.9},
        {"event": "said", "kind": "state", "text": "Didn't catch that.", "t": 1.9},
        {"event": "expect", "mode": "asking", "t": 1.9},
        {"event": "heard", "mode": "asking", "text": "one", "meaning": one},
        {"event": "applied", "input": one}, {"event": "expect", "mode": "asking"}]])
    assert said == [("1", 0, 0)] and (tally.first, tally.misses) == (1, 0)


@pytest.mark.parametrize("text, spelled, again", [
    ("Steal a jet from Heathrow", "Sierra. Tango. Echo. Alpha. Lima. space. Alpha. space.",
     "S. T. E. A. L. space. A. space."),
    ("Rikard Rasmussen", "Romeo. India. Kilo. Alpha. Romeo. Delta. space. Romeo.",
     "R. I. K. A. R. D. space. R."),
])
def test_free_text_refused_twice_is_spelled_with_the_radio_alphabet_then_letter_by_letter(
        tmp_path, monkeypatch, text, spelled, again):
    """As the read-back invites, a table with no hand free spells what the narrator cannot
    hear, a name or a longer answer (a job's goal: stop 74's Hell for Leather runs typed three,
    never spelled), the way the spelling prompt offers first, with the radio alphabet; a
    spelling refused, it spells the other way (espeak-ng's "Silas" by radio was written
    "C-A-R-N-D" in Blades' runs, letter by letter "S I L A S")."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    meaning = {"type": "Text", "text": text}
    misheard = [{"event": "heard", "mode": "asking", "text": "See you adjust.",
                 "meaning": {"type": "Text", "text": "See you adjust."}},
                {"event": "said", "kind": "readback", "text": "I heard 'See you adjust.'."},
                {"event": "expect", "mode": "confirming"}]
    spell = [{"event": "said", "kind": "prompt", "text": "Spell it."},
             {"event": "expect", "mode": "spelling"}]
    said, tally = answered(bench, tmp_path, [bench.Step(text, meaning, [meaning])], [
        misheard, misheard, spell, misheard, spell,
        [{"event": "applied", "input": meaning}, {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said][:3] == [text, text, "spell it"]
    assert said[3][0].startswith(spelled) and said[4][0] == "spell it"
    assert said[5][0].startswith(again) and tally.spelled == 1


def test_a_yes_heard_as_no_is_followed_by_the_answer_when_the_question_is_asked_again(
        tmp_path, monkeypatch):
    """At 10 dB flite awb's "yes" to "I heard heads. Right?" was heard as a sure "no"; the
    question came again and the table said "yes" to it four times, out of step."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    four = {"type": "Number", "value": 4}
    said, _ = answered(bench, tmp_path, [bench.Step("4", four, [four])], [
        [{"event": "heard", "mode": "asking", "meaning": four, "text": "4"},
         {"event": "said", "kind": "readback", "text": "I heard 4. Right?"},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "heard", "mode": "confirming", "text": "no",
          "meaning": {"type": "Word", "word": "no", "number": None}},
         {"event": "said", "kind": "info", "text": "Then say it again."},
         {"event": "said", "kind": "prompt", "text": "How many?"},
         {"event": "expect", "mode": "asking"}],
        [{"event": "applied", "input": four}, {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said] == ["4", "yes", "4"]


def test_a_change_of_voice_no_one_said_is_a_wrong_action(tmp_path, monkeypatch):
    """Stop 70's Blades run: espeak-ng's "desperate", heard "faster" twice, sped the reading
    up; the run counted no wrong action. Heard so once and said back, it is a miss."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    desperate = {"type": "Word", "word": "desperate", "number": None}
    faster = {"type": "Control", "name": "faster", "arg": None}
    said, tally = answered(bench, tmp_path, [bench.Step("desperate", desperate, [desperate])], [
        [{"event": "heard", "mode": "asking", "meaning": faster, "text": "faster"},
         {"event": "said", "kind": "prompt", "text": f'Heard "faster"? {bench.DOUBT}'},
         {"event": "expect", "mode": "asking"}],
        [{"event": "heard", "mode": "asking", "meaning": faster, "text": "faster"},
         {"event": "earcon", "name": "accepted"},
         {"event": "said", "kind": "info", "text": "Speaking at 1.9 times the normal rate."},
         {"event": "expect", "mode": "asking"}],
        [{"event": "applied", "input": desperate}, {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said] == ["desperate"] * 3
    assert tally.wrong == 1 and tally.first == 0
    assert any(f.startswith("WRONG") and "Speaking at 1.9" in f for f in tally.findings)


def test_a_table_judges_a_read_back_by_what_it_says_an_answer_held_over_the_narration(
        tmp_path, monkeypatch):
    """The narrator's "1 success." heard back over itself as "1, 6," was held and read back
    ("I heard 1 and 6. Right?"); the table, judging by the answer heard before it, said yes,
    and dice no one rolled were taken (stop 85's CI)."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    four, three = ({"type": "Number", "value": n} for n in (4, 3))
    said, tally = answered(bench, tmp_path, [bench.Step("4", four, [four])], [
        [{"event": "heard", "mode": "asking", "meaning": four, "text": "4"},
         {"event": "said", "kind": "readback", "text": "4."},
         {"event": "heard", "mode": "reading", "meaning": three, "text": "3"},
         {"event": "said", "kind": "state",
          "text": 'Heard "3": read back when the question comes.'},
         {"event": "said", "kind": "readback", "text": "I heard 3. Right?"},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "heard", "mode": "confirming", "meaning": four, "text": "4"},
         {"event": "said", "kind": "readback", "text": "I heard 4. Right?"},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "applied", "input": four}, {"event": "expect", "mode": "asking"}]])
    assert said == [("4", 0, 0), ("4", 0, 1), ("yes", 0, 0)]
    assert (tally.needed, tally.rejected, tally.wrong) == (1, 1, 0)


def test_an_answer_said_over_a_read_back_and_taken_gets_no_reply(tmp_path, monkeypatch):
    """At 10 dB table talk was read back as "next", the player's own "next" said over the
    read-back was heard as its "yes", and the game went on; the table still said "yes", then
    "next" to the menu after, and two inputs no one gave were taken."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    go_on = {"type": "Continue"}
    said, tally = answered(bench, tmp_path, [bench.Step("next", go_on, [go_on])], [
        [{"event": "heard", "mode": "asking", "meaning": go_on, "text": "go on"},
         {"event": "said", "kind": "readback", "text": "I heard next. Right?"},
         {"event": "expect", "mode": "confirming"},
         {"event": "heard", "mode": "confirming", "text": "yes",
          "meaning": {"type": "Word", "word": "yes", "number": None}},
         {"event": "applied", "input": go_on},
         {"event": "said", "kind": "prompt", "text": "Downtime. You can say: next phase."},
         {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said] == ["next"]
    assert (tally.needed, tally.first, tally.wrong) == (1, 1, 0)


def test_a_yes_the_narrator_did_not_catch_is_said_again(tmp_path, monkeypatch):
    """Half-Chance at 10 dB: flite awb's yes to "I heard discard trap. Right?" was not caught
    ("worse.": "Didn't catch that."), and the table said "discard trap" again, as to a wrong
    read-back: the narrator took the answer said again as a no. A table says its yes again."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    trap = {"type": "Word", "word": "discard trap", "number": None}
    said, tally = answered(bench, tmp_path, [bench.Step("discard trap", trap, [trap])], [
        [{"event": "heard", "mode": "asking", "meaning": trap, "text": "discard trap"},
         {"event": "said", "kind": "readback", "text": "I heard discard trap. Right?"},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "heard", "mode": "confirming", "text": "worse.", "meaning": {
            "type": "Unclear", "heard": "worse.", "reason": "I didn't catch that."}},
         {"event": "said", "kind": "state", "text": "Didn't catch that."},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "applied", "input": trap}, {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said] == ["discard trap", "yes", "yes"]
    assert (tally.first, tally.rejected, tally.misses) == (1, 0, 1)


def test_a_yes_asked_for_in_more_words_is_said_so(tmp_path, monkeypatch):
    """Half-Chance at 10 dB: flite rms's "next", written "Yes.", was read back, and its yes,
    written "Yes." too, could be the answer said again: the narrator asks for "yes, that's
    right" or "no". A table that said yes says the first; one that said the answer again to
    refuse a wrong read-back says no, then the answer once more."""
    from narrator.session.loop import SAY_OTHER_YES

    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    go_on, heads = {"type": "Continue"}, {"type": "Word", "word": "heads", "number": None}
    tails = {**heads, "word": "tails"}
    asked_again = [{"event": "heard", "mode": "confirming", "text": "yes",
                    "meaning": {"type": "Word", "word": "yes", "number": None}},
                   {"event": "said", "kind": "prompt", "text": SAY_OTHER_YES},
                   {"event": "expect", "mode": "confirming"}]
    said, tally = answered(bench, tmp_path, [bench.Step("next", go_on, [go_on])], [
        [{"event": "heard", "mode": "asking", "meaning": go_on, "text": "next"},
         {"event": "said", "kind": "readback", "text": "I heard next. Right?"},
         {"event": "expect", "mode": "confirming"}],
        asked_again,
        [{"event": "applied", "input": go_on}, {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said] == ["next", "yes", "yes, that's right"]
    said, tally = answered(bench, tmp_path, [bench.Step("heads", heads, [heads])], [
        [{"event": "heard", "mode": "asking", "meaning": tails, "text": "tails"},
         {"event": "said", "kind": "readback", "text": "I heard tails. Right?"},
         {"event": "expect", "mode": "confirming"}],
        asked_again,
        [{"event": "heard", "mode": "confirming", "text": "no",
          "meaning": {"type": "Word", "word": "no", "number": None}},
         {"event": "said", "kind": "info", "text": "Then say it again."},
         {"event": "said", "kind": "prompt", "text": "Heads or tails?"},
         {"event": "expect", "mode": "asking"}],
        [{"event": "applied", "input": heads}, {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said] == ["heads", "heads", "no", "heads"]
    assert tally.rejected == 1 and tally.first == 0


def test_a_keep_heard_as_something_else_four_times_is_typed(tmp_path, monkeypatch):
    """At 10 dB flite awb's "keep" to "Keep 'Blue', or change it to 'Nice'?" was heard "yeah"
    ten times in a row; the table never typed it, gave up, and the run ended there."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    blue = {"type": "Text", "text": "Blue"}
    offer = [{"event": "said", "kind": "readback", "text": "Keep 'Blue', or change it to 'Nice'?"},
             {"event": "expect", "mode": "confirming", "prompt": {
                 "key": "readback.change", "params": {"kept": "Blue", "offered": "Nice"}}}]
    yeah = [{"event": "heard", "mode": "confirming", "text": "yeah",
             "meaning": {"type": "Word", "word": "yes", "number": None}},
            {"event": "said", "kind": "reject", "text": '"yes" could mean either.'}, *offer]
    said, tally = answered(bench, tmp_path, [bench.Step("Blue", blue, [blue])], [
        [{"event": "heard", "mode": "asking", "meaning": blue, "text": "Blue."},
         {"event": "said", "kind": "readback", "text": "I heard 'Blue'. Keep it?"},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "heard", "mode": "confirming", "text": "Nice.",
          "meaning": {"type": "Text", "text": "Nice"}}, *offer],
        yeah, yeah, yeah, yeah,
        [{"event": "applied", "input": blue}, {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said] == ["Blue", "yes"] + ["keep"] * 4 + ["typed keep"]
    assert tally.typed == 1 and tally.first == 0


def test_a_back_in_the_playthrough_asked_about_is_done_once_answered_yes(tmp_path, monkeypatch):
    """Half-Chance's playthrough says "back" itself. Heard unsure, it is asked about; the table
    answers yes and the game is taken back: that is the answer done. At 10 dB the table took
    the yes for a miss and said "back" again, taking back four answers, then gave up."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    back = {"type": "Control", "name": "back", "arg": None}
    said, tally = answered(bench, tmp_path, [bench.Step("back", back, [])], [
        [{"event": "heard", "mode": "asking", "meaning": back, "text": "back"},
         {"event": "said", "kind": "prompt", "text": 'Did you say "back"? Yes or no.'},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "heard", "mode": "confirming", "text": "yes",
          "meaning": {"type": "Control", "name": "yes", "arg": None}},
         {"event": "undone"}, {"event": "said", "kind": "info", "text": "Taken back."},
         {"event": "said", "kind": "prompt", "text": "Heads or tails?"},
         {"event": "expect", "mode": "asking"}]])
    assert [words for words, *_ in said] == ["back", "yes"]
    assert (tally.needed, tally.first, tally.misses) == (1, 1, 0)


def test_a_command_asked_about_that_is_not_the_answer_is_answered_no(tmp_path, monkeypatch):
    """Half-Chance at pink 10 dB: "status" was taken and read; over that reading the table
    paused and said "resume", written "Dude." and heard as an unsure "undo", so the narrator
    asked 'Did you say "undo"? Yes or no.'. The table took that for a read-back of its
    "status" and said yes: the game took back the "next" before it, and the table, out of
    step, said the next answer to the wrong question until it gave up. Asked about words that
    were not the answer, a player says no (the narrator, paused, stays paused: "resume"); the
    answer, taken already, is done."""
    bench = bench_table()
    for name, seconds in (("REACTION", 0.0), ("QUIET", 3.0)):
        monkeypatch.setattr(bench, name, seconds)
    status = {"type": "Control", "name": "status", "arg": None}
    asking = {"event": "expect", "mode": "asking"}
    said, tally = answered(bench, tmp_path, [bench.Step("status", status, [])], [
        [{"event": "heard", "mode": "asking", "meaning": status, "text": "status"},
         {"event": "expect", "mode": "reading"},
         {"event": "said", "kind": "info", "text": "It is player 2's turn."},
         {"event": "heard", "mode": "paused", "text": "undo", "transcript": "Dude.",
          "meaning": {"type": "Control", "name": "back", "arg": None}},
         {"event": "expect", "mode": "reading"},
         {"event": "said", "kind": "prompt", "text": 'Did you say "undo"? Yes or no.'},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "heard", "mode": "confirming", "text": "no",
          "meaning": {"type": "Control", "name": "no", "arg": None}},
         {"event": "state", "name": "paused"}, {"event": "spoken", "text": bench.PAUSED},
         {"event": "expect", "mode": "paused"}],
        [{"event": "heard", "mode": "paused", "text": "resume",
          "meaning": {"type": "Control", "name": "resume", "arg": None}},
         {"event": "said", "kind": "prompt", "text": "Which do you play?"}, asking]])
    assert [words for words, *_ in said] == ["status", "no", "resume"]
    assert (tally.needed, tally.first, tally.wrong) == (2, 2, 0)  # the answer, and the resume


def test_an_answer_taken_back_while_no_one_asked_is_wrong_and_answered_again(tmp_path,
                                                                              monkeypatch):
    """"go back" is heard over the reading too: an answer taken back there that no one asked
    to take back is a wrong action, and its question, asked again, is answered again before
    the plan goes on. A "Did you say ...?" no one prompted is answered no."""
    bench = bench_table()
    monkeypatch.setattr(bench, "REACTION", 0.0)
    three, four = ({"type": "Number", "value": n} for n in (3, 4))
    asking = {"event": "expect", "mode": "asking"}
    players, said, stream = scripted(bench, tmp_path, [
        [{"event": "applied", "input": three}, {"event": "undone"}, asking],
        [{"event": "applied", "input": three}, {"event": "said", "kind": "prompt",
                                                "text": 'Did you say "go back"? Yes or no.'},
         {"event": "expect", "mode": "confirming"}],
        [{"event": "heard", "mode": "confirming", "text": "no",
          "meaning": {"type": "Control", "name": "no", "arg": None}},
         {"event": "expect", "mode": "reading"}, asking],
        [{"event": "applied", "input": four}, {"event": "end", "completed": True}]])
    with (tmp_path / "events.jsonl").open("a") as file:
        file.write(json.dumps({**asking, "t": 1.0}) + "\n")
    players.interrupt = False  # no "go back" of the table's own
    try:
        assert players.play([bench.Step("3", three, [three]), bench.Step("4", four, [four])])
    finally:
        stream.close()
    assert [words for words, *_ in said] == ["3", "3", "no", "4"]
    assert players.tally.wrong == 1 and players.tally.first == 3
    assert any("taken back while no one asked" in f for f in players.tally.findings)


def paused_before_an_answer(bench, tmp_path, resumed):
    """A table in a ``scripted`` room where "wait" paused the game as a question began, and
    the player's "2" came after it ("didn't catch that", paused); the room answers the table's
    "resume" with ``resumed`` (after the narrator's "resume" heard) and the answer said again
    by taking it. The players (who saw the question before the pause), what they say, the
    stream, and the answer's step."""
    two = {"type": "Number", "value": 2}
    players, said, stream = scripted(bench, tmp_path, [
        [{"event": "heard", "mode": "paused", "text": "2.",
          "meaning": {"type": "Unclear", "heard": "2.", "reason": "I didn't catch that."}},
         {"event": "said", "kind": "state", "text": "Didn't catch that."}],
        [{"event": "heard", "mode": "paused", "text": "resume",
          "meaning": {"type": "Control", "name": "resume", "arg": None}}, *resumed],
        [{"event": "applied", "input": two}, {"event": "expect", "mode": "asking"}]])
    with (tmp_path / "events.jsonl").open("a") as file:
        for event in ({"event": "state", "name": "paused"},
                      {"event": "spoken", "text": bench.PAUSED}):
            file.write(json.dumps({**event, "t": 1.0}) + "\n")
    assert stream.wait(0, bench.paused, 5.0) is not None
    players.cursor = len(stream.events)
    return players, said, stream, bench.Step("2", two, [two])


def test_a_pause_no_one_meant_just_before_an_answer_is_resumed_not_waited_out(tmp_path,
                                                                              monkeypatch):
    """Slow Burn: "wait" was heard as a question began and paused the game, before the
    player's "2" (then "didn't catch that", paused); the table waited PATIENCE (30 min) in
    silence for the next question. It says resume, then the answer again."""
    bench = bench_table()
    for name, seconds in (("REACTION", 0.0), ("PATIENCE", 3.0), ("QUIET", 3.0)):
        monkeypatch.setattr(bench, name, seconds)
    players, said, stream, answer = paused_before_an_answer(
        bench, tmp_path, [{"event": "expect", "mode": "asking"}])
    try:
        assert players.answer(answer)
    finally:
        stream.close()
    assert [words for words, *_ in said] == ["2", "resume", "2"]


def test_a_resume_that_goes_on_with_the_questions_prompt_is_not_said_again(tmp_path,
                                                                           monkeypatch):
    """Half-Chance at 10 dB: resumed, the narrator read its question's prompt again, and the
    table, waiting for a line or the question, took an echo left unanswered meanwhile for its
    "resume" left so, said "resume" again at the question, and its answer "2", said over the
    read-back of that (heard "open"), was heard as its yes. The narrator listening no longer as
    paused is the resume done."""
    bench = bench_table()
    for name, seconds in (("REACTION", 0.0), ("NOTHING_BACK", 0.5), ("QUIET", 3.0)):
        monkeypatch.setattr(bench, name, seconds)
    players, said, stream, answer = paused_before_an_answer(bench, tmp_path, [
        {"event": "expect", "mode": "reading"},
        {"event": "ignored", "text": "Yeah.", "phrase": "eight", "confidence": 0.066,
         "seconds": 2.85, "why": "table talk or the narrator's echo"},
        {"event": "said", "kind": "prompt", "text": "How long a game?"}])

    def asked() -> None:  # the prompt read to its end, past the table's patience with echo
        with (tmp_path / "events.jsonl").open("a") as file:
            file.write(json.dumps({"event": "expect", "mode": "asking", "t": 4.0}) + "\n")
    question = threading.Timer(3.0, asked)
    question.start()
    try:
        assert players.answer(answer)
    finally:
        question.cancel()
        stream.close()
    assert [words for words, *_ in said] == ["2", "resume", "2"]


def test_a_question_asked_as_the_table_paused_is_answered_when_asked_again_after_resume(
        tmp_path, monkeypatch):
    """Slow Burn: "pause" was said as a question was asked; resumed, the narrator read the
    question's prompt again, and the table answered the question as first asked, over that
    prompt (heard, but after the table stopped looking: "heard None", said again and again,
    and the plan went out of step). After a resume the table waits for the question asked
    again."""
    bench = bench_table()
    for name, seconds in (("REACTION", 0.0), ("QUIET", 3.0)):
        monkeypatch.setattr(bench, name, seconds)
    players, said, stream = scripted(bench, tmp_path, [
        [{"event": "heard", "mode": "paused", "text": "resume",
          "meaning": {"type": "Control", "name": "resume", "arg": None}},
         {"event": "expect", "mode": "reading"},
         {"event": "said", "kind": "prompt", "text": "Katow, roll 3 persistent Agency dice."}]])
    with (tmp_path / "events.jsonl").open("a") as file:
        for event in ({"event": "state", "name": "reading"}, {"event": "expect", "mode": "asking"},
                      {"event": "state", "name": "paused"},
                      {"event": "spoken", "text": bench.PAUSED}):
            file.write(json.dumps({**event, "t": 1.0}) + "\n")
    assert stream.wait(0, lambda e: e["event"] == "spoken", 5.0) is not None
    players.cursor = 1  # the passage read; the question then asked as "pause" was said
    players._ours.add(id(stream.events[2]))

    def asked() -> None:  # the prompt read to its end
        with (tmp_path / "events.jsonl").open("a") as file:
            file.write(json.dumps({"event": "expect", "mode": "asking", "t": 4.0}) + "\n")
    question = threading.Timer(1.5, asked)
    question.start()
    try:
        players.resume(2)
        assert players.await_or_collect() == {"event": "expect", "mode": "asking", "t": 4.0}
    finally:
        question.cancel()
        stream.close()
    assert [words for words, *_ in said] == ["resume"]


def test_a_pause_heard_twice_is_resumed_once_and_the_question_after_it_answered(
        tmp_path, monkeypatch):
    """Slow Burn: flite rms's "pause" was heard twice ("Close.", then its end "Cost." while
    paused, which keeps the pause), and the table's "resume" resumed the reading. No state is
    sounded as the reading resumes, so the table took the second pause for one no one meant,
    said "resume" again as the question was asked, looked past that question, and waited
    half an hour for the next. A narrator listening as not paused is not paused."""
    bench = bench_table()
    for name, seconds in (("REACTION", 0.0), ("PATIENCE", 3.0), ("QUIET", 3.0)):
        monkeypatch.setattr(bench, name, seconds)
    asking = {"event": "expect", "mode": "asking"}
    players, said, stream = scripted(bench, tmp_path, [
        [{"event": "heard", "mode": "paused", "text": "resume",
          "meaning": {"type": "Control", "name": "resume", "arg": None}},
         {"event": "expect", "mode": "reading"},
         {"event": "said", "kind": "prompt", "text": "Kato, roll 2 Job dice, 1 or under."},
         asking],
        [{"event": "ignored", "text": "We're assuming.", "phrase": "move on",
          "confidence": 0.005, "seconds": 0.96, "why": "table talk or the narrator's echo"}]])
    with (tmp_path / "events.jsonl").open("a") as file:
        for event in ({"event": "state", "name": "reading"}, {"event": "state", "name": "paused"},
                      {"event": "spoken", "text": bench.PAUSED},
                      {"event": "state", "name": "paused"}):  # "pause" again: still paused
            file.write(json.dumps({**event, "t": 1.0}) + "\n")
    assert stream.wait(0, lambda e: e["event"] == "spoken", 5.0) is not None
    players.cursor = 1
    players._ours.add(id(stream.events[1]))  # the table's own pause
    try:
        players.resume(1)
        assert players.await_or_collect() == {**asking, "t": 3.0}
    finally:
        stream.close()
    assert [words for words, *_ in said] == ["resume"]


def test_a_command_heard_as_a_pause_is_resumed_at_once_and_said_again(tmp_path, monkeypatch):
    """Half-Chance at pink 10 dB, in each of three runs: flite rms's "repeat" over the reading
    was heard as "wait please" and paused the game ("Paused. Say resume to go on."). The table,
    still waiting for its repeat, sat QUIET (30 s) in silence before saying "repeat" again
    into the pause. A table says "resume" at once, then its command again."""
    bench = bench_table()
    for name, seconds in (("REACTION", 0.0), ("QUIET", 3.0)):
        monkeypatch.setattr(bench, name, seconds)
    repeat = {"type": "Control", "name": "repeat", "arg": None}
    players, said, stream = scripted(bench, tmp_path, [
        [{"event": "heard", "mode": "reading", "text": "wait please",
          "meaning": {"type": "Control", "name": "pause", "arg": None}},
         {"event": "state", "name": "paused"}, {"event": "spoken", "text": bench.PAUSED}],
        [{"event": "heard", "mode": "paused", "text": "resume",
          "meaning": {"type": "Control", "name": "resume", "arg": None}},
         {"event": "expect", "mode": "reading"}],
        [{"event": "heard", "mode": "reading", "text": "repeat", "meaning": repeat}]])
    monkeypatch.setattr(players, "hold", lambda seconds: None)
    began = time.monotonic()
    try:
        at = players.control("repeat", lambda e: e["event"] == "heard"
                             and e["meaning"] == repeat)
    finally:
        stream.close()
    assert at is not None and stream.events[at]["text"] == "repeat"
    assert [words for words, *_ in said] == ["repeat", "resume", "repeat"]
    assert time.monotonic() - began < bench.QUIET  # the pause was not waited out
    assert (players.tally.first, players.tally.misses) == (1, 1)  # the resume; the repeat missed
    assert any("paused on 'wait please': said resume" in f for f in players.tally.findings)


def test_a_command_heard_as_an_answer_and_read_back_is_not_waited_for(tmp_path, monkeypatch):
    """Half-Chance at pink 10 dB: Festival's "pause", said as the first question was asked,
    was heard as "five" and read back ("I heard 5. Right?"). The table, still waiting for the
    pause, sat QUIET (30 s) in silence before answering the read-back. It answers at once:
    the command is missed, and the read-back is a question to answer."""
    bench = bench_table()
    for name, seconds in (("REACTION", 0.0), ("QUIET", 5.0)):
        monkeypatch.setattr(bench, name, seconds)
    players, said, stream = scripted(bench, tmp_path, [
        [{"event": "heard", "mode": "asking", "text": "five",
          "meaning": {"type": "Number", "value": 5}},
         {"event": "said", "kind": "readback", "text": "I heard 5."},
         {"event": "said", "kind": "prompt", "text": "Right?"},
         {"event": "expect", "mode": "confirming"}]])
    began = time.monotonic()
    try:
        assert players.control("pause", bench.paused) is None
    finally:
        stream.close()
    assert time.monotonic() - began < 2.5  # not QUIET
    assert [words for words, *_ in said] == ["pause"]
    assert (players.tally.needed, players.tally.first, players.tally.misses) == (1, 0, 1)


def test_a_command_heard_with_no_effect_is_said_again_soon(tmp_path, monkeypatch):
    """Half-Chance at pink 10 dB: Festival's "pause" over the reading was heard as an unsure
    "next" ('Heard "next"? Say it again to skip.') and the reading went on; the table, waiting
    QUIET (30 s) for the pause, sat 14 s in silence at the question that followed. A table
    says its word again when nothing comes of it."""
    bench = bench_table()
    for name, seconds in (("REACTION", 0.0), ("QUIET", 5.0), ("NOTHING_BACK", 0.5)):
        monkeypatch.setattr(bench, name, seconds)
    players, said, stream = scripted(bench, tmp_path, [
        [{"event": "heard", "mode": "reading", "text": "next",
          "meaning": {"type": "Control", "name": "next", "arg": None}},
         {"event": "said", "kind": "state", "text": 'Heard "next"? Say it again to skip.'}],
        [{"event": "heard", "mode": "reading", "text": "pause",
          "meaning": {"type": "Control", "name": "pause", "arg": None}},
         {"event": "state", "name": "paused"}]])
    began = time.monotonic()
    try:
        at = players.control("pause", bench.paused)
    finally:
        stream.close()
    assert time.monotonic() - began < 2.5  # not QUIET
    assert at is not None and bench.paused(stream.events[at])
    assert [words for words, *_ in said] == ["pause", "pause"]
    assert (players.tally.needed, players.tally.first, players.tally.misses) == (1, 0, 1)


#: (game, answers typed first, answers by voice): Slow Burn's first segment from its first
#: interference roll; Blades' first action roll, from "action" to its dice
SHORT = [("slow-burn", 23, 8), ("blades", 18, 11)]


@pytest.mark.audio
@pytest.mark.parametrize("game,start,steps", SHORT)
def test_a_table_plays_by_voice_through_the_room(table, game, start, steps, tmp_path,
                                                 monkeypatch):
    # as at a table: the microphone hears the players and the narrator's own voice
    monkeypatch.setattr(table, "PATIENCE", 300)  # a short run: no passage lasts this long
    run = table.play_by_voice(game, start=start, steps=steps, rate=1.5,
                              out=tmp_path / "clips", typing=False)
    shown = table.report(run)
    assert run.tally.wrong == 0, shown  # never an input the table did not give
    assert run.tracebacks == 0, shown
    assert run.completed, shown  # every answer taken as planned, by voice alone
    if run.tally.first < 0.9 * run.tally.needed:
        # issue 16 is open on this: some words are still missed by some voices (15/17 in
        # stop 48's three CI runs: espeak-ng's "nine" read back as ten, a "pause" over the
        # narration lost; the first is heard since stop 49), docs/speech-in.md
        pytest.xfail(f"issue 16: >=90% correct at first hearing not yet met\n{shown}")
