"""Refusals: a wrong seat, a dead seat, a role that is not awake, a stale or replayed tap, an unknown
token, a wrong host PIN or garbage on the socket is refused (and logged) and changes nothing."""

from __future__ import annotations

import asyncio
import io
import json

import httpx
import pytest
from narrator.companion.testing import connect  # from a page of the server itself (its Origin)
from websockets.exceptions import ConnectionClosed

from narrator.companion import start
from narrator.companion.testing import CLASSIC_DEAL, ManualClockSession, Phone, Table, host_hello, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate

DON, SHERIFF, CITIZEN = 1, 4, 5


def config(extra: str = ""):
    return parse_config(CLASSIC_DEAL + extra)


async def night_one(t: Table) -> None:
    await t.to_night_one()
    t.forget()


def taps(t: Table) -> list[tuple]:
    """The taps the core was handed."""
    return [e for (e,) in t.recorded("input", "event") if e["type"] == "tap"]


def test_a_tap_from_a_seat_that_is_not_awake_never_reaches_the_core():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await night_one(t)
            assert t.live.game.step.name == "mafia_shoots"
            ack = await phones[SHERIFF].tap(7)
            # answered as a shooter's tap is, so the answer does not tell whose phone shot
            assert ack["ok"] and ack["text"] == "You chose 7 — you can change it until the step ends."
            await phones[DON].tap(7)
            await t.settle()
            assert taps(t) == [{"type": "tap", "seat": DON, "target": 7}]
            assert t.recorded("shot_fired", "by", "seat") == [(DON, 7)]

    asyncio.run(main())


def test_stale_replayed_and_wrong_seat_taps_change_nothing():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await night_one(t)
            don = phones[DON]
            epoch = don.screen["epoch"]
            # a tap made on the previous screen arrives late
            don.n += 1
            await don.send({"t": "tap", "seat": DON, "n": don.n, "epoch": epoch - 1, "target": 7})
            ack = await asyncio.wait_for(don._acks.get(), 5)
            assert not ack["ok"]
            # a tap claiming another seat
            don.n += 1
            await don.send({"t": "tap", "seat": 2, "n": don.n, "epoch": epoch, "target": 7})
            assert not (await asyncio.wait_for(don._acks.get(), 5))["ok"]
            # a real one, then the very same message again
            don.n += 1
            msg = {"t": "tap", "seat": DON, "n": don.n, "epoch": epoch, "target": 7}
            await don.send(msg)
            assert (await asyncio.wait_for(don._acks.get(), 5))["text"] == "You chose 7 — you can change it until the step ends."
            await don.send(msg)
            await t.settle()
            await asyncio.sleep(t.companion.hub.ack_delay * 2)
            assert don._acks.empty()
            assert taps(t) == [{"type": "tap", "seat": DON, "target": 7}]
            reasons = [r for r, _ in t.companion.hub.refused]
            assert reasons == ["stale", "wrong seat", "replayed"]

    asyncio.run(main())


def test_a_dead_seat_cannot_vote_from_its_phone():
    async def main():
        async with Table(config("[companion]\nvotes = true\n")) as t:
            phones = await t.join_all()
            await night_one(t)
            for s in (DON, 2, 3):
                await phones[s].tap(CITIZEN)
            await t.end_night()
            assert CITIZEN not in t.live.game.alive
            await t.end_speeches(("last_words",))
            # two nominations make a vote
            t.live.submit_event(Nominate(8))
            t.live.submit_event(EndSpeech())
            t.live.submit_event(Nominate(9))
            await t.end_speeches()
            assert t.live.game.state == "voting"
            await until(lambda: phones[CITIZEN].screen["state"] == "voting")
            t.forget()
            ack = await phones[CITIZEN].tap(8)
            assert not ack["ok"] and "out of the game" in ack["text"]
            assert taps(t) == []
            assert ("dead seat", CITIZEN) in t.companion.hub.refused
            ack = await phones[6].tap(8)
            assert ack["ok"]
            assert t.recorded("vote", "voter", "seat") == [(6, 8)]

    asyncio.run(main())


def test_unknown_tokens_garbage_and_oversized_messages_do_not_hurt_the_server():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            async with connect(t.ws_url) as ws:
                await ws.send(json.dumps({"t": "hello", "token": "guess"}))
                frame = json.loads(await ws.recv())
                assert frame["t"] == "error"
                with pytest.raises(ConnectionClosed):
                    await ws.recv()
                assert ws.close_code == 4401
            for garbage in ("not json", "[]", "{}", '{"t": "tap"}', '{"t":"tap","n":"x","epoch":null}', "1e999999",
                            '{"t":"tap","n":99,"epoch":0,"target":{"a":1}}', "[" * 3000):
                await phones[CITIZEN].ws.send(garbage)
            await phones[CITIZEN].ws.send(b"\x00\x01binary")
            async with connect(t.ws_url) as ws:
                await ws.send("x" * 10_000)  # more than any phone sends: the socket is closed
                with pytest.raises(ConnectionClosed):
                    await ws.recv()
            # the server still answers (seat 7's phone reconnects with its device key), and the
            # garbage reached nothing
            late = Phone(t.ws_url, t.companion.hub.seat_tokens[7])
            late.key = phones[7].key
            await late.join()
            await late.close()
            assert t.live.game.state == "setup"
            assert t.companion.hub.refused

    asyncio.run(main())


def test_the_host_screen_needs_the_pin_and_never_shows_roles_or_tokens():
    async def main():
        async with Table(config("[companion]\npin = \"4711\"\n")) as t:
            await t.join_all()
            async with connect(t.ws_url) as ws:
                await ws.send(json.dumps({"t": "host", "pin": "0000"}))
                assert json.loads(await ws.recv())["t"] == "error"
            async with connect(t.ws_url) as ws:
                await ws.send(json.dumps({"t": "host", "pin": "4711"}))
                frames = [json.loads(await ws.recv())]
                t.deal()
                await until(lambda: t.live.game.state == "night")
                await t.settle()
                while True:
                    try:
                        frames.append(json.loads(await asyncio.wait_for(ws.recv(), 0.2)))
                    except asyncio.TimeoutError:
                        break
                # a pause at night would make the step longer and be said into the night: the game
                # refuses it, on this host screen alone
                await ws.send(json.dumps({"t": "pause"}))
                refused = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert refused == {"t": "refused", "text": t.companion.hub.word("host_pause_at_night")}
                assert not t.live.paused
            text = json.dumps(frames)
            assert frames[-1]["view"]["state"] == "night"
            for role in ("don", "sheriff", "mafia"):
                assert f'"{role}"' not in text
            for token in t.companion.hub.seat_tokens.values():
                assert token not in text
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{t.companion.port}") as http:
                page = (await http.get("/host")).text
                assert all(token not in page for token in t.companion.hub.seat_tokens.values())
                assert (await http.get("/")).headers["cache-control"] == "no-store"

    asyncio.run(main())


def test_wrong_pins_lock_out_the_address_that_sends_them():
    async def main():
        async with Table(config("[companion]\npin = \"4711\"\n")) as t:
            for pin in ("1", "2", "3", "4", "5", "4711"):
                async with connect(t.ws_url) as ws:
                    await ws.send(json.dumps({"t": "host", "pin": pin}))
                    frame = json.loads(await ws.recv())
            assert frame["t"] == "error", "the right PIN right after five wrong ones is still refused"
            # the real host, at another address, is not locked out by somebody else's guesses
            hub = t.companion.hub
            from narrator.companion.transport import Conn

            host = Conn()
            host.addr = "192.168.1.20"
            assert hub.hello(host, {"t": "host", "pin": "4711"}) and host in hub.hosts
            guesser = Conn()
            guesser.addr = "127.0.0.1"
            assert not hub.hello(guesser, {"t": "host", "pin": "4711"})

    asyncio.run(main())


def test_the_terminals_link_opens_the_host_screen_and_the_narrators_own_machine_proves_nothing():
    async def main():
        async with Table(config("[companion]\npin = \"4711\"\n")) as t:
            # from 127.0.0.1 without the key: any web page on the laptop connects from there too
            async with connect(t.ws_url) as ws:
                await ws.send(json.dumps({"t": "host"}))
                assert json.loads(await ws.recv())["t"] == "error"
            async with connect(t.ws_url) as ws:
                await ws.send(json.dumps({"t": "host", "key": "a-guess"}))
                assert json.loads(await ws.recv())["t"] == "error"
            assert not t.companion.hub.hosts
            # the link the terminal printed carries the key: no PIN to type
            assert t.host_link.endswith("/host#" + t.companion.hub.host_key)
            async with connect(t.ws_url) as ws:
                await ws.send(json.dumps(host_hello(t.companion.hub)))
                assert json.loads(await ws.recv())["t"] == "host"

    asyncio.run(main())


def test_the_terminal_shows_qr_codes_but_never_a_token_as_text(tmp_path):
    async def main():
        cfg = config(f"[companion]\nseats_page = \"{tmp_path / 'seats.html'}\"\n")
        live = ManualClockSession(cfg, None)
        run = asyncio.create_task(live.run(live.start_effects()))
        await until(lambda: live.loop is not None)
        out = io.StringIO()
        handle = start(cfg, live, host="127.0.0.1", port=0, out=out)
        try:
            text = out.getvalue()
            assert text.count("Seat ") >= 10 and handle.host_url in text and handle.loopback_host_url in text
            assert handle.pin not in text, "the PIN is never printed where the table can read it"
            for token in handle.hub.seat_tokens.values():
                assert token not in text
            page = (tmp_path / "seats.html").read_text()
            assert page.count("<svg") == 10
            assert oct((tmp_path / "seats.html").stat().st_mode & 0o777) == "0o600"
            assert all(u.startswith(handle.base_url + "/#") for u in handle.urls.values())
        finally:
            await handle.stop()
            live.submit_control("quit")
            await run

    asyncio.run(main())


def test_a_taken_port_fails_at_start():
    async def main():
        async with Table(config()) as t:
            with pytest.raises(OSError):
                start(t.config, t.live, host="127.0.0.1", port=t.companion.port, announce=False)

    asyncio.run(main())


def test_a_resumed_game_keeps_its_seat_tokens_and_a_new_game_gets_new_ones(tmp_path):
    from narrator.journal import Journal

    async def tokens(journal):
        cfg = config()
        live = ManualClockSession(cfg, journal)
        run = asyncio.create_task(live.run(live.start_effects()))
        await until(lambda: live.loop is not None)
        handle = start(cfg, live, host="127.0.0.1", port=0, announce=False)
        await handle.started()
        hub = handle.hub
        if not hub.device_keys:  # the first run: seat 3's phone joins and gets its device key
            phone = Phone(f"ws://127.0.0.1:{handle.port}/ws", hub.seat_tokens[3])
            await phone.join()
            await phone.close()
            keys[3] = phone.key
        else:  # resumed: the phone reconnects with its key; its spent link still opens nothing
            phone = Phone(f"ws://127.0.0.1:{handle.port}/ws", hub.seat_tokens[3])
            phone.key = keys[3]
            await phone.join()
            assert phone.seat == 3
            await phone.close()
            async with connect(f"ws://127.0.0.1:{handle.port}/ws") as ws:
                await ws.send(json.dumps({"t": "hello", "token": hub.seat_tokens[3]}))
                assert json.loads(await ws.recv())["t"] == "error"
        await handle.stop()
        live.submit_control("quit")
        await run
        return dict(hub.seat_tokens), handle.pin

    keys: dict[int, str] = {}

    async def main():
        path = tmp_path / "journal.jsonl"
        first = await tokens(Journal.create(path, "<test>", CLASSIC_DEAL, {}))
        assert oct((tmp_path / "journal.jsonl.companion").stat().st_mode & 0o777) == "0o600"
        resumed = await tokens(Journal.reopen(path))
        assert resumed == first
        await asyncio.sleep(0.01)  # the journal's start time tells the games apart
        keys.clear()
        new_game = await tokens(Journal.create(path, "<test>", CLASSIC_DEAL, {}))
        assert set(new_game[0].values()).isdisjoint(first[0].values())

    asyncio.run(main())


def test_a_write_of_the_kept_tokens_cut_off_midway_leaves_the_last_whole_file(tmp_path, monkeypatch):
    """The tokens beside the journal are what a resume after kill -9 lets the phones back in with:
    a write cut off halfway (the process killed, the disk full) leaves the file that was there,
    whole, and a reader meanwhile never finds it empty."""
    from types import SimpleNamespace

    from narrator.companion import server
    from narrator.journal import Journal

    path = tmp_path / "journal.jsonl"
    live = SimpleNamespace(journal=Journal.create(path, "<test>", CLASSIC_DEAL, {}))
    hub = SimpleNamespace(seat_tokens={1: "one"}, pin="1234", device_keys={}, spent=set(), revoked=set(),
                          cards_page=None, host_key="key", said=lambda key, **kw: key)
    server._keep_secrets(live, hub)
    kept = tmp_path / "journal.jsonl.companion"
    whole = kept.read_text()

    def cut_off(data, f):
        f.write('{"started": ')
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(server.json, "dump", cut_off)
    hub.seat_tokens = {1: "two"}
    server._keep_secrets(live, hub)
    assert kept.read_text() == whole and json.loads(whole)["tokens"] == {"1": "one"}
    assert not (tmp_path / "journal.jsonl.companion.part").exists()


def test_the_server_binds_where_the_config_says():
    import socket

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()

    async def main():
        cfg = config(f'[companion]\nhost = "127.0.0.1"\nport = {port}\n')
        live = ManualClockSession(cfg, None)
        run = asyncio.create_task(live.run(live.start_effects()))
        await until(lambda: live.loop is not None)
        handle = start(cfg, live, announce=False)
        try:
            assert handle.sock.getsockname() == ("127.0.0.1", port)
            await handle.started()
            async with httpx.AsyncClient() as http:
                assert (await http.get(f"http://127.0.0.1:{port}/")).status_code == 200
        finally:
            await handle.stop()
            live.submit_control("quit")
            await run

    asyncio.run(main())


@pytest.mark.e2e
def test_a_seat_cards_page_that_cannot_be_written_is_named_and_the_phones_still_join(tmp_path):
    """`[companion] seats_page` pointing where no file can be made (a file stands where its folder
    should be) was reported as "cannot serve on 0.0.0.0:8765 … change [companion] port" and the
    game never started. The QR codes in the terminal join the phones without the page."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    blocker = tmp_path / "cards"
    blocker.write_text("a file, not a folder")
    cfg = tmp_path / "club.toml"
    cfg.write_text('variant = "classic"\nlanguage = "en"\n[companion]\nenabled = true\nhost = "127.0.0.1"\n'
                   f'port = {free_port()}\nseats_page = "{blocker / "seats.html"}"\n[input]\nengine = "none"\n')
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}
    r = subprocess.run([sys.executable, "-m", "narrator.cli", "play", "--config", str(cfg), "--voice", "text"],
                       input="quit\n", capture_output=True, text=True, timeout=60, env=env,
                       cwd=Path(__file__).resolve().parents[2])
    out = r.stdout + r.stderr
    assert f"{cfg}:7: companion.seats_page: the page of seat cards cannot be written to" in out, out
    assert f"({blocker})" in out and "leave it empty" in out
    assert "cannot serve" not in out and "Traceback" not in out
    assert out.count("scan to join") == 10, "every seat's QR code is still shown"
    assert r.returncode == 0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.e2e
def test_a_game_resumed_after_kill_9_keeps_its_printed_seat_cards(tmp_path):
    """The printable seat cards of a phone game (a private temporary page by default) hold the
    seats' links. A game resumed after `kill -9` keeps its links, so the cards the table printed
    still join: the resumed narrator names the very page it wrote — not rewritten, and no second
    copy of every link made in the temporary folder beside the first, which the killed process
    never removed. A seat's link re-issued before the crash makes its card new: the page is
    written again with it, in place of the one whose card opens nothing any more."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    cfg = tmp_path / "club.toml"
    cfg.write_text('variant = "classic"\nlanguage = "sv"\n[companion]\nenabled = true\nhost = "127.0.0.1"\n'
                   f'port = {free_port()}\n[input]\nengine = "none"\n')
    journal = tmp_path / "game.jsonl"
    secrets_file = Path(str(journal) + ".companion")
    cards_dir = tmp_path / "tmp"
    cards_dir.mkdir()
    env = {**os.environ, "HOME": str(tmp_path), "TMPDIR": str(cards_dir), "PYTHONUNBUFFERED": "1"}
    root = Path(__file__).resolve().parents[2]

    def run(*args) -> tuple[subprocess.Popen, str]:
        proc = subprocess.Popen([sys.executable, "-m", "narrator.cli", *args], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=root, env=env)
        out = ""
        deadline = time.monotonic() + 60
        while "Platskort att skriva ut" not in out or "/host" not in out.split("Platskort", 1)[1]:
            line = proc.stdout.readline()
            assert line and time.monotonic() < deadline, out[-2000:]
            out += line
        return proc, out

    def kill(proc) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc.stdout.close()

    proc, out = run("play", "--config", str(cfg), "--journal", str(journal), "--voice", "text")
    page = Path(json.loads(secrets_file.read_text())["seats_page"])
    assert page.parent == cards_dir and f"(en QR-kod per plats): {page}" in out
    printed, written = page.read_bytes(), page.stat().st_mtime_ns
    assert printed.count(b"<svg") == 10
    kill(proc)
    time.sleep(0.05)  # a page written again would have another time
    proc, out = run("resume", "--journal", str(journal))
    try:
        assert f"(en QR-kod per plats): {page}" in out, out[-1500:]
        assert list(cards_dir.iterdir()) == [page], "one page of cards, the one the table printed"
        assert page.read_bytes() == printed and page.stat().st_mtime_ns == written
    finally:
        kill(proc)
    # seat 3's link re-issued before a crash: its printed card opens nothing any more
    kept = json.loads(secrets_file.read_text())
    kept["tokens"]["3"] = "a-new-link-for-seat-3"
    secrets_file.write_text(json.dumps(kept))
    proc, out = run("resume", "--journal", str(journal))
    try:
        pages = list(cards_dir.iterdir())
        assert len(pages) == 1 and pages[0] != page and f"(en QR-kod per plats): {pages[0]}" in out
        assert pages[0].read_bytes() != printed and pages[0].read_bytes().count(b"<svg") == 10
    finally:
        kill(proc)
