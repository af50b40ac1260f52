"""A seat belongs to one phone, and nothing a phone or a stranger sends can hurt the game.

- A seat link works once: the phone that opens it gets its own device key and the link is spent;
  the same link on another phone is refused ("taken on another phone; ask the host") and the
  owner's phone keeps its seat. The host moves a seat to another phone with a new one-time link.
- Garbage hellos, floods of taps or refusals, absurd sequence numbers and piles of idle sockets are
  refused cleanly: the game is unchanged, the server stays up, the log stays readable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator.companion.testing import connect, host_hello  # as the server's own pages connect
from websockets.exceptions import ConnectionClosed

from narrator.companion.links import CLOSE_TAKEN
from narrator.companion.transport import TAP_BURST
from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from narrator.flow.events import Tap

ROOT = Path(__file__).resolve().parents[2]
DON, SHERIFF, CITIZEN = 1, 4, 5


def config(extra: str = ""):
    return parse_config(CLASSIC_DEAL + extra)


async def refused_hello(url: str, hello) -> tuple[dict, int | None]:
    """Send one hello; the error frame the server answers and the code it closes with."""
    async with connect(url) as ws:
        await ws.send(hello if isinstance(hello, str) else json.dumps(hello))
        frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
        try:
            await asyncio.wait_for(ws.recv(), 5)
        except ConnectionClosed:
            pass
        return frame, ws.close_code


# ---------------------------------------------------------------- one seat, one phone

def test_a_spent_link_is_refused_on_another_phone_and_the_owner_keeps_his_seat():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            hub = t.companion.hub
            assert all(p.key for p in phones.values()) and len(set(hub.device_keys.values())) == 10
            frame, code = await refused_hello(t.ws_url, {"t": "hello", "token": hub.seat_tokens[7]})
            assert frame["t"] == "error" and frame["text"] == "This seat is already taken on another phone; ask the host."
            assert code == CLOSE_TAKEN
            assert 7 in hub.phones and phones[7].ws.close_code is None
            await t.to_night_one()
            assert (await phones[7].tap(3))["ok"]     # still his seat, still answered
            # a made-up key is no better than a made-up link; the phone that sent it is told to scan
            frame, code = await refused_hello(t.ws_url, {"t": "hello", "key": "guess"})
            assert frame["text"] == "This link is not valid for this game. Scan your seat's QR code again." and code == 4401

    asyncio.run(main())


def test_the_host_moves_a_seat_to_another_phone_with_a_new_one_time_link(tmp_path):
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            hub = t.companion.hub
            async with connect(t.ws_url) as host:
                await host.send(json.dumps(host_hello(hub)))            # the terminal's link: no PIN
                assert json.loads(await host.recv())["t"] == "host"
                await host.send(json.dumps({"t": "reissue", "seat": 7}))
                while (frame := json.loads(await asyncio.wait_for(host.recv(), 5)))["t"] != "reissued":
                    pass
                assert frame["seat"] == 7 and frame["qr"].startswith("<svg") and "url" not in frame
            # the old phone is sent away with the message to ask the host; its key opens nothing
            await until(lambda: phones[7].ws.close_code is not None)
            assert phones[7].ws.close_code == CLOSE_TAKEN
            frame, code = await refused_hello(t.ws_url, {"t": "hello", "key": phones[7].key})
            assert code == CLOSE_TAKEN
            # the new link works once, on the new phone
            new = Phone(t.ws_url, hub.seat_tokens[7])
            await new.join()
            assert new.seat == 7 and new.key != phones[7].key and hub.phones[7] is not None
            frame, code = await refused_hello(t.ws_url, {"t": "hello", "token": hub.seat_tokens[7]})
            assert code == CLOSE_TAKEN
            await t.to_night_one()
            assert (await new.tap(3))["ok"]
            await new.close()

    asyncio.run(main())


# ---------------------------------------------------------------- the server takes anything

def test_a_hello_that_is_not_an_object_is_refused_and_the_server_goes_on():
    async def main():
        async with Table(config()) as t:
            for hello in ("[1, 2]", "5", '"a string"', "null", "true"):
                async with connect(t.ws_url) as ws:
                    await ws.send(hello)
                    try:
                        await asyncio.wait_for(ws.recv(), 5)
                    except ConnectionClosed:
                        pass
                    assert ws.close_code == 4401
            phones = await t.join_all()
            assert len(t.companion.hub.phones) == 10 and phones[1].screen is not None
            assert [r for r, _ in t.companion.hub.refused].count("bad hello") == 5

    asyncio.run(main())


def test_a_flood_of_taps_is_dropped_early_and_reaches_neither_the_journal_nor_the_other_phones(caplog):
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await t.to_night_one()
            hub = t.companion.hub
            sent_before = len(hub.sent)
            t.forget()
            don = phones[DON]
            epoch = don.screen["epoch"]
            for _ in range(1000):
                don.n += 1
                await don.ws.send(json.dumps({"t": "tap", "seat": DON, "n": don.n, "epoch": epoch, "target": 9}))
            await asyncio.sleep(0.5)
            await t.settle()
            inputs = t.recorded("input", "event")
            assert 1 <= len(inputs) <= TAP_BURST + 3, "only what the seat may send reaches the game (and the journal)"
            others = [f for f in hub.sent[sent_before:] if f.seat != DON]
            assert len(others) < 30, "no frame storm to the other phones"
            assert [r for r, s in hub.refused].count("flood") >= 900
            # the don's phone at night: a console line would tell the room who is awake
            assert not [r for r in caplog.records if r.levelno >= logging.WARNING], "nothing printed at night"
            # after a breath the seat is answered again
            await asyncio.sleep(1.0)
            assert (await don.tap(9))["ok"]

    caplog.set_level(logging.WARNING, logger="narrator.companion")
    asyncio.run(main())


def test_a_tap_with_an_absurd_sequence_number_is_refused_and_later_taps_still_answered():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await t.to_night_one()
            don = phones[DON]
            await don.send({"t": "tap", "seat": DON, "n": 10**30, "epoch": don.screen["epoch"], "target": 9})
            await t.settle()
            assert ("malformed", DON) in t.companion.hub.refused
            assert t.companion.hub.last_n[DON] < 10**6
            ack = await don.tap(9)
            assert ack["ok"] and ack["text"].startswith("You chose 9")

    asyncio.run(main())


def test_a_flood_of_refusals_is_logged_once_per_seat_every_few_seconds(caplog):
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            for _ in range(1000):
                await phones[CITIZEN].ws.send("[]")
            await t.settle()
            await until(lambda: [r for r, _ in t.companion.hub.refused].count("not an object") == 1000)
            lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
            assert 1 <= len(lines) <= 2, "refusals are summarised per seat, not a line each"
            assert lines[0].startswith(f"companion: from the phone of seat {CITIZEN}, not taken "
                                       "(a message the game does not understand")

    caplog.set_level(logging.WARNING, logger="narrator.companion")
    asyncio.run(main())


# ---------------------------------------------------------------- file descriptors

SERVER = """
import asyncio, resource, sys
from narrator.companion.testing import CLASSIC_DEAL, Table
from narrator.config import parse_config

async def main():
    async with Table(parse_config(CLASSIC_DEAL)) as t:
        print(t.companion.port, t.companion.hub.seat_tokens[3], resource.getrlimit(resource.RLIMIT_NOFILE)[0], flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

asyncio.run(main())
"""


def serve(soft: int, hard: int) -> subprocess.Popen:
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit)


@pytest.mark.e2e
def test_the_soft_file_limit_is_raised_at_start_where_allowed():
    proc = serve(128, 2048)
    try:
        port, token, soft = proc.stdout.readline().split()
        assert int(soft) == 2048
    finally:
        proc.communicate("\n", timeout=20)


@pytest.mark.e2e
def test_two_thousand_idle_sockets_under_a_small_file_limit_do_not_keep_a_phone_out():
    proc = serve(256, 256)                 # the hard limit too: nothing to raise, the caps must do it
    idle: list[socket.socket] = []
    try:
        port, token, soft = proc.stdout.readline().split()
        assert int(soft) == 256
        for _ in range(2000):              # from 127.0.0.1, never sending a byte
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", int(port)))
            idle.append(s)
        time.sleep(1.0)

        async def phone() -> float:
            started = time.monotonic()
            # a phone at another address of the table's network
            async with connect(f"ws://127.0.0.1:{port}/ws", local_addr=("127.0.0.2", 0)) as ws:
                await ws.send(json.dumps({"t": "hello", "token": token}))
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert frame["t"] == "welcome" and frame["seat"] == 3
            return time.monotonic() - started

        assert asyncio.run(phone()) < 4.0     # at worst one dropped SYN retried (1 s); it was 11 s
    finally:
        for s in idle:
            s.close()
        _, err = proc.communicate("\n", timeout=30)
    assert "Too many open files" not in err and "Traceback" not in err, err[-2000:]


# ---------------------------------------------------------------- secrets leave no trace

def test_the_printable_seat_cards_are_removed_when_the_game_ends_and_at_exit():
    import io

    from narrator.companion import start
    from narrator.companion.testing import ManualClockSession

    async def main():
        cfg = config()
        live = ManualClockSession(cfg, None)
        run = asyncio.create_task(live.run(live.start_effects()))
        await until(lambda: live.loop is not None)
        handle = start(cfg, live, host="127.0.0.1", port=0, out=io.StringIO())
        page = handle.seats_page
        assert page is not None and page.exists()
        handle.hub._record({"type": "game_over", "winner": "town"})   # the game ends: the cards go
        assert not page.exists()
        await handle.stop()
        live.submit_control("quit")
        await run
        assert not page.exists()

    asyncio.run(main())


def test_a_night_keypad_tap_is_unchanged_by_the_phone_rules():
    # the keypad and the console still change a choice like a phone: the last one counts
    async def main():
        async with Table(config()) as t:
            await t.join_all()
            await t.to_night_one()
            for seat, target in ((1, 8), (2, 8), (3, 8), (1, 9), (2, 9), (3, 9)):
                t.live.submit_event(Tap(seat, target), source="console")
            await t.settle()
            assert [e for e in t.recorded("shot_fired", "by", "seat")][-3:] == [(1, 9), (2, 9), (3, 9)]

    asyncio.run(main())


def test_a_seat_reissued_mid_game_is_on_the_cards_and_a_resume_keeps_that_page(tmp_path):
    """The host re-issues seat 3's link: the printed page gets seat 3's new card at once (the others
    unchanged), so a resume finds the page holding this game's links and keeps it as it is; a page
    that cannot be written is the host's message, and the game goes on."""
    from narrator.companion import qr, server

    page = tmp_path / "seats.html"

    async def main():
        async with Table(config(f'[companion]\nseats_page = "{page}"\n'), announce=True) as t:
            hub, handle = t.companion.hub, t.companion
            told: list[dict] = []

            class Host:  # the host screen's connection, as the hub writes to it
                def send(self, text):
                    told.append(json.loads(text))

            before = page.read_text(encoding="utf-8")
            hub._host_action(Host(), {"t": "reissue", "seat": 3})
            after = page.read_text(encoding="utf-8")
            assert told[-1]["t"] == "reissued" and "problem" not in told[-1]
            assert hub.seat_tokens[3] in qr.seat_url(handle.base_url, hub.seat_tokens[3]) and after != before
            assert after == qr.seats_page(handle.urls, t.config.players, hub.word, t.config.language)
            written = page.stat().st_mtime_ns
            # a resume: the same links, so the very page is kept, not written again
            urls = {s: qr.seat_url(handle.base_url, tok) for s, tok in hub.seat_tokens.items()}
            assert server._seat_cards(t.config, urls, hub, str(page)) == page
            assert page.stat().st_mtime_ns == written
            # the folder goes read-only: the host reads why, the new QR code still joins
            os.chmod(tmp_path, 0o500)
            try:
                if os.access(tmp_path, os.W_OK):
                    return  # root writes anyway: nothing to refuse here
                hub._host_action(Host(), {"t": "reissue", "seat": 5})
                assert "could not be updated" in told[-1]["problem"] and "svg" in told[-1]["qr"]
                assert page.read_text(encoding="utf-8") == after
            finally:
                os.chmod(tmp_path, 0o700)
            assert t.live.game.state == "setup"

    asyncio.run(main())
