"""What a real table did to its phones in a play-test, in headless Chromium at a small phone's size
(360×740), each played the way the table met it:

- the host records a day vote at the console ("tap 5 3": the player raised his hand) while the
  player's phone shows the ballot; the phone then says, once and above the table, the vote and
  that the host recorded it («Вы проголосовали за игрока 3. Ваш голос записал ведущий.») and
  marks it, a later tap on another candidate is answered with that vote and
  moves nothing, and a reload marks it again. Before, the phone kept
  an open ballot with nothing marked and answered a tap with "Игрок 5 уже проголосовал." alone
  (seed 004 §4.4: one vote each, the first one counts).

Screenshots go to $NARRATOR_SHOTS (default: a temporary folder).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from narrator.companion.testing import Phone, Table, until
from narrator.config import parse_config
from chromium import expect, launched, need_browser

SMALL_PHONE = {"width": 360, "height": 740}
SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-table-"))


def config(lang: str, extra: str = ""):
    return parse_config(
        f'variant = "classic"\nlanguage = "{lang}"\n'
        '[dealing]\nroles = { 7 = "don", 2 = "mafia", 9 = "mafia", 5 = "sheriff" }\n'
        '[companion]\nvotes = true\n' + extra
    )


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"))


async def chosen(page) -> list[str]:
    return await page.evaluate("() => Array.from(document.querySelectorAll('#grid button.chosen')).map(b => b.dataset.choice)")


async def tap(page, choice) -> str:
    acks = int(await page.evaluate("() => document.body.dataset.acks || 0"))
    await page.locator(f'#grid button[data-choice="{choice}"]').click()
    await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
    return await page.locator("#result").inner_text()


async def phone_pages(t: Table, browser, seats):
    hub = t.companion.hub
    base = f"http://127.0.0.1:{t.companion.port}"
    pages = {s: await (await browser.new_context(viewport=SMALL_PHONE)).new_page() for s in seats}
    await asyncio.gather(*(pages[s].goto(f"{base}/#{hub.seat_tokens[s]}") for s in pages))
    others = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in hub.seat_tokens if s not in pages}
    await asyncio.gather(*(p.join() for p in others.values()))
    t.phones.update(others)
    return pages


async def to_the_vote(t: Table, nominees=(8, 3)) -> None:
    """Night zero, then day 1 with the nominations typed at the console, to the vote."""
    game = t.live.game
    await t.to_first_day()
    for seat in nominees:
        t.live.submit_line(f"say выставляю игрока {seat}")
        await until(lambda seat=seat: seat in game.public_view()["nominations"], what=f"nomination of {seat}")
        t.live.submit_line("timeout")
        await t.settle()
    while game.state == "speeches":
        t.live.submit_line("timeout")
        await t.settle()
    assert game.state == "voting"


def test_a_vote_the_console_records_is_the_phones_vote():
    need_browser()

    async def main():
        # both nominees on the ballot at once (vote_call = "together"): the console records one of two
        async with Table(config("ru", '[rules]\nvote_call = "together"\n')) as t, launched() as browser:
            game, hub = t.live.game, t.companion.hub
            pages = await phone_pages(t, browser, (5, 6))
            await to_the_vote(t)
            await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.state === 'voting'") for p in pages.values()))
            await expect(pages[5].locator("#grid button")).to_have_count(2)

            # the player raises his hand for 3; the host types it
            t.live.submit_line("tap 5 3")
            await expect(pages[5].get_by_test_id("own")).to_have_text("Вы проголосовали за игрока 3. Ваш голос записал ведущий.")
            await expect(pages[5].locator("#result")).to_have_text("")  # said once, above the table
            assert await chosen(pages[5]) == ["3"]
            assert await pages[6].locator("#result").inner_text() == "", "another phone hears nothing of it"
            await shot(pages[5], "console-vote-on-phone")

            # the player taps 8 on his phone afterwards: refused under the vote that stands
            again = await tap(pages[5], 8)
            assert again == "Ведущий записал ваш голос: 3"
            assert await chosen(pages[5]) == ["3"], "the refused tap does not move the mark"
            await shot(pages[5], "console-vote-then-phone-tap")

            # a reload (the phone locked and woke) marks the vote again
            await pages[5].reload()
            await pages[5].wait_for_function("() => document.body.dataset.state === 'voting'")
            await pages[5].wait_for_function("() => document.querySelectorAll('#grid button.chosen').length === 1")
            assert await chosen(pages[5]) == ["3"]

            # the vote counted once, for 3
            assert ("input", 5) in [(e["type"], e["event"].get("seat")) for e in t.records if e.get("event", {}).get("type") == "tap"]
            taps = [e for e in t.records if e.get("event", {}).get("type") == "tap" and e["event"].get("seat") == 5]
            assert [(e["type"], e["event"]["target"]) for e in taps] == [("input", 3), ("rejected", 8)]

    asyncio.run(main())


def test_a_hungarian_table_sees_the_accused_not_nominees():
    """seed 001: «Vádat emelek XY ellen» — in hungariq the day's players on trial are the accused
    (vádlott). The phones said "Jelöltek: 9" (nominees), a word of the other rule systems."""
    need_browser()
    hu = parse_config(
        'variant = "hungariq"\nlanguage = "hu"\nseats = 10\n'
        '[dealing]\nroles = { 2 = "mafia", 6 = "mafia", 9 = "protected_mafia", 4 = "inspector" }\n'
        '[companion]\nvotes = true\n'
    )

    async def main():
        async with Table(hu) as t, launched() as browser:
            game = t.live.game
            pages = await phone_pages(t, browser, (1, 9))
            await t.to_first_day()
            t.live.submit_line("say a 3 vádat emel a 9 ellen")
            await until(lambda: game.public_view()["nominations"] == [9], what="the accusation")
            for page in pages.values():
                # the accused, and the day's time beside the trial's, stopped while he is tried
                await expect(page.get_by_test_id("day-info")).to_have_text(
                    "Vád alatt: 9 · A napból még 20:00 van hátra; áll, amíg a vádról döntünk.")
                assert "Jelölt" not in await page.evaluate("() => document.body.innerText")
            await shot(pages[1], "hu-accused")
            # the support vote recorded at the console shows on the accused's phone as his own
            t.live.submit_line("tap 9 no")
            await expect(pages[9].get_by_test_id("own")).to_have_text(
                "Nem támogattad a vádat. Vádlott: 9. A szavazatodat a játékvezető rögzítette.")
            await expect(pages[9].locator("#result")).to_have_text("")  # said once, above the table
            assert await chosen(pages[9]) == ["no"]

    asyncio.run(main())
