"""No illegal option offered, in any game: every answer a question offers is taken.

Each game is played at random (as in test_conformance.py). At every question, each answer its
accepts offer is given in turn and must not be refused: each word, each numbered word with
some number, each number and success count in range, and dice of every count it asks for.
The words a prompt lists in its fields ("Say {choices}") must be ones the question takes.
"""

import random
import re

import pytest

from narrator.events import Dice, Number, Successes, Word
from narrator.rules import registry
from narrator.rules.base import AcceptDice, AcceptNumber, AcceptSuccesses, AcceptWords
from narrator.understand import key
from narrator.understand.phrases import MAX_WORD_NUMBER
from test_conformance import ENGINE_GAME, random_input, rules_and_script

SEEDS = range(5)
TURNS = 300


def offered(accept, rng):
    """Each answer ``accept`` offers, as the inputs to give (a numbered word: a list of its
    numbers, one of which must be taken)."""
    if isinstance(accept, AcceptWords):
        yield from ([Word(w)] for w in accept.words)
        yield from ([Word(w, n) for n in range(MAX_WORD_NUMBER + 1)] for w in accept.numbered)
    elif isinstance(accept, AcceptNumber):
        yield from ([Number(n)] for n in range(accept.min, min(accept.max, accept.min + 60) + 1))
    elif isinstance(accept, AcceptSuccesses):
        yield from ([Successes(n)] for n in range(accept.max + 1))
    elif isinstance(accept, AcceptDice):
        for count in range(accept.min_count, accept.max_count + 1):
            yield [Dice(tuple(rng.randint(1, accept.sides) for _ in range(count)))]


def listed(params) -> set[str]:
    """The choices a prompt's fields list ("light, normal or heavy"; a list), as keys; a
    field holding one value (the answer given before) lists nothing."""
    items = set()
    for value in params.values():
        parts = ([str(v) for v in value] if isinstance(value, (list, tuple)) else
                 re.split(r",\s*|\s+or\s+", value) if isinstance(value, str) else [])
        if len(parts) > 1:
            items |= {key(part) for part in parts}
    return items - {""}


def illegal_offers(game, seed):
    """Every (prompt key, answer, refusal key) where an offered answer was refused."""
    rules, _script = rules_and_script(game)
    rng = random.Random(seed)
    state = rules.start(dict(rules.options)).state
    vocabulary: set[str] = set()
    found = []
    for _ in range(TURNS):
        expectation = rules.expects(state)
        if expectation.over:
            break
        words = {key(w) for a in expectation.accepts if isinstance(a, AcceptWords)
                 for w in a.words + a.numbered}
        vocabulary |= words
        for item in sorted((listed(expectation.prompt.params) & vocabulary) - words):
            found.append((expectation.prompt.key, f"listed {item!r}", "not an answer now"))
        for accept in expectation.accepts:
            for inputs in offered(accept, rng):
                refusals = [rules.apply(state, given).rejected for given in inputs]
                if all(r is not None for r in refusals):
                    found.append((expectation.prompt.key, inputs[0], refusals[0].key))
        for _attempt in range(60):
            given = random_input(rng.choice(expectation.accepts), rng)
            step = rules.apply(state, given)
            if step.rejected is None:
                break
        else:
            break  # test_conformance.py reports a game that sticks
        state = step.state
    return found


@pytest.mark.parametrize("game", registry.names() + [ENGINE_GAME])
def test_no_game_offers_an_answer_it_refuses(game):
    found = {}
    for seed in SEEDS:
        for prompt, given, reason in illegal_offers(game, seed):
            found.setdefault((prompt, reason), given)
    assert not found, f"{game} offers answers it refuses:\n" + "\n".join(
        f"  at {prompt}: {given} refused ({reason})" for (prompt, reason), given in found.items())
