"""A phone's tap, answered: checked (its number, its screen, its allowance), given to the game only
where the game takes it — at night only from a seat that is awake — and answered with one `ack`,
at night always `ack_ms` after it arrived, whoever sent it.
"""

from __future__ import annotations

import asyncio
import logging

from ..flow.events import event_to_dict, Extend, Tap
from ..flow.moment import EXTENSION
from ..flow.night import ACTIONS as NIGHT_ACTIONS, FINAL as NIGHT_FINAL
from .links import N_AHEAD
from .transport import ANSWER_WAIT, Conn, Pending, _choice, _is_int

log = logging.getLogger("narrator.companion")


class Taps:
    """A phone's message answered (`message`): a tap checked, given to the game or covered, acked.
    Mixed into `Hub` (hub.py), whose state it shares."""

    async def message(self, conn: Conn, msg) -> None:
        """One message from a logged-in phone or host screen. Bad input is refused, never raised."""
        if not isinstance(msg, dict):
            return self.refuse("not an object", conn.seat)
        if conn.host:
            return self._host_action(conn, msg)
        if msg.get("t") == "ready":
            return self._ready(conn.seat)
        if msg.get("t") != "tap":
            return self.refuse("unknown message", conn.seat)
        await self._tap(conn, msg)

    async def _tap(self, conn: Conn, msg: dict) -> None:
        seat = conn.seat
        loop = asyncio.get_running_loop()
        arrived = loop.time()
        n, epoch, target, answer = msg.get("n"), msg.get("epoch"), msg.get("target"), msg.get("answer")
        if not _is_int(n) or n > self.last_n[seat] + N_AHEAD:
            return self.refuse("malformed", seat)  # no number to answer to, or one far ahead of any real count
        if not self._allowance(conn, arrived):
            return self.refuse("flood", seat)  # dropped unanswered before it costs a journal line or a frame
        reason = None
        if msg.get("seat", seat) != seat:
            reason = "wrong seat"
        elif n <= self.last_n[seat]:
            reason = "replayed"
        elif not _is_int(epoch) or epoch != self.epoch:
            reason = "stale"
        elif target is not None and not _is_int(target) or answer is not None and not isinstance(answer, bool):
            reason = "malformed"
        if reason == "replayed":
            # an old copy of something already answered: answer nothing, change nothing
            return self.refuse(reason, seat)
        late_call = self._late_call(seat, reason, epoch, target, answer)
        if late_call is not None:
            reason = None  # answered below as what it is: a vote for a name whose call is over
        late_ask = reason == "stale" and self._late_extension_ask(seat, epoch)
        late_taken = reason == "stale" and self._late_extension_ask(seat, epoch, self._offer_taken)
        if late_ask or late_taken:
            reason = None
        self.last_n[seat] = n
        m = self.game.moment()
        night = m.phase == "night"
        vote = False  # a day vote on the phones: its answer stands for the ballot, as a night's for its step
        extension = False  # the Swedish time extension asked for: its answer stands for the question
        future = loop.create_future()
        sent: Pending | None = None
        if reason is not None:
            self.refuse(reason, seat)
            # a form from a screen that is gone is too late; anything else (not a number, another
            # seat's name on it) is no button of this page, and is said so, not "too late"
            text = (self._line("companion_stale", "Too late: the game has moved on.") if reason == "stale"
                    else self.word("tap_not_understood"))
            future.set_result([(False, text)])
        elif self.live.paused:
            # while paused nothing changes the game: this phone alone reads so, and nothing is sent
            # to the game (at night a pause is refused, so no awake seat is told apart here)
            self.refuse("paused", seat)
            future.set_result([(False, self.live.voice.render("paused", {}))])
        elif night:
            step = self.game.step
            if step is not None and step.action and seat in self.game.awake_seats():
                sent = self._submit(Tap(seat, target, answer), future)
            elif seat not in self.game.alive:
                # out, and the table knows it (dead, or removed and said so): no cover to keep, his
                # being out is public; the answer comes at the same moment, in a frame of the same size.
                # One removed tonight is still among the living here, and taps like a sleeper
                self.refuse("seat out", seat)
                future.set_result(self._tap_out(seat))
            else:
                # asleep, dead or a step without action: the same ack, and the core never hears it
                log.debug("companion: night tap kept from the core")
                future.set_result(self._cover_answer(step, target))
        elif m.answer == "choose":
            if not self.game.seat_ask(seat, m).counted:
                # only the dying kamikaze chooses; the others' taps need not fill the journal
                self.refuse("not the kamikaze", seat)
                future.set_result([(False, self.live.voice.render("reject_not_kamikaze", {}))])
            else:
                sent = self._submit(Tap(seat, target, answer), future)
        elif late_call is not None:
            # seed 004 §4.4: the fists go down between the call and "Stop": a tap that reached the
            # server after the call it was made on had closed is no vote, and he has not voted —
            # his button for a candidate still to be called stays. Said on his phone alone, on the
            # screen it has now (the call it was made on is gone), once that screen is sent
            self.refuse("call over", seat)
            await asyncio.sleep(0)
            epoch = self.epoch
            future.set_result([(False, self.named("reject_late_vote_phones", {"seat": late_call},
                                                  self.live.voice.render("reject_late_vote_phones", {"seat": late_call})))])
        elif late_ask:
            # a tap on the question that reached the server once the extension the phones asked for
            # was granted (two players at once, or a slow phone): his request is met, and he reads so
            extension = True
            future.set_result([(True, self.word("extension_asked"))])
        elif late_taken:
            # the extension runs, but a voice or the console asked for it first: the first request
            # the game took is the one granted, and this one was too late for it — said to him alone
            extension = True
            self.refuse("extension already asked", seat)
            future.set_result([(False, self.live.voice.render("reject_extension_used", {}))])
        elif self._extension_offered():
            extension = True
            if seat not in self.game.alive:
                self.refuse("dead seat", seat)
                future.set_result(self._tap_out(seat))
            else:
                if self._extension_epoch != self.epoch:
                    # the first tap asks; a second one on the same question (two players at once)
                    # must not be refused aloud as "already used" to the whole table
                    self._extension_epoch = self.epoch
                    self.live.submit_event(Extend(), source="companion", refuse=self._extension_taken)
                # answered once the Extend is applied, on the extension's screen: answered on the
                # question's, the new screen came first and the page dropped it (as for another screen)
                self._extension_asking.append(future)
        elif self.votes_on_phones and self.ballot() is not None:
            if seat not in self.game.alive and seat not in self._called_voters():
                # out of the game, unless the rules call on him (a grundregeln tie-break: the last dead)
                self.refuse("dead seat", seat)
                future.set_result(self._tap_out(seat))
            else:
                vote = True
                standing = self._standing.get(seat)
                if standing is not None and standing[0] == self.epoch and standing[2] == (target, answer):
                    # a double tap on the vote that is in: answered as the first was (a voter must
                    # see that his vote counts, not "already voted"), and the core never hears it
                    future.set_result([(True, standing[1] or self.vote_words(standing[2], True))])
                else:
                    sent = self._submit(Tap(seat, target, answer), future)
        elif seat not in self.game.alive and m.phase not in ("setup", "over"):
            self.refuse("seat out", seat)
            future.set_result(self._tap_out(seat))
        else:
            self.refuse("nothing to tap", seat)
            future.set_result([(False, self.live.voice.render("reject_tap_now", {}))])
        if night:
            # the fixed moment: no answer can come sooner, whoever tapped
            await asyncio.sleep(max(0.0, arrived + self.ack_delay - loop.time()))
        try:
            answers = await asyncio.wait_for(asyncio.shield(future), ANSWER_WAIT)
        except asyncio.TimeoutError:
            answers = []
            if sent is not None and sent in self.pending[seat]:
                self.pending[seat].remove(sent)  # never matched: it must not hold up the next taps
        ok = all(a[0] for a in answers)
        text = " ".join(a[1] for a in answers) or (self._line("companion_vote_taken", "Your vote is in.") if vote
                                                   else self._line("companion_tap_taken", "Your tap is in."))
        chosen = None  # the button the answer marks, when it is not the one tapped
        by_host = False
        cast = self._cast.get(seat) if vote else None
        # the last dead's decision of a tie (seed 003): the lynch it decides ends the ballot at once
        decided = cast is not None and cast[0] == epoch and cast[3]
        if cast is not None and cast[0] == epoch:
            # the vote the game recorded for him on this ballot says what counts. The host's for
            # him (a press in the same instant as his tap, or one the console typed) is his vote
            # whatever his tap was: his phone reads it and marks its button, not "already voted"
            # under a vote of his it never showed, nor a bare "Your vote is in." after ANSWER_WAIT
            if cast[2] == "host":
                ok, text, chosen = cast[1] == (target, answer), self.vote_words(cast[1], False, cast[3]), _choice(*cast[1])
                by_host = True
            elif ok or not answers:
                ok, text = True, self.vote_words(cast[1], True, cast[3])
        standing = self._standing.get(seat)
        kept = night or vote or extension
        # his vote that counts is said once, in the line above the table ("You voted for player 7
        # (Grace).", `voted`): the answer box under the ballot repeated it ("Your vote: 7 (Grace)").
        # It keeps what only it can say: a refusal, or that the host's vote for him is the one counted
        badge = vote and self.vote_given(seat) is not None
        if kept and answers and not ok and not by_host and standing is not None and standing[0] == self.epoch and not badge:
            # a refused re-tap (a second check, a change the rules forbid, a second vote) never hides
            # the answer that still stands: the check result, the choice or the vote stays on
            # screen, the refusal after it
            text = standing[1] + "\n" + text  # the answer on its own line, the refusal under it
        # the screen this tap was made on: a page drops an answer for any other screen. A request
        # for the time extension is answered on the screen it led to, which every phone has by now;
        # so is the last dead's decision ("You decided: player 4 is lynched."), or his phone would
        # never say it: his ballot is gone the moment he decides (public: the table hears the lynch).
        # Not when the lynch ends the day (seed 003 gives no last words): the night's screen must
        # be the same on every phone, and his would have kept a day's answer through the mafia's
        # step. His page drops it as an answer for another screen; the night's caption says it
        # to everyone («Spieler 4 wird gelyncht. Es wird Nacht.»)
        into_night = decided and self.game.phase() == "night"
        shown = self.epoch if extension or decided and not into_night else epoch if _is_int(epoch) else self.epoch
        if badge and ok:
            text = ""  # the badge says it
        frame = {"t": "ack", "n": n, "ok": ok, "text": text, "epoch": shown, "chosen": chosen}
        # with or without a line of its own (a vote taken, a tap at night the core never heard: their
        # "vote is in" / "tap is in"), the answer stands, and comes back after a reload like a checker's
        if kept and not decided and not (not ok and standing is not None and standing[0] == self.epoch):
            if night:
                self.notes[seat] = {"t": "note", "ok": ok, "text": text, "epoch": frame["epoch"]}
            if ok:
                self._standing[seat] = (frame["epoch"], text, (target, answer))  # the screen it answered, not the one now
        if ok and reason is None and not decided:
            # every accepted tap, awake or asleep: a reload must not tell a sleeper from a checker
            # (not a decision: it would mark his seat's button on the next screen, a night's grid)
            self._chosen[seat] = (frame["epoch"], _choice(target, answer))
        self._send(seat, frame, delay=loop.time() - arrived)

    def _cover_answer(self, step, target) -> list[tuple[bool, str]]:
        """What a tap the core never hears reads at night. In a step that takes a changeable choice
        (a shot, a save, a block, a name vote) the awake player reads "You chose 8 — you can change
        it until the step ends.", three lines on a small phone: a sleeper's "Your tap is in." was one,
        and the length of the answer told from across the table whose phone had acted. So the
        sleeper reads the same sentence for his own tap (true: his cover choice can change too)."""
        if step is None or not _is_int(target) or target not in self.game.night_choices()[1]:
            return []
        action = NIGHT_ACTIONS.get(step.action)
        if action is None or action in NIGHT_FINAL or step.action in ("identify", "manner"):
            return []  # a check's answer is one line like "Your tap is in."; a card, a list: their own
        voice = self.live.voice
        return [(True, self.named("choice_taken", {"seat": target}, voice.render("choice_taken", {"seat": target})))]

    def _late_call(self, seat: int, reason: str | None, epoch, target, answer) -> int | None:
        """The candidate a phone vote was for when his call had closed before it arrived (classic's
        calls in turn): a tap from a call's screen that is gone, or one naming a candidate called
        already. None for any other tap, and for a seat that has voted or is out (his phone says
        that, not that he may still vote)."""
        g = self.game
        m = g.moment()
        if seat not in g.alive or g.seat_ask(seat, m).voted:
            return None
        if reason == "stale" and _is_int(epoch) and epoch in self._calls and self._calls.get(self.epoch) != self._calls[epoch]:
            called = self._calls[epoch]
            return called if target == called or target is None and answer is True else None
        if reason is None and self.votes_on_phones and m.called and _is_int(target):
            return target if target in m.called[:m.calling] else None
        return None

    def _late_extension_ask(self, seat: int, epoch, question: int | None = None) -> bool:
        """A living seat's tap on the question whose extension now runs (`epoch` is the question's):
        the one the phones' request began, or `question`."""
        question = self._offer_granted if question is None else question
        return (_is_int(epoch) and epoch == question and seat in self.game.alive
                and self.game.extension() == EXTENSION)

    def _extension_taken(self) -> bool:
        """Asked as the phones' Extend's turn comes: True keeps it from the game. A voice or the
        console that asked in the same instant came first: the question is gone, and the phones
        that asked are told, privately, that the extension was already used — never the table
        (a public "already used" then read at the console as the answer to its own request)."""
        if self._extension_offered():
            self._extend_mine = True  # its records answer the phones that asked
            return False
        self.refuse("extension already asked", None)
        used = self.game.moment().extension_used
        refusal = (self.live.voice.render("reject_extension_used", {}) if used
                   else self._line("companion_stale", "Too late: the game has moved on."))
        self._extension_answered(refusal)
        return True

    def _extension_answered(self, refusal: str | None) -> None:
        """The phones that asked on the question get what became of their request, after the
        extension's screen went out: "you asked for it" when it was granted, else the refusal, to
        them alone."""
        asking, self._extension_asking = self._extension_asking, []
        answer = (True, self.word("extension_asked")) if refusal is None else (False, refusal)
        for future in asking:
            if not future.done():
                future.set_result([answer])

    def _called_voters(self) -> list[int]:
        kind, args = self.game.awaiting()
        return list(args.get("seats", [])) if kind == "awaiting_votes" else []

    def _submit(self, event: Tap, future: asyncio.Future) -> Pending:
        p = Pending(event.seat, event_to_dict(event), future)
        self.pending[event.seat].append(p)
        self.live.submit_event(event, source="companion")
        return p

