"""A step's time starts the moment its line has been heard, on the game's own clock.

The speaker says when the last sample of the lines queued has been heard (an event from its audio
thread, with that moment); the step timer starts then. Before, the game looked at the speaker's
queue every quarter second and started the timer 4 to 30 ms after the line had ended — a little
longer or shorter each step. Here a simulated sound card (the real Player, driven block by block at
a card's pace, as PortAudio would) plays night zero of two tables with different cards: every step
lasts its time from the end of its line, to the millisecond, whoever holds which card (seed 004
§4.2: 10 s a step; DESIGN: no timing may differ with a hidden role)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from narrator.config import parse_config
from narrator.flow.events import Timeout
from narrator.live import LiveSession
from narrator.voice.tts import TTS_RATE, Player, SpeechOutput

BLOCK = 256  # frames a callback, as the real stream's blocksize

CONFIG = """variant = "classic"
language = "en"
[dealing]
roles = {roles}
[timers]
night_zero_step = 3
mafia_meeting = 5
[input]
engine = "none"
"""


class LineRenderer:
    """Every line as a tone of 10 ms a character, already on disk: the step's length is the point."""

    rate = 175
    memory: dict = {}

    def check(self) -> None: ...

    def load(self) -> None: ...

    def key(self, text: str) -> str:
        return text

    def path(self, text: str) -> Path:
        return Path(__file__)  # "on disk": nothing is rendered ahead

    def cached(self, text: str) -> np.ndarray:
        return np.full(int(len(text) * 0.01 * TTS_RATE), 3000, np.int16)


def card(player: Player, stop: threading.Event, heard: list) -> None:
    """A sound card: a block every 256 frames of real time; notes the moment each line's last
    sample is played (block start + its place in the block), as the room hears it."""
    start = time.monotonic()
    n = 0
    playing = False
    while not stop.is_set():
        at = time.monotonic()
        block = player.render(BLOCK)
        sound = np.flatnonzero(block)
        if len(sound):
            playing = True
            last = at + (sound[-1] + 1) / TTS_RATE
        elif playing:
            heard.append(last)
            playing = False
        n += 1
        time.sleep(max(0.0, start + n * BLOCK / TTS_RATE - time.monotonic()))


def night_zero(roles: str) -> list[float]:
    """How long each step of night zero ran on the game's clock, from the end of its line."""
    cfg = parse_config(CONFIG.replace("{roles}", roles), "club.toml")
    live = LiveSession(cfg, None)
    player = Player(None, TTS_RATE, live.narrating, open_stream=False)
    live.outputs = [SpeechOutput(cfg, live.narrating, renderer=LineRenderer(), player=player, prerender=False)]
    heard: list[float] = []
    ended: list[float] = []
    late: list[float] = []
    stop = threading.Event()
    threading.Thread(target=card, args=(player, stop, heard), daemon=True).start()
    apply = live._apply

    arm = live._arm
    due: list[float] = []

    def armed(*args, **kwargs):
        arm(*args, **kwargs)
        due.append(live._timer_deadline)

    def noted(event, journaled=False):
        if isinstance(event, Timeout):
            # the moment the game set the step to end (the heard moment + its time), and when the
            # loop got round to ending it: a loaded machine delays the second, never the first
            ended.append(due[-1])
            late.append(live.loop.time() - due[-1])
        apply(event, journaled)

    live._arm, live._apply = armed, noted

    async def main() -> None:
        task = asyncio.create_task(live.run(live.start_effects(), [live.session.dealing_event()]))
        give_up = time.monotonic() + 60
        while len(ended) < 3:
            assert time.monotonic() < give_up and not task.done(), "night zero stopped before its three steps ended"
            await asyncio.sleep(0.05)
        live.stopped = True
        live.submit_control("quit")
        await asyncio.wait_for(task, 5)

    try:
        asyncio.run(main())
    finally:
        stop.set()
        live.outputs[0].close()
    # the welcome and night-falls lines come first; each step's line ends just before its time runs
    steps = []
    for end in ended:
        line_end = max(h for h in heard if h < end)
        steps.append(end - line_end)
    assert all(-0.001 <= x < 1.0 for x in late), late  # ended when due, if late only by the machine's load
    return steps


@pytest.mark.e2e
def test_every_step_runs_its_time_from_the_moment_its_line_was_heard():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:  # two tables at once, each on its own loop and card
        a, b = pool.map(night_zero, ['{ 1 = "sheriff", 2 = "don", 3 = "mafia", 4 = "mafia" }',
                                     '{ 7 = "sheriff", 9 = "don", 5 = "mafia", 10 = "mafia" }'])
    for steps in (a, b):
        # the Don 3 s, the mafia's meeting 5 s, the Sheriff 3 s, from the last sample heard: never
        # shorter (the look at the queue counted a block handed to the card as heard, and a step
        # came out 8 ms short), and not found by polling (that was up to 0.25 s late). Measured
        # where the game sets the step's end, not where a loaded loop gets round to it (84 ms
        # late was seen at load 7): the upper bound is the card thread's own pace.
        assert all(t - 0.001 <= x < t + 0.05 for x, t in zip(steps, (3, 5, 3))), steps
    assert all(abs(x - y) < 0.05 for x, y in zip(a, b)), (a, b)
