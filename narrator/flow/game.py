"""One game of Mafia as a pure state machine: `apply(event) -> effects`.

The phase graph lives in `transitions` (one shared Machine per variant, each game added as a model,
because building a Machine costs ~0.3 ms and simulate plays thousands of games). This base holds
what every rule system shares — dealing and the night's steps (game_night.py), dawn, eliminations
with their chain deaths and last words (game_dawn.py), the end — and each day procedure is a
subclass (day_*.py, found by days.py from the variant's data) that adds its own states and edges;
the base knows no day. No clock, no I/O, no randomness: the same config and events always give the
same effects.
"""

from __future__ import annotations

import copy
from functools import cache
from types import CellType, FunctionType
from typing import Callable, Iterable

from transitions import Event as Edge
from transitions import Machine, State

from ..rules.roles import MAFIA, TOWN, team_of
from ..rules.variants import NightStep, Variant
from .effects import Effect, HostLine, Record, Reject, Say, Tell, Timer
from .events import Deal, Defeat, Disqualify, EndSpeech, Event, Extend, Foul, Leave, Nominate, Revoke, Tap, Timeout, event_to_dict
from .game_dawn import DawnAndChains
from .game_night import DealAndNight
from .moment import EXTENSION_OFFER, Moment, SeatAsk, SeatKnows
from .night import CHOICES
from .refused import Refused

BASE_STATES = ("setup", "night", "last_words", "kamikaze", "over")

# The lines that call or count a day vote as a show of hands (seed 000 «räcka upp handen … NU»,
# seed 001's hands on a count of three) or of pointing fingers (seed 003). A table that votes on
# its phones ([companion] votes) raises no hand: it hears each line's `_phones` twin, the same
# call at the same moment, worded for the phones. Every language has both.
PHONE_TWINS = frozenset({"hand_vote", "reject_hand_down", "reject_late_vote", "no_votes_nobody_hanged",
                         "accusation", "accusation_count", "execution_vote", "execution_count", "pointing"})
PHONES = "_phones"


class Seat:
    __slots__ = ("number", "role", "alive", "fouls", "skip_next_speech", "lover", "kamikaze", "pardoned")

    def __init__(self, number: int):
        self.number = number
        self.role = "citizen"
        self.alive = True
        self.fouls = 0
        self.skip_next_speech = False
        self.lover: int | None = None
        self.kamikaze = False
        self.pardoned = False


class BaseGame(DealAndNight, DawnAndChains):
    """A game in progress. Drive it with `start()` then `apply(event)`; read `awaiting()`."""

    state: str  # set by the transitions machine
    DAY_STATES: tuple[str, ...] = ()
    DAY_TRANSITIONS: tuple = ()
    FLOOR_STATES: tuple[str, ...] = ("last_words",)

    def __init__(self, variant: Variant, rules: dict, timers: dict, seats: int | None = None,
                 fixed_night_steps: bool = False, roles: dict[str, int] | None = None,
                 votes_on_phones: bool = False):
        self.variant = variant
        self.rules = rules
        self.timers = timers
        self.n = seats or variant.default_seats
        self.role_counts = roles if roles is not None else variant.roles_for(self.n)
        # Live play keeps every night step for its full time so nobody hears who is dead or done;
        # replay and simulation may move on as soon as nothing more can happen.
        self.fixed_night_steps = fixed_night_steps
        # the day's votes are tapped on the phones: the narrator calls them so, never "raise your
        # hand" (words only: who may vote, when, and what counts are the same either way)
        self.votes_on_phones = votes_on_phones
        self.seats = {s: Seat(s) for s in range(1, self.n + 1)}
        self._alive = list(self.seats)  # kept in seat order; changed only by _mark_dead
        self.out: list[Effect] = []
        self.day = 0
        self.night_no = -1
        self.winner: str | None = None
        self.speaker: int | None = None
        self.timer: str | None = None
        self.deaths: list[int] = []  # in order: the last one decides a grundregeln tie
        self.causes: dict[int, str] = {}  # how each dead player died, for the lines that name it
        self.quiet_cycles = 0
        self.left_this_cycle = False
        # night state
        self.steps: tuple[NightStep, ...] = ()
        self.step_index = -1
        self.step_open = False
        self._awake: list[int] = []
        self.intents: dict[str, dict[int, list[int]]] = {}
        self.blocked: set[int] = set()
        self.leaving: list[int] = []
        self.left_tonight: set[int] = set()  # who left unwell last night (announced among the dead)
        # removed by the referee tonight (seat -> cause: "fouls", "disqualified"), said to the table
        # only at dawn (classic, seed 004 §5-7): out from that moment — he acts no more — but still
        # at the table for the others until the morning says he is gone
        self.removed_tonight: dict[int, str] = {}
        self.last_protected: dict[int, tuple[int, bool]] = {}  # protector -> (seat, save succeeded)
        self.inspected: dict[int, int] = {}  # seat -> times checked by the inspector
        # last words and chain deaths
        self.last_words_queue: list[int] = []
        self.after_last_words: Callable[[], None] | None = None
        self.kamikaze_queue: list[int] = []
        self.kamikaze_victims: list[int] = []
        # physical cards: who has shown which card at night zero
        self.cards = False
        self.claims: dict[str, list[int]] = {}
        self.repeated: set[str] = set()
        self.cards_recorded = False
        self.after_chain: Callable[[], None] | None = None
        self.chain_moment = "now"
        self.init_day()
        machine_for(type(self), variant.name).add_model(self)

    def init_day(self) -> None:
        """Day procedures set up their own state here."""

    # ------------------------------------------------------------------ public queries
    @property
    def alive(self) -> list[int]:
        return self._alive

    def seat_knows(self, seat: int) -> SeatKnows:
        """What this seat knows from the deal (moment.SeatKnows): his role, a mafioso his partners."""
        return SeatKnows.of_deal({s: self.seats[s].role for s in self.seats}, seat)

    def role(self, seat: int) -> str:
        return self.seats[seat].role

    @property
    def step(self) -> NightStep | None:
        if self.state == "night" and 0 <= self.step_index < len(self.steps):
            return self.steps[self.step_index]
        return None

    @property
    def floor(self) -> int | None:
        """The player who holds the floor: a heard sentence is attributed to him."""
        return self.speaker if self.state in self.FLOOR_STATES else None

    def has_role(self, seat: int, role: str) -> bool:
        st = self.seats[seat]
        if role == "lover":
            return st.lover is not None
        return st.role == role

    def with_roles(self, seats: list[int], roles: tuple[str, ...]) -> list[int]:
        """The seats that have any of the roles (`has_role` of each, in one pass: a night asks
        it for every step and every seat)."""
        plain = [r for r in roles if r != "lover"]
        lovers = len(plain) < len(roles)
        return [s for s in seats if self.seats[s].role in plain or (lovers and self.seats[s].lover is not None)]

    def awake_seats(self) -> list[int]:
        """The living seats whose role acts in this night step. SECRET: never send it anywhere."""
        if self.step is None:
            return []
        # one who left the table tonight, or whom the referee removed, acts no more: the step does
        # not wait for him
        return [s for s in self._awake if self.seats[s].alive and not self.gone_tonight(s)]

    def step_players(self) -> list[int]:
        """The seats the table takes to be awake in this step: the living players of its roles, one
        who left the table tonight or whom the referee removed among them — the morning has not
        said so yet, and until it does his partners must not learn it from how an answer is
        addressed. SECRET: never send it anywhere."""
        if self.step is None:
            return []
        return [s for s in self._awake if self.seats[s].alive]

    def gone_tonight(self, seat: int) -> bool:
        """Out of tonight's acting, though the morning has not said so yet: he left the table
        unwell, or the referee removed him (a fourth foul, a disqualification)."""
        return seat in self.leaving or seat in self.removed_tonight

    def awaiting(self) -> tuple[str, dict]:
        """What the game waits for, as a line id and args (rendered in the table's language)."""
        st = self.state
        if st == "setup":
            return "awaiting_deal", {}
        if st == "over":
            return "awaiting_nothing", {}
        if st == "kamikaze":
            return "awaiting_speech", {"seat": self.kamikaze_queue[0]}
        if st in self.FLOOR_STATES and self.speaker is not None:
            return "awaiting_speech", {"seat": self.speaker}
        if st == "night":
            step = self.step
            if step is not None and step.action == "identify":
                return "awaiting_identify", {"role": "@role_" + step.actors[0]}
            if step is not None and step.action:
                return "awaiting_night_step", {"step": "@step_" + step.name}
            return "awaiting_timeout", {}
        return self.day_awaiting()

    def day_awaiting(self) -> tuple[str, dict]:
        return "awaiting_timeout", {}

    def day_offers(self) -> list[str]:
        """The day's actions these rules take at all (a host screen shows buttons for these and no
        other): a day procedure offers a nomination, its withdrawal or a leave by day by answering
        it, where this base refuses each — grundregeln nominates nobody (seed 003), hungariq
        accuses but withdraws nothing (seed 001) — and the referee's penalties stand with his
        fouls (seed 004 §5-7)."""
        day = type(self)
        offers = []
        if day.day_nominate is not BaseGame.day_nominate:
            offers.append("nominate")
        if day.day_revoke is not BaseGame.day_revoke:
            offers.append("revoke")
        if self.rules.get("fouls"):
            offers += ["foul", "disqualify", "defeat"]
        if day._on_leave is not BaseGame._on_leave:
            offers.append("leave")  # by day; the night's leave is signalled, never a button
        return offers

    # the states in which the host screen's seat-less inputs are taken: a day module names its own
    HOST_NOMINATE_STATES: tuple[str, ...] = ()
    END_SPEECH_STATES: tuple[str, ...] = ()
    # rules in which a nomination and its withdrawal belong to the player who made it (seed 000:
    # one active nominee each, withdrawn by the nominator alone): the host screen must name him
    NOMINATOR_NAMED = False
    # a day with windows whose end the table hears before anything in them is counted (classic's
    # "Stop." after each candidate's call, seed 004 §4.4): only such a day ever `hears_window_end()`
    # and takes `Timeout(count_waits=True)`, so only its calls have a "Stop." to check
    WINDOW_ENDS_HEARD = False

    def host_offers(self) -> list[str]:
        """What of `day_offers()` the host screen can give in this very state, with End speech
        while a speech can be ended: a button for anything else would only be refused. Where the
        nomination is the nominator's own (`NOMINATOR_NAMED`, seed 000) the host screen names him
        as well as the nominee, and Withdraw names whose nomination goes."""
        if self.state in ("setup", "over"):
            return []
        offers = ["end_speech"] if self.state == "last_words" or self.state in self.END_SPEECH_STATES else []
        for what in self.day_offers():
            if what == "nominate":
                ok = self.state in self.HOST_NOMINATE_STATES
            elif what == "revoke":
                ok = self.host_may_revoke()
            elif what == "leave":
                ok = self.state != "night"  # a leave by night is signalled to the host, never shown
            elif what == "defeat":
                ok = not (self.cards and not self.cards_recorded)  # nobody's team is known yet
            else:
                ok = True  # the referee's fouls and dismissals, by night too (seed 004 §5: peeking)
            if ok:
                offers.append(what)
        return offers

    def host_may_revoke(self) -> bool:
        """A withdrawal the host screen could give now (naming who withdraws where the rules need
        him, `NOMINATOR_NAMED`)."""
        return False

    def held_for_host(self) -> list[tuple[str, dict]]:
        """What the host was told tonight and the table hears only in the morning, as (line,
        args): the referee's night penalties (classic). For the host's eyes alone."""
        return []

    def public_view(self) -> dict:
        """Everything the whole table may see: never a role before the game is over."""
        view = {
            "state": self.state,
            "day": self.day,
            "alive": list(self.alive),
            "fouls": {s: st.fouls for s, st in self.seats.items() if st.fouls},
            "nominations": self.public_nominations(),
            "speaker": self.floor,
            "timer": self.timer,
        }
        if self.state == "over":
            view["winner"] = self.winner
            view["roles"] = {s: st.role for s, st in self.seats.items()}
        return view

    def public_nominations(self) -> list[int]:
        return []

    def night_choices(self) -> tuple[str, list[int]]:
        """What every phone may tap in this night step: seats, or the numbers of a list (the
        manners of death). The same for every seat, awake or asleep, alive or dead."""
        step = self.step
        if step is not None and step.action in CHOICES:
            kind, numbers = CHOICES[step.action]
            return kind, list(numbers)
        return "seat", list(self.alive)

    def vote_choices(self) -> tuple[str, list[int]] | None:
        """The open vote as ("seat", candidates) or ("yes_no", []); None when no vote is open."""
        return None

    def screen_state(self) -> str:
        """The state as the screens word it ([phone] state_<name>): the game's own state, but for a
        round that the state alone does not tell apart (sverige's re-vote among the tied)."""
        return self.state

    def subject(self) -> int | None:
        """The one player the day's state is about, for a line that names him: the speaker, the
        accused, the name being called, the last dead who decides a tie (seed 003), the lone
        nominee; None when the state is about nobody in particular. One answer for the phones,
        the host screen and the console's `status`, so none of them names an empty seat."""
        args = self.awaiting()[1]
        if "seat" in args:
            return args["seat"]
        if self.state == "tie_break" and args.get("seats"):
            return args["seats"][0]
        choices = self.vote_choices()
        if choices and len(choices[1]) == 1:
            return choices[1][0]
        named = self.public_nominations()
        return named[0] if len(named) == 1 else None

    def hears_window_end(self) -> bool:
        """Whether the open window's end is news the table hears before anything in it is counted
        (classic's "Stop."): an adapter that keeps the count waiting for a scorer's typed hands
        sends `Timeout(count_waits=True)` the moment the time is over, so the table hears the fists
        must be down when they must, and the game knows the call is over while it waits."""
        return False

    def window_over(self) -> bool:
        """Whether the open window's end was heard (`hears_window_end`) and its count waits."""
        return False

    def window_ends(self) -> None:
        """The open window's time is over, its count waits (`Timeout(count_waits=True)`)."""
        raise Refused("reject_no_timer")

    def ballot_cast(self) -> dict[int, tuple[int | None, bool | None]]:
        """The votes cast so far on the open vote: voter -> (target, answer). An adapter that
        comes back in the middle of a vote (a resumed game) shows each voter the vote he made."""
        return {}

    # ------------------------------------------------------------------ the moment (moment.py)
    # states in which the day's nominations are out of play: the screens list none
    NOMINATIONS_OFF = ("setup", "night", "last_words", "kamikaze", "over")
    # the rules accuse, not nominate (hungariq, seed 001): every screen says "accused"
    ACCUSING = False

    def each_called(self) -> bool:
        """Whether the open vote calls its candidates one at a time (classic, seed 004 §4.4)."""
        return False

    def extension(self) -> str | None:
        """The day's time extension (seed 000 Tid): EXTENSION_OFFER while the table is asked for
        it, EXTENSION while it runs, None otherwise (and in rules that have none)."""
        return None

    def day_answer(self) -> str:
        """How the counted seats answer now (moment.ANSWERS): a day module names its own."""
        return "vote"

    def day_decider(self) -> int | None:
        """The one seat that decides alone now (grundregeln's tie, seed 003), None otherwise."""
        return None

    def day_silent_to(self) -> int | None:
        """The candidate the votes not cast go to as the open vote is counted (Moment.silent_to)."""
        return None

    def day_barred(self, seat: int, candidates: list[int]) -> tuple[int, ...]:
        """The candidates of the open ballot this seat may not choose, shown in their place."""
        return ()

    def day_voted(self, seat: int) -> bool:
        """Whether this seat's vote is in, in the day's round of votes that runs or ran last."""
        return False

    def extension_spent(self) -> bool:
        """Whether the day's one time extension has been granted (seed 000 Tid)."""
        return False

    # a seat's own vote as his phone words it ([phone] keys), by the round its record names (None:
    # a record without one): a vote for a seat, and the stem of a yes or a no ("voted_" + "yes")
    VOTED_SEAT: dict[str | None, str] = {}
    VOTED_YES_NO: dict[str | None, str] = {}

    def voted_words(self, round_: str | None, seat_vote: bool) -> str:
        """The [phone] key of a seat's own recorded vote: "voted_for" (a seat), "voted_" + yes/no,
        or the words a day module gives its own rounds (`VOTED_SEAT`, `VOTED_YES_NO`)."""
        if seat_vote:
            return self.VOTED_SEAT.get(round_, "voted_for")
        return self.VOTED_YES_NO.get(round_, "voted_")

    def heading(self) -> str:
        """The [phone] key that words what the table is doing now (state_<name>), one answer for
        the phones' and the host screen's heading and the console's `status`: the day's time
        extension where the table is asked for it (or is in it), and classic's vote that calls its
        candidates one at a time (seed 004 §4.4) by the one being called ("Vote: player 8")."""
        extension = self.extension()
        if extension is not None:
            return "state_" + extension
        return "state_" + self.screen_state() + ("_call" if self.each_called() else "")

    def open_ballot(self) -> tuple[str, list[int]] | None:
        """The open vote as ("seat", candidates) or ("yes_no", []), while the game awaits its votes."""
        if self.awaiting()[0] != "awaiting_votes":
            return None
        return self.vote_choices()

    def phase(self) -> str:
        """The moment's coarse phase (Moment.phase), cheaply: "setup", "night", "day" or "over"."""
        st = self.state
        return st if st in ("setup", "night", "over") else "day"

    def moment(self) -> Moment:
        """The moment as the whole table may know it (moment.py): the night's from the shared
        night, the day's from the day procedure's hooks."""
        if self.state == "night":
            return self.night_moment()
        kind, args = self.awaiting()
        vote = self.vote_choices() if kind == "awaiting_votes" else None
        extension = self.extension()
        ask, choices, by_vote, voters, answer = None, (), False, (), self.day_answer()
        if self.state == "kamikaze":
            # a kamikaze's choice is his own act, not a vote: on the phones with or without votes
            ask, choices, voters, answer = "seat", tuple(self.alive), (args.get("seat"),), "choose"
        elif extension == EXTENSION_OFFER:
            # anyone may ask for the day's one extension (seed 000 Tid), aloud or on his phone
            ask, voters = "extension", tuple(self.alive)
        elif vote is not None:
            ask, choices, by_vote = vote[0], tuple(vote[1]), True
        if kind == "awaiting_votes":
            voters = tuple(args.get("seats", []))
        called = tuple(self.candidates) if self.each_called() else ()
        host = tuple(self.host_offers())
        return Moment(
            phase=self.phase(), name=self.heading(),
            subject=self.subject(), step=None, role=None, ask=ask, choices=choices, by_vote=by_vote,
            vote=(vote[0], tuple(vote[1])) if vote is not None else None,
            voters=voters, answer=answer, decider=self.day_decider(),
            nominations=() if self.state in self.NOMINATIONS_OFF else tuple(self.public_nominations()),
            accusing=self.ACCUSING, nominator_named=self.NOMINATOR_NAMED, extension=extension,
            host=host + ("extend",) if extension == EXTENSION_OFFER else host,
            penalties=bool(self.rules.get("fouls")), called=called, calling=self.calling if called else None,
            extension_used=self.extension_spent(),
            silent_to=self.day_silent_to() if vote is not None else None)

    def seat_ask(self, seat: int, moment: Moment | None = None) -> SeatAsk:
        """What this seat's phone is asked now (moment.py). At night the same for every seat."""
        m = moment if moment is not None else self.moment()
        if m.phase == "night":
            return self.night_seat_ask(seat, m)
        counted = seat in m.voters
        vote = m.vote
        barred = self.day_barred(seat, list(vote[1])) if vote is not None and vote[0] == "seat" else ()
        answer = self.ballot_cast().get(seat) if vote is not None else None
        return SeatAsk(seat=seat, kind=m.ask if counted else None, choices=m.choices if counted else (),
                       barred=barred, counted=counted, answer=answer, voted=self.day_voted(seat))

    # ------------------------------------------------------------------ driving
    def start(self) -> list[Effect]:
        self.out = []
        self._record("game_start", variant=self.variant.name, seats=self.n, roles=self.role_counts, rules=self.rules, timers=self.timers)
        self._say("welcome", n=self.n)
        return self.out

    def apply(self, event: Event) -> list[Effect]:
        # The input goes into the protocol before its consequences, so the protocol replays.
        self.out = [Record({"type": "input", "event": event_to_dict(event)})]
        try:
            if self.state == "over":
                raise Refused("reject_game_over")
            self._dispatch(event)
        except Refused as r:
            seat = getattr(event, "seat", None) if r.private else None
            self.out = [
                Reject(r.line, r.params, seat),
                Record({"type": "rejected", "event": event_to_dict(event), "reason": r.line, "args": r.params}),
            ]
        return self.out

    def first_refusal(self, events: Iterable[Event]) -> Reject | None:
        """Whether every one of `events`, applied in turn, would be taken: the first refusal
        `apply` would give (the same line and args, so the same words the console prints for it),
        or None. The game itself does not change and records nothing.

        An entry that must be taken whole or not at all (the host screen's count: each hand a
        `Tap`) needs this: a hand is judged on the game as the hands before it leave it — a seat's
        second hand is a second vote, the count closes once every fist is down — and only the day
        module's own code knows all of that. So the events are played on a copy; anything cheaper
        would repeat every rule of every day here, and part from them the first time one changed."""
        trial = copy.deepcopy(self)
        for ev in events:
            refused = next((e for e in trial.apply(ev) if isinstance(e, Reject)), None)
            if refused is not None:
                return refused
        return None

    def __deepcopy__(self, memo: dict) -> BaseGame:
        """A copy that plays on alone (`first_refusal`). Shared, not copied: the variant (data no
        game changes) and the phase machine with every game it holds (a copy of it was most of
        the cost) — the copy's own triggers move the copy. Copied with it: a continuation a chain
        of deaths waits to run (`after_chain`), a closure over this game; taken as `copy` takes a
        function, whole, it would go on moving this game, not the copy."""
        machine = machine_for(type(self), self.variant.name)
        memo[id(machine)] = machine
        for trigger in machine.events.values():
            memo[id(trigger)] = trigger
        memo[id(self.variant)] = self.variant
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        for value in vars(self).values():
            if isinstance(value, FunctionType):
                _copy_closure(value, memo)
        twin.__dict__.update(copy.deepcopy(vars(self), memo))
        return twin

    def _dispatch(self, ev: Event) -> None:
        t = type(ev)
        if t is Deal:
            return self._on_deal(ev)
        if t is Tap:
            if self.state == "night":
                return self._night_tap(ev)
            if self.state == "kamikaze":
                return self._kamikaze_tap(ev)
            return self.day_tap(ev)
        if t is Timeout:
            return self.window_ends() if ev.count_waits else self._on_timeout()
        if t is EndSpeech:
            if self.state == "last_words":
                self._check_speaker(ev.by)
                return self._next_last_words()
            return self.day_end_speech(ev)
        if t is Foul:
            return self._on_foul(ev)
        if t is Disqualify or t is Defeat:
            return self._on_penalty(ev)
        if t is Leave:
            return self._on_leave(ev)
        if t is Nominate:
            return self.day_nominate(ev)
        if t is Revoke:
            return self.day_revoke(ev)
        if t is Extend:
            return self.day_extend(ev)
        raise Refused("reject_unknown_input")

    # day procedures override these
    def day_tap(self, ev: Tap) -> None:
        self._valid_seat(ev.seat)
        raise Refused("reject_tap_now")

    def day_end_speech(self, ev: EndSpeech) -> None:
        raise Refused("reject_no_speech")

    def day_nominate(self, ev: Nominate) -> None:
        raise Refused("reject_nominate_now")

    def day_revoke(self, ev: Revoke) -> None:
        raise Refused("reject_revoke_now")

    def day_extend(self, ev: Extend) -> None:
        raise Refused("reject_no_extension")  # only seed 000 has the day's time extension

    def day_timeout(self) -> None:
        raise Refused("reject_no_timer")

    def start_day(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Detach from the shared machine (simulate plays thousands of games on one machine)."""
        try:
            machine_for(type(self), self.variant.name).remove_model(self)
        except ValueError:
            pass

    # ------------------------------------------------------------------ small helpers
    def _say(self, line: str, **args) -> None:
        self.out.append(Say(line, args))

    def _vote_line(self, line: str) -> str:
        """A line that calls or counts a day vote (PHONE_TWINS), as this table votes."""
        assert line in PHONE_TWINS, line
        return line + PHONES if self.votes_on_phones else line

    def _tell(self, to: int, line: str, **args) -> None:
        self.out.append(Tell(to, line, args))

    def _host(self, line: str, **args) -> None:
        self.out.append(HostLine(line, args))

    def _record(self, type_: str, **data) -> None:
        self.out.append(Record({"type": type_, **data}))

    def _timer(self, name: str | None, hold: bool = False, resume: bool = False) -> None:
        self.timer = name
        seconds = self.timers[name] if name else 0
        # a spoken cue before the end ("ten seconds"), when the variant's rules ask for one
        cue = self.rules.get(self.variant.cues.get(name, ""), 0) if name else 0
        self.out.append(Timer(name, seconds, cue if 0 < cue < seconds else 0, hold, resume))

    def _say_timed(self, line: str, timer: str, **args) -> None:
        """A line that speaks a timer's length, then that timer: what is said is what runs."""
        self._say(line, time=self.timers[timer], **args)
        self._timer(timer)

    def _valid_seat(self, seat, private: bool = False) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.seats:
            raise Refused("reject_no_such_seat", {"seat": seat, "n": self.n}, private)
        return seat

    def _living_seat(self, seat, private: bool = False) -> int:
        self._valid_seat(seat, private)
        if not self.seats[seat].alive:
            raise Refused("reject_seat_out", {"seat": seat}, private)
        return seat

    def _check_speaker(self, by: int | None) -> int:
        if by is not None and by != self.speaker:
            self._valid_seat(by)
            raise Refused("reject_not_your_turn", {"seat": by, "speaker": self.speaker})
        return self.speaker

    def _next_living(self, after: int) -> int:
        for i in range(1, self.n + 1):
            s = (after - 1 + i) % self.n + 1
            if self.seats[s].alive:
                return s
        raise AssertionError("nobody alive")

    def _team_count(self, team: str) -> int:
        return sum(1 for s in self.alive if team_of(self.seats[s].role) == team)

    # ------------------------------------------------------------------ timeouts, fouls, the end
    def _on_timeout(self) -> None:
        st = self.state
        if st == "night":
            return self._next_step()
        if st == "last_words":
            self._say("time_up", seat=self.speaker)
            return self._next_last_words()
        if st == "kamikaze":
            # he named nobody in time: nobody dies with him
            self.kamikaze_queue.pop(0)
            return self._finish_kamikaze()
        self.day_timeout()

    def _on_foul(self, ev: Foul) -> None:
        if not self.rules.get("fouls"):
            raise Refused("reject_no_fouls")  # seeds 000, 001, 003 have no referee counting fouls
        self.day_foul(ev)

    def day_foul(self, ev: Foul) -> None:
        raise Refused("reject_unknown_input")

    def _on_penalty(self, ev: Disqualify | Defeat) -> None:
        # the referee's other penalties stand with his fouls (seed 004 §5-7); the other seeds
        # have no referee who dismisses a player or gives a team the defeat
        if not self.rules.get("fouls"):
            raise Refused("reject_no_penalties")
        if self.state == "setup":
            raise Refused("reject_not_started")
        self.day_penalty(ev)

    def day_penalty(self, ev: Disqualify | Defeat) -> None:
        raise Refused("reject_no_penalties")

    def _game_over(self, winner: str) -> None:
        self.winner = winner
        self.speaker = None
        self.to_over()
        self._timer(None)
        self.announce_winner(winner)
        self._record("game_over", winner=winner, roles={str(s): st.role for s, st in self.seats.items()}, days=self.day)
        self.close()

    def announce_winner(self, winner: str) -> None:
        # a draw names the rule's own count of quiet cycles, which a club may set (seed 004 §7 says 3)
        args = {"n": self.rules.get("draw_after_quiet_cycles", 0)} if winner == "draw" else {}
        self._say(self.winner_line(winner), **args)
        self.reveal_roles()

    def winner_line(self, winner: str) -> str:
        if winner == MAFIA and self._mafia_outnumber():
            return "mafia_wins_more"
        return {TOWN: "town_wins", MAFIA: "mafia_wins", "draw": "draw", "maniac": "maniac_wins"}[winner]

    def _mafia_outnumber(self) -> bool:
        """More mafiosi than the rest (a chain of deaths can overshoot "as many as")."""
        mafia = self._team_count(MAFIA)
        return mafia > len(self.alive) - mafia

    def reveal_roles(self) -> None:
        mafia = [s for s, st in self.seats.items() if team_of(st.role) == MAFIA]
        self._say("reveal_mafia", seats=mafia, n=len(mafia))

    def _day_death(self, line: str, seat: int) -> None:
        """A day execution that ends the day: announced, then the night (or the end)."""
        self._timer(None)
        self._say(line, seat=seat)
        self._eliminate([seat], "vote", then=self._go_night, moment="day")


def _copy_closure(f: FunctionType, memo: dict) -> FunctionType:
    """`f` with its closure's cells deep-copied under `memo` (`copy` takes a function as atomic):
    a continuation that calls `self._go_night` calls the copy's."""
    if id(f) in memo:
        return memo[id(f)]
    if not f.__closure__:
        return f
    twin = FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                        tuple(CellType() for _ in f.__closure__))
    twin.__kwdefaults__ = f.__kwdefaults__
    memo[id(f)] = twin  # before its cells: a closure may hold itself
    for old, cell in zip(f.__closure__, twin.__closure__):
        try:
            value = old.cell_contents
        except ValueError:
            continue  # a name bound later in its function: nothing to copy yet
        cell.cell_contents = _copy_closure(value, memo) if isinstance(value, FunctionType) else copy.deepcopy(value, memo)
    return twin


class PhaseChange(Edge):
    """A trigger of the phase graph (`to_night()` …). Every edge of it is a plain change of state —
    no callback, condition or queue anywhere (`PhaseMachine.plain`) — so where transitions would
    build its event data and run its empty callback chains (a quarter of the core's time in a
    simulated game) the state is set here: the same state, and the same MachineError from
    transitions itself for an edge that does not leave the current state."""

    def trigger(self, model, *args, **kwargs):
        edges = self.transitions.get(model.state)
        if edges and self.machine.plain:
            model.state = edges[0].dest
            return True
        return super().trigger(model, *args, **kwargs)


class PhaseMachine(Machine):
    event_cls = PhaseChange

    def __init__(self, cls: type, **kwargs):
        super().__init__(**kwargs)
        # what PhaseChange's shortcut leaves out must be absent: callbacks of the machine, its
        # states or its edges, conditions, a queue, and on_enter_/on_exit_ methods of the game
        # class, which transitions would make state callbacks as each game is added
        self.plain = not (
            self.has_queue or self.prepare_event or self.before_state_change or self.after_state_change
            or self.finalize_event or self.on_exception or getattr(self, "on_final", None)
            or any(st.on_enter or st.on_exit or getattr(st, "final", False) for st in self.states.values())
            or any(e.prepare or e.conditions or e.before or e.after
                   for ev in self.events.values() for es in ev.transitions.values() for e in es)
            or any(name.startswith(("on_enter_", "on_exit_")) for name in dir(cls)))


@cache
def machine_for(cls: type, variant_name: str) -> Machine:
    states = list(BASE_STATES) + list(cls.DAY_STATES)
    transitions = [dict(trigger="to_" + s, source="*", dest=s) for s in ("night", "last_words", "kamikaze", "over")]
    transitions += [dict(trigger=t, source=list(src) if not isinstance(src, str) else src, dest=d) for t, src, d in cls.DAY_TRANSITIONS]
    return PhaseMachine(cls, model=None, states=[State(s) for s in states], transitions=transitions, initial="setup",
                        auto_transitions=False, send_event=False)


__all__ = ["BaseGame", "Refused", "TOWN", "MAFIA"]
