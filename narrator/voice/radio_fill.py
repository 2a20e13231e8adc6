"""A radio spelling's stretches that are no radio word, read again as radio words.

A table spelling by radio says no letters, yet Whisper tiny.en writes some of its words as
letters or as words of no alphabet: flite rms's "Yankee" as "U.N.K.", "U.N.G." or "Eunkey"
("Ray" heard "Raunk"), espeak-ng's "Foxtrot" as "F-A-Trot". Decoding the spelling again with
radio words alone finds such a word ("yunkey"), but Whisper's search so held also strays
where it was right ("Space Papa" became "space, alpha") or stops short. So each stretch of
words that are no spelling's word (``spelling.radio_read``) is filled where it stands, the
rest of the transcript held as written: with the radio word that makes the whole transcript
likeliest (never with none: a letter Whisper wrote at a spelling's end, espeak-ng's "Romeo"
cut short to "R", is a word said, and dropped it lost its letter), then with one more before
or after the words so far while that is likelier still, up to as many words as the stretch
holds (and MOST).
"""

from __future__ import annotations

from typing import Callable

from narrator.understand.spelling import DONE
from narrator.voice.radio_parts import PART_WORDS, form

MOST = 4  # radio words a stretch is filled with at most (a stretch of more is a loop)
#: what a stretch is filled with: a radio word, "space" or a mark's name (espeak-ng's "dash"
#: was written "M.")
FILLS = [w for w in PART_WORDS if w != DONE]

#: log probability of each transcript, as Whisper would write it, for the spoken spelling
Score = Callable[[list[str]], list[float]]
Item = str | tuple[str, ...]  # a part word, or a stretch (its words as written)


def filled(read: list[tuple[str, str | None]], done: bool, score: Score) -> list[str] | None:
    """The part words of a radio spelling read (``spelling.radio_read``; ``done``: it ended
    with "done") with each stretch filled (``fill``), left to right; None when it holds
    none."""
    items = _items(read)
    if all(isinstance(item, str) for item in items):
        return None
    ending = [DONE] if done else []
    out: list[str] = []
    for k, item in enumerate(items):
        out += [item] if isinstance(item, str) else fill(
            lambda fills: _written([*out, *fills, *items[k + 1:], *ending]),
            min(len(item), MOST), score)
    return out + ending


def fill(text: Callable[[list[str]], str], most: int, score: Score) -> list[str]:
    """The part words (``FILLS``, at most ``most``) that, in the place ``text`` writes them,
    make the transcript likeliest: the best one, then one more before or after while
    likelier."""
    options = [[w] for w in FILLS]
    best: list[str] = []
    best_score = float("-inf")
    while options:
        scores = score([text(words) for words in options])
        top = max(range(len(options)), key=scores.__getitem__)
        if scores[top] <= best_score:
            break
        best, best_score = options[top], scores[top]
        options = ([best + [w] for w in FILLS] + [[w] + best for w in FILLS]
                   if len(best) < most else [])
    return best


def _items(read: list[tuple[str, str | None]]) -> list[Item]:
    """Part words, each run of words that are none as one stretch."""
    items: list[Item] = []
    for said, part in read:
        if part is not None:
            items.append(part)
        elif items and isinstance(items[-1], tuple):
            items[-1] += (said,)
        else:
            items.append((said,))
    return items


def _written(items: list[Item]) -> str:
    """A transcript as Whisper writes a radio spelling ("Romeo, Alfa, U N K, Done.")."""
    return ", ".join(form(i) if isinstance(i, str) else " ".join(i) for i in items) + "."
