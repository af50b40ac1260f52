"""One game of Mafia as a pure state machine: `apply(event) -> effects`.

The phase graph lives in `transitions` (one shared Machine per variant, each game added as a
model, because building a Machine costs ~0.3 ms and simulate plays thousands of games). This base
holds what every rule system shares — dealing, the night's steps, dawn, eliminations with their
chain deaths, last words, the end — and each day procedure is a subclass (day_*.py, found by
days.py from the variant's data) that adds its own states and edges; the base knows no day. No clock, no I/O, no randomness: the same config and events always give
the same effects.
"""

from __future__ import annotations

import copy
from functools import cache
from types import CellType, FunctionType
from typing import Callable, Iterable

from transitions import Event as Edge
from transitions import Machine, State

from ..rules import wins
from ..rules.dealing import validate_deal
from ..rules.roles import KAMIKAZE_ROLES, MAFIA, TOWN, team_of
from ..rules.variants import NightStep, Variant
from .effects import Effect, HostLine, Record, Reject, Say, Tell, Timer
from .events import Deal, Defeat, Disqualify, EndSpeech, Event, Extend, Foul, Leave, Nominate, Revoke, Tap, Timeout, event_to_dict
from .night import ACTIONS, CHOICES, checked_tonight, resolve_dawn

BASE_STATES = ("setup", "night", "last_words", "kamikaze", "over")

# The lines that call or count a day vote as a show of hands (seed 000 «räcka upp handen … NU»,
# seed 001's hands on a count of three) or of pointing fingers (seed 003). A table that votes on
# its phones ([companion] votes) raises no hand: it hears each line's `_phones` twin, the same
# call at the same moment, worded for the phones. Every language has both.
PHONE_TWINS = frozenset({"hand_vote", "reject_hand_down", "reject_late_vote", "no_votes_nobody_hanged",
                         "accusation", "accusation_count", "execution_vote", "execution_count", "pointing"})
PHONES = "_phones"


class Refused(Exception):
    """An input that breaks a rule: answered with a line, and nothing changes."""

    def __init__(self, line: str, args: dict | None = None, private: bool = False):
        super().__init__(line)
        self.line = line
        self.params = args or {}  # not "args": BaseException coerces that to a tuple
        self.private = private


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


class BaseGame:
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

    # ------------------------------------------------------------------ dealing
    def _on_deal(self, ev: Deal) -> None:
        if self.state != "setup":
            raise Refused("reject_already_dealt")
        if ev.cards:
            if ev.roles or ev.extras:
                raise Refused("reject_deal_cards", {})
            self.cards = True
            self.claims = {r: [] for r in self.role_counts}
            self._record("deal_cards", roles=dict(self.role_counts))
            return self._go_night()
        named: dict[int, str] = {}
        known = set(self.role_counts) | {"citizen"} | set(self.variant.optional_roles)
        for seat, role in ev.roles:
            if not isinstance(seat, int) or not 1 <= seat <= self.n:
                raise Refused("reject_no_such_seat", {"seat": seat, "n": self.n})
            if role not in known:
                raise Refused("reject_unknown_role", {"role": role})
            if seat in named:
                raise Refused("reject_deal_seat_twice", {"seat": seat})
            named[seat] = role
        full, err = validate_deal(self.role_counts, self.n, named)
        if err:  # seats beyond the table were refused above: what is left is the roles it must have
            raise Refused("reject_" + err[0], err[1])
        lovers = [s for s, flag in ev.extras if flag == "lover"]
        kamikazes = [s for s, flag in ev.extras if flag == "kamikaze"]
        for s, flag in ev.extras:
            if flag not in self.variant.extras:
                raise Refused("reject_unknown_role", {"role": flag})
            if s not in self.seats:
                raise Refused("reject_no_such_seat", {"seat": s, "n": self.n})
        if lovers and len(lovers) != 2:
            raise Refused("reject_deal_lovers", {})
        for s, r in full.items():
            self.seats[s].role = r
        if lovers:
            a, b = lovers
            self.seats[a].lover, self.seats[b].lover = b, a
        for s in kamikazes:
            self.seats[s].kamikaze = True
        self._record("deal", roles={str(s): r for s, r in full.items()}, extras={str(s): f for s, f in ev.extras})
        self._go_night()

    # ------------------------------------------------------------------ night
    def _go_night(self) -> None:
        self.speaker = None
        self._timer(None)
        if self.skip_nights():
            # the day that ended is over, and the next one begins without a night in between
            # (seed 001's endgame: «ekkor már nem lehet éjszakát elrendelni»)
            self._record("no_night", reason="endgame")
            self.day += 1
            self._record("phase", phase="day", day=self.day)
            return self._begin_day()
        self.to_night()
        self.night_no += 1
        first = self.night_no == 0 and self.variant.night_zero
        self.steps = self.variant.night_zero if first else self.variant.night
        if self.cards and self.night_no == 0:
            self.steps = self.identification_steps() + self.steps
        self.step_index = -1
        self.intents = {}
        self.blocked = set()
        self._record("phase", phase="night", night=self.night_no)
        self._say("night_zero_falls" if first else "night_falls")
        self._next_step()

    def skip_nights(self) -> bool:
        return False

    def identification_steps(self) -> tuple[NightStep, ...]:
        """Night zero with physical cards: each special card, one after another, taps its own seat."""
        return tuple(NightStep(f"identify_{r}", (r,), "identify", "identify_wake", "identify_sleep", "night_zero_step")
                     for r in self.role_counts)

    def _identify_missing(self, step: NightStep) -> int:
        role = step.actors[0]
        return self.role_counts.get(role, 0) - len(self.claims.get(role, []))

    def _record_cards_deal(self) -> None:
        self.cards_recorded = True
        missing = {r: n - len(self.claims[r]) for r, n in self.role_counts.items() if n > len(self.claims[r])}
        self._record("deal", roles={str(s): st.role for s, st in self.seats.items()}, cards=True, missing=missing)

    def _next_step(self) -> None:
        while True:
            if self.step_open:
                step = self.steps[self.step_index]
                if step.action == "identify" and self._identify_missing(step) > 0 and step.name not in self.repeated:
                    # a card did not show itself: the step is called once more, as a host would
                    self.repeated.add(step.name)
                    self._say("identify_again", role="@role_" + step.actors[0])
                    self._timer(step.timer)
                    if self.fixed_night_steps or not self._step_complete():
                        return
                    continue
                if not self._next_continues():
                    self._say(step.sleep_line, **({"role": "@role_" + step.actors[0]} if step.action == "identify" else {}))
                self.step_open = False
            self.step_index += 1
            if self.cards and not self.cards_recorded and (
                    self.step_index >= len(self.steps) or self.steps[self.step_index].action != "identify"):
                self._record_cards_deal()
            if self.step_index >= len(self.steps):
                return self._dawn()
            step = self.steps[self.step_index]
            if not self._step_plays(step):
                continue  # a role that is not in this game at all (the table knows the setup), or a rule that is off
            self.step_open = True
            # roles never change during a night, so who wakes is worked out once per step; while the
            # cards are shown everybody may tap (a tap on another seat is the cover of the others)
            if step.action == "identify":
                self._awake = list(self.alive)
            else:
                self._awake = self.with_roles(self.alive, step.actors)
            args = {"seats": list(self.alive)} if step.action == "mafia_vote" else {}
            if step.action in CHOICES:
                # the list is read out with its numbers: a keypad or console answers with one
                kind, numbers = CHOICES[step.action]
                args = {"menu": [f"@{kind}_{n}" for n in numbers]}
            if step.action == "identify":
                args = {"role": "@role_" + step.actors[0]}
            line = step.wake_line
            if step.wake_without is not None and not self._in_game(step.wake_without[0]):
                line = step.wake_without[1]
            self._say(line, **args)
            self._timer(step.timer)
            if self.fixed_night_steps or not self._step_complete():
                return

    def _step_plays(self, step: NightStep) -> bool:
        return (step.when is None or bool(self.rules.get(step.when))) and self._step_cast(step)

    def _next_continues(self) -> bool:
        """Whether the next step that plays keeps this step's players awake."""
        for step in self.steps[self.step_index + 1:]:
            if self._step_plays(step):
                return step.continues
        return False

    def _step_cast(self, step: NightStep) -> bool:
        """Whether this step's role is in the game at all (dealt, dead or alive). A step for a role
        that was dealt always plays — with the same length — even when its player is dead."""
        return any(self._in_game(r) for r in step.actors)

    def _in_game(self, role: str) -> bool:
        """Whether `role` was dealt in this game (the table knows the setup), its player dead or alive."""
        if role == "lover":
            return any(st.lover for st in self.seats.values())
        if self.role_counts.get(role):
            return True
        for st in self.seats.values():  # a plain loop: asked for every step of every night
            if st.role == role:
                return True
        return False

    def _step_complete(self) -> bool:
        step = self.step
        if step is None:
            return True
        if step.action == "identify":
            return self._identify_missing(step) <= 0
        awake = self.awake_seats()
        if step.action is None or not awake:
            return True
        done = self.intents.get(step.name, {})
        return all(s in done for s in awake)

    def _night_tap(self, ev: Tap) -> None:
        seat = self._valid_seat(ev.seat, private=True)
        if not self.seats[seat].alive:
            raise Refused("reject_seat_out", {"seat": seat}, private=True)
        step = self.step
        if step is None or step.action is None:
            raise Refused("reject_nothing_to_do", {"seat": seat}, private=True)
        if self.gone_tonight(seat):
            # he has left the table, or the referee removed him: from that moment he acts no more
            # (his choices are void at dawn)
            raise Refused("reject_seat_out", {"seat": seat}, private=True)
        if seat not in self._awake:
            raise Refused("reject_not_awake", {"seat": seat}, private=True)
        if ev.target is None:
            raise Refused("reject_need_seat", {}, private=True)
        if checked_tonight(self, step, seat):
            raise Refused("reject_already_checked", {}, private=True)
        if step.action in CHOICES:
            numbers = CHOICES[step.action][1]
            if ev.target not in numbers or isinstance(ev.target, bool):
                raise Refused("reject_no_such_choice", {"n": len(numbers)}, private=True)
            target = ev.target
        else:
            target = self._living_seat(ev.target, private=True)
        ACTIONS[step.action](self, step, seat, target)
        if not self.fixed_night_steps and self._step_complete():
            self._next_step()

    def _dawn(self) -> None:
        self.day += 1
        left = set(self.leaving)
        deaths, attempt, notes = resolve_dawn(self)
        self.left_tonight = left
        self._record("phase", phase="day", day=self.day)
        self._say("city_wakes", day=self.day)
        self.announce_morning(deaths, attempt, notes)
        self.chain_moment = "dawn"

        def after_deaths() -> None:
            # the win is checked at every dawn, deaths or not: with the avenger in play the sverige
            # mafia can win only after a night (seed 000 Mål), so a quiet night can end the game
            if not deaths and self.night_no > 0 and self._check_win("dawn"):
                return
            if self.count_quiet_cycle(bool(deaths)):
                return
            self.left_this_cycle = False
            self.after_dawn(deaths)

        if deaths:
            # one who left, or whom the referee removed, and was shot the same night was shot: the
            # shot was fired at a player still at the table (a leave or a removal at night takes
            # effect on the table at dawn)
            causes = {s: notes.get("causes", {}).get(s, "shot") for s in deaths}
            self._eliminate(deaths, causes, then=after_deaths, moment="dawn")
        else:
            after_deaths()

    def announce_morning(self, deaths: list[int], attempt: bool, notes: dict) -> None:
        if deaths:
            self._say("morning_deaths", seats=deaths, n=len(deaths))
        elif attempt and self.rules.get("announce_attempts", False):  # seed 000 only
            self._say("morning_attempt")
        elif self.night_no > 0 or not self.variant.night_zero:
            self._say("morning_nobody")

    def count_quiet_cycle(self, someone_died: bool) -> bool:
        """seed 004 §7 draw; True when it ended the game."""
        limit = self.rules.get("draw_after_quiet_cycles", 0)
        if not limit or self.night_no <= 0:
            return False
        self.quiet_cycles = 0 if (self.left_this_cycle or someone_died) else self.quiet_cycles + 1
        if self.quiet_cycles >= limit:
            self._game_over("draw")
            return True
        return False

    def after_dawn(self, deaths: list[int]) -> None:
        self._begin_day()

    def _begin_day(self) -> None:
        self.start_day()

    # ------------------------------------------------------------------ leaving at night (seed 000)
    def _on_leave(self, ev: Leave) -> None:
        seat = self._living_seat(ev.seat)
        if self.state != "night":
            raise Refused("reject_leave_now")
        if seat in self.removed_tonight:
            raise Refused("reject_seat_out", {"seat": seat})  # the referee has removed him already
        if seat not in self.leaving:
            # announced as shot in the morning (seed 000), so nobody learns it was not the mafia
            self.leaving.append(seat)
            self._record("leaving", seat=seat)
        # whoever typed it must know it was taken, but the sleeping table must not hear it: a
        # private line, never spoken (seed 000: one signals the game master, not the table)
        self._tell(seat, "player_left_unwell", seat=seat)

    # ------------------------------------------------------------------ eliminations and chains
    def _mark_dead(self, seats: list[int], cause: str | dict) -> None:
        for s in seats:
            self.seats[s].alive = False
            self.deaths.append(s)
            self.causes[s] = cause if isinstance(cause, str) else cause[s]
            self._record("eliminated", seat=s, cause=self.causes[s])
            if self.seats[s].role == "grocer":
                self._say("died_as_grocer")
        self._alive = [s for s in self._alive if self.seats[s].alive]
        self.left_this_cycle = True

    def _eliminate(self, seats: list[int], cause: str | dict, then: Callable[[], None], moment: str = "now") -> None:
        """Remove players, run their chain deaths, check the win at the moments the rules say, then
        continue with `then` unless the game ended."""
        seats = [s for s in seats if self.seats[s].alive]
        self._mark_dead(seats, cause)
        kamikazes = [s for s in seats if self.seats[s].kamikaze or self.seats[s].role in KAMIKAZE_ROLES]
        lovers = [self.seats[s].lover for s in seats if self.seats[s].lover and self.seats[self.seats[s].lover].alive]

        def after_kamikaze() -> None:
            # kamikaze deaths are simultaneous with his victim's; a lover dies a moment later,
            # so the win is checked between the two (seed 001, extra rule 3)
            if self._check_win(moment):
                return
            if lovers:
                partner = lovers[0]
                rest = lovers[1:]
                if self.seats[partner].alive:
                    self._say("lover_dies", seat=partner)
                    return self._eliminate([partner], "lover", then=lambda: self._continue_lovers(rest, then, moment), moment=moment)
                return self._continue_lovers(rest, then, moment)
            then()

        if kamikazes:
            self.kamikaze_queue = list(kamikazes)
            self.kamikaze_victims = []
            self.after_chain = after_kamikaze
            self.chain_moment = moment
            self._ask_kamikaze()
        else:
            after_kamikaze()

    def _continue_lovers(self, rest: list[int], then, moment) -> None:
        rest = [s for s in rest if self.seats[s].alive]
        if rest:
            self._say("lover_dies", seat=rest[0])
            return self._eliminate([rest[0]], "lover", then=lambda: self._continue_lovers(rest[1:], then, moment), moment=moment)
        then()

    def _ask_kamikaze(self) -> None:
        self.to_kamikaze()
        self.speaker = self.kamikaze_queue[0]
        self._say("kamikaze_choose", seat=self.kamikaze_queue[0])
        self._timer("kamikaze")

    def _kamikaze_tap(self, ev: Tap) -> None:
        seat = self._valid_seat(ev.seat)
        if seat != self.kamikaze_queue[0]:
            raise Refused("reject_not_kamikaze")
        if ev.target is None:
            raise Refused("reject_need_seat")
        target = self._living_seat(ev.target)
        self.kamikaze_queue.pop(0)
        self._say("kamikaze_takes", seat=target, by=seat)
        self._record("kamikaze", by=seat, seat=target)
        self.kamikaze_victims.append(target)
        self._finish_kamikaze()

    def _finish_kamikaze(self) -> None:
        if self.kamikaze_queue:
            # several kamikazes died together: each names his own before the chain goes on
            return self._ask_kamikaze()
        victims = list(dict.fromkeys(self.kamikaze_victims))
        self.kamikaze_victims = []
        then = self.after_chain
        self.speaker = None
        self._timer(None)
        if victims:
            return self._eliminate(victims, "kamikaze", then=then, moment=self.chain_moment)
        then()

    def win_now(self, moment: str) -> str | None:
        """Who has won at this moment by the variant's rule (no side effects)."""
        roles = [self.seats[s].role for s in self.alive]
        # every rule system's win function takes the same facts and uses those its seed needs
        return getattr(wins, self.variant.name)(roles, started=self.n, moment=moment,
                                                organisation_rule=self.rules.get("organisation_rule", False),
                                                avenger_in_play=bool(self.role_counts.get("avenger")),
                                                rules=self.rules)

    def _check_win(self, moment: str) -> bool:
        w = self.win_now(moment)
        if w:
            self._game_over(w)
            return True
        return False

    # ------------------------------------------------------------------ last words
    def _give_last_words(self, seats: list[int], then: Callable[[], None]) -> None:
        self.last_words_queue = list(seats)
        self.after_last_words = then
        self.to_last_words()
        self._next_last_words()

    def _next_last_words(self) -> None:
        if self.last_words_queue:
            self.speaker = self.last_words_queue.pop(0)
            self._record("speech", seat=self.speaker, kind="last_words")
            self._say("last_words_turn", seat=self.speaker)
            self._timer("last_words")
            return
        self.speaker = None
        self.after_last_words()

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
