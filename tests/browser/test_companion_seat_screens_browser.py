"""What a phone shows about its own seat, in real headless Chromium at 360×740 (a play-tester's
ten phones):

- a page pushed off its seat by a second tab of the same phone (day 2 vote, seat 9) keeps nothing
  of the old screen (no buttons, no running countdown) and offers a button to use the seat on this
  screen again; it never takes the seat back by itself, not even when its tab comes to the front;
- a dead seat during another player's last words reads the table's phase line as every phone does,
  and apart from it, as its own standing, that it is out of the game;
- a reload mid-check brings back the check result and the highlighted seat, on that phone only,
  and a sleeping phone's reload brings back its own cover tap the same way;
- a second phone opening a taken seat link is told so once, below the header.

Screenshots go to $NARRATOR_SHOTS (default: a temporary folder).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

import pytest

from narrator.companion.testing import CLASSIC_DEAL, Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate
from chromium import expect, launched, need_browser
from seat_pages import SMALL, chosen, data, seated, tap

SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-seats-"))
DON, MAFIA, SHERIFF = 1, (1, 2, 3), 4


def config(lang: str = "en", rules: str = ""):
    return parse_config(CLASSIC_DEAL.replace('language = "en"', f'language = "{lang}"') + rules + "[companion]\nvotes = true\n")


# both nominees on the ballot at once (vote_call = "together"), for the screens that show a ballot
# whole; the host's calls in turn are test_companion_classic_vote_call_browser.py's
TOGETHER = '[rules]\nvote_call = "together"\n'


async def shot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path))
    return path


async def buttons(page) -> list[str]:
    return await page.evaluate("() => Array.from(document.querySelectorAll('#grid button')).map(b => b.dataset.choice)")


async def night(t: Table, taps: dict[str, dict[int, int]], phones: dict) -> None:
    """Sleep through a night; in the named steps the given protocol phones tap."""
    game = t.live.game
    while game.state == "night":
        step = game.step.name if game.step is not None else None
        await asyncio.gather(*(phones[s].tap(x) for s, x in taps.get(step, {}).items()))
        t.live.fire()
        await t.settle()


async def day_to_vote(t: Table, nominees=(7, 8)) -> None:
    for seat in nominees:
        t.live.submit_event(Nominate(seat))
        t.live.submit_event(EndSpeech())
        await t.settle()
    await t.end_speeches()
    await until(lambda: t.live.game.state == "voting", what="the vote")


def test_a_page_pushed_off_its_seat_keeps_nothing_stale_and_takes_the_seat_back_on_a_tap():
    need_browser()

    async def main():
        async with Table(config(rules=TOGETHER)) as t, launched() as browser:
            hub, game = t.companion.hub, t.live.game
            word = hub.word
            pages, others = await seated(t, browser, (9,))
            first = pages[9]
            await t.to_night_one()
            await night(t, {}, others)          # nobody shoots: everybody sees day 2
            await t.end_speeches(("last_words",))
            await day_to_vote(t)
            assert game.day == 2 and 9 in game.alive
            await first.wait_for_function("() => document.body.dataset.state === 'voting'")
            assert await buttons(first) == ["7", "8"]
            await first.wait_for_function("() => Number(document.body.dataset.left) > 0")

            # a second tab of the same phone (the same device key) opens the seat: the newest wins
            second = await first.context.new_page()
            await second.goto(f"http://127.0.0.1:{t.companion.port}/")
            await expect(second.locator("#seat")).to_have_text(word("seat", seat=9))
            await expect(first.locator("#notice-text")).to_have_text(word("seat_elsewhere"))
            await expect(first.get_by_test_id("retake")).to_have_text(word("seat_use_here"))
            await expect(first.get_by_test_id("retake")).to_be_visible()
            assert await buttons(first) == [], "no button of the old vote is left to tap"
            assert await first.locator("#timer").inner_text() == ""
            await asyncio.sleep(1.2)
            assert await data(first, "left") in ("", "0"), "no countdown runs on a page without a seat"
            for hidden in ("#phase", "#table", "#caption", "#reveal", "#result"):
                assert not await first.locator(hidden).is_visible(), hidden
            text = await first.evaluate("() => document.body.innerText")
            assert text.count(word("seat_elsewhere")) == 1 and word("state_voting") not in text
            path = await shot(first, "pushed-off-by-a-second-tab")
            print("screenshot:", path)

            # the second tab votes, then closes; coming back to the first tab does not take the seat
            assert await tap(second, 7) == ""  # said once, in the line above the table
            await expect(second.get_by_test_id("own")).to_have_text(hub.word("voted_for", seat=hub.seat_label(7)))
            await second.close()
            await until(lambda: 9 not in hub.phones, what="the second tab gone")
            await first.bring_to_front()
            await first.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
            await asyncio.sleep(0.8)
            assert 9 not in hub.phones, "a signed-off page never takes the seat by itself"

            # the button takes it back: the vote screen again, with the vote this phone gave
            await first.get_by_test_id("retake").click()
            await expect(first.locator("#status")).to_have_text(word("connected"))
            await expect(first.get_by_test_id("notice")).to_be_hidden()
            await first.wait_for_function("() => document.body.dataset.state === 'voting'")
            assert await buttons(first) == ["7", "8"]
            await first.wait_for_function("() => document.querySelector('#grid button.chosen')")
            assert await chosen(first) == ["7"]
            await first.wait_for_function("() => Number(document.body.dataset.left) > 0")
            path = await shot(first, "seat-taken-back")
            print("screenshot:", path)

            # a third tab takes it once more, and the two settle: nobody chases anybody
            third = await first.context.new_page()
            await third.goto(f"http://127.0.0.1:{t.companion.port}/")
            await expect(first.get_by_test_id("retake")).to_be_visible()
            conn = hub.phones[9]
            await asyncio.sleep(1.0)
            assert hub.phones[9] is conn and not conn.closed
            await expect(third.locator("#status")).to_have_text(word("connected"))

    asyncio.run(main())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_dead_seat_reads_another_players_last_words_apart_from_its_own_standing(lang):
    need_browser()

    async def main():
        async with Table(config(lang)) as t, launched() as browser:
            hub, game = t.companion.hub, t.live.game
            word = hub.word
            pages, others = await seated(t, browser, (5, 9))
            await t.to_night_one()
            await night(t, {"mafia_shoots": {s: 9 for s in MAFIA}}, others)
            assert 9 not in game.alive
            await t.end_speeches(("last_words",))
            await day_to_vote(t)
            await asyncio.gather(*(others[s].tap(7) for s in game.alive if s in others))
            await tap(pages[5], 7)
            await until(lambda: game.state == "last_words" and game.speaker == 7, what="7's last words")
            phase = word("speaking", phase=word("state_last_words"), seat=7)
            for s in (5, 9):
                await expect(pages[s].locator("#phase-text")).to_have_text(phase)
            dead, alive = pages[9], pages[5]
            await expect(dead.get_by_test_id("own")).to_have_text(word("you_out"))
            await expect(dead.get_by_test_id("own")).to_be_visible()
            await expect(alive.get_by_test_id("own")).to_be_hidden()
            # its own line, not part of the phase line, and above it where the eye starts
            own = await dead.get_by_test_id("own").bounding_box()
            line = await dead.locator("#phase-text").bounding_box()
            assert own["y"] + own["height"] <= line["y"]
            assert word("you_out") not in await dead.locator("#phase").inner_text()
            assert await dead.evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]
            path = await shot(dead, f"dead-seat-during-last-words-{lang}")
            print("screenshot:", path)
            # at night the dead seat's page looks like every other page
            await t.end_speeches(("last_words",))
            await until(lambda: game.state == "night")
            await dead.wait_for_function("() => document.body.dataset.state === 'night'")
            await expect(dead.get_by_test_id("own")).to_be_hidden()

    asyncio.run(main())


def test_a_reload_mid_check_brings_back_the_result_and_the_checked_seat_on_that_phone_only():
    need_browser()

    async def main():
        async with Table(config()) as t, launched() as browser:
            hub, game = t.companion.hub, t.live.game
            pages, others = await seated(t, browser, (SHERIFF, 5))
            await t.to_night_one()
            while game.step.name != "sheriff_checks":
                t.live.fire()
                await t.settle()
            sheriff, sleeper = pages[SHERIFF], pages[5]
            for p in (sheriff, sleeper):
                await p.wait_for_function("() => document.body.dataset.step === 'sheriff_checks'")
            result = await tap(sheriff, DON)
            assert result == t.live.voice.render("check_mafia", {"seat": DON})
            cover = await tap(sleeper, 6)
            assert await chosen(sheriff) == [str(DON)] and await chosen(sleeper) == ["6"]
            await shot(sheriff, "check-before-reload")
            watcher = others[7]
            frames_before = len(watcher.frames)

            for p in (sheriff, sleeper):
                await p.reload()
                await p.wait_for_function("() => document.querySelector('#grid button.chosen')")
            assert await chosen(sheriff) == [str(DON)]
            assert await sheriff.locator("#result").inner_text() == result
            assert await chosen(sleeper) == ["6"], "a sleeper's reload looks like the checker's"
            assert await sleeper.locator("#result").inner_text() == cover
            assert len(watcher.frames) == frames_before, "the other phones get nothing from a reload"
            path = await shot(sheriff, "check-after-reload")
            print("screenshot:", path)

            # the next step starts clean: no highlight carried over
            t.live.fire()
            await t.settle()
            await sheriff.wait_for_function("() => document.body.dataset.step !== 'sheriff_checks'")
            await sheriff.reload()
            await sheriff.wait_for_function("() => document.body.dataset.epoch")
            await asyncio.sleep(0.3)
            assert await chosen(sheriff) == []

    asyncio.run(main())


def test_a_taken_seat_link_on_a_second_phone_is_said_once_below_the_header():
    need_browser()

    async def main():
        async with Table(config()) as t, launched() as browser:
            hub = t.companion.hub
            pages, _ = await seated(t, browser, (7,))
            thief = await (await browser.new_context(viewport=SMALL)).new_page()
            await thief.goto(f"http://127.0.0.1:{t.companion.port}/#{hub.seat_tokens[7]}")
            notice = thief.get_by_test_id("notice")
            await expect(thief.locator("#notice-text")).to_have_text(hub.word("seat_taken"))
            await asyncio.sleep(0.5)  # the closing after the refusal has come too
            text = await thief.evaluate("() => document.body.innerText")
            assert text.count(hub.word("seat_taken")) == 1, text
            assert await thief.locator("#status").inner_text() == ""
            assert not await thief.get_by_test_id("retake").is_visible()
            assert not await thief.locator("#reveal").is_visible()
            header = await thief.locator("header").bounding_box()
            box = await notice.bounding_box()
            assert box["y"] >= header["y"] + header["height"], "below the header, not squeezed beside it"
            assert box["width"] > SMALL["width"] * 0.8
            path = await shot(thief, "taken-link-refused")
            print("screenshot:", path)
            await expect(pages[7].locator("#status")).to_have_text(hub.word("connected"))

    asyncio.run(main())
