"""Open the microphone and the speaker for a session, falling back with a clear message.

No microphone: the session reads typed input instead; with one, typing still works beside it
(except in push-to-talk mode, where Enter opens the microphone). No sound output: captions
only. Either way the session and its journal go on.
"""

from __future__ import annotations

import sys

from narrator.session.console import LiveEars, TextEars
from narrator.session.loop import Ears, Mouth
from narrator.settings import Settings


def open_devices(voice: bool, speak: bool, text_ears: TextEars,
                 settings: Settings) -> tuple[Ears, Mouth | None]:
    """The ears and mouth to use: voice input if asked for and possible, else ``text_ears``."""
    ears: Ears = text_ears
    if voice:
        from narrator.voice.listener import make_ears
        try:
            # push-to-talk's Enter key owns the keyboard
            ears = LiveEars(make_ears(settings),
                            text_ears if settings.listen_mode != "push" else None)
        except Exception as exc:  # any failure to open a microphone must not end the game
            print(f"Voice input is not available: {exc}\nFalling back to typed input: type "
                  f"what you would say and press Enter.", file=sys.stderr)
    mouth: Mouth | None = None
    if speak:
        from narrator.voice.speaker import make_speaker
        mouth = make_speaker(settings)
    return ears, mouth
