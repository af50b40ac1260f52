"""The Mensa HungarIQ day (seed 001): anyone accuses; a support vote on a count of three; the
discussion; the accused's last word; the execution vote; the endgame of three without nights."""

from __future__ import annotations

from ..rules.roles import MAFIA, team_of
from ..rules.voting import majority
from .events import EndSpeech, Nominate, Tap
from .game import BaseGame, Refused


class HungariqGame(BaseGame):
    DAY_STATES = ("accusations", "support_vote", "debate", "accused_last_word", "execution_vote")
    DAY_TRANSITIONS = (
        ("to_accusations", "*", "accusations"),
        ("to_support_vote", ["accusations"], "support_vote"),
        ("to_debate", ["support_vote"], "debate"),
        ("to_accused_last_word", ["debate"], "accused_last_word"),
        ("to_execution_vote", ["accused_last_word"], "execution_vote"),
    )
    FLOOR_STATES = ("accused_last_word", "last_words")
    HOST_NOMINATE_STATES = ("accusations",)
    END_SPEECH_STATES = ("debate", "accused_last_word")
    # seed 001: «Vádat emelek XY ellen», «a vádlott»: the screens say accused, never nominated
    ACCUSING = True
    # his own vote on his phone: for or against the accusation, for or against the execution
    VOTED_YES_NO = {"support_vote": "voted_support_", "execution_vote": "voted_execution_"}

    def init_day(self) -> None:
        self.accused: int | None = None
        self.accusations_today = 0
        # spared by today's execution votes; not a pardoned protected citizen: the seed's «tovább él,
        # és más vádlottat keresnek» follows a vote without a majority, and his pardon is the host's
        self.tried_today: set[int] = set()
        self.answers: dict[int, bool] = {}
        self.endgame_announced = False

    def public_nominations(self) -> list[int]:
        return [self.accused] if self.accused is not None else []

    def vote_choices(self):
        return ("yes_no", []) if self.state in ("support_vote", "execution_vote") else None

    def ballot_cast(self):
        if self.state in ("support_vote", "execution_vote"):
            return {v: (None, a) for v, a in self.answers.items()}
        return {}

    def day_awaiting(self):
        if self.state in ("support_vote", "execution_vote"):
            return "awaiting_votes", {"seats": [s for s in self.alive if s not in self.answers]}
        return "awaiting_timeout", {}

    def endgame(self) -> bool:
        # seed 001: two citizens and one mafioso left — no more nights, no time limit
        return (self.rules["endgame_without_nights"] and len(self.alive) == 3 and self._team_count(MAFIA) == 1)

    def skip_nights(self) -> bool:
        return self.endgame()

    def start_day(self) -> None:
        self.to_accusations()
        self.accusations_today = 0
        self.tried_today = set()
        self.accused = None
        if self.endgame() and not self.endgame_announced:
            self.endgame_announced = True
            self._say("endgame")
        self._record("accusations", day=self.day)
        self._say("day_open")
        if self.endgame():
            return self._timer(None)
        # seed 001: the day is long enough when its time has passed, and a trial does not eat it:
        # the day's clock is held while an accusation is tried (hold) and goes on after it (resume)
        self._timer("day", hold=True)

    def day_nominate(self, ev: Nominate) -> None:
        if self.state != "accusations":
            # while a trial runs it waits; at night (or in last words) there is no day to accuse in
            trial = self.state in ("support_vote", "debate", "accused_last_word", "execution_vote")
            raise Refused("reject_accuse_now" if trial else "reject_accuse_by_day")
        if ev.by is not None:
            self._living_seat(ev.by)
        seat = self._living_seat(ev.seat)
        if seat == ev.by:
            # seed 001 «Vádat emelek XY ellen»: an accusation names another player
            raise Refused("reject_accuse_self")
        if seat in self.tried_today and not self.endgame():
            # seed 001: «Ha nincs meg a többség, a vádlott tovább él, és más vádlottat keresnek» —
            # once tried and alive, the day looks for another accused; the endgame of three has
            # no limit on accusations and goes on until two vote one's death, so there he may be
            raise Refused("reject_tried_today", {"seat": seat})
        self.accused = seat
        self.answers = {}
        self._record("accusation", by=ev.by, seat=seat)
        self.to_support_vote()
        self._say(self._vote_line("accusation"), seat=seat)
        self._timer("support_vote")

    def day_tap(self, ev: Tap) -> None:
        if self.state not in ("support_vote", "execution_vote"):
            self._valid_seat(ev.seat)
            raise Refused("reject_no_accusation")
        voter = self._living_seat(ev.seat)
        if voter in self.answers:
            raise Refused("reject_already_voted", {"seat": voter})
        if ev.answer is None:
            raise Refused("reject_need_yes_no")
        self.answers[voter] = ev.answer
        self._record("vote", voter=voter, answer="yes" if ev.answer else "no", round=self.state)
        if len(self.answers) == len(self.alive):
            self._close()

    def _close(self) -> None:
        yes = sum(1 for a in self.answers.values() if a)
        passed = majority(yes, len(self.alive))
        self._record("vote_result", round=self.state, seat=self.accused, yes=yes, electorate=len(self.alive), passed=passed)
        if self.state == "support_vote":
            self._say(self._vote_line("accusation_count"), n=yes)
            if not passed:
                self._say("accusation_falls")
                return self._after_accusation(tried=False)
            self.to_debate()
            self._say("accusation_stands", seat=self.accused)
            return self._timer("debate")
        self._say(self._vote_line("execution_count"), n=yes)
        seat = self.accused
        if not passed:
            self._say("spared", seat=seat)
            self.tried_today.add(seat)
            return self._after_accusation()
        st = self.seats[seat]
        if st.role == "protected_citizen" and (self.rules["pardon_every_sentence"] or not st.pardoned):
            # seed 001: the protected citizen is pardoned by the game master
            st.pardoned = True
            self._record("pardon", seat=seat)
            self._say("pardoned", seat=seat)
            return self._after_accusation()
        self.accused = None
        self._day_death("executed", seat)  # the day ends with a death (seed 001)

    def _after_accusation(self, tried: bool = True) -> None:
        self.accused = None
        if tried or self.rules["failed_accusations_count"]:
            self.accusations_today += 1
        if not self.endgame() and self.accusations_today >= self.rules["accusations_per_day"]:
            self._say("day_over")
            return self._go_night()
        self.to_accusations()
        if self.endgame():
            return self._timer(None)
        # the day goes on with what was left of it when the accusation was made, not from full
        self._timer("day", hold=True, resume=True)

    def day_end_speech(self, ev: EndSpeech) -> None:
        if self.state == "debate":
            return self._to_last_word()
        if self.state == "accused_last_word":
            self._check_speaker(ev.by)
            return self._to_execution()
        raise Refused("reject_no_speech")

    def _to_last_word(self) -> None:
        self.to_accused_last_word()
        self.speaker = self.accused
        # a speech like any other, so the game's story has it (seed 001: the accused's last word)
        self._record("speech", seat=self.accused, kind="accused_last_word")
        self._say("accused_last_word", seat=self.accused)
        self._timer("last_word")

    def _to_execution(self) -> None:
        self.speaker = None
        self.to_execution_vote()
        self.answers = {}
        self._say(self._vote_line("execution_vote"), seat=self.accused)
        self._timer("execution_vote")

    def day_timeout(self) -> None:
        st = self.state
        if st == "accusations":
            if self.endgame():
                # seed 001: the endgame's day has no time limit, so no time can run out; a night
                # could not follow either («ekkor már nem lehet éjszakát elrendelni»)
                raise Refused("reject_no_timer")
            self._say("day_over")
            return self._go_night()
        if st in ("support_vote", "execution_vote"):
            return self._close()
        if st == "debate":
            return self._to_last_word()
        if st == "accused_last_word":
            self._say("time_up", seat=self.speaker)
            return self._to_execution()
        raise Refused("reject_no_timer")

    def winner_line(self, winner: str) -> str:
        if winner == "town":
            # "every mafioso is executed" only when each of them was; a kamikaze, a lover or the
            # mafia's own night vote may have taken the last one
            mafiosi = [s for s, st in self.seats.items() if team_of(st.role) == MAFIA]
            return "citizens_win" if all(self.causes.get(s) == "vote" for s in mafiosi) else "citizens_win_dead"
        return "mafia_wins_more_citizens" if self._mafia_outnumber() else "mafia_wins_equal"


DAY = HungariqGame
