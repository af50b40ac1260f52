"""The live session's inputs: submitted from any thread, taken in turn on the game's loop; the
keypad's seat for the step it was typed in; the scorer's hands; pause and resume."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..flow.effects import Effect
from ..flow.events import Event, Tap, Timeout


# a seat typed on the keypad this soon after a night step's time began is not taken for it: the
# role just woken has barely opened its eyes, and a key that late is the step before's (a table
# without a speaker sees the next step begin the instant the last one ends)
KEYPAD_GRACE = 1.0


# where a `timeout` is the host's: typed at the console (a transcript's `timeout` stands for the
# clock), or the host screen's; its End speech is his too, where a typed `say thank you` is the
# speaker's words as heard
HOST_SOURCES = frozenset({"console", "companion-host"})


@dataclass
class Answer:
    """A public answer to input that never reached the core (a malformed sentence)."""

    line: str
    args: dict
    seat: int | None = None


class Inputs:
    """The inputs of `LiveSession`, from any adapter (its part that takes them in)."""

    # ------------------------------------------------------------------ inputs (any thread)
    def submit_event(self, event: Event, source: str = "console", refuse=None) -> None:
        """`refuse()`, when given, is asked on the loop thread when the event's turn comes (as for
        `submit_line`): True keeps it from the game — an input another one answered first."""
        self._submit(("event", (event, refuse) if refuse is not None else event, source))

    def submit_sentence(self, text: str, source: str = "voice") -> None:
        self._submit(("sentence", text, source))

    def submit_line(self, text: str, source: str = "console", refuse=None) -> None:
        """`refuse()`, when given, is asked on the loop thread when the line's turn comes — in the
        state the line would meet, not the one it was typed in; True keeps it from the game."""
        self._submit(("line", (text, refuse) if refuse is not None else text, source))

    def submit_answer(self, line: str, source: str = "voice") -> None:
        """A public line answering input that never becomes an event ("say the number again")."""
        self._submit(("answer", line, source))

    def submit_notice(self, line: str) -> None:
        """A public line about the table's equipment ("the microphone has gone silent"), said
        whatever the game is doing — paused or not, whoever holds the floor."""
        self._submit(("notice", line, "device"))

    def open_night_step(self) -> int | None:
        """Which night step's time is running now (any thread): the keypad notes it as a seat is
        typed. None in the step's first KEYPAD_GRACE seconds: a seat entered then was meant for the
        step before (the narrator moved on as the Enter went down), not by the role just woken."""
        step, since = self._open_step, self._open_since
        if step is None or time.monotonic() - since < KEYPAD_GRACE:
            return None
        return step

    def still_open(self, typed_in: int | None) -> bool:
        """Whether the night step that was open as a line was typed (`open_night_step`) still is."""
        return typed_in is not None and typed_in == self._open_step

    def submit_keypad(self, target: int, typed_in: int | None, strict: bool) -> None:
        """A seat typed on the keypad at night: the choice of every awake seat of the step. `strict`
        (the table's own terminal): taken only if `typed_in`, the step open when it was typed, is
        still the open one when its turn comes. Piped lines fast-forward as a transcript does: they
        meet the step their turn comes in."""
        self._submit(("keypad", (target, typed_in, strict), "keypad"))

    def hand_call(self) -> int | None:
        """The number of the hand call open now at a table whose scorer types the hands (no phones
        to tap them, the console a terminal); None when there is none."""
        game = self.game
        if not self.scorer_at_console or getattr(game, "votes_on_phones", False) or game.phase() in ("night", "over"):
            return None
        return self._calls if game.vote_choices() is not None else None

    def hands_waiting(self) -> bool:
        """Whether the hand call's time is over and its count waits for the scorer's line."""
        return self.hand_call() is not None and self._held_call == self._calls

    def apply_typed(self, event: Event) -> None:
        """One event of a line typed at the console, applied now (on the loop): journaled, and
        answered as any input is."""
        self._apply(event)

    def hands_entered(self, call: int) -> None:
        """The scorer's line for hand call `call` is in: once its time is over, it is counted."""
        if call != self._calls:
            return
        self._hands_in = call
        if self._held_call == call:
            self._held_call = -1
            self._apply(Timeout())

    def _count_resumed(self) -> None:
        """Resumed while a call's count waited for the scorer's line: it waits for it again. Where
        the phones came to the table at this resume and vote from now on, nobody types the hands
        of a call that is over: what was journaled is counted."""
        if self.game.votes_on_phones:
            return self._apply(Timeout())
        self._held_call = self._calls
        self._hands_awaited()

    def _hands_awaited(self) -> None:
        for out in self.outputs:
            if hasattr(out, "hands_awaited"):
                out.hands_awaited()

    def submit_control(self, what, refused=None) -> None:
        """pause, resume, quit — or a callable run in turn with the inputs (e.g. a status report).
        `refused(key)`: told on the loop thread why a pause or resume was not done, as a [console]
        key (`pause_refusal`)."""
        if refused is None:
            return self._submit(("control", what, "console"))
        self._submit(("control", (what, refused), "console"))

    def pause_refusal(self, what: str) -> str | None:
        """Why `pause` or `resume` cannot be done now (a [console] key), None when it can. Every
        host asks here, the console and the host screen alike. At night, where the night steps run
        their full time: a step that runs longer tells the table its role is alive (only an awake
        player reaches the keypad at night), and "The game is paused." would be said into the
        night — refused alike at every step."""
        if what == "pause" and self.full_nights and self.game.phase() == "night":
            return "pause_at_night"
        if what in ("pause", "resume") and (what == "pause") == self.paused:
            return "already_paused" if self.paused else "not_paused"
        return None

    async def until_quit(self) -> None:
        """After the game is over (`run` has returned): take the controls still submitted — a
        status report's callable is run, every other input is no more the game's and is let go —
        and return when `quit` is typed. The console reads on while the result stays up."""
        while True:
            kind, what, _ = await self.queue.get()
            if kind == "control" and what == "quit":
                return
            if kind == "control" and callable(what):
                what()

    def _submit(self, item) -> None:
        if self.loop is None:
            raise RuntimeError("the live session is not running")
        self.loop.call_soon_threadsafe(self.queue.put_nowait, item)

    def answer_late_key(self) -> None:
        """A seat typed at the table's terminal for a night step that is over (on the loop): said
        on the screen, never aloud, while no step is open — see `_keypad`."""
        if self.game.phase() == "night" and self._open_step is None and self.keypad_table:
            key = "keypad_too_late" if self._step_closed_tonight else "keypad_too_early"
            self._answer(Answer(key, {}), detail=self.voice.console_text(key, {}))

    def _keypad(self, target: int, typed_in: int | None, strict: bool) -> None:
        if self.paused:
            return  # nothing changes the game in a pause; the keypad never answers (see below)
        if strict and not self.still_open(typed_in):
            # typed after its step ended, or while the next one was still being announced: it is
            # nobody's choice. Said on the screen (never aloud) while no step is open — the next
            # step's line is being said, or printed and waited for without a speaker — so the one
            # who typed it knows it was not taken; the screen is cleared as the next step opens,
            # before its role opens his eyes. Once that step is open nothing says so: its role is
            # looking, and a note would tell him the role of the step before is alive
            self.answer_late_key()
            return
        step = self.game.step
        if self.game.phase() != "night" or step is None or step.action is None:
            return
        self._apply_shared([Tap(seat, target) for seat in self.game.awake_seats()])

    def _apply_shared(self, events: list[Event]) -> None:
        """One keypad seat, the tap of every awake seat: journaled and applied one by one, and the
        same private answer to each of them ("You chose 5") shown once, for all of them."""
        effects: list[Effect] = []
        try:
            for event in events:
                if self.journal is not None:
                    self.journal.append(event)
                effects.extend(self.session.feed(event))
        finally:
            self._dispatch(effects, shared=True)
