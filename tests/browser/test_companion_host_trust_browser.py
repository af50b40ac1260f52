"""The host's seat in real headless Chromium on the narrator's laptop: a page of another origin —
served from another port, or a local file a player hands over — can neither read the host's frames
nor change anything (issue 37: it used to sign the Sheriff's phone off and read his new link). The
terminal's link opens the host screen with nothing to type and leaves the address bar at once; the
same page without it asks for the PIN, as a tablet does.

Screenshots go to $NARRATOR_SHOTS (default: a temporary folder).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from chromium import PHONE, expect, launched, need_browser

SHERIFF = 4
SHOTS = Path(os.environ.get("NARRATOR_SHOTS") or tempfile.mkdtemp(prefix="narrator-host-trust-"))

# what the hostile page tries: the host's seat without a secret, then the host's buttons
ATTACK = """
<!doctype html><meta charset="utf-8"><title>a game of cards</title><body><script>
window.seen = []; window.opened = false; window.closed = null;
const ws = new WebSocket("ws://127.0.0.1:%(port)d/ws");
ws.onopen = () => {
  window.opened = true;
  ws.send(JSON.stringify({t: "host"}));
  for (const m of [{t: "reissue", seat: 4}, {t: "pause"}, {t: "start"}, {t: "defeat", seat: 4}])
    ws.send(JSON.stringify(m));
};
ws.onmessage = (e) => window.seen.push(e.data);
ws.onclose = (e) => { window.closed = e.code; };
fetch("http://127.0.0.1:%(port)d/host", {method: "POST", mode: "no-cors", body: "x"}).catch(() => {});
</script>
"""


async def serve_elsewhere(html: str) -> asyncio.base_events.Server:
    """A web server on another port of the same laptop, serving the hostile page."""
    async def answer(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        body = html.encode()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        await writer.drain()
        writer.close()

    return await asyncio.start_server(answer, "127.0.0.1", 0)


def test_a_page_of_another_origin_on_the_laptop_neither_reads_nor_changes_the_game(tmp_path):
    need_browser()

    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t, launched() as browser:
            hub = t.companion.hub
            sheriff = Phone(t.ws_url, hub.seat_tokens[SHERIFF])
            await sheriff.join()
            token = hub.seat_tokens[SHERIFF]
            page = ATTACK % {"port": t.companion.port}
            elsewhere = await serve_elsewhere(page)
            local = tmp_path / "cards.html"
            local.write_text(page)
            try:
                for url in (f"http://127.0.0.1:{elsewhere.sockets[0].getsockname()[1]}/", local.as_uri()):
                    tab = await (await browser.new_context()).new_page()
                    await tab.goto(url)
                    await tab.wait_for_function("() => window.closed !== null", timeout=10_000)
                    assert not await tab.evaluate("() => window.opened"), f"{url}: a socket opened"
                    assert await tab.evaluate("() => window.seen") == [], f"{url}: it read a frame"
                    await tab.context.close()
            finally:
                elsewhere.close()
            await t.settle()
            assert not hub.hosts
            assert hub.seat_tokens[SHERIFF] == token and hub.phones.get(SHERIFF) is not None, "the Sheriff keeps his seat"
            assert t.live.game.state == "setup" and not t.live.paused and not hub.table_ready.is_set()

            # the terminal's link: the host screen at once, and its key leaves the address bar
            laptop = await (await browser.new_context(viewport={"width": 1280, "height": 800})).new_page()
            await laptop.goto(t.host_link)
            await expect(laptop.get_by_test_id("state")).not_to_be_empty()
            assert "#" not in laptop.url and hub.host_key not in laptop.url
            await laptop.reload()  # the key stays with this tab
            await expect(laptop.get_by_test_id("state")).not_to_be_empty()
            await laptop.screenshot(path=str(SHOTS / "host-by-link.png"))
            # the same address without the key (a tablet's QR code): the PIN is asked for, and opens it
            tablet = await (await browser.new_context(viewport=PHONE)).new_page()
            await tablet.goto(t.host_link.split("#")[0])
            await expect(tablet.get_by_test_id("pin")).to_be_visible()
            await tablet.screenshot(path=str(SHOTS / "host-asks-pin.png"))
            await tablet.get_by_test_id("pin").fill(hub.pin)
            await tablet.get_by_test_id("login").click()
            await expect(tablet.get_by_test_id("state")).not_to_be_empty()
            await until(lambda: len(hub.hosts) == 2, what="both host screens")
            await sheriff.close()

    SHOTS.mkdir(parents=True, exist_ok=True)
    asyncio.run(main())
