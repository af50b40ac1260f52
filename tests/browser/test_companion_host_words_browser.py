"""The host screen and the day's buttons as a table meets them, on 360×740 Chromium.

- The host screen's state line says only what the server words in the table's language: the
  phase, its day, "paused" — and never the phones' words to the players: a vote's question («Támogatod
  a vádat?») or "Everyone taps a seat" reads as what the table does («Szavazás a vád támogatásáról»). A small grey word of the core's own ("over", "tie_speeches /
  mafia_shoots") stood beside it on every screen. A whole game of each rule system, in every one
  of the five languages, checks the line at every screen, night and day, to the result: HostedGame
  looks, and test_companion_host_controls_browser.py plays those games (GAMES), looking at the
  host's buttons in the same pass.
- grundregeln (seed 003, «zeigt … auf einen Mitspieler»): at the pointing every living phone has
  the same grid of buttons, its own seat among them in its place but not tappable — the rules
  refuse it, so the phone does not offer it.

Screenshots go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import re
from pathlib import Path

from chromium import launched, need_browser
from narrator.config import parse_config
from narrator.flow import day_classic, day_grundregeln, day_hungariq, day_sverige
from narrator.flow.game import BASE_STATES
from narrator.rules import variants
from table_game import SMALL_PHONE, TableGame

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None

# every state and night step the core has: none of these names may be on the host screen
STATES = set(BASE_STATES)
for module in (day_classic, day_grundregeln, day_hungariq, day_sverige):
    for _, cls in inspect.getmembers(module, inspect.isclass):
        STATES |= set(getattr(cls, "DAY_STATES", ()))
STEPS = set(re.findall(r'step\(\s*"(\w+)"', inspect.getsource(variants), re.I))

ROLES = {
    "classic": '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"',
    "sverige": '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"',
    "hungariq": '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"',
    "grundregeln": '1 = "mafia", 2 = "mafia", 3 = "mafia"',
}
# each rule system in its seed's language, and the two other languages on classic and sverige,
# so every language's words are on the host screen through a whole game
GAMES = [("classic", "ru"), ("classic", "en"), ("sverige", "sv"), ("hungariq", "hu"), ("grundregeln", "de"), ("classic", "hu")]


def config(variant: str, lang: str):
    return parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n'
                        f"[dealing]\nroles = {{ {ROLES[variant]} }}\n[companion]\nvotes = true\n")


class HostedGame(TableGame):
    """A table game with the host screen open beside the phones, looked at with every screen."""

    host = None
    host_lines: set[str]

    async def open_host(self) -> None:
        self.host_lines = set()
        self.host = await (await self.browser.new_context(viewport=SMALL_PHONE)).new_page()
        await self.host.goto(self.t.host_link)

    async def look(self, tag: str, seats=(), tapped: bool = False) -> None:
        await super().look(tag, seats, tapped)
        frame = self.hub.host_frame()
        view, hub = frame["view"], self.hub
        # the line as the server words it: the phase (or "the roles are dealt"), its day, paused
        text = hub.word("host_dealt") if frame["ready"] is not None else frame["phase"]
        # a night beside its own number (the night after day 2 is night 2), a day beside its day
        # beside the heading, or after a dot where it ends with a name in brackets
        aside = (lambda when: f" · {when}" if text.endswith(")") else f" ({when})")
        if view["state"] == "night" and frame["night"]:
            text += aside(hub.word("host_night_no", n=frame["night"]))
        elif view["day"] and view["state"] not in ("over", "night"):
            text += aside(hub.word("host_day", day=view["day"]))
        if frame["paused"]:
            text = hub.word("host_paused", phase=text)
        where = f"{self.game.state}/{self.game.step.name if self.game.step else '-'} ({tag})"
        try:
            await self.host.wait_for_function("t => document.getElementById('state-line').innerText.trim() === t",
                                              arg=text, timeout=5_000)
        except Exception:
            shown = await self.host.locator("#state-line").inner_text()
            self.found.add(f"{where}: the host's state line reads {shown!r}, the server's words are {text!r}")
        self.host_lines.add(text)
        # the host votes on nothing and taps no seat: a heading of the phones' that speaks to the
        # players («Támogatod a vádat?», "Everyone taps a seat") has the host's own words on his screen
        for fragment in self.players_only():
            if fragment in frame["phase"]:
                self.found.add(f"{where}: the host's heading speaks to the players: {frame['phase']!r}")
        # "Waiting for" names a button only while the screen shows it ("you to tap Resume", "or End speech")
        named = await self.host.evaluate("""() => {
          const waiting = document.getElementById("awaiting").innerText;
          return Array.from(document.querySelectorAll("button[data-act]")).filter(b => b.textContent.trim().length > 3 &&
            waiting.includes(b.textContent.trim()) && !b.getBoundingClientRect().width).map(b => b.textContent.trim());
        }""")
        for label in named:
            self.found.add(f"{where}: 'Waiting for' names {label!r}, a button the host screen does not show")
        # a row's label fits its column word by word, or breaks where its words allow (a space, a
        # soft hyphen): «Figyelmeztetések» ran under its value's "—", "Nominierungen" broke as
        # "Nominierung / en", «Кандидатуры» as «Кандидатур / ы». Each piece a line may hold is
        # measured against the cell's room: a table cell reports no overflow of its own
        spilled = await self.host.evaluate("""() => Array.from(document.querySelectorAll("td:first-child"))
          .filter(td => td.getBoundingClientRect().width).filter(td => {
            const cs = getComputedStyle(td);
            const room = td.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
            const pieces = td.textContent.split(/\\s+/).flatMap(word => word.split("\\u00ad").map(
              (piece, i, all) => i < all.length - 1 ? piece + "-" : piece));
            const probe = document.createElement("span");
            probe.style.whiteSpace = "nowrap";
            td.appendChild(probe);
            const widest = Math.max(0, ...pieces.map(piece => { probe.textContent = piece; return probe.getBoundingClientRect().width; }));
            probe.remove();
            return widest > room + 0.5;
          }).map(td => td.innerText)""")
        for label in spilled:
            self.found.add(f"{where}: the label {label!r} does not fit its column")
        body = await self.host.evaluate("() => document.body.innerText")
        for name in STATES | STEPS:
            # an English table says "night" and "over" in its own words; elsewhere no core name at all
            if ("_" in name or self.config.language != "en") and re.search(rf"(?<![\w]){name}(?![\w])", body):
                self.found.add(f"{where}: the core's name {name!r} is on the host screen")
        if self.shots is not None and tag in ("dealt", "day", "step", "over"):
            self.shots.mkdir(parents=True, exist_ok=True)
            self._shot_no += 1
            await self.host.screenshot(path=str(self.shots / f"host-{self._shot_no:03d}-{self.game.state}-{tag}.png"))

    def players_only(self) -> list[str]:
        """The words of each phone heading the host screen words its own way ([phone] host_<key>):
        the longest fixed part of the phones' template, where the two differ."""
        phone = self.t.live.voice.phone
        out = []
        for key, template in phone.items():
            own = phone.get("host_" + key)
            if own is None or own == template or key.startswith("host_"):
                continue
            part = max(re.split(r"\{\w+\}", template), key=len).strip(" .:–—")
            if len(part) > 6 and part not in own:
                out.append(part)
        return out

    async def __aexit__(self, *exc):
        if self.host is not None:
            await self.host.context.close()
        await super().__aexit__(*exc)


def test_a_german_player_is_not_offered_to_point_at_himself():
    """seed 003: «Jeder Spieler zeigt … auf einen Mitspieler» — the rules refuse one's own seat."""
    need_browser()
    seen = {"pointing": False}

    async def on_day(g: TableGame, key) -> bool:
        game = g.game
        if game.state != "pointing" or seen["pointing"]:
            return False
        living = sorted(game.alive)
        grids = await asyncio.gather(*(g.pages[s].evaluate(
            "() => Array.from(document.querySelectorAll('#grid button')).map(b => [b.dataset.choice, b.disabled,"
            " Math.round(b.getBoundingClientRect().x), Math.round(b.getBoundingClientRect().y)])") for s in living))
        for seat, grid in zip(living, grids):
            # every seat's button where it stands on every phone; only his own is not to be tapped
            assert [c for c, _, _, _ in grid] == [str(s) for s in living], grid
            assert [c for c, off, _, _ in grid if off] == [str(seat)], (seat, grid)
            assert [(x, y) for _, _, x, y in grid] == [(x, y) for _, _, x, y in grids[0]], "the grid moved"
        await g.shot(living[0], "pointing-own-barred")
        # a tap on one's own seat does nothing on the page: nothing is sent, nothing is counted
        page = g.pages[living[1]]
        await page.locator(f'#grid button[data-choice="{living[1]}"]').click(force=True)
        await asyncio.sleep(0.3)
        assert await page.locator("#result").inner_text() == ""
        assert living[1] not in game.votes
        seen["pointing"] = True
        return False  # the game goes on: the phones point at their suspects

    async def main():
        async with launched() as browser:
            async with TableGame(config("grundregeln", "de"), browser, shots=SHOTS and SHOTS / "pointing") as g:
                await g.join()
                found = await g.play(on_day=on_day)
                assert found.problems == [], "\n".join(found.problems)
                assert seen["pointing"] and g.game.state == "over"

    asyncio.run(main())
