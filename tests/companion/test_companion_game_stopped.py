"""The game stops before the host closed it (Ctrl-C at the terminal, a failure): every host screen
is told before the server goes, in the table's words, so none goes on showing a running clock and
taking buttons nobody hears. A game the host closed after its result says nothing more."""

from __future__ import annotations

import asyncio
import json

from narrator.companion.testing import CLASSIC_DEAL, Table, connect, host_hello, until
from narrator.config import parse_config


async def host_screen(t: Table):
    ws = await connect(t.ws_url, max_queue=None)
    await ws.send(json.dumps(host_hello(t.companion.hub)))
    frames: list[dict] = []

    async def read():
        try:
            async for text in ws:
                frames.append(json.loads(text))
        except Exception:
            pass

    reader = asyncio.create_task(read())
    await until(lambda: any(f["t"] == "host" for f in frames), what="the host frame")
    return ws, frames, reader


def test_a_game_that_stops_tells_every_host_screen_in_its_words():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL.replace('language = "en"', 'language = "sv"'))) as t:
            await t.join_all()
            await t.to_first_day()
            (_, first, r1), (_, second, r2) = await host_screen(t), await host_screen(t)
            phone_frames = {s: len(p.frames) for s, p in t.phones.items()}
            await t.companion.stop()
            await asyncio.wait_for(asyncio.gather(r1, r2), 5)
            words = t.live.voice.phone["host_game_stopped"]
            for frames in (first, second):
                assert frames[-1] == {"t": "stopped", "text": words}, frames[-1]
            assert "berättaren" in words
            # the phones get nothing new: their pages see the connection lost, each alike
            await asyncio.sleep(0.1)
            assert {s: len(p.frames) for s, p in t.phones.items()} == phone_frames

    asyncio.run(main())


def test_a_game_the_host_closed_says_nothing_more_when_the_server_stops():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            _, frames, reader = await host_screen(t)
            t.companion.hub.close_game()
            await t.settle()
            await t.companion.stop()
            await asyncio.wait_for(reader, 5)
            assert frames[-1]["t"] == "closed" and not any(f["t"] == "stopped" for f in frames)

    asyncio.run(main())
