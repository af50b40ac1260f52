"""The host's seat: opened by the host's secret (the terminal's link, the PIN), never by where a
connection comes from; every entry point has a limit; a frozen phone shows as lost; a resumed
step gives each phone its answer back (docs/explanation/host-trust.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect as raw_connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from narrator.companion import limits, server, start
from narrator.companion.links import HOST_BURST, PIN_BUDGET
from narrator.companion.transport import SEND_QUEUE, Conn
from narrator.companion.testing import CLASSIC_DEAL, ManualClockSession, Phone, Table, connect, host_hello, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech
from narrator.journal import Journal, read

SHERIFF = 4


def config(extra: str = ""):
    return parse_config(CLASSIC_DEAL + extra)


async def refused_handshake(url: str, **kwargs) -> int:
    """The HTTP status a WebSocket handshake got instead of a socket."""
    try:
        async with raw_connect(url, open_timeout=5, **kwargs):
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


def test_a_socket_from_another_page_or_a_rebound_host_name_is_refused_before_it_opens():
    async def main():
        async with Table(config()) as t:
            port = t.companion.port
            assert await refused_handshake(t.ws_url) == 403                                  # no Origin
            assert await refused_handshake(t.ws_url, origin="null") == 403                   # a local file
            assert await refused_handshake(t.ws_url, origin=f"http://127.0.0.1:{port + 1}") == 403  # another port
            # DNS rebinding: the attacker's name, now pointing at this laptop
            assert await refused_handshake(t.ws_url, origin=f"http://evil.example:{port}",
                                           additional_headers={"Host": f"evil.example:{port}"}) == 403
            async with httpx.AsyncClient() as http:
                page = await http.get(f"http://127.0.0.1:{port}/host", headers={"Host": f"evil.example:{port}"})
                assert page.status_code == 403
                post = await http.post(f"http://127.0.0.1:{port}/host", headers={"Origin": "http://evil.example"})
                assert post.status_code == 403
                assert (await http.get(f"http://localhost:{port}/host")).status_code == 200
            async with connect(t.ws_url) as ws:  # the server's own page: its own Origin
                await ws.send(json.dumps(host_hello(t.companion.hub)))
                assert json.loads(await ws.recv())["t"] == "host"

    asyncio.run(main())


def test_a_flood_of_host_messages_is_dropped_before_it_is_read_and_a_phone_is_still_answered(monkeypatch):
    read_ones = []
    original = server._parsed
    monkeypatch.setattr(server, "_parsed", lambda raw: read_ones.append(1) or original(raw))

    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await t.to_night_one()
            async with connect(t.ws_url) as host:
                await host.send(json.dumps(host_hello(t.companion.hub)))
                assert json.loads(await host.recv())["t"] == "host"
                read_ones.clear()
                began = time.monotonic()
                for _ in range(2000):
                    await host.send('{"t":"pause"}')
                ack = await phones[1].tap(7)
                assert ack["ok"]
                elapsed = time.monotonic() - began
                await t.settle()
            assert len(read_ones) <= HOST_BURST + 5 * (elapsed + 1), "the excess never reached the parser"
            assert ("host flood", None) in t.companion.hub.refused

    asyncio.run(main())


def test_a_connection_that_reads_nothing_is_closed_instead_of_queueing_without_end():
    conn = Conn()
    for i in range(SEND_QUEUE * 4):
        conn.send("x" * 1000)
    assert conn.closed and conn.queue.qsize() <= SEND_QUEUE + 1


def test_a_connection_that_never_finishes_its_request_is_closed(monkeypatch):
    monkeypatch.setattr(limits, "SILENT_WAIT", 0.5)

    async def main():
        async with Table(config()) as t:
            reader, writer = await asyncio.open_connection("127.0.0.1", t.companion.port)
            writer.write(b"GET / HTTP/1.1\r\n")            # a slowloris: a byte now and then, never a whole head
            await writer.drain()
            closed = False
            for _ in range(20):
                await asyncio.sleep(0.1)
                writer.write(b"X")
                try:
                    await writer.drain()
                except ConnectionError:
                    closed = True
                    break
                if reader.at_eof() or (await _eof(reader)):
                    closed = True
                    break
            writer.close()
            assert closed, "the half-open request is still held open"

    asyncio.run(main())


async def _eof(reader) -> bool:
    try:
        return await asyncio.wait_for(reader.read(1), 0.05) == b""
    except asyncio.TimeoutError:
        return False
    except ConnectionError:
        return True


def test_forged_forwarded_for_headers_buy_no_extra_pin_guesses():
    async def main():
        async with Table(config('[companion]\npin = "4711"\n')) as t:
            answers = []
            for n in range(8):
                async with connect(t.ws_url, additional_headers={"X-Forwarded-For": f"10.0.0.{n}"}) as ws:
                    await ws.send(json.dumps({"t": "host", "pin": f"{n}"}))
                    answers.append(json.loads(await ws.recv())["text"])
            locked = t.companion.hub.word("host_locked")
            assert answers[5:] == [locked] * 3, "one peer, one lockout, whatever its headers say"

    asyncio.run(main())


def test_behind_a_reverse_proxy_the_club_names_each_guesser_is_his_own_address():
    """A club that serves the companion through its own reverse proxy names it
    ([companion] trusted_proxies): the address the proxy writes is the peer, so one guesser's
    lockout is his alone and the tablet behind the same proxy still gets its five tries."""
    async def main():
        async with Table(config('[companion]\npin = "4711"\ntrusted_proxies = "127.0.0.1"\n')) as t:
            async def guess(addr: str, pin: str) -> str:
                async with connect(t.ws_url, additional_headers={"X-Forwarded-For": addr}) as ws:
                    await ws.send(json.dumps({"t": "host", "pin": pin}))
                    return json.loads(await ws.recv())["text"]

            locked = t.companion.hub.word("host_locked")
            guesser = [await guess("10.0.0.66", f"{n}") for n in range(7)]
            assert guesser[5:] == [locked] * 2, "the guesser behind the proxy is locked out"
            assert await guess("10.0.0.20", "1") != locked, "the tablet behind the same proxy is not"

    asyncio.run(main())


def test_no_number_of_addresses_walks_around_the_pin_lockout_and_the_terminal_names_it(caplog):
    async def main():
        async with Table(config('[companion]\npin = "4711"\n')) as t:
            hub = t.companion.hub
            with caplog.at_level(logging.WARNING, logger="narrator.companion"):
                for n in range(PIN_BUDGET + 1500):          # a new address for every guess (IPv6 has plenty)
                    guesser = Conn()
                    guesser.addr = f"2001:db8::{n:x}"
                    assert not hub.hello(guesser, {"t": "host", "pin": f"{n:04d}"[-4:] if n != 4711 else "0"})
                tablet = Conn()
                tablet.addr = "192.168.1.20"
                assert not hub.hello(tablet, {"t": "host", "pin": "4711"}), "the PIN waits, for everybody"
                laptop = Conn()
                laptop.addr = "127.0.0.1"
                assert hub.hello(laptop, host_hello(hub)), "the terminal's link still opens the host screen"
            terminal = [r.getMessage() for r in caplog.records if r.name == "narrator.companion"]
            assert any("the PIN is locked" in line for line in terminal), terminal
            assert not any("already open elsewhere" in line for line in terminal)
            assert len(terminal) <= 3, "one line per lockout, not one per guess"

    asyncio.run(main())


def test_a_frozen_phone_shows_as_lost_on_the_host_screen(monkeypatch):
    assert server.LOST_AFTER < 10, "a frozen phone is lost within 10 s of its last beat"
    monkeypatch.setattr(server, "LOST_AFTER", 2.5)

    async def main():
        async with Table(config()) as t:
            hub = t.companion.hub
            phone = Phone(t.ws_url, hub.seat_tokens[3], beat=True)
            await phone.join()
            await asyncio.sleep(3)
            assert 3 in hub.phones, "a phone that beats stays"
            phone.frozen = True                                   # no close, no more beats
            await until(lambda: 3 not in hub.phones, timeout=5, what="the frozen phone lost")
            assert 3 not in hub.host_frame()["phones"]
            # and its socket is closed as lost, so a page that wakes again reconnects at once
            await until(lambda: phone.ws.close_code is not None, timeout=5, what="the frozen phone's socket closed")
            assert phone.ws.close_code == 4408
            await phone.close()

    asyncio.run(main())


def test_a_resumed_check_gives_the_sheriffs_phone_its_answer_back_without_a_tap(tmp_path):
    cfg = config()
    path = tmp_path / "game.jsonl"

    async def before_the_crash() -> tuple[str, str]:
        journal = Journal.create(path, "club.toml", CLASSIC_DEAL, {"companion": True})
        live = ManualClockSession(cfg, journal)
        task = asyncio.create_task(live.run(live.start_effects(), [live.session.dealing_event()]))
        await until(lambda: live.loop is not None)
        handle = start(cfg, live, host="127.0.0.1", port=0, announce=False)
        await handle.started()
        url = f"ws://127.0.0.1:{handle.port}/ws"
        phones = {s: Phone(url, tok) for s, tok in handle.hub.seat_tokens.items()}
        await asyncio.gather(*(p.join() for p in phones.values()))
        while not (live.game.state == "night" and live.game.step is not None and live.game.step.name == "sheriff_checks"):
            live.submit_event(EndSpeech()) if live.game.state != "night" else live.fire()
            await asyncio.sleep(0.03)
        await until(lambda: phones[SHERIFF].screen["step"] == "sheriff_checks")
        answer = (await phones[SHERIFF].tap(1))["text"]
        task.cancel()  # the crash
        await asyncio.gather(task, return_exceptions=True)
        for p in phones.values():
            await p.close()
        await handle.stop()
        journal.close()
        return phones[SHERIFF].key, answer

    async def after_the_resume(key: str) -> dict:
        contents = read(path)
        live = ManualClockSession(cfg, Journal.reopen(path))
        task = asyncio.create_task(live.run(live.start_effects(replayed=contents.events, timer_marks=contents.timer_marks)))
        await until(lambda: live.loop is not None)
        handle = start(cfg, live, host="127.0.0.1", port=0, announce=False)
        await handle.started()
        try:
            phone = Phone(f"ws://127.0.0.1:{handle.port}/ws", "spent")
            phone.key = key
            await phone.join()
            await until(lambda: any(f["t"] == "note" for _, f, _ in phone.frames))
            assert live.game.step.name == "sheriff_checks"
            note = next(f for _, f, _ in phone.frames if f["t"] == "note")
            await phone.close()
            return note
        finally:
            await handle.stop()
            live.submit_control("quit")
            await asyncio.wait_for(task, 5)

    key, answer = asyncio.run(before_the_crash())
    assert "MAFIA" in answer
    note = asyncio.run(after_the_resume(key))
    assert note["text"] == answer and note["epoch"] is not None


def test_a_burst_of_connections_from_one_address_waits_its_turn_instead_of_being_refused():
    async def main():
        async with Table(config()) as t:
            extra = 10
            began = time.monotonic()

            async def one() -> float:
                async with connect(t.ws_url, open_timeout=10):
                    return time.monotonic() - began

            opened = await asyncio.gather(*(one() for _ in range(limits.CONNECT_BURST + extra)))
            assert len(opened) == limits.CONNECT_BURST + extra, "every one of them got in"
            assert max(opened) >= (extra - 1) / limits.CONNECT_RATE, "the ones beyond the burst waited"

    asyncio.run(main())
