"""A radio spelling's parts: the stretches of speech between its pauses, each a word, and when a
reading of them is kept over Whisper's whole transcript (``narrator.voice.radio_parts``)."""

from __future__ import annotations

import numpy as np

from narrator.voice.radio_parts import (
    PART_WORDS, RATE, PartReader, aloud, better, parts, written,
)

QUIET = np.zeros(RATE // 2)


def word(seconds: float, gap_inside: float = 0.0) -> np.ndarray:
    """A voiced stretch ``seconds`` long (a 200 Hz tone), with a quiet ``gap_inside`` halfway
    (a stop consonant's closure)."""
    t = np.arange(int(seconds * RATE)) / RATE
    sound = 0.3 * np.sin(2 * np.pi * 200 * t)
    half = len(sound) // 2
    return np.concatenate([sound[:half], np.zeros(int(gap_inside * RATE)), sound[half:]])


def test_words_said_apart_are_one_part_each_a_stop_inside_a_word_does_not_part_it():
    said = np.concatenate([QUIET, word(0.5), QUIET, word(0.6, gap_inside=0.06), QUIET,
                           word(0.4), QUIET])
    found = parts(said)
    assert found is not None and len(found) == 3
    assert [round(len(p) / RATE, 1) for p in found] == [0.7, 0.9, 0.6]  # 0.1 s kept each side


def test_a_stretch_longer_than_a_word_lasts_is_no_reading_a_click_is_no_part():
    assert parts(np.concatenate([QUIET, word(0.5), QUIET, word(1.6), QUIET])) is None
    click = np.concatenate([QUIET, word(0.04), QUIET, word(0.5), QUIET])
    assert len(parts(click)) == 1
    assert parts(QUIET) is None


def test_letters_are_read_back_as_radio_words_and_written_as_whisper_writes_a_spelling():
    said = aloud(["o", "'", "b", "space", "x"])
    assert said == ["oscar", "apostrophe", "bravo", "space", "x-ray"]
    assert written(said + ["done"]) == "Oscar, Apostrophe, Bravo, Space, X-ray, Done."


def test_a_reading_is_better_only_in_total_and_per_word():
    assert better(-20.0, 10, -40.0, 10)
    assert not better(-40.0, 10, -20.0, 10)
    # fewer words score higher for having fewer: flite rms's run-together spelling
    assert not better(-102.4, 13, -114.7, 26)
    # espeak-ng's "Quick Wits" written "Quick Witcir": shorter, and likelier per word too
    assert better(-30.7, 11, -65.5, 13)


def reader(likeliest: list[str]) -> PartReader:
    """A reader whose Whisper finds, in the i-th part, ``likeliest[i]`` likeliest (log
    probability -1 for its one token) and every other part word at -3 (-6 for two tokens),
    "space" after it unlikely."""
    ids = {w: i for i, w in enumerate(PART_WORDS)}
    end, comma, stop, space = len(ids), len(ids) + 1, len(ids) + 2, ids["space"]

    def tokens(text: str) -> list[int]:
        marks = {",": [comma], ".": [stop], " Space": [space], " space": [space]}
        return marks.get(text) or [ids[text.strip().lower()]]

    def steps(encoded, runs):
        out = []
        for part, run in runs:
            step = np.full(end + 3, -3.0)
            step[ids[likeliest[part]]] = -1.0
            step[end] = -0.1  # after the word: its end, not "space"
            out.append([step] * (len(run) + 2))
        return out

    return PartReader(lambda pieces: np.zeros(len(pieces)), steps, tokens, end)


def test_the_parts_own_scores_weigh_in_where_two_readings_differ_word_for_word():
    """espeak-ng's "Budapest" through the room: its parts read "... alpha papa echo ...",
    Whisper's whole transcript "... alpha alpha echo ..."; each part alone finds its own word
    likelier by the margin (here 2 a part), which ``Whisper._read_apart`` adds to the
    reading's score over the whole utterance."""
    said = np.concatenate([QUIET] + [np.concatenate([word(s), QUIET]) for s in (0.4, 0.5, 0.6)])
    read = reader(["alpha", "papa", "echo"])
    assert read.words(said) == ["alpha", "papa", "echo"]
    assert read.margin(["alpha", "alpha", "echo"]) == 2.0
    assert read.margin(["alpha", "alpha", "alpha"]) == 4.0
    assert read.margin(["alpha", "papa", "echo"]) == 0.0
    # not word for word: as many words but one not a part word, or a word more
    assert read.margin(["alpha", "pop", "echo"]) is None
    assert read.margin(["alpha", "papa", "echo", "done"]) is None
