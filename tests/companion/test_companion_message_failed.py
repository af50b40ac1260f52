"""A message that fails inside the companion (a bug, not bad input: bad input is refused) must not
take the server down, and must not print an English traceback on the table's terminal under the
line in the table's language. The terminal gets the one line, and where the details are: the
developer's log beside the journal (`<journal>.log`, readable by its user only), which holds the
traceback."""

from __future__ import annotations

import asyncio
import logging
import stat
from types import SimpleNamespace

from narrator.companion.testing import Phone, Table, until
from narrator.config import parse_config

SWEDISH = 'variant = "sverige"\nlanguage = "sv"\nseats = 10\n[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n'


def failing(hub):
    async def message(conn, msg):
        raise RuntimeError("a bug in the companion")
    hub.message = message


def test_the_table_reads_one_line_in_its_language_and_the_traceback_goes_to_the_developer_log(tmp_path, caplog):
    async def main():
        async with Table(parse_config(SWEDISH)) as t:
            t.live.journal = SimpleNamespace(path=tmp_path / "game.jsonl")
            hub = t.companion.hub
            failing(hub)
            phone = Phone(t.ws_url, hub.seat_tokens[3])
            await phone.join()
            with caplog.at_level(logging.WARNING, logger="narrator.companion"):
                await phone.send({"t": "tap", "seat": 3, "n": 1, "epoch": phone.screen["epoch"]})
                await until(lambda: any("misslyckades" in r.getMessage() for r in caplog.records), what="the line")
            log = tmp_path / "game.jsonl.log"
            line = next(r for r in caplog.records if "misslyckades" in r.getMessage())
            assert line.getMessage() == ("companion: ett meddelande misslyckades (servern fortsätter); "
                                         f"detaljer för utvecklare i {log}")
            assert line.exc_info is None and line.levelno == logging.WARNING, "no traceback on the table's terminal"
            text = log.read_text(encoding="utf-8")
            assert "Traceback" in text and "RuntimeError: a bug in the companion" in text
            assert stat.S_IMODE(log.stat().st_mode) == 0o600
            # the server goes on: the same phone is still answered
            await phone.send({"t": "tap", "seat": 3, "n": 2, "epoch": phone.screen["epoch"]})
            await until(lambda: len([r for r in caplog.records if "misslyckades" in r.getMessage()]) == 2)
            assert log.read_text(encoding="utf-8").count("Traceback") == 2

    asyncio.run(main())


def test_without_a_journal_the_line_stands_alone_and_no_traceback_is_printed(caplog):
    async def main():
        async with Table(parse_config(SWEDISH)) as t:
            hub = t.companion.hub
            failing(hub)
            phone = Phone(t.ws_url, hub.seat_tokens[3])
            await phone.join()
            with caplog.at_level(logging.WARNING, logger="narrator.companion"):
                await phone.send({"t": "tap", "seat": 3, "n": 1, "epoch": phone.screen["epoch"]})
                await until(lambda: any("misslyckades" in r.getMessage() for r in caplog.records), what="the line")
            line = next(r for r in caplog.records if "misslyckades" in r.getMessage())
            assert line.getMessage() == "companion: ett meddelande misslyckades (servern fortsätter)"
            assert line.exc_info is None
            assert all(r.exc_info is None for r in caplog.records if r.levelno >= logging.WARNING)

    asyncio.run(main())
