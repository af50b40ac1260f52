"""Phones for the night, hands by day (`[companion] votes = false`), and a host who runs the game
from the host screen alone: where several are voted on in one window — classic's «Vote now.» with
`vote_call = "together"`, grundregeln's pointing, its run-off, final vote and the last dead's
tie-break (seed 003) — the host enters the whole count there. A row of seats under each candidate;
a seat votes once (seed 004 §4.4 «Each player can only cast their vote for only one player», seed
003 «zeigt jeder Spieler … auf einen Mitspieler»), so a seat tapped under another candidate moves
there. Each hand is the `tap` the console's `7: 3 5` line journals, checked by the game as that
line is: an entry the game would refuse any hand of changes nothing, and the host reads why.

Played in real headless Chromium at 360×740; screenshots go to $NARRATOR_SHOTS (default: a
temporary folder).
"""

from __future__ import annotations

import asyncio
import io
import os
import tempfile
from pathlib import Path

from rich.console import Console

from narrator.companion.testing import CLASSIC_DEAL, Table, until
from narrator.config import parse_config
from narrator.console import hands_typed
from narrator.flow.events import EndSpeech
from chromium import expect, launched, need_browser
from seat_pages import SMALL

SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-host-count-"))


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / name), full_page=True)
    print("screenshot:", SHOTS / name)


async def tap(page, candidate: int, *voters: int) -> None:
    for v in voters:
        await page.get_by_test_id(f"hand-{candidate}-{v}").click()


async def fits(page) -> None:
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]


def test_a_classic_together_vote_is_counted_from_the_host_screen_and_a_refused_entry_changes_nothing():
    need_browser()

    async def main():
        config = parse_config(CLASSIC_DEAL + '[rules]\nvote_call = "together"\n[companion]\nvotes = false\n'
                              '[players]\n7 = "<b>Ann</b>"\n3 = "Cleo"\n')
        async with Table(config) as t, launched() as browser:
            live, game = t.live, t.live.game
            live.scorer_at_console = True  # `narrator play` on a terminal: the count waits for the scorer
            console_out = io.StringIO()
            console = Console(file=console_out, width=200, highlight=False)
            await t.join_all()
            host = await (await browser.new_context(viewport=SMALL)).new_page()
            await host.goto(t.host_link)
            await t.to_first_day()
            await t.to_classic_vote(7, 8, 6)
            await expect(host.get_by_test_id("hands")).to_be_empty()  # «Vote now.»: the fists go down
            live.fire()
            await until(live.hands_waiting, what="the count waiting for the votes")
            await expect(host.get_by_test_id("hands-text")).to_have_text(
                "Time is up: the count waits for the votes. Under each candidate, tap the seats that voted "
                "for them (each seat once), then Confirm — or Nobody.")
            await expect(host.get_by_test_id("awaiting")).to_have_text(
                "each candidate's votes to be entered, here or at the console")
            # a row per candidate in the order voted on, his name as typed (text, never markup)
            await expect(host.get_by_test_id("hands-row-7")).to_contain_text("For player 7 (<b>Ann</b>):")
            assert await host.locator("#hands b").count() == 0
            await expect(host.get_by_test_id("hands-row-6")).to_contain_text("For player 6:")
            await tap(host, 7, 3, 5)
            await tap(host, 8, 2)
            # 3 tapped under 8 too: a seat votes once, so it moves there — and back
            await tap(host, 8, 3)
            await expect(host.get_by_test_id("hand-7-3")).to_have_class("elsewhere")
            await expect(host.get_by_test_id("hand-8-3")).to_have_attribute("aria-pressed", "true")
            await tap(host, 7, 3)
            await expect(host.get_by_test_id("hand-7-3")).to_have_attribute("aria-pressed", "true")
            await expect(host.get_by_test_id("hand-8-3")).to_have_attribute("aria-pressed", "false")
            await tap(host, 8, 4)
            # meanwhile the scorer types 4's fist for 6 at the console: his line is in first
            assert hands_typed(live, "6: 4", console)
            await until(lambda: game.votes == {4: 6}, what="the console's line")
            await expect(host.get_by_test_id("hand-cast-4")).to_be_visible()  # under 6, fixed
            await fits(host)
            await shot(host, "host-count-together-en.png")
            await host.get_by_test_id("hands-confirm").click()
            # refused whole: the game's own reason, as the console gives it, and nothing counted
            await expect(host.get_by_test_id("refused")).to_have_text("Nothing recorded: Player 4 has already voted.")
            await shot(host, "host-count-together-refused-en.png")
            assert game.votes == {4: 6} and game.state == "voting" and live.hands_waiting()
            # his taps stand, to be mended: the buttons answer again
            await expect(host.get_by_test_id("hands-nobody")).to_be_enabled()
            await expect(host.get_by_test_id("hand-8-4")).to_have_attribute("aria-pressed", "true")
            # the host takes 4 back and confirms: the whole count, the silent votes go to 6 (seed 004 §4.4)
            await tap(host, 8, 4)
            await host.get_by_test_id("hands-confirm").click()
            await until(lambda: game.state != "voting", what="the count")
            result = [e for e in t.records if e.get("type") == "vote_result"][-1]
            assert result["counts"] == {"7": 2, "8": 1, "6": 7}
            await expect(host.get_by_test_id("hands")).to_be_empty()
            taps = [e["event"] for e in t.records if e.get("type") == "input" and e["event"]["type"] == "tap"]
            assert taps == [{"type": "tap", "seat": 4, "target": 6}, {"type": "tap", "seat": 3, "target": 7},
                            {"type": "tap", "seat": 5, "target": 7}, {"type": "tap", "seat": 2, "target": 8}]
            # the refused entry journaled nothing: no rejected input either
            assert not [e for e in t.records if e.get("type") == "rejected"]

    asyncio.run(main())


def test_grundregeln_pointing_final_vote_and_tie_break_are_entered_from_the_host_screen():
    need_browser()

    async def main():
        config = parse_config('variant = "grundregeln"\nlanguage = "de"\nseats = 8\n'
                              '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "mafia" }\n'
                              '[companion]\nvotes = false\n[players]\n5 = "Konstantin Zaubermeister-Großvater"\n')
        async with Table(config) as t, launched() as browser:
            live, game = t.live, t.live.game
            live.scorer_at_console = True
            phones = await t.join_all()
            host = await (await browser.new_context(viewport=SMALL)).new_page()
            await host.goto(t.host_link)
            t.deal()
            await until(lambda: phones[1].screen["step"] == "mafia_kills", what="the night's kill")
            for s in (1, 2, 3):
                await phones[s].tap(8)
            await t.run_clock_until(lambda: game.state == "discussion")
            assert 8 not in game.alive
            live.submit_event(EndSpeech())  # the discussion ends: everybody points
            await until(lambda: game.state == "pointing", what="the pointing")
            live.fire()
            await until(live.hands_waiting, what="the pointing's count")
            await expect(host.get_by_test_id("hands-text")).to_have_text(
                "Die Zeit ist um: Gezählt wird, sobald eingetragen ist, wer auf wen gezeigt hat. Tippe unter "
                "jedem Spieler die Plätze an, die auf ihn gezeigt haben (jeden Platz nur einmal), dann "
                "„Bestätigen“ — oder „Niemand“.")
            await expect(host.get_by_test_id("awaiting")).to_have_text(
                "das Eintragen, wer auf wen gezeigt hat, hier oder an der Konsole")
            await expect(host.get_by_test_id("hands-row-5")).to_contain_text(
                "Auf Spieler 5 (Konstantin Zaubermeister-Großvater) gezeigt:")
            # seed 003: one points at a fellow player — his own seat keeps its place, and cannot be tapped
            assert await host.get_by_test_id("hand-3-3").is_disabled()
            assert not await host.get_by_test_id("hand-3-4").is_disabled()
            # the dead point at nobody: seat 8 has no button in any row
            assert await host.locator("[data-testid^=hand-][data-testid$='-8']").count() == 0
            await tap(host, 4, 1, 2, 5)
            await tap(host, 5, 3, 4, 6)
            await fits(host)
            await shot(host, "host-count-pointing-de.png")
            await host.get_by_test_id("hands-confirm").click()
            await until(lambda: game.state == "defences", what="the nominees' defences")
            assert game.nominees == [4, 5]
            await t.end_speeches(("defences",))
            await until(lambda: game.state == "final_vote", what="the final vote")
            live.fire()
            await until(live.hands_waiting, what="the final vote's count")
            await expect(host.get_by_test_id("hands-row-4")).to_contain_text("Für Spieler 4:")
            await tap(host, 4, 1, 2, 3)
            await tap(host, 5, 4, 5, 6)  # 7 did not vote: 3 to 3, the last dead decides
            await host.get_by_test_id("hands-confirm").click()
            await until(lambda: game.state == "tie_break", what="the tie-break")
            live.fire()
            await until(live.hands_waiting, what="the last dead's decision")
            await expect(host.get_by_test_id("hands-text")).to_have_text(
                "Die Zeit ist um: Spieler 8, der letzte Tote, entscheidet; gezählt wird, sobald seine "
                "Entscheidung eingetragen ist. Tippe seinen Platz unter dem Spieler an, den er nennt, dann „Bestätigen“ — oder „Niemand“.")
            await expect(host.get_by_test_id("awaiting")).to_have_text(
                "das Eintragen der Entscheidung von Spieler 8, hier oder an der Konsole")
            # the rules call on 8 alone, who died last: one button under each candidate, his
            assert await host.locator("#hands button[data-seat]").count() == 2
            await shot(host, "host-count-tie-break-de.png")
            await tap(host, 5, 8)
            await host.get_by_test_id("hands-confirm").click()
            await until(lambda: game.state != "tie_break", what="the lynch")
            assert t.recorded("tie_break", "by", "seat") == [(8, 5)]
            assert 5 not in game.alive
            rounds = [(e["round"], e["counts"]) for e in t.records if e.get("type") == "vote_result"]
            assert rounds == [("pointing", {"4": 3, "5": 3}), ("final_vote", {"4": 3, "5": 3})]

    asyncio.run(main())
