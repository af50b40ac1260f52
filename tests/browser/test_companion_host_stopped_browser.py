"""The host screen notices that the game stopped (headless Chromium). It used to go on showing the
table as it stood, its clock running, and took End speech without a word after the narrator's
process had ended. Now:

- a game stopped at the terminal (Ctrl-C: the companion stops) says so at the top of the screen,
  in the table's words; the clock stops ("—") and no button takes a press;
- a game whose server is simply gone (a crash: no word from it) reads "No connection to the game —
  it may have stopped", the same way.
"""

from __future__ import annotations

import asyncio

from narrator.companion.testing import CLASSIC_DEAL, Table, until
from narrator.config import parse_config
from chromium import PHONE, expect, launched, need_browser


async def day_on_the_host_screen(t: Table, browser):
    await t.join_all()
    await t.to_first_day()
    page = await browser.new_page(viewport=PHONE)
    await page.goto(t.host_link)
    await expect(page.locator("#timer")).not_to_have_text("—")
    await expect(page.locator("#down")).to_be_hidden()
    return page


async def pressed_end_speech_is_refused_on_screen(page, t: Table, words: str) -> None:
    await expect(page.locator("#down")).to_have_text(words)
    await expect(page.locator("#timer")).to_have_text("—")
    await asyncio.sleep(0.6)
    await expect(page.locator("#timer")).to_have_text("—")  # it does not run on
    button = page.locator("button[data-act=end_speech]")
    assert await button.evaluate("b => getComputedStyle(b).pointerEvents") == "none"
    speaker = t.live.game.floor
    await button.dispatch_event("click")  # a press that got through all the same: said, not sent
    await expect(page.locator("#refused")).to_have_text(words)
    assert t.live.game.floor == speaker


def test_the_host_screen_says_the_game_stopped_and_takes_no_button():
    need_browser()

    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t, launched() as browser:
            page = await day_on_the_host_screen(t, browser)
            await t.companion.stop()  # as `narrator play` stops it after Ctrl-C
            await pressed_end_speech_is_refused_on_screen(page, t, t.companion.hub.word("host_game_stopped"))

    asyncio.run(main())


def test_the_host_screen_says_the_connection_is_lost_when_the_server_is_gone_without_a_word():
    need_browser()

    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t, launched() as browser:
            page = await day_on_the_host_screen(t, browser)
            t.companion.server.should_exit = True  # a crash: the server goes, nothing is said
            await until(lambda: t.companion.task.done(), what="the server gone")
            await pressed_end_speech_is_refused_on_screen(page, t, t.companion.hub.word("host_connection_lost"))

    asyncio.run(main())
