"""Half-Chance's Rules: its table of steps (each open question, what it accepts, what an answer
does; run by narrator/rules/flow.py) and the status."""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any, Callable, Mapping

from narrator.events import Continue, Dice, GameInput, Line, Number, Word
from narrator.rules.base import (
    AcceptContinue, AcceptDice, AcceptNumber, AcceptWords, Expectation, Step,
)
from narrator.rules.flow import ask, Flow, FlowRules, Out, push, Refused, Steps
from narrator.rules.half_chance.cards import Deck, DeckError, deck_diagnostics, load_deck
from narrator.rules.half_chance.table import NEEDED, Table, playable
from narrator.rules.half_chance.state import (
    CUT_MAX, HAND, MAX_PLAYERS, MAX_TURNS, ROUNDS, Ask, State, distinct,
)
from narrator.rules.options import OptionSet
from narrator.rules.why import with_whys
from narrator.script.model import Script

COIN = {"heads": "plus", "tails": "minus", 1: "plus", 2: "minus"}
FLIP_ACCEPTS = (AcceptWords(("heads", "tails")), AcceptDice(2, faces=("heads", "tails")))
DRAW = "draw condition"
KEEP = "keep"
END_GAME = "end game"
OPEN = "open"
#: the verb a card's name may follow, per question ("I play the Fog Wander")
VERBS = {"play": "play", "drawn": "drew", "discard": "discard", "heal": "lose",
         "swap": "discard", "trim": "discard"}
CARD_PROMPTS = {"discard": "ask.discard", "heal": "ask.heal", "swap": "ask.swap",
                "trim": "ask.trim", "drawn": "ask.drawn"}


def line(key: str, **params: Any) -> Line:
    """A Line with its fields as keywords."""
    return Line(key, params)


def callable_players(state: State, caller: int) -> tuple[AcceptNumber, ...]:
    """The players ``caller`` may call on, as runs of numbers: living, and not the caller."""
    legal = [p for p in state.alive() if p != caller]
    runs: list[list[int]] = []
    for p in legal:
        if runs and runs[-1][-1] == p - 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return tuple(AcceptNumber(run[0], run[-1]) for run in runs)


class HalfChance(FlowRules):
    """Half-Chance: a deck of instruction cards followed down by coin flips."""

    name = "half-chance"
    script = "half_chance"
    options = OptionSet()

    def __init__(self, script: Script | None = None) -> None:
        self._script = script

    def for_script(self, script: Script) -> HalfChance:
        """These rules playing ``script``'s deck (the registry binds them so). A deck with
        problems is refused here, before play starts: ``DeckError`` lists them, NS025 each
        with its file and line."""
        problems = deck_diagnostics(script, playing=True)
        if problems:
            raise DeckError("the game script has problems:\n" + "\n".join(map(str, problems)))
        return HalfChance(script)

    @cached_property
    def deck(self) -> Deck:
        """The cards of the script these rules were bound to (``DeckError`` if they are bad)."""
        if self._script is None:
            raise DeckError("Half-Chance has no deck until it is bound to its script "
                            "(registry.for_script)")
        return load_deck(self._script)

    # ------------------------------------------------------------------ the interface

    @cached_property
    def flow(self) -> Flow:
        """The table of steps: each question, what it accepts and what its answer does. A
        queued question is ``Ask(what, player, purpose)``; its functions get player, purpose."""
        steps = Steps()
        table = {
            "players": (lambda s, *_: ask("ask.players", AcceptNumber(2, MAX_PLAYERS),
                                          most=MAX_PLAYERS), self._on_players),
            "length": (lambda s, *_: ask("ask.length", AcceptWords((*ROUNDS, OPEN)),
                                         AcceptNumber(1, MAX_TURNS), **{
                                             w: r * s.players for w, r in ROUNDS.items()}),
                       self._on_length),
            "deck": (lambda s, *_: ask("ask.deck", AcceptWords(("virtual", "physical"))),
                     self._on_deck),
            "cut": (lambda s, *_: ask("ask.cut", AcceptNumber(1, CUT_MAX), AcceptDice(CUT_MAX),
                                      most=CUT_MAX), self._on_cut),
            "flip": (lambda s, player, _: ask("ask.flip", *FLIP_ACCEPTS, player=player,
                                              card=self.deck.card(s.top.card).title),
                     self._on_flip),
            "call": (lambda s, player, _: ask("ask.call", *callable_players(s, player),
                                              AcceptWords((), ("player",)), player=player),
                     self._on_call),
            "next": (lambda s, player, _: ask("ask.next", AcceptContinue(),
                                              AcceptWords((END_GAME,)), player=player),
                     self._on_next),
        }
        for what, answer in (("play", self._on_play), ("drawn", self._on_drawn),
                             ("discard", self._on_discard), ("heal", self._on_heal),
                             ("swap", self._on_swap), ("trim", self._on_trim)):
            table[what] = (self._card_question(what), self._card_step(what, answer))
        for what, (expect, answer) in table.items():
            steps.question(what, expect)(answer)
        with_whys(steps, lambda key: "why.play" if key == "ask.play" or key.startswith("ask.play_")
                  else f"why.{key.removeprefix('ask.')}")
        return Flow(steps, over=lambda state: line("ask.over"))

    def start(self, options: Mapping[str, Any]) -> Step:
        return self.flow.start(State((Ask("players"),)), line("setup.welcome"))

    def status(self, state: State) -> tuple[Line, ...]:
        if not state.conditions:
            return (line("status.setup"),)
        lines = [line("status.turn", player=state.turn)]
        if state.target:
            lines.append(line("status.progress", turn=state.turns, target=state.target))
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

    def _options(self, state: State, ask: Ask) -> tuple[str, ...]:
        """The card names the card question ``ask`` takes."""
        if ask.what == "play" and state.physical:
            return self.deck.names(NEEDED[ask.purpose]) + distinct(state.owned(ask.player))
        if ask.what == "play":
            return playable(self.deck, state, ask.player, ask.purpose)
        if ask.what == "drawn":
            return self.deck.names("condition")
        if ask.what == "heal":
            return distinct(state.owned(ask.player))
        return distinct(state.hand(ask.player))

    def _phrases(self, state: State, ask: Ask) -> dict[str, str]:
        """Each accepted phrase → the card it names ("play fog wander" → "Fog"), plus the
        question's own words (draw condition, keep)."""
        verb = VERBS[ask.what]
        out: dict[str, str] = {}
        for name in self._options(state, ask):
            spoken, kind = name.lower(), self.deck.card(name).kind
            for phrase in (spoken, f"{spoken} {kind}", f"{verb} {spoken}", f"{verb} {spoken} {kind}"):
                out[phrase] = name
        if ask.what == "play" and state.physical and not state.owned(ask.player):
            out[DRAW] = DRAW
        if ask.what == "swap":
            out[KEEP] = KEEP
        return out

    def _card_question(self, what: str) -> Callable[[State, int, str], Expectation]:
        def expect(state: State, player: int, purpose: str) -> Expectation:
            ask = Ask(what, player, purpose)
            return Expectation(self._card_prompt(state, ask),
                               (AcceptWords(tuple(self._phrases(state, ask))),))
        return expect

    def _card_step(self, what: str, answer: Callable[[State, Ask, str], Out]):
        """A card question's answer: ``answer`` gets the question and the card (or word) named."""
        def step(state: State, given: Word, player: int, purpose: str) -> Out:
            ask = Ask(what, player, purpose)
            return answer(state, ask, self._phrases(state, ask)[given.word])
        return step

    def _card_prompt(self, state: State, ask: Ask) -> Line:
        cards = list(self._options(state, ask))
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

    # ------------------------------------------------------------------ answers

    def _table(self, state: State, act: Callable[[Table], None]) -> Out:
        table = Table(self.deck, state)
        act(table)
        return table.s, tuple(table.said)

    def _on_players(self, state: State, given: Number, *_) -> Out:
        return push(replace(state, players=given.value), Ask("length")), ()

    def _on_length(self, state: State, given: Number | Word, *_) -> Out:
        """A target length: short, normal or long (rounds of turns), a number of turns, or open."""
        if isinstance(given, Number):
            target = given.value
        else:
            target = ROUNDS.get(given.word, 0) * state.players
        said = line("said.length", turns=target) if target else line("said.open")
        return push(replace(state, target=target), Ask("deck")), (said,)

    def _on_deck(self, state: State, given: Word, *_) -> Out:
        if given.word == "physical":
            return self._table(state, Table.lay_out)
        size = len(self.deck.pile("wander", "encounter"))
        if size < HAND * state.players:
            raise Refused("reject.deck_small", cards=size, players=state.players)
        return push(state, Ask("cut")), ()

    def _on_cut(self, state: State, given: Dice | Number, *_) -> Out:
        cut = given.faces[0] if isinstance(given, Dice) else given.value
        return self._table(state, lambda t: t.deal(cut))

    def _on_flip(self, state: State, given: Dice | Word, *_) -> Out:
        flip = COIN[given.faces[0] if isinstance(given, Dice) else given.word]
        rolled = isinstance(given, Dice) and given.by_app  # "It came up tails." said it
        return self._table(state, lambda t: t.flip(flip, say=not rolled))

    def _on_call(self, state: State, given: Number | Word, caller: int, _purpose: str) -> Out:
        player = given.value if isinstance(given, Number) else given.number
        if not 1 <= player <= state.players:
            raise Refused("reject.no_player", player=player, players=state.players)
        if player == caller:
            raise Refused("reject.self", player=caller)
        if player in state.dead:
            raise Refused("reject.dead", player=player)
        return self._table(state, lambda t: t.call(caller, player))

    def _on_next(self, state: State, given: GameInput, player: int, _purpose: str) -> Out:
        if isinstance(given, Continue):
            return self._table(state, lambda t: t.begin_turn(player))
        return state, (line("game.ended"),)   # "end game": nothing more is asked

    def _on_play(self, state: State, ask: Ask, name: str) -> Out:
        if name == DRAW:
            return push(state, Ask("drawn", ask.player, ask.purpose)), ()
        return self._table(state, lambda t: t.play(ask.player, name, ask.purpose))

    def _on_drawn(self, state: State, ask: Ask, name: str) -> Out:
        return self._table(state, lambda t: t.acquire(ask.player, name, ask.purpose))

    def _on_discard(self, state: State, ask: Ask, name: str) -> Out:
        return self._then(state, ask, name, Table.discard_card)

    def _on_heal(self, state: State, ask: Ask, name: str) -> Out:
        return self._then(state, ask, name, Table.heal)

    def _then(self, state: State, ask: Ask, name: str,
              act: Callable[[Table, int, str], None]) -> Out:
        """A card chosen for an instruction's effect; then the instruction is done."""
        def run(table: Table) -> None:
            act(table, ask.player, name)
            table.after_step()
        return self._table(state, run)

    def _on_swap(self, state: State, ask: Ask, name: str) -> Out:
        if name == KEEP:
            return self._table(state, Table.resume)
        return self._table(state, lambda t: t.swap(ask.player, name))

    def _on_trim(self, state: State, ask: Ask, name: str) -> Out:
        def run(table: Table) -> None:
            table.discard_card(ask.player, name)
            table.trim()
        return self._table(state, run)
