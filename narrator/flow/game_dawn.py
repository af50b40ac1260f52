"""Dawn and what follows a death, for every rule system: the morning's deaths, a player leaving
at night, the chains (the lovers, the kamikaze), the win checked after each, and last words.
Part of the game (`BaseGame` takes it in)."""

from __future__ import annotations

from typing import Callable

from ..rules import wins
from ..rules.roles import KAMIKAZE_ROLES
from .events import Leave, Tap
from .night import resolve_dawn
from .refused import Refused


class DawnAndChains:
    """Dawn, the chains of deaths and last words, for `BaseGame`: its state and helpers are the game's."""

    # ------------------------------------------------------------------ dawn
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
