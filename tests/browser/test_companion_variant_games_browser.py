"""A whole game of each rule system on ten small phones (360×740) in headless Chromium, in the
language its seed is written in — sverige in Swedish (seed 000), hungariq in Hungarian (seed 001),
grundregeln in German (seed 003), classic in Russian (seeds 002/004) — with the players' names of
the config's [players] (one of them markup, one a placeholder, one too long for a button).

At every screen of every phone: nothing wider than the phone, no missing or English word, and at
night the same screen on every phone whoever is awake (tests/browser/table_game.py). And what a
player meets:

- his own name beside his seat number, the others' under their numbers on the table, the vote
  and the night buttons, and in the list of nominees and the final roles — as typed, never as
  markup;
- in a Swedish day, when the time is up, the narrator's question (seed 000 Tid: «spelledaren ska
  när tiden är slut fråga om någon i gruppen - vem som helst - vill använda ett av
  tidstilläggen») is on every phone, with a button on the living players' phones that asks for it;
  before, the phones said «Dag: diskussion» while the table was asked.

Screenshots go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest

from narrator.config import parse_config
from narrator.flow.events import Nominate
from chromium import expect, launched, need_browser
from narrator.companion.testing import until
from table_game import NAMES, TableGame, named_table

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None

# the names a table types: markup and a placeholder stay text; a long one must not widen a button

GAMES = {
    "sverige": ("sv", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"'),
    "hungariq": ("hu", '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"'),
    "grundregeln": ("de", '1 = "mafia", 2 = "mafia", 3 = "mafia"'),
    "classic": ("ru", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"'),
}


def config(variant: str):
    return named_table(variant, *GAMES[variant])


async def names_on_the_phones(g: TableGame) -> None:
    """The day's table on two phones: names as typed, beside and under the numbers."""
    page = g.pages[1]
    await expect(page.get_by_test_id("name")).to_have_text(NAMES[1])
    assert await page.locator("header b").count() == 0, "a name is text, never markup"
    await expect(g.pages[2].get_by_test_id("name")).to_have_text("{seat}")
    await expect(g.pages[4].get_by_test_id("name")).to_have_text("")  # seat 4 has no name
    # a long name wraps in the header and never runs into the connection status beside it
    boxes = await g.pages[3].evaluate("() => [document.querySelector('header h1'), document.getElementById('status')].map(e => e.getBoundingClientRect().toJSON())")
    assert boxes[0]["right"] <= boxes[1]["left"], boxes
    for seat in (1, 3):  # «Место 1» stays on one line, the name beside or under it («Место / 1 <b>Ann</b>» before)
        assert await g.pages[seat].evaluate("() => document.getElementById('seat').getClientRects().length") == 1
    # a short name fits beside the number at 360 px, even beside the Russian «подключено»
    beside = await page.evaluate("() => document.getElementById('name').getBoundingClientRect().top < document.getElementById('seat').getBoundingClientRect().bottom")
    assert beside, "the name went under «Место 1» though it fits beside it"
    chips = await page.evaluate("() => Array.from(document.querySelectorAll('#table > span')).map(e => e.innerText.replace(/\\s+/g, ' '))")
    assert chips[0] == "1 <b>Ann</b>" and chips[1] == "2 {seat}" and chips[3] == "4", chips


@pytest.mark.parametrize("variant", list(GAMES))
def test_a_whole_game_on_ten_small_phones(variant):
    need_browser()
    seen = {"names": False, "offer": False, "extension": False, "ballot": False}

    async def on_day(g: TableGame, key) -> bool:
        game, hub = g.game, g.hub
        if not seen["names"] and game.state not in ("setup", "night"):
            await names_on_the_phones(g)
            seen["names"] = True
        choices = game.vote_choices() if game.awaiting()[0] == "awaiting_votes" else None
        if not seen["ballot"] and choices and choices[0] == "seat" and any(c in NAMES for c in choices[1]):
            # a ballot's buttons carry the names under the numbers
            voter = next(s for s in game.awaiting()[1].get("seats", game.alive) if s in game.alive)
            labels = await g.pages[voter].evaluate("() => Array.from(document.querySelectorAll('#grid button')).map(b => [b.dataset.choice, b.innerText.replace(/\\s+/g, ' ')])")
            for choice, label in labels:
                assert label == (f"{choice} {NAMES[int(choice)]}" if int(choice) in NAMES else choice), labels
            seen["ballot"] = True
        if variant == "sverige" and game.state == "hand_vote" and not seen.get("spent"):
            waiting = game.awaiting()[1]["seats"]
            called = game.ballot[game.ballot_index]
            spent = [s for s in game.alive if s not in waiting and s not in game.hands[called]]
            if spent:
                # seed 000: one vote per player per day — his hand went up for an earlier name, and
                # his phone names it («Du röstade på spelare 7 (Åsa).»)
                earlier = next(c for c, hands in game.hands.items() if spent[0] in hands)
                await expect(g.pages[spent[0]].get_by_test_id("own")).to_have_text(
                    hub.word("voted_for", seat=hub.seat_label(earlier)))
                assert await g.pages[spent[0]].locator("#grid button").count() == 0
                await expect(g.pages[waiting[0]].locator("#grid button")).to_have_count(1)
                await expect(g.pages[waiting[0]].get_by_test_id("own")).to_be_hidden()
                await g.shot(spent[0], "vote-spent")
                seen["spent"] = True
        if variant != "sverige" or game.state != "discussion":
            return False
        timer = game.public_view()["timer"]
        if timer == "extension_offer" and game.day == 1:
            # the narrator asks: every phone shows the question, the living a button to ask for it
            question = hub.word("state_extension_offer")
            assert "tidstillägg" in question
            for page in g.pages.values():
                await expect(page.locator("#phase-text")).to_have_text(question)
            await g.shot(5, "extension-offer")
            # he who asked reads that his request counted, on the extension's own screen (it came
            # before the answer, so the page kept it); the others read what happened
            answer = await g.tap(5, "yes")
            assert answer == hub.word("extension_asked"), answer
            await g.synced()
            assert game.public_view()["timer"] == "extension"
            extended = hub.word("state_extension")
            granted = g.t.live.voice.render("extension_granted", {"time": 180})
            for seat, page in g.pages.items():
                await expect(page.locator("#phase-text")).to_have_text(extended)
                await expect(page.locator("#caption")).to_have_text(granted)
                assert await page.locator("#grid button").count() == 0
                await expect(page.get_by_test_id("result")).to_have_text(answer if seat == 5 else "")
            # three minutes read as a clock, not as "180 s"
            await expect(g.pages[5].locator("#timer")).to_have_text(re.compile(r"^[23]:[0-5][0-9]$"))
            await g.shot(5, "extension-granted")
            # reloaded while the extension runs, his phone still says his request counted
            await g.pages[5].reload()
            await expect(g.pages[5].get_by_test_id("result")).to_have_text(answer)
            await expect(g.pages[5].locator("#phase-text")).to_have_text(extended)
            seen["offer"] = True
            return True
        if timer == "extension_offer" and game.day > 1:
            # a dead player's phone shows the question too, and no button: he is out of the game
            dead = next(s for s in g.pages if s not in game.alive)
            assert await g.pages[dead].locator("#grid button").count() == 0
            living = min(game.alive)
            await expect(g.pages[living].locator("#grid button")).to_have_count(1)
            seen["extension"] = True
        return False

    async def main():
        async with launched() as browser:
            async with TableGame(config(variant), browser, shots=SHOTS and SHOTS / variant, names=NAMES) as g:
                await g.join()
                found = await g.play(on_day=on_day)
                assert g.game.state == "over"
                assert found.problems == [], "\n".join(found.problems)
                assert found.night_screens >= 3 and found.screens >= 15
                # the final roles name every player as typed, each role as a list names it ("6: Bybo",
                # the game report's word), not in the narrator's sentence form ("6: en bybo")
                text = await g.text(g.pages[4])
                for seat, name in NAMES.items():
                    assert f"{seat} ({name})" in text, name
                for seat in range(4, 11):
                    label = f"{seat} ({NAMES[seat]})" if seat in NAMES else str(seat)
                    assert g.hub.word("seat_role", seat=label, role=g.hub.listed_role(g.game.role(seat))) in text
                # the night's buttons, the same on every phone, carry the names too
                assert g.night_labels and all(
                    label == (f"{c} {NAMES[int(c)]}" if int(c) in NAMES else c) for c, label in g.night_labels), g.night_labels
                assert seen["names"] and (seen["ballot"] or variant == "hungariq")  # hungariq votes yes or no
                if variant == "sverige":
                    assert seen["offer"] and seen["extension"] and seen.get("spent")

    asyncio.run(main())


def test_the_manner_of_death_list_and_its_answer_fit_a_small_phone():
    """seed 003: «dass die Mafiosi dem Spielleiter eine Todesart mitteilen müssen» — the eight
    manners are on the buttons; the narrator's reading of them was printed again above the buttons,
    so at 360×740 the list and the mafioso's answer ran below the screen."""
    need_browser()
    cfg = parse_config(
        'variant = "grundregeln"\nlanguage = "de"\nseats = 10\n[rules]\nmanner_of_death = true\n'
        '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "mafia" }\n'
    )

    async def main():
        async with launched() as browser:
            async with TableGame(cfg, browser, shots=SHOTS and SHOTS / "manner") as g:
                await g.join()
                dealing = asyncio.create_task(g.t.companion.deal_when_ready([g.t.live.session.dealing_event()]))
                for p in g.pages.values():
                    await p.locator('#grid button[data-choice="ready"]').click()
                await asyncio.wait_for(dealing, 10)
                await until(lambda: g.game.step is not None and g.game.step.name == "mafia_kills")
                await asyncio.gather(*(g.tap(s, "10" if s <= 3 else "5") for s in g.pages))
                g.t.live.fire()
                await until(lambda: g.game.step is not None and g.game.step.name == "mafia_chooses_manner")
                await g.synced()
                await g.look("manner", seats=(1, 5))
                for page in (g.pages[1], g.pages[5]):
                    await expect(page.locator("#caption")).to_be_hidden()
                    await expect(page.locator("#grid button")).to_have_count(8)
                answer = await g.tap(1, 8)
                assert answer
                bottom = await g.pages[1].evaluate("() => document.getElementById('result').getBoundingClientRect().bottom")
                assert bottom <= 741, f"the answer is below the screen ({bottom} px)"
                await g.shot(1, "manner-answered")
                assert g.found.problems == [], "\n".join(g.found.problems)

    asyncio.run(main())


def test_the_host_screen_names_the_seats_and_the_nominees_as_typed():
    """The host screen's seat boxes and its nominations carry the [players] names, as text."""
    need_browser()
    cfg = config("sverige")

    async def main():
        async with launched() as browser:
            async with TableGame(cfg, browser) as g:
                t = g.t
                await t.join_all()
                await t.to_first_day()
                t.live.submit_event(Nominate(1, by=4))
                t.live.submit_event(Nominate(3, by=5))
                await t.settle()
                for viewport in ({"width": 1280, "height": 800}, {"width": 360, "height": 740}):
                    host = await (await browser.new_context(viewport=viewport)).new_page()
                    await host.goto(t.host_link)
                    await expect(host.get_by_test_id("nominations")).to_have_text(f"1 ({NAMES[1]}), 3 ({NAMES[3]})")
                    names = await host.evaluate("() => Array.from(document.querySelectorAll('.seat small.name')).map(e => e.textContent)")
                    assert names == [NAMES[s] for s in sorted(NAMES)]
                    assert await host.locator(".seat b b").count() == 0, "a name is never markup"
                    spills = await host.evaluate("() => document.documentElement.scrollWidth > document.documentElement.clientWidth")
                    assert not spills
                    if viewport["width"] == 360:
                        # a long double name takes up to three lines in its box, broken where it may be:
                        # «Åsa-Maria / Lindqvist- / Bergström» whole, not «Åsa-Maria Li…» on one line
                        # (its lines counted by its words' rows: a word's box has room above and below its letters)
                        lines = await host.evaluate("""() => { const e = document.querySelectorAll('.seat small.name')[2];
                          const rows = new Set(Array.from(e.querySelectorAll('.w')).map(w => Math.round(w.getBoundingClientRect().top)));
                          return [rows.size, e.scrollHeight > e.clientHeight]; }""")
                        assert lines == [3, False], lines
                    await host.context.close()

    asyncio.run(main())
