"""Phones a table can trust, in real headless Chromium at a phone's size (390×844):

- the mafia change their shot on their phones and the last choice counts: the morning announces
  the death (issue 9: every mafioso tapped 7, the Don tapped 7 again, and the morning was good);
- the Don taps again after his check: the answer stays on his screen; at dawn it leaves the page;
- a seat link opened on a second phone is refused with a clear message, and the owner's phone
  keeps its seat;
- the host moves a seat to another phone: a new one-time QR on the host screen only, the old phone
  is signed off, the new one takes the seat.

Screenshots go to $NARRATOR_SHOTS (default: a temporary folder).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from chromium import PHONE, expect, launched, need_browser

DON, MAFIA, SHERIFF, MOVED = 1, (1, 2, 3), 4, 7
IN_BROWSER = (1, 2, 3, 4, 7)  # the other seats are protocol-level phones: the night needs no more


SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-trust-"))


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"))


async def data(page, key: str) -> str:
    return await page.evaluate(f"() => document.body.dataset.{key} || ''")


async def tap(page, choice) -> str:
    acks = int(await data(page, "acks") or 0)
    await page.locator(f'#grid button[data-choice="{choice}"]').click()
    await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
    return await page.locator("#result").inner_text()


async def chosen(page) -> list[str]:
    return await page.evaluate("() => Array.from(document.querySelectorAll('#grid button.chosen')).map(b => b.dataset.choice)")


async def next_screen(t: Table, pages) -> None:
    before = t.companion.hub.epoch
    t.live.fire()
    await until(lambda: t.companion.hub.epoch > before, what="the next screen")
    await asyncio.gather(*(p.wait_for_function(f"() => Number(document.body.dataset.epoch) >= {t.companion.hub.epoch}",
                                               timeout=10_000) for p in pages))


def test_changed_shots_kept_checks_and_seats_that_stay_with_their_phone():
    need_browser()

    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t, launched() as browser:
            await play(t, browser)

    async def phone_page(browser):
        return await (await browser.new_context(viewport=PHONE)).new_page()

    async def play(t: Table, browser):
        hub, game = t.companion.hub, t.live.game
        base = f"http://127.0.0.1:{t.companion.port}"
        pages = {s: await phone_page(browser) for s in IN_BROWSER}
        await asyncio.gather(*(pages[s].goto(f"{base}/#{hub.seat_tokens[s]}") for s in pages))
        others = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in range(1, 11) if s not in pages}
        await asyncio.gather(*(p.join() for p in others.values()))
        for s, page in pages.items():
            await expect(page.locator("#seat")).to_have_text(f"Seat {s}")
        assert all(hub.device_keys.get(s) for s in range(1, 11))

        # -------- a second phone opens seat 7's link (a photo of the card): refused, the owner stays
        thief = await phone_page(browser)
        await thief.goto(f"{base}/#{hub.seat_tokens[MOVED]}")
        await expect(thief.locator("#notice-text")).to_have_text("This seat is already taken on another phone; ask the host.")
        await shot(thief, "spent-link-refused")
        assert "Seat 7" not in await thief.locator("#seat").inner_text()
        await expect(pages[MOVED].locator("#status")).to_have_text("connected")
        # the owner reloads (a screen lock): his phone's own key brings him back, no link needed
        await pages[MOVED].reload()
        await expect(pages[MOVED].locator("#seat")).to_have_text("Seat 7")

        # -------- night 1: the mafia change their shot from 8 to 9; the Don taps 9 twice
        t.deal()
        await until(lambda: game.state == "night")
        await t.end_night()
        await t.end_speeches()
        assert game.step.name == "mafia_shoots"
        everyone = list(pages.values())
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.step === 'mafia_shoots'") for p in everyone))
        for s in MAFIA:
            assert await tap(pages[s], 8) == "You chose 8 — you can change it until the step ends."
        for s in MAFIA:
            assert await tap(pages[s], 9) == "You chose 9 — you can change it until the step ends."
        assert await tap(pages[DON], 9) == "You chose 9 — you can change it until the step ends."
        assert await chosen(pages[DON]) == ["9"]
        await shot(pages[DON], "shot-changed-to-9")
        for s in (SHERIFF, MOVED):
            await tap(pages[s], 5)          # cover taps

        # -------- the Don's check, then a second tap: the answer stays on his screen
        await next_screen(t, everyone)
        assert game.step.name == "don_checks"
        answer = await tap(pages[DON], SHERIFF)
        assert answer == "Player 4 IS the Sheriff."
        again = await tap(pages[DON], 6)
        assert again.startswith("Player 4 IS the Sheriff.") and "checked already" in again
        assert await chosen(pages[DON]) == [str(SHERIFF)], "a refused tap does not move the highlight"
        await shot(pages[DON], "check-kept-after-retap")

        # -------- dawn: the changed shot counts, and the check leaves the page's DOM
        await next_screen(t, everyone)
        await next_screen(t, everyone)
        await until(lambda: game.state != "night")
        assert 9 not in game.alive
        assert (9, "shot") in [(e["seat"], e["cause"]) for e in t.records if e.get("type") == "eliminated"]
        await pages[DON].wait_for_function("() => document.body.dataset.state !== 'night'")
        html = await pages[DON].content()
        assert "IS the Sheriff" not in html, "the check result is gone from the page once the night is over"
        assert await data(pages[DON], "ack") == ""
        caption = await pages[SHERIFF].locator("#caption").inner_text()
        assert "9" in caption, caption          # "the morning is not good, player 9 leaves us"
        await shot(pages[SHERIFF], "morning-9-leaves")

        # -------- the host moves seat 7 to another phone
        host = await (await browser.new_context(viewport={"width": 1280, "height": 900})).new_page()
        await host.goto(t.host_link)                             # the terminal's link: no PIN
        await expect(host.get_by_test_id("phones-on")).to_be_visible()
        await expect(host.locator('#phones .chip.missing[data-seat="7"]')).to_have_count(0)  # seat 7's phone is connected
        old_key = hub.device_keys[MOVED]
        await host.get_by_test_id("seat").fill(str(MOVED))
        await host.get_by_test_id("reissue").click()
        await expect(host.locator("#reissued-qr svg")).to_be_visible()
        await shot(host, "host-reissued-seat-7")
        await expect(pages[MOVED].locator("#notice-text")).to_have_text("This seat is already taken on another phone; ask the host.")
        assert await pages[MOVED].locator("#grid button").count() == 0, "nothing of the old screen to tap"
        await shot(pages[MOVED], "old-phone-signed-off")
        assert old_key not in hub.device_keys.values()
        new_phone = await phone_page(browser)
        await new_phone.goto(f"{base}/#{hub.seat_tokens[MOVED]}")
        await expect(new_phone.locator("#seat")).to_have_text("Seat 7")
        await expect(host.locator("#reissued")).to_be_hidden()        # the QR leaves once it is used
        await shot(new_phone, "new-phone-has-seat-7")
        # the old phone, reloaded, cannot take it back
        await pages[MOVED].reload()
        await expect(pages[MOVED].locator("#notice-text")).to_have_text("This seat is already taken on another phone; ask the host.")
        for p in others.values():
            await p.close()

    asyncio.run(main())
