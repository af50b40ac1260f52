"""A Swedish table where a player has no phone: the host nominates for him on the host screen
(Chromium at 360×740, the referee's phone), naming the nominator, in a whole game on ten phones.

Seed 000 Nominering: «Varje enskild spelare får ha endast en nominerad i taget och endast den som
nominerade en viss person får avnominera samma person» — a nomination is its nominator's. The
screen asks «Nominerad av» beside the seat while nominations are taken (the discussion, the last
call), «Nominera» and «Avnominera» do what the rules do with a spoken one, a button pressed with
a field left empty is answered on the host's screen alone, and once the speeches begin neither
button nor field is there.

Screenshots go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from chromium import expect, launched, need_browser
from narrator.companion.testing import until
from table_game import NAMES, TableGame, named_table

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None
SMALL_PHONE = {"width": 360, "height": 740}
ROLES = '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"'


class SwedishHost(TableGame):
    host = None
    done = False

    async def open_host(self) -> None:
        self.host = await (await self.browser.new_context(viewport=SMALL_PHONE)).new_page()
        await self.host.goto(self.t.host_link)

    async def press(self, act: str, seat: int | None = None, by: int | None = None) -> None:
        await self.host.get_by_test_id("seat").fill("" if seat is None else str(seat))
        await self.host.get_by_test_id("by").fill("" if by is None else str(by))
        await self.host.get_by_test_id(act).click()
        await self.t.settle()

    async def host_shot(self, name: str) -> None:
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
            await self.host.screenshot(path=str(self.shots / f"host-{name}.png"), full_page=True)

    async def __aexit__(self, *exc):
        if self.host is not None:
            await self.host.context.close()
        await super().__aexit__(*exc)


def test_a_swedish_host_nominates_and_withdraws_for_a_player_without_a_phone():
    need_browser()

    async def on_day(g: SwedishHost, key) -> bool:
        game, hub, host = g.game, g.hub, g.host
        if g.done or game.state != "discussion" or game.day != 1:
            if game.state == "nominee_speeches":
                # the speeches: nominations are closed, and the screen has no field or button for them
                await expect(host.get_by_test_id("nominate")).to_be_hidden()
                await expect(host.get_by_test_id("revoke")).to_be_hidden()
                await expect(host.get_by_test_id("by")).to_be_hidden()
            return False
        g.done = True
        await expect(host.get_by_test_id("nominate")).to_have_text("Nominera")
        await expect(host.get_by_test_id("by")).to_be_visible()
        await expect(host.locator("#by-field")).to_contain_text("Nominerad av")
        await expect(host.get_by_test_id("revoke")).to_be_hidden()  # nobody has a nominee yet
        target = g.target()  # the town's suspect, so the game goes on as the table plays it
        good = [s for s in sorted(game.alive) if not g.evil(s)]
        # the nominator forgotten: said on this screen, the table hears and sees nothing of it
        caption = await g.pages[5].locator("#caption").inner_text()
        await g.press("nominate", seat=target)
        await expect(host.get_by_test_id("refused")).to_have_text(
            "Skriv platsen för den som nominerar under ”Nominerad av” och tryck sedan på ”Nominera” igen.")
        await g.host_shot("need-nominator")
        assert game.noms == {} and await g.pages[5].locator("#caption").inner_text() == caption
        await g.press("nominate", by=good[0])
        await expect(host.get_by_test_id("refused")).to_have_text(
            "Skriv först platsnumret under ”Plats” och tryck sedan på ”Nominera” igen.")
        # the nomination: on every phone and on the host's own row, with the nominee's name
        await g.press("nominate", seat=target, by=good[0])
        await until(lambda: game.noms == {good[0]: target}, what="the nomination")
        label = f"{target} ({NAMES[target]})" if target in NAMES else str(target)
        await expect(host.get_by_test_id("nominations")).to_have_text(label)
        await expect(host.get_by_test_id("refused")).to_have_text("")
        await g.synced()
        for page in g.pages.values():
            await expect(page.locator("#day-info")).to_contain_text(label)
        # a second nominee for the same nominator: the rules say no, as to a voice
        await g.press("nominate", seat=good[-1], by=good[0])
        await until(lambda: g.t.recorded("rejected", "reason")[-1:] == [("reject_active_nominee",)], what="the refusal")
        assert game.noms == {good[0]: target}
        # Avnominera: the nominator's own, nobody else's
        await expect(host.get_by_test_id("revoke")).to_have_text("Avnominera")
        await g.press("revoke")
        await expect(host.get_by_test_id("refused")).to_have_text(
            "Skriv platsen för den som nominerade under ”Nominerad av” och tryck sedan på ”Avnominera” igen.")
        await g.press("revoke", by=good[1])   # he has nominated nobody: nothing of his to withdraw
        await until(lambda: g.t.recorded("rejected", "reason")[-1:] == [("reject_nothing_to_withdraw",)], what="the refusal")
        await g.press("nominate", seat=good[-1], by=good[1])
        await until(lambda: len(game.noms) == 2, what="the second nomination")
        await g.host_shot("two-nominees")
        await g.press("revoke", by=good[1])
        await until(lambda: game.noms == {good[0]: target}, what="the withdrawal")
        await expect(host.get_by_test_id("nominations")).to_have_text(label)
        await g.shot(5, "host-nominated")
        return True

    async def main():
        async with launched() as browser:
            cfg = named_table("sverige", "sv", ROLES)
            async with SwedishHost(cfg, browser, shots=SHOTS and SHOTS / "host-sverige", names=NAMES) as g:
                await g.join()
                await g.open_host()
                found = await g.play(on_day=on_day)
                assert g.done and g.game.state == "over"
                assert found.problems == [], "\n".join(found.problems)
                # the host's nominee was heard, then voted on by hand (seed 000 Röstning)
                nominated = g.t.records
                first = next(e for e in nominated if e.get("type") == "nomination")
                assert first["seat"] == 2 and any(e.get("type") == "vote_open" and 2 in e["candidates"] for e in nominated)

    asyncio.run(main())
