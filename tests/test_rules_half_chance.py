"""Half-Chance: the card checks and every rule of the text, each test named after its rule.

Rules are quoted by the paragraph of ../shared/games/half-chance.txt they come from ("On a
player's turn", "After completing each instruction", ...). Most tests set the table up directly
(hands, Conditions, decks) so no shuffle decides what they check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from narrator.events import Continue, Dice, Number, Text, Word
from narrator.rules.base import AcceptDice, AcceptNumber, AcceptWords
from narrator.rules import registry
from narrator.rules.half_chance import HalfChance, lint_cards
from narrator.rules.half_chance.cards import DeckError, load_deck, read_deck
from narrator.rules.half_chance.state import Ask, State
from narrator.script.loader import load_script
from narrator.script.model import Prompt, Script, Where
from narrator.script.render import render
from narrator.understand import describe, understand

FOLDER = Path(__file__).resolve().parents[1] / "scripts" / "half_chance"
RULES = registry.for_script(load_script(FOLDER))[0].rules
DECK = RULES.deck
MAIN_CARDS = Counter(DECK.pile("wander", "encounter"))
ALL_CONDITIONS = Counter(DECK.pile("condition"))


def _script() -> Script:
    data = yaml.safe_load((FOLDER / "game.yaml").read_text())
    prompts = {k: Prompt(k, v, Where("game.yaml", 0)) for k, v in data["prompts"].items()}
    return Script(game="half-chance", title="Half-Chance", folder=FOLDER, prompts=prompts)


SCRIPT = _script()


def text(say) -> str:
    return " ".join(s.text for s in render(SCRIPT, say))


def table(hands, conditions=None, deck=("Stranger",) * 10, condition_deck=("Wounded",) * 6):
    """A virtual table about to start player 1's turn."""
    n = len(hands)
    return State((Ask("next", 1),), players=n, hands=tuple(tuple(h) for h in hands),
                 conditions=tuple(tuple(c) for c in (conditions or [()] * n)), deck=tuple(deck),
                 condition_deck=tuple(condition_deck), cut=1)


def play(state, *inputs):
    """Apply inputs in order (each must be accepted); the final state and every sentence said."""
    said = []
    for given in inputs:
        step = RULES.apply(state, given)
        assert step.rejected is None, f"{given} refused: {text(step.rejected)}"
        said += [text(s) for s in step.say]
        state = step.state
    return state, said


def prompt(state) -> str:
    return text(RULES.expects(state).prompt)


HEADS, TAILS = Word("heads"), Word("tails")


# --------------------------------------------------------------------------- the card checks


def write(tmp_path, body: str) -> Path:
    """``body`` as the cards.yaml of a script folder (with a game.yaml naming it)."""
    (tmp_path / "game.yaml").write_text("game: x\ntitle: X\n")
    path = tmp_path / "cards.yaml"
    path.write_text(body)
    return path


def lint(path: Path) -> list[str]:
    """The card problems of the script in ``path`` (a folder, or a file of it)."""
    return lint_cards(load_script(path if path.is_dir() else path.parent))


BASE = """cards:
  - name: Walk
    kind: wander
    steps:
      - either: Go.
      - either: Stop. END CARD
  - name: Meet
    kind: encounter
    steps:
      - either: Talk. END CARD
  - name: Ache
    kind: condition
    steps:
      - either: Hurt. END CARD
"""


def test_card_check_passes_the_starter_deck():
    assert lint(FOLDER) == []
    assert {c.kind for c in DECK.cards} == {"wander", "encounter", "condition"}


def test_card_check_finds_a_card_with_no_end_card(tmp_path):
    path = write(tmp_path, BASE + """  - name: Drift
    kind: wander
    steps:
      - either: Float.
      - either: Float more.
""")
    problems = lint(path)
    assert any(p.startswith(f"{path}:15:") and "Drift has no END CARD" in p for p in problems)


def test_card_check_finds_an_instruction_no_flip_can_reach(tmp_path):
    path = write(tmp_path, BASE + """  - name: Cliff
    kind: wander
    steps:
      - either: Look down.
      - either: Jump. END CARD
      - plus: Never read.
""")
    assert [p for p in lint(path) if "reach" in p] == [
        f"{path}:20: card Cliff: no flip can reach this instruction"]


def test_card_check_finds_a_flip_that_falls_off_the_card(tmp_path):
    path = write(tmp_path, BASE + """  - name: Ledge
    kind: wander
    steps:
      - either: Edge along.
      - plus: Safe. END CARD
""")
    assert any(p.startswith(f"{path}:18:") and "a minus flip finds nothing below" in p
               for p in lint(path))


@pytest.mark.parametrize("step, line, fragment", [
    ("- sideways: Odd.", 18, "an instruction is one of plus, minus, either"),
    ("- either: Odd. END CARD\n        then: teleport", 19, "then should be one of"),
    ("- either: END CARD first, then words", 18, "END CARD must close"),
])
def test_card_check_names_a_malformed_instruction_with_its_line(tmp_path, step, line, fragment):
    path = write(tmp_path, BASE + f"""  - name: Odd
    kind: wander
    steps:
      {step}
""")
    assert any(p.startswith(f"{path}:{line}:") and fragment in p for p in lint(path))


def test_card_check_refuses_a_name_the_listener_cannot_hear(tmp_path):
    path = write(tmp_path, BASE.replace("name: Walk", "name: The Walk"))
    assert any("drops or changes the word 'the'" in p for p in lint(path))


def test_a_table_adds_its_own_cards_in_another_file_of_the_folder(tmp_path):
    (tmp_path / "game.yaml").write_text("game: x\ntitle: X\n")
    write(tmp_path, BASE)
    (tmp_path / "ours.yaml").write_text(BASE.replace("Walk", "Stroll").replace("Meet", "Greet")
                                        .replace("Ache", "Itch"))
    deck, problems = read_deck(load_script(tmp_path))
    assert problems == []
    assert set(deck.names("wander")) == {"Walk", "Stroll"}


def test_card_check_is_silent_on_a_folder_without_cards_but_the_game_needs_some(tmp_path):
    (tmp_path / "game.yaml").write_text("game: x\ntitle: X\n")
    assert lint(tmp_path) == []
    with pytest.raises(DeckError, match="no cards"):
        load_deck(load_script(tmp_path))


# --------------------------------------------------------------------------- setting up


def test_virtual_deck_is_refused_when_too_small_to_deal_five_each(tmp_path):
    rules = HalfChance(load_script(write(tmp_path, BASE).parent))
    state = play(rules.start({}).state, Number(2), Word("open"))[0]
    step = rules.apply(state, Word("virtual"))
    assert step.state == state and "too few to deal five to 2 players" in text(step.rejected)
    assert rules.apply(state, Word("physical")).rejected is None


def test_setup_asks_players_then_deck_then_a_cut_and_deals_five_each():
    state = RULES.start({}).state
    assert RULES.expects(state).accepts == (AcceptNumber(2, 6),)
    state, _ = play(state, Number(4), Word("normal"))
    assert state.target == 24  # six rounds of four turns
    assert RULES.expects(state).accepts == (AcceptWords(("virtual", "physical")),)
    state, _ = play(state, Word("virtual"))
    assert AcceptDice(99) in RULES.expects(state).accepts   # "roll for me" cuts the deck
    state, said = play(state, Dice((42,), by_app=True))
    assert [len(h) for h in state.hands] == [5, 5, 5, 5]
    assert Counter(state.deck) + sum(map(Counter, state.hands), Counter()) == MAIN_CARDS
    assert Counter(state.condition_deck) == ALL_CONDITIONS
    assert said[1] == "Player 1, your turn."


def test_virtual_shuffle_is_fixed_by_the_cut_and_differs_between_cuts():
    def deal(cut):
        return play(RULES.start({}).state, Number(3), Word("open"), Word("virtual"), Number(cut))[0]
    assert deal(7).hands == deal(7).hands
    assert len({deal(c).hands for c in range(1, 11)}) == 10


# --------------------------------------------------------------------------- the worked example


def test_worked_example_fog_wander_heads_tails_tails_encounter_then_end_card():
    """The text's walk-through: heads, tails, tails slides to the final instruction; the called
    player's Encounter plays out; control returns; END CARD ends the turn."""
    state = table([["Fog", "Stranger"], ["Beast", "Shaken"], ["Trap"]])
    state, said = play(state, Continue())
    assert said[-2:] == ["Player 1 plays the Fog Wander.",
                         DECK.card("Fog").steps[0].text]
    state, said = play(state, HEADS)
    assert said == ["Heads.", "Voices carry through the haze. Describe them, and ask another "
                              "player who is talking."]
    state, said = play(state, TAILS)
    assert "whatever the other player pictured, make it worse" in said[-1]
    state, said = play(state, TAILS)   # passes the plus instruction: it is lost
    assert said[-1] == ("Things turn much, much worse. Say how, then choose a player to play "
                        "an Encounter.")
    assert prompt(state) == "Player 1, who plays an Encounter? Say their player number."
    state, said = play(state, Number(2))
    assert said == ["Player 1 calls on player 2 for an Encounter.",
                    "Player 2 plays the Beast Encounter.", DECK.card("Beast").steps[0].text]
    assert [f.player for f in state.chain] == [1, 2]
    state, said = play(state, HEADS, HEADS)
    assert said[-6:] == ["Describe how the creature leaves.", "That ends the Beast Encounter.",
                         "Back to player 1, where they left the Fog Wander.",
                         "That ends the Fog Wander.", "Player 1's turn is over.",
                         "Player 1 draws 4 from the deck."]
    assert state.chain == () and state.ask == Ask("next", 2)


# --------------------------------------------------------------------------- a turn


def test_on_a_players_turn_he_plays_a_wander_from_his_hand():
    state, said = play(table([["Beast", "Storm", "Fog"], ["Trap"]]), Continue())
    assert prompt(state) == "Player 1, your Wander cards are Storm and Fog. Which do you play?"
    state, said = play(state, Word("play storm wander"))
    assert said[0] == "Player 1 plays the Storm Wander."
    assert state.hand(1) == ("Beast", "Fog") and state.played == ("Storm",)


def test_on_a_players_turn_without_a_wander_he_plays_a_condition_he_owns():
    state, said = play(table([["Beast"], ["Trap"]], conditions=[["Lost"], []]), Continue())
    assert said[1:3] == ["Player 1 holds no Wander.", "Player 1 plays the Lost Condition."]
    assert state.owned(1) == ("Lost",) and state.hand(1) == ("Beast",)


def test_on_a_players_turn_without_wander_or_condition_he_draws_a_condition():
    state, said = play(table([["Beast"], ["Trap"]], condition_deck=["Hungry", "Lost"]),
                       Continue())
    assert said[1:3] == ["Player 1 holds no Wander.", "Player 1 takes the Hungry Condition."]
    assert state.owned(1) == ("Hungry",) and state.condition_deck == ("Lost",)
    assert state.top.card == "Hungry"


def test_after_each_instruction_flip_and_move_down_never_up_passed_ones_lost():
    state, _ = play(table([["Fog"], ["Trap"]]), Continue())
    state, _ = play(state, TAILS)
    assert state.top.pos == 2                 # instruction 1 (plus) was passed
    state, _ = play(state, HEADS)
    assert state.top.pos == 3                 # the next plus below, never back up to 1


def test_flip_for_me_reads_die_face_one_as_heads_and_two_as_tails():
    state, _ = play(table([["Fog"], ["Trap"]]), Continue())
    assert any(isinstance(a, AcceptDice) and a.sides == 2 for a in RULES.expects(state).accepts)
    assert play(state, Dice((1,), by_app=True))[0].top.pos == 1
    assert play(state, Dice((2,), by_app=True))[0].top.pos == 2
    refused = RULES.apply(state, Dice((3,)))
    assert refused.state == state and "one is heads and two is tails" in text(refused.rejected)
    assert refused.rejected.key == "reject.face"


def test_a_flip_is_said_once_the_apps_own_flip_by_the_session():
    """The session says the app's own flip ("It came up tails."); the rules said it again
    ("Tails."), twice in a row. They say a flip the table made, and not the app's."""
    state, _ = play(table([["Fog"], ["Trap"]]), Continue())
    assert play(state, TAILS)[1][0] == "Tails."
    assert play(state, Dice((2,)))[1][0] == "Tails."
    assert not any(s in ("Heads.", "Tails.") for s in play(state, Dice((2,), by_app=True))[1])


def test_spoken_heads_and_tails_are_understood_at_a_flip():
    state, _ = play(table([["Fog"], ["Trap"]]), Continue())
    expectation = RULES.expects(state)
    assert understand("heads", expectation) == HEADS
    assert understand("tails", expectation) == TAILS


def test_a_coins_face_said_as_a_number_is_its_name():
    """Whisper weighs "one" and "two" at a flip (the faces of the 2-sided die the question
    takes), and wrote a player's "heads" as "one": it was read back "I heard 1. Right?", which
    the player, who said heads, refused. One is heads: it is understood, and read back, so."""
    state, _ = play(table([["Fog"], ["Trap"]]), Continue())
    expectation = RULES.expects(state)
    assert understand("one", expectation) == HEADS and understand("2", expectation) == TAILS
    assert "1 is heads, 2 is tails" in " ".join(describe(expectation))


# --------------------------------------------------------------------------- the caller chain


def test_called_player_returns_control_to_the_caller_at_any_depth():
    """Encounters can call Encounters: control bubbles back down the chain."""
    state, _ = play(table([["Crossroads"], ["Chase"], ["Trap"]]), Continue(), TAILS, TAILS)
    state, _ = play(state, Number(2), TAILS)          # Chase: "choose a player..."
    state, said = play(state, Number(3))
    assert [(f.player, f.card) for f in state.chain] == [(1, "Crossroads"), (2, "Chase"),
                                                         (3, "Trap")]
    state, said = play(state, HEADS)                 # Trap ends at once
    assert said[-2:] == ["That ends the Trap Encounter.",
                         "Back to player 2, where they left the Chase Encounter."]
    state, said = play(state, HEADS, HEADS)          # Chase: hide, then get away
    assert said[-2:] == ["That ends the Chase Encounter.",
                         "Back to player 1, where they left the Crossroads Wander."]
    assert [f.player for f in state.chain] == [1] and state.ask == Ask("flip", 1)


def test_called_player_without_an_encounter_plays_a_condition_he_owns():
    state, _ = play(table([["Crossroads"], ["Fog"], ["Trap"]], conditions=[[], ["Hungry"], []]),
                    Continue(), TAILS, TAILS)
    state, said = play(state, Number(2))
    assert said[1:3] == ["Player 2 holds no Encounter.", "Player 2 plays the Hungry Condition."]


def test_called_player_without_encounter_or_condition_draws_a_condition():
    state, _ = play(table([["Crossroads"], ["Fog"], ["Trap"]], condition_deck=["Lost"]),
                    Continue(), TAILS, TAILS)
    state, said = play(state, Number(2))
    assert "Player 2 takes the Lost Condition." in said
    assert state.owned(2) == ("Lost",) and state.top == replace(state.top, player=2, card="Lost")


def test_injured_draws_a_condition_to_follow_then_returns_to_the_card():
    state, _ = play(table([["Storm", "Beast"], ["Trap"]], condition_deck=["Wounded"]),
                    Continue())
    state, said = play(state, TAILS)                 # Storm: lightning, injured
    assert said[-3:-1] == ["Player 1 is injured and draws a Condition.",
                           "Player 1 takes the Wounded Condition."]
    assert [(f.card, f.purpose) for f in state.chain] == [("Storm", "turn"), ("Wounded", "injury")]
    state, said = play(state, TAILS, TAILS)          # Wounded ends: "you push on anyway"
    state, said = play(state, Word("keep"))
    assert said == ["Back to player 1, where they left the Storm Wander."]
    assert state.ask == Ask("flip", 1) and state.top.card == "Storm"


def test_after_playing_a_condition_the_player_may_discard_one_card_and_draw_one():
    state, _ = play(table([["Storm", "Beast"], ["Trap"]], deck=["Duel"],
                          condition_deck=["Wounded"]), Continue(), TAILS, TAILS, TAILS)
    assert prompt(state).startswith("Player 1, after a Condition you may swap a card.")
    swapped, said = play(state, Word("discard beast"))
    assert swapped.hand(1) == ("Duel",) and swapped.discard == ("Beast",)
    kept, _ = play(state, Word("keep"))
    assert kept.hand(1) == ("Beast",)


def test_conditions_are_kept_until_an_instruction_says_lose_one():
    state, _ = play(table([["Beast"], ["Trap"]], conditions=[["Shaken", "Lost"], []]),
                    Continue(), Word("shaken"), HEADS)   # Shaken: "Lose a Condition"
    assert prompt(state) == "Player 1, your Conditions are Shaken and Lost. Which do you lose?"
    state, said = play(state, Word("lose lost"))
    assert said[0] == "Player 1 is rid of the Lost Condition."
    assert state.owned(1) == ("Shaken",) and state.condition_discard == ("Lost",)


# --------------------------------------------------------------------------- the end of a turn


def test_end_of_turn_draws_back_to_five_counting_conditions():
    """"A player with 2 Conditions can only draw up to three cards for his hand.\""""
    state = table([["Crossroads"], ["Trap", "Beast"]], conditions=[["Lost", "Hungry"], []])
    state, said = play(state, Continue(), HEADS, HEADS)
    assert "Player 1 draws 3 from the deck." in said
    assert len(state.hand(1)) == 3 and len(state.hand(2)) == 2   # only the turn's player draws


def test_end_of_turn_puts_the_wander_and_played_encounters_on_the_discard_pile():
    state, _ = play(table([["Crossroads"], ["Trap"], ["Beast"]]), Continue(), TAILS, TAILS,
                    Number(2), HEADS, HEADS)
    assert Counter(state.discard) == Counter({"Crossroads": 1, "Trap": 1})
    assert state.played == ()


def test_five_conditions_kill_the_player_and_play_passes_to_the_living():
    state = table([["Storm", "Beast"], ["Trap"], ["Duel"]],
                  conditions=[["Lost", "Lost", "Hungry", "Haunted"], [], []],
                  condition_deck=["Wounded"])
    state, said = play(state, Continue(), TAILS)
    assert said[-3:] == ["Player 1 takes the Wounded Condition.",
                         "That is player 1's fifth Condition. Player 1 is dead.",
                         "Player 1's turn is over."]
    assert state.dead == (1,) and state.hand(1) == () and state.ask == Ask("next", 2)
    assert Counter(state.discard) == Counter({"Storm": 1, "Beast": 1})


def test_the_game_ends_when_one_player_is_left_alive():
    state = table([["Storm"], ["Trap"]], conditions=[["Lost"] * 4, []], condition_deck=["Wounded"])
    state, said = play(state, Continue(), TAILS)
    assert said[-1] == "Player 2 is the only one left alive. The game is over."
    assert RULES.expects(state).over


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("given, reason", [
    (Number(1), "1 is not a choice here: say a number from 2 to 3."),
    (Number(4), "4 is not a choice here: say a number from 2 to 3."),
    (Word("player", 1), "Player 1 must choose another player."),
    (Word("player", 5), "There is no player 5. Players are numbered 1 to 4."),
    (Word("player", 4), "Player 4 is dead and cannot play."),
    (HEADS, "heads is not one of the choices now."),
])
def test_choosing_a_player_for_an_encounter_refuses_illegal_choices(given, reason):
    state, _ = play(table([["Crossroads"], ["Trap"], ["Beast"], ["Duel"]]), Continue(), TAILS,
                    TAILS)
    state = replace(state, dead=(4,))
    step = RULES.apply(state, given)
    assert step.state == state and text(step.rejected) == reason


def test_only_players_who_can_be_called_are_offered_by_number():
    state, _ = play(table([["Duel"], ["Crossroads"], ["Trap"], ["Beast"]]), Continue())
    state = replace(state, dead=(4,), todo=(Ask("call", 2),))
    assert [(a.min, a.max) for a in RULES.expects(state).accepts
            if isinstance(a, AcceptNumber)] == [(1, 1), (3, 3)]


def test_a_card_not_in_hand_is_refused_with_the_choices():
    state, _ = play(table([["Storm", "Fog"], ["Trap"]]), Continue())
    step = RULES.apply(state, Word("ruins"))
    assert step.state == state
    assert text(step.rejected) == "ruins is not one of the choices now."
    assert "Storm and Fog" in text(RULES.expects(state).prompt)  # asked again with the choices
    assert RULES.apply(state, Text("Storm")).state == state


# --------------------------------------------------------------------------- physical cards


def test_physical_cards_i_play_the_fog_wander_reads_that_card():
    state, _ = play(RULES.start({}).state, Number(3), Word("open"), Word("physical"))
    heard = understand("I play the Fog Wander", RULES.expects(state))
    assert heard == Word("play fog wander")
    state, said = play(state, heard)
    assert said == ["Player 1 plays the Fog Wander.", DECK.card("Fog").steps[0].text]


def test_physical_cards_a_drawn_condition_is_named_and_kept():
    state, _ = play(RULES.start({}).state, Number(2), Word("open"), Word("physical"),
                    Word("draw condition"))
    assert prompt(state) == "Player 1, draw a Condition and tell me its name."
    state, said = play(state, understand("I drew the Lost Condition", RULES.expects(state)))
    assert state.owned(1) == ("Lost",) and said[1] == DECK.card("Lost").steps[0].text


# --------------------------------------------------------------------------- status


def test_status_says_whose_turn_the_caller_chain_each_players_conditions_and_the_hand():
    state, _ = play(table([["Crossroads", "Duel"], ["Chase"], ["Trap"]],
                          conditions=[[], ["Hungry"], []]), Continue(), TAILS, TAILS, Number(2))
    assert [text(line) for line in RULES.status(state)] == [
        "It is player 1's turn.",
        "Player 1 is on the Crossroads Wander, instruction 4 of 5.",
        "Player 1 called player 2, who is on the Chase Encounter, instruction 1 of 5.",
        "Player 1 has no Conditions.",
        "Player 2 has 1 of five Conditions: Hungry.",
        "Player 3 has no Conditions.",
        "Player 2 holds nothing.",
        "10 cards left in the deck, 0 on the discard pile, 6 Conditions to draw.",
    ]


# --------------------------------------------------------------------------- random play


@st.composite
def games(draw):
    """A virtual game played by random legal-looking answers (never "end game") until it ends
    or 300 inputs were given; every state it passed through."""
    state = play(RULES.start({}).state, Number(draw(st.integers(2, 6))), Word("open"), Word("virtual"),
                 Number(draw(st.integers(1, 99))))[0]
    states = [state]
    for _ in range(300):
        expectation = RULES.expects(state)
        if expectation.over:
            break
        accepts = [a for a in expectation.accepts if a != AcceptWords(("end game",))]
        accept = accepts[draw(st.integers(0, len(accepts) - 1))]
        if isinstance(accept, AcceptWords) and accept.words:
            given = Word(accept.words[draw(st.integers(0, len(accept.words) - 1))])
        elif isinstance(accept, AcceptWords):
            given = Word("player", draw(st.integers(1, state.players)))
        elif isinstance(accept, AcceptNumber):
            given = Number(draw(st.integers(accept.min, accept.max)))
        elif isinstance(accept, AcceptDice):
            given = Dice((draw(st.integers(1, accept.sides)),))
        else:
            given = Continue()
        step = RULES.apply(state, given)
        if step.rejected is not None:
            assert step.state == state, "a refused input changed the state"
            text(step.rejected)
            continue
        for say in step.say:
            text(say)   # every Line has its prompt and fields
        state = step.state
        states.append(state)
    return states


@pytest.mark.slow   # fuzzing: 25 random games
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_play_keeps_the_rules_invariants(states):
    for before, state in zip(states, states[1:]):
        if state.chain:   # the caller chain always starts at the turn's player
            assert state.chain[0].player == state.turn and state.chain[0].purpose == "turn"
        if state.ask.what in ("next", "over"):   # after a turn
            assert state.chain == ()   # the chain has unwound to the turn's player and closed
            for p in state.alive():
                assert len(state.hand(p)) + len(state.owned(p)) <= 5
        if before.turn == state.turn:   # a card's position never moves up
            for old, new in zip(before.chain, state.chain):
                if (old.player, old.card, old.purpose) == (new.player, new.card, new.purpose):
                    assert new.pos >= old.pos
        cards = (Counter(state.deck) + Counter(state.discard) + Counter(state.played)
                 + sum(map(Counter, state.hands), Counter()))
        conditions = (Counter(state.condition_deck) + Counter(state.condition_discard)
                      + sum(map(Counter, state.conditions), Counter()))
        assert cards == MAIN_CARDS and conditions == ALL_CONDITIONS   # none lost or copied
        for p in state.dead:
            assert len(state.owned(p)) == 5 and state.hand(p) == ()


# --------------------------------------------------------------------------- a game's length


def test_the_table_is_offered_a_target_length_short_normal_long_a_number_or_open():
    state, _ = play(RULES.start({}).state, Number(4))
    assert prompt(state).startswith("How long a game? Say short, about 12 turns; normal, about 24")
    for answer, target in ((Word("short"), 12), (Word("long"), 40), (Number(30), 30),
                           (Word("open"), 0)):
        assert play(state, answer)[0].target == target
    assert play(state, Number(30))[1] == [
        "A game of 30 turns. I will say how many are left as each round begins."]


def test_progress_is_said_as_each_round_begins_and_before_the_last_turn():
    hands = [["Fog", "Stranger"], ["Beast", "Shaken"]]
    start = replace(table(hands), target=10, turns=2)  # two players: turn 3 begins round 2
    assert play(start, Continue())[1][:2] == ["About 8 turns left.", "Player 1, your turn."]
    quiet = replace(table(hands), target=10, turns=3)  # mid-round: nothing said
    assert play(quiet, Continue())[1][0] == "Player 1, your turn."
    last = replace(table(hands), target=10, turns=9)
    assert play(last, Continue())[1][:2] == ["The last turn.", "Player 1, your turn."]


def test_the_game_ends_when_the_target_length_is_reached():
    state = replace(table([["Fog", "Stranger"], ["Beast", "Shaken"], ["Trap"]]), target=1)
    state, said = play(state, Continue(), HEADS, TAILS, TAILS, Number(2), HEADS, HEADS)
    for _ in range(40):  # play on with heads until the turn ends
        if RULES.expects(state).over:
            break
        state, said = play(state, HEADS if AcceptWords(("heads", "tails")) in
                           RULES.expects(state).accepts else Continue())
    assert RULES.expects(state).over
    assert "That was turn 1, the length you chose. The game is over." in said
    assert [text(line) for line in RULES.status(state)][1] == "This is turn 1 of 1."


# --------------------------------------------------------------------------- a broken deck


def test_a_broken_deck_is_refused_before_play_starts_by_play_and_check(tmp_path):
    """A table sees every problem, NS025 at its file and line, and no question is asked."""
    from typer.testing import CliRunner
    from narrator.cli import app
    folder = tmp_path / "mine"
    folder.mkdir()
    for name in ("game.yaml", "cards.yaml"):
        (folder / name).write_text((FOLDER / name).read_text())
    with (folder / "cards.yaml").open("a") as cards:
        cards.write("  - name: Broken\n    kind: wander\n    copies: nope\n")
    line = len((folder / "cards.yaml").read_text().splitlines()) - 2
    runner = CliRunner()
    played = runner.invoke(app, ["play", str(folder), "--input", "text",
                                 "--save-dir", str(tmp_path / "saves")], input="2\nvirtual\n")
    checked = runner.invoke(app, ["check", str(folder)])
    for result in (played, checked):
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert f"cards.yaml:{line}: NS025 card Broken: copies should be a whole number" in (
            result.output)
    assert "How many players" not in played.output
