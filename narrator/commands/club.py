"""`narrator club`: the club's record of finished games shown, imported into or synced to its server."""

from __future__ import annotations

import csv
import datetime as dt
import os
import sys
import time
from pathlib import Path

from ..club import (Club, Record, compute, connect, database_target, game_row, has_driver, is_server, outbox_path, rate,
                    rating_text, seasons, send, shown_target, unreachable_errors)
from .report import named_config
from .terminal import say_error


# ---------------------------------------------------------------------- the command
def register(subparsers) -> None:
    p = subparsers.add_parser("club", help="the club's record of finished games: each player's figures and rating")
    p.add_argument("--database", help="the SQLite file or a postgresql:// URL (default: [club] database, or "
                                      "~/.local/share/narrator/club.sqlite)")
    p.add_argument("--config", help="a config: its [club] database, seasons, renamed members and role weights, "
                                    "and player names for protocols without them")
    p.add_argument("--since", help="only games played on or after this date (YYYY-MM-DD)")
    p.add_argument("--season", help="only the games of this season ([club.seasons] of the config); ratings start afresh")
    p.add_argument("--variant", help="only games of this rule system")
    p.add_argument("--csv", action="store_true", help="write the figures as CSV (for spreadsheets) to stdout")
    p.add_argument("--html", metavar="FILE", help="write the standings page (one self-contained HTML file) to FILE")
    p.add_argument("--language", help="the language of the table's words (default: the config's, else the one the "
                                      "record's games were played in, else English)")
    p.add_argument("action", nargs="?", choices=("show", "import", "sync"), default="show",
                   help="show the table (default), import FILES, or sync: send the games kept while the club's "
                        "server could not be reached")
    p.add_argument("files", nargs="*", help="protocols or journals of finished games (with import)")
    p.set_defaults(func=cmd_club)


def _tell(voice, kind: str, text: str) -> None:
    """An error or a note on stderr (terminal.say_error: printed literally), labelled in the club's language."""
    say_error(text, voice.cli_text(kind) if voice is not None else kind, "red" if kind == "error" else "yellow")


def club_voice(cfg, conn: Record | None = None, language: str | None = None):
    """The language a club reads its record in: --language, else its config's, else the one every
    game of the record was played in (a club that plays in Russian reads Russian with no flag at
    all), else English."""
    from ..language import LANGUAGES, load_voice

    lang = language or (cfg.language if cfg is not None else None)
    if lang is None and conn is not None:
        try:
            played = conn.languages()
        except unreachable_errors():
            played = set()
        lang = played.pop() if len(played) == 1 else None
    if lang not in LANGUAGES:
        lang = "en"
    try:
        return load_voice(lang)
    except (OSError, ValueError):
        return load_voice("en")


def cmd_club(args) -> int:
    from ..language import LANGUAGES
    cfg, ok = named_config(args.config)
    if not ok:
        return 2
    language = getattr(args, "language", None)
    if language is not None and language not in LANGUAGES:
        _tell(club_voice(cfg), "error", f"--language: {language!r} ∉ {', '.join(LANGUAGES)}")
        return 2
    target = database_target(cfg, args.database)
    if is_server(target) and not has_driver():
        voice = club_voice(cfg, None, language)
        _tell(voice, "error", voice.cli_text("club_no_driver", {"server": shown_target(target)}))
        return 2
    if args.action == "sync":
        return _sync(cfg, target, club_voice(cfg, None, language))
    try:
        conn = connect(target)
    except unreachable_errors() as exc:
        voice = club_voice(cfg, None, language)
        _tell(voice, "error", voice.cli_text("club_cannot_open", {"path": shown_target(target), "error": str(exc).strip()}))
        return 2
    try:
        voice = club_voice(cfg, conn, language)
        if args.action == "import":
            return _import(conn, args.files, cfg, voice)
        if args.files:
            _tell(voice, "error", voice.cli_text("club_files_only_with_import"))
            return 2
        return _show(conn, args, cfg, voice)
    finally:
        conn.close()


def _sync(cfg, target, voice) -> int:
    if not is_server(target):
        _tell(voice, "error", voice.cli_text("club_sync_needs_server", {"path": shown_target(target)}))
        return 2
    try:
        new, dup, kept = send(target, [], cfg)
    except unreachable_errors() as exc:
        _tell(voice, "error", voice.cli_text("club_cannot_open", {"path": shown_target(target), "error": str(exc).strip()}))
        return 2
    if kept:
        _tell(voice, "error", voice.cli_text("club_sync_kept", {"n": kept, "server": shown_target(target),
                                                                  "outbox": str(outbox_path(cfg))}))
        return 1
    print(voice.cli_text("club_synced", {"new": new, "dup": dup, "server": shown_target(target)}))
    return 0


def _import(conn: Record, files: list[str], cfg, voice) -> int:
    from ..report import ReadError, read_game

    if not files:
        _tell(voice, "error", voice.cli_text("club_name_files"))
        return 2
    bad = 0
    rows = []
    for f in files:
        try:
            record = read_game(f, cfg)
            if not record.finished:
                what = record.problems[-1].told(voice) if record.problems else f
                raise ReadError(voice.cli_text("club_unfinished", {"what": str(what)}))
            if record.problems:
                raise ReadError(record.problems[0].told(voice))
            rows.append(game_row(record))  # an entry of a foreign shape is refused here, by name, before any write
        except ReadError as exc:
            bad += 1
            _tell(voice, "error", exc.told(voice))
        except Exception as exc:
            bad += 1
            _tell(voice, "error", voice.cli_text("club_unreadable_entry", {"file": f, "error": f"{type(exc).__name__}: {exc}"}))
    new = dup = 0
    for i in range(0, len(rows), 500):  # a few hundred games a transaction: others wait seconds at most
        try:
            n, d = conn.add(rows[i:i + 500])
            new, dup = new + n, dup + d
        except unreachable_errors() as exc:
            refused = len(rows[i:i + 500])
            bad += refused
            _tell(voice, "error", voice.cli_text("club_refused_batch", {"n": refused, "error": str(exc).strip()}))
    print(voice.cli_text("club_imported", {"new": new, "dup": dup, "bad": bad}))
    return 0 if bad == 0 else 1


def _since(text: str | None) -> float | None:
    if not text:
        return None
    return time.mktime(dt.date.fromisoformat(text).timetuple())


def role_name(voice, role: str) -> str:
    """A role as the game report names it in the club's language ("Шериф"); its id where none is."""
    from ..language import _voice_data

    report = _voice_data(voice.source).get("report", {})
    return report.get(f"role_{role}", role)


def write_csv(out, club: Club) -> None:
    """For spreadsheets and scripts: the header keys and role ids stay as they are in every language."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["player", "scope", "key", "games", "wins", "win_rate", "killed_first_night", "checks_found_mafia",
                "rating", "uncertainty"])
    for r in club.rows:
        mu, sigma = (round(r.rating[0], 4), round(r.rating[1], 4)) if r.rating else ("", "")
        w.writerow([r.name, "all", "", r.games, r.wins, round(r.wins / r.games, 4), r.killed_first_night,
                    r.checks_found_mafia, mu, sigma])
        for team in ("town", "mafia"):
            g, wins = getattr(r, f"{team}_games"), getattr(r, f"{team}_wins")
            if g:
                w.writerow([r.name, "team", team, g, wins, round(wins / g, 4), "", "", "", ""])
    for r in sorted(club.rows, key=lambda r: r.name):
        for role, (g, wins) in sorted(r.roles.items(), key=lambda x: (-x[1][0], x[0])):
            w.writerow([r.name, "role", role, g, wins, round(wins / g, 4), "", "", "", ""])


def _show(conn: Record, args, cfg, voice) -> int:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    try:
        since = _since(args.since)
    except ValueError:
        _tell(voice, "error", voice.cli_text("club_since", {"value": repr(args.since)}))
        return 2
    from ..rules.variants import VARIANTS

    if args.variant is not None and args.variant not in VARIANTS:
        # a typo must not read as "no games yet"
        _tell(voice, "error", voice.cli_text("club_variant", {"value": repr(args.variant), "known": ", ".join(VARIANTS)}))
        return 2
    season = None
    until = None
    if args.season is not None:
        known = seasons(cfg)
        if args.season not in known:
            _tell(voice, "error", voice.cli_text("club_season_unknown", {
                "value": repr(args.season), "known": ", ".join(known) or "–"}))
            return 2
        season = known[args.season]
        start, until = season.bounds()
        since = max(since, start) if since is not None else start
    club = compute(conn.games(since, until, args.variant), cfg)
    for game, name in club.people.shared:
        _tell(voice, "note", voice.cli_text("club_one_name_two_seats", {"name": name, "game": game[:12]}))
    if args.html:
        from ..report.standings import render

        out = Path(args.html)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = out.with_name(out.name + ".tmp")
            tmp.write_text(render(club, voice, season), encoding="utf-8")
            os.replace(tmp, out)
        except OSError as exc:
            _tell(voice, "error", voice.cli_text("club_cannot_write", {"path": str(out), "error": exc.strerror or str(exc)}))
            return 2
        print(out)
        return 0
    if args.csv:
        write_csv(sys.stdout, club)
        return 0
    console = Console(highlight=False)
    words = lambda name: voice.cli_text(f"club_{name}")  # noqa: E731
    # the title holds a path, the rows players' names: Text, never markup ("Anna [guest]" stays whole)
    title = voice.cli_text("club_title", {"n": len(club.games), "path": conn.where})
    if season is not None:
        title += " · " + voice.cli_text("club_season", {"name": season.name, "first": season.first.isoformat(),
                                                          "last": season.last.isoformat()})
    table = Table(title=Text(title), title_justify="left")
    # the rating stands under the player's name: one more column would push the last of the
    # figures off an 80-column terminal in every language but English
    table.add_column(Text(words("player")) + Text("\n") + Text(words("rating"), style="dim"), justify="left")
    for col, just in (("games", "right"), ("wins", "right"), ("win_rate", "right"), ("town", "right"),
                      ("mafia", "right"), ("killed_first_night", "right"), ("checks_found_mafia", "right")):
        table.add_column(words(col), justify=just)
    for r in club.rows:
        mu, sigma = rating_text(r.rating)
        who = Text(r.name) + Text("\n") + Text(f"{mu} ±{sigma}" if r.rating else mu, style="dim")
        table.add_row(who, str(r.games), str(r.wins), rate(r.wins, r.games),
                      f'{r.town_games} · {rate(r.town_wins, r.town_games)}',
                      f'{r.mafia_games} · {rate(r.mafia_wins, r.mafia_games)}',
                      str(r.killed_first_night), str(r.checks_found_mafia))
    console.print(table)
    roles = [(r.name, role, g, wins) for r in sorted(club.rows, key=lambda r: r.name)
             for role, (g, wins) in sorted(r.roles.items(), key=lambda x: (-x[1][0], x[0]))]
    if roles:
        rt = Table(title=words("by_role"), title_justify="left")
        for col, just in (("player", "left"), ("role", "left"), ("games", "right"), ("win_rate", "right")):
            rt.add_column(words(col), justify=just)
        for name, role, g, wins in roles:
            rt.add_row(Text(name), Text(role_name(voice, role)), str(g), rate(wins, g))
        console.print(rt)
    if not club.rows:
        console.print(Text(words("empty")))
    return 0
