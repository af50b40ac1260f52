"""The game's output as the companion follows it (`handle(effect, text)`, on the loop thread):
the caption of the narrator's words, a new screen id whenever what the phones may answer changes,
the votes the game recorded and whose they were, each phone's standing answer.
"""

from __future__ import annotations

import json

from ..flow.effects import HostLine, Record, Reject, Say, Tell, Timer
from .transport import _choice, _is_int


# the core's private lines that are a seat's night findings, kept for its held-down "my checks"
CHECK_LINES = ("check_", "watch_", "blocked_no_result")


class Following:
    """The game's output followed (`handle`): captions, screen ids, the votes recorded and whose. Mixed
    into `Hub` (hub.py), whose state it shares."""

    # ------------------------------------------------------------------ output side (loop thread)
    def handle(self, effect, text: str | None) -> None:
        line = None  # a Say as the caption shows it
        epoch = self.epoch
        if isinstance(effect, Say) and effect.line == "resuming":
            self._resuming = True  # the batch that opens a resumed game: up to its flush
        if isinstance(effect, Say):
            if self._caption_shown:
                self._caption_lines, self._caption_named, self._caption_shown = [], set(), False
            # a player named once in the caption is enough: "Player 3 (Åsa-Maria …): 9 votes. Player 3
            # leaves the game. Player 3, your last words.", not the long name three times over
            line = self.named(effect.line, effect.args, text, once=self._caption_named)
        if isinstance(effect, (Say, Tell, Reject, HostLine)):
            # whole, each line naming its players (the winner's announcement is shown by itself)
            text = self.named(effect.line, effect.args, text)
        if isinstance(effect, Timer):
            self._says_since_timer = []
            self.epoch += 1
            self.timer_name = effect.name
            self.timer_seconds = effect.seconds
            self._dirty = True
        elif isinstance(effect, Say):
            self._says_since_timer.append(text or "")
            self._caption_lines.append(line or "")
            self.caption = " ".join(t for t in self._caption_lines if t)
            self._dirty = True
        elif isinstance(effect, Tell):
            night = self.game.phase() == "night"
            if night and effect.line.startswith(CHECK_LINES):
                step = self.game.step
                self.checks[effect.seat][(self.game.night_no, step.name if step else "")] = text or ""
            if self._resuming and night:
                # a resumed night step starts again on every phone alike: shown unasked, the awake
                # players' answers ("You chose 5", a check) would be the only words on the table's
                # screens, the sleepers' cover answers being gone with the crash. It stands, as
                # an answer of this step does: a tap again shows it (a check is final)
                self._standing[effect.seat] = (self.epoch, text or "", (None, None))
            else:
                self._private_line(effect.seat, text or "", True)
        elif isinstance(effect, HostLine):
            # the referee's foul or dismissal at night (seed 004 §5-7): on the host screens, which
            # show what the morning will say (`held`); not a byte to any phone, asleep or awake
            self._hosts_due = True
        elif isinstance(effect, Reject):
            self._last_reject = (False, text or "")
            if effect.seat is None and effect.line in ("paused", "resumed"):
                self._paused_caption(effect.line, text or "")
            elif effect.seat is None and self.game.phase() == "night" and effect.line != "journal_failed":
                # the host's own input refused at night ("foul 6" for a seat that is out): his
                # alone, as a pause refused at night is — a caption on every phone would light up
                # the sleeping table's screens with what the referee did
                self._hosts_refused(text or "")
            elif effect.seat is None:
                # public, unless the record that follows shows it refused a phone's tap (then it is his alone)
                self._caption_before = self.caption
                self.caption = text or ""
                self._dirty = True
            else:
                self._private_line(effect.seat, text or "", False)
        elif isinstance(effect, Record):
            self._record(effect.entry)
        self._new_screen()
        if self.epoch != epoch:
            # only a new screen can meet votes this hub has not marked: each vote cast on a screen
            # it showed is marked as it is journaled (_record). Not only a new signature: a
            # resumed half-cast vote's screen is the signature of its first line ("The game goes
            # on…"), and the timer dispatched after it makes the screen the phones get
            self._votes_cast_before()
        self._schedule_flush()

    def timer_started(self, resumed_at: float | None = None) -> None:
        """The running timer's time runs from now: its line has been heard (LiveSession). The
        phones got the screen when the line was queued, with the time the speaker then expected
        it to take — a guess where a line is still being rendered. By day they now get the true
        time left, so a vote's countdown ends with its window: the Swedish call «… Rösta i
        mobilen. NU!» shows its buttons from the moment it is queued, and its 5 s run from «NU!»
        (docs/how-to/rules-sverige.md). At night nothing is sent: a step's frames are the same for every seat,
        and the moment a step's line ends is the table's, not news for a phone."""
        if self.game.phase() != "day" or not self.timer_name:
            return
        self._dirty = True
        self._schedule_flush()

    def _paused_caption(self, line: str, text: str) -> None:
        """The pause covers the narrator's words with "The game is paused." (and every answer
        "paused" keeps it there); at resume the screen comes back as it was, his words too."""
        if line == "paused":
            if self._caption_paused is None:
                self._caption_paused = self.caption
            self.caption = text
        elif self._caption_paused is not None:
            self.caption, self._caption_paused = self._caption_paused, None
        self._dirty = True

    def _new_screen(self) -> None:
        """A new screen id whenever what the phones may answer changes (a new ballot, a new step):
        taps and answers name the screen they belong to, and the pages drop any other screen's."""
        g = self.game
        m = g.moment()
        ask, choices = self._ask(m)
        sig = (g.state, g.day, m.step, ask, tuple(choices), g.awaiting()[0])
        if sig != self._sig:
            self._sig, self._sig_moment = sig, m
            self.epoch += 1
            self._dirty = True
            if m.phase == "night" or m.calling == 0:
                self._calls.clear()  # a new round: the last one's calls are no more of it
        if self.votes_on_phones and m.called:
            self._calls[self.epoch] = m.called[m.calling]  # every screen of the call (its timer's too)

    def _record(self, entry: dict) -> None:
        kind = entry.get("type")
        if kind == "input":
            # a new moment: its own words
            self._caption_lines, self._caption_named, self._caption_shown = [], set(), False
        if kind == "extension":
            # the question it was asked on is answered: by the phones' own request, or by another
            # input's (a voice, the console) that came first — a late tap on it is told which
            if self._extend_mine:
                self._offer_granted = self._extend_on
            else:
                self._offer_taken = self._extend_on
            self._extend_mine = False
        if kind in ("input", "rejected") and entry.get("event", {}).get("type") == "extend":
            self._extend_on = self.epoch
            # only what became of the phones' own Extend answers the phones that asked (a pause
            # holds it back before it could be asked about, see _extension_taken)
            mine = self._extend_mine or entry.get("reason") == "paused"
            if kind == "rejected":
                self._extend_mine = False
            if entry.get("reason") == "paused":
                self._extension_epoch = -1  # the question stands at resume: a tap then asks anew
            if mine and self._extension_asking:
                refusal = None
                if kind == "rejected" and self._last_reject is not None:
                    # refused (held back by a pause): said to the phones that asked, not to the table
                    refusal = self._last_reject[1]
                    if self._caption_before is not None:
                        self.caption = self._caption_before
                # every effect of the Extend is dispatched before the loop runs either; the flush
                # goes first, so each page has the extension's screen before its answer to it
                self._schedule_flush()
                self.live.loop.call_soon(self._extension_answered, refusal)
        if kind in ("input", "rejected"):
            ev = entry.get("event", {})
            seat = ev.get("seat")
            queue = self.pending.get(seat) if isinstance(seat, int) else None
            # the input being applied is the one whose source the session names: a phone's tap and the
            # host's press for him with the same vote are told apart by it, not by which came first
            source = getattr(self.live, "source", None)
            host = next((h for h in self._host_pending if h[0] == ev), None) if source in (None, "companion-host") else None
            if host is not None:
                self._host_pending.remove(host)
            mine = False  # this record is of the seat's own phone tap
            if host is not None and kind == "rejected":
                # the game's no to a vote the host recorded (a second vote): said on his screen,
                # as the console's is at the console — the phones' caption stays as it was
                if self._caption_before is not None:
                    self.caption = self._caption_before
                if self._last_reject is not None:
                    host[1].send(json.dumps({"t": "refused", "text": self._last_reject[1]}, ensure_ascii=False))
            elif host is None and source in (None, "companion") and queue and queue[0].event == ev:
                # (his phone's tap and the host's press for him with the same vote in the same
                # instant: this record is the one the session applies now; the other is answered
                # when the game takes it — refused, as a second vote)
                mine = True
                p = queue.popleft()
                if kind == "rejected" and self._last_reject is not None:
                    # the refusal came just before this record: it answers this tap, and only its phone
                    ok, text = self._last_reject
                    self._private = [x for x in self._private if not (x[0] == seat and x[1] == text)]
                    if self._caption_before is not None:
                        self.caption = self._caption_before
                    p.answers.append((ok, text))
                    self._resolve(p)
                else:
                    self._current = p
                    # every effect of this event is dispatched before the loop runs this
                    self.live.loop.call_soon(self._resolve, p)
            elif kind == "input" and ev.get("type") == "tap" and isinstance(seat, int):
                self._vote_from_elsewhere(seat, ev)
            if kind == "input" and ev.get("type") == "tap" and isinstance(seat, int) and self._day_vote_screen():
                # a day vote, whoever typed or tapped it, on the screen it was made on
                self._voted[seat] = self.epoch
                by = getattr(self.live, "vote_by", None) or ("phone" if mine else "host")
                self._cast[seat] = (self.epoch, self._hand(ev.get("target"), ev.get("answer")), by, self._deciding())
                # the host's "waiting for" loses that voter now, not at the next screen (a day vote
                # is public; a night tap never sends the host screen anything: its timing is secret)
                self._hosts_due = True
            self._last_reject = None
            self._caption_before = None
        elif self._note_vote(entry, getattr(self.live, "vote_by", None)) and self._day_vote_screen():
            # his own line names the vote now: his screen alone (a vote is public by day, and every
            # other phone's screen is as it was)
            self._own_due.add(entry["voter"])
            self._schedule_flush()
        elif kind == "deal":
            self._deal_roles = True  # each phone learns its own role, all in the same moment
            self._dirty = True
        elif kind == "game_over":
            # the game stops its clock and then announces the winner: those are the lines since
            self.winner_text = " ".join(t for t in self._says_since_timer if t) or None
            self._dirty = True
            if self.on_game_over is not None:
                self.on_game_over()  # e.g. the printable seat cards go: their links are of no more use
        elif kind == "phase" and entry.get("phase") == "night":
            self.notes.clear()
            self._dirty = True
        elif kind == "phase" and entry.get("phase") == "day":
            self.notes.clear()  # a night answer is never shown again by itself, only held down
            self._dirty = True

    def _note_vote(self, entry: dict, by: str | None) -> bool:
        """Keep each seat's vote as the core recorded it, and whose it was (`by`: "host" when the
        host recorded it for him); a new round or a new phase forgets them (a Swedish re-vote gives
        every player his vote again). True when a seat's vote changed."""
        kind = entry.get("type")
        if kind in ("vote_open", "phase"):
            self._given.clear()
        elif kind == "vote" and _is_int(entry.get("voter")):
            target = entry.get("seat") if _is_int(entry.get("seat")) else None
            answer = {"yes": True, "no": False}.get(entry.get("answer"))
            if target is None and answer is None:
                return False
            # classic's "should they all leave?" has no round of its own in the record: its answers are yes or no
            # the round its record names (None: a record without one), for the words the rules give it
            round_ = entry.get("round") or None
            self._given[entry["voter"]] = (round_, target, answer, "host" if by == "host" else "phone")
            return True
        return False

    def _day_vote_screen(self) -> bool:
        """The last screen sent asked for a day vote (not a night step, not a kamikaze's choice)."""
        sig, m = self._sig, self._sig_moment
        return sig is not None and sig[5] == "awaiting_votes" and m.phase == "day" and m.answer != "choose"

    def _deciding(self) -> bool:
        """The last screen sent asked the last dead to decide a tie (grundregeln, seed 003)."""
        return self._sig is not None and self._sig_moment.decider is not None

    def _votes_cast_before(self) -> None:
        """A vote this hub meets half cast (a game resumed after a crash in the middle of it): each
        voter's phone shows the vote he made — his button marked, "your vote is in" — as before the
        crash, not "you have already voted" over a ballot with no vote of his on it."""
        if not self.votes_on_phones or not self._day_vote_screen():
            return
        for seat, (target, answer) in self.game.ballot_cast().items():
            if self._voted.get(seat) == self.epoch:
                continue
            self._voted[seat] = self.epoch
            # whose it was, from the journal's note ("The host recorded your vote: 6" after a resume too)
            by = self._given[seat][3] if seat in self._given else "phone"
            text = self.vote_words((target, answer), by != "host")
            self._cast[seat] = (self.epoch, (target, answer), by, False)
            self._standing[seat] = (self.epoch, text, (target, answer))
            self._chosen[seat] = (self.epoch, _choice(target, answer))

    def _vote_from_elsewhere(self, seat: int, ev: dict) -> None:
        """A day vote the console (or a voice, the keypad) took for a seat that has a phone: the
        phone shows the vote that stands, and who recorded it — "The host recorded your vote: 6",
        its button marked, and a later tap on another button answered with it (the mark stays) —
        never an open ballot that says "already voted" to a player who sees no vote of his. (A vote
        is public; at night nothing of this is sent.)"""
        if not self.votes_on_phones or not self._day_vote_screen() or self.game.phase() == "night":
            return  # the screen the input was made on (the last one sent) was no day vote
        target, answer = self._hand(ev.get("target"), ev.get("answer"))
        text = self.vote_words((target, answer), False, self._deciding())
        self._standing[seat] = (self.epoch, text, (target, answer))
        self._chosen[seat] = (self.epoch, _choice(target, answer))
        # a living voter's badge names it as soon as the vote is recorded ("You voted for player 6."):
        # the note marks his button and says nothing twice (a dead decider has no badge: his words stay)
        shown = "" if seat in self.game.alive else text
        self._send(seat, {"t": "note", "ok": True, "text": shown, "epoch": self.epoch, "chosen": _choice(target, answer)})

    def _hand(self, target, answer) -> tuple:
        """A vote as the ballot counts it: a "yes" on a ballot of one name (a Swedish hand typed at
        the console, `tap 2 ja`: seed 000, a hand raised for the name being called) is a vote for
        that name — his phone marks its button and reads «Spelledaren registrerade din röst: 3»,
        not «…: ja» under a button it never marks."""
        ballot = self.ballot()
        if target is None and answer is True and ballot is not None and ballot[0] == "seat" and len(ballot[1]) == 1:
            return ballot[1][0], None
        return target, answer

