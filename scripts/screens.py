#!/usr/bin/env python3
"""Render every kind of phone and host screen of the companion, as a table meets them, into PNGs.

A classic game (Don 1, mafia 2 and 3, Sheriff 4) is played on ten phones and the host screen in
headless Chromium at a phone's size (390x844; the host also on a laptop, 1280x800), in English and
in Russian, with the players' names of a club table, and each moment is photographed into docs/screens/<lang>-<name>.png:

    join, role (held down at the Ready question), mates (a mafioso's role held down: his partners), ready, night (a shot taken), check (the Don's
    answer), day (speaker, nominees, time left), paused, vote (the first candidate called),
    vote-next (the next one called, the phone's own vote named), paused-vote
    (a vote held by a pause, its buttons greyed), yes-no,
    dead (a seat out of the game at a vote), checks (held down in daylight), won, lost,
    host-setup, host-day, host-night, host-over (laptop and phone),
    and table: a phone's night screen beside the host screen at the same moment (the README's picture)

    python3 scripts/screens.py [--out docs/screens] [--lang en ru]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.async_api import async_playwright  # noqa: E402

from narrator.companion.testing import Table, until  # noqa: E402
from narrator.config import parse_config  # noqa: E402

CHROMIUM = os.environ.get("NARRATOR_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--font-render-hinting=none"]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


# the table's name tags ([players]): the screens show them beside the seat numbers, as a club plays
NAMES = {
    "en": ["Ann", "Bob", "Chloe", "Dmitri", "Eve", "Frank", "Grace", "Hugo", "Ivy", "Jack"],
    "ru": ["Аня", "Борис", "Вика", "Гоша", "Даша", "Егор", "Женя", "Зоя", "Илья", "Кира"],
}


def config(lang: str):
    names = NAMES.get(lang, NAMES["en"])
    return parse_config(
        f'variant = "classic"\nlanguage = "{lang}"\n'
        '[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
        '[companion]\nvotes = true\npin = "2468"\n'
        '[players]\n' + "".join(f'{s} = "{n}"\n' for s, n in enumerate(names, start=1))
    )


class Shots:
    def __init__(self, out: Path, lang: str):
        self.out, self.lang, self.files = out, lang, []

    async def __call__(self, page, name: str, hold: bool = False) -> None:
        await asyncio.sleep(0.35)  # the page's own clock ticks every 250 ms
        path = self.out / f"{self.lang}-{name}.png"
        if hold:  # the role (and checks) are in the page only while the button is held
            await page.locator("#reveal").hover()
            await page.mouse.down()
        await page.screenshot(path=str(path))
        if hold:
            await page.mouse.up()
        self.files.append(path)


def shrink_png(path: Path, colours: int = 64) -> None:
    """Rewrite a Chromium screenshot as an indexed PNG of its most used colours (the rest mapped to
    the nearest): the screens are flat colours and text, and the docs stay a few hundred KB."""
    import struct
    import zlib

    data = path.read_bytes()
    pos, chunks = 8, []
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks.append((kind, data[pos + 8:pos + 8 + n]))
        pos += 12 + n
    width, height, depth, ctype = struct.unpack(">IIBB", chunks[0][1][:10])
    if depth != 8 or ctype not in (2, 6):
        return
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(c for k, c in chunks if k == b"IDAT"))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p_ = a + b - c
                pa, pb, pc = abs(p_ - a), abs(p_ - b), abs(p_ - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    pixels = [[r[i:i + 3] for i in range(0, stride, bpp)] for r in rows]
    counts: dict[bytes, int] = {}
    for r in pixels:
        for px in r:
            counts[px] = counts.get(px, 0) + 1
    palette = sorted(counts, key=counts.get, reverse=True)[:colours]
    index = {c: i for i, c in enumerate(palette)}

    def nearest(px: bytes) -> int:
        return min(range(len(palette)), key=lambda i: sum((x - y) ** 2 for x, y in zip(px, palette[i])))

    out = bytearray()
    for r in pixels:
        out.append(0)
        for px in r:
            i = index.get(px)
            if i is None:
                i = index[px] = nearest(px)
            out.append(i)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
                     + chunk(b"PLTE", b"".join(palette)) + chunk(b"IDAT", zlib.compress(bytes(out), 9)) + chunk(b"IEND", b""))


async def wait_all(pages, js: str) -> None:
    await asyncio.gather(*(p.wait_for_function(js, timeout=10_000) for p in pages))


async def fire(t: Table, pages) -> None:
    before = t.companion.hub.epoch
    t.live.fire()
    await until(lambda: t.companion.hub.epoch > before)
    await wait_all(pages, f"() => Number(document.body.dataset.epoch) >= {t.companion.hub.epoch}")


async def tap(page, choice) -> None:
    acks = int(await page.evaluate("() => document.body.dataset.acks || 0"))
    await page.locator(f'#grid button[data-choice="{choice}"]').click()
    await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)


async def host_do(host, action: str, seat: int | None = None) -> None:
    if seat is not None:
        await host.get_by_test_id("seat").fill(str(seat))
    await host.get_by_test_id(action).click()


async def end_speeches(host, game, state: str) -> None:
    while game.state == state:
        s = game.speaker
        await host_do(host, "end_speech")
        await until(lambda s=s: game.speaker != s or game.state != state)


async def play(t: Table, browser, shot: Shots) -> None:
    game, hub = t.live.game, t.companion.hub
    base = f"http://127.0.0.1:{t.companion.port}"
    pages = {s: await (await browser.new_context(viewport=PHONE)).new_page() for s in range(1, 11)}
    everyone = list(pages.values())
    host = await (await browser.new_context(viewport=LAPTOP)).new_page()
    host_phone = await (await browser.new_context(viewport=PHONE)).new_page()
    for h in (host, host_phone):
        await h.goto(t.host_link)
        # the link the terminal prints (it carries the host's key) opens the host screen without a PIN

    await asyncio.gather(*(pages[s].goto(base + "/#" + hub.seat_tokens[s]) for s in pages))
    await wait_all(everyone, "() => document.body.dataset.state === 'setup'")
    await shot(pages[5], "join")
    dealing = asyncio.create_task(t.companion.deal_when_ready([t.live.session.dealing_event()]))
    await wait_all(everyone, "() => !!document.querySelector('#grid button[data-choice=ready]')")
    await shot(pages[4], "role", hold=True)
    await shot(pages[2], "mates", hold=True)
    for s in range(1, 8):
        await pages[s].locator('#grid button[data-choice="ready"]').click()
    await pages[1].wait_for_function("() => document.querySelector('#grid button').disabled")
    await shot(pages[1], "ready")
    await shot(host, "host-setup")
    await host_do(host, "start")
    await asyncio.wait_for(dealing, 10)
    while game.state == "night":
        await fire(t, everyone)

    # day 1: two nominations, then a pause, a tied vote, a re-vote and the yes/no question
    speaker = game.speaker
    await host_do(host, "nominate", 7)
    await until(lambda: game.public_view()["nominations"] == [7])
    await host_do(host, "end_speech")
    await until(lambda: game.speaker != speaker)
    await host_do(host, "nominate", 8)
    await until(lambda: game.public_view()["nominations"] == [7, 8])
    await wait_all(everyone, "() => document.body.dataset.state === 'speeches'")
    await shot(pages[5], "day")
    await shot(host, "host-day")
    await host_do(host, "pause")
    await wait_all(everyone, "() => document.body.dataset.paused === '1'")
    await shot(pages[5], "paused")
    await host_do(host, "resume")
    await end_speeches(host, game, "speeches")
    await wait_all(everyone, "() => document.body.dataset.state === 'voting'")
    # the host calls 7, then 8 (seed 004 §4.4): each phone has the called candidate's button alone
    await tap(pages[1], 7)
    await shot(pages[1], "vote")
    # a pause in the middle of the vote: the ballot stays, its buttons greyed until the game goes on
    await host_do(host, "pause")
    await wait_all(everyone, "() => document.body.dataset.paused === '1'")
    await shot(pages[2], "paused-vote")
    await host_do(host, "resume")
    await wait_all(everyone, "() => document.body.dataset.paused !== '1'")
    await asyncio.gather(*(tap(pages[s], 7) for s in range(2, 6)))
    await fire(t, everyone)  # "Stop." — 8 is called
    await shot(pages[1], "vote-next")
    await asyncio.gather(*(tap(pages[s], 8) for s in range(6, 11)))
    await until(lambda: game.state == "tie_speeches")
    await end_speeches(host, game, "tie_speeches")
    await wait_all(everyone, "() => document.body.dataset.state === 'revote'")
    await asyncio.gather(*(tap(pages[s], 7) for s in range(1, 6)))
    await fire(t, everyone)
    await asyncio.gather(*(tap(pages[s], 8) for s in range(6, 11)))
    await wait_all(everyone, "() => document.body.dataset.state === 'all_leave_vote'")
    await shot(pages[3], "yes-no")
    await asyncio.gather(*(tap(p, "yes") for p in everyone))
    await until(lambda: game.state == "last_words")
    await end_speeches(host, game, "last_words")

    # night 1: the shot, the Don's check (photographed during its step), the Sheriff's
    await wait_all(everyone, "() => document.body.dataset.step === 'mafia_shoots'")
    await asyncio.gather(*(tap(pages[s], 9) for s in (1, 2, 3)))
    await shot(pages[2], "night")
    await shot(host, "host-night")
    await fire(t, everyone)
    await tap(pages[1], 4)
    await shot(pages[1], "check")
    await fire(t, everyone)
    await tap(pages[4], 1)
    await fire(t, everyone)
    await wait_all(everyone, "() => document.body.dataset.state !== 'night'")
    await pages[4].reload()
    await pages[4].wait_for_function("() => document.body.dataset.state === 'last_words'")
    await shot(pages[4], "checks", hold=True)
    await end_speeches(host, game, "last_words")

    # day 2: 5 and 6 nominated; the dead see the vote without buttons; 5 goes and the mafia wins
    await host_do(host, "nominate", 5)
    await until(lambda: game.public_view()["nominations"] == [5])
    s = game.speaker
    await host_do(host, "end_speech")
    await until(lambda: game.speaker != s)
    await host_do(host, "nominate", 6)
    await until(lambda: game.public_view()["nominations"] == [5, 6])
    await end_speeches(host, game, "speeches")
    await wait_all(everyone, "() => document.body.dataset.state === 'voting'")
    await shot(pages[8], "dead")
    await asyncio.gather(*(tap(pages[s], 5) for s in list(game.alive) if s != 5))
    await fire(t, everyone)  # 6 is called: 5 votes for him
    await tap(pages[5], 6)
    await until(lambda: game.state in ("last_words", "over"))
    await end_speeches(host, game, "last_words")
    await wait_all(everyone, "() => document.body.dataset.state === 'over'")
    await shot(pages[1], "won")
    await shot(pages[5], "lost")
    await shot(host, "host-over")
    await shot(host_phone, "host-over-phone")


async def side_by_side(browser, phone: Path, host: Path, into: Path) -> Path:
    """One picture of the table: the phone's screen at its size beside the host's laptop screen."""
    import base64

    def uri(p: Path) -> str:
        return "data:image/png;base64," + base64.b64encode(p.read_bytes()).decode()

    page = await (await browser.new_context(viewport={"width": 1720, "height": 880})).new_page()
    await page.set_content(
        "<body style='margin:0;background:#777;display:flex;gap:20px;padding:18px;align-items:flex-start'>"
        f"<img src='{uri(phone)}' style='width:390px;border-radius:18px'>"
        f"<img src='{uri(host)}' style='width:1280px;border-radius:6px'></body>")
    await page.screenshot(path=str(into), full_page=True)
    await page.close()
    return into


async def main(out: Path, langs: list[str]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            for lang in langs:
                shot = Shots(out, lang)
                async with Table(config(lang)) as t:
                    await play(t, browser, shot)
                files += shot.files
                files.append(await side_by_side(browser, out / f"{lang}-night.png", out / f"{lang}-host-night.png",
                                                out / f"{lang}-table.png"))
        finally:
            await browser.close()
    return files


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "screens"))
    ap.add_argument("--lang", nargs="+", default=["en", "ru"])
    a = ap.parse_args()
    written = asyncio.run(main(Path(a.out), a.lang))
    for p in written:
        shrink_png(p)
    total = sum(p.stat().st_size for p in written)
    print(f"{len(written)} screens, {total // 1024} KB, in {a.out}")
