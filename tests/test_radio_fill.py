"""A radio spelling's stretches that are no radio word, filled with radio words where they
stand, the rest of the transcript held (``narrator.voice.radio_fill``)."""

from __future__ import annotations

from rapidfuzz.distance import Levenshtein

from narrator.understand.spelling import radio_read
from narrator.voice.radio_fill import MOST, fill, filled


def test_a_radio_spelling_is_read_word_by_word_its_letters_and_unknown_words_as_none():
    """flite rms's "Royal" written "Romeo Oscar Eunkey Alpha Lima": "Eunkey" is no radio word;
    "C A R" sounds "Sierra"; a letter beside its own radio word is left out, as is "done"."""
    assert radio_read("Romeo Oscar Eunkey Alpha Lima Done") == [
        ("romeo", "romeo"), ("oscar", "oscar"), ("eunkey", None), ("alpha", "alpha"),
        ("lima", "lima")]
    assert radio_read("Romeo Alpha, U.N.K. Space, apostrophe, C A R.") == [
        ("romeo", "romeo"), ("alpha", "alpha"), ("U", None), ("N", None), ("K", None),
        ("space", "space"), ("apostrophe", "apostrophe"), ("C A R", "sierra")]
    assert radio_read("H hotel Dango") == [("hotel", "hotel"), ("dango", "tango")]


def likelier_near(wanted: str):
    """A scorer that finds a transcript likelier the fewer words it is from ``wanted`` (as
    Whisper finds the words said likelier than words not said)."""
    def words(text: str) -> list[str]:
        return text.lower().replace(",", " ").replace(".", " ").split()

    def score(texts: list[str]) -> list[float]:
        return [-float(Levenshtein.distance(words(t), words(wanted))) for t in texts]
    return score


def test_each_stretch_is_filled_with_the_words_that_make_the_transcript_likeliest():
    read = radio_read("Romeo Alpha, U.N.K. Space Foxtrot, O. R.")
    got = filled(read, done=True, score=likelier_near("Romeo Alpha Yankee Space Foxtrot Oscar "
                                                      "Romeo Done"))
    assert got == ["romeo", "alpha", "yankee", "space", "foxtrot", "oscar", "romeo", "done"]


def test_a_stretch_is_never_dropped_and_a_spelling_without_one_is_left():
    """espeak-ng's "Romeo" at a spelling's end written "R": a word was said there."""
    read = radio_read("Delta Oscar Charlie Tango Oscar R")
    got = filled(read, done=False, score=likelier_near("Delta Oscar Charlie Tango Oscar"))
    assert got is not None and len(got) == 6
    assert filled(radio_read("Kilo India Mike Done"), done=True,
                  score=likelier_near("Kilo India Mike Done")) is None


def test_a_stretch_is_filled_with_no_more_words_than_it_holds_nor_more_than_most():
    wanted = "Alpha Bravo Charlie Delta Echo Foxtrot Golf"
    held = []
    fill(lambda words: held.append(words) or " ".join(words), 2, likelier_near(wanted))
    assert max(len(words) for words in held) == 2
    assert len(filled(radio_read("Hotel X Y Z W V U T S Hotel"), done=False,
                      score=likelier_near("Hotel " + wanted + " Hotel"))) == 2 + MOST
