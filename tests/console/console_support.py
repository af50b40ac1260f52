"""A whole game at the console, played by `narrator simulate`'s random player with its moves typed
as a transcript's lines, for tests that type at the console what a host would at chosen moments."""

from __future__ import annotations

import asyncio
import contextlib
import io

from rich.console import Console

from narrator.companion.testing import ManualClockSession, until
from narrator.config import parse_config
from narrator.console import ConsoleOutput, console_line
from narrator.flow.events import Timeout
from narrator.transcript import event_line


@contextlib.asynccontextmanager
async def console_game(variant: str, lang: str, seed: int, players: str = ""):
    """(live, console, out): a game of `variant` in `lang` dealt from `seed`, with `players` (a
    [players] section, or nothing), on a manual clock, its console printing into `out`."""
    out = io.StringIO()
    console = Console(file=out, width=400, highlight=False, color_system=None)
    cfg = parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\n[input]\nengine = "none"\n'
                       f'[dealing]\nseed = {seed}\n' + players, "club.toml")
    live = ManualClockSession(cfg, None)
    live.outputs = [ConsoleOutput(live, console, clear_at_dawn=False)]
    task = asyncio.create_task(live.run(live.start_effects(), [live.session.dealing_event()]))
    await until(lambda: live.queue is not None and live.game.state != "setup")
    try:
        yield live, console, out
    finally:
        live.submit_control("quit")
        await asyncio.wait_for(task, 10)


def typed_move(live, console, player) -> None:
    """`player`'s next legal move, typed at the console (a timeout: the clock's time is up)."""
    event = player.legal(live.game)
    if isinstance(event, Timeout):
        live.fire()
    else:
        console_line(live, event_line(event, live.session.voice, live.config.variant.name), console)
