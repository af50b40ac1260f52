"""The German basic day (seed 003): discussion; everyone points at a player; the two with most
votes are nominated (a run-off on ties); both defend; the final vote; a tie is decided by the
player who died last."""

from __future__ import annotations

from .events import EndSpeech, Tap
from .game import BaseGame, Refused


class GrundregelnGame(BaseGame):
    DAY_STATES = ("discussion", "pointing", "runoff", "defences", "final_vote", "tie_break")
    DAY_TRANSITIONS = (
        ("to_discussion", "*", "discussion"),
        ("to_pointing", ["discussion"], "pointing"),
        ("to_runoff", ["pointing"], "runoff"),
        ("to_defences", ["pointing", "runoff"], "defences"),
        ("to_final_vote", ["defences"], "final_vote"),
        ("to_tie_break", ["final_vote"], "tie_break"),
    )
    FLOOR_STATES = ("defences", "last_words")
    END_SPEECH_STATES = ("discussion", "defences")  # the discussion's end opens the pointing
    VOTED_SEAT = {"pointing": "voted_pointing"}  # seed 003: he pointed at a player, he did not vote

    def init_day(self) -> None:
        self.votes: dict[int, int] = {}
        self.candidates: list[int] = []
        self.nominees: list[int] = []
        self.places = 2
        self.sure: list[int] = []
        self.speech_queue: list[int] = []
        self.decider: int | None = None
        self.manner: int | None = None  # the mafia's choice tonight (seed 003)

    def public_nominations(self) -> list[int]:
        return list(self.nominees)

    def vote_choices(self):
        if self.state in ("pointing", "runoff", "final_vote", "tie_break"):
            return "seat", list(self.candidates)
        return None

    def day_answer(self) -> str:
        # seed 003: «zeigt jeder Spieler … auf einen Mitspieler»
        return "point" if self.state == "pointing" else "vote"

    def day_decider(self):
        # seed 003: "entscheidet bei einer Pattsituation der letzte Tote": he alone, dead as he is
        return self.decider if self.state == "tie_break" else None

    def day_voted(self, seat: int) -> bool:
        return seat in self.votes

    def day_barred(self, seat: int, candidates: list[int]) -> tuple[int, ...]:
        # seed 003: a player points at a fellow player, never at himself. His own button keeps its
        # place, so every phone's grid has one shape; a forged tap is refused (reject_self_nomination)
        return (seat,) if self.state == "pointing" and seat in candidates else ()

    def ballot_cast(self):
        if self.state in ("pointing", "runoff", "final_vote"):
            return {v: (t, None) for v, t in self.votes.items()}
        return {}

    def day_awaiting(self):
        if self.state in ("pointing", "runoff", "final_vote"):
            return "awaiting_votes", {"seats": [s for s in self.alive if s not in self.votes]}
        if self.state == "tie_break":
            return "awaiting_votes", {"seats": [self.decider]}
        return "awaiting_timeout", {}

    def announce_morning(self, deaths, attempt, notes) -> None:
        super().announce_morning(deaths, attempt, notes)
        manner, self.manner = self.manner, None
        if manner is not None and self.rules["manner_of_death"]:
            # seed 003: «Er verkündet ob, wer und ggf. wie ein Spieler gestorben ist» — the manner
            # the mafia chose, for their victim (one who left unwell and was not shot was not theirs)
            for s in deaths:
                if s not in notes.get("left", ()):
                    self._say("died_manner", seat=s, manner=f"@manner_{manner}")

    def start_day(self) -> None:
        self.to_discussion()
        self.nominees = []
        self._record("discussion", day=self.day)
        self._say("day_discuss")
        self._timer("discussion")

    def day_end_speech(self, ev: EndSpeech) -> None:
        if self.state == "discussion":
            return self._open_pointing()
        if self.state == "defences":
            self._check_speaker(ev.by)
            return self._next_defence()
        raise Refused("reject_no_speech")

    def day_timeout(self) -> None:
        st = self.state
        if st == "discussion":
            return self._open_pointing()
        if st in ("pointing", "runoff", "final_vote"):
            return self._close()
        if st == "defences":
            self._say("time_up", seat=self.speaker)
            return self._next_defence()
        if st == "tie_break":
            # seed 003 says nothing of a dead decider who does not decide: nobody is lynched (and
            # the report says so, or its day would end on a tie with no outcome)
            self._record("vote_ends", reason="tie_undecided", seats=list(self.candidates))
            self._say("tie_decider_silent", seat=self.decider)
            return self._go_night()
        raise Refused("reject_no_timer")

    def _open_pointing(self) -> None:
        self.to_pointing()
        self.votes = {}
        self.candidates = list(self.alive)
        self._record("vote_open", round="pointing", candidates=list(self.candidates))
        self._say(self._vote_line("pointing"))  # seed 003: everyone points; at a phone table, taps
        self._timer("vote")

    def day_tap(self, ev: Tap) -> None:
        if self.state == "tie_break":
            return self._tie_break_tap(ev)
        if self.state not in ("pointing", "runoff", "final_vote"):
            self._valid_seat(ev.seat)
            raise Refused("reject_tap_now")
        voter = self._living_seat(ev.seat)
        pointing = self.state == "pointing"
        if voter in self.votes:
            # the answer names what he did: in the pointing he pointed, he did not vote
            raise Refused("reject_already_pointed" if pointing else "reject_already_voted", {"seat": voter})
        if ev.target is None:  # "tap 3 yes": a yes is no seat
            raise Refused("reject_need_point" if pointing else "reject_need_candidate", {"seats": self.candidates})
        if pointing:
            # everybody living may be pointed at: a seat beyond the table or a dead player is
            # answered as such, not as "not on the ballot" of a ballot nobody has drawn up
            self._living_seat(ev.target)
            if ev.target == voter:
                # seed 003 «zeigt jeder Spieler … auf einen Mitspieler»: pointing, not nominating
                raise Refused("reject_point_self")
        if ev.target not in self.candidates:
            raise Refused("reject_not_candidate", {"seat": ev.target, "seats": self.candidates})
        self.votes[voter] = ev.target
        self._record("vote", voter=voter, seat=ev.target, round=self.state)
        if len(self.votes) == len(self.alive):
            self._close()

    def _counts(self) -> dict[int, int]:
        counts = {c: 0 for c in self.candidates}
        for t in self.votes.values():
            counts[t] += 1
        return counts

    def _close(self) -> None:
        counts = self._counts()
        self._record("vote_result", round=self.state, counts={str(c): n for c, n in counts.items() if n})
        if self.state == "final_vote":
            return self._close_final(counts)
        voted = sorted((c for c in counts if counts[c]), key=lambda c: (-counts[c], c))
        if self.state == "pointing":
            self.sure, self.places = [], 2
        if not voted:
            self._say("no_nominees_no_hanging")
            return self._go_night()
        if len(voted) <= self.places:
            return self._nominate(self.sure + voted)
        cut = counts[voted[self.places - 1]]
        above = [c for c in voted if counts[c] > cut]
        tied = [c for c in voted if counts[c] == cut]
        if len(above) + len(tied) == self.places or self.state == "runoff":
            # a run-off that ties again cannot separate them: they all defend and face the final vote
            return self._nominate(self.sure + above + tied)
        self.sure = self.sure + above
        self.places -= len(above)
        self.to_runoff()
        self.votes = {}
        self.candidates = tied
        self._record("vote_open", round="runoff", candidates=list(tied))
        self._say("nomination_runoff", seats=tied)
        self._timer("vote")

    def _nominate(self, nominees: list[int]) -> None:
        self.nominees = nominees
        self._record("nominees", seats=list(nominees))
        self._say("nominated_two", seats=nominees, n=len(nominees))
        self.to_defences()
        self.speech_queue = list(nominees)
        self._next_defence()

    def _next_defence(self) -> None:
        if self.speech_queue:
            self.speaker = self.speech_queue.pop(0)
            self._record("speech", seat=self.speaker, kind="defence")
            return self._say_timed("defence_turn", "defence", seat=self.speaker)
        self.speaker = None
        self.to_final_vote()
        self.votes = {}
        self.candidates = list(self.nominees)
        self._record("vote_open", round="final", candidates=list(self.candidates))
        self._say("final_vote", seats=self.candidates, n=len(self.candidates))
        self._timer("vote")

    def _close_final(self, counts: dict[int, int]) -> None:
        top = [c for c in counts if counts[c] == max(counts.values())]
        if len(top) == 1:
            return self._lynch(top[0])
        self.candidates = top
        if self.rules["tie_break"] == "nobody":
            # seed 003 «Ist keine andere Regel vereinbart»: this table agreed that a tie spares both
            self._record("vote_ends", reason="tie", seats=list(top))
            self._say("tie_nobody_lynched")
            return self._go_night()
        if not self.deaths:
            self._record("vote_ends", reason="tie_no_dead", seats=list(top))
            self._say("tie_nobody_decides")
            return self._go_night()
        # seed 003: "entscheidet bei einer Pattsituation der letzte Tote" — one the table can ask
        # («So kann er im Zweifelsfall noch als letzter Toter befragt werden»): a player who left
        # the table unwell (announced among the dead, seed 000's way) is not there to decide. Only
        # when nobody else has died is he named, and his time runs out as a silent decider's does
        asked = [s for s in self.deaths if self.causes.get(s) != "left"]
        self.decider = (asked or self.deaths)[-1]
        self.to_tie_break()
        self._say("tie_last_dead_decides", seat=self.decider)
        self._timer("vote")

    def _tie_break_tap(self, ev: Tap) -> None:
        seat = self._valid_seat(ev.seat)
        if seat != self.decider:
            raise Refused("reject_not_decider", {"speaker": self.decider})
        if ev.target is None:
            raise Refused("reject_need_candidate", {"seats": self.candidates})
        if ev.target not in self.candidates:
            raise Refused("reject_not_candidate", {"seat": ev.target, "seats": self.candidates})
        self._record("tie_break", by=seat, seat=ev.target)
        self._lynch(ev.target)

    def _lynch(self, seat: int) -> None:
        if not self.rules["last_words"]:
            # seed 003: the defence was his last chance to speak; the lynch ends the day
            return self._day_death("lynched", seat)
        self._timer(None)
        self._say("lynched", seat=seat)
        # a lynch that decides the game ends it before anybody speaks (the win is checked first)
        self._eliminate([seat], "vote", then=lambda: self._give_last_words([seat], then=self._go_night), moment="day")

    def winner_line(self, winner: str) -> str:
        return "good_wins" if winner == "town" else "evil_wins"


DAY = GrundregelnGame
