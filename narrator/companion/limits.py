"""The web server's limits: connections per address and in all, new connections spread out at a
rate, silent ones closed, the process's file descriptors raised — so a flood of sockets from the
network never keeps the table's phones out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from .logs import _english

# the server's own logging: the log file beside the journal, never the table's terminal
server_log = logging.getLogger("narrator.companion.server")
PER_ADDRESS = 128  # open connections from one address (a table's phones each have their own)
# new connections from one address: this many at once, then this many a second (a page that
# reconnects does so every few hundred ms; a flood of handshakes would hold up the phones' answers)
CONNECT_BURST, CONNECT_RATE = 16, 20.0
SILENT_WAIT = 10.0  # seconds a new connection may stay silent before it is closed
BACKLOG = 64


class _Bucket:
    """A token bucket: `burst` at once, then `rate` a second."""

    def __init__(self, burst: float, rate: float, now: float):
        self.burst, self.rate, self.tokens, self.at = float(burst), float(rate), float(burst), now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def wait(self, now: float, longest: float) -> float | None:
        """A token now or later: the seconds until it is due (0: now), None when that is more
        than `longest` (the token is then not taken)."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        due = max(0.0, (1.0 - self.tokens) / self.rate)
        if due > longest:
            return None
        self.tokens -= 1.0
        return due


class ConnectionLimits:
    """Open connections per address and in all: a flood of idle sockets from one address is closed
    as it arrives and never uses up the process's file descriptors, so phones still get in."""

    def __init__(self, per_address: int, total: int, said=None):
        self.said = said or _english  # the table's [console] words for the line that says so
        self.per_address = per_address
        self.total = total
        self.open: dict[str, set] = {}
        self.refused = 0
        self.buckets: dict[str, _Bucket] = {}

    def admit(self, transport) -> float | None:
        """None: refused (over the caps, or so far over its address's rate that it would wait
        longer than SILENT_WAIT); else the seconds it waits before it is read. A burst of new
        connections from one address beyond CONNECT_BURST is not refused but spread out at
        CONNECT_RATE: its clients wait for their answer instead of connecting again at once, and
        the handshakes never crowd out the phones' answers."""
        peer = transport.get_extra_info("peername")
        addr = str(peer[0]) if peer else "?"
        mine = {t for t in self.open.get(addr, ()) if not t.is_closing()}
        count = len(mine) + sum(len(v) for a, v in self.open.items() if a != addr)
        now = time.monotonic()
        bucket = self.buckets.get(addr)
        if bucket is None:
            if len(self.buckets) > 10000:  # many addresses: the full buckets are forgotten
                self.buckets = {a: b for a, b in self.buckets.items() if b.tokens + (now - b.at) * b.rate < b.burst}
                if len(self.buckets) > 10000:
                    self.buckets.clear()  # that many addresses at once: the total cap holds them
            bucket = self.buckets[addr] = _Bucket(CONNECT_BURST, CONNECT_RATE, now)
        wait = bucket.wait(now, SILENT_WAIT) if len(mine) < self.per_address and count < self.total else None
        if wait is None:
            self.open[addr] = mine
            self.refused += 1
            if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
                server_log.warning("%s", self.said("companion_connections_refused", n=self.refused, address=addr),
                                   extra={"cause": "connections refused", "peer": addr})
            return None
        mine.add(transport)
        self.open[addr] = mine
        for a in [a for a, v in self.open.items() if a != addr and all(t.is_closing() for t in v)]:
            del self.open[a]
        return wait


def _capped_protocol(limits: ConnectionLimits):
    """uvicorn's HTTP protocol, refusing connections over the limits and closing silent ones."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    class Capped(AutoHTTPProtocol):
        _admitted = False
        _started = False
        _heard = False

        def connection_made(self, transport):
            wait = limits.admit(transport)
            if wait is None:
                transport.abort()  # frees the descriptor at once
                return
            self._admitted = True
            if wait <= 0:
                return self._start(transport)
            transport.pause_reading()  # it waits its turn, unread
            asyncio.get_running_loop().call_later(wait, self._start, transport)

        def _start(self, transport) -> None:
            if transport.is_closing():
                return
            self._started = True
            super().connection_made(transport)
            transport.resume_reading()
            asyncio.get_running_loop().call_later(SILENT_WAIT, self._silent, transport)

        def _silent(self, transport) -> None:
            # no whole request head in SILENT_WAIT seconds (silent, or a byte now and then: a
            # slowloris): closed. A WebSocket has left this protocol by then; a page was answered
            if transport.is_closing() or transport.get_protocol() is not self:
                return
            if not self._heard or getattr(self, "cycle", None) is None:
                transport.close()

        def data_received(self, data):
            self._heard = True
            super().data_received(data)

        def connection_lost(self, exc):
            if self._started:
                super().connection_lost(exc)

    return Capped


def raise_file_limit(want: int = 65536) -> int:
    """Raise the soft limit of open files towards the hard one (where the system allows); the
    soft limit that holds afterwards."""
    try:
        import resource
    except ImportError:  # not on this platform
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return want if soft == resource.RLIM_INFINITY else soft
