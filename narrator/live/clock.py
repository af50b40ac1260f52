"""The live session's clock: a timer runs once its line has been heard, a held day's clock goes on
with what it had, a day timer's time left is noted in the journal, a pause keeps what is left."""

from __future__ import annotations

import logging
from dataclasses import replace

from ..flow.effects import Say, Timer

log = logging.getLogger("narrator.live")

# how often a running day timer notes in the journal what it has left: after a crash the speaker
# gets at most this much more than he had, never a fresh minute
MARK_EVERY = 5.0
# how often a step waiting for its line to be heard looks whether the speaker went quiet without
# saying so (only a stalled device does): the speaker's own word starts the timer
HEARD_WATCH = 1.0

# without a speaker, how long a keypad table's night step waits after its lines are printed before
# its time runs: about what a speaker takes to say them («The mafia falls asleep. The Don wakes
# up…»). Without it the next step opened the instant the last one ended, and a mafioso's Enter a
# second and a half late became the Don's check; with it a key after the step's end meets no open
# step, with a speaker or without, and is answered that it came too late. The same for every step,
# whoever is awake
KEYPAD_ANNOUNCE = 3.0


def spoken_left(left: float) -> int:
    """A time left as the narrator says it: whole minutes from two minutes up, seconds below."""
    return int(left) // 60 * 60 if left >= 120 else max(1, round(left))


class Clock:
    """The timers of `LiveSession` (its part that keeps the real time)."""

    def timer_remaining(self) -> float | None:
        if self.paused:
            return self._paused_remaining
        if self._timer_deadline is None or self.loop is None:
            return None
        return max(0.0, self._timer_deadline - self.loop.time())

    def _clocked(self, t: Timer) -> tuple[Timer, list[Say]]:
        """A timer as it runs here, and what is said before it. A running clock (hungariq's day)
        that another timer replaces is held with what it has left — noted in the journal, so a
        crash in the trial keeps it; a clock resumed goes on with that, said to the table ("The
        day has 11 minutes left."), and so does one restarted by a crash with less than its full
        time. A new day's clock, or no timer at all, forgets what was held."""
        clock = self._clock
        if clock is not None and t.name and t.name != clock.name:
            left = self.timer_remaining()
            # while the clock's opening line is still being said its deadline holds the narration
            left = min(float(clock.seconds), left if left is not None else 0.0)
            self._held = (clock.name, left, self._clock_number)
            if self._marked():
                self.journal.timer_mark(self._clock_number, left)
        self._clock = None
        held = self._held
        if held is not None and (t.name is None or (t.name == held[0] and not t.resume)):
            self._held = held = None
        if t.resume and held is not None and t.name == held[0]:
            self._held = None
            t = replace(t, seconds=max(1.0, held[1]))
        full = self.game.timers.get(t.name, 0) if t.name else 0
        if t.hold and t.name and t.seconds < full - 1:
            return t, [Say("day_time_left", {"time": spoken_left(t.seconds)})]
        return t, []

    def held_remaining(self) -> float | None:
        """What the held day's clock has left while a trial runs (None when none is held)."""
        return self._held[1] if self._held is not None else None

    def _start_timer(self, t: Timer) -> None:
        self._cancel_timer()
        self._timer_name = t.name
        self._cue = t if t.name and t.cue else None
        if not t.name:
            if self.paused:
                self._paused_remaining = None  # nothing runs when the pause ends
            return
        self._timer_count += 1
        if t.hold:
            self._clock, self._clock_number = t, self._timer_count
        seconds = float(t.seconds)
        step = self.game.step
        jitter = self.config.section("night")["jitter_ms"]
        if step is not None and jitter:
            # the same random spread for every step, whoever is awake, alive or dead
            seconds += self._jitter.uniform(0, jitter / 1000.0)
        if self.paused:
            # started by an input applied during the pause (a phone's, a host screen's accusation):
            # it waits with the game and gets its own time at `resume`, not what the timer before
            # it had left
            self._paused_remaining = seconds
            return
        self._arm_after_narration(seconds)

    def narration_ahead(self) -> float:
        """Seconds of narration queued and not yet played (0 without a speaker)."""
        return max((out.queued_seconds() for out in self.outputs if hasattr(out, "queued_seconds")), default=0.0)

    def _arm_after_narration(self, seconds: float) -> None:
        """A phase starts when its line has been heard, not when it was queued: a night step must
        not run out while the narrator is still explaining the keypad, and every step lasts its
        line plus its time, to the sample, however long rendering the line took. The speaker says
        when its last sample is heard (an event from its audio thread, with the moment), so the
        timer starts then — the same for every step and every player, whoever is awake."""
        speakers = [out for out in self.outputs if hasattr(out, "when_heard")]
        self._timer_token += 1
        token = self._timer_token

        def heard(at: float) -> None:  # on the audio thread
            self.loop.call_soon_threadsafe(self._heard, token, seconds, at)

        if not any(out.when_heard(heard) for out in speakers[:1]):
            if self.keypad_table and self.game.phase() == "night" and self.game.step is not None:
                # no speaker: the step's lines are printed at once, and its time runs as if they
                # had been said (KEYPAD_ANNOUNCE), the same for every step
                at = self.loop.time() + KEYPAD_ANNOUNCE
                self._timer_deadline = at + seconds
                self._timer_handle = self.loop.call_at(at, self._heard, token, seconds, at)
                return
            return self._arm(seconds)
        self._timer_deadline = self.loop.time() + self.narration_ahead() + seconds  # for the countdowns meanwhile
        # a speaker that stops playing (a device unplugged) must not hold the game for ever: looked
        # at now and then, a queue found empty starts the timer as if it had said so
        self._timer_handle = self.loop.call_later(HEARD_WATCH, self._heard_watch, token, seconds)

    def _heard(self, token: int, seconds: float, at: float) -> None:
        if token != self._timer_token:
            return  # cancelled (a newer phase, or a pause) while the narrator was talking
        self._arm(seconds, at)

    def _heard_watch(self, token: int, seconds: float, quiet: bool = False) -> None:
        if token != self._timer_token:
            return
        if self.narration_ahead() <= 0.005:
            if quiet:  # quiet at two looks and still no word from the speaker: it will not come
                return self._arm(seconds)
            # the speaker's word may be on its way to the loop this very moment: a moment more
            self._timer_handle = self.loop.call_later(0.2, self._heard_watch, token, seconds, True)
            return
        self._timer_handle = self.loop.call_later(HEARD_WATCH, self._heard_watch, token, seconds)

    def _arm(self, seconds: float, start: float | None = None, resumed_at: float | None = None) -> None:
        """Run the timer for `seconds` from `start` (the loop's clock, time.monotonic; now by default).
        `resumed_at`: the seconds left of a timer that was paused."""
        if self._timer_handle is not None:
            self._timer_handle.cancel()  # the watch over the narration, when the speaker said it first
        self._timer_token += 1
        token = self._timer_token
        start = self.loop.time() if start is None else start
        self._timer_deadline = start + seconds
        self._timer_handle = self.loop.call_at(start + seconds, self.queue.put_nowait, ("timeout", token, "clock"))
        if self._cue is not None and seconds > self._cue.cue:
            self._cue_handle = self.loop.call_at(start + seconds - self._cue.cue, self.queue.put_nowait, ("cue", token, "clock"))
        if self._marked():
            self._mark(seconds)
            self._tick_handle = self.loop.call_at(start + MARK_EVERY, self.queue.put_nowait, ("tick", token, "clock"))
        self._runs(resumed_at, start)

    def _runs(self, resumed_at: float | None, start: float | None = None) -> None:
        """The armed timer's time runs (since `start`): a night step is open for the keypad."""
        if self.game.phase() == "night" and self._timer_name:
            self._steps_opened += 1
            self._open_step = self._steps_opened
            self._open_since = self.loop.time() if start is None else start
        if self._dispatching:
            self._open_pending = True  # told once the outputs have seen the timer (its ⏱, its wipe)
        elif start is not None and start > self.loop.time():
            # the speaker said when its last sample will be heard: a sound card's latency from
            # now. The ⏱ (and a night step's wiped screen) come then, not while the line is still
            # coming out of the speaker
            token = self._timer_token
            self.loop.call_at(start, lambda: token == self._timer_token and self._opened(resumed_at))
        else:
            self._opened(resumed_at)

    def _opened(self, resumed_at: float | None) -> None:
        """The timer runs from now: its line has been heard. Outputs that show the step's start (the
        console's ⏱, its wiped screen at night) show it now, not while the line is still being said."""
        for out in self.outputs:
            if hasattr(out, "timer_started"):
                try:
                    out.timer_started(resumed_at)
                except Exception:  # noqa: BLE001 — as in _show
                    log.exception("output %s failed as the timer started", type(out).__name__)

    def _marked(self) -> bool:
        """Whether the running timer's time left is noted in the journal: a day timer's is. A night
        step restarts from full after a crash, so nothing of it is noted."""
        return self.journal is not None and self._timer_name is not None and self.game.phase() != "night"

    def _mark(self, left: float) -> None:
        self.journal.timer_mark(self._timer_count, left)

    def _cancel_timer(self) -> None:
        if self._timer_handle is not None:
            self._timer_handle.cancel()
        if self._cue_handle is not None:
            self._cue_handle.cancel()
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        self._cue_handle = None
        self._tick_handle = None
        self._timer_handle = None
        self._timer_deadline = None
        self._timer_token += 1
        self._open_step = None
        self._open_pending = False
