"""After "Which seat was that? Say the number again.": the number alone completes the doubted command.

A whole command whose seat the two recognisers heard differently is not taken; the player is
asked for the number. For the next `AGAIN_SECONDS` of that player's floor only a bare seat number
is listened for, and "five" becomes "i nominate player 5" (the words as heard, with the new seat).
Then the day's commands again. The game (`mic.VoiceInput`) and `narrator listen` hear it the same
way: one class, so the tool a player tries their microphone with answers as the table does.

A sentence naming two seats ("player two nominates player five" in sverige, "player two accuses
player five" in hungariq) is asked again whole ("Which seats were those? Say the whole sentence
again."), and the day's commands stay listened for: a number alone could complete either seat,
and a wrong nominator or accuser costs the table as much as a wrong nominee.
"""

from __future__ import annotations

from dataclasses import replace

from ..language import Command
from .endpoint import Heard, Listener
from .grammar import build_grammar

# the player's floor for the answer (the narrator's own line not counted): a number said later,
# or on the next player's floor, is no command
AGAIN_SECONDS = 8.0


class SeatAskedAgain:
    """Switches `listener` between the day's commands and the bare seat numbers."""

    def __init__(self, listener: Listener, engine, voice, upto: int):
        self.listener = listener
        self.engine = engine
        self.voice = voice
        self.upto = upto
        self._day = (listener.stream, listener.grammar)
        self._seat: tuple | None = None  # made when first needed (only a doubted seat needs it)
        # the command whose seat is asked for (its words as heard), the floor it was said on,
        # and how many seconds of that floor are left to answer it with a bare number
        self.asked: tuple[str, object] | None = None
        self.left = 0.0

    @property
    def day_only(self):
        return self._day[1].only

    def doubted(self, heard: Heard, floor: object = None, open_day: bool = False) -> str:
        """`heard` was a command with a doubted seat: the line that asks for it again. A command
        naming one seat: its number, listened for alone on `floor` ("say_seat_again"). One naming
        two (a Swedish "3 nominates 5"), or any said in an open day where nobody holds the floor
        (`open_day`: a hungariq "I accuse player 8" in the accusations, where the next number
        said may be anybody's): the whole sentence ("say_sentence_again")."""
        if self.asked is not None:
            # the number asked for was itself doubted: only a number is listened for, so it is
            # the number that is asked for again, with the whole answer time. Until session 23 it
            # was answered "Say the whole sentence again." (a bare number is no sentence naming
            # one seat), while the listener went on hearing numbers alone
            self._listen_for(self.asked)
            return "say_seat_again"
        if open_day or self.voice.with_seat(heard.text, 0, self.day_only) is None:
            return "say_sentence_again"
        self._listen_for((heard.text, floor))
        return "say_seat_again"

    def elapse(self, seconds: float, floor: object = None) -> None:
        """`seconds` more of the floor were heard (now `floor`): the question lapses when its time
        is up or the floor passed on, never in the middle of an utterance."""
        if self.asked is None:
            return
        self.left -= seconds
        if (self.left <= 0 or floor != self.asked[1]) and not self.listener.in_speech:
            self._listen_for(None)

    def answer(self, heard: Heard) -> Heard | None:
        """A bare seat number heard: the doubted command it completes (once), or None when nobody
        asked for a number (a number alone is no command of the day)."""
        if self.asked is None or not isinstance(heard.command, Command) or heard.command.kind != "seat":
            return None
        text = self.voice.with_seat(self.asked[0], heard.command.seat, self.day_only)
        self._listen_for(None)
        if text is None:
            return None
        return replace(heard, text=text, command=self.voice.parse(text, only=self.day_only))

    def _listen_for(self, asked: tuple[str, object] | None) -> None:
        self.asked, self.left = asked, AGAIN_SECONDS
        if asked is not None and self._seat is None:
            # the bare seat numbers only: with the day's commands beside them, a third of the
            # calibration speakers' answers were forced into a "thank you" or "cancel" and
            # rejected by the gate (right 16 of 29 answers against 18-20 with seats alone)
            grammar = build_grammar(self.voice, "seat", upto=self.upto)
            self._seat = (self.engine.stream(grammar), grammar)
        # only ever between utterances (a closed one, or none under way): the stream of the other
        # grammar holds nothing yet, and the room's noise floor carries over
        self.listener.stream, self.listener.grammar = self._seat if asked is not None else self._day
