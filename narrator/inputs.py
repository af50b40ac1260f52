"""The input lines a transcript or the console takes: deal, say, tap, vote, nominate, withdraw,
accuse, foul, disqualify, defeat, leave, extend, timeout.

`say` sentences are in the table's language, exactly as the recogniser delivers them; they are
turned into core events here so that typed and heard commands are one and the same thing. Typed,
a sentence is understood in English as well (see `sentence_event`); heard, in the table's
language only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .flow.events import Deal, Defeat, Disqualify, EndSpeech, Event, Extend, Foul, Leave, Nominate, Revoke, Tap, Timeout
from .language import MAX_SEAT_DIGITS, Command, Malformed, Voice, load_voice, seat_number
from .rules.roles import ROLE_ALIASES
from .worded import Worded


def shown(text: str, limit: int = 40) -> str:
    """Typed text quoted for an answer: control characters escaped, a long line cut short."""
    if len(text) > limit:
        return repr(text[:limit]) + f"… ({len(text)} characters)"
    return repr(text)


class InputError(ValueError):
    """A line that is not a valid input; the message says what is wrong (in English, for logs)."""

    def __init__(self, message: str, line: str | None = None, args: dict | None = None, key: str | None = None,
                 **words):
        super().__init__(message)
        self.line = line  # a narration line id to answer with, when there is one
        self.params = args or {}  # not "args": BaseException coerces that to a tuple
        # whoever typed the line (at the console, or in a transcript) is told in the table's
        # language: the voice file's [console] line input_<key>
        self.worded = Worded(message, "console", f"input_{key}" if key else None, words)

    def explained(self, voice: Voice | None) -> str:
        """What is wrong, in the language of `voice` (a Voice with a [console] section)."""
        return self.worded.said(voice)


@dataclass(frozen=True)
class Talk:
    """A sentence that is no command: ordinary speech at the table, ignored by the game."""

    text: str


# a role or flag is one word of letters (any script) and underscores: never "@…", which the
# narration would read as a reference to another line
_WORD = re.compile(r"[^\W\d]+")

YES = {"yes", "y", "да", "ja", "igen", "for", "за"}
NO = {"no", "n", "нет", "nej", "nein", "nem", "against", "против"}


# What may be said during the day in each rule system: classic nominations come from the speaker,
# while in sverige and hungariq anyone may speak, so their sentences name the speaker too.
DAY_COMMANDS = {
    "classic": {"nominate", "revoke", "cancel", "end_speech"},
    "sverige": {"nominate_by", "withdraw_by", "extension", "end_speech"},
    "hungariq": {"accuse", "end_speech"},
    "grundregeln": {"end_speech"},
}


def open_to_speech(game) -> bool:
    """Whether a sentence said at the table now may be one of the day's commands: while a player
    holds the floor, and in an open day where anyone names a nominee aloud (sverige's discussion
    and last call, seed 000; hungariq's accusations, seed 001: the states in which the host screen
    nominates too). Not a discussion whose only command would be its end (grundregeln's, hungariq's
    debate): a "thanks" across the table would end it for everyone."""
    return game.floor is not None or getattr(game, "state", None) in getattr(game, "HOST_NOMINATE_STATES", ())


def spoken_to_nobody(game, command_kind: str) -> bool:
    """A heard "thank you" in an open day: said across the table, it ends nobody's speech."""
    return command_kind == "end_speech" and game.floor is None


# the referee's and the host's commands that name one seat: foul 4, disqualify 4, defeat 4, leave 4
SEAT_COMMANDS = {"foul": Foul, "disqualify": Disqualify, "defeat": Defeat, "leave": Leave}

# the day's sentences as typed words, in English at every table like tap and foul (a club's scorer
# types `nominate 3` whatever the table speaks): `nominate 3`, `withdraw 3`, `accuse 3`, each with
# `by 7` where the rules name who says it (sverige's nominator, seed 000). Hungariq's accusation
# is its nomination (seed 001); the rules answer one they do not take as a spoken one is answered.
SENTENCE_WORDS = {"nominate": Nominate, "accuse": Nominate, "withdraw": Revoke, "revoke": Revoke}

# every word a typed line may begin with (anything else is a sentence, as if after `say`)
INPUT_WORDS = ("deal", "say", "tap", "vote", *SENTENCE_WORDS, *SEAT_COMMANDS, "extend", "timeout")


def command_event(cmd: Command) -> Event:
    if cmd.kind in ("nominate", "nominate_by", "accuse"):
        return Nominate(cmd.seat, cmd.by)
    if cmd.kind in ("revoke", "withdraw_by"):
        return Revoke(cmd.seat, cmd.by)
    if cmd.kind == "extension":
        return Extend()
    if cmd.kind == "cancel":
        return Revoke(None, cmd.by)
    if cmd.kind == "end_speech":
        return EndSpeech(cmd.by)
    raise InputError(f"command {cmd.kind!r} is not used during the day")


def sentence_event(text: str, voice: Voice, variant: str = "classic", typed: bool = False) -> Event | Talk:
    """A sentence said at the table (or typed as one) as the event it commands, or Talk.

    `typed`: a club's scorer types English whatever the table speaks ("I nominate player 3" at a
    Russian table was table talk). A typed sentence that is no command in the table's language is
    read as English too — the day's English sentences are no words of talk in another language, so
    nothing said in the table's own words changes meaning. The microphone hears the table's
    language only: its grammar is the table's."""
    event = _sentence_in(text, voice, variant)
    if typed and isinstance(event, Talk) and voice.lang != "en":
        try:
            english = _sentence_in(text, load_voice("en", variant), variant)
        except InputError:
            return event  # English-like talk that is no command ("I nominate the quiet one"): talk
        if not isinstance(english, Talk):
            return english
    return event


def _sentence_in(text: str, voice: Voice, variant: str) -> Event | Talk:
    only = DAY_COMMANDS.get(variant)
    parsed = voice.parse(text, only=only)
    if only and "nominate_by" in only and not isinstance(parsed, Command):
        # where anyone may nominate, "I nominate 4" lacks only its nominator: the core says so,
        # rather than teaching the very sentence that was just said
        mine = voice.parse(text, only={"nominate", "revoke"})
        if isinstance(mine, Command):
            return Nominate(mine.seat) if mine.kind == "nominate" else Revoke(mine.seat)
    if isinstance(parsed, Malformed):
        line = "not_understood_revoke" if parsed.kind in ("revoke", "withdraw_by") else "not_understood"
        raise InputError(f"not a valid {parsed.kind} sentence: {shown(text)}", line, key="malformed", text=shown(text))
    if parsed is None:
        return Talk(text)
    return command_event(parsed)


def _int(word: str, what: str) -> int:
    n = seat_number(word)
    if n is None:
        # ³ or ½ look like numbers to a player: say how a seat number is written
        digits = any(c.isnumeric() for c in word)
        hint = f" (written with the digits 0-9, at most {MAX_SEAT_DIGITS} of them)" if digits else ""
        command, _, part = what.partition(" ")
        key = ("target" if part == "target" else "seat") + ("_digits" if digits else "")
        raise InputError(f"{what} must be a seat number{hint}, not {shown(word)}", key=key, command=command,
                         text=shown(word), most=MAX_SEAT_DIGITS)
    return n


# a scorer's line of hands: "3 5 8" (for the name being called), "7: 3 5 8" (the voters for 7).
# \d is a decimal digit of any script, as seat_number takes it: a full-width or Arabic-Indic layout
# types "７：３，５" or "٣ ٥ ٨" — its own colon and commas with its digits (any other digit-like
# sign, "³", makes the line no line of hands: it is answered as no seat number)
_COLONS, _COMMAS = ":：", ",，、،"
_HANDS = re.compile(rf"(?:(\d+)\s*[{_COLONS}])?([\d\s{_COMMAS}]*)")


def hands_line(text: str) -> tuple[int | None, list[int]] | None:
    """A line of seat numbers typed in a hand call, as (the candidate it names, the raised hands);
    None for a line of any other shape. Raises InputError for a number that is no seat."""
    text = text.split("#", 1)[0].strip()
    m = _HANDS.fullmatch(text)
    if m is None or not text or seat_number(text[0]) is None:
        return None
    words = re.sub(f"[{_COMMAS}]", " ", m.group(2)).split()
    target = _int(m.group(1), "hands target") if m.group(1) else None
    if target is None and not words:
        return None
    return target, [_int(w, "hands seat") for w in words]


def parse_line(line: str, voice: Voice, variant: str = "classic") -> Event | Talk | None:
    """One transcript or console line as an event; None for a blank line or a comment."""
    # "#" starts a comment on any line; no sentence said at a table contains one
    # a byte-order mark (a file saved by Notepad) is no part of the first word
    text = line.split("#", 1)[0].strip().lstrip("\ufeff").strip()
    if not text:
        return None
    # any whitespace separates the words (a tab, a no-break space pasted from a chat)
    word, _, rest = " ".join(text.split()).partition(" ")
    word = word.lower()
    if word == "say":
        if not rest:
            raise InputError("say needs a sentence", key="say_empty")
        return sentence_event(rest, voice, variant, typed=True)
    if word == "deal":
        if rest.strip().lower() == "cards":
            return Deal((), (), cards=True)  # physical cards: the roles show themselves at night zero
        roles, extras = [], []
        for item in rest.split():
            if "+" in item:  # a second-deal flag: 5+lover, 6+kamikaze (seed 001)
                seat, _, flag = item.partition("+")
                if len(flag) > 30 or not _WORD.fullmatch(flag):
                    raise InputError(f"deal: {shown(flag)} is no second-deal flag (lover, kamikaze)", key="deal_flag",
                                     text=shown(flag))
                extras.append((_int(seat, "deal seat"), flag.lower()))
                continue
            seat, eq, role = item.partition("=")
            if not eq or not role:
                raise InputError(f"deal takes seat=role pairs (and seat+lover, seat+kamikaze), not {shown(item)}",
                                 key="deal_pairs", text=shown(item))
            role = role.lower()
            if len(role) > 30 or not _WORD.fullmatch(role):
                raise InputError(f"deal: {shown(role)} is no role", key="deal_role", text=shown(role))
            roles.append((_int(seat, "deal seat"), ROLE_ALIASES.get(role, role)))
        return Deal(tuple(roles), tuple(extras))
    if word in ("tap", "vote"):
        # `vote 5 3`: player 5's vote for 3, as `tap 5 3` takes it (the scorer's word for a hand)
        parts = rest.split()
        if len(parts) != 2:
            raise InputError(f"{word} takes a seat and a target: {word} 3 7, or {word} 3 yes", key=f"{word}_two")
        seat = _int(parts[0], f"{word} seat")
        target = parts[1].lower()
        if target in YES:
            return Tap(seat, answer=True)
        if target in NO:
            return Tap(seat, answer=False)
        # a target that is no seat is quoted as typed ('T{seat}T', 'Ja?'), not lower-cased
        return Tap(seat, _int(parts[1], f"{word} target"))
    if word in SENTENCE_WORDS:
        parts = rest.split()
        if len(parts) not in (1, 3) or len(parts) == 3 and parts[1].lower() != "by":
            raise InputError(f"{word} takes a seat, and who says it where the rules ask: {word} 4, or {word} 4 by 7",
                             key="sentence_word", command=word)
        seat = _int(parts[0], f"{word} seat")
        by = _int(parts[2], f"{word} seat") if len(parts) == 3 else None
        return SENTENCE_WORDS[word](seat, by)
    if word in SEAT_COMMANDS:
        parts = rest.split()
        if len(parts) != 1:
            raise InputError(f"{word} takes one seat: {word} 4", key="one_seat", command=word)
        return SEAT_COMMANDS[word](_int(parts[0], f"{word} seat"))
    if word == "timeout" and rest.lower() == "count":
        # the call's time is over at a scorer's table: "Stop." now, the count when his hands are in
        # (the plain `timeout` after them) — what the live loop journals as the time ends
        return Timeout(count_waits=True)
    if word == "timeout" and rest:
        raise InputError("timeout takes nothing after it but count: timeout, or timeout count", key="timeout_after")
    if word in ("extend", "timeout"):
        if rest:
            # "extend 5" is no extension of 5 minutes: its length is the rule's, so say so
            raise InputError(f"{word} takes nothing after it", key="nothing_after", command=word)
        return Extend() if word == "extend" else Timeout()
    raise InputError(f"unknown input {shown(word)}: use deal, say, tap, vote, nominate, withdraw, accuse, foul, disqualify, "
                     "defeat, leave, extend or timeout",
                     key="unknown", text=shown(word))
