"""The leak-free transport: every frame to a phone, padded, and when it goes. No HTTP here.

At night, what a phone receives must not depend on the roles:

- Every frame to a phone is padded to a multiple of FRAME bytes (and the server turns
  WebSocket compression off), so sizes say nothing about the text inside.
- Public changes (a new step, the dawn) go to every phone in the same loop iteration (`flush`),
  each seat's frame padded to the table's longest.
- A night tap is answered by one `ack` frame `ack_ms` after it arrived, whoever sent it (taps.py).
  Only a tap from a seat that is awake now goes to the core; the core's answer (a shot taken, a
  check result, a private refusal) rides in that seat's ack, and every other tap gets a dummy ack
  of the same type and size at the same delay.
- A private line the core sends on its own (e.g. after a keypad or console tap) goes to its seat
  together with a same-size dummy `note` to every other phone.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field


FRAME = 1024  # every phone frame is padded to a multiple of this many bytes
ANSWER_WAIT = 2.0  # seconds: a core answer later than this is replaced by a neutral one
SEND_QUEUE = 256  # frames waiting for one connection: a client that stops reading is closed, not fed
TAP_BURST = 10  # taps a seat may send at once; then TAP_RATE a second (a human changes his mind
TAP_RATE = 4.0  # a few times a step): the excess of a flood is dropped before it costs anything
ROLE_FRAME = 4096  # role frames carry a seat's own checks too: padded larger, to the table's longest


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


def _choice(target, answer) -> str | None:
    """A tap's choice as the page names its button ("7", "yes")."""
    if target is not None:
        return str(target)
    if answer is not None:
        return "yes" if answer else "no"
    return None


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Transport:
    """Frames to the phones and host screens (`flush`, `_send`), padded and batched. Mixed into `Hub`
    (hub.py), whose state it shares."""

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

    def _send_roles(self) -> None:
        """Every seat's role frame (with its checks), all the same size, in one batch."""
        frames = {s: self.role_frame(s) for s in self.seats()}
        longest = max(len(json.dumps(f, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) for f in frames.values())
        while self._role_size < longest + 16:
            self._role_size += FRAME
        for s, f in frames.items():
            self._send(s, f, size=self._role_size)

    def _role_text(self, seat: int) -> str:
        """A role frame padded to the table's role size, the same for every seat (grown if needed)."""
        return pad(self.role_frame(seat), self._role_size)

    def _private_line(self, seat: int, text: str, ok: bool) -> None:
        cur = self._current
        if cur is not None and cur.seat == seat:
            cur.answers.append((ok, text))
            return
        self._private.append((seat, text, ok))

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

    def _hosts_refused(self, text: str) -> None:
        frame = json.dumps({"t": "refused", "text": text}, ensure_ascii=False)
        for conn in list(self.hosts):
            conn.send(frame)

    def game_stopped(self) -> None:
        """The game stops before the host closed it (Ctrl-C at the terminal, a failure, the end of
        the process): every host screen is told, before the server goes, so none goes on showing
        a running clock and taking buttons nobody hears. The phones see their connection lost."""
        if self.closed.is_set():
            return
        frame = json.dumps({"t": "stopped", "text": self.word("host_game_stopped")}, ensure_ascii=False)
        for conn in list(self.hosts):
            conn.send(frame)

    def close_game(self) -> None:
        """After the result: every page is told the game is closed, then the server may stop."""
        frame = {"t": "closed", "text": self.word("game_closed")}
        for s in self.seats():
            self._send(s, frame)
        for conn in list(self.hosts):
            conn.send(json.dumps(frame, ensure_ascii=False))
        self.closed.set()

