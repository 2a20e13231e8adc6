"""Half-Chance's Rules: what each open question accepts, checking answers, and the status."""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any, Callable, Mapping

from narrator.events import Continue, Dice, GameInput, Line, Number, Word
from narrator.rules.base import (
    AcceptContinue, AcceptDice, AcceptNumber, AcceptWords, Expectation, Step, reject,
)
from narrator.rules.half_chance.cards import Deck, load_deck
from narrator.rules.half_chance.flow import NEEDED, Table, playable
from narrator.rules.half_chance.state import CUT_MAX, HAND, MAX_PLAYERS, Ask, State, distinct
from narrator.rules.options import OptionSet
from narrator.script.loader import find_script

COIN = {"heads": "plus", "tails": "minus", 1: "plus", 2: "minus"}
FLIP_ACCEPTS = (AcceptWords(("heads", "tails")), AcceptDice(2))
DRAW = "draw condition"
KEEP = "keep"
END_GAME = "end game"
#: the verb a card's name may follow, per question ("I play the Fog Wander")
VERBS = {"play": "play", "drawn": "drew", "discard": "discard", "heal": "lose",
         "swap": "discard", "trim": "discard"}
CARD_PROMPTS = {"discard": "ask.discard", "heal": "ask.heal", "swap": "ask.swap",
                "trim": "ask.trim", "drawn": "ask.drawn"}


def line(key: str, **params: Any) -> Line:
    """A Line with its fields as keywords."""
    return Line(key, params)


class HalfChance:
    """Half-Chance: a deck of instruction cards followed down by coin flips."""

    name = "half-chance"
    script = "half_chance"
    options = OptionSet()

    def __init__(self, deck: Deck | None = None) -> None:
        self._deck = deck

    @cached_property
    def deck(self) -> Deck:
        """The cards: given (tests), or every ``cards:`` list of the game's script folder."""
        return self._deck or load_deck(find_script(self.script))

    # ------------------------------------------------------------------ the interface

    def start(self, options: Mapping[str, Any]) -> Step:
        return Step(State(Ask("players")), (line("setup.welcome"),))

    def expects(self, state: State) -> Expectation:
        ask = state.ask
        player = ask.player
        if ask.what == "players":
            return Expectation(line("ask.players", most=MAX_PLAYERS),
                               (AcceptNumber(2, MAX_PLAYERS),))
        if ask.what == "deck":
            return Expectation(line("ask.deck"), (AcceptWords(("virtual", "physical")),))
        if ask.what == "cut":
            return Expectation(line("ask.cut", most=CUT_MAX),
                               (AcceptNumber(1, CUT_MAX), AcceptDice(CUT_MAX)))
        if ask.what == "flip":
            card = self.deck.card(state.top.card).title
            return Expectation(line("ask.flip", player=player, card=card), FLIP_ACCEPTS)
        if ask.what == "call":
            return Expectation(line("ask.call", player=player),
                               (AcceptNumber(1, state.players), AcceptWords((), ("player",))))
        if ask.what == "next":
            return Expectation(line("ask.next", player=player),
                               (AcceptContinue(), AcceptWords((END_GAME,))))
        if ask.what == "over":
            return Expectation(line("ask.over"), ())
        return Expectation(self._card_prompt(state), (AcceptWords(tuple(self._phrases(state))),))

    def apply(self, state: State, given: GameInput) -> Step:
        handler: Callable[[State, GameInput], Step] = getattr(self, f"_on_{state.ask.what}")
        return handler(state, given)

    def status(self, state: State) -> tuple[Line, ...]:
        if not state.conditions:
            return (line("status.setup"),)
        lines = [line("status.turn", player=state.turn)]
        for below, frame in zip((None,) + state.chain, state.chain):
            card = self.deck.card(frame.card)
            lines.append(line(f"status.{frame.purpose}" if below else "status.turn_card",
                              player=frame.player, caller=below.player if below else 0,
                              card=card.title, step=frame.pos + 1, steps=len(card.steps)))
        if state.ask.what in ("play", "drawn") and state.ask.purpose == "encounter":
            lines.append(line("status.choosing", caller=state.top.player, player=state.ask.player))
        for player in range(1, state.players + 1):
            owned = state.owned(player)
            key = ("status.dead" if player in state.dead else
                   "status.conditions" if owned else "status.no_conditions")
            lines.append(line(key, player=player, count=len(owned), cards=list(owned)))
        if not state.physical and state.ask.player:
            lines.append(line("status.hand", player=state.ask.player,
                              cards=list(state.hand(state.ask.player)) or ["nothing"]))
            lines.append(line("status.decks", deck=len(state.deck), discard=len(state.discard),
                              conditions=len(state.condition_deck)))
        return tuple(lines)

    # ------------------------------------------------------------------ card questions

    def _options(self, state: State) -> tuple[str, ...]:
        """The card names the open card question takes."""
        ask = state.ask
        if ask.what == "play" and state.physical:
            return self.deck.names(NEEDED[ask.purpose]) + distinct(state.owned(ask.player))
        if ask.what == "play":
            return playable(self.deck, state, ask.player, ask.purpose)
        if ask.what == "drawn":
            return self.deck.names("condition")
        if ask.what == "heal":
            return distinct(state.owned(ask.player))
        return distinct(state.hand(ask.player))

    def _phrases(self, state: State) -> dict[str, str]:
        """Each accepted phrase → the card it names ("play fog wander" → "Fog"), plus the
        question's own words (draw condition, keep)."""
        verb = VERBS[state.ask.what]
        out: dict[str, str] = {}
        for name in self._options(state):
            spoken, kind = name.lower(), self.deck.card(name).kind
            for phrase in (spoken, f"{spoken} {kind}", f"{verb} {spoken}", f"{verb} {spoken} {kind}"):
                out[phrase] = name
        if state.ask.what == "play" and state.physical and not state.owned(state.ask.player):
            out[DRAW] = DRAW
        if state.ask.what == "swap":
            out[KEEP] = KEEP
        return out

    def _card_prompt(self, state: State) -> Line:
        ask = state.ask
        cards = list(self._options(state))
        if ask.what in CARD_PROMPTS:
            return line(CARD_PROMPTS[ask.what], player=ask.player, cards=cards)
        kind = NEEDED[ask.purpose].capitalize()
        if not state.physical:
            own = self.deck.card(cards[0]).kind == "condition"
            return line("ask.play_condition" if own else "ask.play", player=ask.player,
                        kind=kind, cards=cards)
        owned = list(distinct(state.owned(ask.player)))
        return line("ask.play_physical_owned" if owned else "ask.play_physical",
                    player=ask.player, kind=kind, cards=owned)

    def _card_answer(self, state: State, given: GameInput) -> str | None:
        """The card (or word) a card question was answered with, or None."""
        if isinstance(given, Word) and given.number is None:
            return self._phrases(state).get(given.word)
        return None

    # ------------------------------------------------------------------ answers

    def _table(self, state: State, act: Callable[[Table], None]) -> Step:
        table = Table(self.deck, state)
        act(table)
        return Step(table.s, tuple(table.said))

    def _refuse_card(self, state: State) -> Step:
        names = [n for n in self._phrases(state) if n in (DRAW, KEEP)]
        return reject(state, "reject.card", cards=list(self._options(state)) + names)

    def _on_players(self, state: State, given: GameInput) -> Step:
        if not isinstance(given, Number):
            return reject(state, "reject.not_now")
        if not 2 <= given.value <= MAX_PLAYERS:
            return reject(state, "reject.players", most=MAX_PLAYERS)
        return Step(replace(state, ask=Ask("deck"), players=given.value))

    def _on_deck(self, state: State, given: GameInput) -> Step:
        word = given.word if isinstance(given, Word) else None
        if word == "physical":
            return self._table(state, Table.lay_out)
        if word != "virtual":
            return reject(state, "reject.not_now")
        size = len(self.deck.pile("wander", "encounter"))
        if size < HAND * state.players:
            return reject(state, "reject.deck_small", cards=size, players=state.players)
        return Step(replace(state, ask=Ask("cut")))

    def _on_cut(self, state: State, given: GameInput) -> Step:
        if isinstance(given, Dice) and len(given.faces) == 1:
            cut = given.faces[0]
        elif isinstance(given, Number):
            cut = given.value
        else:
            return reject(state, "reject.not_now")
        if not 1 <= cut <= CUT_MAX:
            return reject(state, "reject.cut", most=CUT_MAX)
        return self._table(state, lambda t: t.deal(cut))

    def _on_play(self, state: State, given: GameInput) -> Step:
        name, ask = self._card_answer(state, given), state.ask
        if name is None:
            return self._refuse_card(state)
        if name == DRAW:
            return Step(replace(state, ask=Ask("drawn", ask.player, ask.purpose)))
        return self._table(state, lambda t: t.play(ask.player, name, ask.purpose))

    def _on_drawn(self, state: State, given: GameInput) -> Step:
        name, ask = self._card_answer(state, given), state.ask
        if name is None:
            return self._refuse_card(state)
        return self._table(state, lambda t: t.acquire(ask.player, name, ask.purpose))

    def _on_flip(self, state: State, given: GameInput) -> Step:
        if isinstance(given, Word):
            flip = COIN.get(given.word)
        elif isinstance(given, Dice) and len(given.faces) == 1:
            flip = COIN.get(given.faces[0])
        else:
            flip = None
        if flip is None:
            return reject(state, "reject.coin")
        return self._table(state, lambda t: t.flip(flip))

    def _on_call(self, state: State, given: GameInput) -> Step:
        if isinstance(given, Number):
            player = given.value
        elif isinstance(given, Word) and given.word == "player" and given.number is not None:
            player = given.number
        else:
            return reject(state, "reject.which_player")
        caller = state.ask.player
        if not 1 <= player <= state.players:
            return reject(state, "reject.no_player", player=player, players=state.players)
        if player == caller:
            return reject(state, "reject.self", player=caller)
        if player in state.dead:
            return reject(state, "reject.dead", player=player)
        return self._table(state, lambda t: t.call(caller, player))

    def _on_discard(self, state: State, given: GameInput) -> Step:
        return self._then(state, given, Table.discard_card)

    def _on_heal(self, state: State, given: GameInput) -> Step:
        return self._then(state, given, Table.heal)

    def _then(self, state: State, given: GameInput, act: Callable[[Table, int, str], None]) -> Step:
        """A card chosen for an instruction's effect; then the instruction is done."""
        name = self._card_answer(state, given)
        if name is None:
            return self._refuse_card(state)

        def run(table: Table) -> None:
            act(table, state.ask.player, name)
            table.after_step()
        return self._table(state, run)

    def _on_swap(self, state: State, given: GameInput) -> Step:
        name = self._card_answer(state, given)
        if name is None:
            return self._refuse_card(state)
        if name == KEEP:
            return self._table(state, Table.resume)
        return self._table(state, lambda t: t.swap(state.ask.player, name))

    def _on_trim(self, state: State, given: GameInput) -> Step:
        name = self._card_answer(state, given)
        if name is None:
            return self._refuse_card(state)

        def run(table: Table) -> None:
            table.discard_card(state.ask.player, name)
            table.trim()
        return self._table(state, run)

    def _on_next(self, state: State, given: GameInput) -> Step:
        if isinstance(given, Continue):
            return self._table(state, lambda t: t.begin_turn(state.ask.player))
        if isinstance(given, Word) and given.word == END_GAME:
            return Step(replace(state, ask=Ask("over")), (line("game.ended"),))
        return reject(state, "reject.not_now")

    def _on_over(self, state: State, given: GameInput) -> Step:
        return reject(state, "reject.over")
