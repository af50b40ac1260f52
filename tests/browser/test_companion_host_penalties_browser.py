"""The referee's penalties on the host screen (seed 004 §5-7), in headless Chromium at phone size.

A classic referee disqualifies a player, sees one leave the table by day, and gives a team the
defeat — from the tablet as from the console. What cannot be undone is asked once more, naming
the seat: a slip of the finger must not end a player's game, or the whole game. Rule systems with
no referee show no such buttons, and at night the screen offers no "leaves the table" (the
sleeping table would see who is gone before the morning says it).
"""

from __future__ import annotations

import asyncio

from chromium import expect, launched, need_browser
from narrator.companion.testing import Table, until
from narrator.config import parse_config

PHONE = {"width": 360, "height": 740}


def config(variant: str, language: str, roles: str):
    return parse_config(f'variant = "{variant}"\nlanguage = "{language}"\nseats = 10\n[dealing]\nroles = {{ {roles} }}\n')


async def host_page(browser, t: Table):
    page = await (await browser.new_context(viewport=PHONE)).new_page()
    await page.goto(t.host_link)
    await expect(page.get_by_test_id("state")).to_be_visible()
    return page


async def press(page, seat: int, act: str, accept: bool) -> str:
    """Type the seat, press the button, answer the question; returns the question asked."""
    asked: list[str] = []

    async def answer(dialog):
        asked.append(dialog.message)
        await (dialog.accept() if accept else dialog.dismiss())

    page.once("dialog", answer)
    await page.get_by_test_id("seat").fill(str(seat))
    await page.get_by_test_id(act).click()
    await until(lambda: asked, what="the question")
    return asked[0]


def test_a_classic_referee_disqualifies_sees_a_player_leave_and_gives_the_defeat_from_the_host_screen():
    need_browser()
    cfg = config("classic", "ru", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"')

    async def main():
        async with launched() as browser:
            async with Table(cfg) as t:
                page = await host_page(browser, t)
                await t.to_first_day()
                g = t.live.game
                for act in ("foul", "disqualify", "leave", "defeat"):
                    await expect(page.get_by_test_id(act)).to_be_visible()
                # asked in the table's language, naming the seat; "no" changes nothing
                question = await press(page, 5, "disqualify", accept=False)
                assert question == "Дисквалифицировать игрока 5? Он покидает игру без последнего слова."
                await t.settle()
                assert 5 in g.alive and not t.recorded("disqualification", "seat")
                await press(page, 5, "disqualify", accept=True)
                await until(lambda: 5 not in g.alive, what="the disqualification")
                assert t.recorded("disqualification", "seat") == [(5,)]
                await expect(page.locator(".seat.out b", has_text="5")).to_have_count(1)
                # seed 004 §5 «Leave of the gaming table»: by day, out at once, in front of the table
                question = await press(page, 6, "leave", accept=True)
                assert question == "Игрок 6 покидает стол и выбывает из игры без последнего слова?"
                await until(lambda: 6 not in g.alive, what="the leave")
                # a vow («клянусь, я мирный») by the mafia's player 2: the town wins
                question = await press(page, 2, "defeat", accept=True)
                assert question == "Засчитать поражение команде игрока 2? Игра закончится."
                await until(lambda: g.state == "over", what="the defeat")
                assert g.winner == "town"
                await page.context.close()

    asyncio.run(main())


def test_at_night_the_host_screen_offers_no_leave_and_the_server_takes_none():
    need_browser()
    cfg = config("classic", "en", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"')

    async def main():
        async with launched() as browser:
            async with Table(cfg) as t:
                page = await host_page(browser, t)
                await t.to_night_one()
                await expect(page.get_by_test_id("disqualify")).to_be_visible()
                await expect(page.get_by_test_id("leave")).to_be_hidden()
                # a page of an older build, or a hand-made message, is refused the same
                t.companion.hub._host_action(None, {"t": "leave", "seat": 6})
                await t.settle()
                assert 6 in t.live.game.alive and 6 not in t.live.game.leaving
                await page.context.close()

    asyncio.run(main())


def test_rule_systems_without_a_referee_show_no_penalty_buttons():
    need_browser()
    cfg = config("sverige", "sv", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"')

    async def main():
        async with launched() as browser:
            async with Table(cfg) as t:
                page = await host_page(browser, t)
                await t.to_first_day()
                await expect(page.get_by_test_id("pause")).to_be_visible()  # the day is on the screen
                # seed 000: no referee's penalties; the day's nomination, naming its nominator, and no
                # withdrawal before anybody has a nominee
                for act in ("foul", "disqualify", "leave", "defeat", "revoke"):
                    await expect(page.get_by_test_id(act)).to_be_hidden()
                await expect(page.get_by_test_id("nominate")).to_be_visible()
                await expect(page.get_by_test_id("by")).to_be_visible()
                await page.context.close()

    asyncio.run(main())


def test_a_foul_given_at_night_on_the_host_screen_is_the_hosts_alone_until_the_morning_says_it():
    # seed 004 §4.5 «During the night each player must not speak, move»: "Player 6, foul" in the
    # mafia's step would tell the sleeping table who moved. The host screen shows it under "Said in
    # the morning"; a sleeping phone gets nothing at all; the morning says it after the night's news
    need_browser()
    from seat_pages import seated

    cfg = config("classic", "ru", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"')

    async def main():
        async with launched() as browser:
            async with Table(cfg) as t:
                page = await host_page(browser, t)
                phones, _ = await seated(t, browser, [7])
                sleeper = phones[7]
                await t.to_night_one()
                await t.settle()
                g, hub = t.live.game, t.companion.hub
                caption = await sleeper.locator("#caption").inner_text()
                sent = len(hub.sent)
                await expect(page.get_by_test_id("held")).to_be_hidden()
                await page.get_by_test_id("seat").fill("6")
                await page.get_by_test_id("foul").click()
                await expect(page.get_by_test_id("held")).to_have_text("Фол номер 1 игроку 6 записан: стол услышит о нём утром.")
                await press(page, 9, "disqualify", accept=True)
                await expect(page.get_by_test_id("held")).to_contain_text("Дисквалификация игрока 9 записана")
                await t.settle()
                assert hub.sent[sent:] == []                       # not a byte to any phone
                assert await sleeper.locator("#caption").inner_text() == caption
                assert 9 in g.alive and g.public_view()["fouls"] == {}
                await t.end_night()
                await expect(sleeper.locator("#caption")).to_contain_text("Этой ночью игрок 6 получил фол: фол номер 1.")
                await expect(sleeper.locator("#caption")).to_contain_text("Этой ночью игрок 9 дисквалифицирован")
                await expect(page.get_by_test_id("held")).to_be_hidden()
                await expect(page.get_by_test_id("fouls")).to_have_text("6: 1")
                await page.context.close()

    asyncio.run(main())
