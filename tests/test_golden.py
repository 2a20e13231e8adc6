"""Every game's golden playthrough replays to exactly its recorded transcript."""

import pytest

from golden import GOLDEN, transcript
from narrator.rules import registry


@pytest.mark.parametrize("game", registry.names())
def test_golden_playthrough_matches_its_transcript(game):
    given, expected = GOLDEN / f"{game}.in", GOLDEN / f"{game}.out"
    assert given.exists() and expected.exists(), f"{game} needs a golden playthrough"
    assert transcript(game) == expected.read_text(), (
        f"{game}'s transcript changed; if intended, run python tools/regen_golden.py {game} "
        f"and read the diff")
