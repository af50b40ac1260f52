"""The classic day (seeds 002, 004): speeches in seat order, nominations by the speaker, the vote
in nomination order, split votes, "all of them leave?", last words, and the referee's penalties:
fouls, disqualification and the team defeat (seed 004 §5-7)."""

from __future__ import annotations

from ..rules.roles import MAFIA, MANIAC, TOWN, team_of
from ..rules.voting import leaders, majority, tally
from .events import Defeat, Disqualify, EndSpeech, Foul, Leave, Nominate, Revoke, Tap
from .game import BaseGame, Refused


# the votes answered yes or no: whether all the tied leave (seed 004 §4.4), whether a lone
# nominee leaves where the club votes on him (seed 002)
YES_NO_STATES = ("all_leave_vote", "single_vote")


class ClassicGame(BaseGame):
    DAY_STATES = ("speeches", "voting", "tie_speeches", "revote", "all_leave_vote", "single_vote")
    DAY_TRANSITIONS = (
        ("to_speeches", "*", "speeches"),
        ("to_voting", ["speeches"], "voting"),
        ("to_single_vote", ["speeches"], "single_vote"),
        ("to_tie_speeches", ["voting", "revote"], "tie_speeches"),
        ("to_revote", ["voting", "tie_speeches", "revote"], "revote"),
        ("to_all_leave", ["revote"], "all_leave_vote"),
    )
    FLOOR_STATES = ("speeches", "tie_speeches", "last_words")
    HOST_NOMINATE_STATES = ("speeches",)
    END_SPEECH_STATES = ("speeches", "tie_speeches")
    # each candidate's call ends with "Stop." (seed 004 §4.4), where `vote_call = "each"`
    WINDOW_ENDS_HEARD = True
    # its yes-or-no votes are recorded without a round: "should they all leave?" (seed 004 §4.4),
    # or the vote on a lone nominee (voted_words)
    VOTED_YES_NO = {None: "voted_all_leave_"}

    def init_day(self) -> None:
        self.opener: int | None = None
        self.cancel_vote_day: int | None = None
        self.cancel_reason = "fouls"  # why that vote is cancelled: fouls, disqualified, left
        self.cancel_seat: int | None = None  # who was removed, named again when the vote would open
        self.defeated_by: int | None = None  # the seat whose team the referee gave the defeat
        self.nominations: list[tuple[int, int]] = []  # (by, seat) in order
        self.speech_queue: list[int] = []
        self.speech_kind = "speech"
        self.nominated_this_speech: int | None = None
        self.candidates: list[int] = []
        self.calling = 0  # rules.vote_call = "each": the index of the candidate being called
        # his call's time is over and "Stop." said; its count waits for the scorer's typed fists
        self.counting = False
        self.votes: dict[int, int] = {}
        self.answers: dict[int, bool] = {}
        self.tied: list[int] = []
        # the referee's fouls and dismissals given tonight, in order: (kind, seat, foul count). The
        # sleeping table must not hear them — "Player 3, foul" in the mafia's step tells everybody
        # seat 3 moved while the mafia were awake — so they are said in the morning, after the
        # night's news; whether a removal cancels today's vote is known only then, too (seed 004
        # §7 «unless this player has been "killed" at night»)
        self.night_penalties: list[tuple[str, int, int]] = []
        self.shot_out: list[int] = []

    def public_nominations(self) -> list[int]:
        return [s for _, s in self.nominations]

    def public_view(self) -> dict:
        view = super().public_view()
        # said aloud at the removal (seed 004 §7): the nominees stand, but there is no vote today
        view["vote_cancelled"] = self.cancel_vote_day == self.day and self.state != "night"
        return view

    def voted_words(self, round_: str | None, seat_vote: bool) -> str:
        # the vote on a lone nominee (seed 002) is his own yes or no, not "should they all leave?"
        if not seat_vote and round_ is None and self.state == "single_vote":
            return "voted_single_"
        return super().voted_words(round_, seat_vote)

    def day_voted(self, seat: int) -> bool:
        # in a vote called in turn, a vote for any name called so far (seed 004 §4.4)
        return seat in self.votes

    def each_called(self) -> bool:
        """Whether this vote calls its candidates one at a time (seed 004 §4.4), not together."""
        return self.state in ("voting", "revote") and self.rules["vote_call"] == "each"

    def vote_choices(self):
        if self.each_called():
            # the one being called: a phone shows his button alone, a scorer's line is his fists
            return "seat", [self.candidates[self.calling]]
        if self.state in ("voting", "revote"):
            return "seat", list(self.candidates)
        if self.state in YES_NO_STATES:
            return "yes_no", []
        return None

    def ballot_cast(self):
        if self.each_called():
            # who is in for the one being called: an earlier candidate's fists are his count's
            current = self.candidates[self.calling]
            return {v: (t, None) for v, t in self.votes.items() if t == current}
        if self.state in ("voting", "revote"):
            return {v: (t, None) for v, t in self.votes.items()}
        if self.state in YES_NO_STATES:
            return {v: (None, a) for v, a in self.answers.items()}
        return {}

    def day_awaiting(self):
        if self.state in ("voting", "revote"):
            return "awaiting_votes", {"seats": [s for s in self.alive if s not in self.votes]}
        if self.state in YES_NO_STATES:
            return "awaiting_votes", {"seats": [s for s in self.alive if s not in self.answers]}
        return "awaiting_timeout", {}

    # ------------------------------------------------------------------ dawn
    def announce_morning(self, deaths, attempt, notes) -> None:
        left = notes.get("left", [])
        self.shot_out = list(notes.get("shot_out", []))
        # one the referee removed in the night whom the mafia shot was shot all the same
        shot = [s for s in deaths if s not in left and s not in notes.get("removed", ())]
        if self.night_no > 0:
            if shot:
                # "the morning is not good" once, however many are killed (a maniac's or a second
                # shot above ten seats): said twice it sounds like a second morning
                self._say("morning_bad", seat=shot[0])
                for s in shot[1:]:
                    self._say("morning_bad_also", seat=s)
            else:
                self._say("morning_good")
        # one shot in the night whose leaving cancels no vote hears so — unless another one who
        # left, or whom the referee removed, and was not shot cancels today's vote all the same:
        # "today's vote is held" and then "today's vote is cancelled" would contradict each other
        held = not left and not notes.get("removed")
        # seed 004 §5: «Leave of the gaming table» is a dismissal, so whoever left in the night
        # is not among the killed, and nobody who has left the table speaks last words
        for s in deaths:
            if s in self.left_tonight:
                self._say("left_table_at_night", seat=s)
                if s not in left and held:
                    self._say("vote_held_shot", seat=s)
        self._announce_night_penalties(deaths, held)

    def _announce_night_penalties(self, deaths: list[int], held: bool) -> None:
        """The referee's night, said after the night's news: each player's once, in the order the
        referee first gave him one, with what it does as seed 004 §6 says — the third foul skips
        the next speech, the fourth, or a dismissal (§5), puts him out without last words."""
        for seat in dict.fromkeys(s for _, s, _ in self.night_penalties):
            mine = [(kind, n) for kind, s, n in self.night_penalties if s == seat]
            fouls = [n for kind, n in mine if kind == "foul"]
            st = self.seats[seat]
            if fouls:
                st.fouls = fouls[-1]
                self._say("night_foul", seat=seat, n=len(fouls), total=st.fouls)
                if st.fouls == 3 and seat not in deaths and seat not in self.removed_tonight:
                    # killed tonight, he speaks his last words, not a next speech
                    st.skip_next_speech = True
                    self._say("third_foul", seat=seat)
                elif st.fouls >= 4:
                    self._say("fouled_out", seat=seat)
            if any(kind == "disqualified" for kind, _ in mine):
                self._say("night_disqualified", seat=seat)
            if seat in self.shot_out and held:
                self._say("vote_held_shot", seat=seat)
        self.night_penalties = []

    def after_dawn(self, deaths) -> None:
        # seed 004 §7: a dismissal cancels the next vote — today's, as the night is over — unless
        # the mafia shot him; the table hears it with the news, not only when the speeches are over
        out = set(self.removed_tonight)
        removed = [(s, c) for s, c in self.removed_tonight.items() if s not in self.shot_out]
        removed += [(s, "left") for s in deaths if self.causes.get(s) == "left"]
        self.removed_tonight, self.shot_out = {}, []
        if removed:
            self._cancel_vote(self.day, removed[0][1], removed[0][0])
            self._say("vote_cancelled_today")
        # nobody the referee removed speaks last words, shot or not (seed 004 §6)
        speakers = [s for s in deaths if s not in self.left_tonight and s not in out]
        if speakers and self.rules["last_words_after_shot"]:
            self._give_last_words(speakers, then=self._begin_day)
        else:
            self._begin_day()

    def announce_winner(self, winner: str) -> None:
        if self.defeated_by is not None:
            # not "all the mafia are gone": the referee ended the game (seed 004 §5)
            self._say("defeat_town_wins" if winner == TOWN else "defeat_mafia_wins", seat=self.defeated_by)
            return self.reveal_roles()
        super().announce_winner(winner)

    def reveal_roles(self) -> None:
        mafia = [s for s, st in self.seats.items() if team_of(st.role) == MAFIA]
        don = [s for s, st in self.seats.items() if st.role == "don"]
        sheriff = [s for s, st in self.seats.items() if st.role == "sheriff"]
        if don and sheriff:
            return self._say("reveal_roles", seats=mafia, n=len(mafia), don=don[0], sheriff=sheriff[0])
        # a table dealt without a Don or a Sheriff (seed 004 §1 allows neither to be left out, the
        # config may): "The Don was -" is no sentence; the roles it had are named
        self._say("reveal_mafia", seats=mafia, n=len(mafia))
        if don:
            self._say("reveal_don", don=don[0])
        if sheriff:
            self._say("reveal_sheriff", sheriff=sheriff[0])

    # ------------------------------------------------------------------ speeches
    def start_day(self) -> None:
        self.to_speeches()
        if self.rules["day_opener"] == "after_previous":
            # seed 002 «со следующего, после говорившего первым в предыдущем круге игрока»
            self.opener = self._next_living(0 if self.opener is None else self.opener)
        else:
            # seed 004 §4.3: day N opens with player N, whoever opened the day before; a dead
            # player's turn passes to the next living seat. The two readings part once a dead seat
            # is skipped: with 2 dead, day 2 opens with 3, and day 3 with 3 again (not 4)
            seat = (self.day - 1) % self.n + 1
            self.opener = seat if self.seats[seat].alive else self._next_living(seat)
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
                self._say_timed("speech_turn", "speech", seat=seat)
            return
        self.speaker = None
        self._end_speeches()

    def day_nominate(self, ev: Nominate) -> None:
        if self.state != "speeches":
            raise Refused("reject_nominate_now")
        by = self._check_speaker(ev.by)
        seat = self._valid_seat(ev.seat)
        if not self.seats[seat].alive:
            raise Refused("reject_seat_out", {"seat": seat})
        if seat == by and not self.rules["self_nomination"]:
            raise Refused("reject_self_nomination")
        for _, nominee in self.nominations:
            if nominee == seat:
                raise Refused("reject_already_nominated", {"seat": seat})
        for nominator, nominee in self.nominations:
            if nominator == by:
                raise Refused("reject_one_nomination", {"seat": nominee})
        self.nominations.append((by, seat))
        self.nominated_this_speech = seat
        self._record("nomination", by=by, seat=seat)
        self._say("nomination_accepted", seat=seat)

    def day_revoke(self, ev: Revoke) -> None:
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

    def host_may_revoke(self) -> bool:
        # seed 004 §4.4: the speaker's own nomination, during the same speech
        return self.state == "speeches" and self.nominated_this_speech is not None

    def day_end_speech(self, ev: EndSpeech) -> None:
        if self.state not in ("speeches", "tie_speeches"):
            raise Refused("reject_no_speech")
        self._check_speaker(ev.by)
        self._finish_speech()

    def _finish_speech(self) -> None:
        if self.state == "speeches":
            self._next_speech()
        else:
            self._next_tie_speech()

    def day_timeout(self) -> None:
        st = self.state
        if st in ("speeches", "tie_speeches"):
            self._say("time_up", seat=self.speaker)
            self._finish_speech()
        elif st in ("voting", "revote"):
            self._close_call() if self.each_called() else self._close_vote()
        elif st in YES_NO_STATES:
            self._close_all_leave()
        else:
            raise Refused("reject_no_timer")

    def _end_speeches(self) -> None:
        nominees = [s for _, s in self.nominations]
        self._timer(None)
        if self.cancel_vote_day == self.day:
            # seed 004 §7: a player removed by fouls or dismissed cancels the current (or next) vote;
            # said at the removal, and said again here, where the table would expect the vote
            self._record("vote_cancelled", day=self.day, reason=self.cancel_reason)
            self._say("vote_cancelled_" + self.cancel_reason, seat=self.cancel_seat)
            self.cancel_vote_day = None
            return self._go_night()
        if not nominees:
            self._record("vote_cancelled", day=self.day, reason="no_nominations")
            self._say("no_nominations")
            return self._go_night()
        if len(nominees) == 1:
            # a lone nominee's own line names him («Игрок 5 — единственная кандидатура…»): the list
            # of one before it would be the same news twice
            if self.day == 1 and not self.rules["first_day_single_nominee_vote"]:
                self._record("vote_cancelled", day=self.day, reason="single_nominee_first_day")
                self._say("single_nominee_first_day", seat=nominees[0])
                return self._go_night()
            if self.day > 1 and self.rules["single_nominee_eliminated"]:
                self._say("single_nominee_leaves", seat=nominees[0])
                return self._vote_eliminates(nominees, announced=True)
            # A vote on one nominee as on several would count every silent vote for him, the last
            # candidate (seed 004 §4.4): he would leave whatever the table did. Where a club votes
            # on him, it is seed 002's «Та кандидатура, которая набрала большинство голосов,
            # выбывает»: yes or no, and he leaves with more than half of the living for it
            self.to_single_vote()
            self.answers = {}
            self.tied = list(nominees)
            self._record("vote_open", round="single", candidates=list(nominees))
            self._say("single_nominee_question", seat=nominees[0])
            return self._timer("vote")
        self._say("nominees", seats=nominees, n=len(nominees))
        self.to_voting()
        self._open_vote(nominees, "main")

    # ------------------------------------------------------------------ votes
    def _open_vote(self, candidates: list[int], round_: str) -> None:
        self.candidates = candidates
        self.votes = {}
        self.calling = 0
        self.counting = False
        self._record("vote_open", round=round_, candidates=list(candidates))
        if self.rules["vote_call"] == "each":
            if round_ == "revote":
                self._say("revote_open", seats=candidates)
            return self._call_candidate()
        # seed 004 §4.4 «If player hasn't voted his vote goes to last player»: said as the vote
        # opens, so a table whose fists are all in knows why the window still runs, and nobody is
        # surprised to find his silence counted
        self._say("vote_open", seats=candidates, seat=candidates[-1])
        self._timer("vote")

    def day_tap(self, ev: Tap) -> None:
        if self.state in ("voting", "revote"):
            return self._vote_tap(ev)
        if self.state in YES_NO_STATES:
            return self._answer_tap(ev)
        self._valid_seat(ev.seat)
        raise Refused("reject_tap_now")

    def _call_candidate(self) -> None:
        """seed 004 §4.4: «Vote casting is performed in sequence the submissions were made»: the
        host names one candidate, the fists go down for him until "Stop", then the next. The last
        one's call says where the silent votes go («If player hasn't voted his vote goes to last
        player»): nobody is surprised to find his silence counted."""
        seat = self.candidates[self.calling]
        last = self.calling == len(self.candidates) - 1
        self.counting = False
        self._say("vote_call_last" if last else "vote_call", seat=seat)
        self._timer("vote_each")

    def day_silent_to(self) -> int | None:
        # seed 004 §4.4 «If player hasn't voted his vote goes to last player» (rules/voting.tally)
        return self.candidates[-1] if self.state in ("voting", "revote") and self.candidates else None

    def hears_window_end(self) -> bool:
        return self.each_called() and not self.counting

    def window_over(self) -> bool:
        return self.each_called() and self.counting

    def window_ends(self) -> None:
        """seed 004 §4.4: the fists go down «before host says "Stop"»: at a table whose scorer
        types them, "Stop" is said as the two seconds end, and the count of this call waits for
        his line — the fists he types now were down in time, and count."""
        if not self.hears_window_end():
            raise Refused("reject_no_timer")
        self.counting = True
        self._say("vote_stop")

    def _close_call(self) -> None:
        """The called candidate's window is over: "Stop" (unless said as his time ended, while the
        count waited for the scorer), and the next one is called — or, after the last one, or once
        every living player has voted, the counts."""
        if not self.counting:
            self._say("vote_stop")
        self.counting = False
        self.calling += 1
        if self.calling < len(self.candidates) and len(self.votes) < len(self.alive):
            return self._call_candidate()
        self._close_vote()

    def _vote_tap(self, ev: Tap) -> None:
        voter = self._living_seat(ev.seat)
        if voter in self.votes:
            raise Refused("reject_already_voted", {"seat": voter})
        each = self.rules["vote_call"] == "each"
        current = self.candidates[self.calling] if each else None
        if each and ev.target is None and ev.answer:
            # a fist put down now is for the one being called (`tap 5 yes` at the console)
            ev = Tap(ev.seat, current)
        if ev.target is None:
            raise Refused("reject_need_candidate", {"seats": self.candidates})
        if ev.target not in self.candidates:
            raise Refused("reject_not_candidate", {"seat": ev.target, "seats": self.candidates})
        if each and ev.target in self.candidates[self.calling + 1:]:
            # not called yet: a fist for him now would be cast before his name — the table saw no
            # such vote. One for a candidate called already is the scorer catching up, and counts
            raise Refused("reject_not_called_yet", {"seat": current, "later": ev.target})
        self.votes[voter] = ev.target
        self._record("vote", voter=voter, seat=ev.target)
        if len(self.votes) == len(self.alive):
            # every fist is down: the calls still to come would have nobody to count
            if each:
                return self._close_call()
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
            return self._split(top, "split_vote")
        if len(top) < len(self.tied):
            # seed 004 §4.4 goes to the lift vote when «those players» tie again, and §7 ends the
            # vote when «3 players» tie «two times»: a re-vote whose tie is among fewer of them
            # (three tied, then two) is neither. As FIIM referees rule it, the split starts again
            # among the players still tied — their 30 s each, then a re-vote — and only the same
            # players tied twice go to the lift vote (or, three or more, end it)
            return self._split(top, "split_vote_again")
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

    def _split(self, top: list[int], line: str) -> None:
        self.tied = top
        self._record("split", seats=list(top))
        self._say(line, seats=top)
        if self.rules["tie_speeches"]:
            self.to_tie_speeches()
            self.speech_queue = list(top)
            self._next_tie_speech()
        else:
            self.to_revote()
            self._open_vote(top, "revote")

    def _next_tie_speech(self) -> None:
        while self.speech_queue:
            seat = self.speech_queue.pop(0)
            if self.seats[seat].alive:
                self.speaker = seat
                self._record("speech", seat=seat, kind="tie_speech")
                self._say_timed("tie_speech_turn", "tie_speech", seat=seat)
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
        """The yes-or-no votes: whether all the tied leave, or whether the lone nominee does."""
        yes = sum(1 for a in self.answers.values() if a)
        passed = majority(yes, len(self.alive))
        single = self.state == "single_vote"
        about = {"seat": self.tied[0]} if single else {}
        self._record("vote_result", round="single" if single else "all_leave", **about, yes=yes,
                     electorate=len(self.alive), passed=passed)
        self._say("all_leave_count", n=yes)
        if passed:
            return self._vote_eliminates(self.tied)
        self._say("single_nominee_stays" if single else "all_stay", **about)
        self._go_night()

    def _vote_eliminates(self, seats: list[int], announced: bool = False) -> None:
        self._timer(None)
        # the only nominee's line already says he leaves: said twice, it sounds like a second one
        for s in seats if not announced else ():
            self._say("eliminated_by_vote", seat=s)

        def then() -> None:
            if self.rules["last_words"]:
                self._give_last_words(seats, then=self._go_night)
            else:
                self._go_night()

        self._eliminate(seats, "vote", then=then, moment="day")

    # ------------------------------------------------------------------ fouls and the referee's penalties
    def _has_last_words(self, seat: int) -> bool:
        """Out already (shot or voted out), and speaking his last words or still to speak them: the
        referee's fouls and dismissal still reach him (the second of two who leave together may
        shout during the first one's last words)."""
        return self.state == "last_words" and (seat == self.speaker or seat in self.last_words_queue)

    def _lose_last_words(self, seat: int, line: str) -> None:
        if seat == self.speaker:
            self._say(line + "_silenced", seat=seat)
            return self._next_last_words()
        self.last_words_queue.remove(seat)
        self._say(line + "_no_last_words", seat=seat)

    def day_foul(self, ev: Foul) -> None:
        seat = self._valid_seat(ev.seat)
        leaving = self._has_last_words(seat)
        if not self.seats[seat].alive and not leaving:
            raise Refused("reject_seat_out", {"seat": seat})
        if self.state == "setup":
            raise Refused("reject_not_started")
        if self.state == "night":
            return self._night_penalty(seat, "fouls")
        st = self.seats[seat]
        st.fouls += 1
        self._record("foul", seat=seat, count=st.fouls)
        self._say("foul", seat=seat, n=st.fouls)
        if st.fouls == 3 and not leaving:
            # out already (his last words): he has no next speech to skip
            st.skip_next_speech = True
            self._say("third_foul", seat=seat)
        if st.fouls < 4:
            return
        if leaving:
            # already killed or voted out: the fourth foul ends his last words, nothing is cancelled
            return self._lose_last_words(seat, "fouled_out")
        self._say("fouled_out", seat=seat)
        self._remove(seat, "fouls")

    def day_penalty(self, ev: Disqualify | Defeat) -> None:
        seat = self._valid_seat(ev.seat)
        if type(ev) is Defeat:
            return self._defeat(seat)
        # seed 004 §5: peeking at night, insults, hints at night, touching or speaking at night,
        # leaving the table, religious appeals, touching or too many gestures by day
        if self._has_last_words(seat):
            # killed or voted out already: like a fourth foul, it ends his last words and cancels
            # nothing (seed 004 §7: «unless this player has been "killed" at night or exiled by vote»)
            self._record("disqualification", seat=seat)
            return self._lose_last_words(seat, "disqualified")
        self._living_seat(seat)
        if self.state == "night":
            return self._night_penalty(seat, "disqualified")
        self._record("disqualification", seat=seat)
        self._say("disqualified", seat=seat)
        self._remove(seat, "disqualified")

    def held_for_host(self) -> list[tuple[str, dict]]:
        held = []
        for kind, seat, n in self.night_penalties:
            if kind == "disqualified":
                held.append(("night_disqualified_held", {"seat": seat}))
            else:
                held.append(("night_foul_held", {"seat": seat, "n": n}) if n < 4 else ("night_fouled_out_held", {"seat": seat}))
        return held

    def _fouls_given(self, seat: int) -> int:
        """His fouls with tonight's, which the table hears only in the morning."""
        tonight = [n for kind, s, n in self.night_penalties if kind == "foul" and s == seat]
        return tonight[-1] if tonight else self.seats[seat].fouls

    def _night_penalty(self, seat: int, cause: str, defeat: str | None = None) -> None:
        """A foul ("fouls") or a dismissal given at night: recorded at once (the protocol tells the
        night it was given in), confirmed to the host alone, and said to the table in the morning.
        Nothing of it reaches a line, a phone or the step's time: "Player 3, foul" said in the
        mafia's step would tell the sleeping table that seat 3 moved while the mafia were awake.
        A removal is immediate (seed 004 §5: «immediately result in player's dismissal»): he acts
        no more tonight — a dismissed mafioso's shot is no more the mafia's — but for the others he
        is at the table until the morning says otherwise, a seat they may still choose, as one who
        left the table unwell is; who may not know he is gone must not be told by a refused tap."""
        if self.gone_tonight(seat):
            raise Refused("reject_seat_out", {"seat": seat})
        if defeat is not None:
            # the Maniac's defeat, his dismissal (a team of one, seed 002): recorded as given
            self._record("defeat", seat=seat, team=defeat)
        if cause == "fouls":
            n = self._fouls_given(seat) + 1
            self._record("foul", seat=seat, count=n)
            self.night_penalties.append(("foul", seat, n))
        else:
            if defeat is None:
                self._record("disqualification", seat=seat)
            self.night_penalties.append(("disqualified", seat, 0))
        line, args = self.held_for_host()[-1]
        self._host(line, **args)
        if cause == "fouls" and n < 4:
            return
        self.removed_tonight[seat] = cause
        if not self.fixed_night_steps and self._step_complete():
            self._next_step()  # replay and simulation: nobody awake is left to act in this step

    def _defeat(self, seat: int) -> None:
        """seed 004 §5: a vow («I swear I'm a citizen»), extortion, threats or bribery, or hints from
        others in the room «immediately result in player's team defeat» — whoever broke the rule,
        alive or already out (an oath in one's last words is the classic case)."""
        if self.cards and not self.cards_recorded:
            raise Refused("reject_defeat_before_cards")
        team = team_of(self.seats[seat].role)
        if team == MANIAC:
            # a team of one (seed 002's Maniac above ten seats): his defeat is his dismissal, and
            # the town and the mafia play on; said as a disqualification, so his role stays secret
            self._living_seat(seat)
            if self.state == "night":
                return self._night_penalty(seat, "disqualified", defeat=team)
            self._record("defeat", seat=seat, team=team)
            self._say("disqualified", seat=seat)
            return self._remove(seat, "disqualified")
        self._record("defeat", seat=seat, team=team)
        self.defeated_by = seat
        self._game_over(TOWN if team == MAFIA else MAFIA)

    def _on_leave(self, ev: Leave) -> None:
        if self.state == "night":
            return super()._on_leave(ev)
        # seed 004 §3 «Player must remain at the table during all times while he is remaining in
        # the game», §5 «Leave of the gaming table» is a dismissal: by day he is out at once, in
        # front of the table, with no last words, and the vote is cancelled as for any dismissal
        seat = self._living_seat(ev.seat)
        if self.state == "setup":
            raise Refused("reject_not_started")
        self._record("leaving", seat=seat)
        self._say("left_table", seat=seat)
        self._remove(seat, "left")

    def _cancel_vote(self, day: int, reason: str, seat: int) -> bool:
        """Whether this removal cancelled the vote of `day` (False: it already was)."""
        if self.cancel_vote_day == day:
            # one vote a day to cancel: a second removal the same day cancels that same vote, and
            # the reminder keeps naming the first
            return False
        self.cancel_vote_day = day
        self.cancel_reason = reason
        self.cancel_seat = seat
        self._record("vote_cancel_pending", day=day, reason=reason, seat=seat)
        return True

    def _remove(self, seat: int, cause: str) -> None:
        """A player out by the referee (a fourth foul, a disqualification) or who left the table,
        by day: at night the removal waits for the morning (`_night_penalty`)."""
        state = self.state
        # seed 004 §7: «the current or next vote is cancelled … If the vote result has been decided
        # before dismissal and the dismissed player is not the one exiled, the next vote is
        # cancelled»: decided once the exiled speaks his last words
        decided = state == "last_words" and self.after_last_words == self._go_night
        cancelled = self._cancel_vote(self.day + 1 if decided else self.day, cause, seat)
        was_speaker = self.speaker == seat
        self.nominations = [(b, s) for b, s in self.nominations if s != seat]

        def then() -> None:
            # a referee's table hears at once which vote goes: today's, or the next one when
            # today's result is already decided (and again when that vote would have opened)
            # a second removal the same day cancels nothing more: the table hears that the vote
            # it already lost stays lost, not the same news as if another vote went
            line = "vote_cancelled_next" if decided else "vote_cancelled_today"
            self._say(line if cancelled else line.replace("cancelled", "already_cancelled"))
            if state in ("voting", "revote", "tie_speeches", *YES_NO_STATES):
                self._record("vote_cancelled", day=self.day, reason=cause)
                self.cancel_vote_day = None
                return self._go_night()
            if state == "speeches" and was_speaker:
                return self._next_speech()

        self._eliminate([seat], cause, then=then, moment="now")


DAY = ClassicGame
