"""The live session: one asyncio loop owns the game; every input is journaled, applied, and its
effects fan out to every output adapter in order."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from dataclasses import replace
from typing import Protocol

from ..config import Config
from ..flow.effects import Effect, HostLine, Record, Reject, Say, Tell, Timer
from ..flow.events import EndSpeech, Event, Tap, Timeout, event_to_dict
from ..flow.game import PHONE_TWINS, PHONES
from ..inputs import InputError, Talk, open_to_speech
from ..journal import Journal, JournalError
from ..session import Session
from .clock import MARK_EVERY, Clock, spoken_left
from .inputs import HOST_SOURCES, Answer, Inputs

log = logging.getLogger("narrator.live")

# Records after which the lines of a new step begin: the step's opening lines come after them, and
# what was said before them closed the step before ("Thank you, player 1. Time is up.")
STEP_STARTS = frozenset({"phase", "speech", "vote_open"})
# Lines that tell the outcome of the step just ended — a time up, a count of hands, an accusation
# that fell — said in the same breath as the next step's opening: on a resume they are old news
# about somebody else, and the table hears only where it is now ("Player 2, you have 55 seconds.")
STEP_RESULTS = frozenset({"time_up", "vote_count", "vote_stop", "hand_vote_count", "accusation_count", "accusation_falls",
                          "execution_count", "spared", "nominated_by", "withdrawn_by",
                          "withdrawn_still_nominated"})


# the line an answer is worded with when several seats read it at once: "<line>_shared"
SHARED_LINE = "_shared"


def _shared_answers(effects: list, players: list[int] | None = None) -> dict[int, list[int]]:
    """The private answers of one keypad seat typed for every awake seat, by the effect's id: the
    seats each first answer is for, and [] for the same answer to the next seats (left out).

    `players`: the step's seats as the table knows them (Game.step_players). An answer for some of
    them is addressed to all of them: a mafioso the referee removed tonight, or one who left the
    table, gets no tap of the keypad's (he acts no more), but "only for seats 3 and 5" where the
    night before read "3, 5 and 8" would tell his partners what the morning is to say."""
    first: dict[tuple, object] = {}
    seats: dict[int, list[int]] = {}
    for e in effects:
        if not isinstance(e, (Tell, Reject)) or e.seat is None:
            continue
        key = (type(e), e.line, repr(sorted(e.args.items())))
        if key in first:
            seats[id(first[key])].append(e.seat)
            seats[id(e)] = []
        else:
            first[key] = e
            seats[id(e)] = [e.seat]
    if players:
        for e in effects:
            answered = seats.get(id(e))
            if answered and set(answered) <= set(players):
                seats[id(e)] = sorted(players)
    return seats


def _step_opening(effects: list, closing: frozenset[str] = frozenset()) -> list[Say]:
    """The public lines that opened the running step, from the effects since the last step began.
    `closing`: the lines that close a night step («Läkaren somnar.»), said in the same breath as
    the next one's opening: on a resume they are another step's, and only the running step's
    own line is said again ("The Sheriff wakes up…", not "The Doctor falls asleep." first)."""
    said = [e for e in effects if isinstance(e, Say) and e.line not in closing]
    # (a count said the phones' way, "accusation_count_phones", is the same news)
    while said and said[0].line.removesuffix(PHONES) in STEP_RESULTS:
        said.pop(0)
    return said


class Output(Protocol):
    def handle(self, effect: Effect, text: str | None) -> None: ...


class LiveSession(Inputs, Clock):
    def __init__(self, config: Config, journal: Journal | None, outputs: list[Output] | None = None, jitter_rng: random.Random | None = None,
                 companion_from: int | None = None):
        """`companion_from`: a game begun without phones whose phones joined at a resume — the
        number of its journaled inputs played by hand before they came (JournalContents)."""
        # Night steps keep their full length live, so their duration never tells who is dead.
        self.session = Session(config, fixed_night_steps=True, companion=not companion_from)
        self.companion_from = companion_from
        self.config = config
        self.journal = journal
        self.outputs: list = list(outputs or [])
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue | None = None
        self.narrating = threading.Event()
        self.paused = False
        # the table's nights run their full time and must not be paused (phones, the table's own
        # keypad): every host's `pause` is refused at night, alike at every step
        self.full_nights = False
        self._timer_handle: asyncio.TimerHandle | None = None
        self._timer_token = 0
        self._timer_name: str | None = None
        self._timer_deadline: float | None = None
        self._cue: Timer | None = None  # the running timer, when it has a spoken cue before its end
        self._cue_handle: asyncio.TimerHandle | None = None
        self._paused_remaining: float | None = None
        self._timer_count = 0  # named timers started in this game: the journal's marks name them so
        # the running timer when it is a clock held during other timers (hungariq's day, seed 001),
        # its number and length; and a held clock: (name, seconds it had left, its number)
        self._clock: Timer | None = None
        self._clock_number = 0
        self._held: tuple[str, float, int] | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._jitter = jitter_rng or random.SystemRandom()
        self.stopped = False
        self.failure: JournalError | None = None  # why the game stopped when the journal failed
        # after a resume: the private lines of the night so far, for a phone that comes back
        self.told_tonight: list[Tell] = []
        # after a resume: the private lines of the step still running (the Sheriff's answer of the
        # check he made before the crash), which his phone shows again as that step's answer
        self.told_in_step: list[Tell] = []
        # after a resume: what the core recorded as the journal was replayed (the votes of the day so
        # far), for an adapter that shows what was recorded (a phone names its vote)
        self.replayed_records: list[dict] = []
        # whose the day vote being applied is ("phone", "host"; None for any other input): the hub
        # names it on the voter's phone, and the journal keeps it beside the vote (`_day_vote_by`)
        self.vote_by: str | None = None
        # the night step whose time is running (a number per step opened), None between steps and
        # while a step's opening lines are still being said: a keypad line belongs to the step it
        # was typed in, and a late Enter must not become the next role's choice
        self._open_step: int | None = None
        self._open_since = 0.0  # when its time began to run, on the loop's clock (time.monotonic)
        self._steps_opened = 0
        self._dispatching = False  # a timer armed during a dispatch opens once the outputs saw it
        self._open_pending = False
        # the keypad is typed on at the table's own terminal (console.read_console): a seat typed
        # after its step is answered there, and without a speaker each step waits KEYPAD_ANNOUNCE
        self.keypad_table = False
        self._step_closed_tonight = False  # a night step of this night has ended (a late key is late, not early)
        # where the input being applied came from, while it is applied (on the loop): the console
        # keeps the answers to the referee's lines typed at a keypad table at night off its screen
        self.source: str | None = None
        self.inputs_handled = 0
        # a table without phones has its hands typed by a scorer at the console: the count of a hand
        # call waits for his line (see hands_awaited). Set where the console is a terminal.
        self.scorer_at_console = False
        # timers the game has started: a hand call is known by its number. Counted as the effects
        # that start one are dispatched, before its name is said (and shown) — a scorer's line
        # typed while the name is said is a line for that call, not the last
        self._calls = 0
        self._hands_in = -1  # the call whose hands the scorer has entered
        self._held_call = -1  # the call whose time ran out before his line came

    # ------------------------------------------------------------------ state
    @property
    def game(self):
        return self.session.game

    @property
    def voice(self):
        return self.session.voice

    # ------------------------------------------------------------------ running
    def start_effects(self, replayed: list[Event] | None = None, timer_marks: dict[int, float] | None = None,
                      by: dict[int, str] | None = None) -> list[Effect]:
        """Start the game, or rebuild it from journaled events (resume); returns what to show now.
        On a resume: "The game goes on where it stopped.", the lines that opened the running
        step ("The Sheriff wakes up…", "Player 3, you have a minute.") said again — the table
        stopped in the middle of it and must hear where it is; not the news that closed the step
        before it in the same breath ("Thank you, player 2. Time is up.") — then its timer, and the private
        lines told since it started, to their seats again: a crash may have come between the
        journal and the screen, and the step they belong to (his step, his phone) is the one
        still running. The lines said again are public lines (a night step's are the same
        whoever is awake or alive), so saying them again tells nobody anything new.

        A day timer goes on with what the journal's last mark of it says it had left ("Player
        3, you have 40 seconds."): a speaker cut off at 40 of 60 s gets the rest, not a fresh
        minute. A vote's window is whole again: its call is said again, and hands go up on it. A night step starts again from full, whoever is awake: its length tells nothing.
        A day's clock held by a trial (hungariq) is held again with what its mark says it had: a
        resume in the middle of a trial gives the table what was left of its day, not a fresh one.
        `timer_marks`: each timer's last mark (timer number → seconds left); `by`: whose each
        day vote was (event index → "phone" or "host", the journal's note), on its vote record."""
        effects = self.session.start()
        if not replayed:
            return effects
        marks = dict(timer_marks or {})
        clock: tuple[str, float, int] | None = None  # the day's clock: name, what it had at its start, number
        last_timer = None
        told: list[Tell] = []
        opening: list[Say] = []  # the public lines of the moment the running phase began
        count = 0
        openings: dict[str, list[Say]] = {}  # the opening lines of each step of this phase so far
        for n, ev in enumerate(replayed, start=1):
            batch = self.session.feed(ev)
            source = (by or {}).get(n - 1)
            self.replayed_records.extend({**e.entry, "by": source} if source and e.entry.get("type") == "vote" else e.entry
                                         for e in batch if isinstance(e, Record))
            if n == self.companion_from:
                self.session.companion_joined()  # the inputs after this one were played with the phones
            since = 0  # where the running step's own lines begin in this batch
            for i, e in enumerate(batch):
                if isinstance(e, Timer):
                    last_timer = e
                    count += 1 if e.name else 0
                    if e.hold and e.name:
                        # a clock going on after a trial starts from what it had when it was held
                        held = e.resume and clock is not None and clock[0] == e.name
                        clock = (e.name, marks.get(clock[2], clock[1]) if held else float(e.seconds), count)
                    elif e.name is None or (clock is not None and e.name == clock[0]):
                        clock = None
                    if e.name:
                        # a step opened again by what happened in it (the last call after each
                        # nomination, hungariq's day after an accusation fell) is announced as it
                        # was opened, not as the news that opened it again
                        closing = frozenset(step.sleep_line for step in self.game.steps) if self.game.phase() == "night" else frozenset()
                        opening = _step_opening(batch[since:i], closing) or openings.get(e.name, [])[-1:]
                        openings[e.name] = opening
                    since = i + 1
                    told = []
                elif isinstance(e, Record) and e.entry.get("type") in STEP_STARTS:
                    since = i + 1
                    if e.entry.get("type") == "phase":
                        openings = {}
                        if e.entry.get("phase") in ("night", "day"):
                            self.told_tonight = []
                elif isinstance(e, Tell):
                    told.append(e)
                    self.told_tonight.append(e)
        if self.game.votes_on_phones:
            # the phones joined at this very resume: the vote that runs is called again as they take
            # it («Rösta i telefonen. NU!»), not with the hands it was called with before
            opening = [Say(s.line + PHONES, s.args) if s.line in PHONE_TWINS else s for s in opening]
        running = [*opening, last_timer] if last_timer and last_timer.name else []
        if self.game.window_over():
            # stopped while a call's count waited for the scorer: its "Stop." was said, the fists
            # are down, and the call is not made again — the count waits for his line (`run`)
            running = []
        # dispatching the running timer again counts it again: it keeps its number
        self._timer_count = count - 1 if running else count
        left = None
        if running and self.game.phase() != "night":
            if clock is not None and clock[2] == count:
                left = marks.get(count, clock[1])  # the day's clock itself runs: what it had
            elif count in marks:
                left = marks[count]
        if left is not None and self.game.vote_choices() is not None:
            # a vote is called again («… NU!», "Jetzt!"): the hands go up on the call the table
            # hears now, and the phones are only coming back — the last dead of a German tie had
            # 2 s left and was "too late" before his phone was up. The window is whole again.
            left = None
        if left is not None:
            left = max(1.0, min(float(last_timer.seconds), left))
            # said as it is counted: whole minutes from two minutes up, seconds below
            said = spoken_left(left)
            running = [Say(s.line, {**s.args, "time": said}) if s.args.get("time") == last_timer.seconds else s
                       for s in opening]
            running.append(Timer(last_timer.name, left, last_timer.cue, last_timer.hold))
        if running and clock is not None and clock[2] != count:
            # stopped in a trial: the day's clock waits with what it had when the accusation came
            self._held = (clock[0], marks.get(clock[2], clock[1]), clock[2])
        self.told_in_step = list(told)
        return [Say("resuming", {}), *running, *told]

    def attach(self) -> None:
        """Bind to the running loop so adapters can submit before `run` starts."""
        if self.queue is None:
            self.loop = asyncio.get_running_loop()
            self.queue = asyncio.Queue()

    async def run(self, first: list[Effect], initial: list[Event] | None = None, journaled: bool = False) -> str | None:
        """Play until the game is over or stopped. `initial` events are applied first (the deal);
        `journaled` says they are in the journal already (written before the hot-seat reveal)."""
        self.attach()
        try:
            # a resumed night step's private answers, told again: once for the keypad's seats
            self._dispatch(first, shared=True)
            if self.game.window_over():
                self._count_resumed()
            for ev in initial or []:
                self._apply(ev, journaled=journaled)
            while self.game.phase() != "over" and not self.stopped:
                kind, payload, source = await self.queue.get()
                self.source = source
                self.inputs_handled += 1
                try:
                    self._handle(kind, payload, source)
                except JournalError:
                    raise
                except Exception as exc:  # an adapter bug must not lose the game: answer and go on
                    self._answer(Answer("reject_unknown_input", {}), detail=f"{type(exc).__name__}: {exc}")
                finally:
                    self.source = None
            self._cancel_timer()
            if self.game.phase() == "over" and self.journal is not None:
                self.journal.finish(self.game.winner)
        except JournalError as exc:
            # the event that failed was not applied, and nothing after it may be: stop here, say why
            self._cancel_timer()
            self.failure = exc
            self.stopped = True
            self._answer(Answer("journal_failed", {}), detail=f"{exc.reason}: {exc.advice}")
            return None
        return self.game.winner

    def _handle(self, kind: str, payload, source: str) -> None:
        if kind == "control":
            return self._control(*payload) if isinstance(payload, tuple) else self._control(payload)
        if kind == "timeout":
            if payload != self._timer_token or self.paused:
                return  # a stale timer: a newer phase already started
            self._timer_deadline = None
            self._open_step = None  # closed: a seat typed from now on is too late for it
            if self.game.phase() == "night":
                self._step_closed_tonight = True
            if self.hand_call() is not None and self._hands_in != self._calls:
                # the hands went up as the rules time them; they are counted once the scorer has
                # typed them — the same wait whoever raised a hand, and the journal holds the
                # hands, then the time's end, in the order the game took them
                self._held_call = self._calls
                if self.game.hears_window_end():
                    # the game says the window's end now ("Stop."), when the fists must be down,
                    # and waits for the count; journaled, so a resume knows the call is over
                    self._apply(Timeout(count_waits=True))
                return self._hands_awaited()
            return self._apply(Timeout())
        if kind == "tick":
            if payload != self._timer_token or self.paused:
                return
            left = self.timer_remaining()
            if left is not None:
                self._mark(left)
                self._tick_handle = self.loop.call_later(MARK_EVERY, self.queue.put_nowait, ("tick", payload, "clock"))
            return
        if kind == "cue":
            if payload != self._timer_token or self.paused or self._cue is None:
                return
            return self._dispatch([self._cue.cue_line()])  # "ten seconds": narration, not an input
        if kind == "notice":
            return self._answer(Answer(payload, {}))
        if kind == "keypad":
            return self._keypad(*payload)
        if kind in ("line", "event") and isinstance(payload, tuple):
            payload, refuse = payload
        else:
            refuse = None
        if self.paused:
            # while paused nothing changes the game: a phone's tap, a host screen's action are held
            # back like a typed line, and their sender is told so
            return self._held_back(payload) if kind == "event" else self._answer(Answer("paused", {}))
        if refuse is not None and refuse():
            return
        if kind == "answer":
            if not open_to_speech(self.game):
                return  # the speech it was meant for is over: asking again would confuse the next one
            return self._answer(Answer(payload, {}))
        try:
            if kind == "event":
                item = payload
            elif kind == "sentence":
                item = self.session.hear(payload)
            else:
                item = self.session.parse(payload)
                if item is None:
                    return
        except InputError as exc:
            if exc.line:
                return self._answer(Answer(exc.line, exc.params), detail=str(exc))
            # the reason in the table's language: "Nicht verstanden: tap nimmt einen Platz und ein Ziel …"
            return self._answer(Answer("bad_input", {"reason": exc.explained(self.voice)}), detail=str(exc))
        if isinstance(item, Talk):
            return
        if (isinstance(item, Timeout) and source in HOST_SOURCES
                or isinstance(item, EndSpeech) and source == "companion-host") and not item.host:
            # the host cut it short: the same input for the game, but the game's record must not
            # say that the time ran out (or that the speaker said "thank you")
            item = replace(item, host=True)
        self._apply(item)

    def _held_back(self, event: Event) -> None:
        """An input that came during a pause: never journaled nor applied. A tap's refusal is its
        seat's alone (a phone reads "The game is paused." under its buttons), as the core's private
        refusals are; the record lets its sender match the answer to it."""
        seat = event.seat if isinstance(event, Tap) else None
        self._dispatch([Reject("paused", {}, seat),
                        Record({"type": "rejected", "event": event_to_dict(event), "reason": "paused", "args": {}})])

    def apply_journaled(self, events: list[Event]) -> None:
        """Events the journal holds already (the phones' deal, written as they showed it), applied
        on the game's loop and never written again. Call it from a control (`submit_control`) so
        it takes its turn with the other inputs."""
        for event in events:
            self._apply(event, journaled=True)

    def _apply(self, event: Event, journaled: bool = False) -> None:
        self.vote_by = self._day_vote_by(event)
        if self.journal is not None and not journaled:
            # on disk (fsynced) before it is applied: resume never loses it; when the write
            # fails this raises and the event is never applied
            self.journal.append(event, self.vote_by)
        try:
            self._dispatch(self.session.feed(event))
        finally:
            self.vote_by = None

    def _day_vote_by(self, event: Event) -> str | None:
        """Whose a day vote is: "phone" (the voter's own) or "host" (his screen, the console, a
        typed hand), journaled with it so the voter's phone still says "The host recorded it for
        you." after a resume. A day vote is public; a night tap is never marked — whose tap it
        was would tell the sleeping table who is awake."""
        g = self.game
        if not isinstance(event, Tap) or g.open_ballot() is None:  # the moment's vote (never at night)
            return None
        return "phone" if self.source == "companion" else "host"

    def _dispatch(self, effects: list[Effect], shared: bool = False) -> None:
        seats = _shared_answers(effects, self._step_players()) if shared else {}
        self._calls += sum(isinstance(e, Timer) for e in effects)
        for e in effects:
            if isinstance(e, Record) and e.entry.get("type") == "phase":
                self._step_closed_tonight = False
            if isinstance(e, Timer):
                e, said = self._clocked(e)
                if said:
                    self._dispatch(said)  # heard before the clock's time runs again
                self._dispatching = True
                try:
                    self._start_timer(e)
                finally:
                    self._dispatching = False
            text = None
            if isinstance(e, (Say, Tell, Reject, HostLine)):
                text = self.voice.render(e.line, e.args)
            together = seats.get(id(e))
            for out in self.outputs:
                if together is not None and hasattr(out, "handle_shared"):
                    # a shared screen shows the same answer to several awake seats once, for all
                    # of them; a phone (the hub) still gets each seat's own
                    if len(together) > 1:
                        try:
                            out.handle_shared(e, self._shared_text(e, text), together)
                        except Exception:  # noqa: BLE001 — as in _show
                            log.exception("output %s failed on %s", type(out).__name__, e)
                    elif together:
                        self._show(out, e, text)
                else:
                    self._show(out, e, text)
            if isinstance(e, Timer) and self._open_pending:
                self._open_pending = False
                self._opened(None)

    def _step_players(self) -> list[int] | None:
        game = getattr(self.session, "game", None)
        return game.step_players() if game is not None and game.phase() == "night" else None

    def _shared_text(self, effect: Effect, text: str | None) -> str | None:
        """An answer several seats read together, worded for all of them where the language
        has such a line ("Your choice: 5", «Ваш выбор: 5», "Eure Wahl: 5"), not "You chose 5"."""
        together = effect.line + SHARED_LINE
        return self.voice.render(together, effect.args) if together in self.voice.lines else text

    @staticmethod
    def _show(out, effect: Effect, text: str | None) -> None:
        try:
            out.handle(effect, text)
        except Exception:  # noqa: BLE001 — one output's failure must not cost the others (or the timer) this effect
            log.exception("output %s failed on %s", type(out).__name__, effect)

    def _answer(self, answer: Answer, detail: str | None = None) -> None:
        text = self.voice.render(answer.line, answer.args) if answer.line in self.voice.lines else (detail or answer.line)
        effect = Reject(answer.line, answer.args, answer.seat)
        for out in self.outputs:
            self._show(out, effect, text)

    def _control(self, what, refused=None) -> None:
        if callable(what):
            return what()
        why = self.pause_refusal(what)
        if why is not None:
            if refused is not None:
                refused(why)
            return
        if what == "pause":
            self._paused_remaining = self.timer_remaining()
            self._cancel_timer()
            self.paused = True
            if self._paused_remaining is not None and self._marked():
                self._mark(self._paused_remaining)  # a crash during the pause keeps the time paused
            self._answer(Answer("paused", {}))
        elif what == "resume":
            self.paused = False
            self._answer(Answer("resumed", {}))  # said first, then the time left ("⏱ 51 s")
            if self._paused_remaining is not None and self._timer_name:
                self._arm(self._paused_remaining, resumed_at=self._paused_remaining)
            self._paused_remaining = None
            if self.hands_waiting():
                # the line typed in the pause was not taken: the scorer reads again what is awaited
                self._hands_awaited()
        elif what == "quit":
            self.stopped = True
