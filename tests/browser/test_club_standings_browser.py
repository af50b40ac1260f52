"""The season's standings page in real headless Chromium, at a phone's size and a desktop's: the
table and the chart fit the width (no sideways scrolling), every member is there with his rating,
names stay literal, and nothing is fetched from anywhere. The screenshots are kept in docs/screens
(NARRATOR_SCREENSHOTS=docs/screens to refresh them)."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from narrator import club  # noqa: E402
from narrator.language import load_voice  # noqa: E402
from narrator.report.standings import render  # noqa: E402
from chromium import CHROMIUM, FLAGS, async_playwright, need_browser  # noqa: E402

MEMBERS = ["Anna", "Boris", "Chloé", "Dmitri", "Eva", "Fredrik", "Greta", "Hugo", "Ilona",
           "Jonathan Alexander Worthington", "<b>Kai</b>", "Lea"]
DEAL = ["sheriff", "don", "mafia", "mafia"] + ["citizen"] * 6


def season_page(tmp_path: Path) -> Path:
    """Twenty-four games of an autumn: ten of the twelve members at each, a guest now and then."""
    rng = random.Random(41)
    games = []
    for n in range(24):
        names = rng.sample(MEMBERS, 10)
        if n % 7 == 3:
            names[rng.randrange(10)] = None  # a guest's seat
        deal = rng.sample(DEAL, 10)
        winner = rng.choice(["town", "town", "mafia"])
        when = 1_790_000_000 + 86400 * 3 * n
        players = [club.PlayerFacts(i + 1, name, role, club.side_of(role), club.wins_with(role, winner), False, 0, None)
                   for i, (name, role) in enumerate(zip(names, deal))]
        games.append(club.GameRow(f"{n:064x}", when, when, None, "classic", 10, winner, 3, "en", None, players))
    season = club.Season("autumn 2026", dt.date(2026, 9, 1), dt.date(2026, 12, 31))
    page = tmp_path / "standings.html"
    page.write_text(render(club.compute(games), load_voice("en"), season), encoding="utf-8")
    return page


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_the_standings_read_well_on_a_phone_and_a_desktop(tmp_path, size):
    need_browser()
    page_file = season_page(tmp_path)
    keep = os.environ.get("NARRATOR_SCREENSHOTS")

    async def main():
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            try:
                page = await browser.new_page(viewport={"width": size[0], "height": size[1]})
                requests = []
                page.on("request", lambda r: requests.append(r.url))
                await page.goto(page_file.as_uri())
                assert await page.evaluate("document.documentElement.scrollWidth") <= size[0]
                assert requests == [page_file.as_uri()], requests  # nothing but the page itself
                # the table fits its box (on a phone the wins and sides give way to the rating)
                fits = await page.evaluate("""() => { const s = document.querySelector('.scroll');
                    return s.scrollWidth <= s.clientWidth + 0.5 }""")
                assert fits
                text = await page.inner_text("body")
                for words in ("The club's standings", "Season autumn 2026: 2026-09-01 – 2026-12-31", "Games: 24",
                              "Ratings over the season", "Jonathan Alexander Worthington", "<b>Kai</b>", "guest"):
                    assert words in text, words
                assert await page.evaluate("document.querySelectorAll('b b, script').length") == 0
                # each of the season's dates on one line, never broken at its hyphen ("2026-" / "12-31")
                lines = await page.evaluate("() => [...document.querySelectorAll('header .nw')].map(e => e.getClientRects().length)")
                assert lines == [1, 1], lines
                chart = await page.evaluate("""() => { const r = document.querySelector('svg.ratings').getBoundingClientRect();
                    return [r.width, r.height, document.querySelectorAll('svg.ratings polyline').length] }""")
                assert 300 <= chart[0] <= size[0] and chart[1] > 150 and chart[2] == 12
                if keep:
                    name = "phone" if size[0] < 500 else "desktop"
                    await page.screenshot(path=str(ROOT / keep / f"club-standings-{name}.png"), full_page=True)
            finally:
                await browser.close()

    asyncio.run(main())
