"""A free-text answer the recogniser cannot spell is spelled letter by letter: "spell it" at a
name question, the letters, then a read-back that spells them again before a yes keeps it."""

from __future__ import annotations

import pytest

from narrator.events import Control, Line, Text, Unclear
from narrator.rules import registry
from narrator.script.loader import find_script, load_script
from narrator.session.game import SPELL
from narrator.understand import AcceptText, Expectation, describe, understand
from narrator.understand.spelling import (
    by_radio, ended, holds_radio, letters, mended, spelled_out,
)
from narrator.voice.asr import Heard
from narrator.voice.listener import Ears
from narrator.voice.mic import Frames
from narrator.voice.respell import EDIT_GAIN, neighbours, respell
from narrator.voice.transcripts import done_in_place, looped, spelled_once
from scripted import Scripted, sounds
from test_loop_states import Mouth, no_echo_tail, play  # noqa: F401 (the fixture)

INFO = registry.get("intensity")
SCRIPT = load_script(find_script(INFO.rules.script))
RULES = registry.bound(INFO, SCRIPT)


def play_intensity(lines):
    """Two players, then ``lines`` at the first player's name question."""
    return play([("asking", "2")] + lines, rules=RULES, game=SCRIPT)


@pytest.mark.parametrize("said, spelled", [
    ("R-I-K-A-R-D space, R-A-S-M-U-S-S-E-N", "Rikard Rasmussen"),
    (" Q, U, I, C, K, Space, W, I, T, S", "Quick Wits"),
    ("QUI CK", "Quick"),                       # letters a recogniser wrote together
    ("ar eye kay ay are dee", "Rikard"),       # letter names written as words
    ("double you eye tea ess", "Wits"),
    ("A S M U S S E E E E E E E", "Asmussee"),  # a recogniser looping on one letter
    # the radio alphabet, as Whisper writes it, near misses too ("Dango", "Hodel")
    ("Bravo, uniform, delta, alpha, papa, echo, Sierra, dango.", "Budapest"),
    ("Hodel Echo Romeo Space Delta Alpha Uniform Golf Hotel Tango Echo Romeo", "Her Daughter"),
    ("X-ray, Yankee, Juliet, Alfa, whisky", "Xyjaw"),
    ("Charlie, A, Tango, O.", "Cato"),          # radio words and letters mixed
    ("Foxtrot Oscar Romeo Galf Echo Romeo Yunkey.", "Forgery"),
    ("Sierra Tango Echo Viekor Echo", "Steve"),
    # in a radio spelling, a radio word written as a sound before it ("Bhima" for Lima,
    # "Bhoskor" for Oscar), by its start ("Sia"), as the letters that sound like it ("C-A-R",
    # "C-A" for Sierra), or with its letter before it ("H hotel"): each one letter
    ("Kilo India Bhima Bhoskor", "Kilo"),
    ("Sia, Mike, Oscar, Oscar, Tango, Hotel.", "Smooth"),
    ("C-A-R-Tango Echo Alpha Lima Space Alpha", "Steal A"),
    ("C-A-Tango, Echo, Alpha, Lima", "Steal"),
    ("H hotel india juliet alpha charlie kilo", "Hijack"),
    ("Delta B Oscar November apostrophe Tango", "Don't"),  # the onset heard before "Oscar"
    ("Lima, P, Oscar, Victor, Echo.", "Love"),
    ("Galf, Alpha, Delta, Galf, Echo, Tango", "Gadget"),  # as written first: not "Alfa"
    ("C. A. R. space. K. I. M.", "Car Kim"),      # letters, not radio: as they are
    ("H. H. Oscar.", "Hho"),
    # a name's marks, said by name
    ("O, apostrophe, B, R, I, E, N.", "O'Brien"),
    ("D O N apostrophe T space P U S H space M E", "Don't Push Me"),
    ("J E A N hyphen L U C space S M I T H dash J O N E S", "Jean-Luc Smith-Jones"),
    ("Oscar, apostrophe, Bravo.", "O'B"),
    ("apostrophe, A, L, hyphen.", "Al"),        # a mark with no letter on one side: none
    ("O apostrophe apostrophe B", "O'B"),
    ("Sierra, India, Lima, Alpha, Sierra. Done.", "Silas"),  # the word that ends a spelling
    ("S. A. L. done", "Sal"),
    ("Delta, Oscar, November, Echo.", "Done"), ("D-O-N-E", "Done"), ("DONE.", "Done"),
])
def test_letters_spell_words(said, spelled):
    assert letters(said) == spelled


@pytest.mark.parametrize("written, done", [
    ("Kilo, India, Mike. Done.", True), ("K I M done", True), ("Done.", True),
    ("Kilo, India, Mike.", False), ("D-O-N-E", False), ("DONE", False), ("Done, Kilo.", False),
])
def test_a_spelling_is_ended_by_done_said_last_not_by_its_letters(written, done):
    """"done" said after the last letter ends a spelling at once (the ears need not wait out
    the quiet that ends one otherwise); the letters D O N E do not."""
    assert ended(written) == done


@pytest.mark.parametrize("said, radio", [
    ("Bravo, uniform, delta, alpha, papa, echo, Sierra, dango.", True),
    ("Hotel Echo Romeo Space Delta Alpha Uniform Golf", True),
    ("B U D A P S T", False), ("Charlie, A, Tango, O.", False), ("QUI CK", False),
    ("", False),
])
def test_a_spelling_in_radio_words_is_told_from_one_in_letters(said, radio):
    """Letters' names that sound alike are mended (``mended``, ``respell``); radio words are
    not letters' names."""
    assert by_radio(said) == radio


@pytest.mark.parametrize("said, radio", [
    ("R-O-N-D. Kilo Alpha, R-O Delta Space", True),  # espeak-ng's "Rikard Rasmussen"
    ("G-O, Alpha Delta G-O, Echo Tango Space", True),
    ("B. Alie, R. R. M. Done.", False),  # a letter spelling with a word near a radio one
    ("S. A. L. Done.", False), ("Sierra, done.", False),
])
def test_a_spelling_of_letters_holding_radio_words_is_told_from_one_of_letters(said, radio):
    """Whisper writes some of a radio spelling's words as letters; its parts are read then
    (``Whisper._read_apart``), as a radio spelling's are."""
    assert holds_radio(said) == radio


@pytest.mark.parametrize("written, spelled", [
    ("Delta, apostrophe, Alpha, Romeo Delta, apostrophe, Alpha, Romeo", "Delta, apostrophe, "
     "Alpha, Romeo"),
    ("O, B, R, I, E, N. O, B, R, I, E, N. O, B, R", "O, B, R, I, E, N."),  # cut by the limit
    ("L U L U", "L U L U"), ("T I N T I N", "T I N T I N"),  # names that repeat a short part
    ("B O R A space B O R A", "B O R A space B O R A"),
])
def test_a_spelling_written_over_and_over_counts_once(written, spelled):
    assert spelled_once(written) == spelled


@pytest.mark.parametrize("written, loops", [
    ("C-A-R-N-D-Lima Alpha C-A-R-N-D-Lima Alpha C-A-R-N", True),  # espeak-ng's "Silas"
    ("C-A-R-N-N-N-N-N-N", True), ("I, I, I, I, I.", True),
    ("Charlie Romeo Oscar Sierra Sierra", False),  # "Cross"
    ("Alpha Sierra Sierra Alpha Sierra Sierra", False), ("T I N T I N", False),
    ("B O R A space B O R A", False),
])
def test_a_spelling_whisper_looped_on_is_told_from_a_name_that_repeats(written, loops):
    """A looped spelling is decoded once more with repeats held back (``Whisper._unlooped``);
    a name's own repeats are not a loop."""
    assert looped(written) is loops


@pytest.mark.parametrize("again, first, kept", [
    ("S-A-R-A-H Done", "S-A-R-A-H-N", True),  # its "done" written as a letter, then as said
    ("E. L. S. A. E. V. A. M. S. Done.", "E-L-S-A-S-A-E-V-A-M-S-D-N", True),
    # espeak-ng's radio "Elsa Evans" in the room, after "K. I. M. Done.": the prompt copied
    ("Echo Lima Sierra Alpha Space Echo Victor Alpha November C. I. M. Done.",
     "Echo Lima Sierra Alpha Space Echo Victor Alpha November Sierra", False),
    ("S-A-R-A-H-N", "S-A-R-A-H-N", False),  # no "done" either way
])
def test_a_spelling_decoded_after_one_that_ends_with_done_is_kept_only_with_no_letter_added(
        again, first, kept):
    """``Whisper._done_written``: said "done" turns letters Whisper wrote for it into the
    word; it never adds letters."""
    assert done_in_place(again, first) is kept


def test_no_letters_spell_nothing():
    assert letters("12, 40.") is None and letters("") is None


def test_a_text_is_spelled_back_word_by_word():
    assert spelled_out("Rikard Rasmussen") == "R, I, K, A, R, D; R, A, S, M, U, S, S, E, N"
    assert spelled_out("Jean-Luc O'Brien") \
        == "J, E, A, N, dash, L, U, C; O, apostrophe, B, R, I, E, N"


def test_spell_it_is_live_only_where_free_text_answers():
    session = play_intensity([])[2]
    free = session.expectation
    assert understand("spell it", free) == Control("spell")
    assert understand("let me spell it", free, "confirming") == Control("spell")
    assert "spell it" in " ".join(describe(free))
    dice = RULES.rules.expects(RULES.rules.start({}).state)  # how many players: a number
    assert isinstance(understand("spell it", dice), Unclear)


def test_spelled_letters_are_read_back_spelled_and_kept_after_a_yes():
    transcript, journal, session, mouth, ears, _ = play_intensity([
        ("asking", "Rick her dress"),           # heard wrong: read back
        ("confirming", "spell it"),
        ("spelling", "S-A-R-A-H"),
        ("confirming", "yes"),
    ])
    assert SPELL in mouth.spoken
    assert "I heard S, A, R, A, H: 'Sarah'. Keep it?" in transcript
    assert [m for m, _ in ears.heard] == ["asking", "asking", "confirming", "spelling",
                                          "confirming"]
    assert session.inputs[-1] == Text("Sarah")
    assert "Rick her dress" not in str(journal.lines)


def test_a_spelled_apostrophe_is_read_back_by_name_and_kept():
    transcript, _, session, *_ = play_intensity([
        ("asking", "spell it"),
        ("spelling", "D, O, N, apostrophe, T, space, P, U, S, H"),
        ("confirming", "yes"),
    ])
    assert "I heard D, O, N, apostrophe, T; P, U, S, H: 'Don't Push'. Keep it?" in transcript
    assert session.inputs[-1] == Text("Don't Push")


def test_what_a_name_was_heard_as_and_refused_is_told_to_the_ears_until_it_is_answered():
    def refused(session) -> tuple[str, ...]:
        return session.expectation.find(AcceptText).refused
    session = play_intensity([("asking", "Rick her dress")])[2]
    assert refused(session) == ("Rick her dress",)  # at its read-back: said again, refused
    session = play_intensity([("asking", "Rick her dress"), ("confirming", "no"),
                              ("asking", "Rick a dress")])[2]
    assert refused(session) == ("Rick her dress", "Rick a dress")
    session = play_intensity([("asking", "Rick her dress"), ("confirming", "no"),
                              ("asking", "Rikard"), ("confirming", "yes"), ("asking", "main")])[2]
    assert session.inputs[-2] == Text("Rikard") and refused(session) == ()  # the next: a trait


def test_a_spelling_with_letters_that_sound_alike_is_offered_mended_from_how_it_was_heard():
    # festival's "B A D space T E M P E R" written "b a d space t d m p d r" (stop 39's run)
    transcript, _, session, *_ = play_intensity([
        ("asking", "Bed, Timber"), ("confirming", "Mad temper"), ("confirming", "no"),
        ("asking", "spell it"), ("spelling", "B A D space T D M P D R"),
        ("confirming", "change"),
    ])
    assert "Keep 'Bad Tdmpdr', or change it to 'Bad Temper'?" in transcript
    assert session.inputs[-1] == Text("Bad Temper")


def test_a_radio_spelling_is_read_back_as_spelled_never_offered_mended():
    """Radio words are no letters' names that sound alike: mended from a misheard name, every
    change offered after a radio spelling in stop 82's table runs was wrong ("Alarm" as
    "Alairm")."""
    transcript, _, session, *_ = play_intensity([
        ("asking", "Bed, Timber"), ("confirming", "Mad temper"), ("confirming", "no"),
        ("asking", "spell it"),
        ("spelling", "Bravo Alpha Delta space Tango Delta Mike Papa Delta Romeo"),
        ("confirming", "yes"),
    ])
    assert "change it to 'Bad Temper'" not in transcript
    assert "'Bad Tdmpdr'. Keep it?" in transcript
    assert session.inputs[-1] == Text("Bad Tdmpdr")


@pytest.mark.parametrize("spelled, heard, offered", [
    ("Bad Tdmpdr", ["Bed, Timber", "Mad temper", "Spill it"], "Bad Temper"),
    ("Lvd For Jila", ["Love for healing", "Love for Gila"], "Love For Jila"),  # an o dropped
    ("Budapst", ["Move the past", "Do the best"], None),  # no hearing with as many words
    ("Rikard Rasmussen", ["Rick her dress, Missin."], None),
    ("Sarah", ["Sero", "Everyone"], None),  # r and o do not sound alike: nothing to mend
    ("Gadged Tezh", ["Go get stuck", "Magic Tech", "FALID"], None),  # too far from any
    ("Sal", ["Sally"], None),  # two letters more are not a letter dropped
])
def test_mended_takes_only_letters_that_sound_alike_or_one_dropped(spelled, heard, offered):
    assert mended(spelled, heard) == offered


def test_no_letters_are_not_understood_and_spelling_goes_on():
    transcript, _, session, mouth, ears, _ = play_intensity([
        ("asking", "spell it"), ("spelling", "12"), ("spelling", "done"), ("spelling", "S A L"),
        ("confirming", "yes"),
    ])
    assert "Didn't catch that." in transcript and "I heard no letters" in transcript
    assert [m for m, _ in ears.heard][2:5] == ["spelling"] * 3  # still spelling
    assert session.inputs[-1] == Text("Sal")


def test_back_while_spelling_asks_the_question_again_and_changes_nothing():
    transcript, journal, session, _, ears, _ = play_intensity([
        ("asking", "spell it"), ("spelling", "back"), ("asking", "Sarah"), ("confirming", "yes"),
    ])
    assert "Not spelling." in transcript
    assert session.inputs[-1] == Text("Sarah") and len(session.inputs) == 2


def test_a_typed_spelling_is_taken_at_once():
    _, _, session, _, ears, _ = play([("asking", "2"), ("asking", "spell it", True, "text"),
                                      ("spelling", "s a l", True, "text")],
                                     rules=RULES, game=SCRIPT)
    assert session.inputs[-1] == Text("Sal") and session.mode == "asking"


def test_help_and_what_now_while_spelling_say_how_to_spell():
    transcript, *_ = play_intensity([("asking", "spell it"), ("spelling", "help"),
                                     ("spelling", "what now")])
    assert '"space" between words' in transcript and '"apostrophe" or "dash"' in transcript
    assert "spelled with alpha, bravo, charlie (or one letter at a time), then done" in transcript
    assert '"done" after the last' in transcript


# --------------------------------------------------------------------------- longer than 10 s

def spelled_aloud(seconds_of_letters: float) -> Frames:
    """Quiet, letters 0.6 s apart for ``seconds_of_letters``, then 4 s of quiet."""
    letters = ([3000] * 8 + [50] * 12) * round(seconds_of_letters / 0.6)
    return sounds([50] * 30 + letters + [50] * 130, seed=7)


def spell(parts, seconds_of_letters):
    """What the ears make of letters spelled for ``seconds_of_letters``, decoded as ``parts``."""
    recognizer = Scripted(*(Heard(part, 1.0, 0.0) for part in parts))
    source = spelled_aloud(seconds_of_letters)
    ears = Ears(recognizer, source, clock=lambda: source.seconds_read)
    return ears.listen(Expectation(Line("ask.name"), (AcceptText("name"),)), mode="spelling")


def test_a_name_spelled_past_the_recognisers_window_is_heard_whole():
    """The recogniser hears 10 s at most: a longer spelling was cut there, and its last letters
    were a second utterance. It is parted between letters past 6 s, and the parts joined."""
    heard = spell(["l o v e space f o r", "space j i l a"], 10)
    assert heard.meaning == Text("Love For Jila")


def test_done_said_after_letters_parted_from_it_is_no_doubt_about_them():
    """A spelling parted past 6 s, its last part "done" alone (no letters, so none Whisper is
    sure of): the letters before it are the answer (the Intensity bench's "Quick Wits" by
    radio, 7 s, was left as table talk)."""
    source = spelled_aloud(10)
    recognizer = Scripted(Heard("l o v e space f o r", 1.0, 0.0),
                          Heard("", 0.0, 0.0, free="Done."))
    heard = Ears(recognizer, source, clock=lambda: source.seconds_read).listen(
        Expectation(Line("ask.name"), (AcceptText("name"),)), mode="spelling")
    assert heard is not None and heard.meaning == Text("Love For")


def test_letters_parted_with_no_more_after_them_are_taken_alone():
    heard = spell(["q u i c k", "never decoded"], 6)
    assert heard.meaning == Text("Quick")


def test_letters_parted_with_no_more_after_them_are_taken_after_a_seconds_quiet():
    """As a spelling not parted: 1 s of quiet after the last letter ends it (it took 2 s more
    after the part was decoded, which the table waited through after every long spelling)."""
    source = spelled_aloud(6)
    ears = Ears(Scripted(Heard("q u i c k", 1.0, 0.0)), source, clock=lambda: source.seconds_read)
    heard = ears.listen(Expectation(Line("ask.name"), (AcceptText("name"),)), mode="spelling")
    last_letter_ended = (30 + 200 - 12) * 0.03  # quiet, then 10 letters 0.6 s apart
    assert heard.meaning == Text("Quick")
    assert 0.9 <= source.seconds_read - last_letter_ended <= 1.2


def test_a_spelling_is_changed_one_letter_at_a_time_to_what_sounds_alike():
    """The changes ``respell`` weighs: a letter for one whose name rhymes ("D" for "E"), a
    vowel added, a letter dropped or doubled, a letter that was "space" ("S" for it); not a
    letter that sounds unlike it."""
    near = neighbours("budapst")
    assert {"budapest", "budabst", "budast", "buddapst", "buda st"} <= set(near)
    assert "elsa evans" in neighbours("elsasevans")
    assert "kudapst" not in near and "budapst" not in near
    assert all("  " not in s and s == s.strip() for s in neighbours("a b"))
    assert all(s.count("'") == 1 and "''" not in s for s in neighbours("o'brien"))  # a mark


@pytest.mark.parametrize("gain, own, kept", [
    (EDIT_GAIN + 0.5, -18.0, "budapest"),
    (EDIT_GAIN - 0.5, -18.0, "budapst"),  # a change not well heard
    (EDIT_GAIN + 0.5, -10.0, "budapst"),  # what was said aloud was another word
])
def test_a_spelling_changes_only_where_the_spoken_word_makes_the_change_well_heard(
        gain, own, kept):
    """The table's letters stand unless the change is at least EDIT_GAIN more likely as the
    word said aloud, and explains that word nearly as well as its own transcript does."""
    likely = {"budapst": -20.0, "budapest": -20.0 + gain}
    assert respell("budapst", lambda texts, _: [likely.get(t, -40.0) for t in texts], own) == kept


def test_the_recognisers_next_guess_at_the_letters_is_weighed_as_a_change():
    """Flite slt's spelled "Budapest" is heard "budaprst", two changes from the name, which
    the climb may not reach in its time; Whisper's next guesses at the letters held the name.
    A guess is weighed as a change of the first round: kept when the spoken word makes it well
    heard and explains that word, as any change; one with fewer letters is not weighed (a short
    one is likely as nearly any word)."""
    likely = {"budaprst": -31.0, "budapest": -4.0, "bub": -3.0}
    score = lambda texts, _: [likely.get(t, -40.0) for t in texts]  # noqa: E731
    assert respell("budaprst", score, -3.0) == "budaprst"
    assert respell("budaprst", score, -3.0, ("budaprsd", "budapest")) == "budapest"
    assert respell("budaprst", score, -3.0, ("bub",)) == "budaprst"
    assert respell("budaprst", score, 2.0, ("budapest",)) == "budaprst"


def test_a_spelling_with_space_said_over_and_over_is_mended_as_one_gap_between_words():
    """"S A L space space space F E N C D": every spelling one change away still held two
    spaces running, so none was left to weigh and the hearing crashed (the microphone went
    deaf mid-game)."""
    likely = {"sal fencd": -20.0, "sal fence": -10.0}
    score = lambda texts, _: [likely.get(t, -40.0) for t in texts]  # noqa: E731
    assert respell("sal   fencd", score, -12.0) == "sal fence"
    assert respell("  sal fencd  ", score, -12.0) == "sal fence"
    assert respell("sal   fencd", lambda texts, _: [-20.0] * len(texts), -12.0) == "sal   fencd"
