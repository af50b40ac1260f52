"""Phones for the night, hands by day (`[companion] votes = false`), and a host who runs the game
from the host screen: classic's vote calls each candidate in turn (seed 004 §4.4 «right after vote
for certain candidate has been announced and before host says "Stop"»), and once a call's two
seconds are over its count waits for the scorer's line. Nobody watches the terminal: the host
screen says what the count waits for, and the host taps the seats that voted, then Confirm — or
Nobody. Each hand is journaled as the `tap` it stands for, as the console's line is, and the count
takes one line per call, whichever side gave it: the other's comes too late and changes nothing.

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
from chromium import expect, launched, need_browser
from seat_pages import SMALL

SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-host-hands-"))


class Screen:
    """A host screen's connection, as the hub answers it: what it was sent."""

    def __init__(self):
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / name), full_page=True)
    print("screenshot:", SHOTS / name)


def test_the_host_screen_gives_the_hands_the_count_waits_for_once_whichever_side_gives_them():
    need_browser()

    async def main():
        config = parse_config(CLASSIC_DEAL + "[companion]\nvotes = false\n")
        async with Table(config) as t, launched() as browser:
            live, game, hub = t.live, t.live.game, t.companion.hub
            live.scorer_at_console = True  # `narrator play` on a terminal: the count waits for its line
            console_out = io.StringIO()
            console = Console(file=console_out, width=200, highlight=False)
            await t.join_all()
            host = await (await browser.new_context(viewport=SMALL)).new_page()
            await host.goto(t.host_link)
            await t.to_first_day()
            await t.to_classic_vote(7, 8, 6, 9)
            await expect(host.get_by_test_id("state")).to_have_text("Vote: player 7 (day 1)")
            # the call's time runs: the count does not wait yet, and the screen offers nothing
            await expect(host.get_by_test_id("hands")).to_be_empty()
            live.fire()
            await until(live.hands_waiting, what="7's count waiting for the hands")
            text = "Time is up for player 7: the count waits for the votes. Tap the seats that voted, then Confirm — or Nobody."
            await expect(host.get_by_test_id("hands-text")).to_have_text(text)
            # the row below says the same wait: the entry of 7's votes, not "votes from seats 1 … 10"
            await expect(host.get_by_test_id("awaiting")).to_have_text(
                "the votes for player 7 to be entered, here or at the console")
            assert await host.get_by_test_id("hands-confirm").is_disabled()  # no seat tapped yet
            await host.get_by_test_id("hand-3").click()
            await host.get_by_test_id("hand-5").click()
            await host.get_by_test_id("hand-9").click()
            await host.get_by_test_id("hand-9").click()  # tapped by mistake, and taken back
            assert await host.evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]
            await shot(host, "host-hands-waiting-en.png")
            call = live.hand_call()
            await host.get_by_test_id("hands-confirm").click()
            # counted: 8 is called now, and the hands for 7 are in as the console's would be
            await until(lambda: game.calling == 1, what="8 called")
            await expect(host.get_by_test_id("state")).to_have_text("Vote: player 8 (day 1)")
            await expect(host.get_by_test_id("hands")).to_be_empty()
            assert game.votes == {3: 7, 5: 7}
            # 8's time is over, and the scorer types his line as the host presses hers: the console's
            # turn came first — it is counted, and the host's press is refused on her screen alone
            live.fire()
            await until(live.hands_waiting, what="8's count waiting for the hands")
            await expect(host.get_by_test_id("hands-text")).to_contain_text("player 8")
            await expect(host.get_by_test_id("awaiting")).to_contain_text("votes for player 8 to be entered")
            screen = Screen()
            assert hands_typed(live, "2 4", console)
            hub._host_action(screen, {"t": "hands", "call": live.hand_call(), "seats": [1]})
            await until(lambda: game.calling == 2, what="6 called")
            await until(lambda: screen.sent, what="the host's answer")
            assert "Nothing recorded: the count is not waiting for votes now" in screen.sent[0]
            assert game.votes == {3: 7, 5: 7, 2: 8, 4: 8}
            # 6's: the host's press first, the scorer's line after it is too late and changes nothing
            live.fire()
            await until(live.hands_waiting, what="6's count waiting")
            hub._host_action(screen, {"t": "hands", "call": live.hand_call(), "seats": [9]})
            assert hands_typed(live, "1", console)
            await until(lambda: game.calling == 3, what="9 called")
            await t.settle()
            assert "'1' not taken: that call's count has been said already" in console_out.getvalue()
            assert game.votes == {3: 7, 5: 7, 2: 8, 4: 8, 9: 6}
            # 9's call, the last: Nobody — every silent vote goes to 9 (seed 004 §4.4)
            live.fire()
            await until(live.hands_waiting, what="9's count waiting")
            await expect(host.get_by_test_id("hands-text")).to_contain_text("player 9")
            await host.get_by_test_id("hands-nobody").click()
            await until(lambda: game.state != "voting", what="the counts")
            result = [e for e in t.records if e.get("type") == "vote_result"][-1]
            assert result["counts"] == {"7": 2, "8": 2, "6": 1, "9": 5}
            # the journal's inputs: the ordinary taps, each once, in the order the game took them
            taps = [e["event"] for e in t.records if e.get("type") == "input" and e["event"]["type"] == "tap"]
            assert taps == [{"type": "tap", "seat": 3, "target": 7}, {"type": "tap", "seat": 5, "target": 7},
                            {"type": "tap", "seat": 2, "target": 8}, {"type": "tap", "seat": 4, "target": 8},
                            {"type": "tap", "seat": 9, "target": 6}]

    asyncio.run(main())
