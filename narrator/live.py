"""Live play on the real clock: one asyncio loop owns the game; inputs arrive from any adapter
(console, voice, companion, keypad, timers) through `submit*`, are journaled, applied, and the
effects fan out to every output adapter in order.

Adapters call `submit_event`, `submit_sentence` or `submit_line` from any thread; outputs get
`handle(effect, text)` on the loop thread, where text is the rendered line (None for timers and
records). `narrating` is set while the narrator speaks, so the microphone can ignore the
narrator's own voice.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from dataclasses import dataclass, replace
from typing import Protocol

from .config import Config
from .flow.effects import Effect, HostLine, Record, Reject, Say, Tell, Timer
from .flow.events import EndSpeech, Event, Tap, Timeout, event_to_dict
from .flow.game import PHONE_TWINS, PHONES
from .inputs import InputError, Talk, open_to_speech
from .journal import Journal, JournalError
from .session import Session

log = logging.getLogger(__name__)

# how often a running day timer notes in the journal what it has left: after a crash the speaker
# gets at most this much more than he had, never a fresh minute
MARK_EVERY = 5.0
# how often a step waiting for its line to be heard looks whether the speaker went quiet without
# saying so (only a stalled device does): the speaker's own word starts the timer
HEARD_WATCH = 1.0


# a seat typed on the keypad this soon after a night step's time began is not taken for it: the
# role just woken has barely opened its eyes, and a key that late is the step before's (a table
# without a speaker sees the next step begin the instant the last one ends)
KEYPAD_GRACE = 1.0
# without a speaker, how long a keypad table's night step waits after its lines are printed before
# its time runs: about what a speaker takes to say them («The mafia falls asleep. The Don wakes
# up…»). Without it the next step opened the instant the last one ended, and a mafioso's Enter a
# second and a half late became the Don's check; with it a key after the step's end meets no open
# step, with a speaker or without, and is answered that it came too late. The same for every step,
# whoever is awake
KEYPAD_ANNOUNCE = 3.0


# Records after which the lines of a new step begin: the step's opening lines come after them, and
# what was said before them closed the step before ("Thank you, player 1. Time is up.")
STEP_STARTS = frozenset({"phase", "speech", "vote_open"})
# Lines that tell the outcome of the step just ended — a time up, a count of hands, an accusation
# that fell — said in the same breath as the next step's opening: on a resume they are old news
# about somebody else, and the table hears only where it is now ("Player 2, you have 55 seconds.")
STEP_RESULTS = frozenset({"time_up", "vote_count", "vote_stop", "hand_vote_count", "accusation_count", "accusation_falls",
                          "execution_count", "spared", "nominated_by", "withdrawn_by",
                          "withdrawn_still_nominated"})


# where a `timeout` is the host's: typed at the console (a transcript's `timeout` stands for the
# clock), or the host screen's; its End speech is his too, where a typed `say thank you` is the
# speaker's words as heard
HOST_SOURCES = frozenset({"console", "companion-host"})

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


def spoken_left(left: float) -> int:
    """A time left as the narrator says it: whole minutes from two minutes up, seconds below."""
    return int(left) // 60 * 60 if left >= 120 else max(1, round(left))


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


@dataclass
class Answer:
    """A public answer to input that never reached the core (a malformed sentence)."""

    line: str
    args: dict
    seat: int | None = None


class LiveSession:
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

    def timer_remaining(self) -> float | None:
        if self.paused:
            return self._paused_remaining
        if self._timer_deadline is None or self.loop is None:
            return None
        return max(0.0, self._timer_deadline - self.loop.time())

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

    # ------------------------------------------------------------------ timers
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
