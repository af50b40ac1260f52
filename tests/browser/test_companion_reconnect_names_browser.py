"""A phone that reloads, loses its Wi-Fi or is closed and opened again lands on exactly the screen
it should, and names the players wherever it names a seat — in real headless Chromium at 360×740,
through the real server:

- the phase line, the narrator's caption and a private night answer name the player beside the
  seat ("Player 1 (<b>Ann</b>) is MAFIA." — the name as typed, never markup), nothing is wider
  than the phone, and at night the answer box has the same place and size on the checker's phone
  as on a sleeper's, whatever it holds;
- a reload, a tab closed and opened again, and a Wi-Fi drop mid-night (awake and asleep), in a
  day vote after voting, and in the Swedish time-extension question after asking (seed 000 Tid)
  bring back the same screen: the marked button and the answer that stands;
- a phone of the last game (names of the last table) that scans the next game's seat shows the
  new table's names; opened without a new link it is told to scan its seat.

Screenshots go to $NARRATOR_SHOTS (default: a temporary folder).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from chromium import expect, launched, need_browser
from seat_pages import SMALL, chosen, data, seated, tap

SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-reconnect-"))
DON, MAFIA, SHERIFF = 1, (1, 2, 3), 4
NAMES = {1: "<b>Ann</b>", 2: "{seat}", 4: "Bo", 7: "Åsa-Maria Lindqvist-Bergström", 8: "Zsófi"}
PLAYERS = "[players]\n" + "".join(f"{s} = '{n}'\n" for s, n in NAMES.items())

WIDE_JS = """() => {
  const w = document.documentElement.clientWidth, out = [];
  if (document.documentElement.scrollWidth > w) out.push("page scrolls sideways");
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.height && (r.right > w + 1 || r.left < -1)) out.push(el.tagName + "#" + el.id);
  }
  return out;
}"""


def classic(lang: str = "en", players: str = PLAYERS, rules: str = ""):
    return parse_config(CLASSIC_DEAL.replace('language = "en"', f'language = "{lang}"')
                        + rules + "[companion]\nvotes = true\n" + players)


def sverige():
    return parse_config('variant = "sverige"\nlanguage = "sv"\nseats = 10\n'
                        '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n' + PLAYERS)


async def shot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path))
    return path


async def back(t: Table, page, how: str, seat: int):
    """The phone comes back: a reload, the tab closed and opened again, or the Wi-Fi lost a while."""
    hub = t.companion.hub
    if how == "reload":
        await page.reload()
    elif how == "reopen":
        context = page.context
        await page.close()
        page = await context.new_page()
        await page.goto(f"http://127.0.0.1:{t.companion.port}/")  # no link any more: the phone's own key
    elif how == "wifi":
        await page.context.set_offline(True)
        hub.phones[seat].close(1001)  # the access point drops the phone: its socket is gone
        await page.wait_for_function("() => document.querySelector('#status').className === 'down'", timeout=10_000)
        await asyncio.sleep(1.0)  # a retry or two fails while the phone is offline
        await page.context.set_offline(False)
    await expect(page.locator("#status")).to_have_text(hub.word("connected"), timeout=10_000)
    await page.wait_for_function(f"() => Number(document.body.dataset.epoch) === {hub.epoch}")
    await asyncio.sleep(0.2)  # the note after the screen
    return page


async def to_sheriff(t: Table) -> None:
    await t.to_night_one()
    while t.live.game.step.name != "sheriff_checks":
        t.live.fire()
        await t.settle()


def test_names_beside_every_seat_on_the_phone_and_a_night_answer_box_the_same_on_every_phone():
    need_browser()

    async def main():
        async with Table(classic()) as t, launched() as browser:
            hub, voice = t.companion.hub, t.live.voice
            pages, others = await seated(t, browser, (SHERIFF, 5))
            sheriff, sleeper = pages[SHERIFF], pages[5]
            await t.to_first_day()
            # the day: whoever speaks is named on the phase line and in the narrator's caption
            await expect(sleeper.locator("#phase-text")).to_have_text("Day: speeches — player 1 (<b>Ann</b>)")
            await expect(sleeper.locator("#caption")).to_have_text("The Sheriff falls asleep. The city wakes up. Day 1. Player 1 (<b>Ann</b>), you have one minute.")
            assert await sleeper.locator("#phase-text b").count() == 0, "a name is text, never markup"
            assert await sleeper.evaluate(WIDE_JS) == []
            await shot(sleeper, "names-day-speaker")
            await t.end_speeches()
            while t.live.game.step.name != "sheriff_checks":
                t.live.fire()
                await t.settle()
            for p in (sheriff, sleeper):
                await p.wait_for_function("() => document.body.dataset.step === 'sheriff_checks'")
            boxes = [await p.locator("#result").bounding_box() for p in (sheriff, sleeper)]
            assert boxes[0] == boxes[1], "before any tap: the same empty answer box on every phone"
            result = await tap(sheriff, 7)
            assert result == "Player 7 (Åsa-Maria Lindqvist-Bergström) is not mafia."
            assert await tap(sleeper, 7) == voice.render("companion_tap_taken", {})
            after = [await p.locator("#result").bounding_box() for p in (sheriff, sleeper)]
            assert after[0] == after[1] == boxes[0], "the checker's answer box looks like a sleeper's"
            # a second check is refused under the first: the longest answer there is, same box
            text = await tap(sheriff, DON)
            assert text.startswith(result + "\n")
            assert await sheriff.locator("#result").bounding_box() == boxes[0]
            for p in (sheriff, sleeper):
                assert await p.evaluate(WIDE_JS) == []
            # the frames: every phone's answer is as long as every other's, whatever name it holds
            sizes = {f.size for f in hub.sent if f.type in ("ack", "note")}
            assert len(sizes) == 1, sizes
            await shot(sheriff, "names-night-check")
            await shot(sleeper, "names-night-sleeper")

    asyncio.run(main())


def test_back_mid_night_awake_and_asleep_lands_on_the_same_screen():
    need_browser()

    async def main():
        async with Table(classic()) as t, launched() as browser:
            pages, others = await seated(t, browser, (SHERIFF, 5))
            await to_sheriff(t)
            for p in pages.values():
                await p.wait_for_function("() => document.body.dataset.step === 'sheriff_checks'")
            answer = await tap(pages[SHERIFF], DON)
            cover = await tap(pages[5], 8)
            for how in ("reload", "reopen", "wifi"):
                pages[SHERIFF] = await back(t, pages[SHERIFF], how, SHERIFF)
                pages[5] = await back(t, pages[5], how, 5)
                assert await chosen(pages[SHERIFF]) == [str(DON)], how
                assert await pages[SHERIFF].locator("#result").inner_text() == answer, how
                assert await chosen(pages[5]) == ["8"], how
                assert await pages[5].locator("#result").inner_text() == cover, how
                assert await data(pages[5], "step") == "sheriff_checks"
            await shot(pages[SHERIFF], "back-mid-night-checker")
            # the next step: nothing of the check is on the screen any more, reloaded or not
            t.live.fire()
            await t.settle()
            pages[SHERIFF] = await back(t, pages[SHERIFF], "reload", SHERIFF)
            assert await chosen(pages[SHERIFF]) == [] and await pages[SHERIFF].locator("#result").inner_text() == ""

    asyncio.run(main())


def test_back_in_a_day_vote_after_voting_shows_the_vote_that_stands():
    need_browser()

    async def main():
        # both nominees on the ballot at once (vote_call = "together"): the vote that stands among two
        async with Table(classic(rules='[rules]\nvote_call = "together"\n')) as t, launched() as browser:
            hub, game = t.companion.hub, t.live.game
            pages, others = await seated(t, browser, (5,))
            await t.to_first_day()
            await t.to_classic_vote(7, 8)
            page = pages[5]
            await page.wait_for_function("() => document.body.dataset.state === 'voting'")
            await expect(page.locator("#day-info")).to_have_text("Nominated: 7 (Åsa-Maria Lindqvist-Bergström), 8 (Zsófi)")
            # the vote that counts, named once: in the line above the table, not again under the ballot
            assert await tap(page, 8) == ""
            await expect(page.get_by_test_id("own")).to_have_text("You voted for player 8 (Zsófi).")
            for how in ("reload", "reopen", "wifi"):
                page = await back(t, page, how, 5)
                assert await chosen(page) == ["8"], how
                await expect(page.get_by_test_id("own")).to_have_text("You voted for player 8 (Zsófi).")
                assert await page.locator("#result").inner_text() == "", how
            # a second vote from the reloaded page is refused under the vote that stands
            refused = await tap(page, 7)
            assert "already voted" in refused and await chosen(page) == ["8"]
            assert await page.evaluate(WIDE_JS) == []
            await shot(page, "back-in-a-vote")

    asyncio.run(main())


def test_back_in_the_swedish_extension_question_after_asking():
    need_browser()

    async def main():
        async with Table(sverige()) as t, launched() as browser:
            game = t.live.game
            pages, others = await seated(t, browser, (5,))
            await t.to_first_day()
            t.live.fire()
            await until(lambda: game.public_view()["timer"] == "extension_offer", what="the question")
            page = pages[5]
            await page.wait_for_function("() => document.querySelector('#grid button.extension')")
            await page.locator('#grid button[data-choice="yes"]').click()
            await until(lambda: game.public_view()["timer"] == "extension", what="the extension")
            # the extension runs, on every phone; the question's button is gone with it, and the
            # asker reads, on the extension's screen, that his request counted
            await expect(page.locator("#phase-text")).to_have_text("Dag: diskussion (tidstillägg)")
            await expect(page.locator("#caption")).to_have_text("Tidstillägg: 3 minuter till.")
            await expect(page.locator("#result")).to_have_text("Du har begärt tidstillägget.")
            for how in ("reload", "reopen", "wifi"):
                page = await back(t, page, how, 5)
                await expect(page.locator("#phase-text")).to_have_text("Dag: diskussion (tidstillägg)")
                assert await page.locator("#grid button").count() == 0, how
                await expect(page.locator("#result")).to_have_text("Du har begärt tidstillägget.")
                assert int(await data(page, "left")) > 170, how
            await shot(page, "back-in-the-extension")

    asyncio.run(main())


def test_a_phone_of_the_last_game_shows_the_next_tables_names():
    need_browser()

    async def main():
        async with launched() as browser:
            context = await browser.new_context(viewport=SMALL)
            page = await context.new_page()
            async with Table(classic()) as t:
                await page.goto(f"http://127.0.0.1:{t.companion.port}/#{t.companion.hub.seat_tokens[7]}")
                await expect(page.locator("#name")).to_have_text("Åsa-Maria Lindqvist-Bergström")
            # the next game: other players; the same phone scans its new seat
            async with Table(classic(players="[players]\n7 = 'Mikael'\n1 = 'Ann-Sofie'\n")) as t:
                hub = t.companion.hub
                await page.goto(f"http://127.0.0.1:{t.companion.port}/#{hub.seat_tokens[7]}")
                await expect(page.locator("#name")).to_have_text("Mikael")
                await expect(page.locator("#status")).to_have_text(hub.word("connected"))
                others = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in range(1, 11) if s != 7}
                await asyncio.gather(*(p.join() for p in others.values()))
                t.phones = others
                await t.to_first_day()
                await expect(page.locator("#phase-text")).to_have_text("Day: speeches — player 1 (Ann-Sofie)")
                page = await back(t, page, "reload", 7)
                await expect(page.locator("#name")).to_have_text("Mikael")
                names = await page.evaluate("() => Array.from(document.querySelectorAll('#table small')).map(s => s.textContent)")
                assert names == ["Ann-Sofie", "Mikael"]
            # a third game, and the phone comes back without scanning: nothing of the last table
            # is shown, and it is told to scan its seat (here on another port, so without the old
            # key; test_companion_reconnect.py sends the old key to the same server)
            async with Table(classic()) as t:
                await page.goto(f"http://127.0.0.1:{t.companion.port}/")
                await expect(page.locator("#notice-text")).to_have_text(t.companion.hub.word("scan_to_join"))
                assert await page.locator("#name").inner_text() == ""
                assert await page.locator("#table").inner_text() == ""
            await context.close()

    asyncio.run(main())
