"""The session loop over typed input: refusals that change nothing, confirmation, undo, replay."""

import io

from narrator.dice import Roller
from narrator.events import Dice, Number
from narrator.session.console import Captions, TextEars
from narrator.session.game import Session
from narrator.session.loop import run
from toy_game import INFO, SCRIPT


class MemoryJournal:
    def __init__(self):
        self.lines = []

    def append(self, given):
        self.lines.append(given)

    def append_undo(self):
        self.lines.append("undo")


def play(text, confirm=False, seed=1):
    """Run the toy game on typed lines; return (transcript, journal, session)."""
    out = io.StringIO()
    captions = Captions(out)
    session = Session(INFO, SCRIPT, {}, confirm=confirm, roller=Roller(seed))
    journal = MemoryJournal()
    ended = run(session, TextEars(io.StringIO(text), echo=True, captions=captions), captions,
                journal)
    return out.getvalue(), journal, session, ended


def test_reads_the_track_then_asks_and_plays_to_the_end():
    transcript, journal, session, ended = play("next\nthree\n4 and 2\n1 5\nsix and a one\n")
    assert ended
    assert "Track 1: Rules" in transcript and "Doubles don't count." in transcript
    assert "You rolled 6 and 1; total 19." in transcript
    assert "Game over." not in transcript.split("total 19.")[0]
    assert journal.lines[1:] == [Number(3), Dice((4, 2)), Dice((1, 5)), Dice((6, 1))]


def test_a_refused_input_says_why_and_changes_nothing():
    transcript, journal, session, _ = play("next\n2\nsix and six\n13 and 2\n")
    assert "Doubles don't count; roll again.\nRound 1: what did the two dice show?" in transcript
    assert "13 is not a face of a 6-sided die.\nRound 1: what did the two dice show?" in transcript
    assert session.state.rounds == 0 and session.state.total == 0
    assert journal.lines == [journal.lines[0], Number(2)]


def test_back_undoes_the_last_input_and_is_journaled():
    transcript, journal, session, _ = play("next\n2\n3 4\nback\n")
    assert "Taken back." in transcript
    assert journal.lines[-1] == "undo"
    assert session.state.rounds == 0


def test_confirmation_reads_back_and_waits_for_yes():
    transcript, journal, session, _ = play("next\n2\n3 and 4\nno\n3 and 5\nyes\n", confirm=True)
    assert "3 and 4. Right?" in transcript and "3 and 5. Right?" in transcript
    assert journal.lines[-1] == Dice((3, 5))
    assert Dice((3, 4)) not in journal.lines
    assert session.state.total == 8


def test_roll_for_me_at_a_read_back_rolls_instead():
    """"I heard 3 and 4. Right?": the table would rather the app rolled. Help names "roll for
    me" there, but it was refused ("doesn't answer this question")."""
    transcript, journal, session, _ = play("next\n2\n3 and 4\nroll for me\nnext\n",
                                           confirm=True)
    rolled = journal.lines[-1]
    assert rolled.by_app and "Rolled 2 dice:" in transcript, transcript
    assert session.state.total == sum(rolled.faces) and Dice((3, 4)) not in journal.lines
    assert "doesn't answer" not in transcript


def test_a_corrected_result_replaces_the_one_waiting_for_confirmation():
    _, journal, session, _ = play("next\n2\n3 and 4\n2 and 5\nyes\n", confirm=True)
    assert journal.lines[-1] == Dice((2, 5))


def test_roll_for_me_rolls_the_expected_dice_and_says_every_face():
    transcript, journal, session, _ = play("next\n2\nroll for me\n", seed=3)
    rolled = journal.lines[-1]
    assert isinstance(rolled, Dice) and rolled.by_app and len(rolled.faces) == 2
    assert f"Rolled 2 dice: {rolled.faces[0]} and {rolled.faces[1]}." in transcript


def test_help_says_what_is_accepted_now_and_status_where_we_are():
    transcript, *_ = play("next\n2\n3 4\nhelp\nstatus\n")
    assert "the faces of 2 6-sided dice" in transcript
    assert "1 rounds played, total 7." in transcript


def test_goto_reads_a_track_without_changing_the_game():
    transcript, journal, session, _ = play("next\n2\ngo to track 2\ntrack 9\n")
    assert "Track 2: Credits" in transcript and "Made for tests." in transcript
    assert "There is no track 9; this game has tracks 1 to 2." in transcript
    assert session.state.players == 2 and len(journal.lines) == 2


def test_repeat_says_the_last_passage_again():
    transcript, *_ = play("next\n2\nrepeat\n")
    assert transcript.count("Welcome, 2 players.") == 2


def test_replaying_the_inputs_rebuilds_the_same_state():
    _, journal, live, _ = play("next\n3\n1 2\n5 6\n")
    fresh = Session(INFO, SCRIPT, {})
    fresh.replay(journal.lines)
    assert fresh.state == live.state


def test_quit_stops_without_ending_the_game():
    transcript, journal, session, ended = play("next\nquit\n2\n")
    assert not ended and "Saved." in transcript and session.state.players == 0


class RecordingMouth:
    """A speaker stand-in that records calls (the real one is tested on real devices)."""

    def __init__(self):
        self.calls = []
        self.is_speaking = False
        self.heard_until = 0.0  # its sound is never heard later than it is handed over

    def __getattr__(self, name):
        return lambda *args: self.calls.append((name, *args))


def test_with_a_speaker_each_listen_is_cued_and_accepted_or_unclear_inputs_have_earcons():
    mouth = RecordingMouth()
    session = Session(INFO, SCRIPT, {})
    captions = Captions(io.StringIO())
    run(session, TextEars(io.StringIO("next\nbanana\n2\n"), echo=False), captions,
        MemoryJournal(), mouth)
    earcons = [c[1] for c in mouth.calls if c[0] == "earcon"]
    assert earcons[:5] == ["reading", "listening", "accepted", "listening", "unclear"]
    spoken = [c[1].text for c in mouth.calls if c[0] == "say"]
    assert "Roll two dice three times." in spoken and "How many players?" in spoken
