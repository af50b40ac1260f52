"""When a night step opens on the table's terminal: the "⏱" is printed when the step's line has
been heard — the moment the speaker names, a sound card's latency after its last sample was handed
over — and the private answer a resumed step tells again comes after it, on the screen its players
read, not before the screen is cleared for the step (README: After a crash; seed 004 §4: the
mafia's shot is theirs alone)."""

from __future__ import annotations

import asyncio
import threading
import time

from rich.console import Console

from conftest import four_at_night
from narrator.config import parse_config
from narrator.console import ConsoleOutput
from narrator.flow.events import Tap, Timeout
from narrator.live import KEYPAD_GRACE, LiveSession

CLASSIC = four_at_night(4)
LATENCY = 0.3  # a USB sound card's output latency
SAID = 0.4  # how long the speaker takes to play what was queued


class Screen:
    """The terminal: what was printed, each piece with the moment it was."""

    def __init__(self):
        self.parts: list[tuple[float, str]] = []

    def write(self, text: str) -> int:
        self.parts.append((time.monotonic(), text))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True

    def text(self) -> str:
        return "".join(t for _, t in self.parts)

    def when(self, piece: str) -> float:
        return next(t for t, text in self.parts if piece in text)


class Speaker:
    """A speaker as tts.Player reports it: once the queued lines are played, the moment their last
    sample will be heard — a latency after it was handed to the card."""

    def __init__(self):
        self.heard_at: list[float] = []

    def handle(self, effect, text):
        pass

    def queued_seconds(self) -> float:
        return 0.0

    def when_heard(self, callback) -> bool:
        def played() -> None:
            at = time.monotonic() + LATENCY
            self.heard_at.append(at)
            callback(at)

        threading.Timer(SAID, played).start()
        return True


def mafia_step_with_its_shot(cfg):
    """The journaled inputs of a classic game stopped in night 1's mafia step, after the keypad's 5."""
    live = LiveSession(cfg, None)
    live.start_effects()
    events = [live.session.dealing_event()]
    live.session.feed(events[0])
    while not (live.game.state == "night" and live.game.day == 1 and live.game.step.action):
        events.append(Timeout())
        live.session.feed(events[-1])
    for seat in live.game.awake_seats():
        events.append(Tap(seat, 5))
    return events


def test_the_timer_line_comes_when_the_line_is_heard_and_the_resumed_answer_after_it():
    cfg = parse_config(CLASSIC)
    events = mafia_step_with_its_shot(cfg)
    screen, speaker = Screen(), Speaker()
    live = LiveSession(cfg, None)
    out = ConsoleOutput(live, Console(file=screen, force_terminal=True, width=100, highlight=False), clear_at_dawn=True)
    live.outputs = [out, speaker]
    live.keypad_table = True
    first = live.start_effects(replayed=events)

    async def play():
        task = asyncio.create_task(live.run(first))
        await asyncio.sleep(SAID + LATENCY + KEYPAD_GRACE + 0.5)
        live.submit_control("quit")
        await task

    asyncio.run(play())
    text = screen.text()
    assert speaker.heard_at, text
    # the step's time runs from the moment the line is heard, and the screen says so then: not a
    # latency before the table has heard the mafia woken
    assert screen.when("⏱") >= speaker.heard_at[0] - 0.01, (screen.when("⏱"), speaker.heard_at)
    # the mafia's answer, told again, is on their screen after the step's ⏱ — not printed before
    # the screen was cleared for the step, and gone with it
    last_wipe = text.rindex("\x1b[3J")
    assert text.index("⏱") > text.index("The mafia wakes up"), text
    on_screen = text[last_wipe:]
    assert "Your choice: 5" in on_screen and on_screen.index("⏱") < on_screen.index("Your choice: 5"), on_screen
    assert text.count("Your choice: 5") == 1, text
