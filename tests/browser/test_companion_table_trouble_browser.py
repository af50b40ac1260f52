"""A Swedish (seed 000) and a German (seed 003) table on ten 360×740 phones in headless Chromium,
played to the end with what a real table does to its phones:

- one phone joins late: the host starts without it, and it opens its seat on the first day —
  it gets its role (held down) and the day as it stands, like every other phone;
- at the first night step every phone taps twice on its button (a double tap) and two phones
  reload (an awake one and a sleeper): each comes back with its answer and its marked button,
  and every phone's screen is still the same shape;
- two phones lose their connection, tap, and the step closes before they are back: the tap goes
  out when they reconnect, is too late, changes nothing, and leaves no trace on the next screen —
  on the awake player's phone as on the sleeper's;
- a day vote tapped twice counts once, and survives a reload ("your vote is in", the button marked);
- a dead player's phone shows the day without buttons and "you are out", and at night the same
  screen as everybody's.

At every screen nothing is wider than the phone, no word is missing or English, and every night
screen is the same on every phone whoever is awake (tests/browser/table_game.py).
Screenshots go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from chromium import expect, launched, need_browser
from table_game import NAMES, SMALL_PHONE, TableGame, named_table

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None
LATE = 6  # the phone that joins on the first day

TABLES = {
    "sverige": ("sv", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"'),
    "grundregeln": ("de", '1 = "mafia", 2 = "mafia", 3 = "mafia"'),
}


def config(variant: str):
    return named_table(variant, *TABLES[variant])


# how many taps this page (since it was loaded) has sent, and how many answers it has had
SENT_JS = "() => Number(document.body.dataset.sent || 0)"


class TroubleGame(TableGame):
    """A TableGame whose phones are handled as a table handles them."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.late_page = None
        self.done: set[str] = set()
        self.voted_twice: int | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.t.companion.port}"

    async def join(self) -> None:
        hub = self.hub
        for s in range(1, self.config.seats + 1):
            page = await (await self.browser.new_context(viewport=SMALL_PHONE)).new_page()
            if s == LATE:
                self.late_page = page  # opened on the first day
            else:
                self.pages[s] = page
        await asyncio.gather(*(p.goto(f"{self.base}/#{hub.seat_tokens[s]}") for s, p in self.pages.items()))
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.state === 'setup'", timeout=10_000)
                               for p in self.pages.values()))

    async def play(self, limit: int = 400):
        t, hub = self.t, self.hub
        dealing = asyncio.create_task(t.companion.deal_when_ready([t.live.session.dealing_event()]))
        await self.synced()
        assert not hub.table_ready.is_set(), "nine phones of ten are in"
        await asyncio.gather(*(p.locator('#grid button[data-choice="ready"]').wait_for() for p in self.pages.values()))
        await self.look("dealt", seats=(1,))
        for p in self.pages.values():
            await p.locator('#grid button[data-choice="ready"]').click()
        await self.synced()
        assert not dealing.done(), "nine of ten are ready: night zero waits for the host"
        hub.start()  # the host does not wait for the tenth player: Start
        await asyncio.wait_for(dealing, 10)
        acted: set[tuple] = set()
        for _ in range(limit):
            g = self.game
            if g.state == "over":
                break
            await self.synced()
            key = (g.state, g.day, g.night_no, g.step.name if g.step else None, hub.epoch)
            if g.state == "night":
                if key not in acted and "night" not in self.done and g.step and g.step.action and await self.buttons(1):
                    await self.night_trouble()
                    acted.add(key)
                    continue
                await self.night_step(key in acted)
            else:
                if key not in acted and await self.day_trouble():
                    acted.add(key)
                    continue
                await self.day_step(key in acted)
            acted.add(key)
        else:
            raise AssertionError(f"the game did not end; it is in {self.game.state}")
        await self.synced()
        await self.look("over", seats=(1, LATE))
        return self.found

    # ------------------------------------------------------------------ the night
    async def night_trouble(self) -> None:
        """Double taps, reloads, and taps that reach the server after their step closed."""
        g, t = self.game, self.t
        self.done.add("night")
        step = g.step.name
        await self.look("before taps", seats=(1,))
        awake = set(g.awake_seats())
        actor = min(awake)
        # a living sleeper: the dead are told plainly that they are out (their being out is public)
        sleeper = next(s for s in self.pages if s not in awake and s in g.alive)
        choices = await self.buttons(1)
        taps = {s: self.night_choice(g.step, s, choices) if s in awake else choices[(s * 3) % len(choices)]
                for s in self.pages}
        before = len(t.records)
        # a double tap on every phone: two taps, two answers, one choice that stands
        await asyncio.gather(*(self.double_tap(s, c) for s, c in taps.items()))
        await t.settle()
        taken = [r["event"] for r in t.records[before:] if r.get("type") == "input" and r["event"].get("type") == "tap"]
        assert {e["seat"] for e in taken} <= awake, "a sleeper's tap never reaches the game"
        await self.look("double tap", seats=(sleeper, actor), tapped=True)
        answers = {s: await self.pages[s].locator("#result").inner_text() for s in (actor, sleeper)}
        if g.step.action in ("shoot", "kill_alone", "protect", "block", "mafia_vote"):
            # a choice: the sleeper's cover tap reads as the actor's does, never a shorter line
            voice = t.live.voice
            for s in (actor, sleeper):
                target = int(taps[s])
                assert answers[s] == self.hub.named("choice_taken", {"seat": target}, voice.render("choice_taken", {"seat": target})), answers
        # a reload of the awake player's phone and of a sleeper's: each gets back its answer and its
        # marked button, and nothing tells the two apart but the words in the answer box
        for s in (actor, sleeper):
            await self.pages[s].reload()
        await self.synced()
        for s in (actor, sleeper):
            await expect(self.pages[s].locator("#result")).to_have_text(answers[s])
            await expect(self.pages[s].locator(f'#grid button[data-choice="{taps[s]}"]')).to_have_class("chosen")
        await self.look("reloaded", seats=(sleeper, actor), tapped=True)
        # both lose the Wi-Fi, tap another seat, and the step ends before they are back
        other = {s: next(c for c in choices if c != taps[s]) for s in (actor, sleeper)}
        acks = {s: int(await self.pages[s].evaluate("() => document.body.dataset.acks || 0")) for s in (actor, sleeper)}
        for s in (actor, sleeper):
            await self.pages[s].context.set_offline(True)
        await asyncio.sleep(0.3)
        before = len(t.records)
        refused = len(self.hub.refused)
        for s in (actor, sleeper):
            await self.pages[s].locator(f'#grid button[data-choice="{other[s]}"]').click()
        t.live.fire()
        await t.settle()
        assert g.step is None or g.step.name != step, "the step closed"
        for s in (actor, sleeper):
            await self.pages[s].context.set_offline(False)
        await asyncio.sleep(0.2)
        for s in (actor, sleeper):
            await self.pages[s].evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        await self.synced()
        for s in (actor, sleeper):
            # the tap went out on the reconnect and was answered (too late), for a screen that is gone
            await self.pages[s].wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks[s]}", timeout=10_000)
        await t.settle()
        assert sorted(self.hub.refused[refused:]) == sorted([("stale", actor), ("stale", sleeper)]), self.hub.refused[refused:]
        late = [r for r in t.records[before:] if r.get("type") in ("input", "rejected") and r.get("event", {}).get("type") == "tap"]
        assert late == [], f"a tap from a closed step reached the game: {late}"
        for s in (actor, sleeper):
            page = self.pages[s]
            # the late tap's "too late" belongs to the step that is gone: nothing of it is left
            await expect(page.locator("#result")).to_have_text("")
            assert await page.locator("#grid button.chosen, #grid button.pending").count() == 0
        await self.look("late tap", seats=(actor, sleeper))
        if g.state == "night" and g.step is not None and await self.buttons(1):
            await self.night_step(False)  # the table goes on with the next step
        else:
            t.live.fire()

    async def double_tap(self, seat: int, choice: str) -> None:
        page = self.pages[seat]
        acks = int(await page.evaluate("() => document.body.dataset.acks || 0"))
        sent = await page.evaluate(SENT_JS)
        await page.locator(f'#grid button[data-choice="{choice}"]').dblclick()
        # the second click is sent, or not, by when the first one's answer came (a vote taken asks
        # nothing more): the page has its answers once every tap it sent is answered
        await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) - {acks} >= Math.max(1, ({SENT_JS})() - {sent})",
                                     timeout=10_000)

    # ------------------------------------------------------------------ the day
    async def day_trouble(self) -> bool:
        g, hub = self.game, self.hub
        if "late" not in self.done:
            self.done.add("late")
            await self.late_join()
            return True
        dead = [s for s in self.pages if s not in g.alive]
        if dead and "dead" not in self.done and g.state not in ("over", "last_words"):
            self.done.add("dead")
            page = self.pages[dead[0]]
            await expect(page.get_by_test_id("own")).to_have_text(hub.word("you_out"))
            assert await page.locator("#grid button").count() == 0
            await self.shot(dead[0], "dead-phone")
        if g.awaiting()[0] == "awaiting_votes" and "vote" not in self.done:
            kind, candidates = g.vote_choices()
            voters = [s for s in g.awaiting()[1].get("seats", g.alive) if s in self.pages and s in g.alive]
            target = self.target()
            pick = str(target) if target in candidates else str(candidates[0]) if kind == "seat" else "yes"
            voter = next((s for s in voters if not self.evil(s) and str(s) != pick), None)
            if voter is None or pick not in await self.buttons(voter):
                return False
            self.done.add("vote")
            before = len(self.t.records)
            await self.double_tap(voter, pick)
            await self.t.settle()
            votes = [r for r in self.t.records[before:] if r.get("type") == "input" and r["event"].get("seat") == voter]
            assert len(votes) == 1, f"a double tap voted {len(votes)} times"
            # the vote is said once, in the line above the table; the box under the ballot stays empty
            taken = self.hub.vote_given(voter)
            assert taken
            page = self.pages[voter]
            await expect(page.get_by_test_id("own")).to_have_text(taken)
            await expect(page.locator("#result")).to_have_text("")
            await page.reload()
            await expect(page.get_by_test_id("own")).to_have_text(taken)
            await expect(page.locator("#result")).to_have_text("")
            await expect(page.locator(f'#grid button[data-choice="{pick}"]')).to_have_class("chosen")
            await self.shot(voter, "voted-twice-reloaded")
            self.voted_twice = voter
            return False  # the others vote as ever (his tap again is answered as the first)
        return False

    async def late_join(self) -> None:
        """The tenth player sits down on the first day and opens his seat's link."""
        page, hub = self.late_page, self.hub
        await page.goto(f"{self.base}/#{hub.seat_tokens[LATE]}")
        await page.wait_for_function(f"() => Number(document.body.dataset.epoch) >= {hub.epoch}", timeout=10_000)
        self.pages[LATE] = page
        # his role, held down, as everybody got it at the deal
        await page.get_by_test_id("reveal").dispatch_event("pointerdown")
        role = hub.role_frame(LATE)
        await expect(page.get_by_test_id("role")).to_contain_text(role["you_are"])
        await page.get_by_test_id("reveal").dispatch_event("pointerup")
        await expect(page.get_by_test_id("role")).to_have_text("")
        # and the day as it stands: the same phase line and table as a phone that was there all along
        await expect(page.locator("#phase-text")).to_have_text(await self.pages[1].locator("#phase-text").inner_text())
        await expect(page.locator("#table > span")).to_have_count(self.config.seats)
        await self.look("late join", seats=(LATE,))


@pytest.mark.parametrize("variant", list(TABLES))
def test_a_table_that_reloads_joins_late_double_taps_and_taps_too_late(variant):
    need_browser()

    async def main():
        async with launched() as browser:
            async with TroubleGame(config(variant), browser, shots=SHOTS and SHOTS / f"trouble-{variant}", names=NAMES) as g:
                await g.join()
                found = await g.play()
                assert g.game.state == "over"
                assert found.problems == [], "\n".join(found.problems)
                assert {"late", "night", "vote", "dead"} <= g.done, g.done
                assert g.voted_twice is not None
                assert found.night_screens >= 3

    asyncio.run(main())
