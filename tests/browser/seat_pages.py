"""Seat pages shared by the browser tests: the phones of a table in Chromium at phone size, and
what a test reads from and does on them."""

from __future__ import annotations

import asyncio

from narrator.companion.testing import Phone, Table
from chromium import expect

SMALL = {"width": 360, "height": 740}


async def data(page, key: str) -> str:
    return await page.evaluate(f"() => document.body.dataset.{key} || ''")


async def chosen(page) -> list[str]:
    return await page.evaluate("() => Array.from(document.querySelectorAll('#grid button.chosen')).map(b => b.dataset.choice)")


async def tap(page, choice) -> str:
    acks = int(await data(page, "acks") or 0)
    await page.locator(f'#grid button[data-choice="{choice}"]').click()
    await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
    return await page.locator("#result").inner_text()


async def seated(t: Table, browser, in_browser) -> tuple[dict, dict]:
    """Browser pages for the seats `in_browser`, protocol phones for the rest; all joined."""
    hub = t.companion.hub
    base = f"http://127.0.0.1:{t.companion.port}"
    pages = {s: await (await browser.new_context(viewport=SMALL)).new_page() for s in in_browser}
    await asyncio.gather(*(pages[s].goto(f"{base}/#{hub.seat_tokens[s]}") for s in pages))
    for s, page in pages.items():
        await expect(page.locator("#seat")).to_have_text(hub.word("seat", seat=s))
    others = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in range(1, 11) if s not in pages}
    await asyncio.gather(*(p.join() for p in others.values()))
    t.phones = others  # closed with the table
    return pages, others
