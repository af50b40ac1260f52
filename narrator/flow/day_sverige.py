"""The Swedish convention day (seed 000): free discussion on a timer with one extension, nominations
by anyone at any time (one active nominee each, withdrawn only by the nominator), the last call,
speeches in order of first nomination, and a hand vote per nominee on "NOW"."""

from __future__ import annotations

from ..rules.voting import leaders
from .events import EndSpeech, Extend, Nominate, Revoke, Tap
from .game import BaseGame, Refused
from .moment import EXTENSION, EXTENSION_OFFER


class SverigeGame(BaseGame):
    DAY_STATES = ("discussion", "last_call", "nominee_speeches", "hand_vote")
    DAY_TRANSITIONS = (
        ("to_discussion", "*", "discussion"),
        ("to_last_call", ["discussion"], "last_call"),
        ("to_nominee_speeches", ["last_call"], "nominee_speeches"),
        ("to_hand_vote", ["nominee_speeches"], "hand_vote"),
    )
    FLOOR_STATES = ("nominee_speeches", "last_words")
    END_SPEECH_STATES = ("nominee_speeches",)
    # seed 000 Nominering: anyone nominates at any time of the discussion, and in the last call
    HOST_NOMINATE_STATES = ("discussion", "last_call")
    NOMINATOR_NAMED = True  # one active nominee each, withdrawn only by the nominator

    def init_day(self) -> None:
        self.noms: dict[int, int] = {}  # nominator -> nominee (one active each)
        self.first_order: list[int] = []  # nominees in order of first nomination today
        self.extension_used = False
        self.offering = False
        self.speech_queue: list[int] = []
        self.ballot: list[int] = []
        self.ballot_index = 0
        self.vote_round = "main"
        self.hands: dict[int, list[int]] = {}
        self.voted: set[int] = set()

    def public_nominations(self) -> list[int]:
        active = set(self.noms.values())
        return [s for s in self.first_order if s in active]

    def vote_choices(self):
        if self.state == "hand_vote":
            return "seat", [self.ballot[self.ballot_index]]  # one name at a time, hands on NOW
        return None

    def screen_state(self) -> str:
        # seed 000: the vote between the tied is its «omröstning», a hand vote like the first; the
        # phones and the host screen read it by its name, not as a second «Röstning på spelare 8»
        if self.state == "hand_vote" and self.vote_round == "revote":
            return "revote_call"
        return self.state

    def extension_spent(self) -> bool:
        return self.extension_used

    def extension(self):
        # seed 000 Tid: the table is asked whether anyone wants the day's one extension, or is in it
        if self.state == "discussion" and self.timer in (EXTENSION_OFFER, EXTENSION):
            return self.timer
        return None

    def day_answer(self) -> str:
        # seed 000: a hand goes up for the name called, on "NOW"
        return "hand" if self.state == "hand_vote" else "vote"

    def ballot_cast(self):
        if self.state == "hand_vote":
            current = self.ballot[self.ballot_index]
            return {v: (current, None) for v in self.hands.get(current, [])}
        return {}

    def day_awaiting(self):
        if self.state == "hand_vote":
            return "awaiting_votes", {"seats": [s for s in self.alive if s not in self.voted]}
        return "awaiting_timeout", {}

    def start_day(self) -> None:
        self.to_discussion()
        self.noms, self.first_order = {}, []
        self.extension_used = self.offering = False
        name = "first_day" if self.day == 1 else "day"
        self._record("discussion", day=self.day)
        self._say_timed("free_day", name)

    # ------------------------------------------------------------------ nominations
    def day_nominate(self, ev: Nominate) -> None:
        if self.state not in ("discussion", "last_call"):
            raise Refused("reject_nominate_now")
        if ev.by is None:
            raise Refused("reject_need_nominator")
        by = self._living_seat(ev.by)
        seat = self._living_seat(ev.seat)
        if seat == by:
            raise Refused("reject_self_nomination")  # "nominera andra spelare"
        if by in self.noms:
            raise Refused("reject_active_nominee", {"by": by, "seat": self.noms[by]})
        self.noms[by] = seat
        if seat not in self.first_order:
            self.first_order.append(seat)
        self._record("nomination", by=by, seat=seat)
        self._say("nominated_by", seat=seat, by=by)
        if self.state == "last_call":
            self._timer("last_call")  # three seconds after the previous speaker

    def day_revoke(self, ev: Revoke) -> None:
        if self.state not in ("discussion", "last_call"):
            raise Refused("reject_revoke_now")
        if ev.by is None:
            raise Refused("reject_need_nominator")
        by = self._valid_seat(ev.by)
        if self.noms.get(by) is None:
            # he has no active nominee (never had one, or withdrew it): "only the one who nominated
            # 7 can withdraw" would send the table looking for another nominator
            raise Refused("reject_nothing_to_withdraw", {"by": by})
        if ev.seat is not None and self.noms[by] != ev.seat:
            raise Refused("reject_withdraw_not_yours", {"seat": ev.seat})
        seat = self.noms.pop(by)
        self._record("revocation", by=by, seat=seat)
        others = sorted(b for b, s in self.noms.items() if s == seat)
        if others:
            # seed 000: each nominator holds his own nomination, so the seat stays on the list; a
            # table that heard only the withdrawal would think player 5 is off it
            self._say("withdrawn_still_nominated", seat=seat, by=by, seats=others, n=len(others))
        else:
            self._say("withdrawn_by", seat=seat, by=by)
        if self.state == "last_call":
            self._timer("last_call")

    def host_may_revoke(self) -> bool:
        # seed 000: a nomination can be withdrawn while nominations are taken, by its nominator
        return self.state in self.HOST_NOMINATE_STATES and bool(self.noms)

    def day_extend(self, ev: Extend) -> None:
        if self.state != "discussion" or not self.offering:
            raise Refused("reject_extension_used" if self.extension_used else "reject_extension_not_yet")
        self.extension_used, self.offering = True, False
        self._record("extension", day=self.day)
        self._say_timed("extension_granted", "extension")

    def day_timeout(self) -> None:
        st = self.state
        if st == "discussion":
            if not self.offering and not self.extension_used:
                # seed 000 Tid: anyone may ask for the one extension of the day
                self.offering = True
                self._say("day_time_up")
                return self._timer("extension_offer")
            self.offering = False
            self.to_last_call()
            self._say("last_call")
            return self._timer("last_call")
        if st == "last_call":
            return self._read_back()
        if st == "nominee_speeches":
            self._say("time_up", seat=self.speaker)
            return self._next_nominee_speech()
        if st == "hand_vote":
            return self._close_hand()
        raise Refused("reject_no_timer")

    def _read_back(self) -> None:
        nominees = self.public_nominations()
        self._record("nominees", seats=list(nominees))
        if not nominees:
            self._say("no_nominees_no_hanging")
            return self._go_night()
        self._say("nominees", seats=nominees, n=len(nominees))
        self.to_nominee_speeches()
        self.speech_queue = list(nominees)
        self._next_nominee_speech()

    # ------------------------------------------------------------------ speeches, hand vote
    def _next_nominee_speech(self) -> None:
        if self.speech_queue:
            self.speaker = self.speech_queue.pop(0)
            self._record("speech", seat=self.speaker, kind="nominee_speech")
            return self._say_timed("nominee_speech", "nominee_speech", seat=self.speaker)
        self.speaker = None
        self.to_hand_vote()
        nominees = self.public_nominations()
        self._say("to_the_vote", seats=nominees, n=len(nominees))  # "on player 8", "on players 6, 7 and 8"
        self._open_ballot(self.public_nominations(), "main")

    def day_end_speech(self, ev: EndSpeech) -> None:
        if self.state != "nominee_speeches":
            raise Refused("reject_no_speech")
        self._check_speaker(ev.by)
        self._next_nominee_speech()

    def _open_ballot(self, ballot: list[int], round_: str) -> None:
        self.ballot, self.ballot_index, self.vote_round = list(ballot), 0, round_
        self.hands = {s: [] for s in ballot}
        self.voted = set()  # at most one vote per player per day, and again in the re-vote
        self._record("vote_open", round=round_, candidates=list(ballot))
        self._call_hands()

    def _call_hands(self) -> None:
        # seed 000: hands go up on NOW; at a phone table the same call, and the phones take the taps
        self._say(self._vote_line("hand_vote"), seat=self.ballot[self.ballot_index])
        self._timer("hand_vote")

    def day_tap(self, ev: Tap) -> None:
        if self.state != "hand_vote":
            self._valid_seat(ev.seat)
            raise Refused("reject_tap_now")
        voter = self._living_seat(ev.seat)
        current = self.ballot[self.ballot_index]
        if ev.target is None:
            # seed 000: one name is called at a time and the hands go up on NOW, so a "yes" is a
            # hand raised for the name being called; a "no" is a hand kept down, which counts nothing
            if not ev.answer:
                raise Refused(self._vote_line("reject_hand_down"), {"seat": current})
            ev = Tap(ev.seat, current)
        if ev.target in self.ballot[: self.ballot_index]:
            raise Refused(self._vote_line("reject_late_vote"), {"seat": ev.target})  # late hands do not count
        if ev.target in self.ballot[self.ballot_index + 1:]:
            # a nominee still to be called: the hand is early, not wrong
            raise Refused("reject_not_called_yet", {"seat": current, "later": ev.target})
        if ev.target != current:
            # one name is called at a time: "vote for one of 7" would read as a list of one
            raise Refused("reject_not_nominated_now", {"seat": ev.target, "current": current})
        if voter in self.voted:
            # seed 000: the hands go up in front of everybody on NOW, so the vote he already gave is
            # no secret: naming it tells him (and the table) why this one is not counted
            given = next((s for s, hands in self.hands.items() if voter in hands), None)
            if given is not None:
                raise Refused("reject_voted_today_for", {"by": voter, "seat": given})
            raise Refused("reject_voted_today", {"seat": voter})
        self.voted.add(voter)
        self.hands[current].append(voter)
        self._record("vote", voter=voter, seat=current)
        if len(self.voted) == len(self.alive):
            self._close_hand()  # every vote is spent: the remaining names get no hands

    def _close_hand(self) -> None:
        current = self.ballot[self.ballot_index]
        n = len(self.hands[current])
        self._say("hand_vote_count", seat=current, n=n)
        self.ballot_index += 1
        if self.ballot_index < len(self.ballot):
            if len(self.voted) < len(self.alive):
                return self._call_hands()
            return self._close_hand()
        counts = {s: len(v) for s, v in self.hands.items()}
        self._record("vote_result", round=self.vote_round, counts={str(s): c for s, c in counts.items()})
        top = leaders(counts)
        if not any(counts.values()) and not self.rules["hang_without_votes"]:
            # seed 000: the one with the most votes hangs; with no hand raised nobody has the most
            self._record("vote_ends", reason="no_votes", seats=list(top))
            self._say(self._vote_line("no_votes_nobody_hanged"))
            return self._go_night()
        if len(top) == 1:
            return self._day_death("hanged", top[0])
        if self.vote_round == "main":
            # seed 000 Röstning: a tie is voted again among the tied only
            self._record("split", seats=list(top))
            self._say("tie_revote", seats=top)
            return self._open_ballot(top, "revote")
        self._record("vote_ends", reason="tie_twice", seats=list(top))
        self._say("tie_again_nobody")
        self._go_night()

    def winner_line(self, winner: str) -> str:
        if winner == "town":
            mafia_left = sum(1 for s in self.alive if self.seats[s].role == "mafia")
            return "village_wins_organisation" if mafia_left == 1 else "village_wins"
        return "mafia_wins_village_more" if self._mafia_outnumber() else "mafia_wins_village"


DAY = SverigeGame
