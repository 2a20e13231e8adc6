"""Voice-activity and end-of-speech detection (narrator/voice/mic.py Endpointer)."""

from __future__ import annotations

import numpy as np

from narrator.voice.mic import FRAME, Endpointer

RNG = np.random.default_rng(7)


def frame(level: float) -> bytes:
    return (RNG.standard_normal(FRAME) * level).astype(np.int16).tobytes()


def events(ep: Endpointer, levels: list[float]) -> list[str]:
    return [ep.push(frame(level))[0] for level in levels]


def test_speech_after_quiet_starts_and_300ms_of_quiet_ends_the_utterance():
    ep = Endpointer()
    got = events(ep, [50] * 20 + [3000] * 10 + [50] * 12)
    assert got.index("start") == 22            # three loud frames (90 ms) start it
    assert got.index("end") == 20 + 10 + 9      # the tenth quiet frame (300 ms) ends it
    assert got.count("start") == got.count("end") == 1


def test_start_hands_over_the_preroll_so_the_first_sound_is_not_lost():
    ep = Endpointer()
    events(ep, [50] * 20 + [3000] * 2)
    kind, audio = ep.push(frame(3000))
    assert kind == "start" and len(audio) == ep.preroll_frames * FRAME * 2


def test_a_steady_noise_becomes_the_floor_after_a_second_and_is_no_utterance():
    ep = Endpointer()
    got = events(ep, [50] * 10 + [800] * 500)
    assert got.count("start") == got.count("void") == 1 and "end" not in got
    assert got.index("void") - got.index("start") < 40 and got[-100:] == ["silence"] * 100


def hum(count: int) -> list[float]:
    """Pink noise's frame levels: steady, 900 to 1300."""
    return list(np.random.default_rng(3).uniform(900, 1300, count))


def test_a_word_said_a_second_into_a_noise_that_rose_is_an_utterance_of_its_own():
    """While the narrator spoke, the echo canceller's suppression took the room's hum with its
    voice, and the floor followed it down; when it stopped, the hum came back whole. That
    began an utterance that ran to the 6 s cut, and "resume" said in it (pink noise 10 dB
    down, just after "Paused.") was dropped as talk."""
    ep = Endpointer()
    got = events(ep, [200] * 100 + hum(45) + [6000] * 12 + hum(40))
    word = 100 + 45
    assert got.index("void") < word and got.index("start", got.index("void")) in range(word,
                                                                                       word + 3)
    assert got.index("end", word) == word + 12 + 9 and not ep.cut


def test_a_word_in_the_first_second_of_a_noise_that_rose_ends_a_second_after_it():
    ep = Endpointer()
    got = events(ep, [200] * 100 + hum(15) + [6000] * 12 + hum(200))
    word_end = 100 + 15 + 12
    assert "void" not in got and got.count("end") == 1 and not ep.cut
    assert got.index("end") in range(word_end + 25, word_end + ep.hum_frames + 1)  # ~1 s after
    assert got[-100:] == ["silence"] * 100  # the hum is the floor now
    talk = Endpointer()  # others' talk, syllables and gaps, is no hum: cut at 6 s
    events(talk, [200] * 100 + [3000, 3000, 3000, 300] * 60)
    assert talk.cut


def test_a_word_said_while_others_talk_on_ends_with_the_word():
    """Talk around the table that never stops (syllables at 1500 with dips to silence
    between them) is the room's level once an utterance of it is cut at 6 s; a player's word
    over it then ends 300 ms after the word, not when the talk next falls quiet."""
    talk = [1500, 1500, 1500, 0] * 80
    ep = Endpointer()
    got = events(ep, [50] * 10 + talk + [8000] * 15 + talk)
    word = 10 + len(talk)
    assert got[:word].count("end") == 1  # the talk, cut at 6 s
    assert got.index("start", word - 3) < word + 3
    assert got.index("end", word) == word + 15 + 9


def test_a_word_over_a_steady_noise_is_the_players_over_talk_it_is_the_talks():
    """A fan or a hum, whose level hardly swings, is no one's talk: a short word 10 dB over it
    is a player's (it was left as "no louder than the talk around it", at a table with pink
    noise 10 dB down). Over talk as loud at its median, words and gaps, the same is the
    talk's."""
    word = [3300] * 6 + [1000] * 12
    steady = list(np.random.default_rng(1).uniform(900, 1100, 200))
    ep = Endpointer()
    got = events(ep, steady + word)
    assert got.count("start") == got.count("end") == 1 and not ep.talking and not ep.distant
    ep = Endpointer()
    got = events(ep, [1000, 1000, 1000, 0] * 80 + word)
    assert got.count("start") == got.count("end") == 1 and ep.talking and ep.distant


def test_a_soft_word_6_db_over_a_steady_noise_starts_an_utterance():
    """A soft word (Festival's "yes": its loud sounds about twice a fan's level) starts an
    utterance over a steady noise: at a table with pink noise 10 dB down it was never heard
    (said eight times); the noise alone starts nothing."""
    steady = list(np.random.default_rng(1).uniform(900, 1100, 200))
    word = [2200] * 5 + [1000] * 14
    ep = Endpointer()
    ep.focusing = True  # as the ears listen but over the narration
    got = events(ep, steady + word)
    assert got.count("start") == got.count("end") == 1 and got.index("start") >= len(steady)


def test_a_word_the_denoiser_hears_over_a_steady_noise_starts_though_hardly_louder():
    """Festival's "next" 10 dB over pink noise (said four times at a question, never heard)
    rose to twice the noise for two frames only; with the noise taken out (``voiced``, RNNoise)
    it stood at 0.7-3.4 times the noise's level for 200 ms. That starts an utterance; the noise
    taken out (a sixth of its level) starts nothing, nor does the rule over the narration, nor
    the narrator's last sound as it stops (its echo, in the noise's level once suppressed, but
    a voice to the denoiser: heard "yeah" at a read-back, and taken for the player's yes)."""
    steady = list(np.random.default_rng(1).uniform(900, 1100, 200))
    word = [2200, 4700, 1300, 1900, 1900, 2000, 1500] + [1000] * 14
    cleaned = [170] * len(steady) + [700, 3000, 1400, 1500, 1200, 900, 400] + [150] * 14
    echo = [1300, 1100, 1050, 1200, 1000] + [1000] * 14

    def heard(focusing: bool, levels: list[float], voiced: list[float] | None) -> list[str]:
        ep = Endpointer()
        ep.focusing = focusing
        return [ep.push(frame(level), None, None if voiced is None else frame(voiced[i]))[0]
                for i, level in enumerate(steady + levels)]

    got = heard(True, word, cleaned)
    assert got.count("start") == got.count("end") == 1 and got.index("start") >= len(steady)
    assert "start" not in heard(True, word, None)
    assert "start" not in heard(False, word, cleaned)  # over the narration: the usual bar
    assert "start" not in heard(True, echo, cleaned)


def test_a_words_weaker_sounds_over_a_steady_noise_are_part_of_it():
    """Over a steady noise a word's weaker sounds (here 4.6 dB over the noise) go on with it:
    the utterance ends 300 ms after them, not after its loud part (then Whisper heard half a
    word: "heads" as "Yeah."). Over the narration (not ``focusing``) the usual bar holds."""
    steady = list(np.random.default_rng(1).uniform(900, 1100, 200))
    word = [3300] * 4 + [1700] * 8 + [1000] * 14
    ends = []
    for focusing in (True, False):
        ep = Endpointer()
        ep.focusing = focusing
        got = events(ep, steady + word)
        ends.append(got.index("end", 200) - got.index("start", 200))
    assert ends == [19, 11]


def test_a_yes_said_as_a_read_back_ends_over_a_steady_noise_is_judged_against_the_room():
    """Over the narration the echo suppressor takes a steady noise down with the narrator's
    voice, and the floor falls with it; at the question the noise is back. A soft "yes"
    (Festival's, pink noise 10 dB down: these are its levels, a read-back and the "yes" 0.7 s
    after it) was judged against that: a room that swung as talk does and a floor still
    climbing, and never started (said twice). The room heard at the last question, a steady
    noise, is the bar at this one."""
    steady = list(np.random.default_rng(1).uniform(1000, 1150, 150))
    read_back = [404, 158, 159, 162, 188, 165, 168, 158, 162, 179, 382, 551, 377, 295, 294, 314,
                 565, 702, 783, 857, 950, 1013, 1260, 479, 333, 216, 160, 184, 165, 174, 189,
                 390, 778, 1071, 1107, 988, 1094, 1037]
    then = [958, 928, 963, 1048, 1109, 1052, 1179, 1124, 980, 1260, 975, 1071, 1109, 1020, 1152,
            1031, 1375]
    yes = [1800, 2708, 3062, 2518, 3007, 3500, 4035, 6105, 2449]
    ep = Endpointer()
    ep.focusing = True  # the question before
    assert "start" not in events(ep, steady)
    ep.focusing = False  # the read-back
    assert "start" not in events(ep, read_back)
    ep.focusing = True
    got = events(ep, then + yes + steady[:20])
    assert got.count("start") == got.count("end") == 1 and got.index("start") >= len(then)
    assert not ep.talking


def test_the_answers_said_at_questions_do_not_make_a_steady_room_swing_as_talk():
    """An utterance's first loud frames are its own, not the room's: at questions over pink
    noise 10 dB down the answers' first sounds filled a tenth of the room's 4 s, and it swung
    as talk does (the steady bars off, the words' weaker sounds cut away)."""
    ep = Endpointer()
    ep.focusing = True
    noise = list(np.random.default_rng(2).uniform(1000, 1150, 400))
    answers = []
    for i in range(8):  # an answer, then a little of the room, again and again
        answers += [3500] * 8 + noise[i * 20:(i + 1) * 20]
    got = events(ep, noise[:150] + answers)
    assert got.count("start") == got.count("end") == 8 and not ep.talking


def test_the_talk_around_a_word_is_handed_on_as_silence():
    """Where others talk on, the recogniser gets the player's word and 150 ms either side of
    it; the rest of the utterance, their talk, is silence (Whisper writes what talk it is
    given). Over the narration (not ``focusing``) the audio goes on as heard."""
    talk = [1500, 1500, 1500, 0] * 80
    frames = [frame(level) for level in [50] * 10 + talk + [8000] * 15 + talk]
    word = 10 + len(talk)
    for focusing in (True, False):
        ep = Endpointer()
        ep.focusing = focusing
        pushed = [ep.push(f) for f in frames]
        start = next(i for i in range(word, len(pushed)) if pushed[i][0] == "start")
        end = next(i for i in range(start, len(pushed)) if pushed[i][0] == "end")
        audio = pushed[start][1] + b"".join(a for _, a in pushed[start + 1:end + 1])
        first = start + 1 - ep.preroll_frames
        kept = [f if not focusing or word - 5 <= first + i < word + 15 + 5
                else bytes(len(f))
                for i, f in enumerate(frames[first:end + 1])]
        assert audio == b"".join(kept)


def test_what_is_heard_while_the_narrator_reads_is_not_the_rooms_level():
    """Without an echo canceller the narrator's own voice fills the microphone while it reads:
    that is not the room, or a player's answer just after it would be taken for far talk."""
    ep = Endpointer()
    events(ep, [50] * 40)
    ep.hearing_room = False
    events(ep, [300] * 250 + [50] * 20)  # (cut at 6 s: a sound that long)
    ep.hearing_room = True
    got = events(ep, [400] * 10 + [50] * 12)
    assert got.count("start") == got.count("end") == 1 and not ep.distant


def test_an_endless_utterance_is_cut_at_six_seconds():
    ep = Endpointer()
    got = events(ep, [50] * 20 + [3000, 3000, 3000, 600] * 100)  # syllables, never a pause
    assert got.count("end") >= 1 and got.index("end") - got.index("start") < ep.max_frames


def test_a_phrase_that_cannot_go_on_ends_after_180ms_of_quiet_others_after_300ms():
    ep = Endpointer(complete=lambda: True)
    got = events(ep, [50] * 20 + [3000] * 10 + [50] * 12)
    assert got.index("end") == 20 + 10 + 5      # the sixth quiet frame (180 ms) ends it
    ep = Endpointer(complete=lambda: False)
    got = events(ep, [50] * 20 + [3000] * 10 + [50] * 12)
    assert got.index("end") == 20 + 10 + 9


def test_a_short_quiet_is_a_pause_and_the_next_sound_resumes_the_utterance():
    """120 ms of quiet inside an utterance are a pause (a recogniser may decode ahead); a
    loud frame after it resumes the same utterance, which then ends as usual."""
    ep = Endpointer()
    got = events(ep, [50] * 20 + [3000] * 10 + [50] * 6 + [3000] * 5 + [50] * 12)
    assert got.index("pause") == 20 + 10 + 3   # the fourth quiet frame
    assert got.index("resume") == 20 + 10 + 6  # the first loud frame after it
    assert got.count("start") == got.count("end") == 1 and got.count("pause") == 2
    assert got.index("end") == 20 + 10 + 6 + 5 + 9


def test_speech_is_judged_by_the_gate_and_the_frames_are_handed_on_as_heard():
    """Over the narration the endpointer judges by AEC3's suppressed output (``Mic.gate``):
    the narrator's faint residue in what the recogniser hears starts nothing, a player's
    voice at the gate does, and the audio handed on is what the recogniser hears."""
    ep = Endpointer()
    residue = [frame(900) for _ in range(40)]
    assert {ep.push(heard, frame(40))[0] for heard in residue} == {"silence"}
    said = [frame(3000) for _ in range(3)]
    got = [ep.push(heard, frame(2000)) for heard in said]
    assert got[-1][0] == "start"
    assert got[-1][1].endswith(b"".join(said)) and got[-1][1].startswith(b"".join(residue[-7:]))


def test_a_word_the_suppressor_takes_whole_still_starts_an_utterance():
    """AEC3's suppressor can take a soft voice whole (its gate stays as quiet as over the
    narration alone): a word that loud in what the recogniser hears still starts one, and the
    narrator's residue there does not."""
    ep = Endpointer()
    assert {ep.push(frame(900), frame(40))[0] for _ in range(40)} == {"silence"}
    got = [ep.push(frame(6000), frame(40))[0] for _ in range(3)]
    assert got == ["silence", "silence", "start"]


def test_while_spelling_a_pause_between_letters_does_not_end_the_utterance():
    letters = ([3000] * 8 + [50] * 20) * 6  # 6 letters, 600 ms apart: 5 s
    said = events(Endpointer(), [50] * 20 + letters + [50] * 40)
    ep = Endpointer()
    ep.spelling = True
    spelled = events(ep, [50] * 20 + letters + [50] * 40)
    assert said.count("end") == 6  # each letter its own utterance
    last_letter = 20 + len(letters) - 20 - 1
    assert spelled.count("end") == 1
    assert spelled.index("end") == last_letter + ep.letter_end_frames  # a second after it


def test_while_spelling_ten_seconds_without_a_pause_cut_the_utterance():
    ep = Endpointer()
    ep.spelling = True
    got = events(ep, [50] * 20 + [3000] * 400)
    # (the pre-roll counts: the utterance holds it)
    assert got.index("end") - got.index("start") == ep.letter_max_frames - ep.preroll_frames
    assert ep.cut  # and the letters go on: the floor is not raised to them
    assert "start" in got[got.index("end") + 1:]


def test_while_spelling_past_six_seconds_a_pause_between_letters_parts_the_utterance():
    """Whisper loops on letters cut off at the end of its 10 s window: a long spelling is
    parted between letters instead, and the ears join the parts."""
    ep = Endpointer()
    ep.spelling = True
    got, cut = [], []
    for level in [50] * 20 + ([3000] * 8 + [50] * 20) * 12 + [50] * 40:  # 12 letters: 10 s
        got.append(ep.push(frame(level))[0])
        if got[-1] == "end":
            cut.append(ep.cut)
    first = got.index("end") - got.index("start") + ep.preroll_frames
    assert ep.letter_part_frames <= first < ep.letter_part_frames + 28
    assert cut == [True, False]  # parted, then ended by a second of quiet
