"""The host screen offers what the table's rules have, in the table's words, on Chromium at a
laptop's size and at 360×740 (a phone held by the referee). One whole game a rule system, and
classic in two more languages: each screen of it is looked at for what
test_companion_host_words_browser.py's HostedGame checks (the state line in the table's words,
no core name, no label spilling its column) and for what the rules offer the host.

- "Waiting for" says what the host can do on this screen (its End speech button) or nothing more:
  never the console's commands (`timeout`, «спасибо», «oder timeout»), which nobody can type here.
- The buttons are the ones the server says the rules take now, and in the whole game they are
  what the rules have: grundregeln (seed 003) has no nominating and no fouls, hungariq (seed 001)
  accuses but withdraws nothing, sverige (seed 000) nominates and withdraws naming the nominator
  (the screen asks "Nominerad av"), classic (seed 004 §5-7) adds the referee's fouls and
  penalties. The Fouls row stands only where there are fouls.
- hungariq says «Vád alatt» on the host's row as on the phones (seed 001 «a vádlott»), and its
  button accuses («Vádemelés»), never «Jelölés».

Screenshots go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest

from chromium import launched, need_browser
from narrator.language import load_voice
from test_companion_host_words_browser import GAMES, HostedGame, config

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None
LAPTOP = {"width": 1280, "height": 800}

# what each seed gives the host to press in a game, besides pause, resume and End speech
CONTROLS = {
    "classic": {"nominate", "revoke", "foul", "disqualify", "defeat", "leave"},  # seed 004 §5-7
    # seed 000: a nomination (and its withdrawal) names its nominator; the time extension (Tid) is
    # asked aloud by a player without a phone, and pressed for him
    "sverige": {"nominate", "revoke", "extend"},
    "hungariq": {"nominate"},  # seed 001: «Vádat emelek XY ellen»
    "grundregeln": set(),  # seed 003: everyone points at a suspect; nobody nominates, no fouls
}
SEAT_BUTTONS = ("nominate", "revoke", "foul", "disqualify", "defeat", "leave")
# the console's words for ending a speech and the clock, in every language
CONSOLE = re.compile(r"\b(?:timeout|thank you|спасибо|danke|tack|köszönöm)\b", re.I)

SHOWN_JS = """() => {
  const vis = el => el && !el.hidden && el.getBoundingClientRect().width > 0 && !el.closest("[hidden]");
  const buttons = {};
  for (const b of document.querySelectorAll("button[data-act]")) buttons[b.dataset.act] = vis(b) ? b.innerText : null;
  return {buttons, fouls: vis(document.getElementById("fouls-row")), by: vis(document.getElementById("by-field")),
          awaiting: document.getElementById("awaiting").innerText,
          label: document.querySelector("#nominations").previousElementSibling.innerText};
}"""


class ControlledHost(HostedGame):
    """The host screen at a phone's size (HostedGame's) and at a laptop's, looked at with every screen."""

    laptop = None

    async def open_host(self) -> None:
        await super().open_host()
        self.laptop = await (await self.browser.new_context(viewport=LAPTOP)).new_page()
        await self.laptop.goto(self.t.host_link)
        self.awaited: set[str] = set()
        self.offered: set[str] = set()

    async def look(self, tag: str, seats=(), tapped: bool = False) -> None:
        await super().look(tag, seats, tapped)
        frame, variant = self.hub.host_frame(), self.config.variant.name
        where = f"{self.game.state}/{self.game.step.name if self.game.step else '-'} ({tag})"
        want = CONTROLS[variant]
        # while the phones say Ready the host is waiting for them, or for his own Start button
        awaiting = self.hub.word("host_waiting_ready") if frame["ready"] is not None else frame["awaiting"]
        now = set(frame["controls"]) - {"pause", "resume", "end_speech", "reissue"}
        assert now <= want, frame["controls"]
        self.offered |= now
        voters = frame["awaiting_votes"]
        for name, page in (("phone", self.host), ("laptop", self.laptop)):
            try:
                if voters is not None:
                    # the voters as compact chips, each seat's number first, in the line's own words
                    seats = [str(s) for s, _ in voters["seats"]]
                    await page.wait_for_function(
                        "v => Array.from(document.querySelectorAll('#awaiting .voter b')).map(b => b.innerText).join() === v",
                        arg=",".join(seats), timeout=5_000)
                    if voters["head"].strip() not in await page.locator("#awaiting").inner_text():
                        raise AssertionError(voters["head"])
                else:
                    await page.wait_for_function("t => document.getElementById('awaiting').innerText === t",
                                                 arg=awaiting, timeout=5_000)
            except Exception:
                self.found.add(f"{where}: the {name} host screen waits for something else than {awaiting!r}")
            shown = await page.evaluate(SHOWN_JS)
            if CONSOLE.search(shown["awaiting"]):
                self.found.add(f"{where}: the host screen's Waiting for names a console command: {shown['awaiting']!r}")
            self.awaited.add(shown["awaiting"])
            if shown["fouls"] != (variant == "classic"):
                self.found.add(f"{where}: the Fouls row is {'shown' if shown['fouls'] else 'missing'} on {variant}")
            visible = {a for a in (*SEAT_BUTTONS, "extend") if shown["buttons"][a] is not None}
            if visible - want:
                self.found.add(f"{where}: {variant}'s host screen offers {sorted(visible - want)}, which its rules do not have")
            if shown["buttons"]["end_speech"] is not None:
                # End speech while somebody holds the floor; where nobody does, it ends the discussion
                key = "host_end_speech" if self.game.floor is not None else "host_end_discussion"
                if shown["buttons"]["end_speech"] != self.hub.word(key):
                    self.found.add(f"{where}: the end button reads {shown['buttons']['end_speech']!r}, not {self.hub.word(key)!r}")
                self.offered.add(key)
            if shown["by"] != (variant == "sverige" and bool(visible & {"nominate", "revoke"})):
                self.found.add(f"{where}: the nominator's field is {'shown' if shown['by'] else 'missing'} beside {sorted(visible)}")
            if visible != now:
                self.found.add(f"{where}: {variant}'s host screen shows {sorted(visible)}, the server offers {sorted(now)}")
            if variant == "hungariq":
                words = load_voice("hu").phone
                if shown["label"] != words["host_accused"] or not words["day_accused"].startswith(words["host_accused"]):
                    self.found.add(f"{where}: the host's row reads {shown['label']!r}, the phones say «Vád alatt»")
                if shown["buttons"]["nominate"] not in (None, "Vádemelés"):
                    self.found.add(f"{where}: the host's accusing button reads {shown['buttons']['nominate']!r}")
            if self.shots is not None and tag in ("day", "step", "over"):
                self.shots.mkdir(parents=True, exist_ok=True)
                self._shot_no += 1
                await page.screenshot(path=str(self.shots / f"host-{name}-{self._shot_no:03d}-{self.game.state}-{tag}.png"),
                                      full_page=True)

    async def __aexit__(self, *exc):
        if self.laptop is not None:
            await self.laptop.context.close()
        await super().__aexit__(*exc)


@pytest.mark.parametrize("variant,lang", GAMES)
def test_the_host_screen_speaks_the_tables_language_in_every_state_and_offers_what_the_rules_have(variant, lang):
    need_browser()

    async def main():
        async with launched() as browser:
            async with ControlledHost(config(variant, lang), browser,
                                      shots=SHOTS and SHOTS / f"controls-{variant}-{lang}") as g:
                await g.join()
                await g.open_host()
                found = await g.play()
                assert g.game.state == "over"
                assert found.problems == [], "\n".join(found.problems)
                # the game went through its night, its day and its end on the host screen, whose
                # state line never carries the core's own name of the state beside it
                assert len(g.host_lines) >= 6, g.host_lines
                assert await g.host.locator("#state-id").count() == 0
                # a speech and a vote were waited for, each in the host's own words
                voice = load_voice(lang).phone
                speech = voice["host_awaiting_speech"].split("{seat}")[-1].strip()
                assert any(speech in a for a in g.awaited), g.awaited
                # over the game, what the rules have was offered (a withdrawal only after a nomination)
                assert g.offered >= CONTROLS[variant] - {"revoke"}, g.offered
                if variant in ("grundregeln", "hungariq"):  # seed 003's discussion, seed 001's debate
                    assert "host_end_discussion" in g.offered, g.offered

    asyncio.run(main())
