"""What a player's phone says, said once and about what is happening — in real headless Chromium
at 360×740 (screenshots in $NARRATOR_SHOTS, default a temporary folder):

- **His vote, once.** After a vote the phone said it twice: the line above the table "You voted for
  player 7 (Grace)." and, under the ballot, "Your vote: 7 (Grace)". The line above stays — it is
  what the game recorded, a hand the scorer typed for him included, and then it says so ("The host
  recorded it for you.") — and the box under the ballot stays empty. In every vote kind: classic's
  calls, the Swedish hands, the Hungarian support and execution votes, the German pointing.
- **Game over is no secret.** The "Hold to see your role" button is gone: the result, the player's
  own role said plainly ("Your role: Sheriff"), and every role as the narrator announced them.
  Before the end no phone is ever sent another seat's role.
- **The count waits for the scorer** (hands by day, `[companion] votes = false`): every phone reads
  "The host is entering the votes." until the count goes on.
- **The game is out of reach** (its process died): the phone's countdown stops and the phone says
  it is reconnecting; back, it shows the server's time.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import tempfile
from pathlib import Path

import pytest
from rich.console import Console

from narrator.companion.testing import CLASSIC_DEAL, Table, until
from narrator.config import parse_config
from narrator.console import hands_typed
from narrator.flow.events import Defeat, Nominate, Tap
from chromium import expect, launched, need_browser
from seat_pages import SMALL, chosen, seated, tap

SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-says-once-"))


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / name), full_page=True)
    print("screenshot:", SHOTS / name)


def table(variant: str, lang: str, roles: str, extra: str = "[companion]\nvotes = true\n"):
    return parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n[dealing]\nroles = {{ {roles} }}\n'
                        f'[players]\n7 = "Grace"\n{extra}')


async def classic_vote(t: Table) -> tuple[dict, dict]:
    """Nominees 7 and 8; the host calls 7 (seed 004 §4.4). Seat 1 taps 7, the scorer types seat 2's."""
    await t.to_classic_vote(7, 8)
    return {"target": 7}, {"ev": Tap(2, 7), "choice": "7"}


async def swedish_hands(t: Table) -> tuple[dict, dict]:
    await t.to_hand_vote((7, 3), (8, 5))
    return {"target": 7}, {"ev": Tap(2, None, True), "choice": "7"}  # "tap 2 ja": the name being called


async def hungarian_support(t: Table) -> tuple[dict, dict]:
    t.live.submit_event(Nominate(7, by=5))
    await until(lambda: t.live.game.state == "support_vote", what="the support vote")
    return {"target": "no"}, {"ev": Tap(2, None, True), "choice": "yes"}


async def german_pointing(t: Table) -> tuple[dict, dict]:
    await t.run_clock_until(lambda: t.live.game.state == "pointing")
    return {"target": 7}, {"ev": Tap(2, 8), "choice": "8"}


VOTES = {
    "classic": (("en", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"'), classic_vote,
                "You voted for player 7 (Grace).", "You voted for player 7 (Grace). The host recorded it for you."),
    "sverige": (("sv", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"'), swedish_hands,
                "Du röstade på spelare 7 (Grace).", "Du röstade på spelare 7 (Grace). Spelledaren registrerade din röst."),
    "hungariq": (("hu", '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"'), hungarian_support,
                 "Nem támogattad a vádat. Vádlott: 7 (Grace).",
                 "Támogattad a vádat. Vádlott: 7 (Grace). A szavazatodat a játékvezető rögzítette."),
    "grundregeln": (("de", '1 = "mafia", 2 = "mafia", 3 = "mafia"'), german_pointing,
                    "Du hast auf Spieler 7 (Grace) gezeigt.",
                    "Du hast auf Spieler 8 gezeigt. Der Spielleiter hat deine Stimme eingetragen."),
}


@pytest.mark.parametrize("variant", list(VOTES))
def test_a_vote_is_said_once_above_the_table_whoever_recorded_it(variant):
    need_browser()
    (lang, roles), to_vote, mine, by_host = VOTES[variant]

    async def main():
        async with Table(table(variant, lang, roles)) as t, launched() as browser:
            hub = t.companion.hub
            pages, _ = await seated(t, browser, (1, 2))
            await t.to_first_day()
            tapped, typed = await to_vote(t)
            page = pages[1]
            await page.locator(f'#grid button[data-choice="{tapped["target"]}"]').wait_for()
            # his own tap: the line above the table names it, the box under the ballot says nothing more
            assert await tap(page, tapped["target"]) == ""
            await expect(page.get_by_test_id("own")).to_have_text(mine)
            await expect(page.get_by_test_id("result")).to_be_hidden()
            assert (await page.evaluate("() => document.body.innerText")).count(mine.rstrip(".")) == 1
            old = hub.vote_words((7, None), True)  # "Your vote: 7 (Grace)", the answer that repeated it
            assert old not in await page.evaluate("() => document.body.innerText")
            await shot(page, f"{variant}-voted.png")
            # the scorer types seat 2's vote at the console: his phone marks it and says whose it was
            t.live.submit_event(typed["ev"])
            await expect(pages[2].get_by_test_id("own")).to_have_text(by_host)
            await pages[2].wait_for_function(f"() => !!document.querySelector('#grid button.chosen[data-choice=\"{typed['choice']}\"]')"
                                             " || document.querySelectorAll('#grid button').length === 0")
            await expect(pages[2].get_by_test_id("result")).to_be_hidden()
            await shot(pages[2], f"{variant}-voted-by-host.png")
            # a reload says it the same way: the line above, nothing under the ballot
            await page.reload()
            await expect(page.get_by_test_id("own")).to_have_text(mine)
            await expect(page.get_by_test_id("result")).to_be_hidden()
            if await page.locator("#grid button").count():
                assert await chosen(page) == [str(tapped["target"])]
            assert await page.evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]

    asyncio.run(main())


def test_game_over_shows_the_result_and_the_own_role_plainly_and_no_role_went_out_before():
    need_browser()

    async def main():
        async with Table(parse_config(CLASSIC_DEAL + '[players]\n4 = "Grace"\n')) as t, launched() as browser:
            hub = t.companion.hub
            pages, others = await seated(t, browser, (4, 1))
            await t.to_first_day()
            sheriff = pages[4]
            await expect(sheriff.get_by_test_id("reveal")).to_be_visible()
            # the referee gives the Don's team the defeat (seed 004 §5-7): the game is over
            t.live.submit_event(Defeat(1))
            await until(lambda: t.live.game.state == "over", what="the end")
            await sheriff.wait_for_function("() => document.body.dataset.state === 'over'")
            await expect(sheriff.get_by_test_id("outcome")).to_have_text("You won")
            await expect(sheriff.get_by_test_id("own-role")).to_have_text("Your role: Sheriff")
            await expect(sheriff.get_by_test_id("reveal")).to_be_hidden()  # no "Hold to see your role"
            await expect(sheriff.get_by_test_id("role")).to_be_hidden()
            await expect(pages[1].get_by_test_id("own-role")).to_have_text("Your role: Don")
            await expect(pages[1].get_by_test_id("outcome")).to_have_text("You lost")
            # the host reveals every role at the end (the narrator reads them): the list stands under it
            roles = await sheriff.locator("#roles li").all_inner_texts()
            assert roles[0] == "1: Don" and roles[3] == "4 (Grace): Sheriff" and len(roles) == 10
            assert await sheriff.evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]
            await shot(sheriff, "over-own-role-en.png")
            # before the end, not one frame to any phone carried another seat's role
            for seat, phone in others.items():
                over = False
                for _, frame, _ in phone.frames:
                    if frame["t"] == "screen" and frame["state"] == "over":
                        over = True
                    if over:
                        continue
                    if frame["t"] == "role":
                        assert frame["role"] in (None, t.live.game.role(seat)), (seat, frame)
                    if frame["t"] == "screen":
                        assert frame["roles"] is None and frame["role_names"] is None and frame["own_role"] is None, frame
                    text = json.dumps(frame, ensure_ascii=False)
                    for other in range(1, 11):
                        if other != seat and t.live.game.role(other) in ("don", "sheriff", "mafia"):
                            assert f'"{other}":"{t.live.game.role(other)}"' not in text.replace(" ", "")
                assert over, f"seat {seat} saw the end"

    asyncio.run(main())


def test_while_the_count_waits_for_the_scorer_every_phone_says_the_host_is_entering_the_votes():
    need_browser()

    async def main():
        config = parse_config(CLASSIC_DEAL.replace('"en"', '"ru"') + "[companion]\nvotes = false\n")
        async with Table(config) as t, launched() as browser:
            live, game = t.live, t.live.game
            live.scorer_at_console = True  # `narrator play` on a terminal: the count waits for its line
            console = Console(file=io.StringIO(), width=200, highlight=False)
            pages, _ = await seated(t, browser, (3, 9))
            await t.to_first_day()
            await t.to_classic_vote(7, 8)
            for page in pages.values():
                await expect(page.get_by_test_id("entering")).to_be_hidden()  # the call's own time runs
            live.fire()  # its time is over: the count waits for the scorer's line
            await until(live.hands_waiting, what="the count waiting")
            for page in pages.values():
                await expect(page.get_by_test_id("entering")).to_have_text("Ведущий вносит голоса.")
            assert await pages[3].evaluate("() => document.documentElement.scrollWidth") <= SMALL["width"]
            await shot(pages[3], "entering-votes-ru.png")
            assert hands_typed(live, "3 5", console)  # the scorer's line: the count goes on
            await until(lambda: game.calling == 1, what="8 called")
            for page in pages.values():
                await expect(page.get_by_test_id("entering")).to_be_hidden()

    asyncio.run(main())


def test_a_phone_that_loses_the_game_stops_its_clock_and_says_it_is_reconnecting():
    """The game's process is gone (kill -9): nothing answers the phone. Played with the page's
    socket cut and every new one refused until the game is back — what the phone meets when the
    narrator dies and is resumed."""
    need_browser()

    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t, launched() as browser:
            hub = t.companion.hub
            page = await (await browser.new_context(viewport=SMALL)).new_page()
            state = {"down": False, "open": []}

            async def route(ws):
                if state["down"]:
                    await ws.close(code=1011)
                    return
                server = ws.connect_to_server()
                ws.on_message(lambda m: server.send(m))
                server.on_message(lambda m: ws.send(m))
                state["open"].append(ws)

            await page.route_web_socket("**/ws", route)
            await page.goto(f"http://127.0.0.1:{t.companion.port}/#{hub.seat_tokens[5]}")
            await expect(page.locator("#seat")).to_have_text(hub.word("seat", seat=5))
            await t.to_first_day()
            await page.wait_for_function("() => Number(document.body.dataset.left || 0) > 0")
            await expect(page.get_by_test_id("down")).to_be_hidden()
            # the narrator dies: the socket goes, and no new one is answered
            state["down"] = True
            for ws in state["open"]:
                await ws.close(code=1011)
            state["open"].clear()
            await page.wait_for_function("() => document.body.dataset.lost === '1'")
            await expect(page.get_by_test_id("down")).to_have_text("No connection to the game — reconnecting…")
            await expect(page.get_by_test_id("timer")).to_be_hidden()
            assert await page.evaluate("() => document.body.dataset.left") == "0"  # nothing counts on
            await shot(page, "connection-lost-en.png")
            # resumed: the phone reconnects and shows the server's time
            state["down"] = False
            await page.wait_for_function("() => !document.body.dataset.lost", timeout=15_000)
            await expect(page.get_by_test_id("down")).to_be_hidden()
            await page.wait_for_function("() => Number(document.body.dataset.left || 0) > 0")
            await expect(page.get_by_test_id("timer")).to_be_visible()

    asyncio.run(main())
