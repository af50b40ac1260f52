"""Classic's vote on the phones as the host calls it (seed 004 §4.4 «Vote casting is performed in
sequence the submissions were made … right after vote for certain candidate has been announced and
before host says "Stop"»), in real headless Chromium at 360×740: the ballot is the candidate being
called, and under it the order of the calls ("7: over · 8: now · 6: not yet"); a phone that voted
reads its own vote ("You voted for player 7.") and has no button any more.

Screenshots go to $NARRATOR_SHOTS (default: a temporary folder).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from pathlib import Path

from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from chromium import expect, launched, need_browser
from seat_pages import SMALL, chosen, data, seated, tap

SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-vote-call-"))


async def ballot(page) -> tuple[list[str], str]:
    """The phone's buttons, and the order of the calls under them."""
    buttons = await page.evaluate("() => Array.from(document.querySelectorAll('#grid button')).map(b => b.dataset.choice)")
    return buttons, await page.locator("#calls").inner_text()


def test_the_phones_follow_the_host_calling_each_candidate_in_turn():
    need_browser()

    async def main():
        config = parse_config(CLASSIC_DEAL + "[companion]\nvotes = true\n")
        async with Table(config) as t, launched() as browser:
            hub, game = t.companion.hub, t.live.game
            pages, others = await seated(t, browser, (5, 9))
            await t.to_first_day()
            await t.to_classic_vote(7, 8, 6)
            # the first call: 7 alone can be tapped; 8 and 6 are still to come
            for page in pages.values():
                await page.wait_for_function("() => !!document.querySelector('#grid button[data-choice=\"7\"]')")
                assert await ballot(page) == (["7"], "7: now · 8: not yet · 6: not yet")
            await tap(pages[5], 7)
            await expect(pages[5].get_by_test_id("own")).to_have_text("You voted for player 7.")
            assert await chosen(pages[5]) == ["7"]          # marked on the screen it was cast on
            # "Stop." — the second call: 7 is over, 8 can be tapped, 6 is still to come
            t.live.fire()
            await until(lambda: game.calling == 1, what="the second call")
            await pages[9].wait_for_function("() => !!document.querySelector('#grid button[data-choice=\"8\"]')")
            assert await ballot(pages[9]) == (["8"], "7: over · 8: now · 6: not yet")
            assert await pages[9].evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]
            SHOTS.mkdir(parents=True, exist_ok=True)
            await pages[9].screenshot(path=str(SHOTS / "classic-vote-second-call-en.png"))
            print("screenshot:", SHOTS / "classic-vote-second-call-en.png")
            # one ballot: the phone that voted for 7 has no button in 8's call, and reads its vote
            await pages[5].wait_for_function("() => document.querySelectorAll('#grid button').length === 0")
            assert (await ballot(pages[5]))[1] == "7: over · 8: now · 6: not yet"
            await expect(pages[5].get_by_test_id("own")).to_have_text("You voted for player 7.")
            await tap(pages[9], 8)
            await expect(pages[9].get_by_test_id("own")).to_have_text("You voted for player 8.")
            t.live.fire()
            await until(lambda: game.calling == 2, what="the last call")
            t.live.fire()
            await until(lambda: game.state != "voting", what="the counts")
            result = [e for e in t.records if e.get("type") == "vote_result"][-1]
            assert result["counts"] == {"7": 1, "8": 1, "6": 8}
            assert len(others) == 8

    asyncio.run(main())


async def lagging_page(browser, url: str):
    """A phone at 360×740 whose network can lag: while `held` is set, what the server sends waits
    (a slow Wi-Fi), and goes on in its order once it is cleared. What the phone sends goes at once."""
    page = await (await browser.new_context(viewport=SMALL)).new_page()
    held: list[str | bytes] = []
    lag = {"on": False}

    async def route(ws):
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))

        def down(m):
            if lag["on"]:
                held.append(m)
            else:
                ws.send(m)

        server.on_message(down)

        def release():
            lag["on"] = False
            while held:
                ws.send(held.pop(0))

        lag["release"] = release

    await page.route_web_socket("**/ws", route)
    await page.goto(url)
    return page, lag


def test_the_heading_names_the_one_called_and_a_tap_that_arrives_after_his_call_is_told_so():
    """The phone's heading names the candidate being called ("Vote: player 8 (Bo)"), as sverige's
    «Röstning på spelare 2» does. A tap on 7 that reaches the server after 7's call has closed (a
    phone whose network lags behind the "Stop.") is no vote: that phone alone reads that the votes
    for 7 are counted, and the player still has his vote — his button for 8 counts."""
    need_browser()

    async def main():
        config = parse_config(CLASSIC_DEAL + '[companion]\nvotes = true\n[players]\n8 = "Bo"\n')
        async with Table(config) as t, launched() as browser:
            hub, game = t.companion.hub, t.live.game
            others = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in range(1, 11) if s != 5}
            await asyncio.gather(*(p.join() for p in others.values()))
            t.phones = others
            page, lag = await lagging_page(browser, f"http://127.0.0.1:{t.companion.port}/#{hub.seat_tokens[5]}")
            await expect(page.locator("#seat")).to_have_text(hub.word("seat", seat=5))
            await t.to_first_day()
            await t.to_classic_vote(7, 8, 6)
            await page.wait_for_function("() => !!document.querySelector('#grid button[data-choice=\"7\"]')")
            await expect(page.locator("#phase-text")).to_have_text("Vote: player 7")
            # the network lags: "Stop." and 8's call are on the server, not yet on this phone
            lag["on"] = True
            t.live.fire()
            await until(lambda: game.calling == 1, what="8 called")
            acks = int(await data(page, "acks") or 0)
            await page.locator('#grid button[data-choice="7"]').click()
            await until(lambda: ("call over", 5) in hub.refused, what="the late tap at the server")
            lag["release"]()
            await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
            await expect(page.locator("#result")).to_have_text("Too late: the votes for player 7 are counted.")
            await expect(page.locator("#phase-text")).to_have_text("Vote: player 8 (Bo)")
            assert 5 not in game.votes  # no vote spent
            assert (await ballot(page)) == (["8"], "7: over · 8 (Bo): now · 6: not yet")
            assert await page.evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]
            SHOTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(SHOTS / "classic-vote-late-tap-en.png"))
            print("screenshot:", SHOTS / "classic-vote-late-tap-en.png")
            # only on that phone: no other phone was told anything of it
            assert not any("Too late" in json.dumps(f, ensure_ascii=False) for p in others.values() for _, f, _ in p.frames)
            assert await tap(page, 8) == ""  # said once, in the line above the table:
            await expect(page.get_by_test_id("own")).to_have_text("You voted for player 8 (Bo).")
            assert game.votes == {5: 8}

    asyncio.run(main())
