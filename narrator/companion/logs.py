"""What the companion writes down, and where: the table's terminal reads one line in its language;
the server's own lines and uvicorn's go to a rotated log file beside the journal (one line per
cause and address per interval, readable by your user only); a traceback to the developer's log.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("narrator.companion")
# the server's own logging and uvicorn's: the log file beside the journal, never the table's terminal
server_log = logging.getLogger("narrator.companion.server")
LOG_INTERVAL = 60.0  # seconds: the log file takes one line per cause and address this often
LOG_BYTES, LOG_KEEP = 1_000_000, 3  # the log file is rotated at this size, this many old ones kept


def developer_log(live) -> Path | None:
    """The file beside the game's journal where the companion puts what only a developer reads
    (a traceback): `<journal>.log`, readable by your user only. None without a journal."""
    path = getattr(getattr(live, "journal", None), "path", None)
    return Path(str(path) + ".log") if path is not None else None


def _message_failed(hub: Hub) -> None:
    """A phone's or host screen's message that failed inside the server. The table's console gets
    one line in its language and where the details are; the traceback, English and long, goes to
    the developer's log beside the journal, never under that line on the table's screen (and to the
    `narrator.companion` logger at debug level, for a test or a developer who turns it on)."""
    detail = traceback.format_exc()
    log.debug("companion message failed", exc_info=True)
    path = developer_log(hub.live)
    if path is not None:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as f:
                f.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} companion: a message failed\n{detail}\n")
        except OSError:
            path = None
    if path is None:
        log.warning("%s", hub.said("companion_message_failed"))
    else:
        log.warning("%s", hub.said("companion_message_failed_logged", path=str(path)))


class _OncePerInterval(logging.Filter):
    """One line per cause and address per LOG_INTERVAL in the log file (the next one says how
    many were left out), each on one line: a flood of garbage cannot fill the disk."""

    def __init__(self, interval: float = LOG_INTERVAL):
        super().__init__()
        self.interval = interval
        self.due: dict[tuple, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        peer = getattr(record, "peer", "-")
        text = record.getMessage()
        key = (getattr(record, "cause", None) or text[:100], peer)
        now = time.monotonic()
        due, held = self.due.get(key, (0.0, 0))
        if now < due:
            self.due[key] = (due, held + 1)
            return False
        if len(self.due) > 10000:
            self.due = {k: v for k, v in self.due.items() if v[0] > now}
            if len(self.due) > 10000:
                self.due.clear()
        self.due[key] = (now + self.interval, 0)
        if record.exc_info and record.name.startswith("uvicorn"):
            # uvicorn's traceback of a client's bad bytes says nothing about the game: its line is enough
            text += f" ({record.exc_info[1]!r})"
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        record.msg, record.args = " ".join(text.split()) + (f" (and {held} more since)" if held else ""), None
        record.peer = peer
        return True


class _PrivateRotatingFile(logging.handlers.RotatingFileHandler):
    """A rotated log file readable by your user only, the new one after each rotation too."""

    def _open(self):
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)
_log_handlers: list[logging.Handler] = []


def quiet_logging(live) -> logging.Handler:
    """The server's own lines and uvicorn's go to the log file beside the journal (rotated),
    never to the table's terminal: whatever a device on the network sends, the terminal shows
    the game. Without a journal they go nowhere."""
    path = developer_log(live)
    handler: logging.Handler = logging.NullHandler()
    if path is not None:
        try:
            handler = _PrivateRotatingFile(path, maxBytes=LOG_BYTES, backupCount=LOG_KEEP, encoding="utf-8", delay=True)
        except OSError:
            handler = logging.NullHandler()
    handler.addFilter(_OncePerInterval())
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s [%(peer)s] %(message)s"))
    for name, level in (("narrator.companion.server", logging.INFO), ("uvicorn", logging.WARNING)):
        logger = logging.getLogger(name)
        logger.propagate = False
        logger.setLevel(level)
        logger.addHandler(handler)
    _log_handlers.append(handler)
    return handler


def _stop_logging(handler: logging.Handler) -> None:
    for name in ("narrator.companion.server", "uvicorn"):
        logging.getLogger(name).removeHandler(handler)
    with contextlib.suppress(ValueError):
        _log_handlers.remove(handler)
    if not _log_handlers:
        # no server runs: nothing of it may reach the terminal, but a later server's handler is fresh
        for name in ("narrator.companion.server", "uvicorn"):
            logging.getLogger(name).addHandler(logging.NullHandler())
    handler.close()


def _english(key: str, **args) -> str:
    from ..language import load_voice

    return load_voice("en").console_text(key, args)


def _quiet_accept_errors(loop, said=_english) -> None:
    """Out of descriptors, asyncio logs a traceback for every refused accept (and retries a second
    later): one warning line every few seconds says the same."""
    previous = loop.get_exception_handler()
    last = [-1e9]

    def handler(loop, context):
        if context.get("message", "").startswith("socket.accept() out of system resource"):
            if loop.time() - last[0] > 5:
                last[0] = loop.time()
                server_log.warning("%s", said("companion_out_of_descriptors", error=str(context.get("exception"))),
                                   extra={"cause": "out of descriptors", "peer": "-"})
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
