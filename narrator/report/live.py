"""The report at game over: written beside the journal, its game added to the club's record, and
served to the phones and the host screen by the companion."""

from __future__ import annotations

import time
from pathlib import Path

from .reader import GameRecord, ReadError, read_game, table_entry


class Recorder:
    """An output that keeps the game's records as they happen (with the time), for a live game
    without a journal to read them back from."""

    def __init__(self, live):
        self.live = live
        self.entries: list[dict] = []

    def handle(self, effect, text) -> None:
        from ..flow.effects import Record, Timer

        if isinstance(effect, Record):
            self.entries.append({**effect.entry, "t": round(time.time(), 3)})
        elif isinstance(effect, Timer):
            self.entries.append({"type": "timer", "name": effect.name, "seconds": effect.seconds, "t": round(time.time(), 3)})


def attach_recorder(live) -> None:
    if getattr(live, "_report_recorder", None) is None:
        live._report_recorder = Recorder(live)
        live.outputs.append(live._report_recorder)


def _record(live) -> GameRecord | None:
    journal = getattr(live, "journal", None)
    path = getattr(journal, "path", None)
    if path is not None:
        try:
            return read_game(path, live.config)
        except (ReadError, OSError):
            pass
    recorder = getattr(live, "_report_recorder", None)
    if recorder is not None and recorder.entries:
        entries = list(recorder.entries)
        if not any(e.get("type") == "game_start" for e in entries):  # attached after the start
            cfg = live.config
            entries.insert(0, {"type": "game_start", "variant": cfg.variant.name, "seats": cfg.seats, "timers": cfg.timers})
        return GameRecord("<live game>", entries, language=live.config.language, players=dict(live.config.players))
    return None


def report_html(live) -> str | None:
    """The finished game's page, for the companion's /report (None while the game is on)."""
    if live.game.state != "over":
        return None
    cached = getattr(live, "_report_html", None)
    if cached is None:
        from .page import render

        record = _record(live)
        if record is None:
            return None
        cached = live._report_html = render(record, getattr(live, "_rating_changes", None))
    return cached


def finish(live) -> tuple[list[str], list[str]]:
    """At game over: the protocol and the report beside the journal, and the game in the club's
    record. Returns (paths written, warnings); nothing here may stop the end of the game."""
    from .. import protocol
    from .page import render

    written: list[str] = []
    warnings: list[str] = []
    record = _record(live)
    if record is None or not record.finished or getattr(live, "journal", None) is None:
        return written, warnings
    journal = Path(live.journal.path)
    started = time.localtime(record.started or time.time())
    if journal.stem.startswith(time.strftime("%Y-%m-%d", started)):
        base = journal.with_suffix("")  # each game's own journal, named by its start: the report beside it
    else:  # a journal file used for game after game: the report carries the game's start
        base = journal.with_name(f"{journal.stem}-{time.strftime('%Y%m%d-%H%M%S', started)}")
    # the club's record first: the page shows how this game moved every rating
    changes = _to_club(live, record, warnings)
    if changes:
        live._rating_changes = changes
        live._report_html = None
    try:
        proto = base.with_suffix(".protocol.jsonl")
        with proto.open("w", encoding="utf-8") as fh:
            protocol.write([table_entry(record.language, record.players, record.started)] + record.entries, fh)
        page = base.with_suffix(".html")
        tmp = page.with_name(page.name + ".tmp")
        tmp.write_text(render(record, changes), encoding="utf-8")
        tmp.replace(page)
        written += [str(page), str(proto)]
    except OSError as exc:
        warnings.append(f"{base}: the report could not be written: {exc.strerror or exc}")
    return written, warnings


def _to_club(live, record: GameRecord, warnings: list[str]) -> dict | None:
    """The game into the club's record (its server, or the outbox while the server is away), and
    how it moved each seat's rating; a sentence in the table's language when it could not go."""
    from .. import club

    cfg = live.config
    voice = getattr(live, "voice", None)

    def said(name: str, args: dict) -> str:
        try:
            return voice.cli_text(name, args)
        except Exception:  # no voice (a test's bare live game): English
            from ..language import load_voice

            return load_voice("en").cli_text(name, args)

    target = club.database_target(cfg)
    if club.is_server(target) and not club.has_driver():
        warnings.append(said("club_no_driver", {"server": club.shown_target(target)}))
    try:
        row = club.game_row(record)
        _, _, kept = club.send(target, [row], cfg)
        if kept:
            warnings.append(said("club_kept_locally", {"server": club.shown_target(target),
                                                       "outbox": str(club.outbox_path(cfg)), "n": kept}))
            return None
        with club.connect(target) as conn:
            return club.rating_changes(conn, row.hash, cfg)
    except Exception as exc:  # a locked-out or damaged club file must not spoil the end of the game
        warnings.append(said("club_not_updated", {"error": str(exc).strip() or type(exc).__name__}))
        return None
