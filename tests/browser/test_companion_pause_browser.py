"""One pause for every host, played on phones in real headless Chromium at 360×740 and the host
screen held by the referee on a phone of the same size:

- at night the host screen offers no Pause (the steps run their full time: a longer step tells
  the table who is awake, and "The game is paused." would be heard in the night); a Pause pressed
  on a screen a moment old is refused on that host screen only — no phone's screen changes;
- by day, in the vote, Pause holds the table: every phone says paused and its buttons are greyed
  and cannot be tapped, a phone's tap that reaches the server reads "The game is paused." on that
  phone alone and counts nothing, the host screen offers only Resume;
- Resume brings the same screen back (the same ballot, the narrator's words) and the votes count.

Screenshots go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from chromium import expect, launched, need_browser
from narrator.companion.testing import Table, until
from narrator.config import parse_config
from seat_pages import SMALL, data, seated, tap

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None
IN_BROWSER = (1, 5, 7)

VISIBLE_JS = """() => Array.from(document.querySelectorAll("button[data-act]"))
  .filter(b => !b.hidden && b.getBoundingClientRect().width > 0 && !b.closest("[hidden]")).map(b => b.dataset.act)"""
DISABLED_JS = "() => Array.from(document.querySelectorAll('#grid button')).map(b => b.disabled)"


def config():
    return parse_config(
        'variant = "classic"\nlanguage = "en"\n'
        '[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
        '[companion]\nvotes = true\n'
    )


async def shot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / f"pause-{name}.png"), full_page=True)


async def host_press(host, action: str, seat: int | None = None) -> None:
    if seat is not None:
        await host.get_by_test_id("seat").fill(str(seat))
    await host.get_by_test_id(action).click()


def test_a_phone_table_pauses_by_day_only_and_a_pause_holds_every_phone():
    need_browser()

    async def main():
        async with Table(config()) as t, launched() as browser:
            await play(t, browser)

    async def play(t: Table, browser):
        game, hub = t.live.game, t.companion.hub
        pages, others = await seated(t, browser, IN_BROWSER)
        host = await (await browser.new_context(viewport=SMALL)).new_page()
        await host.goto(t.host_link)  # the terminal's link: no PIN
        await expect(host.get_by_test_id("state")).not_to_be_empty()

        t.deal()
        await until(lambda: game.state == "night", what="night zero")
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.state === 'night'") for p in pages.values()))
        await host.wait_for_function("() => !document.querySelector('button[data-act=pause]').offsetParent")
        shown = await host.evaluate(VISIBLE_JS)
        assert "pause" not in shown and "resume" not in shown, shown
        # a Pause pressed on a screen a moment old (the button is gone now): refused, here alone
        # the phase line, not its countdown: a loaded machine may tick a second in between
        before = {s: await p.locator("#phase-text").inner_text() for s, p in pages.items()}
        await host.evaluate("() => document.querySelector('button[data-act=pause]').click()")
        await expect(host.get_by_test_id("refused")).to_have_text(hub.word("host_pause_at_night"))
        await shot(host, "host-refused-at-night")
        assert not t.live.paused
        for s, p in pages.items():
            assert await p.locator("#phase-text").inner_text() == before[s]
            assert hub.word("host_pause_at_night") not in await p.evaluate("() => document.body.innerText")
        while game.state == "night":
            t.live.fire()
            await t.settle()
        await until(lambda: game.state == "speeches", what="the day")

        # day 1: two nominations, the speeches end, the vote opens on the phones
        await expect(host.get_by_test_id("refused")).to_have_text("", timeout=12_000)  # gone by itself
        await host_press(host, "nominate", 5)
        await until(lambda: game.public_view()["nominations"] == [5])
        await host_press(host, "end_speech")
        await host_press(host, "nominate", 6)
        await until(lambda: game.public_view()["nominations"] == [5, 6])
        while game.state == "speeches":
            s = game.speaker
            await host_press(host, "end_speech")
            await until(lambda s=s: game.speaker != s or game.state != "speeches")
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.state === 'voting'") for p in pages.values()))
        epoch = await data(pages[7], "epoch")
        caption = await pages[7].locator("#caption").inner_text()

        # Pause: every phone says so, its buttons cannot be tapped; the host offers only Resume
        await host_press(host, "pause")
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.paused === '1'") for p in pages.values()))
        for p in pages.values():
            assert all(await p.evaluate(DISABLED_JS))
        assert await data(pages[7], "epoch") == epoch
        await expect(host.get_by_test_id("resume")).to_be_visible()
        assert await host.evaluate(VISIBLE_JS) == ["resume", "reissue"]  # a seat's new link is no move in the game
        # the votes are held: the host's screen waits for his Resume, and names that button
        await expect(host.locator("#awaiting")).to_have_text("you to tap Resume — the game is paused")
        acks = await data(pages[7], "acks")
        await pages[7].locator('#grid button[data-choice="5"]').click(force=True)  # a finger on a greyed button
        await asyncio.sleep(0.4)
        assert await data(pages[7], "acks") == acks, "a greyed button sends nothing"
        # a tap that reaches the server in the pause (sent a moment before): on that phone only
        ack = await others[8].tap(target=5)
        assert not ack["ok"] and ack["text"] == t.live.voice.render("paused")
        await t.settle()
        assert t.recorded("vote", "voter") == []
        for p in pages.values():
            assert ack["text"] not in await p.locator("#result").inner_text()
        await shot(pages[7], "phone-paused-vote")
        await shot(host, "host-paused")

        # Resume: the same ballot and words come back, and the votes count
        await host_press(host, "resume")
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.paused === ''") for p in pages.values()))
        await expect(host.locator("#awaiting")).to_contain_text("votes from seats")
        assert await data(pages[7], "epoch") == epoch
        assert await pages[7].locator("#caption").inner_text() == caption
        assert not any(await pages[7].evaluate(DISABLED_JS))
        assert await tap(pages[7], 5) == ""  # said once, in the line above the table
        await expect(pages[7].get_by_test_id("own")).to_have_text(t.companion.hub.word("voted_for", seat=t.companion.hub.seat_label(5)))
        await until(lambda: t.recorded("vote", "voter") == [(7,)], what="the vote after resume")
        await shot(pages[7], "phone-resumed-vote")

    asyncio.run(main())
