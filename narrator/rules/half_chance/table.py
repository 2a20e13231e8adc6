"""How play moves: turns, cards followed down by coin flips, the caller chain, the decks.

A ``Table`` wraps one ``apply``: it starts from a state, changes its own copy step by step and
collects what is said. Every method leaves the state waiting on a question (``state.todo``), or
with none when the game is over.
"""

from __future__ import annotations

from dataclasses import replace

from narrator.events import Line
from narrator.rules.half_chance.cards import Card, Deck
from narrator.rules.half_chance.state import (
    DEADLY, HAND, Ask, Frame, State, distinct, replaced, shuffled, without,
)

#: the card kind each purpose asks for first
NEEDED = {"turn": "wander", "encounter": "encounter"}


def playable(deck: Deck, state: State, player: int, purpose: str) -> tuple[str, ...]:
    """Virtual deck: the cards ``player`` may choose from now: the needed kind in hand, else
    their Conditions (empty: they must draw a Condition)."""
    needed = NEEDED[purpose]
    in_hand = distinct(tuple(n for n in state.hand(player) if deck.card(n).kind == needed))
    return in_hand or distinct(state.owned(player))


class Table:
    """One apply's worth of play: the state as it changes and the lines said."""

    def __init__(self, deck: Deck, state: State) -> None:
        self.deck = deck
        self.s = state
        self.said: list[Line] = []

    # ------------------------------------------------------------------ small helpers

    def say(self, key: str, **params) -> None:
        self.said.append(Line(key, params))

    def set(self, **changes) -> None:
        self.s = replace(self.s, **changes)

    def question(self, what: str, player: int = 0, purpose: str = "") -> None:
        self.set(todo=(Ask(what, player, purpose),))

    def card(self, name: str) -> Card:
        return self.deck.card(name)

    def title(self, name: str) -> str:
        return self.card(name).title

    # ------------------------------------------------------------------ setting up

    def deal(self, cut: int) -> None:
        """Virtual deck: shuffle both piles by the cut and deal five cards to each player."""
        n = self.s.players
        main = shuffled(self.deck.pile("wander", "encounter"), cut, "main", 0)
        conditions = shuffled(self.deck.pile("condition"), cut, "conditions", 0)
        self.set(cut=cut, hands=tuple(main[p:n * HAND:n] for p in range(n)),
                 deck=main[n * HAND:], condition_deck=conditions, conditions=((),) * n)
        self.say("setup.dealt", players=n)
        self.begin_turn(1)

    def lay_out(self) -> None:
        """Physical cards: the table deals; the app tracks Conditions and the chain."""
        self.set(physical=True, conditions=((),) * self.s.players)
        self.say("setup.physical")
        self.begin_turn(1)

    # ------------------------------------------------------------------ choosing a card

    def begin_turn(self, player: int) -> None:
        self.set(turn=player, played=(), turns=self.s.turns + 1)
        self.progress()
        self.say("turn.begins", player=player)
        self.play_for(player, "turn")

    def progress(self) -> None:
        """With a target length: the turns left, said as each round begins, and the last turn."""
        left = self.s.target - self.s.turns + 1  # counting this one
        if not self.s.target or left < 1:
            return
        if left == 1:
            self.say("progress.last")
        elif self.s.turns > 1 and (self.s.turns - 1) % len(self.s.alive()) == 0:
            self.say("progress.left", turns=left)

    def play_for(self, player: int, purpose: str) -> None:
        """Play a Wander (turn) or an Encounter, else an owned Condition, else draw one."""
        if self.s.physical:
            self.question("play", player, purpose)
            return
        options = playable(self.deck, self.s, player, purpose)
        if not options or self.card(options[0]).kind == "condition":
            self.say("play.none", player=player, kind=NEEDED[purpose].capitalize())
        if len(options) == 1:
            self.play(player, options[0], purpose)
        elif options:
            self.question("play", player, purpose)
        else:
            self.draw_condition(player, purpose)

    def play(self, player: int, name: str, purpose: str) -> None:
        """Play ``name``: from the hand, or a Condition the player owns."""
        if self.card(name).kind != "condition":
            if not self.s.physical:
                self.set(hands=replaced(self.s.hands, player, without(self.s.hand(player), name)))
            self.set(played=self.s.played + (name,))
        self.say("play.card", player=player, card=self.title(name))
        self.push(player, name, purpose)

    def draw_condition(self, player: int, purpose: str) -> None:
        """Draw a Condition (the table names it with physical cards) and follow it."""
        if self.s.physical:
            self.question("drawn", player, purpose)
            return
        name = self.take("condition_deck", "condition_discard", "Condition")
        if name is None:
            self.say("deck.no_conditions")
            self.resume()
        else:
            self.acquire(player, name, purpose)

    def acquire(self, player: int, name: str, purpose: str) -> None:
        """``player`` gains the Condition ``name`` and follows it, unless it is their fifth."""
        owned = self.s.owned(player) + (name,)
        self.set(conditions=replaced(self.s.conditions, player, owned))
        self.say("condition.drawn", player=player, card=self.title(name))
        if len(owned) < DEADLY:
            self.push(player, name, purpose)
            return
        self.set(dead=self.s.dead + (player,), discard=self.s.discard + self.s.hand(player))
        if not self.s.physical:
            self.set(hands=replaced(self.s.hands, player, ()))
        self.say("player.dead", player=player)
        self.resume()

    # ------------------------------------------------------------------ following a card

    def push(self, player: int, name: str, purpose: str) -> None:
        self.set(chain=self.s.chain + (Frame(player, name, purpose),))
        self.enter()

    def enter(self) -> None:
        """Read the instruction the top card is on and carry out its effect."""
        frame = self.s.top
        step = self.card(frame.card).steps[frame.pos]
        if step.text:
            self.say("card.step", text=step.text)
        player, virtual = frame.player, not self.s.physical
        if step.then == "encounter":
            others = tuple(p for p in self.s.alive() if p != player)
            if len(others) == 1:
                self.call(player, others[0])
            elif others:
                self.question("call", player)
            else:
                self.say("call.nobody")
                self.after_step()
        elif step.then == "injured":
            self.say("injured", player=player)
            self.draw_condition(player, "injury")
        elif step.then == "draw" and virtual:
            self.draw_cards(player, 1)
            self.after_step()
        elif step.then == "discard" and virtual:
            self.choose_or_do("discard", distinct(self.s.hand(player)), self.discard_card)
        elif step.then == "heal":
            self.choose_or_do("heal", distinct(self.s.owned(player)), self.heal)
        else:
            self.after_step()

    def choose_or_do(self, what: str, options: tuple[str, ...], act) -> None:
        """Ask which card when there is a choice; do it at once when there is one."""
        player = self.s.top.player
        if len(options) > 1:
            self.question(what, player)
            return
        if options:
            act(player, options[0])
        else:
            self.say(f"{what}.none", player=player)
        self.after_step()

    def call(self, caller: int, player: int) -> None:
        """``caller`` chooses ``player`` to play an Encounter: control passes up the chain."""
        self.say("call.made", caller=caller, player=player)
        self.play_for(player, "encounter")

    def after_step(self) -> None:
        """The instruction is done: END CARD ends the card, otherwise flip."""
        frame = self.s.top
        if self.card(frame.card).steps[frame.pos].end:
            self.finish_card()
        else:
            self.question("flip", frame.player)

    def flip(self, flip: str, say: bool = True) -> None:
        """Move down to the next instruction that matches the flip; those passed are lost. The
        flip is said unless ``say`` is false (the app flipped, and said so)."""
        frame = self.s.top
        if say:
            self.say("flip.result", result="Heads" if flip == "plus" else "Tails")
        pos = self.card(frame.card).next_step(frame.pos, flip)
        if pos is None:
            self.say("flip.off_card")
            self.finish_card()
            return
        self.set(chain=self.s.chain[:-1] + (replace(frame, pos=pos),))
        self.enter()

    def finish_card(self) -> None:
        """The top card ends; after a Condition its player may swap a card."""
        frame = self.s.top
        self.set(chain=self.s.chain[:-1])
        self.say("card.end", card=self.title(frame.card))
        if self.card(frame.card).kind == "condition" and frame.player not in self.s.dead:
            if self.s.physical:
                self.say("swap.physical", player=frame.player)
            elif self.s.hand(frame.player) and (self.s.deck or self.s.discard):
                self.question("swap", frame.player)
                return
        self.resume()

    def resume(self) -> None:
        """Control returns down the chain to the caller, where they left off."""
        while self.s.chain and self.s.top.player in self.s.dead:
            self.set(chain=self.s.chain[:-1])
        if not self.s.chain:
            self.end_turn()
            return
        frame = self.s.top
        self.say("call.back", player=frame.player, card=self.title(frame.card))
        self.after_step()

    # ------------------------------------------------------------------ cards in hand

    def take(self, pile: str, used: str, label: str) -> str | None:
        """The top card of ``pile``, shuffling ``used`` into it when it is empty."""
        if not getattr(self.s, pile):
            if not getattr(self.s, used):
                return None
            count = self.s.shuffles + 1
            self.set(**{pile: shuffled(getattr(self.s, used), self.s.cut, pile, count),
                        used: (), "shuffles": count})
            self.say("deck.reshuffled", pile=label)
        cards = getattr(self.s, pile)
        self.set(**{pile: cards[1:]})
        return cards[0]

    def draw_cards(self, player: int, count: int) -> None:
        """Draw up to ``count`` cards from the main deck (fewer when both piles run out)."""
        drawn = 0
        for _ in range(count):
            name = self.take("deck", "discard", "main")
            if name is None:
                self.say("deck.empty")
                break
            self.set(hands=replaced(self.s.hands, player, self.s.hand(player) + (name,)))
            drawn += 1
        if drawn:
            self.say("cards.drawn", player=player, count=drawn)

    def discard_card(self, player: int, name: str) -> None:
        self.set(hands=replaced(self.s.hands, player, without(self.s.hand(player), name)),
                 discard=self.s.discard + (name,))
        self.say("card.discarded", player=player, card=self.title(name))

    def heal(self, player: int, name: str) -> None:
        self.set(conditions=replaced(self.s.conditions, player, without(self.s.owned(player), name)),
                 condition_discard=self.s.condition_discard + (name,))
        self.say("condition.lost", player=player, card=self.title(name))

    def swap(self, player: int, name: str) -> None:
        """After a Condition: discard ``name`` and draw a new card."""
        self.discard_card(player, name)
        self.draw_cards(player, 1)
        self.resume()

    # ------------------------------------------------------------------ the end of a turn

    def end_turn(self) -> None:
        """Played cards to the discard pile; the turn's player draws back up to five."""
        player = self.s.turn
        self.say("turn.ends", player=player)
        if self.s.physical:
            if player not in self.s.dead:
                self.say("turn.physical_end", player=player)
            self.next_turn()
            return
        self.set(discard=self.s.discard + self.s.played, played=())
        room = HAND - len(self.s.hand(player)) - len(self.s.owned(player))
        if player not in self.s.dead and room > 0:
            self.draw_cards(player, room)
        self.trim()

    def trim(self) -> None:
        """Anyone holding more than five, counting Conditions, discards down to five."""
        order = self.s.alive()
        start = next((i for i, p in enumerate(order) if p >= self.s.turn), 0)
        for player in order[start:] + order[:start]:
            if len(self.s.hand(player)) + len(self.s.owned(player)) > HAND:
                self.question("trim", player)
                return
        self.next_turn()

    def next_turn(self) -> None:
        """Wait for the next living player's turn, or end when fewer than two live."""
        alive = self.s.alive()
        if len(alive) < 2:
            if alive:
                self.say("game.last", player=alive[0])
            else:
                self.say("game.none")
            self.set(todo=())
            return
        if self.s.target and self.s.turns >= self.s.target:
            self.say("game.target", turns=self.s.turns)
            self.set(todo=())
            return
        after = [p for p in alive if p > self.s.turn]
        self.question("next", after[0] if after else alive[0])
