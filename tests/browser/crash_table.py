"""A real `narrator play --companion` process with ten Chromium phones at 360×740, killed with
`kill -9` wherever a test likes and brought back with `narrator resume`: the phones are the same
pages (their device keys in their own storage), as the players' phones are at a real table.

The process is driven as a table drives it: the phones tap, the console takes typed lines, and the
phones' own screens (`document.body.dataset`, what is on the page) say where the game is.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from table_game import SMALL_PHONE

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def club_config(variant: str, lang: str, roles: str, port: int, timers: str, names: dict | None = None) -> str:
    players = "".join(f"{s} = '{n}'\n" for s, n in (names or {}).items())
    return (f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n'
            + (f"[players]\n{players}" if players else "")
            + f"[dealing]\nroles = {{ {roles} }}\n"
            f"[timers]\n{timers}\n"
            f'[companion]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\nvotes = true\nkeep_result = 5\n'
            '[input]\nengine = "none"\n[voice]\noutput = "text"\n')


class Narrator:
    """One `narrator play` or `narrator resume` process; its console output collected as it comes."""

    def __init__(self, args: list[str], home: Path):
        env = {**os.environ, "HOME": str(home), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
        self.proc = subprocess.Popen([sys.executable, "-m", "narrator.cli", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
        self.out: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.out.append(line)

    @property
    def text(self) -> str:
        return "".join(self.out)

    def mark(self) -> int:
        return len(self.out)

    def since(self, mark: int) -> str:
        return "".join(self.out[mark:])

    async def wait_for(self, text: str, since: int = 0, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = self.since(since)
            if text in seen:
                return seen
            if self.proc.poll() is not None and text not in self.since(since):
                await asyncio.sleep(0.2)
                if text in self.since(since):
                    return self.since(since)
                raise AssertionError(f"the narrator ended ({self.proc.returncode}) without {text!r}:\n{self.since(since)[-3000:]}")
            await asyncio.sleep(0.05)
        raise AssertionError(f"never printed {text!r}:\n{self.since(since)[-3000:]}")

    def type(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._reader.join(timeout=5)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)


class CrashTable:
    """The process, its journal and ten phone pages that outlive it."""

    def __init__(self, tmp: Path, browser, config_text: str, port: int):
        self.tmp = tmp
        self.browser = browser
        self.port = port
        self.cfg = tmp / "club.toml"
        # the printable cards beside the game, not in /tmp: a killed process never removes them
        self.cfg.write_text(config_text.replace("[companion]\n", f"[companion]\nseats_page = '{tmp / 'seats.html'}'\n"))
        self.journal = tmp / "game.jsonl"
        self.narrator: Narrator | None = None
        self.pages: dict[int, object] = {}
        self.frames: dict[int, list[dict]] = {}

    async def start(self) -> None:
        self.narrator = Narrator(["play", "--config", str(self.cfg), "--journal", str(self.journal), "--voice", "text"],
                                 self.tmp)
        secrets = Path(str(self.journal) + ".companion")
        for _ in range(400):
            if secrets.exists() and secrets.stat().st_size:
                break
            if self.narrator.proc.poll() is not None:
                raise AssertionError(f"the narrator did not start: {self.narrator.text[-2000:]}")
            await asyncio.sleep(0.05)
        tokens = json.loads(secrets.read_text())["tokens"]
        await self.narrator.wait_for("127.0.0.1")  # the host screen's address: the server listens
        base = f"http://127.0.0.1:{self.port}"
        for s in range(1, 11):
            ctx = await self.browser.new_context(viewport=SMALL_PHONE)
            page = await ctx.new_page()
            self.frames[s] = []
            page.on("websocket", lambda ws, s=s: ws.on("framereceived", lambda f, s=s: self._frame(s, f)))
            self.pages[s] = page
        await asyncio.gather(*(self.pages[s].goto(f"{base}/#{tokens[str(s)]}") for s in self.pages))

    def host_link(self) -> str:
        """The host screen's link as the terminal prints it: with the host's key (kept beside the journal)."""
        key = json.loads(Path(str(self.journal) + ".companion").read_text())["host_key"]
        return f"http://127.0.0.1:{self.port}/host#{key}"

    def _frame(self, seat: int, payload) -> None:
        try:
            self.frames[seat].append(json.loads(payload))
        except (TypeError, ValueError):
            pass

    def kill(self) -> None:
        self.narrator.kill()

    async def resume(self) -> Narrator:
        self.narrator = Narrator(["resume", "--journal", str(self.journal)], self.tmp)
        return self.narrator

    async def close(self) -> None:
        for p in self.pages.values():
            await p.context.close()
        if self.narrator is not None:
            self.narrator.close()

    # ------------------------------------------------------------------ the phones
    async def data(self, seat: int, key: str) -> str:
        return await self.pages[seat].evaluate(f"() => document.body.dataset.{key} || ''")

    async def text(self, seat: int) -> str:
        return await self.pages[seat].evaluate("() => document.body.innerText")

    async def buttons(self, seat: int) -> list[str]:
        return await self.pages[seat].evaluate("() => Array.from(document.querySelectorAll('#grid button')).map(b => b.dataset.choice)")

    async def chosen(self, seat: int) -> list[str]:
        return await self.pages[seat].evaluate("() => Array.from(document.querySelectorAll('#grid button.chosen')).map(b => b.dataset.choice)")

    async def connected(self, seat: int) -> bool:
        return await self.pages[seat].evaluate("() => document.getElementById('status').className !== 'down'")

    async def until_all(self, js: str, timeout: float = 30) -> None:
        await asyncio.gather(*(p.wait_for_function(js, timeout=timeout * 1000) for p in self.pages.values()))

    async def tap(self, seat: int, choice) -> str:
        page = self.pages[seat]
        acks = int(await self.data(seat, "acks") or 0)
        await page.locator(f'#grid button[data-choice="{choice}"]').click()
        await page.wait_for_function(f"() => Number(document.body.dataset.acks || 0) > {acks}", timeout=10_000)
        return await page.locator("#result").inner_text()

    async def shot(self, seat: int, name: str, folder: Path | None) -> Path | None:
        if folder is None:
            return None
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}-s{seat}.png"
        await self.pages[seat].screenshot(path=str(path))
        return path


# what a phone shows, as comparable data (table_game.SHAPE_JS), and its own answer area
SCREEN_JS = """() => ({state: document.body.dataset.state || '', step: document.body.dataset.step || '',
  epoch: document.body.dataset.epoch || '', left: Number(document.body.dataset.left || 0),
  result: document.getElementById('result').innerText, own: document.getElementById('own').hidden ? '' : document.getElementById('own').innerText,
  info: document.getElementById('day-info').innerText, timer: document.getElementById('timer').innerText,
  up: document.getElementById('status').className !== 'down',
  buttons: Array.from(document.querySelectorAll('#grid button')).map(b => b.dataset.choice),
  chosen: Array.from(document.querySelectorAll('#grid button.chosen')).map(b => b.dataset.choice)})"""


class CrashGame(CrashTable):
    """A whole game on the phones of a real process, driven as the table plays it, with crashes.

    `evil`: the mafia's seats (fixed by the config's deal). By day the town names and votes the
    living mafioso with the highest seat; by night the mafia shoot the living good player with the
    highest seat and every other phone taps a seat as cover. `crash_at(screen) -> bool` is asked at
    every new screen; a test's own `on_crash` plays the kill and checks the phones after it."""

    def __init__(self, *args, evil: set[int], words, **kw):
        super().__init__(*args, **kw)
        self.evil = evil
        self.words = words  # the table's Voice: what the phones and the narrator say
        self.generation = 0
        self.acted: set[tuple] = set()
        self.named_days: set[int] = set()

    def screen(self, seat: int = 1) -> dict:
        """The last screen frame the server sent this phone (it names the speaker, the living)."""
        return next((f for f in reversed(self.frames[seat]) if f.get("t") == "screen"), {})

    async def looks(self) -> dict[int, dict]:
        shown = await asyncio.gather(*(p.evaluate(SCREEN_JS) for p in self.pages.values()))
        return dict(zip(self.pages, shown))

    def target(self, alive) -> int | None:
        evil = [s for s in alive if s in self.evil]
        return max(evil) if evil else None

    def victim(self, alive) -> int:
        return max(s for s in alive if s not in self.evil)

    async def resume_after_kill(self) -> Narrator:
        """kill -9, then `narrator resume`; returns once every phone is back on the resumed game."""
        self.kill()
        for s in self.frames:
            self.frames[s] = []
        self.generation += 1
        await self.resume()
        await self.until_all("() => document.getElementById('status').className !== 'down' && document.body.dataset.state", 40)
        # the first screen of the resumed game is on every phone
        await asyncio.gather(*(p.wait_for_function("() => document.body.dataset.epoch !== undefined", timeout=20_000)
                               for p in self.pages.values()))
        await asyncio.sleep(0.5)
        return self.narrator

    async def ready_all(self) -> None:
        await self.until_all("() => document.querySelector('#grid button[data-choice=ready]')")
        for s in self.pages:
            await self.pages[s].locator("#grid button[data-choice=ready]").click()

    async def play(self, crash_at, on_crash, limit: float = 400) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            one = await self.pages[1].evaluate(SCREEN_JS)
            frame = self.screen(1)
            if one["state"] == "over":
                return
            if not frame or str(frame.get("epoch")) != one["epoch"]:
                continue  # between two screens
            key = (self.generation, one["epoch"], one["state"], one["step"])
            if key in self.acted:
                continue
            if crash_at(self, one, frame):
                self.acted.add(key)
                await on_crash(self, one, frame)
                continue
            self.acted.add(key)
            await self.act(one, frame)
        raise AssertionError(f"the game did not end: {self.narrator.text[-2000:]}")

    async def act(self, one: dict, frame: dict) -> None:
        state, alive = one["state"], frame.get("alive", [])
        if state == "night":
            if one["buttons"]:
                await self.night_taps(frame)
            return  # a night step runs its full time
        if frame.get("ask") in ("seat", "yes_no") and one["buttons"]:
            await self.vote(frame)
            return
        await self.day(state, frame)

    async def night_taps(self, frame: dict) -> None:
        alive, choices = frame["alive"], [str(c) for c in frame["choices"]]
        victim = self.victim(alive)
        taps = {}
        for s in self.pages:
            if s in self.evil and s in alive:
                taps[s] = str(victim)
            else:
                taps[s] = choices[(s * 3) % len(choices)]
        await asyncio.gather(*(self.tap(s, c) for s, c in taps.items()))

    def ballot(self, frame: dict, seat: int) -> str | None:
        alive = frame["alive"]
        target = self.target(alive)
        if frame["ask"] == "yes_no":
            return "no" if seat in self.evil else "yes"
        choices = [int(c) for c in frame["choices"]]
        if seat in self.evil:
            other = [c for c in choices if c not in self.evil]
            return str(other[0]) if other else None
        return str(target) if target in choices else None

    async def vote(self, frame: dict, seats=None) -> None:
        looks = await self.looks()
        taps = {}
        for s in seats or self.pages:
            if looks[s]["buttons"] and not looks[s]["chosen"]:
                c = self.ballot(self.screen(s) or frame, s)
                if c is not None and c in looks[s]["buttons"]:
                    taps[s] = c
        await asyncio.gather(*(self.tap(s, c) for s, c in taps.items()))

    async def day(self, state: str, frame: dict) -> None:
        raise NotImplementedError
