"""Ten phones and the host screen in real headless Chromium play night zero, a day with a vote on the
phones, and a full classic night — with the Don's phone reloading in the middle of it."""

from __future__ import annotations

import asyncio

from narrator.companion.testing import CLASSIC_DEAL, Table, until
from narrator.config import parse_config
from chromium import expect, launched, need_browser

DON, MAFIA, SHERIFF = 1, (1, 2, 3), 4


async def new_screen(page, before: int) -> None:
    await page.wait_for_function(f"() => Number(document.body.dataset.epoch) > {before}", timeout=10_000)


async def epoch(page) -> int:
    return int(await page.evaluate("() => document.body.dataset.epoch || -1"))


async def tap(page, choice) -> str:
    """Tap a choice and wait for the phone's answer."""
    acks = int(await page.evaluate("() => document.body.dataset.acks || 0"))
    await page.locator(f'#grid button[data-choice="{choice}"]').click()
    await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
    return await page.evaluate("() => document.body.dataset.ack")


async def step(t: Table, pages: dict, choices: dict) -> dict[int, str]:
    """Every phone taps (real choices where given, anything else otherwise), then the step ends."""
    alive = t.live.game.alive
    answers = await asyncio.gather(*(tap(p, choices.get(s, alive[s % len(alive)])) for s, p in pages.items()))
    before = await epoch(pages[1])
    t.live.fire()
    await asyncio.gather(*(new_screen(p, before) for p in pages.values()))
    return dict(zip(pages, answers, strict=True))


async def host_do(host, action: str, seat: int | None = None) -> None:
    if seat is not None:
        await host.get_by_test_id("seat").fill(str(seat))
    await host.get_by_test_id(action).click()


def test_ten_phones_play_a_night_and_a_day_in_chromium():
    need_browser()

    async def main():
        cfg = parse_config(CLASSIC_DEAL + '[companion]\nvotes = true\npin = "2468"\n')
        async with Table(cfg) as t, launched() as browser:
            await play(t, browser)

    async def play(t: Table, browser):
        game = t.live.game
        base = f"http://127.0.0.1:{t.companion.port}"
        pages = {}
        for seat in range(1, 11):
            context = await browser.new_context()
            pages[seat] = await context.new_page()
        await asyncio.gather(*(pages[s].goto(base + "/#" + t.companion.hub.seat_tokens[s]) for s in pages))
        for s, page in pages.items():
            await expect(page.locator("#seat")).to_have_text(f"Seat {s}")
            assert "#" not in page.url, "the token leaves the address bar at once"
        host = await (await browser.new_context()).new_page()
        await host.goto(t.host_link)
        # the link the terminal prints (it carries the host's key) opens the host screen without a PIN
        await expect(host.get_by_test_id("phones")).to_have_text("✓ 10/10")  # every phone connected, none marked missing

        # the deal: every phone, held, shows its own role and only while held
        t.deal()
        await until(lambda: game.state == "night")
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.state === 'night'") for p in pages.values()))
        names = {"don": "the Don", "mafia": "mafia", "sheriff": "the Sheriff", "citizen": "a citizen"}
        for s, page in pages.items():
            await page.locator("#reveal").hover()
            await page.mouse.down()
            await expect(page.locator("#role .you")).to_have_text("You are " + names[game.role(s)])
            if s in MAFIA:  # a mafioso also reads his partners, met on night zero
                partners = ", ".join(str(m) for m in MAFIA if m != s)
                await expect(page.locator("#role .mates")).to_have_text("The rest of the mafia: " + partners)
            else:
                await expect(page.locator("#role .mates")).to_have_count(0)
            await page.mouse.up()
            await expect(page.locator("#role")).to_have_text("")

        # night zero: three steps, every phone taps something
        for _ in range(3):
            answers = await step(t, pages, {})
            assert set(answers.values()) == {"Your tap is in."}
        assert game.state == "speeches"

        # day 1: the host corrects a misheard nomination (6, meant 7), seat 2 nominates 8
        await host_do(host, "nominate", 6)
        await until(lambda: game.public_view()["nominations"] == [6])
        await host_do(host, "revoke")
        await host_do(host, "nominate", 7)
        await until(lambda: game.public_view()["nominations"] == [7])
        await expect(host.get_by_test_id("nominations")).to_have_text("7")
        await host_do(host, "end_speech")
        await until(lambda: game.speaker == 2)
        await host_do(host, "nominate", 8)
        await until(lambda: game.public_view()["nominations"] == [7, 8])
        for speaker in range(2, 11):
            await until(lambda s=speaker: game.speaker == s)
            await host_do(host, "end_speech")
        await until(lambda: game.state == "voting")
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.state === 'voting'") for p in pages.values()))
        # the host calls 7, then 8 (seed 004 §4.4): each fist in its candidate's call
        votes = list(await asyncio.gather(*(tap(p, 7) for s, p in pages.items() if s <= 6)))
        t.live.fire()
        await asyncio.gather(*(p.wait_for_function("() => !!document.querySelector('#grid button[data-choice=\"8\"]:not([disabled])')")
                               for s, p in pages.items() if s > 6))
        votes += await asyncio.gather(*(tap(p, 8) for s, p in pages.items() if s > 6))
        # the last votes close the ballot: their answer may arrive on the next screen, where the page
        # drops it (it belongs to the closed ballot) and holds no earlier answer in its DOM either
        assert set(votes) <= {"", None}, votes  # each said once, in the line above the table
        await until(lambda: game.state == "last_words")
        assert 7 not in game.alive
        await host_do(host, "end_speech")
        await until(lambda: game.state == "night")
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.step === 'mafia_shoots'") for p in pages.values()))

        # night 1: the mafia shoots 9; every other phone's cover tap reads as a shooter's would (a
        # one-line "Your tap is in." beside the shooters' three lines showed who had shot)
        alive = list(game.alive)
        answers = await step(t, pages, {s: 9 for s in MAFIA})
        assert all(answers[s] == "You chose 9 — you can change it until the step ends." for s in MAFIA)
        assert all(answers[s] == f"You chose {alive[s % len(alive)]} — you can change it until the step ends."
                   for s in pages if s not in MAFIA and s in alive)
        # the voted-out 7 is out, and the table knows it: his phone says so plainly, nothing to hide
        assert answers[7] == "You are out of the game. Your taps no longer count."

        # the Don's phone reloads mid-step and comes back to the same screen, then he checks
        don = pages[DON]
        before = await epoch(don)
        await don.reload()
        await expect(don.locator("#seat")).to_have_text("Seat 1")
        await don.wait_for_function(f"() => Number(document.body.dataset.epoch) === {before}")
        answers = await step(t, pages, {DON: SHERIFF})
        assert answers[DON] == "Player 4 IS the Sheriff."
        assert all(a == "Your tap is in." for s, a in answers.items() if s not in (DON, 7))

        answers = await step(t, pages, {SHERIFF: DON})
        assert answers[SHERIFF] == "Player 1 is MAFIA."
        assert all(a == "Your tap is in." for s, a in answers.items() if s not in (SHERIFF, 7))

        # dawn: 9 was shot; the table sees it, and nobody's role
        assert game.state == "last_words" and 9 not in game.alive
        await expect(pages[5].locator("#phase-text")).to_contain_text("Last words")
        # the host reads the phase as the table hears it, never the core's "last_words"
        await expect(host.get_by_test_id("state")).to_have_text("Last words — player 9 (day 2)")
        host_text = await host.content()
        for word in ("the Don", "the Sheriff", "MAFIA"):
            assert word not in host_text

    asyncio.run(main())
