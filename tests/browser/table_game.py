"""A whole game of any rule system on ten phones in headless Chromium at a small phone's size
(360×740), played as a table plays it: every phone taps at every night step (the awake players
their real choice, the others any seat, as cover), the day is typed at the console or runs out on
the clock, and the day votes are tapped on the phones. At every new screen each phone is looked at:

- nothing on it is wider than the phone;
- no word is missing (a raw key such as `state_x` or an unfilled `{placeholder}`) or left in
  English on a table of another language;
- at night every phone shows the same screen, whoever is awake: the same phase line, caption,
  buttons (with the same names under the same numbers) and answer area, in the same places.

`play()` returns what was found; screenshots go to `shots` when it is given.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.events import Nominate
from narrator.language import load_voice
from test_companion_what_to_tap import tells_to_tap

# names as players type them: markup, a placeholder, a long double name, accents
NAMES = {1: "<b>Ann</b>", 2: "{seat}", 3: "Åsa-Maria Lindqvist-Bergström", 5: "Zsófi", 8: "Jörg"}


def named_table(variant: str, lang: str, roles: str, names: dict = NAMES):
    """Ten seats with the players' names, the roles fixed, the day's votes on the phones."""
    players = "".join(f"{s} = '{n}'\n" for s, n in names.items())
    return parse_config(
        f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n'
        f"[players]\n{players}"
        f"[dealing]\nroles = {{ {roles} }}\n"
        "[companion]\nvotes = true\n"
    )


SMALL_PHONE = {"width": 360, "height": 740}

# what a phone shows, as comparable data: every visible element's text and place, minus the
# header (the seat's own number and name) and what is each seat's own by day
SHAPE_JS = """() => {
  // the countdown ticks on each phone's own clock (a phone may show 9 s while another still shows
  // 10 s): its text, and the phase line's size beside it (it may wrap), are not the screen's shape
  // (so is the size of the box that holds the two: a wrapped phase line makes it a line taller)
  const skip = new Set(["seat", "name", "status", "own", "timer"]);
  const timer = document.getElementById("timer");
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("header") || skip.has(el.id) || el.tagName === "SCRIPT") continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const own = Array.from(el.childNodes).filter(n => n.nodeType === 3).map(n => n.textContent).join("").trim();
    const ticks = el.id === "phase-text" || (timer !== null && el.contains(timer));
    out.push([el.tagName, el.id, el.className, own, Math.round(r.x), ticks ? 0 : Math.round(r.width),
              ticks ? 0 : Math.round(r.height)]);
  }
  return out;
}"""

# whether the page has a button its player can tap now (in the grid, shown, not greyed)
TAPPABLE_JS = """() => Array.from(document.querySelectorAll("#grid button")).some(b => !b.disabled && b.getBoundingClientRect().width)"""

# elements that reach out of the phone's width (the page may not scroll sideways either)
WIDE_JS = """() => {
  const w = document.documentElement.clientWidth, out = [];
  if (document.documentElement.scrollWidth > w) out.push("page scrolls sideways: " + document.documentElement.scrollWidth);
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.height && (r.right > w + 1 || r.left < -1)) out.push(el.tagName + "#" + el.id + "." + el.className + " " + Math.round(r.left) + "-" + Math.round(r.right));
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible" && el.clientWidth) out.push("spills: " + el.tagName + "#" + el.id + " " + el.scrollWidth + ">" + el.clientWidth);
  }
  return out;
}"""

RAW = re.compile(r"\b(?:state|step|role|phone|reject|winner|outcome|night|day|seat|host|ready|extension)_[a-z_]+\b|\{\w+\}")


def own_part_out(element: list) -> list:
    """An element of a screen's shape without what is each phone's own after its tap: the marked
    button (its choice) and the answer's words (its box stays: the same size on every phone)."""
    tag, ident, cls, text, *box = element
    cls = " ".join(c for c in cls.split() if c not in ("chosen", "pending"))
    return [tag, ident, cls, "" if ident == "result" else text, *box]


@dataclass
class Findings:
    problems: list[str] = field(default_factory=list)
    screens: int = 0
    night_screens: int = 0
    shots: list[Path] = field(default_factory=list)
    seen: dict[str, set[str]] = field(default_factory=dict)  # phase line -> states it was seen in

    def add(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)


class TableGame:
    """Ten Chromium phones at one live table: `async with TableGame(config, browser) as g: await g.play()`."""

    def __init__(self, config, browser, shots: Path | None = None, names: dict[int, str] | None = None):
        self.config = config
        self.browser = browser
        self.shots = shots
        self.names = names or {}
        self.found = Findings()
        self.t: Table | None = None
        self.pages: dict = {}
        self._shot_no = 0
        self._spoke: set[tuple[int, int]] = set()
        self.night_labels: list[list[str]] = []  # the first night choice's buttons: [choice, label]
        english = load_voice("en").phone
        mine = load_voice(config.language).phone
        # English words that must not be on a page of another language (a missing translation)
        self.english = [] if config.language == "en" else sorted(
            {v for k, v in english.items() if "{" not in v and len(v) > 8 and mine.get(k) != v}, key=len, reverse=True)

    async def __aenter__(self):
        self.t = Table(self.config)
        await self.t.__aenter__()
        return self

    async def __aexit__(self, *exc):
        for p in self.pages.values():
            await p.context.close()
        await self.t.__aexit__(*exc)

    @property
    def game(self):
        return self.t.live.game

    @property
    def hub(self):
        return self.t.companion.hub

    # ------------------------------------------------------------------ looking at the phones
    async def text(self, page) -> str:
        return await page.evaluate("() => document.body.innerText")

    async def synced(self) -> None:
        """Every phone shows the hub's latest screen."""
        await self.t.settle()
        epoch = self.hub.epoch
        await asyncio.gather(*(p.wait_for_function(f"() => Number(document.body.dataset.epoch) >= {epoch}", timeout=10_000)
                               for p in self.pages.values()))
        await asyncio.sleep(0.05)

    async def look(self, tag: str, seats=(), tapped: bool = False) -> None:
        """Check every phone's screen now; photograph the given seats. `tapped`: every phone has
        tapped this step, so its own marked button and the words of its answer are its own (their
        box is compared, not what is in it)."""
        g = self.game
        self.found.screens += 1
        where = f"{g.state}/day {g.day}/{g.step.name if g.step else '-'} ({tag})"
        texts = await asyncio.gather(*(self.text(p) for p in self.pages.values()))
        wides = await asyncio.gather(*(p.evaluate(WIDE_JS) for p in self.pages.values()))
        for (seat, page), text, wide in zip(self.pages.items(), texts, wides):
            for w in wide:
                self.found.add(f"{where}: seat {seat}: {w}")
            bare = text
            for name in self.names.values():
                bare = bare.replace(name, "")
            for m in RAW.finditer(bare):
                self.found.add(f"{where}: seat {seat}: raw key or placeholder {m.group(0)!r}")
            for e in self.english:
                if e in bare:
                    self.found.add(f"{where}: seat {seat}: English on a {self.config.language} page: {e!r}")
        # a phase line that tells its reader to tap stands over a button he can tap (a dead Swede read
        # «… tryck på knappen» under none)
        for seat, page in self.pages.items():
            line = await page.locator("#phase-text").inner_text()
            if tells_to_tap(self.config.language, line) and not await page.evaluate(TAPPABLE_JS):
                self.found.add(f"{where}: seat {seat} is told to tap with no button to tap: {line!r}")
        phase = await self.pages[1].locator("#phase-text").inner_text()
        self.found.seen.setdefault(phase, set()).add(g.state)
        if g.state == "night":
            self.found.night_screens += 1
            shapes = await asyncio.gather(*(p.evaluate(SHAPE_JS) for p in self.pages.values()))
            if tapped:
                shapes = [[own_part_out(e) for e in shape] for shape in shapes]
            first = shapes[0]
            for seat, shape in zip(self.pages, shapes):
                if shape != first:
                    diff = [(a, b) for a, b in zip(first, shape) if a != b][:3] or [(len(first), len(shape))]
                    self.found.add(f"{where}: seat {seat}'s night screen differs from seat 1's: {diff}")
        for s in seats:
            await self.shot(s, tag)

    async def shot(self, seat: int, tag: str) -> None:
        if self.shots is None:
            return
        g = self.game
        self._shot_no += 1
        name = f"{self.config.variant.name}-{self._shot_no:03d}-{g.state}-{g.step.name if g.step else 'd' + str(g.day)}-{tag}-s{seat}.png"
        path = self.shots / name
        self.shots.mkdir(parents=True, exist_ok=True)
        await self.pages[seat].screenshot(path=str(path))
        self.found.shots.append(path)

    # ------------------------------------------------------------------ tapping
    async def buttons(self, seat: int) -> list[str]:
        return await self.pages[seat].evaluate("() => Array.from(document.querySelectorAll('#grid button')).map(b => b.dataset.choice)")

    async def tap(self, seat: int, choice) -> str:
        page = self.pages[seat]
        acks = int(await page.evaluate("() => document.body.dataset.acks || 0"))
        await page.locator(f'#grid button[data-choice="{choice}"]').click()
        await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
        return await page.locator("#result").inner_text()

    # ------------------------------------------------------------------ the game
    async def join(self) -> None:
        hub = self.hub
        base = f"http://127.0.0.1:{self.t.companion.port}"
        for s in range(1, self.config.seats + 1):
            self.pages[s] = await (await self.browser.new_context(viewport=SMALL_PHONE)).new_page()
        await asyncio.gather(*(self.pages[s].goto(f"{base}/#{hub.seat_tokens[s]}") for s in self.pages))
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.state === 'setup'", timeout=10_000)
                               for p in self.pages.values()))

    def role(self, seat: int) -> str:
        return self.game.role(seat)

    def evil(self, seat: int) -> bool:
        return self.role(seat) in ("don", "mafia", "protected_mafia", "kamikaze_mafia")

    def target(self) -> int | None:
        """The town's choice by day: the living evil player with the highest seat."""
        evil = [s for s in self.game.alive if self.evil(s)]
        return max(evil) if evil else None

    def victim(self) -> int:
        """The mafia's choice at night: the living good player with the highest seat."""
        return max(s for s in self.game.alive if not self.evil(s))

    async def play(self, on_day=None, limit: int = 400) -> Findings:
        t, hub = self.t, self.hub
        deal = t.live.session.dealing_event()
        dealing = asyncio.create_task(t.companion.deal_when_ready([deal]))
        await self.synced()
        await self.look("join", seats=(1,))
        await asyncio.gather(*(p.locator('#grid button[data-choice="ready"]').wait_for() for p in self.pages.values()))
        await self.look("dealt", seats=(1,))
        for p in self.pages.values():
            await p.locator('#grid button[data-choice="ready"]').click()
        await asyncio.wait_for(dealing, 10)
        acted: set[tuple] = set()
        for _ in range(limit):
            g = self.game
            if g.state == "over":
                break
            await self.synced()
            key = (g.state, g.day, g.night_no, g.step.name if g.step else None, hub.epoch)
            if g.state == "night":
                await self.night_step(key in acted)
            else:
                if key not in acted and on_day is not None and await on_day(self, key):
                    acted.add(key)
                    continue
                await self.day_step(key in acted)
            acted.add(key)
        else:
            raise AssertionError(f"the game did not end; it is in {self.game.state}")
        await self.synced()
        await self.look("over", seats=(1, 4))
        return self.found

    async def night_step(self, done: bool) -> None:
        g, t = self.game, self.t
        step = g.step
        if done or step is None or not await self.buttons(1):
            if not done:
                await self.look("step", seats=(1,))
            t.live.fire()
            return
        await self.look("before taps", seats=(1,))
        if not self.night_labels:
            self.night_labels = await self.pages[1].evaluate(
                "() => Array.from(document.querySelectorAll('#grid button')).map(b => [b.dataset.choice, b.innerText.replace(/\\s+/g, ' ')])")
        awake = set(g.awake_seats())
        choices = await self.buttons(1)
        taps = {}
        for seat in self.pages:
            if seat in awake:
                taps[seat] = self.night_choice(step, seat, choices)
            else:
                taps[seat] = choices[(seat * 3) % len(choices)]  # cover: a tap like any other
        await asyncio.gather(*(self.tap(s, c) for s, c in taps.items()))
        sleeper = next(s for s in self.pages if s not in awake)
        actor = next(iter(sorted(awake)), None)
        await self.shot(sleeper, "tapped")
        if actor is not None:
            await self.shot(actor, "tapped-awake")
        t.live.fire()

    def night_choice(self, step, seat: int, choices: list[str]) -> str:
        if step.action in ("shoot", "mafia_vote", "kill_alone"):
            return str(self.victim())
        if step.action in ("check_sheriff", "check_mafia", "check_team", "inspect"):
            others = [s for s in self.game.alive if s != seat]
            return str(others[self.game.night_no % len(others)])
        if str(seat) in choices:
            return str(seat) if step.action == "identify" else choices[0]
        return choices[0]

    async def day_step(self, done: bool) -> None:
        g, t = self.game, self.t
        state = g.state
        if not done:
            living = sorted(g.alive)
            dead = [s for s in self.pages if s not in living]
            await self.look("day", seats=(living[0],) + ((dead[0],) if dead else ()))
        vote = g.vote_choices() if g.awaiting()[0] == "awaiting_votes" else None
        if vote is not None and not done:
            kind, candidates = vote
            voters = [s for s in g.awaiting()[1].get("seats", g.alive) if s in self.pages]
            await self.vote(kind, candidates, voters)
            return
        if state in ("speeches", "discussion", "accusations") and not done:
            if await self.nominate():
                return
        t.live.fire()

    async def vote(self, kind: str, candidates: list[int], voters: list[int]) -> None:
        target = self.target()
        taps = {}
        for s in voters:
            if kind == "yes_no":
                taps[s] = "yes" if not self.evil(s) or self.game.state == "all_leave_vote" else "no"
                continue
            if self.game.state == "hand_vote":
                # seed 000: a hand for the name being called, or none
                if candidates == [target] and not self.evil(s):
                    taps[s] = str(target)
                continue
            pick = target if target in candidates and s != target else next((c for c in candidates if c != s), None)
            if pick is not None:
                taps[s] = str(pick)
        for s in voters:
            if s in taps and str(taps[s]) not in await self.buttons(s):
                self.found.add(f"{self.game.state}: seat {s} is called to vote but has no button {taps[s]}")
                del taps[s]
        if taps:
            await asyncio.gather(*(self.tap(s, c) for s, c in taps.items()))
            some = next(iter(taps))
            await self.shot(some, "voted")
        await self.t.settle()
        if self.game.awaiting()[0] == "awaiting_votes" and self.game.vote_choices() == (kind, candidates):
            self.t.live.fire()  # the rest keep their hands down

    async def nominate(self) -> bool:
        """The town's accusation of the day, typed at the console as it was said at the table."""
        g, t = self.game, self.t
        target = self.target()
        if target is None:
            return False
        variant = self.config.variant.name
        named = g.public_view()["nominations"]
        good = [s for s in sorted(g.alive) if not self.evil(s)]
        if variant == "classic":
            # the speaker names the town's suspect, the next one a second player, so there is a vote
            if g.speaker is None or (g.day, g.speaker) in self._spoke or len(named) >= 2:
                return False
            self._spoke.add((g.day, g.speaker))
            seat = target if target not in named else next(s for s in good if s != g.speaker and s not in named)
            if seat == g.speaker:
                return False
            t.live.submit_event(Nominate(seat))
        elif variant == "sverige" and target not in named:
            # anyone nominates, naming himself too; a second name makes the hand vote call two
            t.live.submit_event(Nominate(target, by=good[0]))
            if len(good) > 2:
                t.live.submit_event(Nominate(good[-1], by=good[1]))
        elif variant == "hungariq" and target not in named:
            t.live.submit_event(Nominate(target, by=good[0]))
        else:
            return False
        await self.t.settle()
        return True
