"""`narrator report GAME` and `narrator club …`: registered with the main command like the adapters'."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from rich.console import Console

err = Console(stderr=True, highlight=False, soft_wrap=True)


def _tell_user(kind: str, text: str) -> None:
    # a file name or a player's name is never read as markup
    err.print(f"[{'red' if kind == 'error' else 'yellow'}]{kind}[/] ", end="")
    err.print(text, markup=False)


def _config(path: str | None):
    from ..config import ConfigError, load_config

    if path is None:
        return None, True
    try:
        return load_config(path), True
    except ConfigError as exc:
        for p in exc.problems:
            _tell_user("error", str(p))
        return None, False


def write_report(record, out: Path) -> Path:
    from . import render

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(render(record), encoding="utf-8")
    os.replace(tmp, out)
    return out


def cmd_report(args) -> int:
    from . import ReadError, read_game

    cfg, ok = _config(args.config)
    if not ok:
        return 2
    try:
        record = read_game(args.game, cfg)
    except ReadError as exc:
        _tell_user("error", str(exc))
        return 2
    for p in record.problems:
        _tell_user("note" if not record.finished and "unfinished" in p.message else "error", str(p))
    out = Path(args.output) if args.output else Path(args.game).with_suffix(".html")
    try:
        write_report(record, out)
    except OSError as exc:
        _tell_user("error", f"{out}: cannot write the report: {exc.strerror or exc}")
        return 2
    except Exception as exc:  # an entry of a foreign shape: named, never a traceback
        _tell_user("error", f"{args.game}: a protocol entry this narrator cannot draw ({type(exc).__name__}: {exc})")
        return 2
    print(out)
    return 0 if not record.problems else 1


def cmd_club(args) -> int:
    from .. import club

    return club.main(args)


def register(sub) -> None:
    p = sub.add_parser("report", help="the game's story as one HTML page (from a protocol or a journal)")
    p.add_argument("game", help="a protocol (narrator replay --protocol, simulate --protocols) or a journal")
    p.add_argument("-o", "--output", help="the HTML file to write (default: beside GAME, with .html)")
    p.add_argument("--config", help="the table's config (language, player names) for a protocol that lacks them")
    p.set_defaults(func=cmd_report)

    from .. import club

    club.register(sub)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(1)
