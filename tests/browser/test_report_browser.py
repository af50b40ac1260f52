"""The game report in real headless Chromium, at a phone's size and a desktop's: the whole page
fits the width (no sideways scrolling), every part is there, and nothing is fetched from anywhere.
The screenshots are kept in docs/ (NARRATOR_SCREENSHOTS=docs to refresh them)."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from narrator.report import read_game, render  # noqa: E402
from chromium import CHROMIUM, FLAGS, async_playwright, need_browser

PLAYERS = ('[players]\n1 = "Anna"\n2 = "Boris"\n3 = "Chloé"\n4 = "Dmitri"\n5 = "Eva"\n6 = "Fredrik"\n'
           '7 = "Greta"\n8 = "Hugo"\n9 = "Ilona"\n10 = "Jonathan Alexander Worthington"\n')


def report_page(tmp_path: Path) -> Path:
    """A live game's journal (speeches of real lengths), as `narrator play` leaves it."""
    import random

    from narrator.config import parse_config
    from narrator.flow.events import event_to_dict
    from narrator.journal import Journal
    from narrator.session import Session
    from narrator.simulate import RandomPlayer

    text = 'variant = "classic"\nlanguage = "en"\n' + PLAYERS
    journal = Journal.create(tmp_path / "journal.jsonl", "club.toml", text, {})
    session = Session(parse_config(text), fixed_night_steps=True)
    session.start()
    rng = random.Random(11)
    player = RandomPlayer(random.Random(5), illegal_rate=0, skill=0.6)
    clock = 1_790_000_000.0
    pending = [session.dealing_event(random.Random(3))]
    g = session.game
    began, moment = clock, None
    while g.state != "over":
        ev = pending.pop() if pending else player.legal(g)
        if type(ev).__name__ == "Timeout" and g.timer:
            clock = max(clock, began + session.config.timers[g.timer])  # a timer runs out at its full length
        else:
            clock += rng.uniform(4, 25) if g.state in ("speeches", "last_words") else rng.uniform(1, 6)
        journal._write({"t": round(clock, 3), "event": event_to_dict(ev)})
        session.feed(ev)
        if (g.state, g.speaker, g.timer) != moment:
            began, moment = clock, (g.state, g.speaker, g.timer)
    journal.finish(session.game.winner)
    journal.close()
    page = tmp_path / "game.html"
    page.write_text(render(read_game(tmp_path / "journal.jsonl")), encoding="utf-8")
    return page


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_the_report_reads_well_on_a_phone_and_a_desktop(tmp_path, size):
    need_browser()
    page_file = report_page(tmp_path)
    keep = os.environ.get("NARRATOR_SCREENSHOTS")

    async def main():
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            try:
                page = await browser.new_page(viewport={"width": size[0], "height": size[1]})
                requests = []
                page.on("request", lambda r: requests.append(r.url))
                await page.goto(page_file.as_uri())
                width = await page.evaluate("document.documentElement.scrollWidth")
                assert width <= size[0], f"the page scrolls sideways: {width}px wide at {size[0]}px"
                assert requests == [page_file.as_uri()], requests  # nothing but the page itself
                text = await page.inner_text("body")
                for words in ("Game report", "The deal", "Day 1", "Night 1", "The mafia shoot", "Jonathan Alexander Worthington"):
                    assert words in text
                assert "The mafia wins" in text or "The town wins" in text
                assert re.search(r"\b0:\d\d\b", text)  # the length of the speeches
                # every vote's bars are drawn (SVG) and no bar spills out of its vote's box
                boxes = await page.evaluate("""() => [...document.querySelectorAll('.vote')].map(v => {
                    const r = v.getBoundingClientRect();
                    return [...v.querySelectorAll('svg.bar')].every(b => b.getBoundingClientRect().right <= r.right + 0.5)
                        && v.querySelectorAll('svg.bar').length > 0 })""")
                assert boxes and all(boxes)
                if keep:
                    name = "phone" if size[0] < 500 else "desktop"
                    await page.screenshot(path=str(ROOT / keep / f"report-{name}.png"), full_page=False)
                    await page.evaluate("document.querySelector('.vote').scrollIntoView()")
                    await page.screenshot(path=str(ROOT / keep / f"report-{name}-vote.png"), full_page=False)
            finally:
                await browser.close()

    asyncio.run(main())


HOSTILE = ('[players]\n1 = "<b>Anna</b>"\n2 = "Tom &amp; Jerry"\n3 = "אבי כהן"\n'
           '4 = "Maximilian-Alexander-Konstantin-Hohenzol"\n5 = "محمد"\n8 = "<script>alert(1)</script>"\n')


@pytest.mark.parametrize("size", [(360, 740), (1280, 900)], ids=["phone", "desktop"])
def test_names_with_markup_right_to_left_or_forty_letters_stay_literal_and_in_their_place(tmp_path, size):
    """A game played to its end (split vote, re-vote, "do all of them leave?") by players named as
    people type: markup and entities are shown as typed, right-to-left names read right to left,
    and a 40-letter name is cut short in its chip instead of running over the vote's bars (it did:
    at phone width the candidate's chip covered half its bar)."""
    need_browser()
    from test_report import config_for, protocol_file

    game = ROOT / "tests/transcripts/classic_en_simulated.txt"
    page_file = tmp_path / "game.html"
    page_file.write_text(render(read_game(protocol_file(game, tmp_path), config_for(game, HOSTILE))), encoding="utf-8")

    async def main():
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            try:
                page = await browser.new_page(viewport={"width": size[0], "height": size[1]})
                await page.goto(page_file.as_uri())
                assert await page.evaluate("document.documentElement.scrollWidth") <= size[0]
                text = await page.inner_text("body")
                for name in ("<b>Anna</b>", "Tom &amp; Jerry", "אבי כהן", "محمد", "<script>alert(1)</script>",
                             "Maximilian-Alexander-Konstantin-Hohenzol"):
                    assert name in text, name
                assert await page.evaluate("document.querySelectorAll('script, b b').length") == 0
                rows = await page.evaluate("""() => [...document.querySelectorAll('.vote .row')].map(r => {
                    const chip = r.querySelector('.cand .p').getBoundingClientRect();
                    const bar = r.querySelector('svg.bar').getBoundingClientRect();
                    return [r.querySelector('.cand').innerText, chip.right - bar.left] })""")
                assert len(rows) >= 8
                assert all(overlap <= 0.5 for _, overlap in rows), rows
                # the whole name is the chip's hint, with the role
                hint = await page.evaluate("document.querySelector('.vote .p[title^=\"Maximilian\"]').title")
                assert hint == "Maximilian-Alexander-Konstantin-Hohenzol — Mafioso"
            finally:
                await browser.close()

    asyncio.run(main())


@pytest.mark.parametrize("size", [(360, 740), (1280, 900)], ids=["phone", "desktop"])
def test_how_each_player_left_is_read_whole_in_the_deal(tmp_path, size):
    """The Russian referee game (a disqualification by day, a player who leaves the table at night,
    a team's defeat): each card of the deal says how its player left, whole and inside the card.
    On a desktop «дисквалифицирован, день 1» ran out of its card, cut after «дисквалифициро»."""
    need_browser()
    from test_report import protocol_file

    game = ROOT / "tests/transcripts/classic_ru_team_defeat.txt"
    page_file = tmp_path / "game.html"
    page_file.write_text(render(read_game(protocol_file(game, tmp_path))), encoding="utf-8")

    async def main():
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            try:
                page = await browser.new_page(viewport={"width": size[0], "height": size[1]})
                await page.goto(page_file.as_uri())
                assert await page.evaluate("document.documentElement.scrollWidth") <= size[0]
                cards = await page.evaluate("""() => [...document.querySelectorAll('.deal li')].map(li => {
                    const f = li.querySelector('.fate'), card = li.getBoundingClientRect();
                    const words = [...f.childNodes].map(n => { const r = document.createRange(); r.selectNodeContents(n);
                        return [...r.getClientRects()] }).flat();
                    return [f.innerText, f.scrollWidth <= f.clientWidth + 0.5
                            && words.every(w => w.right <= card.right - 0.5 && w.left >= card.left)] })""")
                assert any(t.replace("\n", "").startswith("дисквалифицирован") for t, _ in cards), cards
                assert all(inside for _, inside in cards), cards
            finally:
                await browser.close()

    asyncio.run(main())
