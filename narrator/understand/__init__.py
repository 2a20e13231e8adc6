"""The phrase language (layer 1): every command and answer written once as templates.

From the same templates: ``grammar(expectation, mode)`` (what a recogniser may hear now),
``understand(text, expectation, mode)`` (typed or transcribed text → a meaning) and
``describe(expectation, mode)`` / ``controls(mode)`` (the "what can I say" help). Modes:
"asking" (a question waits), "reading" (the narrator speaks), "paused", "confirming" (a read-back
waits for yes/no or a correction), "spelling" (a free-text answer spelled letter by letter).
Imports nothing from rules, voice or session.
"""

from narrator.understand.describe import controls, describe, wanted
from narrator.understand.expect import (
    Accept,
    AcceptContinue,
    AcceptDice,
    AcceptNumber,
    AcceptSuccesses,
    AcceptText,
    AcceptWords,
    Expectation,
)
from narrator.understand.grammar import Grammar, grammar
from narrator.understand.match import understand
from narrator.understand.phrases import (
    MAX_TRACK, MODES, WAKE_WORD, control_label, is_command, live_controls,
)
from narrator.understand.words import (
    article, carries, counted, key, lost_words, normalise, spells, spoken, spoken_list,
    with_article,
)

__all__ = [
    "Accept", "AcceptContinue", "AcceptDice", "AcceptNumber", "AcceptSuccesses", "AcceptText",
    "AcceptWords", "Expectation", "Grammar", "MAX_TRACK", "MODES", "WAKE_WORD", "article",
    "carries", "control_label", "controls", "counted", "describe", "grammar", "is_command",
    "key", "live_controls", "lost_words", "normalise", "spells", "spoken", "spoken_list",
    "understand", "wanted", "with_article",
]
