"""Walking the round: each action in order, its defence, advantage effects and the impact."""

from __future__ import annotations

from dataclasses import replace

from narrator.events import GameInput, Line
from narrator.rules.base import AcceptDice, Expectation
from narrator.rules.flow import Out
from narrator.rules.intensity.model import (
    ROLES, UNDECLARED_LEVEL, Exchange, State, add_ap, ap_of, put,
)
from narrator.rules.intensity.steps import STEPS, go, words

#: advantage effects: word → (cost, paid by the defender?)
EFFECTS = {"reroll": (1, True), "maximum": (2, False), "shield": (3, True), "boost": (4, False)}
BONUS = 4
#: lowest impact rating that allows each impact ("tax" needs none)
THRESHOLDS = {"tax": 0, "advantage": 12, "damage": 14, "wound": 16, "fatal": 20, "hold": 20}


def fight_names(state: State) -> dict[str, str]:
    f = state.fight
    return {"name": state.chars[f.attacker].name, "target": state.chars[f.defender].name}


def with_hand(state: State, i: int, **changes) -> State:
    return replace(state, hands=put(state.hands, i, replace(state.hands[i], **changes)))


def _next_turn(state: State) -> State:
    return replace(state, turn=state.turn + 1, fight=None)


@STEPS.action("action")
def enter_action(state: State) -> Out:
    """The next action in order, skipping those who cannot act; then the round's end."""
    if state.turn >= len(state.order):
        return go("round_end", state, Line("said.round_over", {"round": state.round}))
    a = state.order[state.turn]
    c, hand, target = state.chars[a], state.hands[a], state.decls[a].target
    if not c.present:
        return go("action", _next_turn(state), Line("said.skip_out", {"name": c.name}))
    if not hand.standing():
        return go("action", _next_turn(state), Line("said.skip_forfeit", {"name": c.name}))
    if not state.chars[target].present:
        line = Line("said.skip_target", {"name": c.name, "target": state.chars[target].name})
        return go("action", _next_turn(with_hand(state, a, acted=True)), line)
    state = replace(state, fight=Exchange(a, target))
    line = Line("said.action", {**fight_names(state), "attack": attack_value(state)})
    return go("defend", state, line)


@STEPS.action("defend")
def enter_defend(state: State) -> Out:
    """Ask which dice defend, unless there is no choice to make."""
    d = state.fight.defender
    hand = state.hands[d]
    if hand is None:
        return go("effects", state, Line("said.no_dice", {"name": state.chars[d].name}))
    if not hand.standing():
        return go("defence_roll", replace(state, fight=replace(state.fight, dice=(0, 1))))
    return go("defend.ask", state)


def _defend_words(state: State) -> tuple[str, ...]:
    standing = state.hands[state.fight.defender].standing()
    return ("none",) + tuple(ROLES[i] for i in standing) + (("both",) if len(standing) == 2 else ())


def _defence_dice(state: State) -> list[Line]:
    """The defender's dice as the table sees them: each standing die with its size and the face
    it shows (picking it up gives up that face), each die already defending with its size."""
    hand = state.hands[state.fight.defender]
    standing = hand.standing()
    return [Line("said.die_standing" if i in standing else "said.die_guarding",
                 {"role": ROLES[i], "die": f"d{hand.sizes[i]}", "face": hand.faces[i]})
            for i in (0, 1) if i in standing or hand.guard[i]]


def _hopeless(state: State) -> bool:
    """No die the defender could roll reaches the attack, even with a shield they can afford."""
    f, hand = state.fight, state.hands[state.fight.defender]
    shield = BONUS if ap_of(state, f.defender, f.attacker) >= EFFECTS["shield"][0] else 0
    return max(hand.sizes) + shield < attack_value(state)


def _ask_defend(state: State) -> Expectation:
    key = "ask.defend_hopeless" if _hopeless(state) else "ask.defend"
    return words(key, _defend_words(state), **fight_names(state),
                 attack=attack_value(state), dice=_defence_dice(state),
                 choices=list(_defend_words(state)))


@STEPS.question("defend.ask", _ask_defend)
def take_defend(state: State, given: GameInput) -> Out:
    d = state.fight.defender
    hand = state.hands[d]
    picked = {"none": (), "both": (0, 1), **{r: (i,) for i, r in enumerate(ROLES)}}[given.word]
    guard = tuple(g or i in picked for i, g in enumerate(hand.guard))
    state = with_hand(state, d, guard=guard)
    dice = tuple(i for i in (0, 1) if guard[i])
    name = state.chars[d].name
    if not dice:
        return go("effects", state, Line("said.no_defence", {"name": name}))
    say = () if state.hands[d].standing() else (Line("said.forfeit", {"name": name}),)
    return go("defence_roll", replace(state, fight=replace(state.fight, dice=dice)), *say)


def _ask_defence_roll(state: State) -> Expectation:
    f = state.fight
    sizes = [state.hands[f.defender].sizes[i] for i in f.dice]
    name = state.chars[f.defender].name
    if len(sizes) == 2 and sizes[0] == sizes[1]:
        return Expectation(Line("ask.defence_pair", {"name": name, "die": f"d{sizes[0]}"}),
                           (AcceptDice(sizes[0], 2, 2),))
    i = f.dice[len(f.faces)]
    size = state.hands[f.defender].sizes[i]
    return Expectation(Line("ask.defence_die", {"name": name, "role": ROLES[i],
                                                "die": f"d{size}"}), (AcceptDice(size),))


@STEPS.question("defence_roll", _ask_defence_roll)
def take_defence_roll(state: State, given: GameInput) -> Out:
    f = replace(state.fight, faces=state.fight.faces + given.faces)
    state = replace(state, fight=f)
    if len(f.faces) < len(f.dice):
        return go("defence_roll", state)
    return go("effects", state, Line("said.defence", {"name": state.chars[f.defender].name,
                                                      "faces": list(f.faces)}))


def _payer(state: State, word: str) -> tuple[int, int]:
    f = state.fight
    return (f.defender, f.attacker) if EFFECTS[word][1] else (f.attacker, f.defender)


def available(state: State) -> tuple[str, ...]:
    """Advantage effects someone in this exchange can pay for now (each once an exchange)."""
    f = state.fight
    return tuple(w for w, (cost, defends) in EFFECTS.items()
                 if w not in f.spent and ap_of(state, *_payer(state, w)) >= cost
                 and (f.faces or not defends))


@STEPS.action("effects")
def enter_effects(state: State) -> Out:
    return go("resolve", state) if not available(state) else go("effects.ask", state)


def _offers(state: State) -> list[Line]:
    """Each effect on offer: who pays, what it costs of what they have, and what it does."""
    offers = []
    for word in available(state):
        payer, other = _payer(state, word)
        offers.append(Line(f"offer.{word}", {"payer": state.chars[payer].name,
                                             "cost": EFFECTS[word][0],
                                             "have": ap_of(state, payer, other)}))
    return offers


@STEPS.question("effects.ask", lambda s: words("ask.effects", available(s) + ("no",),
                                  offers=_offers(s), choices=list(available(s))))
def take_effects(state: State, given: GameInput) -> Out:
    if given.word == "no":
        return go("resolve", state)
    payer, other = _payer(state, given.word)
    state = add_ap(state, payer, other, -EFFECTS[given.word][0])
    state = replace(state, fight=replace(state.fight, spent=state.fight.spent + (given.word,)))
    line = Line(f"said.{given.word}", {"name": state.chars[payer].name,
                                       "cost": EFFECTS[given.word][0]})
    if given.word != "reroll":
        return go("effects", state, line)
    f, hand = state.fight, state.hands[state.fight.defender]
    if len({hand.sizes[i] for i in f.dice}) > 1:
        return go("reroll_which", state, line)
    lowest = min(range(len(f.faces)), key=lambda k: f.faces[k])
    return go("reroll_face", replace(state, die=lowest), line)


def _fight_roles(state: State) -> tuple[str, ...]:
    return tuple(ROLES[i] for i in state.fight.dice)


@STEPS.question("reroll_which", lambda s: words("ask.reroll_which", _fight_roles(s),
                                       name=s.chars[s.fight.defender].name,
                                       choices=list(_fight_roles(s))))
def take_reroll_which(state: State, given: GameInput) -> Out:
    return go("reroll_face", replace(state, die=_fight_roles(state).index(given.word)))


def _reroll_size(state: State) -> int:
    return state.hands[state.fight.defender].sizes[state.fight.dice[state.die]]


@STEPS.question("reroll_face", lambda s: Expectation(
    Line("ask.reroll_face", {"name": s.chars[s.fight.defender].name,
                             "die": f"d{_reroll_size(s)}"}), (AcceptDice(_reroll_size(s)),)))
def take_reroll_face(state: State, given: GameInput) -> Out:
    f = state.fight
    state = replace(state, fight=replace(f, faces=put(f.faces, state.die, given.faces[0])))
    return go("effects", state, Line("said.defence", {"name": state.chars[f.defender].name,
                                                      "faces": list(state.fight.faces)}))


def attack_value(state: State) -> int:
    """The attacker's highest standing die, plus four if boosted."""
    hand = state.hands[state.fight.attacker]
    return hand.faces[hand.attack_die()] + BONUS * ("boost" in state.fight.spent)


def defence_value(state: State) -> int:
    """The highest defence die (0 without one), plus four with a shield."""
    f = state.fight
    return max(f.faces, default=0) + BONUS * ("shield" in f.spent)


def rating(state: State) -> int:
    """Attacker's highest actual die (its maximum if paid for, plus a boost) plus the
    defender's intensity maximum."""
    f = state.fight
    hand = state.hands[f.attacker]
    die = hand.attack_die()
    own = hand.sizes[die] if "maximum" in f.spent else hand.faces[die]
    decl = state.decls[f.defender]
    return own + BONUS * ("boost" in f.spent) + (decl.level if decl else UNDECLARED_LEVEL)


def impacts(state: State) -> tuple[str, ...]:
    """The impacts this hit allows, then "negotiate"."""
    r, d = rating(state), state.fight.defender
    c, decl = state.chars[d], state.decls[d]
    possible = {"tax": bool(c.usable()),
                "damage": bool(decl) and bool(c.size(decl.trait))}
    return tuple(w for w, low in THRESHOLDS.items() if r >= low and possible.get(w, True)) + (
        "negotiate",)


@STEPS.action("resolve")
def enter_resolve(state: State) -> Out:
    attack, defence = attack_value(state), defence_value(state)
    values = {**fight_names(state), "attack": attack, "defence": defence}
    if attack <= defence:
        return go("done", state, Line("said.miss", values))
    key = "said.hit" if state.fight.faces else "said.hit_undefended"
    return go("impact", state, Line(key, {**values, "rating": rating(state)}))


@STEPS.question("impact", lambda s: words("ask.impact", impacts(s), **fight_names(s), rating=rating(s),
                                 choices=list(impacts(s))))
def take_impact(state: State, given: GameInput) -> Out:
    return go(f"impact.{given.word}", replace(state, fight=replace(state.fight, impact=given.word)))


@STEPS.action("done")
def enter_done(state: State) -> Out:
    """The action is spent: the attacker's dice are free to defend from now on. A held fatal
    impact can be used at any time, so after every action (and every deal) its holder is asked."""
    f = state.fight
    state = with_hand(state, f.attacker, acted=True)
    just_held = f.impact == "hold" and state.held == ((f.attacker, f.defender),)
    if state.held and not just_held:
        return go("held", replace(state, back="next_action"))
    return go("next_action", state)


@STEPS.action("next_action")
def enter_next_action(state: State) -> Out:
    return go("action", _next_turn(state))

