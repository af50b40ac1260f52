"""Helpers for driving the companion without waiting on the real clock: tests and the benchmark.

`ManualClockSession` is a live session whose timers never fire by themselves: `fire()` ends the
running one exactly as the clock would. `Phone` is a WebSocket client that speaks the phone
page's protocol and keeps every frame it receives.
"""

from __future__ import annotations

import asyncio
import io
import json
import time

from websockets.asyncio.client import connect as _connect

from ..flow.effects import Record
from ..flow.events import EndSpeech, Nominate
from ..live import LiveSession


class ManualClockSession(LiveSession):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.armed: list[tuple[str | None, str | None, float]] = []  # (timer, night step, seconds)

    def _arm(self, seconds: float, start: float | None = None, resumed_at: float | None = None) -> None:
        self._timer_token += 1
        step = self.game.step
        self.armed.append((self._timer_name, step.name if step is not None else None, seconds))
        self._timer_deadline = self.loop.time() + seconds
        self._runs(resumed_at)

    def fire(self) -> None:
        """The running timer runs out now (through the same path as the real clock)."""
        self.queue.put_nowait(("timeout", self._timer_token, "clock"))


async def until(predicate, timeout: float = 10.0, what: str = "condition") -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


def own_origin(url: str) -> str:
    """The Origin a page of the server at `url` (ws://host:port/…) sends: its own."""
    scheme, rest = url.split("://", 1)
    return ("https" if scheme == "wss" else "http") + "://" + rest.split("/", 1)[0]


def connect(url: str, **kwargs):
    """`websockets`' connect as the companion's own pages connect: from a page of that very server
    (its Origin). The server refuses a WebSocket from any other page (host-trust.md)."""
    kwargs.setdefault("origin", own_origin(url))
    return _connect(url, **kwargs)


def host_hello(hub) -> dict:
    """The host screen's hello as the link the terminal printed makes it: with the host's key."""
    return {"t": "host", "key": hub.host_key}


class Phone:
    """One simulated phone: `await phone.join()`, `await phone.tap(7)`, `phone.frames`."""

    def __init__(self, url: str, token: str, beat: bool = False):
        self.url = url
        self.token = token
        self.beat = beat  # beats as the page does (every 2 s); `frozen = True` stops it without a close
        self.frozen = False
        self._beater: asyncio.Task | None = None
        self.frames: list[tuple[float, dict, int]] = []  # (arrival, frame, size in bytes)
        self.screen: dict | None = None
        self.seat: int | None = None
        self.role: str | None = None
        self.key: str | None = None  # the device key the server gave when the link was first opened
        self.checks: list[str] = []  # the seat's own night findings, as the held-down role area shows them
        self.n = 0
        self.ws = None
        self._reader: asyncio.Task | None = None
        self._acks: asyncio.Queue = asyncio.Queue()

    async def join(self) -> None:
        self.ws = await connect(self.url, compression=None, max_size=2**20)
        # like the page: the device key once the seat is this phone's, the one-time link before
        hello = {"t": "hello", "key": self.key} if self.key else {"t": "hello", "token": self.token}
        if self.beat:
            hello["beat"] = True
            self._beater = asyncio.create_task(self._beat())
        await self.ws.send(json.dumps(hello))
        self._reader = asyncio.create_task(self._read())
        await until(lambda: self.screen is not None, what="the first screen")

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                frame = json.loads(text)
                self.frames.append((time.monotonic(), frame, len(text.encode("utf-8"))))
                t = frame["t"]
                if t == "welcome":
                    self.seat = frame["seat"]
                    self.n = max(self.n, frame["n"])
                    self.key = frame.get("key", self.key)
                elif t == "role":
                    self.role = frame["role"]
                    self.checks = frame.get("checks", [])
                elif t == "screen":
                    self.screen = frame
                elif t == "ack":
                    self._acks.put_nowait(frame)
        except Exception:
            pass

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(2.0)
            if not self.frozen:
                try:
                    await self.ws.send('{"t":"beat"}')
                except Exception:
                    return

    async def send(self, msg: dict) -> None:
        await self.ws.send(json.dumps(msg))

    async def tap(self, target=None, answer=None, wait: bool = True) -> dict | None:
        self.n += 1
        msg = {"t": "tap", "seat": self.seat, "n": self.n, "epoch": self.screen["epoch"]}
        if target is not None:
            msg["target"] = target
        if answer is not None:
            msg["answer"] = answer
        await self.send(msg)
        if wait:
            return await asyncio.wait_for(self._acks.get(), 5)
        return None

    async def close(self) -> None:
        if self._beater is not None:
            self._beater.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


CLASSIC_DEAL = 'variant = "classic"\nlanguage = "en"\n[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'


class Table:
    """A live game with its companion on loopback: `async with Table(config) as t:`."""

    _since = 0

    def __init__(self, config, session_class=ManualClockSession, announce: bool = False):
        self.config = config
        self.session_class = session_class
        # as `narrator play` starts it: the printable seat cards written, the QR codes printed (to `announced`)
        self.announce = announce
        self.announced = None

    async def __aenter__(self):
        from . import start

        self.live = self.session_class(self.config, None)
        self.records: list[dict] = []  # the game's protocol, as the core wrote it
        self.live.outputs.append(self)
        first = self.live.start_effects()
        self.run_task = asyncio.create_task(self.live.run(first))
        await until(lambda: self.live.loop is not None, what="the live loop")
        self.announced = io.StringIO()
        self.companion = start(self.config, self.live, host="127.0.0.1", port=0, announce=self.announce, out=self.announced)
        self.companion.hub.record_sent = True
        await self.companion.started()
        self.ws_url = f"ws://127.0.0.1:{self.companion.port}/ws"
        # the host screen's link as the terminal prints it (its key after #): it opens the host screen
        self.host_link = self.companion.host_link
        self.phones: dict[int, Phone] = {}
        return self

    async def join_all(self) -> dict[int, Phone]:
        hub = self.companion.hub
        self.phones = {s: Phone(self.ws_url, hub.seat_tokens[s]) for s in hub.seat_tokens}
        await asyncio.gather(*(p.join() for p in self.phones.values()))
        return self.phones

    def deal(self) -> None:
        self.live.submit_event(self.live.session.dealing_event())

    def handle(self, effect, text) -> None:
        if isinstance(effect, Record):
            self.records.append(effect.entry)

    def recorded(self, kind: str, *keys: str) -> list[tuple]:
        """The protocol entries of one kind since the last `forget()`, as tuples of the given keys."""
        return [tuple(e.get(k) for k in keys) for e in self.records[self._since:] if e.get("type") == kind]

    def forget(self) -> None:
        self._since = len(self.records)

    async def end_night(self) -> None:
        while self.live.game.phase() == "night":
            self.live.fire()
            await self.settle()

    async def end_speeches(self, states=("speeches",)) -> None:
        while self.live.game.state in states:
            self.live.submit_event(EndSpeech())
            await self.settle()

    async def to_hand_vote(self, *nominations: tuple[int, int]) -> None:
        """A Swedish day to its hand vote: each (nominee, nominator) nominated, the day's clock and
        the last call run out, the nominees' speeches ended."""
        for seat, by in nominations:
            self.live.submit_event(Nominate(seat, by=by))
        await self.run_clock_until(lambda: self.live.game.state == "nominee_speeches")
        await self.end_speeches(("nominee_speeches",))

    async def to_classic_vote(self, *nominees: int) -> None:
        """A classic day to its vote: each speaker in turn nominates the next nominee and ends his
        speech, the rest of the speeches are ended, and the vote is open."""
        for seat in nominees:
            self.live.submit_event(Nominate(seat))
            self.live.submit_event(EndSpeech())
            await self.settle()
        await self.end_speeches()
        await until(lambda: self.live.game.state == "voting", what="the vote")

    async def run_clock_until(self, predicate) -> None:
        """Let every running timer run out, one after another, until the game gets there."""
        for _ in range(30):
            if predicate():
                return
            self.live.fire()
            await self.settle()
        raise AssertionError(f"the game never got there; it is in {self.live.game.state}")

    async def to_first_day(self) -> None:
        """Deal and sleep through night zero."""
        self.deal()
        await until(lambda: self.live.game.state == "night", what="the deal")
        await self.end_night()

    async def to_night_one(self) -> None:
        """The first night with actions, after a day without nominations."""
        await self.to_first_day()
        await self.end_speeches()
        assert self.live.game.night_no == 1 and self.live.game.step is not None

    async def settle(self) -> None:
        """Let the loop dispatch what was submitted and the hub flush it."""
        for _ in range(5):
            await asyncio.sleep(0.01)

    async def __aexit__(self, *exc):
        for p in self.phones.values():
            await p.close()
        await self.companion.stop()
        self.live.stopped = True
        self.live.submit_control("quit")
        await asyncio.wait_for(self.run_task, 5)
