"""Intensity System rules: the text's rules one by one, its four worked examples, random play.

Inputs are typed as a table would say them and go through the understanding layer, so a test
also fails when a question stops accepting the words it asks for.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from narrator.events import Dice, Line, Number, Text, Unclear, Word
from narrator.rules.base import AcceptDice, AcceptWords
from narrator.rules.intensity import INFO
from narrator.rules.intensity.model import LADDER, step_down
from narrator.script.loader import find_script, load_script
from narrator.script.render import render
from narrator.understand import understand
from test_conformance import random_input

RULES = INFO.rules
SCRIPT = load_script(find_script(RULES.script))

SARAH = ["Sarah", "main", "Smooth Talker", "Don't Push Me", "Love for Jila"]
STEVE = ["Steve", "main", "Quick Wits", "Bad Temper", "Social Manipulator"]
RICK = ["Rick", "minor", "Driver", "Cultist"]
LOUISE = ["Louise", "minor", "Knife", "Cultist"]
CRYSTAL = ["Crystal", "minor", "Knife", "Cultist"]


class Table:
    """A game driven by spoken answers; remembers every Line said."""

    def __init__(self, *characters: list[str]):
        step = RULES.start(dict(RULES.options))
        self.state, self.said = step.state, list(step.say)
        self.say(str(len(characters)), *[a for c in characters for a in c])

    def say(self, *answers: str) -> "Table":
        for text in answers:
            meaning = understand(text, self.expects)
            assert not isinstance(meaning, Unclear), (text, meaning, self.text(self.expects.prompt))
            step = RULES.apply(self.state, meaning)
            assert step.rejected is None, (text, self.text(step.rejected))
            self.state = step.state
            self.said += step.say
        return self

    def roll(self, first: int, second: int) -> "Table":
        """A character's two dice: together when asked together, else one at a time."""
        if self.expects.find(AcceptDice).max_count == 2:
            return self.say(f"{first} and {second}")
        return self.say(str(first), str(second))

    def refused(self, given) -> Line:
        step = RULES.apply(self.state, given)
        assert step.state == self.state
        return step.rejected

    @property
    def expects(self):
        return RULES.expects(self.state)

    @property
    def asked(self) -> str:
        return self.expects.prompt.key

    def words(self) -> tuple[str, ...]:
        return self.expects.find(AcceptWords).words

    def lines(self, key: str) -> list[dict]:
        return [dict(line.params) for line in self.said if line.key == key]

    def ratings(self) -> list[int]:
        return [line.params["rating"] for line in self.said
                if line.key in ("said.hit", "said.hit_undefended")]

    def char(self, name: str):
        return next(c for c in self.state.chars if c.name == name)

    def dice(self, name: str) -> dict[str, int]:
        c = self.char(name)
        return {t.name: c.size(k) for k, t in enumerate(c.traits)}

    @staticmethod
    def text(line: Line) -> str:
        return render(SCRIPT, line)[0].text


def declare(table: Table, *declarations: str) -> Table:
    """Each "target/level/trait" in turn, then nobody raises."""
    for d in declarations:
        table.say(*d.split("/"))
    return table.say("no") if table.asked == "ask.raise" else table


# --------------------------------------------------------------------------- worked examples


def test_example_1_basic_conflict_rating_19_negotiated_then_5_meets_5():
    t = declare(Table(SARAH, STEVE), "steve/calm/smooth talker", "sarah/passionate/bad temper")
    t.say("3", "9", "7", "5")  # Sarah d6 3, d10 9; Steve d10 7, d8 5
    assert t.lines("said.order")[-1]["order"] == ["Sarah with 9", "Steve with 7"]
    t.say("intensity", "3")  # Steve picks up the d10 and rolls a 3
    assert t.ratings() == [19]
    assert t.words() == ("tax", "advantage", "damage", "wound", "negotiate")  # up to a wound
    t.say("negotiate")
    assert t.lines("said.action")[-1] == {"name": "Steve", "target": "Sarah", "attack": 5}
    assert t.asked == "ask.defence_die"  # Sarah has acted: she rolls both dice, no choice
    t.say("5", "2")
    assert t.lines("said.miss") == [{"name": "Steve", "target": "Sarah", "attack": 5,
                                     "defence": 5}]
    assert t.asked == "ask.round_end"
    assert t.dice("Steve") == {"Quick Wits": 10, "Bad Temper": 8, "Social Manipulator": 8}


def test_example_2_social_conflict_damage_at_14_and_advantage_at_14():
    t = declare(Table(SARAH, STEVE), "steve/calm/smooth talker",
                "sarah/invested/social manipulator")
    t.say("6", "3", "eight and two")  # Sarah d6 6, d10 3; Steve's two d8s
    t.say("trait", "2")  # Sarah defends with the d10 (Smooth Talker): 2
    assert t.ratings() == [14]
    t.say("damage")
    assert t.dice("Sarah")["Smooth Talker"] == 8  # down to a d8
    t.say("three and four")  # Steve has acted: both d8s defend
    assert t.ratings() == [14, 14]
    t.say("advantage")
    assert t.state.ap == ((0, 1, 1),)  # Sarah holds 1 AP against Steve


def test_defence_question_names_each_die_with_its_size_and_the_face_it_shows():
    """Example 2: "her higher-rated die rolled lower, so she rolls the D10 in defense": the
    table chooses by what each die is and shows, so the question says both."""
    t = declare(Table(SARAH, STEVE), "steve/calm/smooth talker",
                "sarah/invested/social manipulator")
    t.say("6", "3", "eight and two")
    text = t.text(t.expects.prompt)
    assert t.asked == "ask.defend"
    assert "intensity d6 showing 6" in text and "trait d10 showing 3" in text and "8" in text


def test_advantage_question_says_who_pays_what_of_how_many_for_each_effect():
    t = declare(Table(SARAH, STEVE), "steve/calm/smooth talker",
                "sarah/invested/social manipulator")
    t.say("6", "3", "eight and two", "trait", "2", "damage", "three and four", "advantage")
    t.say("round", "steve", "invested", "smooth talker", "sarah", "calm", "quick wits", "no")
    t.say("5 and 3", "2", "9", "trait", "2")  # Steve's 9 at Sarah, who defends with a 2
    assert t.asked == "ask.effects"
    assert t.expects.prompt.params["offers"] == [
        Line("offer.reroll", {"payer": "Sarah", "cost": 1, "have": 1})]
    assert "Sarah pays 1 of 1" in t.text(t.expects.prompt)


def test_example_3_many_characters_ratings_17_20_18_14():
    t = declare(Table(SARAH, STEVE, RICK, LOUISE, CRYSTAL),
                "rick/passionate/don't push me", "louise/invested/bad temper",
                "sarah/fanatical/driver", "steve/fanatical/knife", "steve/fanatical/knife")
    t.say("6", "5", "8 and 3", "3", "3", "9", "3", "6", "4")
    assert t.lines("said.order")[-1]["order"] == [
        "Louise with 9", "Steve with 8", "Sarah with 6", "Crystal with 6", "Rick with 3"]
    t.say("none", "wound")  # Steve lets his dice stand; Louise's 9 wounds him
    assert t.dice("Steve") == {"Quick Wits": 8, "Bad Temper": 6, "Social Manipulator": 6}
    t.say("5", "2", "hold")  # Louise has acted: rolls both, fails to reach 8
    t.say("both", "1", "4", "wound")  # Rick defends with both, forfeits, and is hit
    assert t.asked == "ask.held"  # a held fatal can be used at any time: after every action
    t.say("no")
    assert t.dice("Rick") == {"Driver": 4, "Cultist": 4}
    t.say("4 and 2")  # Steve rolls both d8s against Crystal's 6 and fails
    assert t.ratings() == [17, 20, 18, 14]
    t.say("negotiate", "steve", "wound", "yes")  # Steve spends the held fatal on Louise
    assert t.lines("said.skip_forfeit") == [{"name": "Rick"}]
    assert t.asked == "ask.round_end"
    louise = t.char("Louise")
    assert (louise.wounds, louise.out, louise.fallen) == (1, True, False)
    assert t.state.held == ()
    assert t.char("Steve").wounds == 1 and t.char("Crystal").wounds == 0


def test_example_4_hostage_rescue_both_give_up_held_fatals_then_fatal_at_20():
    t = declare(Table(SARAH, STEVE, RICK), "rick/calm/smooth talker",
                "rick/invested/quick wits", "steve/fanatical/driver")
    t.say("1", "1", "1", "1", "12", "1", "none")  # Rick's 12 takes Steve hostage
    assert t.ratings() == [20]
    t.say("hold", "5", "5", "no", "3", "3", "no", "round")  # Sarah and Steve miss Rick
    assert t.state.held == ((2, 1),)
    t.say("no")  # nobody uses the held fatal as the round starts
    t.say("rick", "passionate", "smooth talker", "nobody", "sarah", "fanatical", "driver", "no")
    t.say("8 and 2", "5", "1", "both", "2", "1")
    assert t.ratings() == [20, 20]
    assert "fatal" in t.words() and "hold" in t.words()
    t.say("negotiate", "rick", "release")  # both give up the fatal impact they hold
    assert t.state.held == () and not t.char("Rick").fallen
    t.say("round")
    t.say("rick", "passionate", "smooth talker", "nobody", "sarah", "fanatical", "driver", "no")
    t.say("8 and 3", "4", "2", "intensity", "7", "fatal")
    assert t.ratings() == [20, 20, 20]
    assert t.char("Rick").fallen and t.lines("said.skip_out") == [{"name": "Rick"}]
    assert t.char("Steve").wounds == 0


# --------------------------------------------------------------------------- Traits, Levels


def test_traits_main_has_d10_and_two_d8_minor_has_two_d6():
    t = Table(SARAH, RICK)
    assert t.dice("Sarah") == {"Smooth Talker": 10, "Don't Push Me": 8, "Love for Jila": 8}
    assert t.dice("Rick") == {"Driver": 6, "Cultist": 6}


@pytest.mark.parametrize("level, size", [("calm", 6), ("invested", 8), ("passionate", 10),
                                         ("fanatical", 12)])
def test_levels_of_intensity_set_the_intensity_die(level, size):
    t = declare(Table(RICK, LOUISE), f"louise/{level}/driver", "rick/calm/knife")
    dice = t.expects.find(AcceptDice)
    assert (dice.sides, dice.max_count) == ((size, 1) if size != 6 else (6, 2))


def test_levels_intensity_may_be_raised_after_others_declare_never_lowered():
    t = Table(RICK, LOUISE).say("louise", "invested", "driver", "rick", "fanatical", "knife")
    assert t.words() == ("rick", "no")  # only those below fanatical may raise
    t.say("rick")
    assert t.words() == ("passionate", "fanatical")
    assert t.refused(Word("calm")).key == "reject.word"
    t.say("passionate", "rick", "fanatical")
    assert t.asked == "ask.roll_die"  # nobody is left below fanatical: straight to the roll
    assert t.expects.find(AcceptDice).sides == 12  # Rick now rolls a d12 with his d6


# --------------------------------------------------------------------------- Actions


def test_actions_roll_same_size_dice_asked_together_different_sizes_die_by_die():
    t = declare(Table(RICK, LOUISE), "louise/calm/driver", "rick/fanatical/knife")
    assert t.expects.find(AcceptDice) == AcceptDice(6, 2, 2)  # roll for me gives two d6
    t.say("six and one")
    assert t.expects.find(AcceptDice) == AcceptDice(12, 1, 1)
    assert t.refused(Dice((7, 3))).key == "reject.dice_count"
    t.say("11")
    assert t.expects.find(AcceptDice) == AcceptDice(6, 1, 1)
    assert t.refused(Dice((7,))).key == "reject.face"  # 7 cannot show on the d6


def test_actions_order_by_highest_die_second_die_breaks_ties():
    t = declare(Table(RICK, LOUISE, CRYSTAL), "louise/calm/driver", "rick/calm/knife",
                "rick/calm/knife")
    t.say("5 and 2", "5 and 4", "6 and 1")
    assert t.lines("said.order")[-1]["order"] == ["Crystal with 6", "Louise with 5",
                                                  "Rick with 5"]
    assert t.state.order == (2, 1, 0)


def test_actions_dice_used_to_defend_cannot_attack():
    t = declare(Table(SARAH, STEVE), "steve/calm/smooth talker", "sarah/passionate/bad temper")
    t.say("3", "9", "7", "5", "intensity", "3", "negotiate")
    # Steve's 7 was picked up to defend: he attacks with the 5 still standing
    assert t.lines("said.action")[-1]["attack"] == 5


def test_actions_defending_with_both_dice_forfeits_the_action():
    t = declare(Table(RICK, LOUISE), "louise/calm/driver", "rick/calm/knife")
    t.say("6 and 1", "2 and 2", "both", "1 and 1", "tax", "knife")
    assert t.lines("said.forfeit") == [{"name": "Louise"}]
    assert t.lines("said.skip_forfeit") == [{"name": "Louise"}]
    assert t.asked == "ask.round_end"


def test_actions_defence_dice_are_rerolled_against_later_attacks_that_round():
    t = declare(Table(RICK, LOUISE, CRYSTAL), "louise/calm/driver", "rick/calm/knife",
                "louise/calm/knife")
    t.say("6 and 1", "1 and 3", "5 and 1")  # Rick, then Crystal, both against Louise
    t.say("intensity", "3", "tax", "knife")  # Louise picks up her 1 to defend, Rick hits
    assert t.words() == ("none", "trait")  # the defence die is not offered again: it rolls anyway
    t.say("none")
    assert t.asked == "ask.defence_die"  # her intensity die is rolled again against Crystal
    t.say("6")
    assert t.lines("said.miss")[-1]["defence"] == 6
    assert t.lines("said.action")[-1] == {"name": "Louise", "target": "Rick", "attack": 3}


def test_actions_a_hit_needs_a_die_higher_than_the_defence_highest():
    t = declare(Table(RICK, LOUISE), "louise/calm/driver", "rick/calm/knife")
    t.say("4 and 1", "2 and 1", "trait", "4")
    assert t.lines("said.miss")[-1]["defence"] == 4 and not t.ratings()
    t.say("1 and 1")  # Rick, having acted, defends with both against Louise's 2
    assert t.ratings() == [2 + 6]


# --------------------------------------------------------------------------- Impact


def _hit(rating_die: int, defender_level: str) -> Table:
    """Louise's lone hit on Rick with a d12 showing ``rating_die``."""
    t = declare(Table(RICK, LOUISE), f"louise/{defender_level}/driver", "rick/fanatical/knife")
    return t.roll(1, 1).roll(rating_die, 1).say("none")


@pytest.mark.parametrize("die, level, allowed", [
    (5, "calm", ("tax", "negotiate")),
    (6, "calm", ("tax", "advantage", "negotiate")),
    (6, "invested", ("tax", "advantage", "damage", "negotiate")),
    (8, "invested", ("tax", "advantage", "damage", "wound", "negotiate")),
    (8, "fanatical", ("tax", "advantage", "damage", "wound", "fatal", "hold", "negotiate")),
])
def test_impact_rating_is_attacker_actual_die_plus_defender_intensity_maximum(die, level,
                                                                              allowed):
    t = _hit(die, level)
    assert t.ratings() == [die + {"calm": 6, "invested": 8, "fanatical": 12}[level]]
    assert t.words() == allowed


def test_impact_tax_steps_a_chosen_trait_down_until_the_rest_after_the_scene():
    t = _hit(5, "calm").say("tax", "cultist")
    assert t.dice("Rick") == {"Driver": 6, "Cultist": 4}
    t.roll(5, 1).say("end", "heal")
    assert t.dice("Rick")["Cultist"] == 4  # the scene is over, but healing does not lift taxes
    t.say("rest")
    assert t.dice("Rick")["Cultist"] == 6


def test_impact_damage_falls_on_the_trait_the_defender_just_used():
    t = _hit(6, "invested").say("damage")
    assert t.dice("Rick") == {"Driver": 4, "Cultist": 6}  # Rick declared Driver


def test_impact_wound_lowers_all_traits_and_a_d4_steps_to_unusable():
    t = _hit(8, "invested").say("wound")
    assert t.dice("Rick") == {"Driver": 4, "Cultist": 4}
    t.roll(5, 1).say("round", "louise", "invested", "driver", "rick", "fanatical", "knife", "no")
    t.roll(1, 1).roll(8, 1).say("none", "wound")
    assert t.dice("Rick") == {"Driver": 0, "Cultist": 0}
    t.roll(5, 1).say("round")
    # Rick has no usable trait: he declares nothing, rolls nothing, and cannot defend
    assert t.expects.prompt.params["name"] == "Louise"
    t.say("rick", "calm", "knife", "no", "3 and 3")
    assert t.lines("said.no_dice") == [{"name": "Rick"}]
    assert t.ratings()[-1] == 3 + 6  # an undeclared defender counts as calm


def test_impact_fatal_takes_the_character_out_for_good():
    t = _hit(8, "fanatical").say("fatal")
    assert t.char("Rick").fallen and t.asked == "ask.round_end"
    t.say("round")
    assert t.lines("said.no_fight")


def test_impact_fatal_may_be_held_and_must_be_settled_by_the_end_of_the_scene():
    t = _hit(8, "fanatical").say("hold").roll(5, 1).say("no", "end")
    assert t.lines("said.still_held") == [{"name": "Louise", "target": "Rick"}]
    assert t.words() == ("fatal", "wound", "release")
    t.say("wound")  # the scene is ending: no question about putting Rick out of it
    assert t.asked == "ask.between" and t.state.held == () and t.char("Rick").wounds == 1


def test_held_fatal_is_offered_at_every_moment_it_can_be_used():
    """"He can declare her killed at any time" (Example 3): after the action that follows the
    hold, at the next round's start, in a deal, and at the scene's end (tested above)."""
    t = _hit(8, "fanatical").say("hold")
    assert t.asked != "ask.held"  # not in the same breath as choosing to hold it
    t.roll(5, 1)  # Rick's action: Louise defends, and holds
    assert t.asked == "ask.held" and t.expects.prompt.params["choices"] == "Louise"
    t.say("no", "round")
    assert t.asked == "ask.held"  # the round's start
    t.say("louise", "fatal")  # used now: Rick is out for good
    assert t.char("Rick").fallen and t.state.held == ()


def test_held_fatal_can_be_used_right_after_any_later_action():
    t = _hit(8, "fanatical").say("hold").roll(5, 1)
    t.say("louise", "fatal")
    assert t.char("Rick").fallen and t.lines("said.held_fatal")


def test_impact_negotiated_outcome_changes_nothing():
    t = _hit(8, "fanatical")
    before = t.state.chars
    t.say("negotiate")
    assert t.state.chars == before and t.lines("said.negotiated")


# --------------------------------------------------------------------------- Special Effects


def _with_ap(points: int) -> Table:
    """Rick with ``points`` AP against Louise (won by advantage impacts), then a new round."""
    t = Table(RICK, LOUISE)
    for _ in range(points):
        t = declare(t, "louise/calm/driver", "nobody")
        t.say("6 and 1")
        if t.asked == "ask.effects":
            t.say("no")
        t.say("advantage", "round")
    assert t.state.ap == ((0, 1, points),)
    return t


def test_special_effects_1_ap_reroll_one_defence_die():
    t = declare(_with_ap(1), "louise/calm/driver", "rick/calm/knife")
    t.say("1 and 1", "5 and 2", "both", "3 and 2")
    assert t.words() == ("reroll", "no")
    t.say("reroll", "6")  # the lower die (2) is rerolled
    assert t.lines("said.miss")[-1]["defence"] == 6 and t.state.ap == ()


def test_special_effects_2_ap_count_highest_die_as_maximum_for_impact_only():
    t = declare(_with_ap(2), "louise/calm/driver", "rick/calm/knife")
    t.say("3 and 1", "1 and 1", "both", "2 and 1", "maximum")
    assert t.lines("said.hit")[-1]["attack"] == 3  # the hit is still 3 against 2 ...
    assert t.ratings()[-1] == 6 + 6  # ... but for the impact the d6 counts as 6


def test_special_effects_3_ap_add_four_to_defence_after_the_roll():
    t = declare(_with_ap(3), "louise/calm/driver", "rick/calm/knife")
    t.say("1 and 1", "6 and 1", "both", "3 and 2", "shield")
    assert t.lines("said.miss")[-1] == {"name": "Louise", "target": "Rick", "attack": 6,
                                        "defence": 7}
    assert t.state.ap == ()


def test_special_effects_4_ap_add_four_to_highest_roll_for_attack_and_impact():
    t = declare(_with_ap(4), "louise/calm/driver", "rick/calm/knife")
    t.say("5 and 1", "1 and 1", "both", "6 and 2", "boost")
    assert t.lines("said.hit")[-1]["attack"] == 9 and t.ratings()[-1] == 9 + 6


def test_advantage_points_count_only_against_the_character_they_were_won_from():
    t = Table(RICK, LOUISE, CRYSTAL)
    t = declare(t, "louise/calm/driver", "rick/calm/knife", "rick/calm/knife")
    t.say("6 and 1", "1 and 1", "1 and 1", "none", "advantage", "2 and 2")
    assert t.words() == ("reroll", "no")  # defending against Louise, Rick may spend his AP
    t.say("no", "2 and 2", "round")
    t = declare(t, "crystal/calm/driver", "nobody", "rick/calm/knife")
    t.say("1 and 1", "5 and 1", "both", "1 and 1")
    assert t.asked == "ask.impact"  # no AP question: Rick's AP is against Louise, not Crystal


# --------------------------------------------------------------------------- Healing


def test_healing_heals_one_impact_each_and_awards_ap_to_unhurt_main_opponents():
    t = Table(SARAH, STEVE, RICK)
    t = declare(t, "steve/fanatical/smooth talker", "sarah/invested/quick wits",
                "steve/calm/driver")
    t.roll(8, 1).roll(1, 1).roll(1, 1).say("none", "wound")
    t.roll(2, 2).roll(2, 2).say("end", "heal")
    assert t.words() == ("wound", "no")  # Steve, the only one hurt, may heal or not
    t.say("wound")
    # Sarah was in conflict with Steve and unhurt: 2 AP for his healed wound
    assert t.lines("said.heal_award") == [{"name": "Sarah", "count": 2, "target": "Steve"}]
    assert t.state.ap == ((0, 1, 2),) and t.char("Steve").wounds == 0
    t.say("heal")
    assert t.lines("said.no_heal")


def test_healing_is_offered_not_compulsory_a_declined_heal_awards_nothing():
    """"All of the characters get to heal one impact": a character may let it pass."""
    t = Table(SARAH, STEVE, RICK)
    t = declare(t, "steve/fanatical/smooth talker", "sarah/invested/quick wits",
                "steve/calm/driver")
    t.roll(8, 1).roll(1, 1).roll(1, 1).say("none", "wound")
    t.roll(2, 2).roll(2, 2).say("end", "heal", "no")
    assert t.lines("said.heal_declined") == [{"name": "Steve"}]
    assert t.char("Steve").wounds == 1 and not t.lines("said.heal_award")
    assert t.asked == "ask.between"


def test_healing_a_damaged_trait_awards_one_ap_and_minor_characters_earn_none():
    t = Table(SARAH, RICK)
    t = declare(t, "rick/calm/smooth talker", "sarah/calm/driver")
    t.roll(1, 8).roll(1, 1).say("none", "damage").roll(1, 1).say("end", "heal", "driver")
    assert t.lines("said.heal_award") == [{"name": "Sarah", "count": 1, "target": "Rick"}]
    t2 = Table(SARAH, RICK)
    t2 = declare(t2, "rick/calm/smooth talker", "sarah/fanatical/driver")
    t2.roll(1, 1).roll(8, 1).say("both").roll(1, 1).say("damage", "end", "heal", "smooth talker")
    assert not t2.lines("said.heal_award")  # Rick is minor: no award


# --------------------------------------------------------------------------- refusals, status


def test_illegal_input_is_refused_with_a_reason_and_the_state_unchanged():
    start = RULES.start({}).state
    assert RULES.apply(start, Number(9)).rejected.key == "reject.number"
    t = Table(SARAH, [])  # waiting for the second character's name
    assert t.refused(Text("the")).key == "reject.name"  # nothing left to recognise
    assert t.refused(Text("Nobody")).key == "reject.name"  # a word other questions take
    t.say("Steve", "main", "Quick Wits")
    assert t.refused(Text("quick wits")).key == "reject.trait_taken"
    assert t.refused(Word("main")).key == "reject.not_now"
    t.say("Bad Temper", "Social Manipulator")
    assert t.refused(Word("sarah")).key == "reject.word"  # Sarah cannot act against herself
    assert t.refused(Dice((3,))).key == "reject.not_now"


def test_a_second_character_with_a_taken_name_is_numbered():
    t = Table(RICK, ["Rick", "minor", "Knife", "Cultist"])
    assert [c.name for c in t.state.chars] == ["Rick", "Rick two"]
    assert "rick two" in t.words()


def test_status_says_round_order_dice_taxes_wounds_and_advantage():
    t = _hit(8, "invested").say("tax", "driver").roll(5, 1).say("round")
    t = declare(t, "louise/invested/driver", "rick/fanatical/knife")
    t.roll(1, 1).roll(8, 1).say("none", "wound")
    status = [Table.text(line) for line in RULES.status(t.state)]
    assert status[:2] == ["Scene 1, round 2.", "Order of action: Louise with 8 and Rick with 1."]
    assert "Rick: Driver unusable and Cultist d4." in status
    assert "Wounds on Rick: 1." in status and "Rick is taxed on Driver." in status
    t2 = _with_ap(1)
    assert "Rick has 1 advantage against Louise." in [Table.text(x) for x in RULES.status(t2.state)]


def test_die_steps_d12_d10_d8_d6_d4_unusable():
    assert [step_down(12, n) for n in range(7)] == [12, 10, 8, 6, 4, 0, 0]
    assert LADDER == (12, 10, 8, 6, 4, 0)


# --------------------------------------------------------------------------- random play




@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_play_keeps_the_rules_invariants(seed):
    rng = random.Random(seed)
    step = RULES.start({})
    state, forfeited = step.state, set()
    for _ in range(250):
        expectation = RULES.expects(state)
        if expectation.over:
            break
        given_input = random_input(rng.choice(expectation.accepts), rng)
        step = RULES.apply(state, given_input)
        if step.rejected is not None:
            assert step.state == state  # refused: nothing changed
            continue
        new = step.state
        for c in new.chars:
            for k, trait in enumerate(c.traits):
                assert c.size(k) in LADDER and c.size(k) <= trait.base
        assert all(n > 0 for _, _, n in new.ap)  # advantage never goes below zero
        if new.round == state.round and new.decls and state.decls:
            for before, after in zip(state.decls, new.decls):
                if before and after and before.level:
                    assert after.level >= before.level  # intensity never lowered
        for line in step.say:
            render(SCRIPT, line)
            if line.key == "said.round":
                forfeited.clear()
            if line.key == "said.forfeit":
                forfeited.add(line.params["name"])
            if line.key == "said.action":  # who defended with both dice never attacks
                assert line.params["name"] not in forfeited
            if line.key in ("said.hit", "said.hit_undefended"):
                assert line.params["attack"] > line.params["defence"]
        state = new
    for line in RULES.status(state):
        render(SCRIPT, line)
