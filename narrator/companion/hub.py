"""The companion's game side: which frame goes to which phone, and when. No HTTP here.

The hub is an output of the live session (`handle(effect, text)`, on the loop thread) and the
place the web server hands phone messages to (`hello`, `message`, also on the loop thread). It
keeps one rule above all: at night, what a phone receives must not depend on the roles.

- Every frame to a phone is padded to a multiple of FRAME bytes (and the server turns
  WebSocket compression off), so sizes say nothing about the text inside.
- Public changes (a new step, the dawn) go to every phone in the same loop iteration.
- A night tap is answered by one `ack` frame `ack_ms` after it arrived, whoever sent it. Only a
  tap from a seat that is awake now goes to the core; the core's answer (a shot taken, a check
  result, a private refusal) rides in that seat's ack, and every other tap gets a dummy ack of
  the same type and size at the same delay.
- A private line the core sends on its own (e.g. after a keypad or console tap) goes to its seat
  together with a same-size dummy `note` to every other phone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass, field

from ..flow.effects import HostLine, Record, Reject, Say, Tell, Timer
from ..flow.events import Defeat, Disqualify, EndSpeech, Extend, Foul, Leave, Nominate, Revoke, Tap, event_to_dict
from ..flow.moment import Moment
from ..flow.night import ACTIONS as NIGHT_ACTIONS, FINAL as NIGHT_FINAL
from .. import naming
from ..language import load_voice
from ..rules.roles import wins_with

log = logging.getLogger("narrator.companion")
# what strangers on the network cause: the companion's log file only (server.quiet_logging)
peers = logging.getLogger("narrator.companion.server")

FRAME = 1024  # every phone frame is padded to a multiple of this many bytes
ANSWER_WAIT = 2.0  # seconds: a core answer later than this is replaced by a neutral one
HOST_TRIES = 5  # wrong PINs from one address before that address waits HOST_LOCK seconds (doubling)
HOST_LOCK = 30.0
HOST_LOCK_MAX = 600.0
# wrong PINs from all addresses together before the PIN itself is locked (HOST_LOCK, doubling at
# each further wrong PIN): a guesser with a thousand addresses gets no more tries than one with one.
# The terminal's own link (the host key) still opens the host screen while the PIN is locked
PIN_BUDGET = 20
HOST_BURST = 20  # messages a host screen may send at once; then HOST_RATE a second (a person presses
HOST_RATE = 5.0  # a few buttons a second): the excess is dropped before it is even read
SEND_QUEUE = 256  # frames waiting for one connection: a client that stops reading is closed, not fed
MAX_HOSTS = 8  # host screens open at once (a laptop, a tablet, a reload or two): each gets every host frame
TAP_BURST = 10  # taps a seat may send at once; then TAP_RATE a second (a human changes his mind
TAP_RATE = 4.0  # a few times a step): the excess of a flood is dropped before it costs anything
N_AHEAD = 10000  # a tap's number may run ahead of the last one by this much, no more
# each refusal's words at the console ([console] companion_why_<word>); any other is a host screen's
# button that does not apply now, which his own screen has already told him in its words
REFUSAL_WORDS = {
    "seat out": "out", "dead seat": "out", "stale": "stale", "call over": "call_over", "paused": "paused",
    "nothing to tap": "nothing", "not asking ready": "nothing", "not the kamikaze": "not_kamikaze",
    "extension already asked": "extension_asked", "wrong seat": "not_understood",
    "malformed": "not_understood", "not an object": "not_understood", "unknown message": "not_understood",
    "replayed": "replayed", "flood": "flood", "bad hello": "link", "unknown token": "link",
    "link already used": "link_used", "no hello": "no_hello", "host locked": "host_locked",
    "wrong host PIN": "host_pin", "host count refused": "host_count", "host flood": "flood",
}
# refusals of a connection that has proved nothing (no seat, no host key): anybody on the network
# can cause them, so they go to the companion's log file, never onto the table's terminal
STRANGER_REASONS = ("bad hello", "unknown token", "no hello", "wrong host PIN", "host locked", "too many host screens")
LOG_EVERY = 5.0  # seconds: refusals are logged one line per seat at most this often
CLOSE_TAKEN = 4409  # the phone's page says: this seat is taken on another phone, ask the host
ROLE_FRAME = 4096  # role frames carry a seat's own checks too: padded larger, to the table's longest
# the core's private lines that are a seat's night findings, kept for its held-down "my checks"
CHECK_LINES = ("check_", "watch_", "blocked_no_result")
# the public timer names of a Swedish day's time extension (seed 000 Tid)
EXTENSION_OFFER, EXTENSION = naming.EXTENSION_OFFER, naming.EXTENSION


def pad(frame: dict, size: int = FRAME) -> str:
    """The frame as JSON, padded with spaces to a multiple of `size` bytes (UTF-8)."""
    frame = dict(frame, pad="")
    text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    n = len(text.encode("utf-8"))
    target = -(-n // size) * size
    frame["pad"] = " " * (target - n)
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def answer_size(players: dict[int, str]) -> int:
    """The size of every answer and note frame of a game: room for the longest line (FRAME) and
    the names it may carry. A check result names one player, a refused re-tap under it a second;
    four of the longest names is more than any answer holds. Fixed for the game, so a phone that
    got "7 (Åsa-Maria Lindqvist-Bergström) is not mafia." receives as many bytes as one that got
    "Your tap is in." (JSON escapes a quote or a backslash in two bytes)."""
    room = sorted((len(n.encode("utf-8")) + n.count('"') + n.count("\\") + 4 for n in players.values()), reverse=True)
    return -(-(FRAME + sum(room[:4])) // FRAME) * FRAME if room else FRAME


REPORT_URL = "/report"  # the game report, served once the game is over
# the host screen's actions that are the game's inputs: taken only while the screen offers them
HOST_EVENTS = ("nominate", "revoke", "foul", "disqualify", "defeat", "leave", "end_speech", "extend")
SEAT_ACTIONS = ("nominate", "foul", "disqualify", "defeat", "leave")  # each names a seat

class Conn:
    """One open WebSocket as the hub sees it: frames are queued and written by the server."""

    def __init__(self, send_queue: asyncio.Queue | None = None):
        self.queue: asyncio.Queue = send_queue or asyncio.Queue()
        self.seat: int | None = None
        self.host = False
        self.closed = False
        self.addr: str | None = None  # the client's address, as the server saw it
        self.tokens = float(TAP_BURST)  # the seat's tap allowance (a token bucket)
        self.refilled = 0.0
        self.beats = False  # the page sends a heartbeat: silence means it is frozen or gone
        self.heard = 0.0  # loop time of its last message

    def send(self, text: str) -> None:
        if not self.closed:
            if self.queue.qsize() >= SEND_QUEUE:
                # it reads nothing: what waits for it is dropped and it is closed (its page
                # reconnects and gets the screen as it is then)
                while not self.queue.empty():
                    self.queue.get_nowait()
                self.close(1008)
                return
            self.queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.queue.put_nowait(("close", code))
            self.closed = True


@dataclass
class Pending:
    """A phone tap that went to the core; resolved with the core's private answer, if any."""

    seat: int
    event: dict
    future: asyncio.Future
    answers: list[tuple[bool, str]] = field(default_factory=list)


@dataclass
class Sent:
    """One frame as sent, for the leak tests: which seat, which dispatch batch, type and size."""

    seat: int
    batch: int
    type: str
    size: int
    delay: float | None = None  # for acks: how long after the tap arrived


class Hub:
    def __init__(self, config, live, pin: str | None = None, tokens: dict[int, str] | None = None,
                 keys: dict[int, str] | None = None, spent=(), revoked=(), host_key: str | None = None):
        self.config = config
        self.live = live
        # the phones' nights run their full time (LiveSession's fixed night steps): a pause there
        # would make a step longer and say "The game is paused." into the night, so no host —
        # this screen's or the console's — pauses a phone table's night
        live.full_nights = True
        section = config.section("companion")
        self.votes_on_phones = bool(section["votes"])
        self.ack_delay = config.section("night")["ack_ms"] / 1000.0
        self.pin = pin or section["pin"] or f"{secrets.randbelow(10**6):06d}"
        # the host's key: the link printed on the narrator's terminal carries it, and it alone (or
        # the PIN) opens the host screen — where a connection comes from proves nothing
        self.host_key = host_key or secrets.token_urlsafe(24)
        self.answer_size = answer_size(config.players)
        seats = range(1, config.seats + 1)
        # a fresh one-time link per seat per game: the phone that opens it gets its own device key,
        # and the link is spent; the device key is from then on the only proof of the seat
        self.seat_tokens: dict[int, str] = tokens or {s: secrets.token_urlsafe(16) for s in seats}
        self._by_token = {t: s for s, t in self.seat_tokens.items()}
        self.spent: set[str] = set(spent)
        self.device_keys: dict[int, str] = dict(keys or {})
        self._by_key = {k: s for s, k in self.device_keys.items()}
        self.revoked: set[str] = set(revoked)  # keys of phones a seat was moved away from
        self.base_url = ""  # for the links the host re-issues
        self.cards_page: str | None = None  # the printable seat cards' file, kept with the tokens for a resume
        self.on_secrets = None  # called when tokens or keys change (the server keeps them for resume)
        # called with the seat whose link was re-issued: the printable cards get its new link. Returns
        # what went wrong, for the host who asked (None: done, or there is no page)
        self.on_reissue = None
        self.on_game_over = None
        self.tap_burst, self.tap_rate = TAP_BURST, TAP_RATE  # the bench lifts them to measure the server
        self._pin_fails: dict[str, tuple[int, float]] = {}  # address -> (wrong PINs, locked until)
        self._pin_wrong = 0  # wrong PINs from every address together
        self._pin_locked_until = 0.0  # the PIN itself is locked until then (PIN_BUDGET)
        self._log_due: dict[int | None, tuple[float, dict[str, int]]] = {}
        self.phones: dict[int, Conn] = {}
        self.hosts: set[Conn] = set()
        self.last_n: dict[int, int] = {s: 0 for s in seats}
        self.notes: dict[int, dict] = {}  # the last private line of each seat since dusk, for reconnects
        # seat -> (epoch, its answer that stands this step or ballot, the (target, answer) it answered)
        self._standing: dict[int, tuple[int, str, tuple]] = {}
        # seat -> (epoch, the button its last accepted tap chose): a reloaded page marks it again
        self._chosen: dict[int, tuple[int, str]] = {}
        for t in getattr(live, "told_tonight", ()):  # a resumed night: each phone gets its own line back
            self.notes[t.seat] = {"t": "note", "ok": True, "text": self.named(t.line, t.args, live.voice.render(t.line, t.args))}
        self.pending: dict[int, deque[Pending]] = {s: deque() for s in seats}
        # counts phases/steps: a tap names the epoch it was made in. It starts from the clock (a
        # tenth of a second), not 0: a game resumed after a crash must not name a screen as the
        # phones' last one before it did — a page that thinks it is on the same screen keeps that
        # screen's buttons and answer, and a tap made before the crash would count on the new one
        self.epoch = int(time.time() * 10)
        self._resuming = False
        self.caption = ""
        # the narrator's words of one moment (every line one input or timer made him say): the
        # phones' caption. Only the last line of a dawn lost the news — "Spelare 10 lämnar oss.",
        # "Det skedde ett mordförsök i natt" — under "Dagen börjar: …"
        self._caption_lines: list[str] = []
        self._caption_named: set[int] = set()  # the seats the caption has named so far
        self._caption_shown = True
        self.timer_name: str | None = None
        self.timer_seconds = 0
        self.refused: list[tuple[str, int | None]] = []  # (reason, seat) — never shown to phones
        self.sent: list[Sent] = []
        self.record_sent = False  # tests turn this on
        self._batch = 0
        self._current: Pending | None = None
        self._last_reject: tuple[bool, str] | None = None
        self._private: list[tuple[int, str, bool]] = []
        self._flush_scheduled = False
        self._dirty = False
        self._hosts_due = False  # a line for the host screens alone: they get a frame, no phone does
        self._deal_roles = False
        self._says_since_timer: list[str] = []
        self.winner_text: str | None = None  # the winner as the narrator announced it
        # set when every seat has a phone, or when the host presses Start: the deal may come now
        self.table_ready = asyncio.Event()
        # each seat's night findings, {(night, step): text}: shown only inside the held-down role area
        self.checks: dict[int, dict[tuple[int, str], str]] = {s: {} for s in seats}
        self._role_size = ROLE_FRAME
        self._roles_epoch = -1
        self._sig: tuple | None = None
        # classic's calls in turn on the phones: the screen (epoch) of each call -> the candidate it
        # called, this round's, so a tap from a call that has closed is told so by name
        self._calls: dict[int, int] = {}
        self._listed: dict[str, str] | None = None  # the game report's words, for the list of roles
        self._extension_epoch = -1  # the screen on which a phone last asked for the time extension
        # the phones' taps on the question waiting for their Extend to be applied: each is answered
        # on the screen the answer leads to (the extension), never on the question that is gone
        self._extension_asking: list[asyncio.Future] = []
        self._extend_on = -1  # the screen an Extend was journaled on (from any input)
        self._offer_granted = -1  # the question's screen whose extension the phones' request began
        self._offer_taken = -1  # the question's screen whose extension another input's request began
        self._host_pending: list[tuple[dict, Conn]] = []  # host-recorded votes on their way to the game
        self._voted: dict[int, int] = {}  # seat -> the screen (epoch) of its last day vote, from any input
        # seat -> (screen, (target, answer), "phone" or "host", decided): the day vote the game
        # recorded for it on that screen and whose it was — his phone's, or the host's (his screen,
        # the console) for him — and whether it was a dead decider's decision (grundregeln's
        # tie-break, seed 003). The answer to his tap says this, whatever raced it: never a guess
        # from the tap it answers
        self._cast: dict[int, tuple[int, tuple, str, bool]] = {}
        # seat -> (the vote's round, the seat he voted for, his yes or no, "phone" or "host"): his
        # vote in the vote that runs, as the core recorded it (a raised hand typed as "yes" is the
        # name called), and whose it was, for the line on his own phone that names it ("… The host
        # recorded it for you."). Forgotten with the round, whose and all: a vote typed later on a
        # screen that asks no vote never reads an earlier round's "host". A resumed game's votes
        # come from its replay, whose from the journal's note (an older journal's: his phone's)
        self._given: dict[int, tuple[str, int | None, bool | None, str]] = {}
        self._own_due: set[int] = set()  # seats whose own screen changed (his vote is in): sent alone
        for entry in getattr(live, "replayed_records", ()):
            self._note_vote(entry, entry.get("by"))
        self._caption_before: str | None = None
        self._caption_paused: str | None = None  # the caption a pause covered: back at resume
        self._extend_mine = False  # the Extend being applied now is the phones' own
        # the ready phase between the deal and night zero: roles the adapter dealt, seats that saw theirs
        self.dealt: dict[int, str] | None = None
        self.cards_deal = False
        self.ready: set[int] = set()
        self.all_ready = asyncio.Event()
        # after the result the pages stay served until the host closes the game
        self.closed = asyncio.Event()
        # a resumed step's private answers are that step's answers again: a phone that comes back
        # reads its answer (the Sheriff's check) without tapping again. The screen is named now, so
        # the answers name it, and the first flush does not count it as a new one
        in_step = getattr(live, "told_in_step", ())
        if in_step and self.game.phase() == "night":
            self._new_screen()
            for t in in_step:
                text = self.named(t.line, t.args, live.voice.render(t.line, t.args))
                self.notes[t.seat] = {"t": "note", "ok": True, "text": text, "epoch": self.epoch}

    # ------------------------------------------------------------------ sending
    @property
    def game(self):
        return self.live.game

    def _send(self, seat: int, frame: dict, delay: float | None = None, size: int | None = None) -> None:
        conn = self.phones.get(seat)
        # an answer or a note may name a player (a check result): its size is the same whoever it names
        text = pad(frame, size or (self.answer_size if frame["t"] in ("ack", "note") else FRAME))
        if self.record_sent:
            self.sent.append(Sent(seat, self._batch, frame["t"], len(text.encode("utf-8")), delay))
        if conn is not None:
            conn.send(text)

    def _send_hosts(self) -> None:
        if not self.hosts:
            return
        text = json.dumps(self.host_frame(), ensure_ascii=False)
        for conn in list(self.hosts):
            conn.send(text)

    def seats(self) -> range:
        return range(1, self.config.seats + 1)

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

    def names(self) -> dict[str, str]:
        return {str(s): n for s, n in sorted(self.config.players.items())}

    def seat_label(self, seat) -> str:
        """A seat as the phones and the host screen name it: its number, and its player's name
        when it has one ("7 (Ann)"). The one place both pages get their labels from."""
        return naming.seat_label(self.config.players, seat)

    def labels(self) -> dict[str, str]:
        """Every seat's label, for the pages' own lists (the final roles, the host's fouls)."""
        return {str(s): self.seat_label(s) for s in self.seats()}

    def named(self, line: str, args: dict, text: str | None, inside: bool = False,
              once: set[int] | None = None, template: str | None = None) -> str:
        """The narrator's line as a phone shows it: every seat it names with its player's name,
        worded as the console words it (narrator/naming.py).
        `once`: the seats named in the lines before (one caption); those keep their number only.
        `template`: the screen's own words for the line ([phone] host_<line>), put together the same way."""
        return naming.named(self.live.voice, self.config.players, line, args, text, inside=inside, once=once, template=template)

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
        return self.game.ACCUSING

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
            return self.word("voted_pointing" if kind == "pointing" else "voted_for", seat=self.seat_label(target)) + by_host
        key = {"support_vote": "voted_support_", "execution_vote": "voted_execution_", "all_leave": "voted_all_leave_"}
        return self.word(key.get(kind, "voted_") + ("yes" if answer else "no"), seat=self.seat_label(self._subject())) + by_host

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
            round_ = entry.get("round") or ("all_leave" if target is None else "vote")
            self._given[entry["voter"]] = (str(round_), target, answer, "host" if by == "host" else "phone")
            return True
        return False

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

    # ------------------------------------------------------------------ words in the table's language
    def _phone_template(self, key: str) -> str | None:
        """A [phone] template of the table's language, English when the voice file lacks it, None
        when neither has it."""
        return self.live.voice.phone.get(key) or load_voice("en").phone.get(key)

    def word(self, key: str, **args) -> str:
        """A [phone] string of the table's language (English when the voice file lacks it)."""
        template = self._phone_template(key) or key
        # str.format ignores arguments a language does not use; a seat's article is put in by the voice
        return self.live.voice.words(template, args)

    def page_words(self) -> dict[str, str]:
        """Every [phone] string, for the pages to show before and between frames."""
        words = {**load_voice("en").phone, **self.live.voice.phone}
        if self.accusing():
            # one word for one thing: the host's row and button say what the phones say
            words["host_nominations"], words["host_nominate"] = words["host_accused"], words["host_accuse"]
        if self.game.NOMINATOR_NAMED:
            # seed 000: the nomination is its nominator's, whenever he made it («avnominera»), not
            # the nomination of this speech as in classic
            words["host_revoke"] = words["host_withdraw"]
        return words

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

    def _host_word(self, key: str, **args) -> str:
        """The host screen's own words for a [phone] line where it has them, else the phones'."""
        return self.word("host_" + key, **args) if self._phone_template("host_" + key) else self.word(key, **args)

    def phase_winner(self) -> str:
        return self.winner_text or self.word("winner_" + str(self.game.winner))

    def _subject(self):
        """The one player the current day state is about (the game's `subject`), for state lines
        that name him; "" when there is none."""
        seat = self.game.subject()
        return "" if seat is None else seat

    def _role_names(self, view: dict) -> dict[str, str] | None:
        if "roles" not in view:
            return None  # only at the end, when the narrator announces them too
        return {str(s): self.listed_role(r) for s, r in view["roles"].items()}

    def listed_role(self, role: str) -> str:
        """A role as a list of seats names it ("6: Bybo"), the game report's word; the narrator's
        own word is for sentences ("Du är en bybo") and read "6: en bybo", "4: sheriffen"."""
        if self._listed is None:
            from ..report.page import report_words

            self._listed = report_words(self.live.voice.lang)
        return self._listed.get("role_" + role) or self._role_name(role)

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
                "checks": checks}

    def _you_are(self, role: str | None) -> str | None:
        """The sentence the held-down area shows. A role that is a team, not a person, reads as one:
        Swedish players belong to the mafia («Du tillhör maffian», seed 000: «är i maffialaget»),
        never «Du är maffia» — a [phone] `you_are_<role>` of the table's language says so."""
        if role is None:
            return None
        own = self.live.voice.phone.get("you_are_" + role)
        return own if own else self.word("you_are", role=self._role_name(role))

    def _role_text(self, seat: int) -> str:
        """A role frame padded to the table's role size, the same for every seat (grown if needed)."""
        return pad(self.role_frame(seat), self._role_size)

    def _send_roles(self) -> None:
        """Every seat's role frame (with its checks), all the same size, in one batch."""
        frames = {s: self.role_frame(s) for s in self.seats()}
        longest = max(len(json.dumps(f, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) for f in frames.values())
        while self._role_size < longest + 16:
            self._role_size += FRAME
        for s, f in frames.items():
            self._send(s, f, size=self._role_size)

    def _role_name(self, role: str | None) -> str | None:
        if role is None:
            return None
        key = "role_" + role
        return self.live.voice.render(key, {}) if key in self.live.voice.lines else role

    def host_frame(self) -> dict:
        g = self.game
        m = g.moment()
        view = g.public_view()
        remaining = self.live.timer_remaining()
        return {
            "t": "host",
            "seats": self.config.seats,
            "view": {k: (dict((str(a), b) for a, b in v.items()) if isinstance(v, dict) else v) for k, v in view.items()}
            | {"nominations": list(m.nominations)},
            "step": g.step.name if g.step is not None else None,
            "night": g.night_no if m.phase == "night" else None,  # its number beside a night's heading
            "phase": self.phase_text(host=True),
            "role_names": self._role_names(view),
            "names": self.names(),
            # the host screen's lists name seats as the phones do: labels and the nominees' line
            # come from here, never put together by the page
            "labels": self.labels(),
            "nominees_text": ", ".join(self.seat_label(s) for s in m.nominations),
            "ballot": self.ballot(),
            "caption": self.caption,
            "timer": self.timer_name,
            "remaining": round(remaining, 1) if remaining is not None and self.timer_name else None,
            "day_held": self.day_held(),
            "paused": bool(self.live.paused),
            "phones": sorted(s for s, c in self.phones.items() if not c.closed),
            "ready": sorted(self.ready) if self.dealt is not None and m.phase == "setup" else None,
            "winner_text": self.phase_winner() if m.phase == "over" else None,
            "closed": self.closed.is_set(),
            "awaiting": self.host_awaiting(),
            "awaiting_votes": self.host_awaiting_votes(),
            "report_url": REPORT_URL if m.phase == "over" else None,
            # the referee's fouls, disqualification and team defeat (classic, seed 004 §5-7): the
            # other rule systems have none, and their screen shows no such buttons
            "penalties": m.penalties,
            # tonight's fouls and dismissals, the table hears them in the morning: shown to the host
            # alone until then, each as it was confirmed to him (also after a reload or a resume)
            "held": [self.named(line, args, self.live.voice.render(line, args)) for line, args in g.held_for_host()],
            # seed 000: the screen asks who nominates (and whose nomination is withdrawn) beside the seat
            "nominator": m.nominator_named,
            "controls": self.host_controls(m),
            # the answers this screen may record for a seat the game calls on now (a player without
            # a phone): the same moments his phone would have buttons, never at night
            "proxy": self.host_votes(m),
            # hands by day at a table whose phones do not vote: the count waits for the scorer's
            # line, and the host may give it here
            "hands": self.host_hands(m),
            # End speech where somebody holds the floor; where nobody does (grundregeln's
            # discussion, hungariq's debate) the same button ends the discussion, and says so
            "end_speech_label": self.word("host_end_speech" if g.floor is not None else "host_end_discussion"),
        }

    def host_controls(self, m: Moment | None = None) -> list[str]:
        """The host screen's buttons now: the page shows these and no other, and the server takes
        no other action from it (`_host_action`). What the table's rules answer in this very state
        (`host_offers`); Pause while the game runs, never at night (its steps run their full time),
        Resume only while paused — and in a pause nothing else: nothing changes the game then.
        Reissuing a seat's link is the phones', not the game's, and always there."""
        m, live = m or self.game.moment(), self.live
        if m.phase in ("setup", "over"):
            return ["reissue"]
        if live.paused:
            return ["resume", "reissue"]
        night = m.phase == "night" and live.pause_refusal("pause") == "pause_at_night"
        # the moment's host actions: what the rules answer now, with the day's time extension
        # while the table is asked for it (seed 000 Tid), for a player who asks aloud and has no phone
        return [*([] if night else ["pause"]), *m.host, "reissue"]

    # the host screen's words above a seat's buttons, by how the moment's answer is given
    PROXY_WORDS = {"point": "host_point_for", "hand": "host_hand_for", "choose": "host_choose_for"}

    def host_votes(self, m: Moment | None = None) -> dict | None:
        """What the host may record for a seat now, exactly where the game takes a tap from that
        seat (a day vote on the phones, a yes/no question, grundregeln's pointing, a Swedish hand,
        a kamikaze's choice): the seats it calls on, each with the words above its buttons and
        whether its phone is connected. Never at night (a tap there would show the host who is
        awake), never in a pause, never the time extension (the host has his own button for it)."""
        m = m or self.game.moment()
        if m.phase != "day" or self.live.paused:
            return None
        ask, choices = self._ask(m)
        if ask not in ("seat", "yes_no"):
            return None
        seats = [s for s in m.voters if _is_int(s) and self._voted.get(s) != self.epoch]
        if not seats:
            return None
        key = self.PROXY_WORDS.get(m.answer, "host_vote_for")
        connected = {s for s, c in self.phones.items() if not c.closed}
        rows = []
        for s in seats:
            row = {"seat": s, "text": self._seat_words(key, s), "phone": s in connected, "barred": self._barred(s, ask, m)}
            if row["phone"]:
                row["confirm"] = self._seat_words("host_confirm_vote_connected", s)
            rows.append(row)
        # phone-less seats first: they are what the host is there for
        rows.sort(key=lambda r: r["phone"])
        return {"epoch": self.epoch, "ask": ask, "choices": choices,
                "labels": {str(c): self.seat_label(c) for c in choices}, "rows": rows}

    def host_hands(self, m: Moment | None = None) -> dict | None:
        """The hands the host may record now: where the phones do not vote and the hand call's time
        is over, its count waiting for the scorer's line (LiveSession.hands_waiting). A table whose
        terminal nobody watches is not stuck: the host taps the seats that raised a hand, then
        Confirm (or Nobody). One row of seats per candidate voted on: one for the name called (or
        the yes), one for each where several are voted on in one window (classic's `together`,
        grundregeln's pointing and votes) — there each seat votes once (seed 004 §4.4 «Each player
        can only cast their vote for only one player», seed 003 «zeigt jeder Spieler … auf einen
        Mitspieler»), so the page lets a seat stand in one row only. The rows hold the votes the
        game has already (`cast`: a `tap` or a `7: 3 5` line typed at the console), fixed."""
        live, g = self.live, self.game
        waiting = getattr(live, "hands_waiting", lambda: False)
        if self.votes_on_phones or live.paused or not waiting():
            return None
        m = m or g.moment()
        kind, candidates = g.vote_choices()
        voters = [s for s in self._called_voters() if _is_int(s)]
        cast = g.ballot_cast()
        several = kind == "seat" and len(candidates) > 1
        pointing = m.answer == "point"
        if several:
            text = self.word("host_hands_awaited_pointing" if pointing else "host_hands_awaited_several")
            if m.decider is not None and voters:
                # seed 003: the last dead decides alone — his seat under the player he names
                text = self._seat_words("host_hands_awaited_decider", voters[0])
            row_words = "host_hands_row_point" if pointing else "host_hands_row"
            rows = [{"seat": c, "text": self._seat_words(row_words, c),
                     "cast": [v for v, (t, _) in cast.items() if t == c]} for c in candidates]
        else:
            target = candidates[0] if kind == "seat" else None
            text = self._seat_words("host_hands_awaited", target) if kind == "seat" else self.word("host_hands_awaited_yes")
            rows = [{"seat": target, "text": None,
                     "cast": [v for v, (t, yes) in cast.items() if (t == target if kind == "seat" else yes)]}]
        shown = {*voters, *candidates, *(v for r in rows for v in r["cast"])}
        return {"call": live.hand_call(), "epoch": self.epoch, "text": text, "several": several,
                "seats": voters, "rows": rows,
                # a seat's own row in the pointing (seed 003: one points at a fellow player)
                "barred": {str(v): self._barred(v, "seat", m) for v in voters if self._barred(v, "seat", m)},
                "labels": {str(s): self.seat_label(s) for s in sorted(shown)}}

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

    def hands_awaited(self) -> None:
        """The hand call's time is over and its count waits for the scorer's line: the host screens
        say so, and offer the hands."""
        self._hosts_due = True
        self._dirty = True  # the phones too: "The host is entering the votes."
        self._schedule_flush()

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

    def _seat_words(self, key: str, seat: int) -> str:
        """A [phone] line about one seat, naming its player as the phones do ("10. játékos (Ann)")."""
        return naming.seat_words(self.live.voice, self.config.players, key, self._phone_template(key), seat)

    def _host_vote_refused(self, conn: Conn, key: str, seat) -> None:
        self.refuse(f"host vote: {key}", seat if _is_int(seat) else None)
        text = self._seat_words(key, seat) if _is_int(seat) else self.word(key, seat="?")
        conn.send(json.dumps({"t": "refused", "text": text}, ensure_ascii=False))

    def host_awaiting(self) -> str:
        """What the game waits for, in the host screen's words: what the host can do there (its
        End speech button), never the console's commands ("thank you", "timeout") he cannot type."""
        if self.live.paused:
            # in a pause the game waits for nothing but the host: the votes or the speech it
            # waited for are held, and his Resume button (named as it reads) goes on
            return self.live.voice.fill(self._phone_template("host_waiting_paused"),
                                        {"button": self._phone_template("host_resume")}, capital=False)
        hands = self._hands_awaiting()
        if hands is not None:
            return hands
        kind, args = self.game.awaiting()
        key = "host_" + kind
        if kind == "awaiting_timeout" and self.game.floor is None and "end_speech" in self.game.host_offers():
            key = "host_awaiting_discussion"  # the time, or his button that ends the discussion now
        elif kind == "awaiting_timeout" and self._extension_offered():
            key = "host_awaiting_extension"  # the time, or somebody's request: a phone's, a voice's, his button
        template = self._phone_template(key)
        if template is None:  # the deal, the end: nothing to type in these words either
            return self.named(kind, args, self.live.session.awaiting_text(), inside=True)
        try:
            text = self.live.voice.fill(template, args, capital=False)
        except (KeyError, ValueError, IndexError):
            return ""
        return self.named(kind, args, text, inside=True, template=template)

    def _hands_awaiting(self) -> str | None:
        """Where the phones do not vote and a hand call's time is over, what the count waits for:
        the scorer's (or the host's) entry of the votes, not "votes from seats 1 … 10" — nobody
        at the table has a vote left to give, the panel above says what to tap."""
        waiting = getattr(self.live, "hands_waiting", lambda: False)
        if self.votes_on_phones or not waiting():
            return None
        kind, candidates = self.game.vote_choices()
        m = self.game.moment()
        if kind == "seat" and len(candidates) != 1:
            key, args = "host_awaiting_hands_pointing" if m.answer == "point" else "host_awaiting_hands_several", {}
            if m.decider is not None:
                key, args = "host_awaiting_hands_decider", {"seat": m.decider}
        elif kind == "seat":
            key, args = "host_awaiting_hands", {"seat": candidates[0]}
        else:
            key, args = "host_awaiting_hands_yes", {}
        template = self._phone_template(key)
        text = self.live.voice.fill(template, args, capital=False)
        return self.named(key, args, text, inside=True, template=template)

    def host_awaiting_votes(self) -> dict | None:
        """The voters the game waits for, for the host screen to list compactly: the line's words
        around the seats, and each seat with its player's name. Ten forty-letter names in one line
        ("votes from seats 1 (…), 2 (…), …") filled a small screen; the page shows each seat's
        number first and the name cut to fit, the whole name a tap away."""
        if self.live.paused or self._hands_awaiting() is not None:
            return None
        kind, args = self.game.awaiting()
        template = self._phone_template("host_" + kind)
        if kind != "awaiting_votes" or template is None or "{seats}" not in template:
            return None
        head, _, tail = template.partition("{seats}")
        try:
            head, tail = (self.live.voice.fill(t, {}, capital=False) if t else "" for t in (head, tail))
        except (KeyError, ValueError, IndexError):
            return None
        players = self.config.players
        return {"head": head, "tail": tail,
                "seats": [[s, players.get(s, "")] for s in args.get("seats", []) if _is_int(s)]}

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

    def _hosts_refused(self, text: str) -> None:
        frame = json.dumps({"t": "refused", "text": text}, ensure_ascii=False)
        for conn in list(self.hosts):
            conn.send(frame)

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
            self._sig = sig
            self.epoch += 1
            self._dirty = True
            if m.phase == "night" or m.calling == 0:
                self._calls.clear()  # a new round: the last one's calls are no more of it
        if self.votes_on_phones and m.called:
            self._calls[self.epoch] = m.called[m.calling]  # every screen of the call (its timer's too)

    def _private_line(self, seat: int, text: str, ok: bool) -> None:
        cur = self._current
        if cur is not None and cur.seat == seat:
            cur.answers.append((ok, text))
            return
        self._private.append((seat, text, ok))

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

    def _day_vote_screen(self) -> bool:
        """The last screen sent asked for a day vote (not a night step, not a kamikaze's choice)."""
        sig = self._sig
        return sig is not None and sig[5] == "awaiting_votes" and sig[0] not in ("night", "kamikaze")

    def _deciding(self) -> bool:
        """The last screen sent asked the last dead to decide a tie (grundregeln, seed 003)."""
        return self._sig is not None and self._sig[0] == "tie_break"

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

    def _resolve(self, p: Pending) -> None:
        if self._current is p:
            self._current = None
        if not p.future.done():
            p.future.set_result(p.answers)

    def _schedule_flush(self) -> None:
        if not self._flush_scheduled and self.live.loop is not None:
            self._flush_scheduled = True
            self.live.loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send what one dispatch changed, to every phone at once."""
        self._flush_scheduled = False
        self._resuming = False
        self._batch += 1
        self._caption_shown = True  # a line said later by itself (a notice) begins the next caption
        roles_due = self._deal_roles or (self._dirty and self._roles_epoch != self.epoch and self.game.phase() != "setup")
        if roles_due:
            # at every new screen all seats get their role frame, the same size at the same moment:
            # it carries the findings of a finished step into the held-down area and nobody's phone differs
            self._deal_roles = False
            self._roles_epoch = self.epoch
            self._send_roles()
        if self._private:
            private, self._private = self._private, []
            for seat, text, ok in private:
                for s in self.seats():
                    if s == seat:
                        frame = {"t": "note", "ok": ok, "text": text, "epoch": self.epoch, "chosen": None}
                        self.notes[s] = frame
                    else:
                        frame = {"t": "note", "ok": True, "text": "", "epoch": self.epoch, "chosen": None}
                    self._send(s, frame)
        if self._hosts_due and not self._dirty:
            self._send_hosts()
        self._hosts_due = False
        own, self._own_due = self._own_due, set()
        if not self._dirty:
            for seat in sorted(own):
                self._send(seat, self.screen_frame(seat))
        if self._dirty:
            self._dirty = False
            remaining = self._remaining()  # once: every seat's frame says the same time
            frames = {s: self.screen_frame(s, remaining) for s in self.seats()}
            # the frames differ only in what is each seat's own ("you": 9 or 10): padded to the
            # longest, none of them can cross a FRAME boundary the others do not
            size = max(len(json.dumps(f, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) for f in frames.values())
            size = -(-(size + 16) // FRAME) * FRAME
            for s, f in frames.items():
                self._send(s, f, size=size)
            self._send_hosts()

    # ------------------------------------------------------------------ phones (loop thread)
    def hello(self, conn: Conn, msg) -> bool:
        """A phone or host screen introduces itself; False: refused (the server closes it)."""
        if not isinstance(msg, dict):
            self.refuse("bad hello", None, conn.addr)
            return False
        if msg.get("t") == "host":
            return self._host_login(conn, msg.get("pin"), msg.get("key"))
        token, key = msg.get("token"), msg.get("key")
        token = token if isinstance(token, str) else None
        key = key if isinstance(key, str) else None
        new_key = None
        if token is not None and token in self._by_token and token not in self.spent:
            # a link opened for the first time: this phone takes the seat, and the link is spent
            seat = self._by_token[token]
            self.spent.add(token)
            new_key = secrets.token_urlsafe(16)
            self._set_key(seat, new_key)
        elif key is not None and key in self._by_key:
            seat = self._by_key[key]
        else:
            taken = token in self._by_token if token is not None else key in self.revoked
            self.refuse("link already used" if taken else "unknown token", None, conn.addr)
            # a phone that comes back with only the key of an earlier game was never shown a link
            # here: it is told to scan its seat, not that "this link" is wrong
            word = "seat_taken" if taken else "link_invalid" if token is not None else "link_invalid_rescan"
            conn.send(pad({"t": "error", "text": self.word(word)}))
            if taken:
                conn.close(CLOSE_TAKEN)
            return False
        old = self.phones.get(seat)
        if old is not None and old is not conn:
            old.close(4000)  # one phone per seat: the same phone's newest connection wins
        conn.seat = seat
        self.phones[seat] = conn
        welcome = {"t": "welcome", "seat": seat, "n": self.last_n[seat], "ack_ms": int(self.ack_delay * 1000)}
        if new_key is not None:
            welcome["key"] = new_key  # the phone keeps it and reconnects with it
        conn.send(pad(welcome))
        conn.send(self._role_text(seat))
        conn.send(pad(self.screen_frame(seat)))
        # always a note, empty when there is none: the frames of a reconnect do not depend on the role;
        # a private answer comes back only within its own step (afterwards it is held down, in the role frame)
        note = self.notes.get(seat)
        if self.game.phase() != "night":
            # by day the answer that stands on this screen (a vote, the time extension asked for)
            # comes back with its marked button: a phone that reloads after voting reads that its
            # vote is in, not an open ballot (votes are public: nothing to hide by day)
            standing = self._standing.get(seat)
            text = standing[1] if standing and standing[0] == self.epoch else ""
            if self.vote_given(seat) is not None:
                text = ""  # his vote is in the badge above the table, said once
            note = {"t": "note", "ok": True, "text": text, "epoch": self.epoch}
        elif note is None or note.get("epoch") != self.epoch:
            note = {"t": "note", "ok": True, "text": "", "epoch": self.epoch}
        chosen = self._chosen.get(seat)
        # the button this seat chose on this screen, marked again on its own page (None on all others)
        note = dict(note, chosen=chosen[1] if chosen is not None and chosen[0] == self.epoch else None)
        conn.send(pad(note, self.answer_size))
        if len(self.phones) == self.config.seats:
            self.table_ready.set()
        self._send_hosts()
        return True

    def _set_key(self, seat: int, key: str | None) -> None:
        old = self.device_keys.pop(seat, None)
        if old is not None:
            self._by_key.pop(old, None)
            self.revoked.add(old)
        if key is not None:
            self.device_keys[seat] = key
            self._by_key[key] = seat
        if self.on_secrets is not None:
            self.on_secrets()

    def reissue(self, seat: int) -> str:
        """A new one-time link for `seat`: the phone that held it is sent away and its key revoked."""
        old = self.seat_tokens.get(seat)
        if old is not None:
            self.spent.add(old)
        token = secrets.token_urlsafe(16)
        self.seat_tokens[seat] = token
        self._by_token[token] = seat
        self.last_n[seat] = 0  # the new phone counts its taps from the start
        self._set_key(seat, None)
        phone = self.phones.pop(seat, None)
        if phone is not None:
            phone.close(CLOSE_TAKEN)  # its page says: taken on another phone, ask the host
        self._send_hosts()
        return f"{self.base_url}/#{token}"

    def _host_login(self, conn: Conn, pin, key=None) -> bool:
        """The host screen opens for whoever proves the host's secret: the key in the link the
        terminal printed, or the PIN (a tablet). Never for where a connection comes from — a web
        page on the narrator's own machine connects from 127.0.0.1 as well."""
        if isinstance(key, str) and secrets.compare_digest(key.encode(), self.host_key.encode()):
            return self._host_in(conn)
        addr = conn.addr or "?"
        if key is not None:
            # a link of another game (or a guess): not a PIN guess, and the page asks for the PIN
            self.refuse("unknown token", None, addr)
            conn.send(json.dumps({"t": "error", "text": self.word("wrong_pin")}))
            return False
        now = self.live.loop.time()
        fails, until = self._pin_fails.get(addr, (0, 0.0))
        if now < until or now < self._pin_locked_until:
            self.refuse("host locked", None, addr)
            conn.send(json.dumps({"t": "error", "text": self.word("host_locked")}))
            return False
        if pin is None:
            # the page's first try without a key or a PIN: not a guess
            conn.send(json.dumps({"t": "error", "text": self.word("wrong_pin")}))
            return False
        if not isinstance(pin, str) or not secrets.compare_digest(pin.encode(), self.pin.encode()):
            # the address that guesses waits, longer each time; and past PIN_BUDGET wrong PINs from
            # all addresses together the PIN itself waits, so no number of addresses buys more
            # guesses. The terminal's link still opens the host screen meanwhile
            fails += 1
            if fails >= HOST_TRIES:
                until = now + min(HOST_LOCK * 2 ** (fails - HOST_TRIES), HOST_LOCK_MAX)
            self._pin_fails.pop(addr, None)
            if len(self._pin_fails) >= 1000:
                self._pin_fails.pop(next(iter(self._pin_fails)))  # the budget below holds all the same
            self._pin_fails[addr] = (fails, until)
            self._pin_wrong += 1
            self.refuse("wrong host PIN", None, addr)
            if self._pin_wrong >= PIN_BUDGET:
                lock = min(HOST_LOCK * 2 ** (self._pin_wrong - PIN_BUDGET), HOST_LOCK_MAX)
                self._pin_locked_until = now + lock
                log.warning("%s", self.said("companion_pin_locked", seconds=int(lock)))
            conn.send(json.dumps({"t": "error", "text": self.word("wrong_pin")}))
            return False
        self._pin_fails.pop(addr, None)
        return self._host_in(conn)

    def _host_in(self, conn: Conn) -> bool:
        if len(self.hosts) >= MAX_HOSTS:
            # every host screen gets every host frame: a hundred of them would cost the phones' answers
            self.refuse("too many host screens", None, conn.addr)
            conn.send(json.dumps({"t": "error", "text": self.word("host_locked")}))
            return False
        conn.host = True
        self.hosts.add(conn)
        conn.send(json.dumps(self.host_frame()))
        return True

    def gone(self, conn: Conn) -> None:
        conn.closed = True
        if conn.seat is not None and self.phones.get(conn.seat) is conn:
            del self.phones[conn.seat]
        self.hosts.discard(conn)
        self._send_hosts()

    def refuse(self, reason: str, seat: int | None, addr: str | None = None) -> None:
        if len(self.refused) < 10000:  # tests read it; a flood must not grow it without end
            self.refused.append((reason, seat))
        if seat is None and reason in STRANGER_REASONS:
            # anybody on the network can send this: the log file beside the journal has it, the
            # table's terminal does not (a lockout is said there once, when it begins)
            peers.info("refused: %s", reason, extra={"cause": reason, "peer": addr or "?"})
            return
        if seat is not None and self.game.phase() == "night" and seat in self.game.alive:
            # a living seat's phone sending at night is what an awake seat does: a console line
            # (or its moment) would tell the room who was awake. The dead's are theirs to read —
            # out is public, and asleep is no question for them.
            log.debug("companion: a night refusal kept off the console")
            return
        # one line per seat at most every LOG_EVERY seconds: a flood of refusals is one summary line
        loop = self.live.loop
        now = loop.time() if loop is not None else 0.0
        due, counts = self._log_due.get(seat, (0.0, {}))
        counts[reason] = counts.get(reason, 0) + 1
        if now >= due:
            self._log_refusals(seat, counts)
            counts = {}
            due = now + LOG_EVERY
        elif len(counts) == 1 and sum(counts.values()) == 1 and loop is not None:
            # the first one held back: whatever gathers until the window closes is logged then
            loop.call_later(due - now, self._flush_refusals, seat)
        self._log_due[seat] = (due, counts)

    def _flush_refusals(self, seat: int | None) -> None:
        due, counts = self._log_due.get(seat, (0.0, {}))
        if counts:
            self._log_refusals(seat, counts)
            self._log_due[seat] = (due, {})

    def _log_refusals(self, seat: int | None, counts: dict[str, int]) -> None:
        """One console line for what a seat (or a host screen, a stranger) sent that was not taken,
        in the table's language. The reasons are the refusals', worded the same whoever's seat it
        is (a flood is a flood, a screen from before is one, whatever the role)."""
        worded: dict[str, int] = {}
        for reason, n in counts.items():
            why = self.said("companion_why_" + REFUSAL_WORDS.get(reason, "host"))
            worded[why] = worded.get(why, 0) + n
        reasons = ", ".join(f"{r} ×{n}" if n > 1 else r for r, n in worded.items())
        if seat is None:
            log.warning("%s", self.said("companion_refused", reasons=reasons))
        else:
            log.warning("%s", self.said("companion_refused_seat", seat=seat, reasons=reasons))

    def said(self, key: str, **args) -> str:
        """A [console] line of the table's language, for what the companion tells the terminal."""
        return self.live.voice.console_text(key, args)

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
        if seat not in g.alive or seat in getattr(g, "votes", {}):
            return None
        if reason == "stale" and _is_int(epoch) and epoch in self._calls and self._calls.get(self.epoch) != self._calls[epoch]:
            called = self._calls[epoch]
            return called if target == called or target is None and answer is True else None
        m = g.moment()
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
        used = getattr(self.game, "extension_used", False)
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

    def _allowance(self, conn: Conn, now: float) -> bool:
        """The seat's token bucket: TAP_BURST at once, then TAP_RATE a second."""
        conn.tokens = min(float(self.tap_burst), conn.tokens + (now - conn.refilled) * self.tap_rate)
        conn.refilled = now
        if conn.tokens < 1.0:
            return False
        conn.tokens -= 1.0
        return True

    def _called_voters(self) -> list[int]:
        kind, args = self.game.awaiting()
        return list(args.get("seats", [])) if kind == "awaiting_votes" else []

    def _submit(self, event: Tap, future: asyncio.Future) -> Pending:
        p = Pending(event.seat, event_to_dict(event), future)
        self.pending[event.seat].append(p)
        self.live.submit_event(event, source="companion")
        return p

    def _line(self, key: str, default: str) -> str:
        voice = self.live.voice
        return voice.render(key, {}) if key in voice.lines else default

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
        if what in ("nominate", "revoke") and self.game.NOMINATOR_NAMED and not _is_int(by):
            # seed 000: only the nominator withdraws, and each has one nominee: the game must know whose
            return self._host_told(conn, what, "host_need_nominator" if what == "nominate" else "host_need_withdrawer",
                                   by=self.word("host_by"))
        if not self.game.NOMINATOR_NAMED:
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

    def close_game(self) -> None:
        """After the result: every page is told the game is closed, then the server may stop."""
        frame = {"t": "closed", "text": self.word("game_closed")}
        for s in self.seats():
            self._send(s, frame)
        for conn in list(self.hosts):
            conn.send(json.dumps(frame, ensure_ascii=False))
        self.closed.set()


def _choice(target, answer) -> str | None:
    """A tap's choice as the page names its button ("7", "yes")."""
    if target is not None:
        return str(target)
    if answer is not None:
        return "yes" if answer else "no"
    return None


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
