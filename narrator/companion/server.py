"""The companion's web side: a Starlette app served by uvicorn inside the live session's loop.

Running in the same loop as the game means the hub reads the game between two awaits, with no
lock and no thread: what a phone is told always matches the state the core is in.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import ipaddress
import json
import logging
import os
import shutil
import socket
import sys
import textwrap
from pathlib import Path
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from . import qr
from ..config import proxy_addresses
from ..flow.events import Deal
from .hub import Hub
from .limits import BACKLOG, PER_ADDRESS, ConnectionLimits, _Bucket, _capped_protocol, raise_file_limit
from .links import HOST_BURST, HOST_RATE
from .logs import _message_failed, _quiet_accept_errors, _stop_logging, quiet_logging
from .transport import Conn

log = logging.getLogger("narrator.companion")
# the server's own logging and uvicorn's: the log file beside the journal, never the table's terminal
server_log = logging.getLogger("narrator.companion.server")
STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = 4096  # bytes: nothing a phone legitimately sends is longer
HELLO_WAIT = 10.0
IDLE_AFTER_GAME = 600.0  # seconds without any phone or host screen after the game: the server closes
LOST_AFTER = 7.0  # seconds without a heartbeat (a page sends one every 2 s): the phone shows as lost

# The pages hold a seat's token in memory: nothing may cache them or leak their address onwards.
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


def build_app(hub: Hub) -> Starlette:
    # the table's language is fixed for the game: the pages carry its words from the first byte,
    # so even "reconnecting…" before any frame is in the players' language
    words = json.dumps(hub.page_words(), ensure_ascii=False).replace("<", "\\u003c")
    pages = {
        name: (STATIC / name).read_text(encoding="utf-8")
        .replace("__LANG__", hub.live.voice.lang)
        .replace("__WORDS__", words)
        for name in ("phone.html", "host.html")
    }

    async def phone(request):
        return HTMLResponse(pages["phone.html"], headers=HEADERS)

    async def host(request):
        return HTMLResponse(pages["host.html"], headers=HEADERS)

    async def favicon(request):
        return Response(status_code=204)

    async def report(request):
        # the game's story, every role revealed: only once the game is over
        from ..report.live import report_html

        page = report_html(hub.live)
        if page is None:
            return Response(status_code=404)
        return HTMLResponse(page, headers=HEADERS)

    async def ws(websocket: WebSocket):
        await websocket.accept()
        conn = Conn()
        conn.addr = websocket.client.host if websocket.client else None
        writer = asyncio.create_task(_write(websocket, conn))
        loop = asyncio.get_running_loop()
        try:
            first = await asyncio.wait_for(_receive(websocket), HELLO_WAIT)
            if first is _GONE:
                return
            if first is None or not hub.hello(conn, first):
                if first is None:
                    hub.refuse("bad hello", None, conn.addr)
                conn.close(4401)
                await writer
                return
            conn.heard = loop.time()
            conn.beats = isinstance(first, dict) and first.get("beat") is True and conn.seat is not None
            bucket = _Bucket(HOST_BURST, HOST_RATE, loop.time()) if conn.host else None
            while not conn.closed:
                try:
                    # a page that beats and falls silent is frozen or gone without a goodbye: the
                    # host screen shows its seat as lost now, not when TCP notices minutes later
                    raw = await asyncio.wait_for(websocket.receive(), LOST_AFTER if conn.beats else None)
                except asyncio.TimeoutError:
                    conn.close(4408)  # said to the page before the hub forgets it (finally)
                    return
                if raw["type"] == "websocket.disconnect":
                    return
                conn.heard = loop.time()
                if bucket is not None and not bucket.take(conn.heard):
                    # a host screen's flood: dropped before it is even parsed
                    hub.refuse("host flood", None)
                    continue
                msg = _parsed(raw)
                if isinstance(msg, dict) and msg.get("t") == "beat":
                    continue
                try:
                    await hub.message(conn, msg)
                except Exception:  # bad input never takes the server down
                    _message_failed(hub)
        except asyncio.TimeoutError:
            hub.refuse("no hello", None, conn.addr)
        finally:
            by_hub = conn.closed  # before `gone`, which marks every connection closed
            hub.gone(conn)
            if not writer.done():
                if by_hub:
                    # closed by the hub (another phone took the seat, lost, flooding): its close
                    # code still goes out, so the page says why rather than reconnect blindly
                    with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                        await asyncio.wait_for(writer, 1.0)
                writer.cancel()

    app = Starlette(
        routes=[
            Route("/", phone),
            Route("/host", host),
            Route("/favicon.ico", favicon),
            Route("/report", report),
            WebSocketRoute("/ws", ws),
        ]
    )
    return OwnOrigin(app, hub)


def own_names(hub: Hub) -> set[str]:
    """The host names the server answers to besides IP addresses: this machine's own name for
    itself, and the name in the phones' links ([companion] public_url). A page that reached this
    port under any other name came through DNS rebinding."""
    names = {"localhost", *_machine_names()}
    name = urlsplit(hub.base_url or "").hostname
    if name:
        names.add(name.lower())
    return names


@functools.lru_cache(maxsize=1)
def _machine_names() -> tuple[str, ...]:
    """This machine's own name, and its name on the local network (mDNS): no rebinding in those."""
    with contextlib.suppress(OSError):
        name = socket.gethostname().lower().rstrip(".")
        if name:
            return (name, name + ".local") if "." not in name else (name,)
    return ()


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        return False


class OwnOrigin:
    """Every request must name this server as its Host (an IP address, localhost or the links'
    own name), and every WebSocket and every request that could change something must come from a
    page of this very server (its Origin the same scheme, host and port): a page from another
    port, a local file or a rebound DNS name opens no socket here and changes nothing."""

    SAFE = ("GET", "HEAD")

    def __init__(self, app, hub: Hub):
        self.app = app
        self.hub = hub

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        why = self._refused(scope, headers)
        if why is None:
            return await self.app(scope, receive, send)
        client = scope.get("client")
        server_log.info("refused: %s", why, extra={"cause": why, "peer": client[0] if client else "?"})
        if scope["type"] == "websocket":
            await receive()  # websocket.connect; a close before accept is an HTTP 403
            await send({"type": "websocket.close", "code": 1008})
            return
        await Response("", status_code=403, headers=HEADERS)(scope, receive, send)

    def _refused(self, scope, headers) -> str | None:
        host = headers.get("host", "")
        name = urlsplit("//" + host).hostname if host else None
        if not name or not (_is_ip(name) or name.lower() in own_names(self.hub)):
            return "foreign host"
        if scope["type"] == "http" and scope.get("method", "GET") in self.SAFE:
            return None
        origin = headers.get("origin")
        if origin is None or origin == "null":
            return "no origin"
        own = urlsplit(origin)
        if own.scheme not in ("http", "https") or own.netloc.lower() != host.lower():
            # a reverse proxy ([companion] public_url) may hand on another Host: its own origin is ours too
            public = urlsplit(self.hub.base_url or "")
            if not (public.netloc and own.scheme == public.scheme and own.netloc.lower() == public.netloc.lower()):
                return "foreign origin"
        return None


_GONE = object()


async def _receive(websocket: WebSocket):
    """The next message as a dict (None when it is not valid JSON), or _GONE when closed."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return _GONE
    return _parsed(message)


def _parsed(message: dict):
    text = message.get("text")
    if text is None:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


async def _write(websocket: WebSocket, conn: Conn) -> None:
    try:
        while True:
            item = await conn.queue.get()
            if isinstance(item, tuple):
                await websocket.close(item[1])
                return
            await websocket.send_text(item)
    except Exception:  # the socket went away; the reader notices and cleans up
        conn.closed = True


class _Server(uvicorn.Server):
    # `narrator play` owns Ctrl-C; uvicorn must not take over the process's signal handlers
    @contextlib.contextmanager
    def capture_signals(self):
        yield


class Companion:
    """The running companion: `await handle.stop()` shuts it down."""

    def __init__(self, hub: Hub, server: _Server, task: asyncio.Task, sock: socket.socket, base: str):
        self.hub = hub
        self.server = server
        self.task = task
        self.sock = sock
        self.port = sock.getsockname()[1]
        self.base_url = base
        self.urls = {s: qr.seat_url(base, t) for s, t in hub.seat_tokens.items()}
        self.host_url = f"{base}/host"
        self.pin = hub.pin
        self.seats_page: Path | None = None
        self.seats_page_temporary = True
        self.loopback_host_url = f"http://{'[::1]' if sock.family == socket.AF_INET6 else '127.0.0.1'}:{self.port}/host"
        # the link the terminal prints: it carries the host's key (after #, so no request, log or
        # Referer carries it), and opens the host screen on this machine with nothing to type
        self.host_link = f"{self.loopback_host_url}#{hub.host_key}"
        self.log_handler: logging.Handler | None = None
        self.pin_file: Path | None = None

    async def started(self) -> None:
        while not self.server.started and not self.task.done():
            await asyncio.sleep(0.01)

    async def wait_for_table(self, timeout: float | None = None) -> bool:
        """Until every seat has joined on a phone or the host pressed Start; False on timeout.

        Deal after this, so that night zero does not start while players are still scanning.
        """
        try:
            await asyncio.wait_for(self.hub.table_ready.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    async def deal_when_ready(self, events, journaled: bool = False) -> None:
        """Show the deal on the phones, wait until every seat is ready (or the host starts), then
        give it to the core: night zero begins. `journaled`: the deal was journaled when it was
        shown; the start of the game is noted as every seat having seen its role, so that a resume
        after it goes on with night zero, and one before it asks Ready again on this very deal."""
        deal = next((e for e in events if isinstance(e, Deal)), None)
        if deal is not None:
            self.hub.show_deal(None if deal.cards else dict(deal.roles), cards=deal.cards)
            await self.hub.all_ready.wait()
        live = self.hub.live
        if not journaled:
            for ev in events:
                live.submit_event(ev, source="companion")
            return

        def begin() -> None:  # on the loop, in turn with every other input
            if live.journal is not None:
                for seat in range(1, self.hub.config.seats + 1):
                    live.journal.revealed(seat)
            live.apply_journaled(events)

        live.submit_control(begin)

    async def keep_result(self, live, console=None, limit: float | None = None, idle: float = IDLE_AFTER_GAME) -> None:
        """After the game: serve the result until the host closes it, `quit` is typed, nobody has been
        connected for `idle` seconds, or `limit` seconds have passed ([companion] keep_result)."""
        hub = self.hub
        limit = float(hub.config.section("companion")["keep_result"]) if limit is None else limit
        if console is not None:
            console.print(hub.word("announce_result"))
        loop = asyncio.get_running_loop()
        end = loop.time() + limit
        last_seen = loop.time()

        typed = asyncio.ensure_future(live.until_quit())
        closed = asyncio.ensure_future(hub.closed.wait())
        try:
            while loop.time() < end and not typed.done() and not closed.done():
                if hub.phones or hub.hosts:
                    last_seen = loop.time()
                elif loop.time() - last_seen > idle:
                    break
                await asyncio.wait({typed, closed}, timeout=min(1.0, max(0.01, end - loop.time())))
        finally:
            typed.cancel()
            closed.cancel()
        if not hub.closed.is_set():
            hub.close_game()
        await asyncio.sleep(0.2)  # let the "closed" frames leave before the server stops

    async def stop(self) -> None:
        self.hub.game_stopped()
        # the host screens' last frame goes out before the server closes their connections
        end = asyncio.get_running_loop().time() + 0.5
        while any(not c.queue.empty() for c in self.hub.hosts) and asyncio.get_running_loop().time() < end:
            await asyncio.sleep(0.01)
        self.server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, SystemExit):
            await asyncio.wait_for(asyncio.shield(self.task), 5)
        with contextlib.suppress(ValueError):
            self.hub.live.outputs.remove(self.hub)
        self.sock.close()
        self.remove_seats_page()
        if self.log_handler is not None:
            _stop_logging(self.log_handler)
            self.log_handler = None

    def remove_seats_page(self) -> None:
        """The printable cards hold links: they go when the game does (a spent link opens nothing,
        but an unused one would)."""
        if self.seats_page is not None and self.seats_page_temporary:
            with contextlib.suppress(OSError):
                self.seats_page.unlink()
            self.seats_page = None

    def announce(self, out=None, qr_codes: bool = True) -> None:
        """The join QR codes and the host screen's address for the narrator's terminal."""
        out = out or sys.stdout
        word = self.hub.word  # the table's language, like everything else the table reads
        if qr_codes:
            for seat in sorted(self.urls):
                if self.hub.seat_tokens.get(seat) in self.hub.spent:
                    continue  # resumed: that seat's phone comes back with its own key; a spent code opens nothing
                out.write(f"{word('announce_seat', seat=seat)}\n{qr.terminal_qr(self.urls[seat])}\n")
        line = functools.partial(_say_wrapped, out)
        if self.seats_page is not None:
            line(word("announce_cards", path=self.seats_page))
        # the PIN is never printed where the table can read it: on this machine the link opens the
        # host screen (it carries the host's key), and for a tablet the PIN is in a file only this
        # user can read
        line(word("announce_host", url=self.host_link))
        if self.pin_file is not None:
            line(word("announce_host_remote", url=self.host_url, path=self.pin_file))
        else:
            line(word("announce_host_pin_set", url=self.host_url))
        if self.hub.game.phase() == "setup":
            # resumed past the deal, night zero does not wait for anybody's Ready any more
            line(word("announce_ready"))
        out.flush()


def _say_wrapped(out, text: str) -> None:
    """One announcement on the narrator's terminal, wrapped between words at its width: the
    terminal itself would cut "host" in two at the edge. A link or a path is never cut (it must
    stay one piece to be clicked or copied); piped or captured, a line stays one line."""
    isatty = getattr(out, "isatty", None)
    width = shutil.get_terminal_size().columns if isatty is not None and isatty() else 0
    if width > 20:
        text = "\n".join(textwrap.wrap(text, width - 1, break_long_words=False, break_on_hyphens=False)) or text
    out.write(text + "\n")


def _cards_not_written(config, exc: OSError) -> str:
    from ..config import ConfigProblem, locate, shown

    given = config.section("companion")["seats_page"]
    reason = exc.strerror or str(exc)
    if exc.filename and str(exc.filename) != str(Path(given).expanduser()):
        reason += f" ({exc.filename})"  # mkdir of the folder failed: a file is in the way, say which
    if not given:
        return f"the page of seat cards cannot be written to a temporary file: {reason} — the QR codes below still join the phones"
    return str(ConfigProblem(config.path, locate(config.text, ("companion", "seats_page")), "companion.seats_page",
                             f"the page of seat cards cannot be written to {shown(given)}: {reason} — the QR codes "
                             "below still join the phones; choose a file you can write, or leave it empty"))


def _cards_reissued(config, handle: Companion, hub: Hub, seat: int) -> str | None:
    """A seat's link re-issued mid-game: the printed page shows that seat's new card, every other
    card as it was (the same bytes: its link is the same). A page that cannot be written is said to
    the host who asked, and logged; the game and the new QR code on his screen go on."""
    handle.urls[seat] = qr.seat_url(handle.base_url, hub.seat_tokens[seat])
    if handle.seats_page is None:
        return None  # no page was written for this game (it could not be, and the table was told)
    try:
        qr.rewrite_seats_page(handle.seats_page, qr.seats_page(handle.urls, config.players, hub.word, config.language))
    except OSError as exc:
        reason = hub.word("host_cards_not_ours") if isinstance(exc, qr.NotOurs) else exc.strerror or str(exc)
        log.warning("%s", hub.said("companion_cards_not_rewritten", path=str(handle.seats_page), seat=seat, reason=reason))
        return hub.word("host_cards_not_updated", path=str(handle.seats_page), reason=reason)
    return None


def _secrets_file(live) -> tuple[Path, object] | None:
    """Where this game's seat tokens are kept beside its journal, and the journal's identity."""
    journal = getattr(live, "journal", None)
    path = getattr(journal, "path", None)
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            started = json.loads(f.readline()).get("started")
    except (OSError, ValueError, AttributeError):
        return None
    return Path(str(path) + ".companion"), started


def _kept_secrets(config, live) -> dict:
    """The tokens and PIN of this very game when it is resumed: the phones reconnect by themselves."""
    where = _secrets_file(live)
    if where is None or not where[0].exists():
        return {}
    try:
        kept = json.loads(where[0].read_text(encoding="utf-8"))
        tokens = {int(s): t for s, t in kept["tokens"].items()}
        keys = {int(s): k for s, k in kept.get("keys", {}).items()}
        spent, revoked = list(kept.get("spent", [])), list(kept.get("revoked", []))
        host_key = kept.get("host_key") if isinstance(kept.get("host_key"), str) else None
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return {}
    if kept.get("started") != where[1] or sorted(tokens) != list(range(1, config.seats + 1)):
        return {}  # another game's cards must not open this one
    # the phones that joined keep their seats by their device keys; spent links stay spent
    page = kept.get("seats_page")
    return {"tokens": tokens, "pin": kept.get("pin"), "keys": keys, "spent": spent, "revoked": revoked,
            "page": page if isinstance(page, str) else None, "host_key": host_key}


def _seat_cards(config, urls: dict[int, str], hub: Hub, kept: str | None) -> Path:
    """The printable seat cards. A resumed game keeps its links (its tokens are kept), so the
    page it wrote before the crash holds the very cards the table printed: it is kept as it is —
    not written again, and no second copy of it made in the temporary folder beside the first,
    which a killed process never removed. Written anew only where it is gone, or where its cards
    are no more this game's links (a seat's link re-issued before the crash)."""
    if kept:
        old = Path(kept)
        try:
            ours = qr.is_ours(os.lstat(old))
            if ours and old.read_text(encoding="utf-8") == qr.seats_page(urls, config.players, hub.word, config.language):
                return old
            if ours and not config.section("companion")["seats_page"]:
                old.unlink()  # a temporary page of links that open nothing any more
        except (OSError, UnicodeDecodeError):
            pass
    return qr.write_seats_page(config, urls, hub.word)


def _keep_secrets(live, hub: Hub) -> None:
    where = _secrets_file(live)
    if where is None:
        return
    data = {"started": where[1], "tokens": {str(s): t for s, t in hub.seat_tokens.items()}, "pin": hub.pin,
            "keys": {str(s): k for s, k in hub.device_keys.items()}, "spent": sorted(hub.spent),
            "revoked": sorted(hub.revoked), "seats_page": hub.cards_page, "host_key": hub.host_key}
    # written beside it and renamed over it: a kill -9 mid-write, or a reader (a resume) at that
    # moment, finds the whole of the old file or of the new one, never an empty one
    part = where[0].with_name(where[0].name + ".part")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(part, where[0])
    except OSError as exc:
        with contextlib.suppress(OSError):
            part.unlink()
        # a full or read-only disk must not keep the phones out of this game; the journal will
        # stop the game itself if it cannot be written. Only a resume would need new codes.
        log.warning("%s", hub.said("companion_codes_not_kept", reason=str(exc.strerror or exc)))


def bound_socket(host: str, port: int) -> socket.socket:
    """The companion's socket bound to host:port (OSError when it cannot be: the port taken, the
    address not this machine's). `narrator play` binds one first as a probe, before anything is
    written, so the phones that cannot join are said before a game begins."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def start(config, live, *, host: str | None = None, port: int | None = None, announce: bool = True, out=None) -> Companion:
    """Serve the companion in the running loop of `live`; returns the handle (stop with `await handle.stop()`).

    Binds synchronously, so a taken port fails here with OSError rather than later in a task.
    """
    section = config.section("companion")
    host = section["host"] if host is None else host
    port = section["port"] if port is None else port
    loop = live.loop or asyncio.get_running_loop()
    keep = _kept_secrets(config, live)
    hub = Hub(config, live, pin=keep.get("pin"), tokens=keep.get("tokens"), keys=keep.get("keys"),
              spent=keep.get("spent", ()), revoked=keep.get("revoked", ()), host_key=keep.get("host_key"))
    _keep_secrets(live, hub)
    hub.on_secrets = lambda: _keep_secrets(live, hub)
    sock = bound_socket(host, port)
    sock.listen(BACKLOG)
    sock.setblocking(False)
    files = raise_file_limit()
    # room for the descriptors the process has anyway and for a burst being accepted before the
    # refusals catch up (up to a backlog at a time, a couple of loop turns)
    total = max(64, files - 2 * BACKLOG - 64)
    limits = ConnectionLimits(min(PER_ADDRESS, total // 2), total, hub.said)  # one address never takes them all
    _quiet_accept_errors(loop, hub.said)
    log_handler = quiet_logging(live)
    proxies = proxy_addresses(config.section("companion")["trusted_proxies"]) or []
    uv = uvicorn.Config(
        build_app(hub),
        http=_capped_protocol(limits),
        # the kernel queues this many unaccepted connections; more wait in the clients' retries.
        # uvicorn's 2048 would let one burst of sockets use up every descriptor before any is refused
        backlog=BACKLOG,
        log_level="warning",
        log_config=None,  # uvicorn's own would print onto the table's terminal: quiet_logging has its lines
        access_log=False,
        # the address of whoever connects is the peer's own: an X-Forwarded-For header, which anybody
        # can send, would give one guesser as many addresses (and PIN tries) as he likes — unless it
        # comes from a reverse proxy the club named ([companion] trusted_proxies), which writes it
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        lifespan="off",
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE,
        # compressed sizes would tell a check result from a dummy: frames go out uncompressed
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=1,
    )
    server = _Server(uv)
    task = loop.create_task(server.serve(sockets=[sock]))
    live.outputs.append(hub)
    from ..report.live import attach_recorder

    attach_recorder(live)  # the game's story for /report, also when there is no journal to read
    handle = Companion(hub, server, task, sock, qr.base_url(config, host, sock.getsockname()[1]))
    handle.limits = limits
    handle.log_handler = log_handler
    hub.base_url = handle.base_url
    where = _secrets_file(live)
    handle.pin_file = where[0] if where is not None else None
    handle.seats_page_temporary = not config.section("companion")["seats_page"]
    if announce:
        try:
            handle.seats_page = _seat_cards(config, handle.urls, hub, keep.get("page"))
            hub.cards_page = str(handle.seats_page)
            _keep_secrets(live, hub)  # a resume finds this page, and keeps it
        except OSError as exc:
            # the printable cards are a convenience: the QR codes in the terminal join the phones
            # all the same, so the game goes on, told which file and which key to change
            (out or sys.stderr).write(_cards_not_written(config, exc) + "\n")
        hub.on_reissue = lambda seat: _cards_reissued(config, handle, hub, seat)
        handle.announce(out)
        # the cards hold links: they go when the game is over, and at the latest when the process exits
        hub.on_game_over = handle.remove_seats_page
        atexit.register(handle.remove_seats_page)
    return handle
