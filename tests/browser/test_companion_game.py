"""A complete game on ten phones and the host screen in real headless Chromium (390x844), from the deal
to the result, in English and in Russian — and at every moment what each phone shows:

- after the deal every phone asks Ready; night zero waits for all (or for the host);
- a night answer is shown during its step only; a phone reloaded in daylight shows none of it, and
  has it only while its role is held down;
- the day screen shows the living players, the nominees, the speaker and the server's time left;
  a pause freezes every countdown, and a reload during it shows the true time left;
- a refused vote does not move the highlight and is told to its voter only; an answer never lands
  on the next ballot; dead seats get no vote buttons;
- the result (won/lost for this player, every role) stays, once, survives a reload, and the host
  closes the game.
"""

from __future__ import annotations

import asyncio

import pytest

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.language import load_voice
from chromium import PHONE, expect, launched, need_browser

DON, MAFIA, SHERIFF = 1, (1, 2, 3), 4


def config(lang: str):
    # a club that votes on its phones in one window (vote_call = "together"): every nominee's button
    # at once, so a seat can try to change his vote; the host's calls in turn are
    # test_companion_classic_vote_call_browser.py's
    return parse_config(
        f'variant = "classic"\nlanguage = "{lang}"\n'
        '[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
        '[rules]\nvote_call = "together"\n'
        '[companion]\nvotes = true\npin = "2468"\n'
    )


async def body(page) -> str:
    return await page.evaluate("() => document.body.innerText")


async def data(page, key: str) -> str:
    return await page.evaluate(f"() => document.body.dataset.{key} || ''")


async def wait_all(pages, js: str) -> None:
    await asyncio.gather(*(p.wait_for_function(js, timeout=10_000) for p in pages))


async def wait_state(pages, state: str) -> None:
    await wait_all(pages, f"() => document.body.dataset.state === '{state}'")


async def next_screen(t: Table, pages) -> None:
    """The running timer runs out; every phone shows the next screen."""
    before = t.companion.hub.epoch
    t.live.fire()
    await until(lambda: t.companion.hub.epoch > before, what="the next screen")
    await wait_all(pages, f"() => Number(document.body.dataset.epoch) >= {t.companion.hub.epoch}")


async def tap(page, choice) -> str:
    """Tap a choice and wait for the phone's answer; the text on its screen afterwards."""
    acks = int(await data(page, "acks") or 0)
    await page.locator(f'#grid button[data-choice="{choice}"]').click()
    await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
    return await page.locator("#result").inner_text()


async def host_do(host, action: str, seat: int | None = None) -> None:
    if seat is not None:
        await host.get_by_test_id("seat").fill(str(seat))
    await host.get_by_test_id(action).click()


async def held(page) -> str:
    """What the phone shows while its role button is held down (and nothing once released)."""
    await page.locator("#reveal").hover()
    await page.mouse.down()
    text = await page.locator("#role").inner_text()
    await page.mouse.up()
    await expect(page.locator("#role")).to_have_text("")
    return text


async def buttons(page) -> list[str]:
    return await page.evaluate("() => Array.from(document.querySelectorAll('#grid button')).map(b => b.dataset.choice)")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_complete_game_on_ten_phones(lang):
    need_browser()

    async def main():
        async with Table(config(lang)) as t, launched() as browser:
            await play(t, browser)

    async def play(t: Table, browser):
        game, hub = t.live.game, t.companion.hub
        word = hub.word
        base = f"http://127.0.0.1:{t.companion.port}"
        pages = {}
        for seat in range(1, 11):
            pages[seat] = await (await browser.new_context(viewport=PHONE, has_touch=False)).new_page()
        everyone = list(pages.values())
        host = await (await browser.new_context(viewport={"width": 1280, "height": 800})).new_page()
        await host.goto(t.host_link)
        # the link the terminal prints (it carries the host's key) opens the host screen without a PIN

        # the deal: each phone shows its own role while held and asks Ready; the night waits
        deal = t.live.session.dealing_event()
        dealing = asyncio.create_task(t.companion.deal_when_ready([deal]))
        await asyncio.gather(*(pages[s].goto(base + "/#" + hub.seat_tokens[s]) for s in pages))
        await asyncio.gather(*(expect(p.locator('#grid button[data-choice="ready"]')).to_be_visible() for p in everyone))
        roles = dict(deal.roles)
        for s, page in pages.items():
            role = hub._role_name(roles.get(s, "citizen"))
            # a mafioso also reads who the rest of the mafia are (they met on night zero); a town seat reads its role alone
            partners = ", ".join(str(m) for m in MAFIA if m != s)
            expected = word("you_are", role=role) + ("\n" + word("my_mates", seats=partners) if s in MAFIA else "")
            assert await held(page) == expected
        for s in range(1, 8):
            await pages[s].locator('#grid button[data-choice="ready"]').click()
        await expect(host.get_by_test_id("ready")).to_contain_text("(7/10)")
        await expect(pages[1].get_by_test_id("day-info")).to_have_text(word("ready_count", n=7, total=10))
        await expect(pages[1].locator('#grid button[data-choice="ready"]')).to_have_text(word("ready_waiting"))
        assert game.state == "setup", "three phones are not ready: the night waits"
        if lang == "en":
            for s in (8, 9, 10):
                await pages[s].locator('#grid button[data-choice="ready"]').click()
        else:
            await host_do(host, "start")  # the host does not wait for the last three
        await asyncio.wait_for(dealing, 10)
        await wait_state(everyone, "night")
        await expect(host.get_by_test_id("ready")).to_be_hidden()

        # night zero: three quiet steps
        while game.state == "night":
            await next_screen(t, everyone)
        await wait_state(everyone, "speeches")

        # day 1: the phones show the table, the speaker, the nominees and the server's time left
        speaker = game.speaker
        await host_do(host, "nominate", 7)
        await until(lambda: game.public_view()["nominations"] == [7])
        await host_do(host, "end_speech")
        await until(lambda: game.speaker != speaker)
        await host_do(host, "nominate", 8)
        await until(lambda: game.public_view()["nominations"] == [7, 8])
        info = word("day_nominees", seats="7, 8")
        await asyncio.gather(*(expect(p.get_by_test_id("day-info")).to_have_text(info) for p in everyone))
        speaking = word("speaking", phase=word("state_speeches"), seat=game.speaker)
        await asyncio.gather(*(expect(p.locator("#phase-text")).to_have_text(speaking) for p in everyone))
        assert await pages[5].locator("#table span.speaker").inner_text() == str(game.speaker)
        assert await pages[5].locator("#table span").count() == 10
        await wait_all(everyone, "() => Number(document.body.dataset.left) > 50")

        # a pause freezes every countdown, on every phone and the host; a reload shows the true time
        await host_do(host, "pause")
        await wait_all(everyone, "() => document.body.dataset.paused === '1'")
        frozen = [await data(p, "left") for p in everyone]
        host_left = await data(host, "left")
        await asyncio.sleep(1.6)
        assert [await data(p, "left") for p in everyone] == frozen
        assert await data(host, "left") == host_left
        await pages[6].reload()
        await pages[6].wait_for_function("() => document.body.dataset.paused === '1'")
        assert await data(pages[6], "left") == frozen[5], "a reload shows the time left, not the full length"
        assert await pages[6].locator("#timer").get_attribute("class") == "paused"
        assert await pages[6].locator("#phase-text").inner_text() == word("phase_paused", phase=speaking)
        await host_do(host, "resume")
        await wait_all(everyone, "() => document.body.dataset.paused === ''")
        await pages[6].wait_for_function(f"() => Number(document.body.dataset.left) < {frozen[5]}", timeout=4000)

        while game.state == "speeches":
            s = game.speaker
            await host_do(host, "end_speech")
            await until(lambda s=s: game.speaker != s or game.state != "speeches")
        await wait_state(everyone, "voting")

        # the vote: 5 for 7 and 5 for 8; seat 1 tries to change his vote — refused, to him alone
        await tap(pages[1], 7)
        assert "chosen" in await pages[1].locator('#grid button[data-choice="7"]').get_attribute("class")
        refused = await tap(pages[1], 8)
        assert refused and refused != (await pages[2].locator("#caption").inner_text())
        assert "chosen" in await pages[1].locator('#grid button[data-choice="7"]').get_attribute("class")
        assert "chosen" not in (await pages[1].locator('#grid button[data-choice="8"]').get_attribute("class") or "")
        for p in everyone[1:]:
            assert refused not in await body(p), "a refusal is never the public caption"
        assert refused not in await host.locator("#caption").inner_text()
        await asyncio.gather(*(tap(pages[s], 7 if s <= 5 else 8) for s in range(2, 11)))
        await until(lambda: game.state == "tie_speeches")
        for _ in range(2):
            s = game.speaker
            await host_do(host, "end_speech")
            await until(lambda s=s: game.speaker != s or game.state != "tie_speeches")
        await wait_state(everyone, "revote")
        await asyncio.gather(*(tap(pages[s], 7 if s <= 5 else 8) for s in range(1, 11)))
        # the last vote closes the re-vote: nobody's "your vote is in" may land on the yes/no ballot
        await wait_state(everyone, "all_leave_vote")
        await asyncio.sleep(0.3)
        for p in everyone:
            assert await p.locator("#result").inner_text() == ""
            assert await buttons(p) == ["yes", "no"]
        await asyncio.gather(*(tap(p, "yes") for p in everyone))
        await until(lambda: game.state == "last_words")
        assert 7 not in game.alive and 8 not in game.alive
        await asyncio.gather(*(expect(p.locator("#phase-text")).to_contain_text(word("speaking", phase=word("state_last_words"), seat=7)) for p in everyone))
        await asyncio.gather(*(expect(p.get_by_test_id("day-info")).to_have_text("") for p in everyone))
        while game.state == "last_words":
            s = game.speaker
            await host_do(host, "end_speech")
            await until(lambda s=s: game.speaker != s or game.state != "last_words")
        await wait_state(everyone, "night")
        await expect(host.get_by_test_id("nominations")).to_have_text("—")

        # night 1: the mafia shoots 9; the Don and the Sheriff check; answers show during their step only
        answers = {}
        for step, real in (("mafia_shoots", {s: 9 for s in MAFIA}), ("don_checks", {DON: SHERIFF}), ("sheriff_checks", {SHERIFF: DON})):
            await wait_all(everyone, f"() => document.body.dataset.step === '{step}'")
            got = await asyncio.gather(*(tap(p, real.get(s, 5)) for s, p in pages.items() if game.seats[s].alive))
            answers[step] = dict(zip([s for s in pages if game.seats[s].alive], got, strict=True))
            await next_screen(t, everyone)
            for p in everyone:
                assert await p.locator("#result").inner_text() == "", "an answer leaves the screen with its step"
        don_check, sheriff_check = answers["don_checks"][DON], answers["sheriff_checks"][SHERIFF]
        assert don_check == t.live.voice.render("check_sheriff", {"seat": SHERIFF})
        assert sheriff_check == t.live.voice.render("check_mafia", {"seat": DON})
        assert {answers["don_checks"][s] for s in answers["don_checks"] if s != DON} == {hub._line("companion_tap_taken", "")}

        # daylight: reloaded phones show no night answer; held down, the checker sees his own
        await until(lambda: game.state != "night")
        assert 9 not in game.alive
        for s in (DON, SHERIFF, 5):
            await pages[s].reload()
            await pages[s].wait_for_function("() => document.body.dataset.state && document.body.dataset.state !== 'night'")
            await asyncio.sleep(0.2)
            text = await body(pages[s])
            assert don_check not in text and sheriff_check not in text
            html = await pages[s].content()
            assert don_check not in html and sheriff_check not in html, "not even hidden in the page"
        assert word("night_finding", night=1, text=don_check) in await held(pages[DON])
        assert word("night_finding", night=1, text=sheriff_check) in await held(pages[SHERIFF])
        assert word("my_checks") not in await held(pages[5])

        while game.state == "last_words":
            await host_do(host, "end_speech")
            await until(lambda: game.state != "last_words" or game.speaker != 9)
        await wait_state(everyone, "speeches")

        # day 2: 5 and 6 are nominated; dead seats get no vote buttons; 5 is voted out and the mafia wins
        await host_do(host, "nominate", 5)
        await until(lambda: game.public_view()["nominations"] == [5])
        s = game.speaker
        await host_do(host, "end_speech")
        await until(lambda: game.speaker != s)
        await host_do(host, "nominate", 6)
        await until(lambda: game.public_view()["nominations"] == [5, 6])
        while game.state == "speeches":
            s = game.speaker
            await host_do(host, "end_speech")
            await until(lambda s=s: game.speaker != s or game.state != "speeches")
        await wait_state(everyone, "voting")
        for s in (7, 8, 9):
            assert await buttons(pages[s]) == [], f"seat {s} is out: no vote buttons"
        for s in game.alive:
            assert await buttons(pages[s]) == ["5", "6"]
        await asyncio.gather(*(tap(pages[s], 5 if s != 5 else 6) for s in list(game.alive)))
        await until(lambda: game.state in ("last_words", "over"))
        while game.state == "last_words":
            await host_do(host, "end_speech")
            await until(lambda: game.state != "last_words" or game.speaker != 5)
        assert game.state == "over" and game.winner == "mafia"

        # the result: won or lost for each player, every role, once; it survives a reload
        await wait_state(everyone, "over")
        roles = {s: hub.listed_role(game.role(s)) for s in pages}
        for s, p in pages.items():
            expected = word("outcome_won" if s in MAFIA else "outcome_lost")
            await expect(p.get_by_test_id("outcome")).to_have_text(expected)
            text = await body(p)
            assert text.count(hub.phase_winner()) == 1, "the result is said once"
            for seat, role in roles.items():
                assert word("seat_role", seat=seat, role=role) in text
            assert word("reconnecting") not in text
        # nothing spills: no phone scrolls sideways, every role name fits its seat box on the host
        for p in everyone:
            assert await p.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        small_host = await (await browser.new_context(viewport=PHONE)).new_page()
        await small_host.goto(t.host_link)
        # the link the terminal prints (it carries the host's key) opens the host screen without a PIN
        await expect(small_host.get_by_test_id("close")).to_be_visible()
        for screen in (host, small_host):
            spills = await screen.evaluate("() => Array.from(document.querySelectorAll('.seat')).filter(e => e.scrollWidth > e.clientWidth + 1).length")
            assert spills == 0, "a role name spills out of its seat box"
        assert await small_host.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        await pages[4].reload()
        await expect(pages[4].get_by_test_id("outcome")).to_have_text(word("outcome_lost"))
        # the game report, linked from every phone's result and the host screen, served by the companion
        from narrator.report import report_words

        await expect(pages[4].get_by_test_id("report")).to_be_visible()
        assert await pages[4].get_by_test_id("report").get_attribute("href") == "/report"
        await expect(host.get_by_test_id("report")).to_be_visible()
        async with pages[4].context.expect_page() as opened:
            await pages[4].get_by_test_id("report").click()
        story = await opened.value
        await expect(story.locator("h1")).to_have_text(report_words(lang)["title"])
        assert load_voice(lang, "classic").winner("mafia").rstrip(".") in await story.inner_text("body")
        await story.close()
        await expect(host.get_by_test_id("close")).to_be_visible()
        await host_do(host, "close")
        await asyncio.gather(*(expect(p.locator("#status")).to_have_text(word("game_closed")) for p in everyone))
        await expect(pages[1].get_by_test_id("outcome")).to_have_text(word("outcome_won"))
        assert hub.closed.is_set()

    asyncio.run(main())
