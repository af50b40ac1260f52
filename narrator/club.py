"""The club's record: every finished game in one SQLite file, and each player's figures from it.

A game is identified by a hash of its setup and inputs, so importing the same protocol (or its
journal) twice counts it once. Several narrators may write to one shared file at the same time:
each import is one IMMEDIATE transaction and waits (busy timeout) for the others' to finish —
SQLite's own file locking, no server.
"""

from __future__ import annotations

import csv
import datetime as dt
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .rules.roles import side_of, wins_with

BUSY_MS = 60_000
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    hash TEXT PRIMARY KEY,
    played_at REAL NOT NULL,
    imported_at REAL NOT NULL,
    variant TEXT NOT NULL,
    seats INTEGER NOT NULL,
    winner TEXT,
    days INTEGER NOT NULL,
    language TEXT,
    source TEXT
);
CREATE TABLE IF NOT EXISTS players (
    game TEXT NOT NULL REFERENCES games(hash),
    seat INTEGER NOT NULL,
    name TEXT,
    role TEXT NOT NULL,
    team TEXT NOT NULL,
    won INTEGER NOT NULL,
    killed_first_night INTEGER NOT NULL,
    checks_found_mafia INTEGER NOT NULL,
    out_cause TEXT,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS players_name ON players(name);
"""


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "narrator" / "club.sqlite"


def database_path(config=None, given: str | None = None) -> Path:
    if given:
        return Path(given).expanduser()
    if config is not None and "club" in config.sections and config.section("club").get("database"):
        return Path(config.section("club")["database"]).expanduser()
    return default_path()


def connect(path: str | Path) -> sqlite3.Connection:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: transactions are opened explicitly (BEGIN IMMEDIATE takes the write
    # lock up front, so two writers queue instead of failing half-way)
    conn = sqlite3.connect(str(path), timeout=BUSY_MS / 1000, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return conn


@dataclass
class PlayerFacts:
    seat: int
    name: str | None
    role: str
    team: str
    won: bool
    killed_first_night: bool
    checks_found_mafia: int
    out_cause: str | None


def facts(record) -> tuple[dict, list[PlayerFacts]]:
    """The club's figures of one finished game, from its protocol alone."""
    from .report.story import build

    story = build(record.entries)
    first_night = next((p for p in story.periods if p.kind == "night" and any(i["kind"] == "shot" for i in p.items)), None)
    found: dict[int, int] = {}
    for p in story.periods:
        for i in p.items:
            if i["kind"] == "check" and i.get("result") == "mafia":
                found[i["by"]] = found.get(i["by"], 0) + 1
    players = []
    for seat in range(1, story.seats + 1):
        role = story.roles.get(seat, "citizen")
        team = side_of(role)  # the side he wins with: a collaborator's wins are the mafia's
        won = wins_with(role, story.winner)
        out = story.eliminated.get(seat)
        killed = bool(out and first_night and out["cause"] == "shot" and out["period"] == ("night", first_night.number))
        players.append(PlayerFacts(seat, record.players.get(seat), role, team, won, killed, found.get(seat, 0),
                                   out["cause"] if out else None))
    game = {"hash": record.content_hash(), "variant": story.variant, "seats": story.seats, "winner": story.winner,
            "days": story.days, "language": record.language, "source": str(record.path)}
    return game, players


def import_record(conn: sqlite3.Connection, record, played_at: float | None = None) -> bool:
    """Add one finished game; False when the record already holds it."""
    return import_many(conn, [record], played_at)[0] == 1


def import_many(conn: sqlite3.Connection, records, played_at: float | None = None) -> tuple[int, int]:
    """Add finished games in one transaction (one wait for the lock, one sync to disk);
    returns (new, already there)."""
    rows = []
    for record in records:
        if not record.finished:
            raise ValueError(f"{record.path}: the game is unfinished; only finished games enter the club's record")
        rows.append(facts(record) + (played_at or record.started or time.time(),))
    new = 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        for game, players, when in rows:
            cur = conn.execute(
                "INSERT OR IGNORE INTO games (hash, played_at, imported_at, variant, seats, winner, days, language, source)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game["hash"], when, time.time(), game["variant"], game["seats"], game["winner"], game["days"],
                 game["language"], game["source"]))
            if cur.rowcount == 0:
                continue
            new += 1
            conn.executemany(
                "INSERT INTO players (game, seat, name, role, team, won, killed_first_night, checks_found_mafia, out_cause)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game["hash"], p.seat, p.name, p.role, p.team, int(p.won), int(p.killed_first_night), p.checks_found_mafia,
                  p.out_cause) for p in players])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return new, len(rows) - new


def _where(since: float | None, variant: str | None) -> tuple[str, list]:
    clauses, params = ["1=1"], []
    if since is not None:
        clauses.append("g.played_at >= ?")
        params.append(since)
    if variant:
        clauses.append("g.variant = ?")
        params.append(variant)
    return " AND ".join(clauses), params


NAME = "COALESCE(p.name, '#' || p.seat)"


def standings(conn: sqlite3.Connection, since: float | None = None, variant: str | None = None) -> list[dict]:
    """One row per player name: games, wins, by team, first-night deaths, checks that found mafia."""
    where, params = _where(since, variant)
    rows = conn.execute(
        f"""SELECT {NAME} AS who, COUNT(*), SUM(p.won),
                   SUM(p.team = 'town'), SUM(p.won AND p.team = 'town'),
                   SUM(p.team = 'mafia'), SUM(p.won AND p.team = 'mafia'),
                   SUM(p.killed_first_night), SUM(p.checks_found_mafia)
            FROM players p JOIN games g ON g.hash = p.game WHERE {where}
            GROUP BY who ORDER BY SUM(p.won) * 1.0 / COUNT(*) DESC, COUNT(*) DESC, who""", params).fetchall()
    keys = ("name", "games", "wins", "town_games", "town_wins", "mafia_games", "mafia_wins", "killed_first_night", "checks_found_mafia")
    return [dict(zip(keys, r)) for r in rows]


def by_role(conn: sqlite3.Connection, since: float | None = None, variant: str | None = None) -> list[dict]:
    where, params = _where(since, variant)
    rows = conn.execute(
        f"""SELECT {NAME} AS who, p.role, COUNT(*), SUM(p.won) FROM players p JOIN games g ON g.hash = p.game
            WHERE {where} GROUP BY who, p.role ORDER BY who, COUNT(*) DESC, p.role""", params).fetchall()
    return [{"name": r[0], "role": r[1], "games": r[2], "wins": r[3]} for r in rows]


def game_count(conn: sqlite3.Connection, since: float | None = None, variant: str | None = None) -> int:
    where, params = _where(since, variant)
    return conn.execute(f"SELECT COUNT(*) FROM games g WHERE {where}", params).fetchone()[0]


def rate(wins: int, games: int) -> str:
    return f"{100 * wins / games:.0f}%" if games else "–"


# ---------------------------------------------------------------------- the command
def register(sub) -> None:
    p = sub.add_parser("club", help="the club's record of finished games: each player's figures")
    p.add_argument("--database", help="the SQLite file (default: [club] database, or ~/.local/share/narrator/club.sqlite)")
    p.add_argument("--config", help="a config: its [club] database, and player names for protocols without them")
    p.add_argument("--since", help="only games played on or after this date (YYYY-MM-DD)")
    p.add_argument("--variant", help="only games of this rule system")
    p.add_argument("--csv", action="store_true", help="write the figures as CSV (for spreadsheets) to stdout")
    p.add_argument("--language", help="the language of the table's words (default: the config's, else the one the "
                                      "record's games were played in, else English)")
    p.add_argument("action", nargs="?", choices=("show", "import"), default="show",
                   help="show the table (default) or import FILES")
    p.add_argument("files", nargs="*", help="protocols or journals of finished games (with import)")
    from .report.cli import cmd_club

    p.set_defaults(func=cmd_club)


def _tell(voice, kind: str, text: str) -> None:
    """An error or a note on stderr (cli.say_error: printed literally), labelled in the club's language."""
    from .cli import say_error

    say_error(text, voice.cli_text(kind) if voice is not None else kind, "red" if kind == "error" else "yellow")


def club_voice(cfg, conn: sqlite3.Connection | None = None, language: str | None = None):
    """The language a club reads its record in: --language, else its config's, else the one every
    game of the record was played in (a club that plays in Russian reads Russian with no flag at
    all), else English."""
    from .language import LANGUAGES, load_voice

    lang = language or (cfg.language if cfg is not None else None)
    if lang is None and conn is not None:
        try:
            played = {r[0] for r in conn.execute("SELECT DISTINCT language FROM games")}
        except sqlite3.Error:
            played = set()
        lang = played.pop() if len(played) == 1 else None
    if lang not in LANGUAGES:
        lang = "en"
    try:
        return load_voice(lang)
    except (OSError, ValueError):
        return load_voice("en")


def main(args) -> int:
    from .language import LANGUAGES
    from .report.cli import _config

    cfg, ok = _config(args.config)
    if not ok:
        return 2
    language = getattr(args, "language", None)
    if language is not None and language not in LANGUAGES:
        _tell(club_voice(cfg), "error", f"--language: {language!r} ∉ {', '.join(LANGUAGES)}")
        return 2
    path = database_path(cfg, args.database)
    try:
        conn = connect(path)
    except (sqlite3.Error, OSError) as exc:
        voice = club_voice(cfg, None, language)
        _tell(voice, "error", voice.cli_text("club_cannot_open", {"path": str(path), "error": str(exc)}))
        return 2
    try:
        voice = club_voice(cfg, conn, language)
        if args.action == "import":
            return _import(conn, args.files, cfg, voice)
        if args.files:
            _tell(voice, "error", voice.cli_text("club_files_only_with_import"))
            return 2
        return _show(conn, args, path, voice)
    finally:
        conn.close()


def _import(conn, files: list[str], cfg, voice) -> int:
    from .report import ReadError, read_game

    if not files:
        _tell(voice, "error", voice.cli_text("club_name_files"))
        return 2
    bad = 0
    records = []
    for f in files:
        try:
            record = read_game(f, cfg)
            if not record.finished:
                what = record.problems[-1].told(voice) if record.problems else f
                raise ReadError(voice.cli_text("club_unfinished", {"what": str(what)}))
            if record.problems:
                raise ReadError(record.problems[0].told(voice))
            facts(record)  # an entry of a foreign shape is refused here, by name, before any write
            records.append(record)
        except ReadError as exc:
            bad += 1
            _tell(voice, "error", exc.told(voice))
        except Exception as exc:
            bad += 1
            _tell(voice, "error", voice.cli_text("club_unreadable_entry", {"file": f, "error": f"{type(exc).__name__}: {exc}"}))
    new = dup = 0
    for i in range(0, len(records), 500):  # a few hundred games a transaction: others wait seconds at most
        try:
            n, d = import_many(conn, records[i:i + 500])
            new, dup = new + n, dup + d
        except sqlite3.Error as exc:
            refused = len(records[i:i + 500])
            bad += refused
            _tell(voice, "error", voice.cli_text("club_refused_batch", {"n": refused, "error": str(exc)}))
    print(voice.cli_text("club_imported", {"new": new, "dup": dup, "bad": bad}))
    return 0 if bad == 0 else 1


def _since(text: str | None) -> float | None:
    if not text:
        return None
    return time.mktime(dt.date.fromisoformat(text).timetuple())


def role_name(voice, role: str) -> str:
    """A role as the game report names it in the club's language ("Шериф"); its id where none is."""
    from .language import _voice_data

    report = _voice_data(voice.source).get("report", {})
    return report.get(f"role_{role}", role)


def _show(conn, args, path, voice) -> int:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    try:
        since = _since(args.since)
    except ValueError:
        _tell(voice, "error", voice.cli_text("club_since", {"value": repr(args.since)}))
        return 2
    from .rules.variants import VARIANTS

    if args.variant is not None and args.variant not in VARIANTS:
        # a typo must not read as "no games yet"
        _tell(voice, "error", voice.cli_text("club_variant", {"value": repr(args.variant), "known": ", ".join(VARIANTS)}))
        return 2
    rows = standings(conn, since, args.variant)
    roles = by_role(conn, since, args.variant)
    if args.csv:
        # for spreadsheets and scripts: the header keys and role ids stay as they are in every language
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(["player", "scope", "key", "games", "wins", "win_rate", "killed_first_night", "checks_found_mafia"])
        for r in rows:
            w.writerow([r["name"], "all", "", r["games"], r["wins"], round(r["wins"] / r["games"], 4),
                        r["killed_first_night"], r["checks_found_mafia"]])
            for team in ("town", "mafia"):
                g, wins = r[f"{team}_games"], r[f"{team}_wins"]
                if g:
                    w.writerow([r["name"], "team", team, g, wins, round(wins / g, 4), "", ""])
        for r in roles:
            w.writerow([r["name"], "role", r["role"], r["games"], r["wins"], round(r["wins"] / r["games"], 4), "", ""])
        return 0
    console = Console(highlight=False)
    n = game_count(conn, since, args.variant)
    words = lambda name: voice.cli_text(f"club_{name}")  # noqa: E731
    # the title holds a path, the rows players' names: Text, never markup ("Anna [guest]" stays whole)
    table = Table(title=Text(voice.cli_text("club_title", {"n": n, "path": str(path)})), title_justify="left")
    for col, just in (("player", "left"), ("games", "right"), ("wins", "right"), ("win_rate", "right"),
                      ("town", "right"), ("mafia", "right"), ("killed_first_night", "right"), ("checks_found_mafia", "right")):
        table.add_column(words(col), justify=just)
    for r in rows:
        table.add_row(Text(r["name"]), str(r["games"]), str(r["wins"]), rate(r["wins"], r["games"]),
                      f'{r["town_games"]} · {rate(r["town_wins"], r["town_games"])}',
                      f'{r["mafia_games"]} · {rate(r["mafia_wins"], r["mafia_games"])}',
                      str(r["killed_first_night"]), str(r["checks_found_mafia"]))
    console.print(table)
    if roles:
        rt = Table(title=words("by_role"), title_justify="left")
        for col, just in (("player", "left"), ("role", "left"), ("games", "right"), ("win_rate", "right")):
            rt.add_column(words(col), justify=just)
        for r in roles:
            rt.add_row(Text(r["name"]), Text(role_name(voice, r["role"])), str(r["games"]), rate(r["wins"], r["games"]))
        console.print(rt)
    if not rows:
        console.print(Text(words("empty")))
    return 0
