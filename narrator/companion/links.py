"""Seats and links: who may speak for a seat, and who for the host.

A fresh one-time link per seat per game; the phone that opens it gets its own device key and the
link is spent, the key is from then on the only proof of the seat. The host screen opens for the
host's key (the link the terminal printed) or the PIN, whose wrong guesses lock the address that
made them and, past a budget for all addresses together, the PIN itself. A seat's taps and a host
screen's messages have an allowance (token buckets); a host screen too many is refused.
"""

from __future__ import annotations

import json
import logging
import secrets

from .transport import Conn, pad

log = logging.getLogger("narrator.companion")

HOST_TRIES = 5  # wrong PINs from one address before that address waits HOST_LOCK seconds (doubling)
HOST_LOCK = 30.0
HOST_LOCK_MAX = 600.0
# wrong PINs from all addresses together before the PIN itself is locked (HOST_LOCK, doubling at
# each further wrong PIN): a guesser with a thousand addresses gets no more tries than one with one.
# The terminal's own link (the host key) still opens the host screen while the PIN is locked
PIN_BUDGET = 20
HOST_BURST = 20  # messages a host screen may send at once; then HOST_RATE a second (a person presses
HOST_RATE = 5.0  # a few buttons a second): the excess is dropped before it is even read
MAX_HOSTS = 8  # host screens open at once (a laptop, a tablet, a reload or two): each gets every host frame
N_AHEAD = 10000  # a tap's number may run ahead of the last one by this much, no more
CLOSE_TAKEN = 4409  # the phone's page says: this seat is taken on another phone, ask the host


class Links:
    """Who speaks for a seat or for the host (`hello`, `reissue`, the PIN's lockout, the tap
    allowance). Mixed into `Hub` (hub.py), whose state it shares."""

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

    def _allowance(self, conn: Conn, now: float) -> bool:
        """The seat's token bucket: TAP_BURST at once, then TAP_RATE a second."""
        conn.tokens = min(float(self.tap_burst), conn.tokens + (now - conn.refilled) * self.tap_rate)
        conn.refilled = now
        if conn.tokens < 1.0:
            return False
        conn.tokens -= 1.0
        return True

