"""Blades in the Dark rules, each test named after the SRD section it checks.

Everything goes through the public interface: utterances are understood against ``expects()``
(the same layer the session uses), applied with ``apply()``, and sheets are read from
``status()``.
"""

import pytest
from hypothesis import given, settings, strategies as st

from narrator.events import GAME_INPUTS, Dice, Line, Number, Word
from narrator.rules.base import AcceptDice
from narrator.rules.blades import INFO
from narrator.understand import understand

RULES = INFO.rules


# --------------------------------------------------------------------------- helpers


def say(state, text):
    """The Step one utterance leads to."""
    meaning = understand(text, RULES.expects(state))
    assert isinstance(meaning, GAME_INPUTS), f"{text!r} was not a game input: {meaning}"
    return RULES.apply(state, meaning)


def play(state, *texts):
    """Apply each utterance (each must be accepted); the final state and every Line said."""
    said = []
    for text in texts:
        step = say(state, text)
        assert step.rejected is None, f"{text!r} refused: {step.rejected} at {RULES.expects(state)}"
        said += step.say
        state = step.state
    return state, said


def refused(state, text_or_input):
    """The refusal's key; the state must be unchanged."""
    step = (say(state, text_or_input) if isinstance(text_or_input, str)
            else RULES.apply(state, text_or_input))
    assert step.rejected is not None, f"{text_or_input!r} was accepted"
    assert step.state == state
    return step.rejected.key


def keys(lines):
    return [line.key for line in lines]


def crew(*names, **options):
    state = RULES.start({**RULES.options, **options}).state
    state, _ = play(state, str(len(names)), *names)
    return state


def sheet(state, name):
    return next(l.params for l in RULES.status(state)
                if l.key == "status.character" and l.params["name"] == name)


def prompt(state):
    return RULES.expects(state).prompt


def action_until_dice(state, rating="two", position="next", effect="next", bonus="neither"):
    """A one-scoundrel crew's action roll, up to the dice question."""
    state, _ = play(state, "action", "pick the lock", "tinker", rating, position, effect, "next",
                    bonus)
    return state


# --------------------------------------------------------------------------- Rolling the Dice


def judged(faces, rating):
    """Roll an action at ``rating`` (no bonus dice) with ``faces``; the outcome key."""
    state = crew("Cross")
    state = action_until_dice(state, rating=str(rating))
    state, said = play(state, " ".join(str(f) for f in faces))
    return next(k for k in keys(said) if k in ("action.critical", "action.full",
                                               "action.partial", "action.bad"))


@pytest.mark.parametrize("faces, outcome", [
    ((6, 2), "action.full"), ((6, 6), "action.critical"), ((5, 4), "action.partial"),
    ((4, 1), "action.partial"), ((3, 3), "action.bad"), ((1, 2), "action.bad"),
])
def test_rolling_the_dice_highest_die_judges_the_roll(faces, outcome):
    assert judged(faces, 2) == outcome


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=4))
def test_rolling_the_dice_single_highest_result_for_any_pool(faces):
    top = max(faces)
    expected = ("action.critical" if faces.count(6) > 1 else "action.full" if top == 6
                else "action.partial" if top >= 4 else "action.bad")
    assert judged(faces, len(faces)) == expected


def test_rolling_the_dice_zero_dice_rolls_two_takes_lowest_and_never_crits():
    state = action_until_dice(crew("Cross"), rating="zero")
    dice = RULES.expects(state).find(AcceptDice)
    assert (dice.min_count, dice.max_count) == (2, 2)
    assert prompt(state).key == "ask.zero_dice"
    assert judged((6, 6), 0) == "action.full"
    assert judged((6, 2), 0) == "action.bad"
    assert judged((5, 6), 0) == "action.partial"


def test_illegal_dice_a_seven_or_the_wrong_count_is_refused_and_changes_nothing():
    state = action_until_dice(crew("Cross"), rating="two")
    assert refused(state, Dice((7, 2))) == "reject.face"
    assert refused(state, Dice((4, 2, 1, 1))) == "reject.count"
    assert refused(state, Number(3)) == "reject.not_now"


# --------------------------------------------------------------------------- Action Roll


def test_action_roll_six_steps_are_asked_in_order():
    state = crew("Cross", "Silas")
    asked = []
    for text in ("action", "Cross", "pick the lock", "tinker", "two", "risky", "standard",
                 "next", "no", "neither"):
        asked.append(prompt(state).key)
        state, _ = play(state, text)
    asked.append(prompt(state).key)
    assert asked == ["ask.menu.free_play", "ask.who", "ask.goal", "ask.action", "ask.rating",
                     "ask.position", "ask.effect", "ask.factors", "ask.assist", "ask.bonus",
                     "ask.action_dice"]
    assert prompt(state).params["count"] == 2


def test_set_the_position_defaults_to_risky():
    state = action_until_dice(crew("Cross"), position="next")
    _, said = play(state, "five three")
    assert "consequence.risky" in keys(said)


@pytest.mark.parametrize("position", ["controlled", "risky", "desperate"])
def test_judge_the_result_reads_consequences_that_fit_the_position(position):
    state = action_until_dice(crew("Cross"), position=position)
    _, partial = play(state, "four two")
    _, full = play(state, "six two")
    assert f"consequence.{position}" in keys(partial)
    assert not any(k.startswith("consequence.") for k in keys(full))


def test_advancement_a_desperate_roll_marks_xp_in_the_actions_attribute():
    state = action_until_dice(crew("Cross"), position="desperate")   # tinker is under insight
    _, said = play(state, "six two")
    xp = next(l for l in said if l.key == "xp.desperate")
    assert xp.params["attribute"] == "insight"


def test_assessing_factors_effect_reaches_zero_and_extreme_and_stops():
    state = crew("Cross")
    state, _ = play(state, "action", "x", "tinker", "two", "next", "limited", "worse")
    assert prompt(state).params["effect"] == "zero"
    assert refused(state, "worse") == "reject.effect_limit"
    state = crew("Cross")
    state, _ = play(state, "action", "x", "tinker", "two", "next", "great", "better")
    assert prompt(state).params["effect"] == "extreme"
    assert refused(state, "better") == "reject.effect_limit"
    state, said = play(state, "next", "neither", "six two")
    assert Line("action.effect", {"effect": "extreme"}) in said


def test_pushing_yourself_for_effect_costs_two_stress_once_per_action():
    state = crew("Cross")
    state, _ = play(state, "action", "x", "tinker", "two", "next", "next", "push")
    assert prompt(state).params["effect"] == "great"
    assert sheet(state, "Cross")["stress"] == 2
    assert refused(state, "push") == "reject.pushed_effect"


def test_add_bonus_dice_assist_gives_a_die_and_the_helper_one_stress():
    state = crew("Cross", "Silas")
    state, said = play(state, "action", "Cross", "x", "tinker", "two", "next", "next", "next",
                       "Silas", "neither")
    assert "action.assisted" in keys(said)
    assert sheet(state, "Silas")["stress"] == 1
    assert sheet(state, "Cross")["stress"] == 0
    assert RULES.expects(state).find(AcceptDice).max_count == 3


def test_add_bonus_dice_nobody_assists_their_own_roll():
    state = crew("Cross", "Silas")
    state, _ = play(state, "action", "Cross", "x", "tinker", "two", "next", "next", "next")
    assert refused(state, "1") == "reject.assist"


def test_add_bonus_dice_push_or_devils_bargain_not_both():
    state = crew("Cross")
    state, _ = play(state, "action", "x", "tinker", "two", "next", "next", "next")
    assert refused(state, "both") == "reject.push_and_bargain"
    pushed, _ = play(state, "push yourself")
    assert sheet(pushed, "Cross")["stress"] == 2
    assert RULES.expects(pushed).find(AcceptDice).max_count == 3
    bargained, said = play(state, "devil's bargain")
    assert sheet(bargained, "Cross")["stress"] == 0
    assert "action.bargain" in keys(said)
    assert RULES.expects(bargained).find(AcceptDice).max_count == 3


# --------------------------------------------------------------------------- Resistance


def resist(state, rating, faces, push="no"):
    state, _ = play(state, "resist", "prowess", rating, push)
    return play(state, faces)


def test_resistance_roll_attribute_asks_for_first_column_dots_of_its_actions():
    state, _ = play(crew("Cross"), "resist", "prowess")
    assert prompt(state).params["actions"] == ["finesse", "prowl", "skirmish", "wreck"]


def test_resistance_roll_costs_six_minus_the_highest_die():
    state, said = resist(crew("Cross"), "two", "two one")     # Daniel's roll of 2: 4 stress
    assert sheet(state, "Cross")["stress"] == 4
    state, said = resist(state, "three", "five two one")      # Silas's roll of 5: 1 stress
    assert sheet(state, "Cross")["stress"] == 5
    state, said = resist(state, "one", "six")
    assert sheet(state, "Cross")["stress"] == 5
    assert "resist.done" in keys(said)


def test_resistance_roll_critical_clears_one_stress():
    state, _ = play(crew("Cross"), "stress", "mark 3")
    state, said = resist(state, "two", "six six")
    assert "resist.critical" in keys(said)
    assert sheet(state, "Cross")["stress"] == 2


def test_resistance_roll_with_zero_dice_keeps_the_lower_die():
    state, _ = resist(crew("Cross"), "zero", "six one")
    assert sheet(state, "Cross")["stress"] == 5


def test_pushing_yourself_adds_a_die_to_resistance_for_two_stress():
    state, _ = play(crew("Cross"), "resist", "prowess", "one", "push")
    assert sheet(state, "Cross")["stress"] == 2
    assert RULES.expects(state).find(AcceptDice).max_count == 2


# --------------------------------------------------------------------------- Stress & Trauma


def test_trauma_marking_the_last_stress_box_takes_trauma_and_clears_stress():
    state, said = play(crew("Cross"), "stress", "mark 8")
    assert "stress.trauma" not in keys(said)
    state, said = play(state, "stress", "mark 1")
    assert "stress.trauma" in keys(said)
    assert prompt(state).key == "ask.trauma"
    state, said = play(state, "cold")
    assert sheet(state, "Cross")["stress"] == 0
    assert sheet(state, "Cross")["trauma"] == ["cold"]
    assert prompt(state).key == "ask.menu.free_play"


def test_trauma_conditions_are_permanent_and_cannot_be_taken_twice():
    state, _ = play(crew("Cross"), "stress", "mark 9", "cold", "stress", "mark 9")
    assert refused(state, "cold") == "reject.trauma_taken"


def test_trauma_a_resistance_roll_can_fill_the_track():
    state, _ = play(crew("Cross"), "stress", "mark 7")
    state, said = resist(state, "one", "two")
    assert "stress.trauma" in keys(said)


@pytest.mark.parametrize("stash, fate", [(0, "retire.poor"), (15, "retire.meager"),
                                         (30, "retire.modest"), (40, "retire.fine")])
def test_stash_and_retirement_the_fourth_trauma_retires_by_stash(stash, fate):
    state = crew("Cross")
    while sheet(state, "Cross")["stash"] < stash:
        state, _ = play(state, "coin", "Cross", "gain 4", "stash", "put 4")
    state, _ = play(state, "stress", "mark 9", "cold", "stress", "mark 9", "haunted",
                    "stress", "mark 9", "soft")
    state, said = play(state, "stress", "mark 9", "vicious")
    assert fate in keys(said)
    assert any(l.key == "status.retired" for l in RULES.status(state))
    assert "action" not in RULES.expects(state).accepts[0].words


def test_stress_the_track_size_is_an_option():
    state, said = play(crew("Cross", stress_boxes=6), "stress", "mark 6")
    assert "stress.trauma" in keys(said)


# --------------------------------------------------------------------------- Harm


def test_harm_is_recorded_in_its_row_and_moves_up_when_the_row_is_full():
    state, _ = play(crew("Cross"), "harm", "lesser", "Battered", "harm", "lesser", "Drained")
    state, said = play(state, "harm", "lesser", "Scared")
    assert Line("harm.recorded", {"name": "Cross", "what": "Scared", "level": "moderate"}) in said
    assert sheet(state, "Cross")["harm"] == ["Battered (lesser)", "Drained (lesser)",
                                             "Scared (moderate)"]


def test_harm_severe_means_incapacitated_without_help_or_push():
    _, said = play(crew("Cross"), "harm", "severe", "Broken Leg")
    assert "harm.penalty.3" in keys(said)


def test_death_needing_a_full_severe_row_is_catastrophic_and_fatal_harm_kills():
    state, _ = play(crew("Cross", "Silas"), "harm", "Cross", "severe", "Impaled")
    state, said = play(state, "harm", "Cross", "severe", "Shot in Chest")
    assert "harm.catastrophic" in keys(said)
    state, said = play(state, "harm", "Cross", "fatal", "Drowned")
    assert "harm.fatal" in keys(said)
    assert any(l.key == "status.dead" for l in RULES.status(state))
    assert prompt(play(state, "action")[0]) == Line("ask.goal", {"name": "Silas"})


# --------------------------------------------------------------------------- Fortune Roll


def test_fortune_roll_luck_is_one_die_and_any_trait_rating_sets_the_pool():
    state, _ = play(crew("Cross"), "fortune", "luck")
    assert RULES.expects(state).find(AcceptDice).max_count == 1
    state, said = play(state, "five")
    assert "fortune.partial" in keys(said)
    state, _ = play(state, "fortune", "three")
    assert RULES.expects(state).find(AcceptDice).max_count == 3


def test_fortune_roll_opposed_compares_both_sides_result_levels():
    state, said = play(crew("Cross"), "opposed", "two", "four two", "one", "six")
    assert Line("opposed.wins", {"side": 2}) in said
    _, said = play(state, "opposed", "one", "five", "one", "four")
    assert "opposed.even" in keys(said)


# --------------------------------------------------------------------------- Gathering Information


def test_gathering_information_three_ways():
    state = crew("Cross")
    _, said = play(state, "information", "who guards the vault", "common")
    assert "info.common" in keys(said)
    s, said = play(state, "information", "who guards the vault", "obstacle")
    assert "info.obstacle" in keys(said) and prompt(s).key == "ask.action"
    s, _ = play(state, "information", "who guards the vault", "neither", "survey", "two")
    _, said = play(s, "six three")
    assert "information.full" in keys(said)


# --------------------------------------------------------------------------- Progress clocks


def make_clock(state, size, name, kind="next"):
    return play(state, "clock", "new", kind, size, name)[0]


def test_progress_clocks_make_a_six_clock_called_alarm_by_voice_and_read_it_back():
    state = make_clock(crew("Cross"), "six", "Alarm")
    _, said = play(state, "clocks")
    assert said == [Line("clock.read", {"name": "Alarm", "filled": 0, "size": 6})]
    assert refused(play(crew("Cross"), "clock", "new", "next")[0], "five") == "reject.clock_size"


def test_danger_clocks_tick_and_fill():
    state = make_clock(crew("Cross"), "four", "Alarm")
    state, said = play(state, "clock", "tick", "Alarm", "three")
    assert Line("clock.ticked", {"name": "Alarm", "filled": 3, "size": 4}) in said
    state, said = play(state, "clock", "tick", "Alarm", "three")
    assert "clock.full" in keys(said)
    assert Line("clock.read", {"name": "Alarm", "filled": 4, "size": 4}) in RULES.status(state)
    assert refused(play(state, "clock")[0], "tick") == "reject.no_clock.tick"


def test_racing_clocks_the_first_to_fill_wins():
    state, _ = play(crew("Cross"), "clock", "new", "racing", "four", "Escape", "six", "Cornered")
    state, said = play(state, "clock", "tick", "Escape", "four")
    assert Line("clock.won", {"name": "Escape", "rival": "Cornered"}) in said
    _, said = play(state, "clock", "tick", "Cornered", "six")
    assert "clock.won" not in keys(said)


def test_linked_clocks_open_only_when_the_first_fills():
    state = make_clock(crew("Cross"), "four", "Alert")
    state, _ = play(state, "clock", "new", "linked", "Alert", "six", "Trapped")
    ticking, _ = play(state, "clock", "tick")
    assert prompt(ticking).params["names"] == ["Alert"]
    assert refused(ticking, Word("trapped")) == "reject.word"
    state, said = play(state, "clock", "tick", "Alert", "four")
    assert Line("clock.opened", {"name": "Trapped", "after": "Alert"}) in said
    state, said = play(state, "clock", "tick", "Trapped", "two")
    assert Line("clock.ticked", {"name": "Trapped", "filled": 2, "size": 6}) in said


def test_tug_of_war_clocks_tick_up_and_down_and_only_they_go_down():
    state = make_clock(crew("Cross"), "eight", "Revolution", kind="tug of war")
    state, _ = play(state, "clock", "tick", "Revolution", "three")
    state, said = play(state, "clock", "tick down", "Revolution", "two")
    assert Line("clock.ticked", {"name": "Revolution", "filled": 1, "size": 8}) in said
    plain = make_clock(crew("Cross"), "four", "Alarm")
    plain, _ = play(plain, "clock", "tick", "Alarm", "one")
    assert refused(play(plain, "clock")[0], "tick down") == "reject.no_clock.tick_down"


# --------------------------------------------------------------------------- Coin and Stash


def test_coin_no_one_carries_more_than_four_or_spends_what_they_lack():
    state, said = play(crew("Cross"), "coin", "Cross", "gain 4")
    assert Line("coin.held", {"name": "Cross", "coin": 4}) in said
    assert refused(play(state, "coin", "Cross")[0], "gain 1") == "reject.carry"
    assert refused(play(state, "coin", "Cross")[0], "spend 5") == "reject.no_coin"


def test_coin_the_lair_keeps_four_and_warns_about_the_rest():
    _, said = play(crew("Cross"), "coin", "crew", "gain 6")
    assert Line("coin.over_lair", {"coin": 6, "limit": 4}) in said


def test_removing_coin_from_your_stash_costs_two_stash_per_coin():
    state, _ = play(crew("Cross"), "coin", "Cross", "gain 4", "stash", "put 4")
    assert (sheet(state, "Cross")["stash"], sheet(state, "Cross")["coin"]) == (4, 0)
    state, _ = play(state, "stash", "take 2")
    assert (sheet(state, "Cross")["stash"], sheet(state, "Cross")["coin"]) == (0, 2)
    assert refused(play(state, "stash")[0], "take 1") == "reject.stash_low"


def test_stash_holds_forty_at_most():
    state = crew("Cross")
    for _ in range(10):
        state, _ = play(state, "coin", "Cross", "gain 4", "stash", "put 4")
    state, _ = play(state, "coin", "Cross", "gain 1")
    assert refused(play(state, "stash")[0], "put 1") == "reject.stash_full"


# ----------------------------------------------------------------------- Game structure, Loadout


def to_score(state, *loads):
    return play(state, "next phase", "the Lampblacks", "deception", *loads, "two", "six four")


def test_game_structure_free_play_plan_score_downtime_free_play():
    state = crew("Cross")
    state, said = to_score(state, "light")
    assert keys(said)[0] == "phase.planning"
    assert "engagement.full" in keys(said) and "phase.score" in keys(said)
    assert prompt(state).key == "ask.menu.score"
    state, said = play(state, "next phase", "six", "two", "next")
    assert keys(said) == ["phase.payoff", "coin.crew", "coin.over_lair", "heat.now",
                          "phase.downtime"]
    assert prompt(state).key == "ask.menu.downtime"
    state, said = play(state, "next phase")
    assert keys(said) == ["phase.free_play"]
    assert RULES.status(state)[0].key == "status.free_play"


def test_game_structure_each_phase_offers_what_can_be_done_there():
    state = crew("Cross")
    assert "item" not in prompt(state).params["choices"]
    state, _ = to_score(state, "normal")
    assert "item" in prompt(state).params["choices"]
    assert "activity" not in prompt(state).params["choices"]
    state, _ = play(state, "next phase", "zero", "zero", "next")
    assert "activity" in prompt(state).params["choices"]


def test_loadout_items_up_to_the_chosen_load():
    state, said = to_score(crew("Cross"), "light")
    assert Line("load.chosen", {"name": "Cross", "load": "light", "items": 3}) in said
    state, _ = play(state, "item", "two", "item", "one")
    assert refused(play(state, "item")[0], "one") == "reject.load"


def test_downtime_two_activities_then_one_coin_each():
    state, _ = to_score(crew("Cross"), "normal")
    state, _ = play(state, "coin", "Cross", "gain 1", "stress", "mark 4", "next phase",
                    "zero", "zero", "next")
    state, said = play(state, "activity", "vice", "three", "activity", "train")
    assert sheet(state, "Cross")["stress"] == 1
    state, said = play(state, "activity", "train")
    assert "activity.paid" in keys(said) and sheet(state, "Cross")["coin"] == 0
    assert "activity" not in prompt(state).params["choices"]


def test_downtime_recover_and_long_term_project():
    state, _ = play(crew("Cross"), "harm", "moderate", "Deep Cut", "clock", "new", "next",
                    "eight", "Research")
    state, _ = to_score(state, "normal")
    state, _ = play(state, "next phase", "zero", "zero", "next")
    state, said = play(state, "activity", "recover", "moderate")
    assert Line("harm.healed", {"name": "Cross", "what": "Deep Cut"}) in said
    state, said = play(state, "activity", "project", "Research", "three")
    assert Line("clock.ticked", {"name": "Research", "filled": 3, "size": 8}) in said


# --------------------------------------------------------------------------- status


def test_status_says_phase_sheets_crew_and_clocks():
    state, _ = play(crew("Cross", "Silas"), "stress", "Silas", "mark 3", "harm", "Silas",
                    "lesser", "Battered", "coin", "crew", "gain 2")
    state = make_clock(state, "six", "Alarm")
    lines = RULES.status(state)
    assert lines[0].key == "status.free_play"
    assert sheet(state, "Silas") == {"name": "Silas", "stress": 3, "max": 9,
                                   "trauma": "none", "harm": ["Battered (lesser)"],
                                   "coin": 0, "stash": 0}
    assert Line("status.crew", {"coin": 2, "heat": 0}) in lines
    assert Line("clock.read", {"name": "Alarm", "filled": 0, "size": 6}) in lines


def test_setup_a_taken_name_is_numbered_and_either_can_be_chosen_by_number():
    state = crew("Ash", "Ash")
    assert [l.params["name"] for l in RULES.status(state) if l.key == "status.character"] == [
        "Ash", "Ash 2"]
    state, _ = play(state, "stress", "2", "mark 1")
    assert sheet(state, "Ash 2")["stress"] == 1


def test_refused_word_outside_the_menu_changes_nothing():
    assert refused(crew("Cross"), Word("item")) == "reject.word"
