"""A free-text answer holding a name the game knows: Whisper, prompted with the names the question
gives (``AcceptText.names``), writes it as the table spelt it; unprompted it does not. A name it
cannot write is spelled, letter by letter."""

from __future__ import annotations

import time

import numpy as np
import pytest
from rapidfuzz.distance import Levenshtein

import clips
from narrator.events import Control, Line, Text
from narrator.understand import AcceptText, Expectation, normalise
from narrator.understand.spelling import RADIO, letters
from narrator.voice.asr import make_recognizer
from narrator.voice.hear import hear_file, read_pcm
from narrator.voice.listener import Ears
from narrator.voice.mic import FRAME, RATE, Endpointer, Frames

VOICES = ("flite:rms", "flite:awb", "festival:slt-hts")
pytestmark = [pytest.mark.audio,
              pytest.mark.skipif(bool(clips.missing_tools(VOICES)),
                                 reason=f"needs {', '.join(clips.missing_tools(VOICES))}")]


def trait(*names: str) -> Expectation:
    return Expectation(Line("ask.trait"), (AcceptText("trait", names),))


@pytest.fixture(scope="module")
def recognizer():
    return make_recognizer()


def test_a_name_the_question_gives_is_written_as_given(recognizer, tmp_path):
    said = [clips.make_clip(tmp_path, "Love for Jila", None, voice).path for voice in VOICES]
    named = [hear_file(recognizer, p, trait("Kim", "Jila", "Mara", "Silas"))["text"]
             for p in said]
    unnamed = [hear_file(recognizer, p, trait())["text"] for p in said]
    assert [normalise(t) for t in named] == ["love for jila"] * len(VOICES), named
    assert not any("jila" in normalise(t) for t in unnamed), unnamed  # ("Love for Dila.")


QUIET = (np.random.default_rng(5).standard_normal(RATE) * 30).astype(np.int16).tobytes()


@pytest.mark.skipif(bool(clips.missing_tools(("espeak:en-us",))), reason="needs espeak-ng")
def test_spell_it_written_as_a_name_is_spell_it_and_names_stay_names(recognizer, tmp_path):
    """espeak-ng's "spell it" at a name question was written "Elliot." or "Damn it.", read
    back as a name, refused and said again (14 times in five table runs); "spell it" explains
    it nearly as well as that transcript, and so it is that command, unsure. Names stay
    names, "Elliot" itself too, and names Whisper writes oddly ("Duh-Dexon." for "John
    Jackson": "spell it" came within 5 of so unlikely a transcript, yet explains the audio
    badly); a command written as said stays that command, sure."""
    asked = trait()
    said = clips.make_clip(tmp_path, "spell it", None, "espeak:en-us")
    got = Ears(recognizer, Frames(QUIET + read_pcm(said.path) + QUIET)).listen(asked)
    assert got is not None and got.meaning == Control("spell") and not got.sure, got
    # asked apart: the later tests spell at trait(), where a name said aloud would mend them
    odd = Expectation(Line("ask.name"), (AcceptText("name"),))
    for name, retold, question in (("Rikard Rasmussen", None, odd),
                                   ("John Jackson", (0.9, 200), odd),
                                   ("Bad Temper", (0.9, 200), odd), ("Elliot", None, asked),
                                   ("Spirit", None, asked), ("Talbot", None, asked),
                                   ("Spelman", None, asked), ("Dylan", None, asked)):
        named = clips.make_clip(tmp_path, name, None, "espeak:en-us", retold=retold)
        got = Ears(recognizer, Frames(QUIET + read_pcm(named.path) + QUIET)).listen(question)
        assert isinstance(got.meaning, Text), (name, retold, got)
    for command, control in (("spell that", "spell"), ("spell the name", "spell"),
                             ("go back", "back")):
        said = clips.make_clip(tmp_path, command, None, "espeak:en-us")
        got = Ears(recognizer, Frames(QUIET + read_pcm(said.path) + QUIET)).listen(asked)
        assert got.meaning == Control(control) and got.sure, (command, got)


def test_a_spelled_name_is_written_letter_by_letter(recognizer, tmp_path):
    """Unheld, Whisper writes "All right, K-A-R-D" for a spelled "Rikard"; in mode "spelling"
    only letters, "space" and punctuation can be written."""
    spelled = {"Sal": "S. A. L.", "Quick Wits": "Q. U. I. C. K. space. W. I. T. S."}
    heard = {(name, voice): letters(hear_file(recognizer, clips.make_clip(
        tmp_path, said, None, voice).path, trait(), mode="spelling")["text"])
        for name, said in spelled.items() for voice in VOICES}
    near = [Levenshtein.distance(name, got or "") <= 2 for (name, _), got in heard.items()]
    assert all(near), list(heard.values())  # ("Quick Wids", "Scl", "Uuick Wuits")
    assert sum(name == got for (name, _), got in heard.items()) >= len(heard) / 3, heard


def test_a_name_spelled_with_the_radio_alphabet_is_heard_as_spelled(recognizer, tmp_path):
    """The letters b, d, e, p and t sound alike (spelled by letters, "Budapest" was written
    "b u d a p s t", "b u d a p d s d", "d v d a d r s t"); their radio words do not, and in
    mode "spelling" Whisper may write them, and the names of a name's marks. Whisper wrote
    "D'Arcy" spelled so over and over ("D'Arcyd'arcyd'arcy"): it counts once."""
    spelled = {"Budapest": "Bravo. Uniform. Delta. Alpha. Papa. Echo. Sierra. Tango.",
               "Quick Wits": "Quebec. Uniform. India. Charlie. Kilo. space. Whiskey. India. "
                             "Tango. Sierra.",
               "D'Arcy": "Delta. apostrophe. Alpha. Romeo. Charlie. Yankee.",
               "Jean-Luc": "Juliet. Echo. Alpha. November. dash. Lima. Uniform. Charlie."}
    heard = {(name, voice): letters(hear_file(recognizer, clips.make_clip(
        tmp_path, said, None, voice).path, trait(), mode="spelling")["text"])
        for name, said in spelled.items() for voice in VOICES}
    assert all(name == got for (name, _), got in heard.items()), heard


@pytest.mark.skipif(bool(clips.missing_tools(("espeak:en-us",))), reason="needs espeak-ng")
def test_a_radio_spelling_whisper_stopped_short_of_is_heard_to_its_end(recognizer, tmp_path):
    """Whisper wrote espeak-ng's radio spelling of "his trial" as "Hotel, India." and of
    "Cross" as "Charlie, R": seconds of speech left unwritten. Written with time stamps it goes
    on to the end."""
    spelled = {"His Trial": "Hotel. India. Sierra. space. Tango. Romeo. India. Alpha. Lima.",
               "Cross": "Charlie. Romeo. Oscar. Sierra. Sierra."}
    heard = {name: letters(hear_file(recognizer, clips.make_clip(
        tmp_path, said, None, "espeak:en-us").path, trait(), mode="spelling")["text"])
        for name, said in spelled.items()}
    assert heard == {name: name for name in spelled}


@pytest.mark.skipif(bool(clips.missing_tools(("espeak:en-us",))), reason="needs espeak-ng")
def test_a_radio_spelling_whisper_looped_on_is_decoded_again_without_the_loop(recognizer,
                                                                              tmp_path):
    """Blades' table typed "Silas" (stop 76): Whisper wrote espeak-ng's "Sierra. India. Lima.
    Alpha. Sierra." as "C-A-R-N-D-Lima Alpha" over and over. Decoded once more with repeats
    held back, it is written as said."""
    clip = clips.make_clip(tmp_path, "Sierra. India. Lima. Alpha. Sierra.", None, "espeak:en-us")
    assert letters(hear_file(recognizer, clip.path, trait(), mode="spelling")["text"]) == "Silas"


def radio(text: str) -> str:
    """``text`` spelled as the table bench's players spell by radio ("Kilo. India. Mike.
    space. ... Done.")."""
    return " space. ".join(". ".join(RADIO[ord(c) - ord("a")].capitalize() for c in w) + "."
                           for w in text.lower().split()) + " Done."


def heard_by_ears(recognizer, clip: clips.Clip) -> str | None:
    """The name the live ears hear spelled in ``clip`` (quiet around it), as at a table."""
    source = Frames(QUIET + read_pcm(clip.path) + QUIET * 4)
    got = Ears(recognizer, source, clock=lambda: source.seconds_read).listen(trait(),
                                                                             mode="spelling")
    return got.meaning.text if got is not None else None


@pytest.mark.skipif(bool(clips.missing_tools(("espeak:en-us", "flite:slt"))),
                    reason="needs espeak-ng and flite")
@clips.avx512_heard()
def test_a_radio_spelling_whisper_writes_astray_is_read_a_word_at_a_time(recognizer, tmp_path):
    """espeak-ng's radio "Quick Wits" (typed in stop 79's Intensity run) and "Kim a hacker"
    were written "Quick Witcir" and "Kim A Hackero": each word between its pauses, read
    alone, spells them as said. The long spellings are parted at 6 s, as at a table.
    Spellings Whisper writes right stay so: flite rms runs its words together (no parts),
    Festival's "Sarah" pauses inside words (parts a word in two), flite slt's letters are no
    radio spelling."""
    said = {("Quick Wits", "espeak:en-us"): radio("Quick Wits"),
            ("Kim A Hacker", "espeak:en-us"): radio("Kim a hacker"),
            ("Steal A Jet From Heathrow", "flite:rms"): radio("Steal a jet from Heathrow"),
            ("Sarah", "festival:slt-hts"): radio("Sarah"),
            ("Kim", "flite:slt"): "K. I. M. Done."}
    heard = {name: heard_by_ears(recognizer, clips.make_clip(tmp_path, spelled, None, voice))
             for (name, voice), spelled in said.items()}
    assert heard == {name: name for name, _ in said}


def test_a_radio_word_whisper_writes_as_letters_is_read_again_as_a_radio_word(recognizer,
                                                                            tmp_path):
    """flite rms runs its radio words together (no parts to read alone), and Whisper wrote its
    "Yankee" as "U.N.K.", "U.N.G." or "Eunkey": "Ray" was heard "Raunk", "Face your" "Face
    Ungour". Filled where it stands with the radio word that makes the transcript likeliest
    (``radio_fill``), each is heard as spelled."""
    heard = {name: heard_by_ears(recognizer, clips.make_clip(tmp_path, radio(name), None,
                                                             "flite:rms"))
             for name in ("Ray", "Face Your")}
    assert heard == {"Ray": "Ray", "Face Your": "Face Your"}


class Paced(Frames):
    """A recording read no faster than it was said, as from a microphone."""

    def read(self, timeout: float | None = None) -> bytes:
        time.sleep(FRAME / RATE)
        return super().read(timeout)


@pytest.mark.parametrize("spelled", ["Kilo. India. Mike.", "K. I. M."])
def test_a_spelling_ended_with_done_is_taken_without_waiting_out_the_quiet(recognizer,
                                                                          tmp_path, spelled):
    """The prompt asks for "done" after the last letter: the spelling is then taken once it is
    decoded, not after the second of quiet that ends one otherwise (a pause between letters
    must not end it), and "done" is no letters (decoded with a letter spelling, Whisper
    writes it "D N"). How soon it is decoded is the CPU's: 0.66 s on an AVX2-only one."""
    quiet = np.zeros(2 * RATE, np.int16).tobytes()
    waited = {}
    for end in ("", " Done."):
        said = clips.spoken(clips.make_clip(tmp_path, spelled + end, None, "flite:slt"))
        source = Paced(quiet + said + quiet)
        heard = Ears(recognizer, source, clock=lambda: source.seconds_read).listen(
            trait(), mode="spelling")
        assert heard.meaning == Text("Kim"), end
        waited[end] = source.seconds_read - (len(quiet) + len(said)) / 2 / RATE
    quiet_end = Endpointer.letter_end_frames * FRAME / RATE
    assert waited[""] >= quiet_end > 0.9
    assert waited[" Done."] < quiet_end, waited


def test_done_after_a_letter_spelling_is_no_letters_where_whisper_first_writes_it_so(
        recognizer, tmp_path):
    """Whisper wrote flite rms's "... L. I. N. Done." as "... L-I-N-D-N": decoded again after
    a spelling that ends with "done", it is the word, and no letter of the name."""
    clip = clips.make_clip(tmp_path, "C. L. E. R. K. space. D. U. B. L. I. N. Done.", None,
                           "flite:rms")
    heard = hear_file(recognizer, clip.path, trait(), mode="spelling")
    assert letters(heard["text"]) == "Clerk Dublin"


def test_a_name_spelled_slowly_past_whispers_window_is_heard_whole(recognizer, tmp_path):
    """A table spelling at its own pace: "Love for Jila", a letter or "space" every 0.85 s (11
    s), outlasts the 10 s Whisper hears at once. It was cut there (in flite rms Whisper looped
    on the last letters: "J I L L F O R space J I L L"), and the letters after the cut were a
    second answer; it is now parted between letters past 6 s and the parts are joined."""
    quiet = np.zeros(RATE // 2, np.int16).tobytes()
    said = b"".join(clips.spoken(clips.make_clip(tmp_path, f"{token}.", None, "flite:slt"))
                    + quiet for token in "L O V E space F O R space J I L A".split())
    source = Frames(quiet * 2 + said + quiet * 6)
    ears = Ears(recognizer, source, clock=lambda: source.seconds_read)
    heard = ears.listen(trait(), mode="spelling")
    assert len(said) / 2 / RATE > 10.5 and isinstance(heard.meaning, Text)
    assert Levenshtein.distance(heard.meaning.text.lower(), "love for jila") <= 2, heard


@pytest.mark.parametrize("aloud, voice, misheard", [("Budapest", "flite:rms", True),
                                                    ("Clerk, Dublin", "flite:slt", None),
                                                    ("Budapest", "flite:slt", None)])
def test_a_spelling_is_mended_by_the_name_said_aloud_before_it(recognizer, tmp_path, aloud,
                                                               voice, misheard):
    """Whisper writes flite rms's spelled "Budapest" "B U D A P S T": with the name said
    aloud at the same question before, it is the name. Flite slt's spelled "Clerk, Dublin" is
    "C L E R K space G U B L I N" on some machines and right on others (said aloud: "Glirk,
    Dublin." or "Blurk, Dublin."): either way, after the name said aloud it is the name. Flite
    slt's spelled "Budapest" is "B U D A P R S T", two changes from the name (three rounds of
    the climb: past its budget on a loaded machine); Whisper's fifth guess at the letters is
    the name, a change of the first round. Only the same question's answer mends a spelling."""
    name = aloud.replace(",", "")
    spelled = clips.make_clip(tmp_path, " space. ".join(
        ". ".join(word.upper()) + "." for word in name.split()), None, voice).path
    place = Expectation(Line("ask.trait"), (AcceptText(f"{aloud} by {voice}"),))  # its own:
    # the recogniser outlives a case, and the answer said aloud in one must not mend the next
    other = Expectation(Line("ask.place"), (AcceptText("place"),))  # no other case's aloud

    def spelling(asked: Expectation) -> str | None:
        return letters(hear_file(recognizer, spelled, asked, mode="spelling")["text"])
    alone = spelling(place)
    hear_file(recognizer, clips.make_clip(tmp_path, aloud, None, voice).path, place)
    assert misheard is None or (alone != name) == misheard
    assert spelling(other) == alone
    assert spelling(place) == name


def test_a_spelling_left_unscored_while_mending_could_not_have_been_kept(recognizer, tmp_path):
    """``respell`` does not score a neighbouring spelling whose bound (``Climb.bound``, from
    the spelling it climbs from) is under the gain a change needs; the bound must never be
    under the spelling's score, or a name the table spelled would be left unmended. Over
    flite rms's "Budapest" said aloud, every neighbour of "budapst" and of "budapest" is
    bounded so, and from "budapest", where the climb ends, most are left unscored: the round
    that finds nothing more to change costs little."""
    from narrator.voice.climb import Climb
    from narrator.voice.respell import EDIT_GAIN, neighbours

    hear_file(recognizer, clips.make_clip(tmp_path, "Budapest", None, "flite:rms").path,
              trait())
    speech, _ = recognizer._spoken[1][-1]
    decoder = recognizer._decoder
    tok = decoder.tok
    for spelled in ("budapst", "budapest"):
        climb = Climb()
        start = decoder.score(speech, [[spelled.capitalize()]], climb=climb)[0]
        near = [s.capitalize() for s in neighbours(spelled)]
        scores = decoder.score(speech, [[n] for n in near])
        bounds = [climb.bound(tuple(tok.encode(" " + n)), tok.eot) for n in near]
        assert all(b >= s - 1e-3 for b, s in zip(bounds, scores)), \
            [(n, b, s) for n, b, s in zip(near, bounds, scores) if b < s - 1e-3]
        unscored = sum(b < start + EDIT_GAIN for b in bounds)
        assert (max(scores) >= start + EDIT_GAIN) == (spelled == "budapst")  # the mend
    assert unscored > len(near) / 2


@pytest.mark.parametrize("said, voice, pad, anew", [
    ("Retired cop, Birmingham", "festival:slt-hts", 0.4, "retired cop birmingham"),
    ("Ray, a police sergeant", "flite:rms", 0.1, "ray the police sergeant"),
    ("Ash", "flite:slt", 0.1, None),  # a yes while nothing is read back: a name
])
def test_an_answer_said_again_after_the_table_refused_it_is_not_heard_so_again(
        recognizer, tmp_path, said, voice, pad, anew):
    """Whisper writes the same words the same way each time they are said: refused at its
    read-back and said again, an answer was read back as before until the table typed it
    (stop 68's runs: Festival's "Retired cop, Birmingham" as "Richard Coth, Birmingham.";
    flite slt's "Ash" as "Yes."). Now what the table refused at the question (``AcceptText.refused``) is
    not heard again while Whisper has another way to write it: its other transcripts of
    every saying at the question, scored over them all; ``anew``, what that gives when the
    first hearing was not it. Nothing refused, the answer is heard as before; a yes at its
    read-back is still a yes. What Whisper writes first differs from machine to machine (its
    int8 kernels: on AVX-512, "Bray the police sergeant" and flite slt's "Ash" heard anew;
    on AVX2 alone, "Ray, the police sergeant" at once and "Ash" anew as "S.")."""
    clip = clips.make_clip(tmp_path, said, None, voice, pad=pad).path
    yes = clips.make_clip(tmp_path, "yes", None, voice).path

    def question(*refused: str) -> Expectation:
        return Expectation(Line("ask.trait"), (AcceptText(f"{said} by {voice}",
                                                          refused=refused),))
    heard = hear_file(recognizer, clip, question())["text"]
    again = normalise(hear_file(recognizer, clip, question(heard))["text"])
    assert again and again != normalise(heard)
    assert anew is None or normalise(heard) == anew or again == anew
    assert hear_file(recognizer, yes, question(heard), mode="confirming")["command"] == "yes"
    assert hear_file(recognizer, clip, question())["text"] == heard  # asked anew
