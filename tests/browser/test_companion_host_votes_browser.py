"""A table where seat 10 has no phone (a dead battery): the host records his answers on the host
screen, played whole in Chromium at 360×740 — nine phones and the host's screen.

- Wherever the game takes a tap from seat 10 now, the host screen shows a row for him in the
  host's own words («Голос игрока 10 (…):», «10. játékos (…) szavazata:») with his ballot's
  buttons, and one press records it as the console's `tap 10 …` would: the tally has it, "Waiting
  for" loses him, the row goes.
- Never at night: the host screen has no such row in any night step (a night tap from the host
  screen would show the host who is awake), nor where nobody votes.
- classic-ru (seed 004 §4.6-4.8): a vote that ties 5–5, the tied players' speeches, a revote that
  ties again, and the question whether both leave (yes/no) — seat 10's vote and answer each time
  from the host screen.
- hungariq-hu (seed 001): an accusation, its support vote and its execution vote, seat 10's
  «igen»/«nem» from the host screen.

Screenshots go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
from pathlib import Path

from chromium import expect, launched, need_browser
from narrator.companion.testing import until
from table_game import NAMES, SMALL_PHONE, TableGame, named_table

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None
NO_PHONE = 10


class NoPhoneTable(TableGame):
    """Nine phones; seat 10's player has none, and the host answers for him."""

    host = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.host_votes: list[tuple[str, int, str]] = []  # (state, day, choice) recorded on the host screen
        self.rows_at_night = 0
        self.starter = None
        self.tie_votes = 0

    async def join(self) -> None:
        hub = self.hub
        base = f"http://127.0.0.1:{self.t.companion.port}"
        for s in range(1, NO_PHONE):
            self.pages[s] = await (await self.browser.new_context(viewport=SMALL_PHONE)).new_page()
        await asyncio.gather(*(self.pages[s].goto(f"{base}/#{hub.seat_tokens[s]}") for s in self.pages))
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.state === 'setup'", timeout=10_000)
                               for p in self.pages.values()))
        self.host = await (await self.browser.new_context(viewport=SMALL_PHONE)).new_page()
        await self.host.goto(self.t.host_link)
        await expect(self.host.get_by_test_id("state")).not_to_be_empty()
        # seat 10 never says Ready: the host starts night zero once the nine phones have
        self.starter = asyncio.create_task(self._start_when_nine_ready())

    async def _start_when_nine_ready(self) -> None:
        await until(lambda: len(self.hub.ready) == NO_PHONE - 1, timeout=30, what="nine phones ready")
        await self.host.get_by_test_id("start").click()

    async def host_shot(self, name: str) -> None:
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
            await self.host.screenshot(path=str(self.shots / f"host-{self._shot_no:03d}-{name}.png"), full_page=True)

    async def night_step(self, done: bool) -> None:
        # the host screen at night: no row, whatever step (its timing would tell who is awake)
        await self.host.wait_for_function("() => true")
        if await self.host.get_by_test_id("proxy").locator(".proxy-row").count():
            self.rows_at_night += 1
        await super().night_step(done)

    def victim(self) -> int:
        """The mafia spares seat 10 while they can: his votes are what the table tries."""
        good = [s for s in self.game.alive if not self.evil(s) and s != NO_PHONE]
        return max(good) if good else super().victim()

    def called(self) -> list[int]:
        g = self.game
        return list(g.awaiting()[1].get("seats", [])) if g.awaiting()[0] == "awaiting_votes" else []

    async def record_for_ten(self, choice: str, words: str) -> None:
        """Seat 10's answer, pressed on the host screen under his row."""
        g, host = self.game, self.host
        row = host.get_by_test_id(f"proxy-{NO_PHONE}")
        await expect(row).to_be_visible()
        await expect(row.locator("p")).to_have_text(words)
        await self.host_shot(f"{g.state}-d{g.day}-before")
        # no wider than the screen, the buttons inside it
        wide = await host.evaluate("() => document.documentElement.scrollWidth > document.documentElement.clientWidth")
        assert not wide, f"the host screen scrolls sideways in {g.state}"
        if g.state == "pointing":
            # seed 003: «zeigt … auf einen Mitspieler» — his own seat keeps its place, greyed
            await expect(row.locator(f'button[data-choice="{NO_PHONE}"]')).to_be_disabled()
        state, day = g.state, g.day
        await row.locator(f'button[data-choice="{choice}"]').click()
        await until(lambda: NO_PHONE not in self.called() or g.state != state, what="seat 10's answer")
        await self.t.settle()
        self.host_votes.append((state, day, choice))
        if g.state == state and g.awaiting()[0] == "awaiting_votes":
            # still voting: his row is gone, "Waiting for" no longer lists him
            await expect(row).to_have_count(0)
            await expect(host.locator(f'#awaiting .voter[data-seat="{NO_PHONE}"]')).to_have_count(0)

    async def vote(self, kind: str, candidates: list[int], voters: list[int]) -> None:
        if NO_PHONE in self.called():
            g = self.game
            if g.state == "hand_vote" and candidates != [self.target()]:
                return await super().vote(kind, candidates, voters)  # seed 000: his hand stays down
            if kind == "yes_no":
                choice = "yes" if not self.evil(NO_PHONE) or g.state == "all_leave_vote" else "no"
            else:
                target = self.target()
                choice = str(target if target in candidates and target != NO_PHONE else candidates[0])
            await self.record_for_ten(choice, self.words_for_ten())
            if g.state == "over" or g.awaiting()[0] != "awaiting_votes":
                return
            voters = [s for s in self.called() if s in self.pages]
        await super().vote(kind, candidates, voters)

    def words_for_ten(self) -> str:
        name = self.names.get(NO_PHONE)
        key = {"pointing": "host_point_for", "hand_vote": "host_hand_for"}.get(self.game.state, "host_vote_for")
        text = self.hub.word(key, seat=NO_PHONE)
        if not name:
            return text
        return text.replace(f"{NO_PHONE}. játékos", f"{NO_PHONE}. játékos ({name})", 1) if self.config.language == "hu" \
            else text.replace(str(NO_PHONE), f"{NO_PHONE} ({name})", 1)

    async def __aexit__(self, *exc):
        if self.starter is not None:
            self.starter.cancel()
        if self.host is not None:
            await self.host.context.close()
        await super().__aexit__(*exc)


def test_classic_ru_seat_ten_without_a_phone_votes_through_a_tie_on_the_host_screen():
    need_browser()
    names = NAMES | {NO_PHONE: "Дмитрий Константинопольский"}

    async def on_day(g: NoPhoneTable, key) -> bool:
        """Day 1's vote ties 5–5, the revote too, and the table is asked whether both leave."""
        game = g.game
        if game.day != 1 or game.state not in ("voting", "revote", "all_leave_vote") or game.awaiting()[0] != "awaiting_votes":
            return False
        if NO_PHONE not in g.called():
            return False
        if game.state == "all_leave_vote":
            await g.record_for_ten("yes", "Голос игрока 10 (Дмитрий Константинопольский):")
            await expect(g.host.get_by_test_id(f"proxy-{NO_PHONE}")).to_have_count(0)
            await g.host_shot("all-leave-answered")
            await asyncio.gather(*(g.tap(s, "yes") for s in g.called() if s in g.pages))
            return True
        first, second = game.vote_choices()[1][:2]
        voters = sorted(g.called())
        half = {s: (first if i < len(voters) // 2 else second) for i, s in enumerate(voters)}
        # his row: his ballot's candidates, each with its player's name; the seat 3's phone folded away
        row = g.host.get_by_test_id(f"proxy-{NO_PHONE}")
        await expect(row.locator("button")).to_have_count(2)
        await expect(g.host.get_by_test_id("proxy-connected")).to_contain_text("Телефоны на связи")
        await g.record_for_ten(str(half[NO_PHONE]), "Голос игрока 10 (Дмитрий Константинопольский):")
        g.tie_votes += 1
        frozen = 9
        if g.tie_votes == 1:
            # seat 9's phone froze: the host opens the connected phones, confirms, and records his
            # vote; his phone shows it as his own vote that stands
            await g.host.get_by_test_id("proxy-connected").click()
            # opened, a chip a seat; a tap on seat 9's chip opens his ballot alone
            await expect(g.host.locator("#proxy details .proxy-row")).to_have_count(0)
            await g.host.get_by_test_id(f"proxy-chip-{frozen}").click()
            frozen_row = g.host.get_by_test_id(f"proxy-{frozen}")
            await expect(frozen_row).to_be_visible()
            await g.host_shot("connected-open")
            asked: list[str] = []

            async def accept(dialog):
                asked.append(dialog.message)
                await dialog.accept()

            g.host.once("dialog", lambda d: asyncio.ensure_future(accept(d)))
            await frozen_row.locator(f'button[data-choice="{half[frozen]}"]').click()
            await until(lambda: frozen not in g.called(), what="seat 9's vote from the host screen")
            assert asked == ["Телефон игрока 9 на связи. Всё равно записать за него? Только если телефон завис."]
            await expect(g.pages[frozen].locator(f'#grid button[data-choice="{half[frozen]}"]')).to_have_class(re.compile(r"\bchosen\b"))
            # his phone says it once, above the table, and who recorded it: «Вы проголосовали за
            # игрока 4. Ваш голос записал ведущий.»
            await expect(g.pages[frozen].get_by_test_id("own")).to_have_text(
                g.hub.word("voted_for", seat=g.hub.seat_label(half[frozen])) + " " + g.hub.word("voted_by_host"))
            await expect(g.pages[frozen].locator("#result")).to_have_text("")
            await g.shot(frozen, "vote-recorded-by-host")
            await g.host_shot("connected-recorded")
        await asyncio.gather(*(g.tap(s, str(c)) for s, c in half.items() if s in g.pages and s in g.called()))
        await g.t.settle()
        return True

    async def main():
        async with launched() as browser:
            cfg = named_table("classic", "ru", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"', names)
            # both nominees on seat 10's row at once (vote_call = "together"), half the table for each
            cfg = dataclasses.replace(cfg, rules={**cfg.rules, "vote_call": "together"})
            async with NoPhoneTable(cfg, browser, shots=SHOTS and SHOTS / "host-votes-classic-ru", names=names) as g:
                await g.join()
                found = await g.play(on_day=on_day)
                assert found.problems == [], "\n".join(found.problems)
                assert g.rows_at_night == 0
                states = [s for s, d, _ in g.host_votes if d == 1]
                # seed 004 §4.7-4.8: the tie, the revote's tie, then the question — seat 10 in each
                assert states[:3] == ["voting", "revote", "all_leave_vote"], g.host_votes
                ties = [e for e in g.t.records if e.get("type") == "tie"] or [
                    e for e in g.t.records if e.get("type") == "vote_result" and e.get("tie")]
                taps = [e["event"] for e in g.t.records if e.get("type") == "input"
                        and e["event"].get("type") == "tap" and e["event"].get("seat") == NO_PHONE]
                assert len(taps) >= 3

    asyncio.run(main())


def test_hungariq_hu_seat_ten_without_a_phone_supports_and_executes_on_the_host_screen():
    need_browser()
    names = NAMES | {NO_PHONE: "Szőke-Kovácsné Erzsébet"}

    async def main():
        async with launched() as browser:
            cfg = named_table("hungariq", "hu", '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"', names)
            async with NoPhoneTable(cfg, browser, shots=SHOTS and SHOTS / "host-votes-hungariq-hu", names=names) as g:
                await g.join()
                found = await g.play()
                assert found.problems == [], "\n".join(found.problems)
                assert g.rows_at_night == 0
                states = {s for s, _, _ in g.host_votes}
                assert {"support_vote", "execution_vote"} <= states, g.host_votes

    asyncio.run(main())


def test_grundregeln_and_sverige_seat_ten_without_a_phone_points_and_raises_a_hand_on_the_host_screen():
    """seed 003: he points at a fellow player, never at himself (his own button greyed in his
    row); seed 000: his hand goes up for the name being called."""
    need_browser()

    async def main():
        async with launched() as browser:
            for variant, lang, roles, states in (
                ("grundregeln", "de", '1 = "mafia", 2 = "mafia", 3 = "mafia"', {"pointing"}),
                ("sverige", "sv", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"', {"hand_vote"}),
            ):
                cfg = named_table(variant, lang, roles)
                async with NoPhoneTable(cfg, browser, shots=SHOTS and SHOTS / f"host-votes-{variant}-{lang}", names=NAMES) as g:
                    await g.join()
                    found = await g.play()
                    assert found.problems == [], "\n".join(found.problems)
                    assert g.rows_at_night == 0
                    assert states <= {s for s, _, _ in g.host_votes}, g.host_votes

    asyncio.run(main())
