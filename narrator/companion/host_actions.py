"""The host's actions: each button of the host screen taken only while the screen offers it, and
turned into the game's input (or refused on his screen alone); the Ready phase and the closing.
"""

from __future__ import annotations

import json

from ..flow.effects import Reject
from ..flow.events import Defeat, Disqualify, EndSpeech, event_to_dict, Extend, Foul, Leave, Nominate, Revoke, Tap
from .transport import Conn, _is_int


# the host screen's actions that are the game's inputs: taken only while the screen offers them
HOST_EVENTS = ("nominate", "revoke", "foul", "disqualify", "defeat", "leave", "end_speech", "extend")
SEAT_ACTIONS = ("nominate", "foul", "disqualify", "defeat", "leave")  # each names a seat


class HostActions:
    """The host screen's messages (`_host_action`), each taken only while his screen offers it. Mixed
    into `Hub` (hub.py), whose state it shares."""

    # ------------------------------------------------------------------ host screen
    def _host_action(self, conn: Conn, msg: dict) -> None:
        what = msg.get("t")
        seat = msg.get("seat")
        if what in ("pause", "resume"):
            # the game answers as it answers the console: refused at night, already paused, not
            # paused — to this host alone, on his screen (never said: at night it would be heard)
            self.live.submit_control(what, refused=lambda why: self._host_refused(conn, what, why))
            return
        if what == "start":
            self.start()
            return
        if what == "vote":
            return self._host_vote(conn, msg)
        if what == "hands":
            return self._host_hands(conn, msg)
        if what == "close":
            if self.game.phase() == "over":
                self.close_game()
            return
        if what == "reissue":
            if not _is_int(seat):
                return self._host_told(conn, what, "host_need_seat", seat=self.word("host_seat"))
            if seat not in self.seat_tokens:
                return self.refuse("reissue: no such seat", None)
            url = self.reissue(seat)
            from . import qr  # only the host who asked sees the new link, as a QR code

            problem = self.on_reissue(seat) if self.on_reissue is not None else None
            frame = {"t": "reissued", "seat": seat, "qr": qr.svg_qr(url)}
            if problem:
                frame["problem"] = problem  # the cards could not be rewritten: this QR code still joins
            conn.send(json.dumps(frame, ensure_ascii=False))
            return
        if what in HOST_EVENTS and what not in self.host_controls():
            # a button this screen does not show now (a forged message, or one sent from a screen
            # a moment old): the rules never see it, nothing changes
            return self.refuse(f"{what}: not on the host screen now", None)
        by = msg.get("by")
        if what in SEAT_ACTIONS and not _is_int(seat):
            # a button pressed with the seat field empty: said to this host, never to the game
            return self._host_told(conn, what, "host_need_seat", seat=self.word("host_seat"))
        named = self.game.moment().nominator_named
        if what in ("nominate", "revoke") and named and not _is_int(by):
            # seed 000: only the nominator withdraws, and each has one nominee: the game must know whose
            return self._host_told(conn, what, "host_need_nominator" if what == "nominate" else "host_need_withdrawer",
                                   by=self.word("host_by"))
        if not named:
            by = None  # where the floor nominates, the speaker is the nominator, whatever a message says
        event = None
        if what == "nominate":
            event = Nominate(seat, by=by)
        elif what == "revoke":
            event = Revoke(seat if _is_int(seat) else None, by=by)
        elif what == "foul" and _is_int(seat):
            event = Foul(seat)
        elif what == "disqualify" and _is_int(seat):
            event = Disqualify(seat)
        elif what == "defeat" and _is_int(seat):
            event = Defeat(seat)
        elif what == "leave" and _is_int(seat):
            # by day only (host_offers): a leave typed on the table's screen at night would show the
            # sleeping table who is gone before the morning says it (seed 000: one signals the host)
            event = Leave(seat)
        elif what == "end_speech":
            event = EndSpeech()
        elif what == "extend":
            # a player without a phone asks aloud (seed 000 Tid): the host presses it for him
            event = Extend()
        if event is None:
            return self.refuse("unknown host action", None)
        self.live.submit_event(event, source="companion-host")

    def _host_told(self, conn: Conn, what: str, key: str, **args) -> None:
        """A host action that lacks what the page asks for (a seat, the nominator): refused, and
        told on the screen of the host who pressed it, naming his field and button as they read."""
        self.refuse(f"{what}: {key}", None)
        button = self.page_words().get("host_" + what, what)
        conn.send(json.dumps({"t": "refused", "text": self.word(key, button=button, **args)}, ensure_ascii=False))

    def _host_refused(self, conn: Conn, what: str, why: str) -> None:
        """A pause or resume the game refused: logged as every refusal, and said on the screen of
        the host who asked, in the table's words ([phone] host_<why>), to nobody else."""
        self.refuse(f"{what}: {why}", None)
        conn.send(json.dumps({"t": "refused", "text": self.word("host_" + why)}, ensure_ascii=False))

    def _host_hands(self, conn: Conn, msg: dict) -> None:
        """The hands the host recorded: the whole count of the call, taken as the console's lines
        are (hands_typed) — each hand an ordinary `tap` the game checks and journals, then the
        count, once, whichever side gave it first; the other's comes too late and is told so.
        `votes`: [[candidate, [voters]], …] (one row per candidate; the yes row's candidate is
        null), or `seats`: the voters of the one name called (or the yes). A seat in two rows, or a
        row that is no candidate's, is no entry of this count. Each hand is the game's to judge, as
        a hand of the console's line is — a seat that voted meanwhile at the console, one beyond
        the table, one pointing at himself — but where the console counts the rest of its line,
        the host's entry is taken whole or not at all: the game's reason is shown on his screen
        ("Nothing recorded: Player 4 has already voted."), and nothing is journaled."""
        call = msg.get("call")

        def entry(offer: dict) -> list[tuple[int | None, list[int]]] | None:
            """The entry as (candidate, voters) rows; None when it is not one this offer takes."""
            rows = {r["seat"]: r for r in offer["rows"]}
            if "votes" in msg:
                votes = msg.get("votes")
                if not isinstance(votes, list) or not all(isinstance(v, list) and len(v) == 2 for v in votes):
                    return None
                pairs = [(t, seats) for t, seats in votes]
            else:
                pairs = [(offer["rows"][0]["seat"], msg.get("seats"))] if len(rows) == 1 else [(None, None)]
            given: list[int] = []
            for target, seats in pairs:
                if not (target is None or _is_int(target)) or target not in rows or not isinstance(seats, list) \
                        or not all(_is_int(s) for s in seats):
                    return None
                given += seats
            if len(set(t for t, _ in pairs)) != len(pairs) or len(set(given)) != len(given):
                return None  # a seat votes once, a candidate has one row
            return pairs

        def why_not() -> tuple[str, list | None]:
            """(the refusal's [phone] key, or "" with the entry's rows)."""
            offer = self.host_hands()
            if offer is None or not offer["seats"] or call != offer["call"]:
                return "host_hands_not_now", None
            pairs = entry(offer)
            if pairs is None:
                return "host_hands_not_understood", None
            return "", pairs

        def tap(target, voter) -> Tap:
            return Tap(voter, target) if target is not None else Tap(voter, answer=True)

        def in_turn() -> None:
            why, pairs = why_not()
            if why:
                return self._host_hands_refused(conn, why)
            # the whole entry or nothing, with the reason the console would print for that hand
            refused = self.game.first_refusal(tap(target, voter) for target, voters in pairs for voter in voters)
            if refused is not None:
                return self._host_hands_refused(conn, "host_hands_refused", refused)
            for target, voters in pairs:
                for voter in voters:
                    if self.live.hand_call() != call:
                        break  # every vote is spent and the count said: the rest is no hand of the next call
                    self.live.apply_typed(tap(target, voter))
            self.live.hands_entered(call)

        why, _ = why_not()
        if why:
            return self._host_hands_refused(conn, why)
        self.live.submit_control(in_turn)

    def _host_hands_refused(self, conn: Conn, key: str, refused: Reject | None = None) -> None:
        # the scorer at the terminal reads that the host's count was refused, not "a button that does not apply"
        self.refuse("host count refused" if refused else f"host hands: {key}", None)
        if refused is None:
            text = self.word(key)
        else:
            # the game's reason, worded and named as the console prints it ("Player 3 (Cleo) has already voted.")
            reason = self.named(refused.line, refused.args, self.live.voice.render(refused.line, refused.args))
            text = self.word(key, reason=reason)
        conn.send(json.dumps({"t": "refused", "text": text}, ensure_ascii=False))

    def _host_vote(self, conn: Conn, msg: dict) -> None:
        """A seat's answer recorded on the host screen: taken only as `host_votes` offers it on this
        very screen — the seat called on now, a button of his ballot, and for a seat whose phone is
        connected only when the host confirmed that it froze. Anything else is refused on this
        host's screen and changes nothing; the game's own checks (a second vote) follow."""
        seat, target, answer = msg.get("seat"), msg.get("target"), msg.get("answer")

        def offered() -> str | None:
            """None when the answer may be recorded now; else the refusal's [phone] key."""
            offer = self.host_votes()
            if offer is None or msg.get("epoch") != offer["epoch"]:
                return "host_vote_not_now"
            row = next((r for r in offer["rows"] if r["seat"] == seat and _is_int(seat)), None)
            if row is None:
                return "host_vote_not_now"
            if offer["ask"] == "seat" and not (_is_int(target) and target in offer["choices"] and target not in row["barred"]
                                               and answer is None):
                return "host_vote_not_understood"
            if offer["ask"] == "yes_no" and not (isinstance(answer, bool) and target is None):
                return "host_vote_not_understood"
            if row["phone"] and msg.get("confirmed") is not True:
                return "host_vote_phone"
            return None

        why = offered()
        if why is not None:
            return self._host_vote_refused(conn, why, seat)

        def refuse() -> bool:
            # its turn comes after the inputs queued before it: a vote that closed meanwhile, or a
            # phone that voted first, is refused here, on this host's screen alone
            why = offered()
            if why is not None:
                self._host_vote_refused(conn, why, seat)
                return True
            self._host_pending.append((event_to_dict(event), conn))
            return False

        event = Tap(seat, target, answer)
        self.live.submit_event(event, source="companion-host", refuse=refuse)

    def _host_vote_refused(self, conn: Conn, key: str, seat) -> None:
        self.refuse(f"host vote: {key}", seat if _is_int(seat) else None)
        text = self._seat_words(key, seat) if _is_int(seat) else self.word(key, seat="?")
        conn.send(json.dumps({"t": "refused", "text": text}, ensure_ascii=False))

    # ------------------------------------------------------------------ ready phase and closing
    def start(self) -> None:
        """The host starts: the deal now if it waits for phones, night zero now if it waits for Ready."""
        if self.dealt is not None:
            self.all_ready.set()
        self.table_ready.set()

    def show_deal(self, roles: dict[int, str] | None, cards: bool = False) -> None:
        """The adapter's deal, before the core has it: each phone shows its role and asks Ready."""
        self.dealt = dict(roles or {})
        self.cards_deal = cards
        self.ready.clear()
        self.epoch += 1
        self._deal_roles = True
        self._dirty = True
        self._schedule_flush()

    def _ready(self, seat: int) -> None:
        if self.dealt is None or self.game.phase() != "setup":
            return self.refuse("not asking ready", seat)
        if seat not in self.ready:
            self.ready.add(seat)
            self._dirty = True
            self._schedule_flush()
        if len(self.ready) == self.config.seats:
            self.all_ready.set()

