"""The companion's game side: which frame goes to which phone, and when. No HTTP here.

The hub is an output of the live session (`handle(effect, text)`, on the loop thread) and the
place the web server hands phone messages to (`hello`, `message`, also on the loop thread). It
keeps one rule above all: at night, what a phone receives must not depend on the roles.

`Hub` is the state of one table's companion; what it does is in one module per purpose:

- transport.py — the leak-free transport: frames padded, the same moment for every phone in one
  batch, the connection's queue;
- links.py — seats and links: one-time tokens, device keys, the host's key and PIN and its lockout;
- refusals.py — what was refused, and who may read it;
- taps.py — a phone's tap answered, at night always at the fixed delay;
- following.py — the game's output followed: captions, screen ids, the votes recorded;
- words.py, phone_screen.py, host_screen.py — the screens: the moment the rules publish
  (narrator/flow/moment.py) drawn per seat and for the host;
- host_actions.py — the host's buttons turned into the game's inputs.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import deque

from ..flow.moment import Moment
from .following import Following
from .host_actions import HostActions
from .host_screen import HostScreen
from .links import Links
from .phone_screen import PhoneScreens
from .refusals import Refusals
from .taps import Taps
from .transport import ROLE_FRAME, TAP_BURST, TAP_RATE, Conn, Pending, Sent, Transport, answer_size
from .words import Words

__all__ = ["Conn", "Hub", "Sent"]


class Hub(Transport, Links, Refusals, Words, PhoneScreens, HostScreen, HostActions, Following, Taps):
    """One table's companion: its seats, its connections and what each phone was last told."""

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
        self._sig_moment: Moment | None = None  # the moment of the last screen sent (`_sig`'s)
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

    def seats(self) -> range:
        return range(1, self.config.seats + 1)

