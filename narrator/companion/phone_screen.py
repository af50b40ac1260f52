"""The phones' screens: the moment the rules publish (game.moment(), game.seat_ask(seat),
narrator/flow/moment.py) drawn for one seat — its heading, its buttons and those barred, its own
vote, its role and night findings. Nothing here decides a rule: where a screen needs a fact of the
rules, the moment says it.
"""

from __future__ import annotations

from ..flow.moment import EXTENSION_OFFER, Moment, SeatKnows
from ..rules.roles import wins_with
from .transport import _is_int


REPORT_URL = "/report"  # the game report, served once the game is over


class PhoneScreens:
    """One seat's screen and role frames (`screen_frame`, `role_frame`), drawn from the moment. Mixed
    into `Hub` (hub.py), whose state it shares."""

    # ------------------------------------------------------------------ frames
    def ballot(self) -> tuple[str, list[int]] | None:
        """The open vote as ("seat", candidates) or ("yes_no", []); None when no vote is open."""
        return self.game.open_ballot()

    def _ask(self, m: Moment | None = None) -> tuple[str | None, list[int]]:
        """What every phone may tap now; the same for every seat, awake or asleep, alive or dead:
        the moment's question (the rules publish it, flow/moment.py), the day's vote only where
        the phones vote."""
        m = m or self.game.moment()
        if m.by_vote and not self.votes_on_phones:
            return None, []
        return m.ask, list(m.choices)

    def screen_frame(self, seat: int, remaining: float | None = None) -> dict:
        g = self.game
        m = g.moment()
        view = g.public_view()
        ask, choices = self._ask(m)
        if ask is not None and m.phase not in ("night", "setup") and not self._may_tap(seat, m):
            ask, choices = None, []  # by day a seat the vote does not call on gets no buttons
        calls = None
        if m.called:
            # classic's host calls each candidate in turn (seed 004 §4.4): the ballot is the one
            # being called, and beside it the order of the calls, each called already, now or
            # still to come — worded here, the same on every phone
            calls = " · ".join(
                self.word("vote_call_mark", seat=self.seat_label(c), mark=self.word(
                    "vote_call_over" if i < m.calling else "vote_call_now" if i == m.calling else "vote_call_later"))
                for i, c in enumerate(m.called))
        step = g.step
        if self.dealt is not None and m.phase == "setup":
            ask = "ready"  # the deal is out: each phone says when its player has seen the role
        return {
            "t": "screen",
            "epoch": self.epoch,
            "state": view["state"],
            "day": view["day"],
            "step": step.name if step is not None else None,
            "phase": self.seat_phase_text(seat, ask, m),
            "alive": view["alive"],
            "nominations": self._nominations(view, m),
            "nominees_text": self._nominees_text(view, m),
            "speaker": view["speaker"],
            "fouls": {str(s): n for s, n in view["fouls"].items()},
            "ask": ask,
            "choices": choices,
            # buttons on this phone's ballot that stay in their place but cannot be tapped
            "barred": self._barred(seat, ask, m),
            # a vote called one candidate at a time: "7: over · 8: now · 6: not yet"
            "calls": calls,
            # a numbered list's words (a manner of death), the same on every phone
            "choice_names": {str(c): self.live.voice.render(f"{ask}_{c}", {}) for c in choices}
            if ask not in (None, "seat", "yes_no", "ready", "extension") else None,
            "caption": self.caption,
            "timer": self._remaining() if remaining is None else remaining,
            "day_held": self.day_held(),
            "paused": bool(self.live.paused),
            "winner": view.get("winner"),
            "outcome": self._outcome(seat, view),
            "winner_text": self.phase_winner() if m.phase == "over" else None,
            "seats": self.config.seats,
            "ready": sorted(self.ready) if self.dealt is not None and m.phase == "setup" else None,
            "roles": {str(s): r for s, r in view["roles"].items()} if "roles" in view else None,
            "role_names": self._role_names(view),
            "you": seat,
            # this seat's vote in the vote that runs, as the game recorded it ("You voted for player
            # 7."): on its own phone alone, on the ballot it voted on and under the names called
            # after it (a Swedish day's one vote, seed 000), where it has no button any more
            "voted": self.vote_given(seat, m),
            # this seat's player is out, in his own words (disqualified, a fourth foul, left the
            # table, or out as the dead are): only once the table has been told, from the public view
            "out": self.out_line(seat, m),
            # the names the table gave its seats ([players]): public, like the name tags in front of
            # the players, so the same on every phone; shown as typed, never as markup
            "names": self.names(),
            # each seat as the page lists it ("7 (Ann)"), worded here for every page alike
            "labels": self.labels(),
            "report_url": REPORT_URL if m.phase == "over" else None,
            # at the end, the reader's own role said plainly: nobody needs it hidden from a
            # neighbour any more (every role is listed under it, as the narrator announced them)
            "own_role": self.word("over_your_role", role=self.listed_role(view["roles"][seat]))
            if m.phase == "over" and seat in view.get("roles", {}) else None,
            # the count waits for the scorer (hands by day, typed at the console or on the host
            # screen): public, the same on every phone, so nobody stares at a stopped table
            "entering": self.word("votes_being_entered") if self._votes_being_entered() else None,
        }

    def _votes_being_entered(self) -> bool:
        """The hand call's time is over and its count waits for the votes to be entered."""
        waiting = getattr(self.live, "hands_waiting", lambda: False)
        return not self.votes_on_phones and not self.live.paused and waiting()

    def _extension_offered(self) -> bool:
        """The narrator has asked whether anyone wants the day's time extension, and it runs."""
        return self.game.extension() == EXTENSION_OFFER

    def _nominations(self, view: dict, m: Moment | None = None) -> list[int]:
        """The day's nominees while they are in play (the moment's: not at night, not after the vote)."""
        return list((m or self.game.moment()).nominations)

    def _nominees_text(self, view: dict, m: Moment | None = None) -> str:
        """The day's nominees as the table's rules name them: where the rules accuse (hungariq,
        seed 001: «Vádat emelek XY ellen», «a vádlott»), the accused, never "nominated"."""
        m = m or self.game.moment()
        seats = self._nominations(view, m)
        if not seats:
            return ""
        key = "day_accused" if m.accusing else "day_nominees"
        return self.word(key, seats=", ".join(self.seat_label(s) for s in seats))

    def accusing(self) -> bool:
        """The rules accuse (the moment says so: hungariq, seed 001): the screens say accused where
        the other rules say nominated, the phones and the host's alike."""
        return self.game.moment().accusing

    def _remaining(self) -> float:
        """The server's time left on the running clock (frozen while paused): the phones show this."""
        if not self.timer_name:
            return 0
        left = self.live.timer_remaining()
        return round(left, 1) if left is not None else 0

    def day_held(self) -> str | None:
        """hungariq's day clock while an accusation is tried (seed 001): the countdown is the
        trial's, and what is left of the day stands beside it, stopped — the table sees that the
        trial eats none of it. Worded here, the same on every phone and the host screen."""
        held = self.live.held_remaining() if hasattr(self.live, "held_remaining") else None
        if held is None or self.game.phase() != "day":
            return None
        left = max(0, round(held))
        clock = f"{left // 60}:{left % 60:02d}" if left >= 60 else self.word("seconds", n=left)
        return self.word("day_held", time=clock)

    def _may_tap(self, seat: int, m: Moment | None = None) -> bool:
        """The moment's counted seats (a kamikaze, the voters still called, the dead decider of a
        tie alone, any living player for the time extension), and on a ballot also one whose vote
        on this very screen stands (his choice stays marked, a second tap is answered under it).
        A Swedish voter whose hand went up for an earlier name has used his one vote of the day
        (seed 000): no button for this one."""
        m = m or self.game.moment()
        if self.game.seat_ask(seat, m).counted:
            return True
        return m.vote is not None and m.decider is None and self._voted.get(seat) == self.epoch

    def _barred(self, seat: int, ask: str | None, m: Moment | None = None) -> list[int]:
        """The buttons of this seat's ballot its rules refuse (the seat's ask, flow/moment.py:
        grundregeln's pointing bars his own). They keep their place, so every phone's grid has one
        shape; a tap forged for one is still refused by the rules (reject_self_nomination)."""
        if ask != "seat":
            return []
        return list(self.game.seat_ask(seat, m).barred)

    def vote_given(self, seat: int, m: Moment | None = None) -> str | None:
        """The seat's own vote in the vote that runs, as the game recorded it — his tap, the host's
        press for him, a hand the console typed — worded as his phone says it: "You voted for
        player 7.", «Du röstade på spelare 7.» (a raised hand typed as "yes" is the name that was
        called), "You voted to execute player 4.". None while the vote still calls on him, or when
        he gave none in it: a player in a grundregeln tie-break who was silent in the final vote
        reads no vote of his (seed 003: the last dead decides, nobody votes again)."""
        g = self.game
        m = m or g.moment()
        if m.vote is None or seat not in g.alive:
            return None
        given = self._given.get(seat)
        if given is None or seat in m.voters:
            return None
        kind, target, answer, by = given
        by_host = " " + self.word("voted_by_host") if by == "host" else ""
        if target is not None:
            return self.word(g.voted_words(kind, True), seat=self.seat_label(target)) + by_host
        return self.word(g.voted_words(kind, False) + ("yes" if answer else "no"), seat=self.seat_label(self._subject())) + by_host

    # how a seat left the game, as its own phone words it: the referee's removals and a leave are
    # not a death, and a disqualified player does not read that he was killed (seed 004 §5-7)
    OUT_CAUSES = ("fouls", "disqualified", "left")

    def out_line(self, seat: int, m: Moment | None = None) -> str | None:
        """"You are out of the game" on this seat's own phone once the table knows it: from the
        public list of the living, so a removal given at night (`held_for_host`, said in the
        morning) changes nothing on his phone before the morning line is said."""
        g = self.game
        if (m.phase if m is not None else g.phase()) == "setup" or seat in g.alive or seat not in g.seats:
            return None
        cause = g.causes.get(seat)
        return self.word("you_out_" + cause) if cause in self.OUT_CAUSES else self.word("you_out")

    def _tap_out(self, seat: int) -> list[tuple[bool, str]]:
        """A tap from a seat the table knows is out: answered plainly, never "Your tap is in"."""
        return [(False, self.word("tap_out", out=self.out_line(seat) or self.word("you_out")))]

    def _outcome(self, seat: int, view: dict) -> str | None:
        """"won", "lost" or "draw" for this seat's player once the game is over."""
        winner = view.get("winner")
        roles = view.get("roles")
        if winner is None or not roles:
            return None
        if winner not in ("town", "mafia", "maniac"):
            return "draw"
        return "won" if wins_with(roles.get(seat, "citizen"), winner) else "lost"

    def phase_text(self, host: bool = False) -> str:
        """What the table is doing, as one line: identical for every seat (the frames must be too).
        `host`: the host screen's heading. The host runs the game and votes on nothing: where the
        phones' line speaks to the players («Támogatod a vádat?», "Everyone taps a seat") his
        screen describes the moment instead ([phone] host_<key>, e.g. host_state_support_vote)."""
        g = self.game
        m = g.moment()
        voice = self.live.voice
        word = self._host_word if host else self.word
        if m.phase == "over":
            return word("state_over", winner=self.phase_winner())
        if m.phase == "setup" and self.dealt is not None:
            return word("dealt_cards" if self.cards_deal else "dealt_roles")
        if m.phase == "night":
            # the moment's name: the night, a step that identifies a role, or one that chooses
            # (from seats, or a list: the manner of death); the same for every seat
            if m.step is None:
                return word(m.name)
            if m.role is not None:
                return word(m.name, role=self._role_name(m.role))
            key = "step_" + m.step
            return word(m.name, step=voice.render(key, {}) if key in voice.lines else m.step)
        key = m.name
        if m.extension is not None:
            # the table is asked for (or is in) the day's time extension, not in an ordinary discussion
            return word(key)
        subject = self._subject()
        if host and self._phone_template("host_" + key):
            key = "host_" + key
        # a seat in the heading is named as in a sentence, so a language can number its noun:
        # «Szavazás: 8. játékos (Bo)», not «8 (Bo). játékos»
        text = self._seat_words(key, subject) if _is_int(subject) else word(key, seat=self.seat_label(subject))
        speaker = g.floor
        return word("speaking", phase=text, seat=self.seat_label(speaker)) if speaker is not None else text

    def seat_phase_text(self, seat: int, ask: str | None, m: Moment | None = None) -> str:
        """The phase line on one seat's phone. It tells the reader to tap only what his screen
        has: a dead Swede read «Dag: säg ”tidstillägg” eller tryck på knappen.» under no button,
        a player the vote does not call on «Támogatod a vádat?» over none. By day a phone without
        a button the others have (out of the game, not called, his vote spent), and every phone
        while a pause greys the button, read what the table is doing — the host screen's words.
        A player who tapped Ready reads that the others are awaited, not to tap it. At night
        every phone has the same buttons and the same line (nothing may tell a sleeper apart)."""
        m = m or self.game.moment()
        if m.phase == "setup" and self.dealt is not None and seat in self.ready:
            return self.word("dealt_ready")
        if m.phase != "day":
            return self.phase_text()
        table_ask = self._ask(m)[0]
        if table_ask is not None and (ask is None or self.live.paused and table_ask == "extension"):
            return self.phase_text(host=True)
        return self.phase_text()

    def _subject(self):
        """The one player the current day state is about (the game's `subject`), for state lines
        that name him; "" when there is none."""
        seat = self.game.subject()
        return "" if seat is None else seat

    def _role_names(self, view: dict) -> dict[str, str] | None:
        if "roles" not in view:
            return None  # only at the end, when the narrator announces them too
        return {str(s): self.listed_role(r) for s, r in view["roles"].items()}

    def role_frame(self, seat: int) -> dict:
        g = self.game
        # with physical cards the core knows a seat's role only once the cards have shown themselves
        setup = g.phase() == "setup"
        known = not setup and not (g.cards and not g.cards_recorded)
        role = g.role(seat) if known else None
        if setup and self.dealt is not None and not self.cards_deal:
            role = self.dealt.get(seat, "citizen")  # dealt by the adapter, not yet given to the core
        checks = [self.word("night_finding", night=night, text=text) for (night, _), text in self.checks[seat].items()]
        return {"t": "role", "role": role, "role_name": self._role_name(role), "you_are": self._you_are(role),
                "checks": checks, "mates": self._mates(seat, known)}

    def _mates(self, seat: int, known: bool) -> str:
        """A mafioso's partners, as the rules say he knows them (SeatKnows) — from the deal the phones
        show before it reaches the game, too; "" for everyone else."""
        if known:
            knows = self.game.seat_knows(seat)
        elif self.game.phase() == "setup" and self.dealt is not None and not self.cards_deal:
            knows = SeatKnows.of_deal(self.dealt, seat)
        else:
            return ""
        if knows.partners:
            return self.word("my_mates", seats=", ".join(self.seat_label(s) for s in knows.partners))
        return self.word("my_mates_none") if knows.mafia else ""

    def vote_words(self, cast: tuple, mine: bool, decided: bool = False) -> str:
        """A day vote as its voter's phone reads it: what the game counted ("Your vote: 6 (Bo)",
        «Ваш голос: да»), and whether the host recorded it for him ("The host recorded your vote:
        6 (Bo)"). Said from the game's record, so a phone and the host voting in the same instant
        read what counts, not a guess from the tap being answered. `decided`: the last dead's
        decision of a tie (grundregeln, seed 003) — he did not vote, he named who is lynched:
        "You decided: player 4 (Dora) is lynched." (the core refuses a decision for nobody)."""
        target, answer = cast
        if decided and target is not None:
            return self.word("decided_yours" if mine else "decided_by_host", seat=self.seat_label(target))
        what = self.seat_label(target) if target is not None else self.word("yes" if answer else "no")
        return self.word("vote_yours" if mine else "vote_by_host", choice=what)

