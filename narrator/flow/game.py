"""One game of Mafia as a pure state machine: `apply(event) -> effects`.

The phase graph lives in `transitions` (one shared Machine per variant, each game added as a model,
because building a Machine costs ~0.3 ms and simulate plays thousands of games). The rules that
decide *which* transition comes next are plain methods here and in `narrator.rules`.

No clock, no I/O, no randomness: the same config and events always give the same effects.
"""

from __future__ import annotations

from functools import cache

from transitions import Machine, State

from ..rules import night as night_rules
from ..rules.dealing import validate_deal
from ..rules.roles import MAFIA, TOWN, team_of
from ..rules.variants import NightStep, Variant
from ..rules.voting import leaders, majority, tally
from ..rules.wins import winner
from .effects import Effect, Record, Reject, Say, Tell, Timer
from .events import Deal, EndSpeech, Event, Foul, Nominate, Revoke, Tap, Timeout, event_to_dict

STATES = (
    "setup",
    "night",
    "last_words",
    "speeches",
    "voting",
    "tie_speeches",
    "revote",
    "all_leave_vote",
    "over",
)

# The phase graph. Which edge is taken is decided by the rules below; the machine refuses any
# edge not listed here, so a rule bug shows up as an error instead of a silently odd game.
TRANSITIONS = (
    ("to_night", ["setup", "speeches", "voting", "revote", "all_leave_vote", "last_words", "tie_speeches"], "night"),
    ("to_speeches", ["night", "last_words"], "speeches"),
    ("to_voting", ["speeches"], "voting"),
    ("to_tie_speeches", ["voting"], "tie_speeches"),
    ("to_revote", ["voting", "tie_speeches"], "revote"),
    ("to_all_leave", ["revote"], "all_leave_vote"),
    ("to_last_words", ["night", "speeches", "voting", "revote", "all_leave_vote"], "last_words"),
    ("to_over", "*", "over"),
)


@cache
def machine_for(variant_name: str) -> Machine:
    return Machine(
        model=None,
        states=[State(s) for s in STATES],
        transitions=[dict(trigger=t, source=s, dest=d) for t, s, d in TRANSITIONS],
        initial="setup",
        auto_transitions=False,
        send_event=False,
    )


class Refused(Exception):
    """An input that breaks a rule: answered with a line, and nothing changes."""

    def __init__(self, line: str, args: dict | None = None, private: bool = False):
        super().__init__(line)
        self.line = line
        self.params = args or {}  # not "args": BaseException coerces that to a tuple
        self.private = private


class Seat:
    __slots__ = ("number", "role", "alive", "fouls", "skip_next_speech")

    def __init__(self, number: int):
        self.number = number
        self.role = "citizen"
        self.alive = True
        self.fouls = 0
        self.skip_next_speech = False


class Game:
    """A game in progress. Drive it with `start()` then `apply(event)`; read `awaiting()`."""

    state: str  # set by the transitions machine

    def __init__(
        self,
        variant: Variant,
        rules: dict,
        timers: dict,
        seats: int | None = None,
        fixed_night_steps: bool = False,
    ):
        self.variant = variant
        self.rules = rules
        self.timers = timers
        self.n = seats or variant.default_seats
        # Live play keeps every night step for its full time so nobody hears who is dead or done;
        # replay and simulation may move on as soon as nothing more can happen.
        self.fixed_night_steps = fixed_night_steps
        self.seats = {s: Seat(s) for s in range(1, self.n + 1)}
        self._alive = list(self.seats)  # kept in seat order; changed only by _eliminate
        self.out: list[Effect] = []
        self.day = 0
        self.night_no = -1
        self.opener: int | None = None
        self.winner: str | None = None
        self.quiet_cycles = 0
        self.left_this_cycle = False
        self.cancel_vote_day: int | None = None
        # day state
        self.nominations: list[tuple[int, int]] = []  # (by, seat) in order
        self.speech_queue: list[int] = []
        self.speaker: int | None = None
        self.speech_kind = "speech"
        self.nominated_this_speech: int | None = None
        # vote state
        self.candidates: list[int] = []
        self.votes: dict[int, int] = {}
        self.answers: dict[int, bool] = {}
        self.tied: list[int] = []
        # last words
        self.last_words_queue: list[int] = []
        self.after_last_words = "night"
        # night state
        self.steps: tuple[NightStep, ...] = ()
        self.step_index = -1
        self.shots: dict[int, list[int]] = {}
        self.checked: set[int] = set()
        self.timer: str | None = None
        machine_for(variant.name).add_model(self)

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
        if self.state in ("speeches", "tie_speeches", "last_words"):
            return self.speaker
        return None

    def awaiting(self) -> tuple[str, dict]:
        """What the game waits for, as a line id and args (rendered in the table's language)."""
        st = self.state
        if st == "setup":
            return "awaiting_deal", {}
        if st == "over":
            return "awaiting_nothing", {}
        if st in ("speeches", "tie_speeches", "last_words"):
            return "awaiting_speech", {"seat": self.speaker}
        if st in ("voting", "revote"):
            return "awaiting_votes", {"seats": [s for s in self.alive if s not in self.votes]}
        if st == "all_leave_vote":
            return "awaiting_votes", {"seats": [s for s in self.alive if s not in self.answers]}
        step = self.step
        if step is not None and step.action:
            return "awaiting_night_step", {"step": "@step_" + step.name}
        return "awaiting_timeout", {}

    def public_view(self) -> dict:
        """Everything the whole table may see: never a role before the game is over."""
        view = {
            "state": self.state,
            "day": self.day,
            "alive": self.alive,
            "fouls": {s: st.fouls for s, st in self.seats.items() if st.fouls},
            "nominations": [s for _, s in self.nominations],
            "speaker": self.floor,
            "timer": self.timer,
        }
        if self.state == "over":
            view["winner"] = self.winner
            view["roles"] = {s: st.role for s, st in self.seats.items()}
        return view

    def awake_seats(self) -> list[int]:
        step = self.step
        if step is None:
            return []
        return [s for s in self.alive if self.seats[s].role in step.actors]

    # ------------------------------------------------------------------ driving
    def start(self) -> list[Effect]:
        self.out = []
        self._record("game_start", variant=self.variant.name, seats=self.n, rules=self.rules, timers=self.timers)
        self._say("welcome", n=self.n)
        return self.out

    def apply(self, event: Event) -> list[Effect]:
        # The input goes into the protocol before its consequences, so the protocol replays.
        self.out = [Record({"type": "input", "event": event_to_dict(event)})]
        handler = _HANDLERS.get(type(event))
        try:
            if handler is None:
                raise Refused("reject_unknown_input")
            if self.state == "over":
                raise Refused("reject_game_over")
            handler(self, event)
        except Refused as r:
            seat = getattr(event, "seat", None) if r.private else None
            self.out = [Reject(r.line, r.params, seat)]
            self.out.append(Record({"type": "rejected", "event": event_to_dict(event), "reason": r.line, "args": r.params}))
        return self.out

    def close(self) -> None:
        """Detach from the shared machine (simulate plays thousands of games on one machine)."""
        try:
            machine_for(self.variant.name).remove_model(self)
        except ValueError:
            pass

    # ------------------------------------------------------------------ small helpers
    def _say(self, line: str, **args) -> None:
        self.out.append(Say(line, args))

    def _record(self, type_: str, **data) -> None:
        self.out.append(Record({"type": type_, **data}))

    def _timer(self, name: str | None) -> None:
        self.timer = name
        self.out.append(Timer(name, self.timers[name] if name else 0))

    def _valid_seat(self, seat, private: bool = False) -> int:
        if not isinstance(seat, int) or seat not in self.seats:
            raise Refused("reject_no_such_seat", {"seat": seat, "n": self.n}, private)
        return seat

    def _living_seat(self, seat, private: bool = False) -> int:
        self._valid_seat(seat, private)
        if not self.seats[seat].alive:
            raise Refused("reject_seat_out", {"seat": seat}, private)
        return seat

    def _next_living(self, after: int) -> int:
        for i in range(1, self.n + 1):
            s = (after - 1 + i) % self.n + 1
            if self.seats[s].alive:
                return s
        raise AssertionError("nobody alive")

    # ------------------------------------------------------------------ dealing
    def _on_deal(self, ev: Deal) -> None:
        if self.state != "setup":
            raise Refused("reject_already_dealt")
        named = {}
        for seat, role in ev.roles:
            if not isinstance(seat, int) or not 1 <= seat <= self.n:
                raise Refused("reject_no_such_seat", {"seat": seat, "n": self.n})
            if role not in self.variant.roles and role != "citizen":
                raise Refused("reject_unknown_role", {"role": role})
            if seat in named:
                raise Refused("reject_bad_deal", {"reason": f"seat {seat} named twice"})
            named[seat] = role
        full, err = validate_deal(self.variant, self.n, named)
        if err:
            raise Refused("reject_bad_deal", {"reason": err})
        for s, r in full.items():
            self.seats[s].role = r
        self._record("deal", roles={str(s): r for s, r in full.items()})
        self.to_night()
        self._begin_night()

    # ------------------------------------------------------------------ night
    def _begin_night(self) -> None:
        self.night_no += 1
        self.steps = self.variant.night_zero if self.night_no == 0 else self.variant.night
        self.step_index = -1
        self.shots = {}
        self.checked = set()
        self._record("phase", phase="night", night=self.night_no)
        self._say("night_zero_falls" if self.night_no == 0 else "night_falls")
        self._next_step()

    def _next_step(self) -> None:
        while True:
            if 0 <= self.step_index < len(self.steps):
                self._say(self.steps[self.step_index].sleep_line)
            self.step_index += 1
            if self.step_index >= len(self.steps):
                self._dawn()
                return
            step = self.steps[self.step_index]
            self._say(step.wake_line)
            self._timer(step.timer)
            if self.fixed_night_steps or not self._step_complete():
                return

    def _step_complete(self) -> bool:
        step = self.step
        if step is None:
            return True
        awake = self.awake_seats()
        if step.action is None or not awake:
            return True
        if step.action == "shoot":
            return all(s in self.shots for s in awake)
        return all(s in self.checked for s in awake)

    def _night_tap(self, ev: Tap) -> None:
        seat = self._valid_seat(ev.seat, private=True)
        if not self.seats[seat].alive:
            raise Refused("reject_seat_out", {"seat": seat}, private=True)
        step = self.step
        if step is None or step.action is None:
            raise Refused("reject_nothing_to_do", {"seat": seat}, private=True)
        if self.seats[seat].role not in step.actors:
            raise Refused("reject_not_awake", {"seat": seat}, private=True)
        if ev.target is None:
            raise Refused("reject_need_seat", {}, private=True)
        target = self._living_seat(ev.target, private=True)
        if step.action == "shoot":
            self.shots.setdefault(seat, []).append(target)
            self._record("shot_fired", by=seat, seat=target)
            self.out.append(Tell(seat, "shot_taken", {"seat": target}))
        else:
            if seat in self.checked:
                raise Refused("reject_already_checked", {}, private=True)
            if target == seat:
                raise Refused("reject_check_self", {}, private=True)
            self.checked.add(seat)
            result = getattr(night_rules, step.action)(self.seats[target].role)
            self._record("check", by=seat, seat=target, result=result)
            self.out.append(Tell(seat, "check_" + result, {"seat": target}))
        if not self.fixed_night_steps and self._step_complete():
            self._next_step()

    def _dawn(self) -> None:
        self.day += 1
        hit = None
        if self.night_no > 0:
            shooters = [s for s in self.alive if team_of(self.seats[s].role) == MAFIA]
            hit = night_rules.resolve_shot(shooters, self.shots, self.rules["second_shot_misses"])
            self._record("shot", seat=hit, shooters={str(s): self.shots.get(s, []) for s in shooters})
        self._record("phase", phase="day", day=self.day)
        self._say("city_wakes", day=self.day)
        if self.night_no > 0:
            if hit is not None:
                self._say("morning_bad", seat=hit)
                if self._eliminate([hit], "shot"):
                    return
            else:
                self._say("morning_good")
            # seed 004 §7: three day+night cycles with nobody leaving is a draw
            self.quiet_cycles = 0 if self.left_this_cycle else self.quiet_cycles + 1
            limit = self.rules["draw_after_quiet_cycles"]
            if limit and self.quiet_cycles >= limit:
                self._game_over("draw")
                return
        self.left_this_cycle = False
        if hit is not None and self.rules["last_words_after_shot"]:
            self._give_last_words([hit], then="speeches")
        else:
            self.to_speeches()
            self._begin_speeches()

    # ------------------------------------------------------------------ speeches
    def _begin_speeches(self) -> None:
        # seed 002: each day opens with the player after the one who opened the previous day
        self.opener = self._next_living(0 if self.opener is None else self.opener)
        order = [self.opener]
        while len(order) < len(self.alive):
            order.append(self._next_living(order[-1]))
        self.speech_queue = order
        self.nominations = []
        self.speaker = None
        self._record("speeches", day=self.day, order=list(order))
        self._next_speech()

    def _next_speech(self) -> None:
        self.nominated_this_speech = None
        while self.speech_queue:
            seat = self.speech_queue.pop(0)
            if not self.seats[seat].alive:
                continue
            self.speaker = seat
            if self.seats[seat].skip_next_speech:
                # seed 004 §6: the third foul skips the next speech, but he may still nominate
                self.seats[seat].skip_next_speech = False
                self.speech_kind = "fouled_turn"
                self._record("speech", seat=seat, kind="fouled_turn")
                self._say("fouled_turn", seat=seat)
                self._timer("fouled_turn")
            else:
                self.speech_kind = "speech"
                self._record("speech", seat=seat, kind="speech")
                self._say("speech_turn", seat=seat)
                self._timer("speech")
            return
        self.speaker = None
        self._end_speeches()

    def _on_nominate(self, ev: Nominate) -> None:
        if self.state != "speeches":
            raise Refused("reject_nominate_now")
        by = self._check_speaker(ev.by)
        seat = self._valid_seat(ev.seat)
        if not self.seats[seat].alive:
            raise Refused("reject_seat_out", {"seat": seat})
        if seat == by and not self.rules["self_nomination"]:
            raise Refused("reject_self_nomination")
        for nominator, nominee in self.nominations:
            if nominee == seat:
                raise Refused("reject_already_nominated", {"seat": seat})
        for nominator, nominee in self.nominations:
            if nominator == by:
                raise Refused("reject_one_nomination", {"seat": nominee})
        self.nominations.append((by, seat))
        self.nominated_this_speech = seat
        self._record("nomination", by=by, seat=seat)
        self._say("nomination_accepted", seat=seat)

    def _on_revoke(self, ev: Revoke) -> None:
        if self.state != "speeches":
            raise Refused("reject_revoke_now")
        by = self._check_speaker(ev.by)
        mine = self.nominated_this_speech
        if mine is None or (ev.seat is not None and ev.seat != mine):
            # seed 004 §4.4: only one's own nomination, during the same speech
            raise Refused("reject_revoke_not_yours", {"seat": ev.seat})
        self.nominations = [(b, s) for b, s in self.nominations if not (b == by and s == mine)]
        self.nominated_this_speech = None
        self._record("revocation", by=by, seat=mine)
        self._say("nomination_revoked", seat=mine)

    def _check_speaker(self, by: int | None) -> int:
        if by is not None and by != self.speaker:
            self._valid_seat(by)
            raise Refused("reject_not_your_turn", {"seat": by, "speaker": self.speaker})
        return self.speaker

    def _on_end_speech(self, ev: EndSpeech) -> None:
        if self.state not in ("speeches", "tie_speeches", "last_words"):
            raise Refused("reject_no_speech")
        self._check_speaker(ev.by)
        self._finish_speech(timed_out=False)

    def _finish_speech(self, timed_out: bool) -> None:
        if timed_out:
            self._say("time_up", seat=self.speaker)
        if self.state == "speeches":
            self._next_speech()
        elif self.state == "tie_speeches":
            self._next_tie_speech()
        else:
            self._next_last_words()

    def _end_speeches(self) -> None:
        nominees = [s for _, s in self.nominations]
        self._timer(None)
        if self.cancel_vote_day == self.day:
            # seed 004 §7: a player removed by fouls cancels the current (or next) vote
            self._record("vote_cancelled", day=self.day, reason="fouls")
            self._say("vote_cancelled_fouls")
            return self._go_night()
        if not nominees:
            self._record("vote_cancelled", day=self.day, reason="no_nominations")
            self._say("no_nominations")
            return self._go_night()
        self._say("nominees", seats=nominees)
        if len(nominees) == 1:
            if self.day == 1 and not self.rules["first_day_single_nominee_vote"]:
                self._record("vote_cancelled", day=self.day, reason="single_nominee_first_day")
                self._say("single_nominee_first_day", seat=nominees[0])
                return self._go_night()
            if self.day > 1 and self.rules["single_nominee_eliminated"]:
                self._say("single_nominee_leaves", seat=nominees[0])
                return self._vote_eliminates(nominees, rule="single_nominee")
        self.to_voting()
        self._open_vote(nominees, "main")

    # ------------------------------------------------------------------ votes
    def _open_vote(self, candidates: list[int], round_: str) -> None:
        self.candidates = candidates
        self.votes = {}
        self._record("vote_open", round=round_, candidates=list(candidates))
        self._say("vote_open", seats=candidates)
        self._timer("vote")

    def _vote_tap(self, ev: Tap) -> None:
        voter = self._living_seat(ev.seat)
        if voter in self.votes:
            raise Refused("reject_already_voted", {"seat": voter})
        if ev.target is None:
            raise Refused("reject_need_candidate", {"seats": self.candidates})
        if ev.target not in self.candidates:
            raise Refused("reject_not_candidate", {"seat": ev.target, "seats": self.candidates})
        self.votes[voter] = ev.target
        self._record("vote", voter=voter, seat=ev.target)
        if len(self.votes) == len(self.alive):
            self._close_vote()

    def _close_vote(self) -> None:
        round_ = "main" if self.state == "voting" else "revote"
        counts, silent = tally(self.candidates, self.votes, self.alive)
        self._record("vote_result", round=round_, counts={str(c): n for c, n in counts.items()}, added_to_last=silent)
        for c, n in counts.items():
            self._say("vote_count", seat=c, n=n)
        top = leaders(counts)
        if len(top) == 1:
            return self._vote_eliminates(top)
        if round_ == "main":
            # seed 004 §4.4: split vote — the tied speak 30 s each, then a re-vote among them
            self.tied = top
            self._record("split", seats=list(top))
            self._say("split_vote", seats=top)
            if self.rules["tie_speeches"]:
                self.to_tie_speeches()
                self.speech_queue = list(top)
                self._next_tie_speech()
            else:
                self.to_revote()
                self._open_vote(top, "revote")
            return
        self.tied = top
        if len(top) >= 3 and self.rules["three_way_tie_twice_ends"]:
            self._record("vote_ends", reason="tie_twice", seats=top)
            self._say("tie_twice_vote_ends")
            return self._go_night()
        if len(top) >= len(self.alive):
            # seed 004 §7: a vote to remove all remaining players is never held
            self._record("vote_ends", reason="would_remove_everyone", seats=top)
            self._say("no_vote_to_remove_all")
            return self._go_night()
        self.to_all_leave()
        self.answers = {}
        self._record("vote_open", round="all_leave", candidates=list(top))
        self._say("all_leave_question", seats=top)
        self._timer("vote")

    def _next_tie_speech(self) -> None:
        while self.speech_queue:
            seat = self.speech_queue.pop(0)
            if self.seats[seat].alive:
                self.speaker = seat
                self._record("speech", seat=seat, kind="tie_speech")
                self._say("tie_speech_turn", seat=seat)
                self._timer("tie_speech")
                return
        self.speaker = None
        self.to_revote()
        self._open_vote([s for s in self.tied if self.seats[s].alive], "revote")

    def _answer_tap(self, ev: Tap) -> None:
        voter = self._living_seat(ev.seat)
        if voter in self.answers:
            raise Refused("reject_already_voted", {"seat": voter})
        if ev.answer is None:
            raise Refused("reject_need_yes_no")
        self.answers[voter] = ev.answer
        self._record("vote", voter=voter, answer="yes" if ev.answer else "no")
        if len(self.answers) == len(self.alive):
            self._close_all_leave()

    def _close_all_leave(self) -> None:
        yes = sum(1 for a in self.answers.values() if a)
        passed = majority(yes, len(self.alive))
        self._record("vote_result", round="all_leave", yes=yes, electorate=len(self.alive), passed=passed)
        self._say("all_leave_count", n=yes)
        if passed:
            return self._vote_eliminates(self.tied)
        self._say("all_stay")
        self._go_night()

    def _vote_eliminates(self, seats: list[int], rule: str = "vote") -> None:
        self._timer(None)
        for s in seats:
            self._say("eliminated_by_vote", seat=s)
        if self._eliminate(seats, "vote"):
            return
        if self.rules["last_words"]:
            self._give_last_words(seats, then="night")
        else:
            self._go_night()

    # ------------------------------------------------------------------ last words, eliminations
    def _give_last_words(self, seats: list[int], then: str) -> None:
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
        if self.after_last_words == "speeches":
            self.to_speeches()
            self._begin_speeches()
        else:
            self._go_night()

    def _eliminate(self, seats: list[int], cause: str) -> bool:
        """Remove players; True when that ended the game (the win is checked after every elimination)."""
        for s in seats:
            self.seats[s].alive = False
            self._record("eliminated", seat=s, cause=cause)
        self._alive = [s for s in self._alive if self.seats[s].alive]
        self.left_this_cycle = True
        roles = [st.role for st in self.seats.values() if st.alive]
        win = winner(roles)
        if win:
            self._game_over(win)
            return True
        return False

    def _go_night(self) -> None:
        self._timer(None)
        self.to_night()
        self._begin_night()

    def _game_over(self, winner: str) -> None:
        self.winner = winner
        self.speaker = None
        self.to_over()
        self._timer(None)
        self._say({"town": "town_wins", "mafia": "mafia_wins", "draw": "draw"}[winner])
        mafia = [s for s, st in self.seats.items() if team_of(st.role) == MAFIA]
        don = [s for s, st in self.seats.items() if st.role == "don"]
        sheriff = [s for s, st in self.seats.items() if st.role == "sheriff"]
        self._say("reveal_roles", seats=mafia, don=don[0] if don else "-", sheriff=sheriff[0] if sheriff else "-")
        self._record("game_over", winner=winner, roles={str(s): st.role for s, st in self.seats.items()}, days=self.day)
        self.close()

    # ------------------------------------------------------------------ fouls
    def _on_foul(self, ev: Foul) -> None:
        seat = self._valid_seat(ev.seat)
        leaving = self.state == "last_words" and seat == self.speaker
        if not self.seats[seat].alive and not leaving:
            raise Refused("reject_seat_out", {"seat": seat})
        if self.state == "setup":
            raise Refused("reject_not_started")
        st = self.seats[seat]
        st.fouls += 1
        self._record("foul", seat=seat, count=st.fouls)
        self._say("foul", seat=seat, n=st.fouls)
        if st.fouls == 3:
            st.skip_next_speech = True
            self._say("third_foul", seat=seat)
        if st.fouls < 4:
            return
        if leaving:
            # already killed or voted out: the fourth foul ends his last words, nothing is cancelled
            self._say("fouled_out_silenced", seat=seat)
            return self._next_last_words()
        self._say("fouled_out", seat=seat)
        self._foul_out(seat)

    def _foul_out(self, seat: int) -> None:
        state = self.state
        # seed 004 §7: the current vote is cancelled, or the next one if today's result is decided
        decided = state == "night" or (state == "last_words" and self.after_last_words == "night")
        self.cancel_vote_day = self.day + 1 if decided else self.day
        self._record("vote_cancel_pending", day=self.cancel_vote_day)
        was_speaker = self.speaker == seat
        self.nominations = [(b, s) for b, s in self.nominations if s != seat]
        if self._eliminate([seat], "fouls"):
            return
        if state in ("voting", "revote", "all_leave_vote") or (state == "tie_speeches"):
            self._record("vote_cancelled", day=self.day, reason="fouls")
            self._say("vote_cancelled_fouls")
            self.cancel_vote_day = None
            return self._go_night()
        if state == "speeches" and was_speaker:
            return self._next_speech()
        if state == "night" and not self.fixed_night_steps and self._step_complete():
            self._next_step()

    # ------------------------------------------------------------------ dispatch
    def _on_tap(self, ev: Tap) -> None:
        if self.state == "night":
            return self._night_tap(ev)
        if self.state in ("voting", "revote"):
            return self._vote_tap(ev)
        if self.state == "all_leave_vote":
            return self._answer_tap(ev)
        self._valid_seat(ev.seat)
        raise Refused("reject_tap_now")

    def _on_timeout(self, ev: Timeout) -> None:
        st = self.state
        if st == "night":
            self._next_step()
        elif st in ("speeches", "tie_speeches", "last_words"):
            self._finish_speech(timed_out=True)
        elif st in ("voting", "revote"):
            self._close_vote()
        elif st == "all_leave_vote":
            self._close_all_leave()
        else:
            raise Refused("reject_no_timer")


_HANDLERS = {
    Deal: Game._on_deal,
    Nominate: Game._on_nominate,
    Revoke: Game._on_revoke,
    EndSpeech: Game._on_end_speech,
    Tap: Game._on_tap,
    Foul: Game._on_foul,
    Timeout: Game._on_timeout,
}

__all__ = ["Game", "Refused", "STATES", "TRANSITIONS", "TOWN", "MAFIA"]
