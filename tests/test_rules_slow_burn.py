"""Slow Burn's rules, one test per rule, named by the track of the script that states it."""

from __future__ import annotations

import random
import re

import pytest

from narrator.events import Continue, Dice, Line, Number, ReadTrack, Successes, Text, Word
from narrator.rules.base import (AcceptContinue, AcceptDice, AcceptNumber, AcceptSuccesses,
                                 AcceptText, AcceptWords)
from narrator.rules.slow_burn import INFO
from narrator.script.loader import find_script, load_script
from narrator.script.graph import to_dot
from narrator.script.render import render
from narrator.understand import understand
from test_conformance import random_input

RULES = INFO.rules
SCRIPT = load_script(find_script(RULES.script))
NAMES = ("Ash", "Blue", "Cato", "Dee", "Eve")

#: how the autopilot answers each question unless a test says otherwise
DEFAULT = {
    "ask.push": Word("nobody"), "ask.push_more": Word("done"),
    "ask.still_ignoring": Word("respond"), "ask.resources": Number(1),
    "ask.persistent_roll": Word("no interference"), "ask.handler_roll": Word("no interference"),
    "ask.implicate_roll": Dice((12,)), "ask.respond": Word("respond"),
    "ask.opposition_roll": Successes(0), "ask.mini_resources": Number(1),
    "ask.mini_opposition": Successes(0), "ask.ready": Continue(), "ask.another": Word("yes"),
    "ask.opening": Continue(), "ask.narrate": Continue(),
}


def asked(state) -> Line:
    return RULES.expects(state).prompt


def question(state) -> str:
    """The question's key; the Opposition roll that also offers the Fleur-de-Lis counts as
    the Opposition roll."""
    return asked(state).key.removesuffix("_fleur")


def give(state, given):
    """Apply an input that must be accepted; returns the step."""
    step = RULES.apply(state, given)
    assert step.rejected is None, f"{given} refused at {asked(state)}: {step.rejected}"
    return step


def refused(state, given) -> str:
    """Apply an input that must be refused without a change; returns the reason's key."""
    step = RULES.apply(state, given)
    assert step.rejected is not None, f"{given} was accepted at {asked(state)}"
    assert step.state == state
    return step.rejected.key


def keys(said) -> list[str]:
    return [s.track if isinstance(s, ReadTrack) else s.key for s in said]


def autopilot(state, key: str) -> Line:
    """The answer the autopilot gives now: all successes for the spies, none for the
    Opposition, so a Job goes quickly."""
    if question(state) in DEFAULT:
        return DEFAULT[question(state)]
    spec = RULES.expects(state).find(AcceptSuccesses)
    assert spec is not None, f"the autopilot cannot answer {asked(state)}"
    return Successes(spec.max)


def drive(state, until: str, answers: dict | None = None, said: list | None = None):
    """Answer questions until the one keyed ``until`` is asked; ``said`` collects what is said."""
    answers = answers or {}
    for _ in range(2000):
        if question(state) == until:
            return state
        given = answers.get(question(state)) or autopilot(state, question(state))
        step = give(state, given)
        if said is not None:
            said.extend(step.say)
        state = step.state
    raise AssertionError(f"never asked {until}")


def begin(spies=3, paths=None, persistent=None, tokens=2, **options):
    """A new episode set up for ``spies`` spies; returns the first state of segment 1."""
    state = RULES.start(options).state
    state = give(state, Word("new episode")).state
    state = give(state, Number(spies)).state
    for i in range(spies):
        for given in (Text(NAMES[i]), Text("speciality"), Text("contact one"),
                      Text("contact two"), Number(paths[i] if paths else 1),
                      Number(persistent[i] if persistent else 0)):
            state = give(state, given).state
    if options.get("fleur", "carry") == "carry":
        state = give(state, Number(tokens)).state
    return state


def not_offered(state, name: str) -> bool:
    """``name`` is not among the answers offered now, and is refused if said anyway."""
    words = RULES.expects(state).find(AcceptWords).words
    return name not in words and refused(state, Word(name)) == "reject.word"


def spy(state, name):
    return next(s for s in state.spies if s.name == name)


# --------------------------------------------------------------------------- setup, Tracks 1-6


def test_track01_first_session_reads_tracks_2_to_6_then_the_job():
    start = RULES.start({})
    assert keys(start.say) == ["t01"] and asked(start.state).key == "ask.session"
    said = list(give(start.state, Word("first session")).say)
    state = give(start.state, Word("first session")).state
    state = give(state, Number(2)).state
    for i in range(2):
        for given in (Text(NAMES[i]), Text("forgery"), Text("Kim"), Text("Sal")):
            step = give(state, given)
            said += step.say
            state = step.state
    while asked(state).key == "ask.ready":
        step = give(state, Continue())
        said += step.say
        state = step.state
    tracks = [s.track for s in said if isinstance(s, ReadTrack)]
    assert tracks == ["t02", "t03", "t04", "t05", "t06", "t07", "t08"]


def test_track01_new_episode_goes_straight_to_track_7_and_asks_where_spies_stand():
    state = give(RULES.start({}).state, Word("new episode")).state
    state = give(state, Number(2)).state
    said = []
    for i in range(2):
        for given in (Text(NAMES[i]), Text("forgery"), Text("Kim"), Text("Sal")):
            state = give(state, given).state
        assert asked(state).key == "ask.path"
        state = give(state, Number(7 - i)).state
        state = give(state, Number(2)).state
    assert asked(state).key == "ask.fleur_left"
    said = give(state, Number(1)).say
    assert [s.track for s in said if isinstance(s, ReadTrack)] == ["t07", "t08"]
    state = give(state, Number(1)).state
    assert [(s.path, s.persistent) for s in state.spies] == [(7, 2), (6, 2)]
    assert state.fleur == 1


def test_track01_needs_at_least_two_spies_besides_the_handler():
    state = give(RULES.start({}).state, Word("first session")).state
    assert refused(state, Number(1)) == "reject.number"


def test_track02_every_spy_has_a_speciality_two_contacts_and_a_name_of_their_own():
    state = give(RULES.start({}).state, Word("first session")).state
    state = give(state, Number(2)).state
    state = give(state, Text("The Fox")).state
    assert asked(state) == Line("ask.speciality", {"spy": "The Fox"})
    for given in (Text("forgery"), Text("Kim, a hacker"), Text("Sal, a fence")):
        state = give(state, given).state
    assert refused(state, Text("fox")) == "reject.name_taken"
    assert refused(state, Text("help")) == "reject.name_unclear"
    assert state.spies[0].contacts == ("Kim, a hacker", "Sal, a fence")
    assert state.spies[0].resources == 3


def test_track02_the_recogniser_is_told_the_specialities_track_2_reads_out():
    """"such as Gadget Tech, Demolitions, Forgery": a table told them says them, and Whisper
    spells them so only when told (at the speciality and contact questions, not the name)."""
    state = give(give(RULES.start({}).state, Word("first session")).state, Number(2)).state
    told = {}
    for given in (Text("The Fox"), Text("forgery"), Text("Kim, a hacker")):
        expected = RULES.expects(state)
        told[expected.prompt.key] = expected.find(AcceptText).names
        state = give(state, given).state
    assert told["ask.name"] == ()
    assert told["ask.speciality"] == told["ask.contact"] == ("Gadget Tech", "Demolitions",
                                                            "Forgery")
    track2 = " ".join(SCRIPT.track_number(2).lines)
    assert all(f"“{name}”" in track2 for name in told["ask.speciality"])


def test_track02_track04_each_new_spy_has_one_persistent_die_on_space_one():
    state = drive(give(RULES.start({}).state, Word("first session")).state, "ask.spy_count")
    state = give(state, Number(2)).state
    for i in range(2):
        for given in (Text(NAMES[i]), Text("forgery"), Text("Kim"), Text("Sal")):
            state = give(state, given).state
    assert [(s.path, s.persistent) for s in state.spies] == [(1, 1), (1, 1)]


def test_track03_the_handler_starts_with_two_fleur_de_lis_tokens():
    assert RULES.start({}).state.fleur == 2


# --------------------------------------------------------------------------- the Job, Tracks 7-13


def test_track08_a_segment_starts_with_twice_as_many_opposition_dice_as_spies():
    assert begin(spies=3).opposition == 6
    assert begin(spies=2).opposition == 4


def test_track08_option_players_with_handler_counts_the_handler_too():
    assert begin(spies=3, players="with_handler").opposition == 8


def test_track09_each_resource_beyond_the_first_gives_the_handler_an_agency_die():
    state = drive(begin(spies=2), "ask.resources")
    state = give(state, Number(3)).state
    assert state.agency == 2
    state = give(state, Number(1)).state
    assert state.agency == 2 and state.scene.dice == (3, 1)


def test_track09_resources_are_the_speciality_and_the_contacts():
    state = drive(begin(spies=2), "ask.resources")
    assert RULES.expects(state).find(AcceptNumber) == AcceptNumber(0, 3)
    assert refused(state, Number(4)) == "reject.number"


def test_track09_agency_dice_from_resources_last_until_the_segment_ends():
    state = drive(begin(spies=2), "ask.resources")
    state = give(state, Number(3)).state
    state = drive(state, "ask.handler_roll")
    state = drive(state, "ask.resources", {"ask.handler_roll": Dice((3, 4)),
                                           "ask.job_roll": Successes(0)})
    assert state.scene.number == 2 and state.agency == 2
    state = drive(state, "ask.push")
    assert state.segment == 2 and state.agency == 0


def test_track09_track13_the_game_waits_for_next_while_the_table_plays_the_scene():
    state = drive(begin(spies=2), "ask.resources")
    step = give(give(state, Number(1)).state, Number(2))
    assert asked(step.state) == Line("ask.opening") and "t10" not in keys(step.say)
    assert RULES.expects(step.state).accepts == (AcceptContinue(),)
    assert keys(give(step.state, Continue()).say)[0] == "t10"
    state = drive(step.state, "ask.job_roll")
    state = give(give(state, Successes(1)).state, Successes(0)).state
    assert asked(state) == Line("ask.narrate")
    step = give(state, Continue())
    assert keys(step.say)[0] == "said.scene"  # the next scene only after "next"


def test_track12_job_dice_succeed_at_segment_plus_one():
    state = drive(begin(spies=2), "ask.job_roll", {"ask.resources": Number(3)})
    assert asked(state).params["target"] == 2
    step = give(state, Dice((1, 2, 3)))
    assert step.state.scene.successes == 2


def test_track12_opposition_dice_succeed_at_five_or_under():
    state = drive(begin(spies=2), "ask.opposition_roll")
    step = give(state, Dice((1, 5, 6, 12)))
    assert step.state.scene.against == 2
    assert Line("said.opposition_successes", {"successes": 2}) in step.say


def test_track12_impossible_rolls_are_refused_and_change_nothing():
    state = drive(begin(spies=2), "ask.opposition_roll")
    assert refused(state, Dice((13, 1, 1, 1))) == "reject.face"
    assert refused(state, Dice((1, 1))) == "reject.dice_count"
    assert refused(state, Successes(5)) == "reject.successes"
    assert refused(state, Number(3)) == "reject.not_now"


def test_track12_faces_given_are_read_back_but_the_apps_roll_is_not_said_twice():
    state = drive(begin(spies=2), "ask.opposition_roll")
    assert Line("roll.faces", {"faces": [1, 7, 9, 12]}) in give(state, Dice((1, 7, 9, 12))).say
    step = give(state, Dice((1, 7, 9, 12), by_app=True))
    assert not [s for s in step.say if getattr(s, "key", "").startswith("roll.faces")]


def test_track13_more_successes_decides_the_scene():
    state = drive(begin(spies=2), "ask.opposition_roll")
    won = give(drive(give(state, Successes(1)).state, "ask.job_roll"), Successes(1))
    won = give(won.state, Successes(1))
    assert Line("said.favourable") in won.say
    lost = give(drive(give(state, Successes(3)).state, "ask.job_roll"), Successes(0))
    lost = give(lost.state, Successes(1))
    assert Line("said.unfavourable") in lost.say


@pytest.mark.parametrize("tie", ["unfavourable", "favourable", "mixed"])
def test_track13_a_tie_says_it_is_a_tie_and_goes_the_way_the_table_chose(tie):
    state = drive(begin(spies=2, tie=tie), "ask.opposition_roll")
    state = give(state, Successes(1)).state
    state = give(state, Successes(1)).state
    said = give(state, Successes(0)).say
    assert Line(f"said.tie_{tie}") in said
    text = render(SCRIPT, Line(f"said.tie_{tie}"))[0].text
    assert "tie" in text.lower() and "tie option" in text


def test_track13_discard_as_many_opposition_dice_as_the_spies_successes():
    state = drive(begin(spies=2), "ask.job_roll", {"ask.resources": Number(2)})
    state = give(state, Successes(2)).state
    step = give(state, Successes(1))
    assert step.state.opposition == 1
    assert Line("said.discard", {"left": 1}) in step.say
    assert asked(step.state).key == "ask.narrate"
    assert "said.scene" in keys(give(step.state, Continue()).say)  # dice remain: a new scene


def test_track13_a_depleted_segment_starts_the_next_one():
    state = drive(begin(spies=2), "ask.job_roll", {"ask.resources": Number(2)})
    state = give(state, Successes(2)).state
    step = give(state, Successes(2))
    said = keys(step.say)
    assert said[said.index("t13"):] == [
        "t13", "said.favourable", "said.discard", "said.segment_over"]
    step = give(step.state, Continue())
    assert step.state.segment == 2 and step.state.opposition == 4
    assert keys(step.say)[0] == "t08"


def test_track13_after_the_seventh_segment_comes_track_18():
    said = []
    state = drive(begin(spies=2), "ask.another", said=said)
    assert state.segment == 7
    assert keys(said).count("said.segment") == 6  # segments 2 to 7; begin() started the first
    said = keys(said)
    assert said[said.index("t18") - 1] == "said.segment_over" and said.count("t18") == 1


# --------------------------------------------------------------------------- the Agency, 11, 14, 15


def test_track11_an_agency_die_on_1_or_2_interferes():
    state = drive(begin(spies=2, persistent=(2, 0)), "ask.persistent_roll")
    quiet = give(state, Dice((3, 12)))
    assert "t14" not in keys(quiet.say) and question(quiet.state) == "ask.opposition_roll"
    loud = give(state, Dice((3, 2)))
    assert loud.state.scene.triggered == (0,)


def test_track11_the_table_may_say_no_interference_instead_of_faces():
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll")
    assert give(state, Word("no interference")).state.scene.triggered == ()
    assert give(state, Word("interference")).state.scene.triggered == (0,)


def test_track11_the_fleur_de_lis_is_a_command_the_handler_says_not_a_question_each_scene():
    state = drive(begin(spies=2), "ask.resources")
    state = give(give(give(state, Number(1)).state, Number(1)).state, Continue()).state
    assert asked(state).key == "ask.opposition_roll_fleur"  # no "will you spend" question
    heard = understand("I spend a fleur-de-lis", RULES.expects(state))
    assert heard == Word("fleur de lis")
    step = give(state, heard)
    assert step.state.fleur == 1 and "t14" in keys(step.say)
    assert Line("said.fleur_spent", {"left": 1}) in step.say
    token = give(state, understand("spend a token", RULES.expects(state)))  # said by voice
    assert token.state.fleur == 1 and token.say == step.say
    assert asked(step.state) == Line("ask.implicate_roll", {"spy": "Ash"})


@pytest.mark.parametrize("moment", ["ask.persistent_roll", "ask.handler_roll"])
def test_track11_the_fleur_de_lis_may_be_spent_while_the_agency_dice_are_rolled(moment):
    state = drive(begin(spies=2, persistent=(1, 0)), moment, {"ask.resources": Number(2)})
    step = give(state, Word("fleur de lis"))
    assert step.state.fleur == 1 and step.state.scene.handler
    assert asked(step.state).key == moment  # the dice are still rolled: own dice implicate too


def test_track11_the_fleur_de_lis_is_refused_once_the_agency_has_interfered_or_none_is_left():
    state = drive(begin(spies=2, tokens=0), "ask.opposition_roll")
    assert refused(state, Word("fleur de lis")) == "reject.not_now"
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll")
    state = drive(give(state, Dice((1,))).state, "ask.opposition_roll")
    assert refused(state, Word("fleur de lis")) == "reject.not_now"
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll")
    state = give(state, Dice((1,))).state
    state = drive(give(state, Word("respond")).state, "ask.mini_opposition")
    assert refused(state, Word("fleur de lis")) == "reject.not_now"


def test_track14_own_persistent_dice_implicate_only_that_spy_and_leave_play():
    state = drive(begin(spies=2, persistent=(2, 0)), "ask.persistent_roll")
    state = give(state, Dice((1, 9))).state
    assert spy(state, "Ash").persistent == 0
    assert asked(state) == Line("ask.respond", {"spy": "Ash"})
    assert state.scene.implicated == (0,)


def test_track14_the_handlers_dice_implicate_each_spy_who_rolls_five_or_under():
    state = drive(begin(spies=3), "ask.handler_roll", {"ask.resources": Number(2)})
    state = give(state, Dice((9, 2, 7))).state
    assert state.agency == 0
    state = give(state, Dice((5,))).state
    state = give(state, Dice((6,))).state
    state = give(state, Dice((1,))).state
    assert state.scene.implicated == (0, 2)


def test_track14_a_spy_whose_own_dice_and_the_handlers_both_interfere_rolls_nothing():
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll",
                  {"ask.resources": Number(2)})
    state = give(state, Dice((2,))).state
    state = give(state, Dice((1, 1))).state
    assert asked(state) == Line("ask.implicate_roll", {"spy": "Blue"})
    assert state.scene.implicated == (0,)


def test_track14_implicated_spies_resources_give_no_job_dice():
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll",
                  {"ask.resources": Number(3)})
    state = drive(give(state, Dice((2,))).state, "ask.respond")
    state = give(state, Word("ignore")).state
    assert state.scene.dice == (0, 3)
    assert asked(drive(state, "ask.job_roll")) == Line(
        "ask.job_roll", {"spy": "Blue", "dice": 3, "target": 2})


def test_track14_ignoring_costs_a_resource_one_per_scene_off_the_target_and_two_dice():
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll")
    state = give(state, Dice((2,))).state
    state = give(state, Word("ignore")).state
    ash = spy(state, "Ash")
    assert (ash.ignoring, ash.penalty, ash.persistent, ash.resources) == (True, 1, 2, 2)
    state = drive(state, "ask.still_ignoring")
    state = give(state, Word("ignore")).state
    assert spy(state, "Ash").penalty == 2
    assert asked(state) == Line("ask.resources", {"spy": "Ash", "free": 2})
    state = drive(state, "ask.opposition_roll", {"ask.persistent_roll": Word("no interference")})
    step = give(state, Successes(0))
    assert Line("said.job_hopeless", {"spy": "Ash", "penalty": 2}) in step.say
    assert asked(step.state) == Line("ask.job_roll", {"spy": "Blue", "dice": 1, "target": 2})


def test_track12_job_dice_that_cannot_succeed_are_not_rolled_and_the_table_is_told_why():
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll")
    state = give(give(state, Dice((2,))).state, Word("ignore")).state
    state = drive(state, "ask.still_ignoring")
    state = drive(give(state, Word("ignore")).state, "ask.opposition_roll",
                  {"ask.persistent_roll": Word("no interference")})
    step = give(state, Successes(0))
    assert asked(step.state).params["spy"] == "Blue"
    text = render(SCRIPT, Line("said.job_hopeless", {"spy": "Ash", "penalty": 2}))[0].text
    assert "Ash" in text and "can't succeed" in text


def test_track14_responding_later_gives_the_resource_back_and_plays_the_interference():
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll")
    state = drive(give(state, Dice((2,))).state, "ask.still_ignoring",
                  {"ask.respond": Word("ignore")})
    step = give(state, Word("respond"))
    assert "t15" in keys(step.say) and step.state.mini.members == (0,)
    ash = spy(step.state, "Ash")
    assert (ash.ignoring, ash.penalty, ash.resources) == (False, 0, 3)


def test_track14_option_ignore_penalty_whole_job_keeps_the_penalty_after_answering():
    state = drive(begin(spies=2, persistent=(1, 0), ignore_penalty="whole_job"),
                  "ask.persistent_roll")
    state = drive(give(state, Dice((2,))).state, "ask.still_ignoring",
                  {"ask.respond": Word("ignore")})
    assert spy(state, "Ash").penalty == 1
    assert spy(give(state, Word("respond")).state, "Ash").penalty == 1


def test_track15_the_interference_segment_has_a_die_per_responding_spy():
    state = drive(begin(spies=3), "ask.opposition_roll")
    state = give(state, Word("fleur de lis")).state
    for face in (1, 2, 3):
        state = give(state, Dice((face,))).state
    state = give(state, Word("respond")).state
    state = give(state, Word("ignore")).state
    step = give(state, Word("respond"))
    assert step.state.mini.members == (0, 2) and step.state.mini.opposition == 2
    assert "t15" in keys(step.say)


def test_track15_option_interference_dice_implicated_counts_every_implicated_spy():
    state = drive(begin(spies=3, interference_dice="implicated"), "ask.opposition_roll")
    state = give(state, Word("fleur de lis")).state
    for face in (1, 2, 3):
        state = give(state, Dice((face,))).state
    for word in ("respond", "ignore", "ignore"):
        state = give(state, Word(word)).state
    assert state.mini.opposition == 3


def test_track15_depleting_the_dice_by_the_third_scene_is_favourable_then_the_scene_is_rolled():
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll")
    state = give(state, Dice((1,))).state
    state = give(state, Word("respond")).state
    assert asked(state) == Line("ask.mini_resources", {"spy": "Ash", "free": 3})
    state = give(state, Number(2)).state
    state = give(state, Successes(1)).state
    assert RULES.expects(state).find(AcceptDice) == AcceptDice(12, 2, 2)
    step = give(state, Dice((5, 6)))  # five or under succeeds: one success, one die gone
    assert Line("said.interference_won", {"spies": ["Ash"]}) in step.say
    assert step.state.mini is None and asked(step.state).key == "ask.narrate"
    step = give(step.state, Continue())
    assert keys(step.say) == ["said.back_to_job", "t12"]
    assert asked(step.state).key == "ask.opposition_roll"


def test_track15_three_scenes_without_depleting_the_dice_go_badly():
    state = drive(begin(spies=2, persistent=(1, 0)), "ask.persistent_roll")
    state = give(state, Dice((1,))).state
    step = give(state, Word("respond"))
    said = list(step.say)
    drive(step.state, "ask.opposition_roll", {"ask.mini_resources": Number(0)}, said=said)
    assert keys(said).count("said.mini_scene") == 3
    assert "said.interference_lost" in keys(said)


# --------------------------------------------------------------------------- Tracks 16-19


def test_track16_a_pushing_spys_resources_are_not_asked_for_the_job():
    state = give(begin(spies=2), Word("ash")).state
    state = drive(state, "ask.resources")
    assert asked(state).params["spy"] == "Blue"
    state = give(state, Number(1)).state
    assert asked(state).key != "ask.resources" and state.scene.dice == (0, 1)


def test_track16_at_least_one_spy_stays_on_the_job():
    state = give(begin(spies=2), Word("ash")).state
    assert asked(state) == Line("ask.resources", {"spy": "Blue", "free": 3})
    state = give(begin(spies=3), Word("ash")).state
    assert asked(state) == Line("ask.push_more", {"spies": ["Blue", "Cato"]})
    assert not_offered(state, "ash")
    state = give(state, Word("cato")).state
    assert asked(state) == Line("ask.resources", {"spy": "Blue", "free": 3})


def test_track16_a_spy_is_named_by_voice_to_push():
    state = give(RULES.start({}).state, Word("new episode")).state
    state = give(state, Number(2)).state
    for name in ("The Fox", "Jean-Luc"):
        for given in (Text(name), Text("x"), Text("y"), Text("z"), Number(1), Number(0)):
            state = give(state, given).state
    state = give(state, Number(2)).state
    expectation = RULES.expects(state)
    heard = understand("the fox", expectation)
    assert heard == Word("fox")
    step = give(state, heard)
    assert Line("said.push", {"spy": "The Fox"}) in step.say
    assert understand("no one", expectation) == Word("no one")


def test_track16_a_spy_pushes_once_per_episode():
    said = []
    state = drive(give(begin(spies=3), Word("ash")).state, "ask.push", said=said)
    assert state.segment == 2 and spy(state, "Ash").pushed
    assert not_offered(state, "ash")
    assert "t17" in keys(said)


def test_track17_a_push_has_a_die_per_pusher_and_winning_moves_each_one_space():
    state = give(begin(spies=3, paths=(4, 6, 1)), Word("ash")).state
    state = give(state, Word("blue")).state
    said = []
    state = drive(state, "ask.mini_resources", said=said)
    assert state.mini.kind == "push" and state.mini.opposition == 2
    state = drive(state, "ask.push", said=said)
    assert [s.path for s in state.spies] == [5, 7, 1]
    assert Line("said.advance", {"spy": "Ash", "path": 5}) in said


def test_track17_a_failed_push_makes_no_progress():
    state = give(begin(spies=2, paths=(4, 1)), Word("ash")).state
    state = drive(state, "ask.push", {"ask.mini_opposition": Successes(1),
                                      "ask.mini_resources": Number(0)})
    assert spy(state, "Ash").path == 4 and spy(state, "Ash").pushed


def test_track17_the_final_push_from_space_ten_takes_the_spy_off_the_blacklist():
    state = give(begin(spies=2, paths=(10, 9)), Word("ash")).state
    said = []
    state = drive(state, "ask.push", said=said)
    assert "t19" in keys(said) and spy(state, "Ash").free
    assert not_offered(state, "ash")


def test_track17_option_final_push_onto_ten_frees_a_spy_reaching_space_ten():
    state = give(begin(spies=2, paths=(9, 1), final_push="onto_ten"), Word("ash")).state
    state = drive(state, "ask.push")
    assert spy(state, "Ash").free and spy(state, "Ash").path == 10


def test_track16_a_spy_who_never_pushed_moves_back_a_space_and_gains_a_persistent_die():
    said = []
    state = drive(begin(spies=3, paths=(5, 1, 3), persistent=(0, 0, 2)), "ask.another",
                  said=said)
    assert [(s.path, s.persistent) for s in state.spies] == [(4, 1), (1, 1), (2, 3)]
    assert Line("said.drift", {"spy": "Ash", "path": 4}) in said


def test_track18_another_episode_carries_paths_dice_and_spent_tokens():
    state = drive(begin(spies=2, paths=(5, 5)), "ask.opposition_roll")
    state = drive(give(state, Word("fleur de lis")).state, "ask.another")
    assert state.fleur == 1
    step = give(state, Word("yes"))
    assert keys(step.say)[-3:-1] == ["t07", "t08"]
    state = step.state
    assert state.episode == 2 and state.segment == 1 and state.fleur == 1
    assert [(s.path, s.persistent, s.pushed) for s in state.spies] == [(4, 1, False)] * 2


def test_track18_option_fleur_refresh_gives_the_handler_two_tokens_each_episode():
    state = drive(begin(spies=2, fleur="refresh"), "ask.opposition_roll")
    state = drive(give(state, Word("fleur de lis")).state, "ask.another")
    assert give(state, Word("yes")).state.fleur == 2


def test_track18_no_more_episodes_tonight_keeps_the_campaign_for_the_next_evening():
    state = drive(begin(spies=2, paths=(5, 5)), "ask.another")
    step = give(state, Word("no"))
    assert "said.until_next" in keys(step.say) and not RULES.expects(step.state).over
    assert asked(step.state).key == "ask.next_evening"
    step = give(step.state, Continue())
    assert keys(step.say)[-3:-1] == ["t07", "t08"]
    assert step.state.episode == 2 and [s.name for s in step.state.spies] == ["Ash", "Blue"]
    assert [s.path for s in step.state.spies] == [4, 4]


def test_track19_a_freed_spys_player_makes_a_new_spy_with_tracks_2_3_and_6():
    state = give(begin(spies=2, paths=(10, 1)), Word("ash")).state
    state = drive(state, "ask.another")
    step = give(state, Word("yes"))
    assert keys(step.say)[-1] == "t02"
    state = step.state
    assert asked(state) == Line("ask.name", {"number": 1})
    said = []
    for given in (Text("Dee"), Text("safecracking"), Text("Ray"), Text("Dot")):
        step = give(state, given)
        state, said = step.state, said + list(step.say)
    dee = state.spies[0]
    assert (dee.name, dee.path, dee.persistent, dee.free) == ("Dee", 1, 1, False)
    state = drive(state, "ask.push", said=said)
    read = [k for k in keys(said) if k.startswith("t")]
    assert read == ["t03", "t06", "t07", "t08"]


def test_track19_option_freed_contact_plays_on_with_no_path_and_never_pushes():
    state = give(begin(spies=2, paths=(10, 1), freed="contact"), Word("ash")).state
    state = give(drive(state, "ask.another"), Word("yes")).state
    for given in (Text("Dee"), Text("safecracking"), Text("Ray"), Text("Dot")):
        state = give(state, given).state
    assert state.spies[0].path is None
    state = drive(state, "ask.push")
    assert not_offered(state, "dee")
    state = drive(state, "ask.another")
    assert state.spies[0].path is None  # no drift without a path


def test_track19_option_freed_contact_ends_the_series_when_every_spy_is_free():
    state = give(begin(spies=2, paths=(10, 10), freed="contact"), Word("ash")).state
    state = drive(state, "ask.push")
    said = []
    state = drive(give(state, Word("blue")).state, "ask.over", said=said)
    assert "said.series_over" in keys(said)


# --------------------------------------------------------------------------- status and options


def test_status_says_segment_dice_scene_paths_penalties_agency_dice_and_tokens():
    state = drive(begin(spies=2, paths=(3, 7), persistent=(1, 0)), "ask.persistent_roll",
                  {"ask.resources": Number(2)})
    state = drive(give(state, Dice((1,))).state, "ask.respond")
    state = give(state, Word("ignore")).state
    lines = RULES.status(state)
    assert lines[0] == Line("status.job", {"episode": 1, "segment": 1, "dice": 4, "scene": 1})
    assert Line("status.spy", {"spy": "Ash", "path": 3, "persistent": 2, "penalty": 1}) in lines
    assert "status.penalty" in keys(lines) and "status.ignoring" in keys(lines)
    assert Line("status.handler", {"agency": 2, "fleur": 2}) in lines


def test_options_are_named_and_checked():
    assert set(RULES.options) == {"players", "tie", "interference_dice", "ignore_penalty",
                                  "final_push", "fleur", "freed", "reread"}
    with pytest.raises(ValueError, match="no option"):
        RULES.start({"colour": "red"})
    with pytest.raises(ValueError, match="tie"):
        RULES.start({"tie": "coin"})


def test_option_reread_first_reads_each_track_once_per_episode():
    said = []
    drive(begin(spies=2, reread="first"), "ask.another", said=said)
    assert keys(said).count("t09") == 1 and keys(said).count("said.scene") > 1


def test_option_reread_by_default_reads_a_track_in_full_once_then_a_reminder_or_nothing():
    said = []
    drive(begin(spies=2, persistent=(3, 0)), "ask.another",
          {"ask.persistent_roll": Word("interference"), "ask.respond": Word("ignore")},
          said=said)
    full = [s.track for s in said if isinstance(s, ReadTrack) and not s.brief]
    assert all(full.count(t) == 1 for t in full) and {"t09", "t14", "t15"} <= set(full)
    reminders = [s for s in said if isinstance(s, ReadTrack) and s.brief]
    assert [s.track for s in reminders].count("t08") == 6  # segments 2 to 7
    assert {s.track for s in reminders} >= {"t14", "t15"}
    assert not {s.track for s in reminders} & {"t09", "t10", "t11", "t12", "t13"}
    for reminder in set(reminders):
        short, whole = render(SCRIPT, reminder), render(SCRIPT, ReadTrack(reminder.track))
        assert len(short) == 1 and short[0].track == reminder.track
        assert len(short[0].text) * 3 < sum(len(s.text) for s in whole)


def test_each_sentence_in_full_the_first_time_an_episode_then_short():
    state = drive(begin(spies=2), "ask.resources")
    assert not asked(state).brief  # Ash's, the first time
    ash = give(state, Number(1))
    assert keys(ash.say) == ["said.resources"] and not ash.say[0].brief
    assert asked(ash.state) == Line("ask.resources", {"spy": "Blue", "free": 3})
    assert asked(ash.state).brief  # Blue's: heard once already this episode
    blue = give(ash.state, Number(1))
    assert keys(blue.say) == ["said.resources"] and blue.say[0].brief
    state = drive(blue.state, "ask.another")
    state = drive(give(state, Word("yes")).state, "ask.resources")
    assert state.episode == 2 and not asked(state).brief  # a new episode hears it in full


def test_option_reread_always_reads_every_track_in_full_every_time():
    said = []
    drive(begin(spies=2, reread="always"), "ask.another", said=said)
    assert not [s for s in said if isinstance(s, ReadTrack) and s.brief]
    assert keys(said).count("t09") == keys(said).count("said.scene")


# --------------------------------------------------------------------------- the script's links

#: answers a table gives more often than not, so random campaigns run through several episodes
USUAL = {"ask.another": Word("yes"), "ask.respond": Word("respond"),
         "ask.still_ignoring": Word("respond")}


def played_routes(seed: int, options: dict) -> set[tuple[str, str]]:
    """Every move from one track read (in full or as its reminder) to the next, in a random
    campaign of a few episodes."""
    rng, first = random.Random(seed), RULES.start(options)
    state, read = first.state, [s.track for s in first.say if isinstance(s, ReadTrack)]
    for _ in range(3000):
        expectation = RULES.expects(state)
        if expectation.over or state.episode > 3:
            break
        usual = USUAL.get(expectation.prompt.key)
        given = usual if usual and rng.random() < .8 else random_input(
            rng.choice(expectation.accepts), rng)
        state_before, step = state, RULES.apply(state, given)
        state = step.state if step.rejected is None else state_before
        read += [s.track for s in step.say if isinstance(s, ReadTrack)]
    return set(zip(read, read[1:]))


@pytest.mark.parametrize("options", [{}, {"freed": "contact", "final_push": "onto_ten"}])
def test_every_route_a_random_table_plays_is_an_edge_of_narrator_graph(options):
    options = {**options, "reread": "always"}  # every track the rules go through is heard
    script = load_script(find_script(RULES.script))
    edges = set(re.findall(r'"(t\d+)" -> "(t\d+)"', to_dot(script)))
    played = set().union(*(played_routes(seed, options) for seed in range(12)))
    assert played - edges == set(), "routes played that narrator graph does not show"


def test_a_typical_scene_takes_eight_answers_and_two_nexts():
    """Three spies, one resource each, one persistent Agency die, no interference: each
    resource, the persistent roll, the Opposition roll and each Job roll; "next" for the
    opening and the end. (Before issue 15: nine answers, one of them the Fleur-de-Lis.)"""
    state = drive(begin(spies=3, persistent=(1, 0, 0)), "ask.resources")
    answers, nexts = 0, 0
    while True:
        given = autopilot(state, question(state))
        state = give(state, given).state
        nexts += isinstance(given, Continue)
        answers += not isinstance(given, Continue)
        if state.scene.number == 2 and question(state) == "ask.resources":
            break
    assert (answers, nexts) == (8, 2)
