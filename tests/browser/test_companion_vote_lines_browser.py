"""Whose a day vote is, on the voter's own phone — in real headless Chromium at 360×740
(screenshots in $NARRATOR_SHOTS, default a temporary folder):

- **"The host recorded it for you." outlives a crash.** At a table whose votes are hands
  (`[companion] votes = false`) the scorer types a player's vote (`tap 6 7`); the voter's phone
  says "You voted for player 7 (Grace). The host recorded it for you." After `kill -9` and
  `narrator resume` in the middle of that vote the vote was back but the sentence was gone: the
  journal did not say whose it was. It does now (`"by": "host"` beside the day vote; never on a
  night tap), and the phone reads the sentence again.
- **A dead decider decides, he does not vote.** At a grundregeln tie the player who died last
  decides (seed 003: «entscheidet bei einer Pattsituation der letzte Tote»); the player he names
  is lynched. His phone said "Deine Stimme: 4 (Dora)" under the ballot, as a voter's does. It
  says what he did: „Du hast entschieden: Spieler 4 (Dora) wird gelyncht.“ — on his phone alone,
  when the day goes on (a table that gives last words). When the lynch ends the day (seed 003's
  default: no last words) the sentence stayed on his phone through the mafia's step, the one night
  screen unlike the others; now his night screen is every phone's, and the night's caption says
  the lynch to all.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from pathlib import Path

import pytest

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech
from chromium import expect, launched, need_browser
from seat_pages import SMALL, seated, tap
from crash_table import CrashTable, club_config, free_port
from table_game import SHAPE_JS

SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-vote-lines-"))


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / name), full_page=True)
    print("screenshot:", SHOTS / name)


def german_table(last_words: bool = False):
    return parse_config('variant = "grundregeln"\nlanguage = "de"\nseats = 10\n'
                        f'[rules]\nlast_words = {str(last_words).lower()}\n'
                        '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "mafia" }\n'
                        '[players]\n4 = "Dora"\n10 = "Zeno"\n[companion]\nvotes = true\n')


@pytest.mark.parametrize("last_words", [True, False], ids=["last-words", "into-the-night"])
def test_the_last_dead_who_decides_a_german_tie_reads_his_decision_not_a_vote(last_words):
    need_browser()

    async def main():
        async with Table(german_table(last_words)) as t, launched() as browser:
            game = t.live.game
            pages, phones = await seated(t, browser, (10, 6))
            decider, voter = pages[10], pages[6]
            t.deal()
            await until(lambda: phones[1].screen["step"] == "mafia_kills")
            for s in (1, 2, 3):
                await phones[s].tap(10)  # the mafia kill seat 10: he will be the last dead
            await t.run_clock_until(lambda: game.state == "discussion")
            t.live.submit_event(EndSpeech())
            await until(lambda: game.state == "pointing" and phones[1].screen["state"] == "pointing")
            for s, target in {1: 4, 2: 4, 3: 4, 4: 5, 5: 4, 7: 5, 8: 5, 9: 6}.items():
                assert (await phones[s].tap(target))["ok"]
            await voter.locator('#grid button[data-choice="5"]').wait_for()
            await tap(voter, 5)
            await until(lambda: game.state == "defences")
            await t.end_speeches(("defences",))
            await until(lambda: game.state == "final_vote" and phones[1].screen["state"] == "final_vote")
            for s, target in {1: 4, 2: 4, 3: 5}.items():
                await phones[s].tap(target)
            await voter.locator('#grid button[data-choice="5"]').wait_for()
            await tap(voter, 5)
            t.live.fire()  # 2 to 2: the player who died last decides
            await until(lambda: game.state == "tie_break")
            await decider.locator('#grid button[data-choice="4"]').wait_for()
            await shot(decider, "de-tie-decider-before.png")
            said = await tap(decider, 4)
            await t.settle()
            assert t.recorded("tie_break", "by", "seat") == [(10, 4)] and 4 not in game.alive
            decided = "Du hast entschieden: Spieler 4 (Dora) wird gelyncht."
            assert said == (decided if last_words else "")
            if last_words:
                # his answer, on the screen his decision led to (Dora's last words): his ballot was
                # gone the moment he decided, an answer kept for it would never be read
                await until(lambda: game.state == "last_words")
                await expect(decider.get_by_test_id("result")).to_have_text(decided)
            else:
                # the lynch ends the day: his phone shows the night every phone shows, no day's
                # answer in its answer box; the caption tells everyone who was lynched
                await until(lambda: game.state == "night")
                for page in (decider, voter):
                    await page.wait_for_function("() => document.body.dataset.state === 'night'")
                    await expect(page.get_by_test_id("result")).to_have_text("")
                    await expect(page.locator("#caption")).to_contain_text("Spieler 4 (Dora) wird gelyncht.")
                shapes = [await p.evaluate(SHAPE_JS) for p in (decider, voter)]
                assert shapes[0] == shapes[1], [(a, b) for a, b in zip(*shapes) if a != b][:3]
            assert "Deine Stimme" not in await decider.evaluate("() => document.body.innerText")
            assert await decider.evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]
            await shot(decider, f"de-tie-decider-after-{'last-words' if last_words else 'night'}.png")
            # on his phone alone: a voter's phone says nothing of it
            assert "entschieden" not in await voter.evaluate("() => document.body.innerText")
            await shot(voter, "de-tie-voter-after.png")
            # and no other phone got his answer: every other frame to them is the same
            for seat, phone in phones.items():
                assert not any(f["t"] == "ack" and "entschieden" in f.get("text", "") for _, f, _ in phone.frames), seat

    asyncio.run(main())


# classic's vote in one window ("Vote now."), long enough for a kill -9 and a resume inside it
CLASSIC_TIMERS = ('night_zero_step = 3\nmafia_meeting = 5\nnight_step = 3\nspeech = 60\nvote = 60\n'
                  '[rules]\nvote_call = "together"\n')
BY_HOST = "You voted for player 7 (Grace). The host recorded it for you."


async def screen_of(table: CrashTable, seat: int = 1) -> dict:
    return next((f for f in reversed(table.frames[seat]) if f.get("t") == "screen"), {})


async def speeches_to_the_vote(table: CrashTable) -> None:
    """Day one at the console, as the scorer plays it: 7 and 8 nominated, each speech ended."""
    n = table.narrator
    page = table.pages[1]
    await page.wait_for_function("() => document.body.dataset.state === 'speeches'", timeout=60_000)
    for speech in range(12):
        mark = n.mark()
        if await table.data(1, "state") == "voting":
            return
        if speech < 2:
            n.type(f"nominate {7 + speech}")  # one nomination a speech (seed 004)
        n.type("timeout")
        await n.wait_for("» ", since=mark)
        await asyncio.sleep(0.3)
    await page.wait_for_function("() => document.body.dataset.state === 'voting'", timeout=20_000)


def test_the_hosts_vote_for_a_player_is_still_said_as_the_hosts_after_kill_9_and_resume(tmp_path):
    need_browser()

    async def main():
        port = free_port()
        cfg = club_config("classic", "en", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"', port, CLASSIC_TIMERS,
                          {7: "Grace"}).replace("votes = true", "votes = false")
        async with launched() as browser:
            table = CrashTable(tmp_path, browser, cfg, port)
            try:
                await table.start()
                await table.until_all("() => document.querySelector('#grid button[data-choice=ready]')")
                for page in table.pages.values():
                    await page.locator("#grid button[data-choice=ready]").click()
                await speeches_to_the_vote(table)
                voter = table.pages[6]
                assert await table.buttons(6) == []  # hands: the phones have no vote buttons
                table.narrator.type("tap 6 7")  # the scorer saw seat 6's hand for Grace
                await expect(voter.get_by_test_id("own")).to_have_text(BY_HOST)
                await table.shot(6, "en-host-vote-before-crash", SHOTS)
                # the journal says whose it was, beside the vote; no night tap says anything of the kind
                lines = [json.loads(x) for x in table.journal.read_text().splitlines()[1:]]
                taps = [x for x in lines if x.get("event", {}).get("type") == "tap"]
                assert [x.get("by") for x in taps if x["event"]["seat"] == 6 and x["event"].get("target") == 7] == ["host"]
                table.kill()
                await table.resume()
                await table.until_all("() => document.getElementById('status').className !== 'down' "
                                      "&& document.body.dataset.state === 'voting'", 60)
                await expect(voter.get_by_test_id("own")).to_have_text(BY_HOST)
                await expect(voter.get_by_test_id("result")).to_be_hidden()
                await table.shot(6, "en-host-vote-after-resume", SHOTS)
                # on his phone alone: every other phone names no vote
                for seat in (1, 5, 8):
                    await expect(table.pages[seat].get_by_test_id("own")).to_be_hidden()
                assert await voter.evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]
            except BaseException:
                print(table.narrator.text[-4000:] if table.narrator else "")  # what the console said, for the failure
                raise
            finally:
                await table.close()

    asyncio.run(main())
