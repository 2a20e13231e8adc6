"""A whole game by voice: a simulated table plays a game through a PulseAudio room.

    python bench/table.py --game slow-burn [--snr DB [--noise pink]] [--rate R] [--from N]
                          [--steps M] [--apart] [--talk P] [--seed S] [--out DIR]
                          [--record WAV]
    python bench/table.py --all [--rate R]

``narrator play GAME --events FILE`` runs with its default engines in a private PulseAudio
room: it speaks into the room's sink and listens to the room's monitor, so the players' voices
and the narrator's own both reach its microphone (``--apart``: the microphone hears the players
only, as perfect echo cancellation would). The players are synthetic voices (flite, Festival,
espeak-ng; tests/clips.py) that follow the event stream and answer as a table would, only when a
question is asked or to interrupt:

* the answers are the game's golden playthrough (tests/golden/GAME.in) as typed, less the lines
  the game refuses (found by playing it typed first, with the same seed, so the bench also knows
  which input each answer must give);
* each answer is given by the next player in turn, who also deals with what follows it (its
  read-back, a correction, a change offered, spelling it), as at a real table; words they say
  again are said a little slower and in another pitch each time (AGAIN);
* a read-back is answered "yes" when it is what was said, or, for a free-text answer (a name),
  when it sounds like it (bench/by_ear.py: the player judges by ear; such answers are counted
  apart, as the game holds another spelling), else by saying the answer again (a correction);
  a change offered ("Keep 'Mora', or change it to 'Mara'?") is answered "keep" or "change"
  (what was said before what sounds like it), or "no" and the answer again when neither is;
  free text whose read-back is refused SPELL_AFTER times is spelled, as the read-back invites
  ("spell it", then with the radio alphabet the narrator's prompt offers first: "Romeo.
  India. Kilo. space. ... Done.", a name or a longer answer alike: "Kidnap the consul's
  twins" has no other way at a table with no hand free; spelled again, the other way the
  prompt offers: "R. I. K. A. R. D. space. ... Done."), until TRIES are spent, and counted;
  an input the table did not give is undone with "go back" and answered again; a "yes" heard
  as a no (the question asked again) is followed by the answer; asked to say "yes, that's
  right" (a yes written as the answer was), a player who said yes says so, one who said the
  answer again says "no";
* a miss ("didn't catch that"; nothing heard: UNHEARD seconds after words the narrator never
  began to hear (no ``hearing`` event), QUIET after words it began to; or an utterance the
  narrator left unanswered (its ``ignored`` event) and NOTHING_BACK seconds of silence after
  it) is said again (a "yes" to a read-back too), and
  after OTHERWISE_AFTER misses or refusals another way when the narrator's help gives one
  ("zero" for "none"); an
  answer not heard by voice in TRIES tries is typed, as the read-back invites (so is a
  "keep" or "change" heard as something else TRIES times in a row)
  (``--no-typing``: the run stops there), and counted: the game is then not completed by
  voice alone;
* interruptions: "pause" then "resume" (until the narrator no longer listens as paused; a
  question asked before the pause is then answered when asked again) over one passage in
  four, "repeat" over one in ten (not said again once a question is asked), and "go back" at
  one question in eight (then the answer before it is given again); the narrator paused on
  words no one meant as "pause" (an answer, "repeat") is told "resume" at once;
* between answers they talk among themselves (tests/clips.py TABLE_TALK) over the narration,
  and a babble bed (three other voices talking) plays under everything at ``--snr`` dB below
  each player's speech (``--noise pink``: pink noise instead, a fan or a busy room's hum);
  with a bed, every player's voice is brought to the same loudness first.

A quit the narrator heard that no one said ("Save and quit?") is answered "no" and counted, and
so is a command asked about ('Did you say "undo"?') that is not what the player said; a
change of voice no one said ("Speaking at 1.9 times the normal rate." after "desperate") is a
wrong action.
Ctrl-C (or ``kill``) ends a run early and still prints its table (not completed).
The run's folder (printed as it starts) keeps the narrator's ``events.jsonl`` and the players'
``players.jsonl`` (each utterance: when, which voice, what). ``--record WAV`` keeps what the
microphone heard (16 kHz mono) and prints when it began (epoch seconds, the events file's
clock), so a miss can be cut out and replayed through the ears.

``--from N`` starts from a saved session N answers in (typed), ``--steps M`` plays M answers by
voice and then stops the session (it is saved); ``--rate`` sets the narrator's speech rate.
Each run prints a table (wall time against the narration and the players' speech, and against
those and the table's own pauses too: its REACTION before each utterance and its second after
"Paused", where the narrator is quiet) and ends with ``GAME: completed yes|no; correct A/N;
wrong W; p95 wait T ms``. ``--all`` plays every game whole, clean and with babble at 10 dB, at
``--rate`` (default 1.5): on 2 cores that takes about four hours, most of it Slow Burn (16,600 words).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import clips  # noqa: E402
from audio_room import audio_room, missing_tools  # noqa: E402
from by_ear import sounds_like  # noqa: E402
from narrator.events import CHOICES  # noqa: E402
from narrator.understand.spelling import DONE, MARK_NAMES, NAME_WORD, RADIO  # noqa: E402

GAMES = ("slow-burn", "blades", "hell-for-leather", "intensity", "half-chance")
SEED = "7"
#: the players: one voice each (reported voices only; tests/clips.py VOICES)
PLAYERS = ("flite:slt", "festival:slt-hts", "flite:rms", "espeak:en-us", "flite:awb")
LOAD_WAIT = 300  # seconds for the narrator to load and ask its first question
NOTHING_BACK = 3.0  # seconds of silence after the narrator left an utterance unanswered
# (the ``ignored`` event): the table says it again
QUIET = 30.0  # seconds after an answer the narrator began to hear (its ``hearing`` event) with
# no reply: the table says it again (a loaded machine can take 20 s to decode one utterance)
UNHEARD = 4.0  # seconds after an answer the narrator never began to hear: the table says it
# again, as a person does to a listener who shows no sign of having heard
PATIENCE = 1800  # seconds the table waits for the next question (a long track read whole)
TRIES = 4  # times an answer is said before the table gives up on it
SPELL_AFTER = 2  # read-backs of a name refused before the table spells it
OTHERWISE_AFTER = 2  # misses or refusals before an answer is said another way (after two
# misses in a row the narrator says what it takes)
SPELL_IT = "spell it"
REPLIES = ("yes",) + CHOICES  # what a player says to a read-back (CHOICES: to a change offered
# at one), not to a question
SLOWEST = 8  # the longest waits the report names, with what was said before each
ANSWERING = ("asking", "confirming", "spelling")  # the narrator's modes when a question waits
RESUME_ROUNDS = 3  # rounds of TRIES "resume" is said in before a paused run is given up
REACTION = 0.4  # seconds a player takes to start answering after the listening sound
#: how a player says the same words once more within one answer (tempo, pitch in cents): a
#: little slower each time, as a person repeats for a listener who missed it, and never the
#: same sound twice (a synthetic voice would otherwise say it alike, and be misheard alike)
AGAIN = ((1.0, 0), (0.92, 40), (0.88, -40), (0.85, 20))
DOUBT = "Say it again to be sure."
#: narrator.session.loop: a yes written as the answer was, asked for another way
OTHER_YES = 'if I heard it right, or "no".'
YES_IN_WORDS = "yes, that's right"  # what it asks for
#: narrator.session.loop: an answer heard over the narration, read back at its question
HELD = ": read back when the question comes."
MISSED = "Didn't catch that."
PAUSED = "Paused. Say resume to go on."
#: the first sentences of narrator.session.loop's questions about what it heard: a quit heard
#: by voice ("... Yes or no."), an unsure command ('Did you say "go back"? Yes or no.'); the
#: narrator logs each sentence it says as it is heard
QUIT_CHECK = "Save and quit?"
CHECK = "Did you say "
NOT_QUITTING = "Not quitting."
BACK, ROLL = ({"type": "Control", "name": name, "arg": None} for name in ("back", "roll"))
#: what the narrator says when its voice changed (narrator.session.loop, ``adjust``)
VOICE_CHANGED = ("Speaking at ", "Volume ")


# --------------------------------------------------------------------------- the plan


@dataclass
class Step:
    """One answer of the playthrough: what a player says and what the game must take."""

    text: str
    meaning: dict
    applied: list[dict]


def events_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def narrator(*args: str) -> list[str]:
    """The command line of this checkout's narrator (run with ``cwd=ROOT``)."""
    return [sys.executable, "-m", "narrator", *args, "--seed", SEED]


def typed(args: list[str], lines: list[str], log: Path, env: dict) -> list[dict]:
    """Play typed ``lines`` (``narrator ARGS --input text``); the events it wrote."""
    subprocess.run(narrator(*args, "--input", "text", "--events", str(log)),
                   input="".join(f"{line}\n" for line in lines), text=True, capture_output=True,
                   check=True, timeout=600, cwd=ROOT, env=env)
    return events_of(log)


def steps_of(events: list[dict]) -> tuple[list[Step], bool]:
    """The answers taken (each with the inputs it gave) and whether the game ended."""
    steps: list[Step | None] = []
    for event in events:
        last = steps[-1] if steps else None
        if event["event"] == "heard":
            unclear = event["meaning"]["type"] == "Unclear"
            steps.append(None if unclear else Step(event["text"], event["meaning"], []))
        elif event["event"] == "applied" and last is not None:
            last.applied.append(event["input"])
        elif event["event"] == "said" and event["kind"] == "reject" and last is not None:
            steps[-1] = None  # refused: the table would not say it
    ended = bool(events and events[-1].get("completed"))
    return [s for s in steps if s is not None], ended


def golden_steps(game: str, work: Path, env: dict) -> tuple[list[Step], bool]:
    """The golden answers the game takes, typed with the same seed; whether they end it."""
    golden = (ROOT / "tests" / "golden" / f"{game}.in").read_text().splitlines()
    return steps_of(typed(["play", game, "--save-dir", str(work / "plan")], golden,
                          work / "plan.jsonl", env))


def steps_from(game: str, steps: list[Step], start: int, work: Path,
               env: dict) -> tuple[list[Step], bool]:
    """The answers from ``start`` on, as a session saved ``start`` answers in and resumed takes
    them (the app's own dice start again from the seed)."""
    saves = work / "plan-from"
    save_prefix(game, steps[:start], saves, env)
    return steps_of(typed(["resume", "--save-dir", str(saves)], [s.text for s in steps[start:]],
                          work / "plan-from.jsonl", env))


def save_prefix(game: str, steps: list[Step], save_dir: Path, env: dict) -> None:
    """A saved session ``len(steps)`` answers in, typed."""
    subprocess.run(narrator("play", game, "--input", "text", "--save-dir", str(save_dir)),
                   input="".join(f"{s.text}\n" for s in steps) + "quit\n", text=True,
                   capture_output=True, check=True, timeout=600, cwd=ROOT, env=env)


# --------------------------------------------------------------------------- the room


class Stream:
    """The narrator's events file, read as it grows (a thread appends to ``events``)."""

    def __init__(self, path: Path) -> None:
        self.path, self.events = path, []  # type: ignore[var-annotated]
        self._done = threading.Event()
        self._changed = threading.Condition()
        threading.Thread(target=self._follow, daemon=True).start()

    def _follow(self) -> None:
        while not self.path.exists() and not self._done.is_set():
            time.sleep(0.05)
        with open(self.path) as file:
            partial = ""
            while not self._done.is_set():
                chunk = file.readline()
                if not chunk:
                    time.sleep(0.02)
                    continue
                partial += chunk
                if partial.endswith("\n"):
                    with self._changed:
                        self.events.append(json.loads(partial))
                        self._changed.notify_all()
                    partial = ""

    def wait(self, since: int, found: Callable[[dict], bool], timeout: float) -> int | None:
        """Index of the first event from ``since`` on that is ``found``, or None by ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for i in range(since, len(self.events)):
                    if found(self.events[i]):
                        return i
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(min(left, 0.2))

    def watch(self, app: subprocess.Popen) -> None:
        """When ``app`` exits without an ``end`` event, add one (``exited``: its status)."""
        def waiting() -> None:
            code = app.wait()
            time.sleep(1.0)  # the file's last lines
            with self._changed:
                if not any(map(game_over, self.events)):
                    self.events.append({"event": "end", "t": time.time(), "completed": False,
                                        "exited": code})
                    self._changed.notify_all()
        threading.Thread(target=waiting, daemon=True).start()

    def close(self) -> None:
        self._done.set()


def quit_check(event: dict) -> bool:
    """The narrator asks whether to save and quit (it heard a quit)."""
    return event["event"] == "said" and event["text"].startswith(QUIT_CHECK)


def checking(event: dict) -> bool:
    """The narrator asks whether a command it was unsure of was said ("Did you say ...?")."""
    return event["event"] == "said" and event["text"].startswith(CHECK)


def read_back(event: dict) -> bool:
    """The narrator waits for a yes to what it heard ("I heard 5. Right?")."""
    return event["event"] == "expect" and event["mode"] == "confirming"


def unanswered(event: dict, started: float, ended: float) -> bool:
    """An utterance the narrator left unanswered (``ignored``) that is the words said from
    ``started`` to ``ended``: left after they ended, or begun after they began (a short word
    is left before its clip's closing silence has played; talk said before the words is often
    left as they are said)."""
    if event["event"] != "ignored":
        return False
    return event["t"] > ended or "seconds" in event and event["t"] - event["seconds"] > started


def paused(event: dict) -> bool:
    return event == {**event, "event": "state", "name": "paused"}


def left(ignored: dict) -> str:
    """An ``ignored`` event as a finding: what was heard, what it was decoded as, and how like
    the narrator's played voice it sounded (where measured)."""
    if "phrase" not in ignored:
        return f"{ignored['text']} (ignored)"
    like = f", like the narrator {ignored['likeness']}" if "likeness" in ignored else ""
    return (f"{ignored['text']} (ignored: {ignored['phrase']!r} at {ignored['confidence']}, "
            f"{ignored['seconds']} s{like})")


def resumed(event: dict) -> bool:
    """The narrator listens as not paused (no state is sounded as the reading resumes)."""
    return event["event"] == "expect" and event["mode"] != "paused"


def reading(event: dict) -> bool:
    """The narrator begins to read a passage."""
    return event == {**event, "event": "state", "name": "reading"}


def game_over(event: dict) -> bool:
    return event["event"] == "end"


def asked(event: dict) -> bool:
    """The narrator waits for an answer (or a yes to a read-back), or the session ended."""
    return event["event"] == "expect" and event["mode"] in ANSWERING or game_over(event)


class Room:
    """The PulseAudio room: the players' voices, their talk, and the noise bed."""

    def __init__(self, env: dict, clips_dir: Path, snr: float | None, rng: random.Random,
                 noise: str = "babble", log: Path | None = None) -> None:
        self.env, self.clips_dir, self.rng = {**os.environ, **env}, clips_dir, rng
        self.log = log  # each utterance said, one JSON object per line, to find it afterwards
        self.spoken = 0.0  # seconds of the players' own speech
        self._bed: subprocess.Popen | None = None
        self._bed_stop = threading.Event()
        self._gains: dict[str, float] = {}  # with a bed: each voice brought to one loudness
        if snr is not None:
            self._start_bed(snr, noise)

    def say(self, text: str, player: int, again: int = 0) -> tuple[float, float]:
        """A player says ``text`` into the room (``again``: times they said it before, AGAIN);
        when it started and ended (epoch seconds: the end is the start plus the clip's length;
        paplay itself returns once the stream is drained, later)."""
        voice = PLAYERS[player % len(PLAYERS)]
        path = clips.make_clip(self.clips_dir, text, None, voice, pad=0.1, retold=AGAIN[
            min(again, len(AGAIN) - 1)] if again else None).path
        if voice in self._gains:
            path = scaled(path, self._gains[voice])
        length = sf.info(path).duration
        self.spoken += length
        start = time.time()
        subprocess.run(["paplay", str(path)], env=self.env, check=True, timeout=60)
        if self.log is not None:
            with open(self.log, "a") as said:
                said.write(json.dumps({"t": round(start, 3), "end": round(start + length, 3),
                                       "voice": voice, "text": text, "again": again}) + "\n")
        return start, start + length

    def _start_bed(self, snr: float, kind: str) -> None:
        """Babble or pink noise under everything, looped, ``snr`` dB below every player's
        speech: each voice is first brought to the voices' mean loudness (as synthesized,
        Festival's slt spoke 7.5 dB under flite's slt)."""
        powers = {v: clips.speech_power(sf.read(
            clips.make_clip(self.clips_dir, "four and nine", None, v).path)[0]) for v in PLAYERS}
        power = float(np.mean(list(powers.values())))
        self._gains = {v: float(np.sqrt(power / p)) for v, p in powers.items()}
        bed = self.clips_dir / f"bed-{kind}-{snr:g}.wav"
        noise = clips.at_snr(clips.noise_of(kind, 60.0, bed.with_suffix(".noise.wav")), power,
                             snr)
        sf.write(bed, np.clip(noise, -1, 1), clips.RATE, subtype="PCM_16")
        threading.Thread(target=self._loop_bed, args=(bed,), daemon=True).start()

    def _loop_bed(self, bed: Path) -> None:
        while not self._bed_stop.is_set():
            self._bed = subprocess.Popen(["paplay", str(bed)], env=self.env)
            self._bed.wait()

    def close(self) -> None:
        self._bed_stop.set()
        if self._bed is not None and self._bed.poll() is None:
            self._bed.terminate()
            self._bed.wait(timeout=10)


def scaled(path: Path, gain: float) -> Path:
    """A copy of the clip at ``path`` with its samples times ``gain`` (cached beside it)."""
    out = path.with_name(f"{path.stem}-x{gain:.3f}.wav")
    if not out.exists():
        samples, rate = sf.read(path)
        sf.write(out, np.clip(samples * gain, -1, 1), rate, subtype="PCM_16")
    return out


# --------------------------------------------------------------------------- the players


@dataclass
class Tally:
    """What one run counts (see the printed table)."""

    needed: int = 0
    first: int = 0
    wrong: int = 0
    rejected: int = 0
    by_ear: int = 0  # free-text answers taken as they sounded, spelled otherwise than said
    typed: int = 0  # answers a player typed, never heard by voice in TRIES tries
    spelled: int = 0  # free-text answers the table spelled
    misses: int = 0
    repeats: int = 0
    quit_checks: int = 0  # "Save and quit?" asked when no one said quit (answered no)
    waits: list[tuple[float, str]] = field(default_factory=list)  # seconds, and after what
    held: list[tuple[float, float]] = field(default_factory=list)  # spans the table itself
    # waited (epoch seconds): its reaction before each utterance, its second after "Paused"
    findings: list[str] = field(default_factory=list)  # what was said and what was heard


ARTICLES = ("a", "an", "the")
#: words a game takes as another: short forms (Slow Burn's setup: word.startswith("first")),
#: and Slow Burn's "no one" for "nobody" (its NOBODY: the same answer, read back as heard)
SAME_WORD = {"first": "first session", "new": "new episode", "no one": "nobody"}
#: numbered words a game takes as their number alone: Half-Chance's "player 3" where it asks
#: for a player number ("I heard 3. Right?" is what the table said)
NUMBERED_AS_NUMBER = ("player",)


def same(meaning: dict | None, wanted: dict) -> bool:
    """A meaning or input is the one wanted (free text compared word by word, any case and
    article; a word choice in a short form the game takes the same, SAME_WORD; a number for
    a numbered word the game takes as it, NUMBERED_AS_NUMBER)."""
    if meaning is None:
        return False
    if {meaning.get("type"), wanted.get("type")} == {"Number", "Word"}:
        number, word = sorted((meaning, wanted), key=lambda m: m["type"])
        return word["word"] in NUMBERED_AS_NUMBER and word.get("number") == number["value"]
    if meaning.get("type") == wanted.get("type") == "Text":  # a table lets "the" pass for "a"
        return [w for w in words(meaning["text"]) if w not in ARTICLES] == \
            [w for w in words(wanted["text"]) if w not in ARTICLES]
    if meaning.get("type") == wanted.get("type") == "Word":
        return SAME_WORD.get(meaning["word"], meaning["word"]) == \
            SAME_WORD.get(wanted["word"], wanted["word"])
    return meaning == wanted


def judged(meaning: dict | None, wanted: dict,
           respelled: dict[str, str] | None = None) -> str | None:
    """How a player takes what the narrator heard for ``wanted``: "same" (``same``), "by ear"
    (free text spelled otherwise that sounds like it: by_ear.py; or a choice of a name the
    game took by ear, as the game now spells it: ``respelled``, said → held), or None."""
    if same(meaning, wanted):
        return "same"
    if meaning is None or meaning.get("type") != wanted.get("type"):
        return None
    if wanted["type"] == "Text" and sounds_like(wanted["text"], meaning["text"]):
        return "by ear"
    held = held_as(wanted.get("word") or "", respelled or {})
    if wanted["type"] == "Word" and held and " ".join(words(meaning["word"])) in held:
        return "by ear"
    return None


def chosen(kept: dict, offered: dict, wanted: dict,
           respelled: dict[str, str] | None = None) -> str | None:
    """A player's reply to "Keep 'Alarm', or change it to 'Alairm'?" (``judged``): "keep" or
    "change" for what was said, else for what sounds like it (the change first); None for
    neither."""
    heard_as = {"change": judged(offered, wanted, respelled),
                "keep": judged(kept, wanted, respelled)}
    return next((choice for verdict in ("same", "by ear") for choice in heard_as
                 if heard_as[choice] == verdict), None)


def held_as(said: str, respelled: dict[str, str]) -> str | None:
    """How the game holds words the table said, when it took them by ear: the words standing
    where they stand in an answer taken by ear ("cato" of "Cato, a smuggler", held as "Kato,
    a smuggler": "kato"); None when no answer taken by ear holds them."""
    target = words(said)
    for whole, held in respelled.items():
        a, b = whole.split(), words(held)
        starts = [i for i in range(len(a) - len(target) + 1) if a[i:i + len(target)] == target]
        if target and starts:
            begin, end = starts[0], starts[0] + len(target)
            spans = [(j1 + max(0, begin - i1), j1 + min(i2, end) - i1) if tag == "equal"
                     else (j1, j2) for tag, i1, i2, j1, j2 in
                     difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
                     if i1 < end and i2 > begin]
            return " ".join(b[min(j for j, _ in spans):max(j for _, j in spans)])
    return None


def spellable(step: Step) -> bool:
    """Whether a table would spell this answer when it is not heard: free text, as the
    read-back invites ("spell it, or type it"): a table with no hand free has no other way."""
    return step.meaning.get("type") == "Text"


def otherwise(step: Step) -> str | None:
    """The answer said another way, as the narrator's help puts it: "zero" for "none" (a
    number of successes "from 0 to 1"); None for any other answer."""
    nothing = step.meaning == {"type": "Successes", "count": 0}
    return "zero" if nothing and step.text != "zero" else None


def again(step: Step, failed: int) -> str:
    """What a player says after ``failed`` refused read-backs or misses: the answer; "spell
    it" for a name (as the read-back invites); from OTHERWISE_AFTER on, the answer said
    another way when there is one (``otherwise``), as a table does once the narrator has said
    what it takes."""
    if spellable(step) and SPELL_AFTER <= failed < TRIES:
        return SPELL_IT
    return (otherwise(step) or step.text) if failed >= OTHERWISE_AFTER else step.text


def aloud_letters(text: str, radio: bool = False) -> str:
    """How a player spells ``text``: "R. I. K. space. R. A. S. Done." (letters only), or with
    the radio alphabet ("Romeo. India. Kilo. space. ... Done."), as the narrator's prompt
    offers; an apostrophe or a hyphen by name ("apostrophe", "dash"), as its help says."""
    def said(letter: str) -> str:
        if letter in MARK_NAMES:
            return MARK_NAMES[letter]
        return RADIO[ord(letter.lower()) - ord("a")].capitalize() if radio else letter.upper()
    return " space. ".join(". ".join(said(c) for c in w) + "."
                           for w in re.findall(NAME_WORD, text)) + f" {DONE.capitalize()}."


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


RESPONSES = ("said", "earcon", "state", "applied")


def heard_as(event: dict) -> str:
    """A ``heard`` event's words, with the recogniser's own when they differ ("b u d (written
    'Bravo, Uniform, Delta.')") and, heard over the narration, how like its played voice they
    sounded (where measured)."""
    written = event.get("transcript")
    said = f"{event['text']} (written {written!r})" if written else event["text"]
    return f"{said} (like the narrator {event['likeness']})" if "likeness" in event else said


def response(event: dict) -> bool:
    """The narrator reacts to what it heard (news such as "The sound output is back." is
    none)."""
    return event["event"] in RESPONSES and not (event["event"] == "said"
                                                and event["kind"] == "info")


class Stuck(Exception):
    """The game cannot go on by voice (a pause never resumed): the run ends, not completed."""


class Players:
    """The table: answers each question from the plan, interrupts, talks, corrects."""

    def __init__(self, stream: Stream, room: Room, rng: random.Random, talk: float,
                 interrupt: bool, keyboard: Callable[[str], None] | None = None) -> None:
        self.stream, self.room, self.rng = stream, room, rng
        self.keyboard = keyboard  # types a line to the narrator (None: the table never types)
        self.talk, self.interrupt = talk, interrupt
        self.tally = Tally()
        self.cursor = 0  # events before this index have been dealt with
        self.pending: dict | None = None  # the question the last answer's outcome ended on
        self.player = 0  # whose turn it is to answer next
        self.answerer: int | None = None  # who gave the answer now being read back
        self.told: dict[str, int] = {}  # times the answerer said each thing in this answer
        self.voice = PLAYERS[0]  # who spoke last (for the findings)
        self._clean = True  # the last undo took one "go back"
        self.taken_back = False  # an answer the narrator took back while no one asked
        self._ours: set[int] = set()  # ids of the events a control of the table brought about
        self.respelled: dict[str, str] = {}  # names taken by ear: as said → as the game holds

    # -------------------------------------------------------------- questions

    def play(self, steps: list[Step]) -> bool:
        """Answer every step; True when each was taken as planned."""
        try:
            return self._play(steps)
        except Stuck as stuck:
            self.tally.findings.append(str(stuck))
            return False

    def _play(self, steps: list[Step]) -> bool:
        i = 0
        while i < len(steps):
            event = self.await_question(LOAD_WAIT if i == 0 else PATIENCE)
            if event is None or game_over(event):
                return False
            if self.taken_back:
                self.taken_back, i = False, i - 1
            if self.go_back_now(steps, i):
                i -= 1
                continue
            if not self.answer(steps[i]):
                return False
            i += 1
        return True

    def await_question(self, timeout: float) -> dict | None:
        """Wait for a question (talking and interrupting over the passages before it); an
        input taken meanwhile that no one gave is undone."""
        if self.pending is not None:
            event, self.pending = self.pending, None
            return event
        deadline = time.monotonic() + timeout
        while True:
            at = self.stream.wait(self.cursor, self.turn, max(0.0, deadline - time.monotonic()))
            if at is None:
                return None
            event = self.stream.events[at]
            self.cursor = at + 1
            if event["event"] == "applied":
                self.wrong(f"taken while no one answered: {event['input']}")
                self.undo()
            elif event["event"] == "undone":
                self.taken_back_unasked()
            elif not self.aside(at, unprompted=True):
                return event

    def turn(self, event: dict) -> bool:
        """Whether the table heeds ``event`` while it waits for a question: a question, an
        input taken or taken back, or what ``aside`` deals with."""
        return asked(event) or event["event"] in ("applied", "undone") or quit_check(event) \
            or checking(event) or self.stray(event) or reading(event)

    def aside(self, at: int, unprompted: bool) -> bool:
        """Deal with event ``at`` if it is no question: a quit asked about (answered no), a
        command asked about when ``unprompted`` (no one said it: answered no), a pause no one
        meant (resumed), or a passage (talked and interrupted over). False for anything else."""
        event = self.stream.events[at]
        if quit_check(event):
            self.refuse_quit()
        elif checking(event) and unprompted:
            self.refuse_check(event["text"])
        elif self.stray(event):
            self.unpause(at)
        elif reading(event):
            self.over_passage()
        else:
            return False
        return True

    def go_back_now(self, steps: list[Step], i: int) -> bool:
        """One question in eight: "go back" (the answer before is then given again)."""
        if not (self.interrupt and i > 0 and self.rng.random() < 1 / 8):
            return False
        before = steps[i - 1]
        if len(before.applied) != 1 or before.applied[0].get("by_app") \
                or before.applied[0]["type"] == "Continue":
            return False
        self.tally.needed += 1
        if self.undo():
            self.tally.first += self._clean
            self.pending = self.await_question(600)
            return self.pending is not None
        return False

    def answer(self, step: Step) -> bool:
        """The next player says the answer until the game takes what it should (False if it
        never does), and answers its read-backs, corrects and spells it themselves."""
        self.answerer, self.player, self.told = self.player, self.player + 1, {}
        try:
            return self._answer(step)
        finally:
            self.answerer = None

    def _answer(self, step: Step) -> bool:
        self.tally.needed += 1
        first, words_now, heard, failed, typed = True, step.text, None, 0, False
        spelled = neither = spelled_before = done = False
        said_as = (step.text, otherwise(step))  # the answer's words, either way
        unheard = 0  # times "keep" or "change" was heard as something else
        for _ in range(TRIES * 2 + 2 * (TRIES - SPELL_AFTER)):  # and "spell it" for a name
            begin = len(self.stream.events)
            self.hold(REACTION)
            got = self.gone_on() if words_now in REPLIES else None
            typing = got is None and self.keyboard is not None and not typed and (
                failed >= TRIES and words_now in said_as
                or unheard >= TRIES and words_now in CHOICES)
            typed_as = (words_now if words_now in CHOICES
                        else held_as(step.text, self.respelled) or step.text)
            if typing:  # as the read-back invites: "or type it and press Enter"
                typed = True
                self.tally.typed += 1
                self.tally.findings.append(f"typed {typed_as!r}: not heard by voice in "
                                           f"{max(failed, unheard)} tries")
            got = got or self.outcome(begin, *(self.type(typed_as, ready=True) if typing
                                               else self.say(words_now, ready=True)),
                                      said=None if typing else words_now)
            unclear = (got["heard"] or {}).get("type") == "Unclear"  # "Didn't catch that."
            heard = got["heard"] if got["heard"] is not None and not unclear else heard
            if got["applied"]:
                verdicts = [judged(a, w, self.respelled)
                            for a, w in zip(got["applied"], step.applied)]
                if len(got["applied"]) == len(step.applied) and all(verdicts):
                    self.tally.first += first
                    self.tally.spelled += spelled
                    if "by ear" in verdicts:
                        self.tally.by_ear += 1
                        held = [a.get("text") or a.get("word") for a, v in
                                zip(got["applied"], verdicts) if v == "by ear"]
                        self.respelled.update(
                            (" ".join(words(w["text"])), a["text"]) for a, w, v in
                            zip(got["applied"], step.applied, verdicts)
                            if v == "by ear" and w["type"] == "Text")
                        self.tally.findings.append(f"by ear: said {step.text!r}, the game "
                                                   f"holds {' / '.join(held)!r}")
                    if got["taken_back"]:
                        self.taken_back_unasked()
                    return True
                self.wrong(f"said {step.text!r}, heard {got['heard_text']!r}, "
                           f"took {got['applied']}")
                first, words_now = False, step.text
                if not self.undo() or self.await_question(600) is None:
                    return False
                continue
            if got["ended"]:
                return not step.applied
            if got["other_yes"]:  # a yes that sounded like the answer: in more words, or no
                self.tally.repeats += 1
                first = False
                if words_now not in ("yes", YES_IN_WORDS):  # the answer again, to refuse it
                    words_now, failed, neither = "no", failed + 1, True
                else:
                    words_now = YES_IN_WORDS
                continue
            if got["doubt"]:  # "Say it again to be sure": the same words again
                self.tally.repeats += 1
                first = False
                continue
            if got["choice"] is not None:  # "Keep 'Mara', or change it to 'Maura'?"
                kept, offered = ({"type": "Text", "text": got["choice"][k]}
                                 for k in ("kept", "offered"))
                if words_now == "yes":  # the yes was heard as words (flite awb's "US.")
                    self.tally.misses += 1
                    self.finding(words_now, offered["text"])
                if words_now in CHOICES:  # heard as something else: offered again
                    self.tally.misses += 1
                    self.finding(words_now, got["heard_text"])
                    unheard += 1
                first = False
                choice = chosen(kept, offered, step.meaning, self.respelled)
                if choice is not None:
                    words_now = choice
                else:  # neither: "no", and the answer again when asked
                    self.tally.rejected += 1
                    self.finding(step.text, offered["text"])
                    words_now, failed, spelled, neither = "no", failed + 1, False, True
                continue
            if got["checked"] and got["mode"] == "confirming" \
                    and not same(got["checked"]["meaning"], step.meaning):
                # asked about other words than the answer ('Did you say "undo"?' after the
                # table's "resume" written "Dude."): "no", as to any command no one said
                self.tally.misses += 1
                self.finding(words_now, heard_as(got["checked"]))
                misheard = got["checked"]["mode"] in ANSWERING  # the answer itself, or not
                first, failed = first and not misheard, failed + misheard
                done = done or not step.applied and same(got["heard"], step.meaning)
                words_now, neither = "no", True
                continue
            if neither and got["mode"] == "asking":
                if done:  # the answer was taken before the question about other words
                    self.tally.first += first
                    return True
                words_now, neither = again(step, failed), False
                continue
            if got["mode"] == "confirming" and unclear:  # the reply unheard: said again
                self.tally.misses += 1
                self.tally.repeats += 1
                self.finding(words_now, got["heard_text"])
                continue
            if got["mode"] == "confirming":
                if judged(heard, step.meaning, self.respelled) or (same(heard, ROLL)
                                                                   and not got["check"]):
                    words_now = "yes"
                else:
                    self.tally.rejected += 1
                    self.finding(step.text, got["heard_text"])
                    first, failed, spelled = False, failed + 1, False
                    words_now = again(step, failed)
                continue
            if got["mode"] == "spelling":
                words_now = aloud_letters(step.text, radio=not spelled_before)
                spelled = spelled_before = True
                self.tally.findings.append(f"spelled {step.text!r}")
                continue
            if not step.applied and (same(got["heard"], step.meaning) or got["undone"]
                                     and same(BACK, step.meaning)):  # a "go back" asked about
                self.tally.first += first
                return True
            self.tally.misses += 1
            self.tally.repeats += 1
            self.finding(words_now, got["heard_text"])
            first, failed = False, failed + (words_now in said_as)
            if words_now == step.text and said_as[1]:
                words_now = again(step, failed)
            if got["mode"] == "asking" and words_now in REPLIES:  # its yes heard as a no:
                words_now = again(step, failed)  # asked again, the answer is said again
        self.tally.findings.append(f"gave up on {step.text!r}")
        return False

    def gone_on(self) -> dict | None:
        """What the game did if it took an input while a player readied a reply to its read-back
        (the answer, said over the read-back, heard as its "yes"): a table hearing the game go
        on says no reply. None (and the reply is said) otherwise."""
        taken = self.stream.wait(self.cursor, lambda e: e["event"] == "applied", 0)
        if taken is None:
            return None
        at = self.stream.events[taken]["t"]
        return self.outcome(self.cursor, at - 0.001, at, said=None)

    def outcome(self, begin: int, started: float, ended: float, said: str | None) -> dict:
        """What the narrator did about an utterance said from ``started`` to ``ended``, up to the
        next question (talking and interrupting over any passage meanwhile), or nothing heard;
        ``said``: the words, when said (the wait after them counts), None when typed. What it
        heard is what a read-back will say: an answer held over the narration counts. Events
        from before the words began are no reaction to them (a question asked again after table
        talk said as it was asked was once taken for the next one, the answer's taking missed)."""
        got: dict[str, Any] = {"heard": None, "heard_text": None, "applied": [], "mode": None,
                               "doubt": False, "check": False, "ended": False, "choice": None,
                               "undone": False, "taken_back": False, "changed": None,
                               "other_yes": False, "checked": None}
        reacted, got["heard_text"] = self.reaction(begin, started, ended, response)
        if reacted is None:
            self.cursor = len(self.stream.events)
            return got
        if said is not None:
            self.waited(self.stream.events[self.replied(begin, started, reacted)]["t"] - ended,
                        said)
        since = self.cursor = self.stream.wait(begin, lambda e: e["t"] > started, 0)
        question = self.await_or_collect()
        over = last = None  # heard over the narration: read back at the question if held;
        # heard last, in any mode: what a "Did you say ...?" asks about
        for event in self.stream.events[since:self.cursor]:
            last = event if event["event"] == "heard" else last
            if event["event"] == "heard" and event["mode"] in ANSWERING:
                got["heard"], got["heard_text"] = event["meaning"], heard_as(event)
            elif event["event"] == "heard":
                over = event
            elif event["event"] == "said" and event["text"].endswith(HELD) and over:
                got["heard"], got["heard_text"] = over["meaning"], heard_as(over)
            elif event["event"] == "applied":
                got["applied"].append(event["input"])
            elif event["event"] == "undone":  # after the answer was taken: over the reading
                got["undone"], got["taken_back"] = True, bool(got["applied"])
            elif event["event"] == "said" and event["text"].endswith(DOUBT):
                got["doubt"] = True
            elif event["event"] == "said" and event["text"].endswith(OTHER_YES):
                got["other_yes"] = True
            elif checking(event):
                got["check"], got["checked"] = True, last
            elif event["event"] == "said" and event["text"].startswith(VOICE_CHANGED):
                got["changed"] = event["text"]
        if got["changed"] and said is not None and said != (got["heard"] or {}).get("name"):
            self.wrong(f"{self.voice} said {said!r}, heard {got['heard_text']!r}: "
                       f"{got['changed']}")
        self.pending = question
        if question is not None:
            got["mode"] = question.get("mode")
            got["ended"] = game_over(question)
            if question.get("prompt", {}).get("key") == "readback.change":
                got["choice"] = question["prompt"]["params"]
        return got

    def reaction(self, begin: int, started: float, ended: float,
                 done: Callable[[dict], bool]) -> tuple[int | None, str | None]:
        """The first event from ``begin`` on that is ``done`` about an utterance said from
        ``started`` to ``ended``, or None: UNHEARD seconds after it when the narrator never
        began to hear it, QUIET seconds when it did, or NOTHING_BACK seconds after the
        narrator left it unanswered (then with what it heard)."""
        def reacted(e: dict) -> bool:
            return e["t"] > started and (done(e) or unanswered(e, started, ended))
        began = self.stream.wait(begin, lambda e: reacted(e) or e["event"] == "hearing",
                                 UNHEARD)  # from about when the words end
        at = None if began is None else self.stream.wait(begin, reacted, QUIET)
        if at is None or self.stream.events[at]["event"] != "ignored":
            return at, None
        return self.stream.wait(at + 1, done, NOTHING_BACK), left(self.stream.events[at])

    def replied(self, begin: int, started: float, reacted: int) -> int:
        """``reacted``, or the sentence said before it that answers what the narrator heard
        ("Then say it again.": info, yet a reply, not news)."""
        heard = self.stream.wait(begin, lambda e: e["event"] == "heard" and e["t"] > started, 0)
        if heard is None or heard > reacted:
            return reacted
        said = self.stream.wait(heard, lambda e: e["event"] == "said", 0)
        return reacted if said is None else min(said, reacted)

    def await_or_collect(self) -> dict | None:
        """The next question (or end), the passages before it played over; None by timeout. A
        command asked about after the answer was taken was said by no one (answered no)."""
        taken = False
        while True:
            stray = self.paused_now()
            if stray is not None:
                self.cursor = min(self.cursor, stray)
            at = self.stream.wait(self.cursor, self.turn, PATIENCE)
            if at is None:
                return None
            event = self.stream.events[at]
            self.cursor = at + 1
            taken = taken or event["event"] == "applied"
            if event["event"] in ("applied", "undone") or self.aside(at, unprompted=taken):
                continue  # what was taken is judged from the events collected
            if not checking(event):  # one asked about the words just said: its question next
                return event

    def taken_back_unasked(self) -> None:
        """The narrator took back an answer while no one asked (a "go back" heard over the
        reading): a wrong action; its question, asked again, is answered again."""
        self.wrong("an answer taken back while no one asked")
        self.taken_back = True

    def refuse_quit(self) -> None:
        """The narrator heard a quit no one said and asks: "no" until it goes on."""
        heard = [e["text"] for e in self.stream.events[:self.cursor] if e["event"] == "heard"]
        self.tally.quit_checks += 1
        self.tally.findings.append(f"quit heard in {heard[-1] if heard else None!r}: "
                                   "asked to save and quit, answered no")
        self.say_no(lambda e: game_over(e) or e["event"] == "said" and e["text"] == NOT_QUITTING,
                    "the narrator's 'Save and quit?' never heard a no")

    def refuse_check(self, question: str) -> None:
        """The narrator asks about a command no one said ('Did you say "go back"?', heard
        over the reading): "no" until it reads on."""
        self.tally.findings.append(f"asked {question!r} unprompted: answered no")
        self.say_no(lambda e: game_over(e) or e["event"] == "expect"
                    and e["mode"] != "confirming", f"{question!r} never heard a no")

    def say_no(self, gone_on: Callable[[dict], bool], stuck: str) -> None:
        """Wait for the yes-or-no question and say "no" until the narrator goes on (an event
        ``gone_on``: from there the table listens again)."""
        for _ in range(TRIES):
            if self.stream.wait(self.cursor, asked, QUIET) is None:
                break
            begin = len(self.stream.events)
            self.say("no")
            at = self.stream.wait(begin, gone_on, QUIET)
            if at is not None:
                self.cursor = at + 1 if self.stream.events[at]["event"] == "said" else at
                return
            self.cursor = begin
        raise Stuck(stuck)

    def undo(self) -> bool:
        """"go back" until the game undoes its last input ("yes" when asked whether it was
        said)."""
        self._clean, self.pending, words = True, None, "go back"
        for _ in range(TRIES):
            begin = len(self.stream.events)
            self.say(words)
            at = self.stream.wait(begin, lambda e: e["event"] == "undone" or checking(e)
                                  or e["event"] == "said"
                                  and (e["text"].endswith(DOUBT) or e["text"] == MISSED), QUIET)
            if at is not None and self.stream.events[at]["event"] == "undone":
                self.cursor = at + 1
                return True
            if at is not None and checking(self.stream.events[at]) \
                    and self.stream.wait(at, asked, QUIET) is not None:
                words = "yes"
                continue
            self._clean, words = False, "go back"
            self.tally.repeats += 1
        self.tally.findings.append("go back never taken")
        return False

    # -------------------------------------------------------------- passages

    def over_passage(self) -> None:
        """A passage is being read: now and then pause and resume, repeat, or table talk."""
        roll = self.rng.random()
        self.hold(1.5)
        if self.stream.wait(self.cursor, asked, 0) is not None:
            return  # a short passage: already asking
        if self.interrupt and roll < 0.25:
            mark = len(self.stream.events)
            if self.control("pause", paused) is not None:
                self.resume(mark)
        elif self.interrupt and roll < 0.35:
            at = self.control("repeat", lambda e: e["event"] == "heard" and e["meaning"]
                              == {"type": "Control", "name": "repeat", "arg": None})
            if at is not None:  # a question asked before it is asked again after it
                self.cursor = max(self.cursor, at + 1)
        elif roll < 0.35 + self.talk:
            self.say(self.rng.choice(clips.TABLE_TALK), talk=True)

    def paused_now(self) -> int | None:
        """Where the narrator paused on a word no one meant as "pause", if it is paused so now
        (it may have paused as a player began to answer: before the events the answer is
        judged by; the table then waited PATIENCE in silence). Not once it is ``resumed``."""
        for at in range(len(self.stream.events) - 1, -1, -1):
            event = self.stream.events[at]
            if resumed(event):
                return None
            if event["event"] == "state":
                return at if self.stray(event) else None
        return None

    def stray(self, event: dict) -> bool:
        """The narrator paused on something no one meant as "pause" (a misheard answer)."""
        return paused(event) and id(event) not in self._ours

    def unpause(self, at: int) -> None:
        """Paused on a word no one meant so: "resume", as a table would (once)."""
        heard = [e["text"] for e in self.stream.events[:at] if e["event"] == "heard"]
        self.tally.findings.append(f"paused on {heard[-1] if heard else None!r}: said resume")
        self._ours.add(id(self.stream.events[at]))
        self.resume(at)

    def resume(self, mark: int) -> None:
        """Let "Paused. Say resume to go on." (from event ``mark`` on) end, as a table would
        (its own "resume" is no command: the self-trigger guard drops what it is saying), then
        "resume" until the narrator goes on: it listens no longer as paused (it reads, a
        question's prompt too, or asks). A question asked before the pause is asked again
        after it: the table waits for that (Slow Burn: "pause" said as a question was asked,
        then resumed, the table answered the question as first asked while its prompt was
        read again, and took the answer, heard over the prompt, for unheard)."""
        self.stream.wait(mark, lambda e: e["event"] == "spoken" and e["text"] == PAUSED, QUIET)
        self.hold(1.0)
        for _ in range(RESUME_ROUNDS):
            at = self.control("resume", lambda e: resumed(e) or game_over(e))
            if at is not None:  # a question it asks at once is answered
                self.cursor = max(self.cursor, at if asked(self.stream.events[at]) else at + 1)
                return
        if self.stream.wait(0, game_over, 0) is None:  # the run ends, not completed
            raise Stuck("resume never heard while paused")

    def control(self, word: str, done: Callable[[dict], bool]) -> int | None:
        """Say a control over the narration until its effect shows (the index of that event;
        None when it never does, or when the game ends first: then it was not needed). Not
        again once a question is asked: a table says no more "pause" to a question (said into
        a read-back at 10 dB, it was heard "yes" twice and took an answer no one gave). Heard
        as a pause no one meant, it is followed by "resume" at once, then said again; heard
        as an answer, read back, it is left there (the read-back is answered as a question);
        heard with no effect NOTHING_BACK seconds on ('Heard "next"? Say it again to skip.',
        the reading going on), it is said again."""
        def settled(e: dict) -> bool:  # the word's effect, or what it was taken for
            return done(e) or game_over(e) or self.stray(e) or read_back(e)

        if self.stream.wait(0, game_over, 0) is not None:
            return None
        for attempt in range(TRIES):
            begin = len(self.stream.events)
            started, ended = self.say(word)
            at, ignored = self.reaction(begin, started, ended,
                                        lambda e: settled(e) or e["event"] == "heard")
            if at is not None and not settled(self.stream.events[at]):  # heard: what came of it
                at = self.stream.wait(at + 1, settled, NOTHING_BACK)
            event = None if at is None else self.stream.events[at]
            over = self.stream.wait(0, game_over, 0) is not None
            if over and (event is None or game_over(event)):
                return None  # the game ended under the word (its last passage)
            self.tally.needed += attempt == 0
            if event is not None and done(event):
                self._ours.add(id(event))
                reacted = self.stream.wait(begin, lambda e: response(e) and e["t"] > started, 0)
                self.waited(self.stream.events[reacted or at]["t"] - ended, word)
                self.tally.first += attempt == 0
                return at
            if event is not None and self.stray(event):  # heard as a pause no one meant
                self.unpause(at)
            self.tally.misses += 1
            heard = [e["text"] for e in self.stream.events[begin:] if e["event"] == "heard"]
            self.finding(word, " / ".join(heard) or ignored)
            if self.stream.wait(begin, asked, 0) is not None:
                return None
            self.tally.repeats += 1
        return None

    # -------------------------------------------------------------- speaking

    def say(self, text: str, talk: bool = False, ready: bool = False) -> tuple[float, float]:
        """A player says ``text`` (anyone, for talk; else the one whose answer is being dealt
        with, or the next in turn), after REACTION unless ``ready``; when it started and
        ended."""
        if not ready:
            self.hold(REACTION)
        again = 0
        if talk:
            player = self.rng.randrange(len(PLAYERS))
        elif self.answerer is not None:
            player, again = self.answerer, self.told.get(text, 0)
            self.told[text] = again + 1
        else:
            player, self.player = self.player, self.player + 1
        if not talk:
            self.voice = PLAYERS[player % len(PLAYERS)]
        return self.room.say(text, player, again)

    def hold(self, seconds: float) -> None:
        """The table waits ``seconds`` of its own accord (counted as its time, not the app's)."""
        now = time.time()
        time.sleep(seconds)
        self.tally.held.append((now, now + seconds))

    def waited(self, seconds: float, said: str) -> None:
        """The narrator answered ``said`` (by the player who spoke last) ``seconds`` after it."""
        self.tally.waits.append((max(0.0, seconds), f"{self.voice} {said!r}"))

    def type(self, text: str, ready: bool = False) -> tuple[float, float]:
        """A player types ``text`` and presses Enter (after REACTION unless ``ready``); when
        (started and ended alike)."""
        assert self.keyboard is not None
        if not ready:
            self.hold(REACTION)
        now = time.time()
        self.keyboard(text)
        return now, now

    def wrong(self, what: str) -> None:
        self.tally.wrong += 1
        self.tally.findings.append("WRONG " + what)

    def finding(self, said: str, heard: str | None) -> None:
        self.tally.findings.append(f"{self.voice} said {said!r}, heard {heard!r}")


# --------------------------------------------------------------------------- a run


@dataclass
class Run:
    game: str
    snr: float | None
    noise: str
    completed: bool
    tally: Tally
    wall: float
    narration: float
    speech: float
    own: float  # seconds the table waited of its own accord while the narrator was quiet
    tracebacks: int = 0  # Python tracebacks the narrator printed (a user must never see one)


def play_by_voice(game: str, *, snr: float | None = None, noise: str = "babble",
                  rate: float = 1.0, start: int = 0, steps: int | None = None,
                  apart: bool = False, talk: float = 0.3, interrupt: bool = True, seed: int = 1,
                  out: Path | None = None, typing: bool = True,
                  record: Path | None = None) -> Run:
    """One game (or ``steps`` answers of it from answer ``start``) played by the table, over
    ``noise`` at ``snr`` dB when given (``typing``: an answer never heard by voice is typed, as
    the narrator invites, and the run goes on; ``record``: a WAV file of what the microphone
    heard)."""
    work = Path(tempfile.mkdtemp(prefix=f"table-{game}-"))
    print(f"the run's events and the players' utterances: {work}", file=sys.stderr)
    clips_dir = (out or ROOT / ".bench-clips")
    env = {**os.environ, "NARRATOR_CONFIG": str(work / "config.yaml"), "TERM": "dumb"}
    wanted, ends = golden_steps(game, work, env)
    saves = work / "voice"
    if start:
        save_prefix(game, wanted[:start], saves, env)
        wanted, ends = steps_from(game, wanted, start, work, env)
    if steps is not None:
        wanted, ends = wanted[:steps], ends and steps >= len(wanted)
    with audio_room() as room_env:
        env.update(room_env)
        if apart:  # the microphone hears the players only
            subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=table",
                            "rate=16000"], env=env, check=True, capture_output=True, timeout=30)
            env["PULSE_SOURCE"] = "table.monitor"
        room = Room({**room_env, "PULSE_SINK": "table"} if apart else room_env, clips_dir, snr,
                    random.Random(seed), noise, work / "players.jsonl")
        log = work / "events.jsonl"
        command = ["resume"] if start else ["play", game]
        recorder = recording(record, env) if record else None
        began = time.time()
        with open(work / "narrator.out", "w") as output:
            app = subprocess.Popen(
                narrator(*command, "--input", "voice", "--save-dir", str(saves), "--events",
                         str(log), "--rate", str(rate), "--input-device", "pulse",
                         "--output-device", "pulse"),
                stdin=subprocess.PIPE, stdout=output, stderr=subprocess.STDOUT, cwd=ROOT,
                env=env)
            stream = Stream(log)
            stream.watch(app)
            def keyboard(line: str) -> None:
                app.stdin.write(f"{line}\n".encode())  # type: ignore[union-attr]
                app.stdin.flush()  # type: ignore[union-attr]
            players = Players(stream, room, random.Random(seed), talk, interrupt,
                              keyboard if typing else None)
            try:
                done = players.play(wanted)
                if done and ends:
                    done = stream.wait(0, game_over, 600) is not None
            except KeyboardInterrupt:  # Ctrl-C: the table so far, not completed
                done = False
                players.tally.findings.append(f"interrupted at answer {players.tally.needed}")
            finally:
                if done and ends:  # a game over ends the narrator by itself: let it close
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        app.wait(timeout=30)
                if app.poll() is None:
                    app.send_signal(signal.SIGINT)
                    try:
                        app.wait(timeout=60)
                    except subprocess.TimeoutExpired:
                        app.kill()
                room.close()
                stream.close()
                if recorder is not None:
                    recorder.terminate()
                    recorder.wait(timeout=30)
        wall = time.time() - began
    spoken = [e for e in stream.events if e["event"] == "spoken"]
    narration = sum(e["end"] - e["start"] for e in spoken)
    if spoken:
        wall = stream.events[-1]["t"] - stream.events[0]["t"]
    spans = [(e["start"], e["end"]) for e in spoken]
    own = sum(outside(held, spans) for held in players.tally.held)
    printed = (work / "narrator.out").read_text(errors="replace")
    return Run(game, snr, noise, done, players.tally, wall, narration, room.spoken, own,
               printed.count("Traceback (most recent call last)"))


def recording(path: Path, env: dict) -> subprocess.Popen:
    """Record the microphone's source (``PULSE_SOURCE`` in ``env``) into ``path``, a 16 kHz
    mono WAV file; when its first sample was heard is printed (epoch seconds: the audio
    written by the time the file first grows, counted back; parecord starts a second or two
    after it is run)."""
    path.unlink(missing_ok=True)
    recorder = subprocess.Popen(["parecord", f"--rate={clips.RATE}", "--channels=1",
                                 "--format=s16le", "--latency-msec=30", "--file-format=wav",
                                 str(path)], env=env)
    header = 44  # a WAV file's header: the audio comes after it
    written = 0
    while recorder.poll() is None and written <= header:
        written = path.stat().st_size if path.exists() else 0
        time.sleep(0.01)
    began = time.time() - max(0, written - header) / 2 / clips.RATE  # 16-bit samples
    print(f"recording the microphone into {path} from {began:.3f}", file=sys.stderr)
    return recorder


def outside(span: tuple[float, float], others: list[tuple[float, float]]) -> float:
    """How much of ``span`` none of ``others`` (not overlapping each other) covers."""
    start, end = span
    covered = sum(max(0.0, min(end, b) - max(start, a)) for a, b in others)
    return max(0.0, end - start - covered)


def report(run: Run) -> str:
    """The run's table and its last line."""
    t = run.tally
    waits = sorted(w * 1000 for w, _ in t.waits)
    p50 = statistics.median(waits) if waits else float("nan")
    p95 = waits[min(len(waits) - 1, int(0.95 * len(waits)))] if waits else float("nan")
    spoken = run.narration + run.speech
    timed = spoken + run.own
    by_voice = run.completed and not t.typed
    noise = "clean" if run.snr is None else f"{run.noise} at {run.snr:g} dB"
    rows = [
        ("room", noise),
        ("answers needed", t.needed),
        ("acted on correctly at first hearing", f"{t.first} ({pct(t.first, t.needed)})"),
        ("wrong actions", t.wrong),
        ("read-backs rejected", t.rejected),
        ("answers typed, never heard by voice", t.typed),
        ("free text spelled", t.spelled),
        ("free text taken by ear, spelled otherwise", t.by_ear),
        ("quits asked about that no one said", t.quit_checks),
        ("misses / repeats", f"{t.misses} / {t.repeats}"),
        ("wait after an answer p50 / p95", f"{p50:.0f} / {p95:.0f} ms"),
        ("wall time / narration + players' speech",
         f"{run.wall:.0f} s / {spoken:.0f} s = {ratio(run.wall, spoken)}"),
        ("... and the table's own pauses", f"{run.wall:.0f} s / {timed:.0f} s = "
         f"{ratio(run.wall, timed)} (it waits {REACTION:g} s before each utterance, 1 s after "
         f"\"Paused\")"),
        ("Python tracebacks printed", run.tracebacks),
        ("reached its end", "yes" if run.completed else "no"),
        ("completed by voice alone", "yes" if by_voice else "no"),
    ]
    width = max(len(k) for k, _ in rows)
    lines = [f"{run.game}"] + [f"  {k:<{width}}  {v}" for k, v in rows]
    lines += [f"  finding: {f}" for f in t.findings]
    lines += [f"  slow: {w * 1000:.0f} ms after {said}"
              for w, said in sorted(t.waits, reverse=True)[:SLOWEST]]
    lines.append(f"{run.game}: completed {'yes' if by_voice else 'no'}; "
                 f"correct {t.first}/{t.needed}; wrong {t.wrong}; p95 wait {p95:.0f} ms")
    return "\n".join(lines)


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b else "nanx"


def pct(a: int, n: int) -> str:
    return f"{100 * a / n:.1f}%" if n else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES + ("higher-lower",))
    parser.add_argument("--all", action="store_true", help="every game, clean and at 10 dB")
    parser.add_argument("--snr", type=float, help="a noise bed this many dB under the players")
    parser.add_argument("--noise", choices=("babble", "pink"), default="babble",
                        help="the bed: three voices talking (default) or pink noise")
    parser.add_argument("--rate", type=float, help="the narrator's speech rate (0.5-3)")
    parser.add_argument("--from", dest="start", type=int, default=0,
                        help="start from a session saved this many answers in")
    parser.add_argument("--steps", type=int, help="answers to play by voice (default: all)")
    parser.add_argument("--apart", action="store_true",
                        help="keep the narrator's voice out of the microphone")
    parser.add_argument("--talk", type=float, default=0.3,
                        help="share of passages with table talk over them")
    parser.add_argument("--no-interrupt", action="store_true",
                        help="no pause, resume, repeat or go back")
    parser.add_argument("--seed", type=int, default=1, help="the table's choices")
    parser.add_argument("--no-typing", action="store_true",
                        help="never type an answer not heard by voice: the run stops there")
    parser.add_argument("--out", type=Path, help="clip cache folder (default .bench-clips)")
    parser.add_argument("--record", type=Path,
                        help="keep what the microphone heard in this WAV file")
    args = parser.parse_args(argv)
    # Ctrl-C or kill: the table so far (and a run started in the background still hears
    # Ctrl-C, as the narrator it starts does: a handled signal is reset for a child)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    missing = missing_tools() + clips.missing_tools(PLAYERS)
    if missing:
        print(f"needs {', '.join(missing)}", file=sys.stderr)
        return 2
    if not args.all and not args.game:
        parser.error("give --game GAME or --all")
    runs = ([(g, snr) for g in GAMES for snr in (None, 10.0)] if args.all
            else [(args.game, args.snr)])
    rate = args.rate or (1.5 if args.all else 1.0)
    for game, snr in runs:
        run = play_by_voice(game, snr=snr, noise=args.noise, rate=rate, start=args.start,
                            steps=args.steps, apart=args.apart, talk=args.talk,
                            interrupt=not args.no_interrupt, seed=args.seed, out=args.out,
                            typing=not args.no_typing,
                            record=args.record and (args.record if len(runs) == 1 else
                                                    args.record.with_suffix(
                                                        f".{game}-{snr or 'clean'}.wav")))
        print(report(run), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
