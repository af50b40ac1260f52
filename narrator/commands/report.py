"""`narrator report GAME`: the game's story as one HTML page, and how it moved the club's ratings."""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console
from rich.markup import escape

err = Console(stderr=True, highlight=False, soft_wrap=True)


def _tell_user(kind: str, text: str, voice=None) -> None:
    # a file name or a player's name is never read as markup; the label in the game's language
    label = voice.cli_text(kind) if voice is not None else kind
    err.print(f"[{'red' if kind == 'error' else 'yellow'}]{escape(label)}[/] ", end="")
    err.print(text, markup=False)


def _voice(language: str | None):
    """The voice of the game's language where it is known (None: English)."""
    from ..language import LANGUAGES, load_voice

    if language not in LANGUAGES:
        return None
    try:
        return load_voice(language)
    except (OSError, ValueError):  # a voice file missing or broken: told in English
        return None


def named_config(path: str | None):
    """The config --config names (None when it names none), and whether it could be read: its
    problems are printed here, each in the language the config names."""
    from ..config import ConfigError, load_config

    if path is None:
        return None, True
    try:
        return load_config(path), True
    except ConfigError as exc:
        voice = exc.voice()
        for p in exc.problems:
            _tell_user("error", p.text(voice), voice)
        return None, False


def club_changes(record, cfg) -> dict | None:
    """How the game moved each rating, when the club's record holds it (None: it does not, or
    the record cannot be reached — the page is written without that section)."""
    from .. import club

    target = club.database_target(cfg)
    if not club.is_server(target) and not Path(target).exists():
        return None
    try:
        game = record.content_hash()
        with club.connect(target) as conn:
            if conn.execute("SELECT 1 FROM games WHERE hash = ?", (game,)).fetchone() is None:
                return None
            return club.rating_changes(conn, game, cfg)
    except Exception:
        return None


def write_report(record, out: Path, cfg=None) -> Path:
    from ..report import render

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(render(record, club_changes(record, cfg)), encoding="utf-8")
    os.replace(tmp, out)
    return out


def cmd_report(args) -> int:
    from ..report import ReadError, read_game
    from ..report.reader import why

    cfg, ok = named_config(args.config)
    if not ok:
        return 2
    try:
        record = read_game(args.game, cfg)
    except ReadError as exc:
        # the game's language where it is known: --config's, or the one the journal's config names
        voice = _voice(cfg.language if cfg is not None else exc.language)
        _tell_user("error", exc.told(voice), voice)
        return 2
    # the journal's config, --config or the protocol's table line says the language; a protocol
    # whose narration names none is told in English, as its report is written
    voice = _voice(record.language)
    for p in record.problems:
        unfinished = not record.finished and (p.reason.name or "").startswith("report_unfinished")
        _tell_user("note" if unfinished else "error", p.told(voice), voice)
    out = Path(args.output) if args.output else Path(args.game).with_suffix(".html")
    try:
        write_report(record, out, cfg)
    except OSError as exc:
        error = str(exc.strerror or exc)
        _tell_user("error", f"{out}: " + why("cannot_write", f"cannot write the report: {error}", error=error).said(voice), voice)
        return 2
    except Exception as exc:  # an entry of a foreign shape: named, never a traceback
        error = f"{type(exc).__name__}: {exc}"
        _tell_user("error", f"{args.game}: " + why("foreign_entry", f"a protocol entry this narrator cannot draw ({error})",
                                                   error=error).said(voice), voice)
        return 2
    print(out)
    return 0 if not record.problems else 1


def register(subparsers) -> None:
    p = subparsers.add_parser("report", help="the game's story as one HTML page (from a protocol or a journal)")
    p.add_argument("game", help="a protocol (narrator replay --protocol, simulate --protocols) or a journal")
    p.add_argument("-o", "--output", help="the HTML file to write (default: beside GAME, with .html)")
    p.add_argument("--config", help="the table's config (language, player names) for a protocol that lacks them")
    p.set_defaults(func=cmd_report)
