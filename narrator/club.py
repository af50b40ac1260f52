"""The club's record: every finished game, and each player's figures and rating from it.

The record is an SQLite file (the zero-setup default) or, for a club night where several tables
play at once, a PostgreSQL server (`[club] database = "postgresql://…"`, psycopg 3). A game is
identified by a hash of its setup and inputs and written with an idempotent insert, so importing
or sending the same game twice counts it once. SQLite writers take the file's lock (BEGIN
IMMEDIATE, busy timeout); PostgreSQL's own transactions keep the tables of a night apart. A
narrator that cannot reach its server keeps the game in a local SQLite outbox and sends it later
(`narrator club sync`, or at its next game over).

Every figure and rating is computed from the stored rows alone, in one order (the games' end
times, then their ids): replaying the record gives the same ratings on any machine.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .rules.roles import side_of, wins_with

BUSY_MS = 60_000
CONNECT_SECONDS = 3  # a server that does not answer in this long is away: the game waits in the outbox
SERVER_SCHEMES = ("postgresql://", "postgres://")
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    hash TEXT PRIMARY KEY,
    played_at DOUBLE PRECISION NOT NULL,
    imported_at DOUBLE PRECISION NOT NULL,
    variant TEXT NOT NULL,
    seats INTEGER NOT NULL,
    winner TEXT,
    days INTEGER NOT NULL,
    language TEXT,
    source TEXT,
    ended_at DOUBLE PRECISION
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
CREATE INDEX IF NOT EXISTS players_name ON players(name)
"""
GAME_COLUMNS = ("hash", "played_at", "ended_at", "imported_at", "variant", "seats", "winner", "days", "language", "source")
PLAYER_COLUMNS = ("game", "seat", "name", "role", "team", "won", "killed_first_night", "checks_found_mafia", "out_cause")


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "narrator" / "club.sqlite"


def is_server(target: str | Path | None) -> bool:
    return isinstance(target, str) and target.startswith(SERVER_SCHEMES)


def database_target(config=None, given: str | None = None) -> str | Path:
    """Where the club's record is: a PostgreSQL URL as written, or the SQLite file's path."""
    chosen = given or (config.section("club").get("database") if config is not None and "club" in config.sections else "")
    if not chosen:
        return default_path()
    return chosen if is_server(chosen) else Path(chosen).expanduser()


def database_path(config=None, given: str | None = None) -> Path:
    target = database_target(config, given)
    return default_path() if is_server(target) else target


def outbox_path(config=None) -> Path:
    """The local SQLite file where games wait while the club's server cannot be reached."""
    chosen = config.section("club").get("outbox") if config is not None and "club" in config.sections else ""
    return Path(chosen).expanduser() if chosen else default_path().with_name("club-outbox.sqlite")


def shown_target(target) -> str:
    """The record's place as it may be printed: a server URL without its password."""
    text = str(target)
    return re.sub(r"^(postgres(?:ql)?://[^:/@]*):[^@/]*@", r"\1:***@", text) if is_server(text) else text


class Record:
    """One club record: an SQLite file or a PostgreSQL server, behind the same few queries
    (written with `?`, every value a parameter: a name is data, never SQL)."""

    def __init__(self, conn, server: bool, where: str):
        self.conn, self.server, self.where = conn, server, where

    def _sql(self, query: str) -> str:
        return query.replace("?", "%s") if self.server else query

    def execute(self, query: str, params=()):
        return self.conn.execute(self._sql(query), params)

    def begin(self) -> None:
        # SQLite: take the write lock up front, so two writers queue instead of failing half-way;
        # psycopg opens its transaction by itself at the first statement
        if not self.server:
            self.conn.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self.conn.execute("COMMIT") if not self.server else self.conn.commit()

    def rollback(self) -> None:
        try:
            self.conn.execute("ROLLBACK") if not self.server else self.conn.rollback()
        except Exception:  # the server went away mid-transaction: nothing of it was committed anyway
            pass

    def close(self) -> None:
        try:
            self.conn.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---------------------------------------------------------------- writing
    def add(self, games: list["GameRow"]) -> tuple[int, int]:
        """Add finished games in one transaction; returns (new, already there). A game already
        in the record (its hash) is left as it is, whoever sent it and however often."""
        new = 0
        now = time.time()
        self.begin()
        try:
            for g in games:
                cur = self.execute(
                    f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({', '.join('?' * len(GAME_COLUMNS))})"
                    " ON CONFLICT (hash) DO NOTHING",
                    (g.hash, g.played_at, g.ended_at, g.imported_at or now, g.variant, g.seats, g.winner, g.days,
                     g.language, g.source))
                if cur.rowcount == 0:
                    continue
                new += 1
                for p in g.players:
                    self.execute(
                        f"INSERT INTO players ({', '.join(PLAYER_COLUMNS)}) VALUES ({', '.join('?' * len(PLAYER_COLUMNS))})"
                        " ON CONFLICT (game, seat) DO NOTHING",
                        (g.hash, p.seat, p.name, p.role, p.team, int(p.won), int(p.killed_first_night),
                         p.checks_found_mafia, p.out_cause))
            self.commit()
        except BaseException:
            self.rollback()
            raise
        return new, len(games) - new

    def remove(self, hashes: list[str]) -> None:
        self.begin()
        try:
            for h in hashes:
                self.execute("DELETE FROM players WHERE game = ?", (h,))
                self.execute("DELETE FROM games WHERE hash = ?", (h,))
            self.commit()
        except BaseException:
            self.rollback()
            raise

    # ---------------------------------------------------------------- reading
    def games(self, since: float | None = None, until: float | None = None, variant: str | None = None) -> list["GameRow"]:
        """The finished games, in the one order ratings are computed in: end time, then id."""
        clauses, params = ["1=1"], []
        if since is not None:
            clauses.append("played_at >= ?")
            params.append(since)
        if until is not None:
            clauses.append("played_at < ?")
            params.append(until)
        if variant:
            clauses.append("variant = ?")
            params.append(variant)
        where = " AND ".join(clauses)
        rows = self.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE {where}", params).fetchall()
        games = {r[0]: GameRow(*r) for r in rows}
        if games:
            cols = ", ".join("p." + c for c in PLAYER_COLUMNS)
            for r in self.execute(f"SELECT {cols} FROM players p JOIN games g ON g.hash = p.game WHERE "
                                  + where.replace("played_at", "g.played_at").replace("variant", "g.variant")
                                  + " ORDER BY p.game, p.seat", params):
                g = games.get(r[0])
                if g is not None:
                    g.players.append(PlayerFacts(r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6]), r[7], r[8]))
        return sorted(games.values(), key=GameRow.order)

    def languages(self) -> set:
        return {r[0] for r in self.execute("SELECT DISTINCT language FROM games")}


def _ensure_sqlite_schema(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    # a record written before games kept their end time: the column is added, old games order by start
    if "ended_at" not in {r[1] for r in conn.execute("PRAGMA table_info(games)")}:
        conn.execute("ALTER TABLE games ADD COLUMN ended_at DOUBLE PRECISION")


class NoDriver(OSError):
    """psycopg is not installed: no server can be reached (a game waits in the outbox meanwhile)."""


def has_driver() -> bool:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return False
    return True


def connect(target: str | Path, timeout: float = CONNECT_SECONDS) -> Record:
    """The club's record at `target` (an SQLite path or a postgresql:// URL), its tables made."""
    if is_server(target):
        try:
            import psycopg
        except ImportError:
            raise NoDriver("psycopg is not installed") from None

        # a server that stops answering mid-game (a laptop's Wi-Fi gone) is given up on within
        # seconds too: the game waits in the outbox instead of holding the end of the game
        conn = psycopg.connect(str(target), connect_timeout=max(1, int(timeout)), tcp_user_timeout=10_000,
                               options="-c statement_timeout=15000")
        try:
            # three narrators opening an empty server at once: one makes the tables, the others wait
            conn.execute("SELECT pg_advisory_xact_lock(4141)")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.commit()
        except BaseException:
            conn.close()
            raise
        return Record(conn, True, shown_target(target))
    path = Path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: transactions are opened explicitly
    conn = sqlite3.connect(str(path), timeout=BUSY_MS / 1000, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    conn.execute("BEGIN IMMEDIATE")
    try:
        _ensure_sqlite_schema(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        conn.close()
        raise
    return Record(conn, False, str(path))


def unreachable_errors() -> tuple[type[BaseException], ...]:
    """What a record that cannot be reached or written raises: an SQLite error, a server's, the OS's."""
    errors: list[type[BaseException]] = [sqlite3.Error, OSError]
    try:
        import psycopg

        errors.append(psycopg.Error)
    except ImportError:
        pass
    return tuple(errors)


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


@dataclass
class GameRow:
    hash: str
    played_at: float
    ended_at: float | None
    imported_at: float | None
    variant: str
    seats: int
    winner: str | None
    days: int
    language: str | None
    source: str | None
    players: list[PlayerFacts] = field(default_factory=list)

    def order(self) -> tuple[float, str]:
        return (self.ended_at if self.ended_at is not None else self.played_at, self.hash)


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


def ended_at(record) -> float | None:
    """When the game ended: its game over's time, else the last time any entry carries."""
    for e in reversed(record.entries):
        t = e.get("t")
        if isinstance(t, (int, float)) and not isinstance(t, bool):
            return float(t)
    return None


def game_row(record, played_at: float | None = None) -> GameRow:
    if not record.finished:
        raise ValueError(f"{record.path}: the game is unfinished; only finished games enter the club's record")
    game, players = facts(record)
    when = played_at or record.started or ended_at(record) or time.time()
    end = ended_at(record)
    return GameRow(game["hash"], when, end if end is not None else when, None, game["variant"], game["seats"],
                   game["winner"], game["days"], game["language"], game["source"], players)


def import_record(conn: Record, record, played_at: float | None = None) -> bool:
    """Add one finished game; False when the record already holds it."""
    return import_many(conn, [record], played_at)[0] == 1


def import_many(conn: Record, records, played_at: float | None = None) -> tuple[int, int]:
    """Add finished games in one transaction (one wait for the lock, one sync to disk);
    returns (new, already there)."""
    return conn.add([game_row(r, played_at) for r in records])


# ---------------------------------------------------------------------- people
def name_key(name: str) -> str:
    """Two spellings of one name a person would read as the same: «Anna», «anna », «ＡＮＮＡ»."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@dataclass
class Seat:
    """Who sat at a seat of one game, as the club counts him."""
    key: str | None  # the member's key; None: a guest (no name, or a name two seats shared)
    label: str  # how his row is named


class People:
    """The club's members in its record: a name is who a person is (written any way a person
    would read as the same), a renamed member's old games are his ([club.renamed] old = new), and
    two seats of one game written with one name are two guests of that game, never one member
    on both sides."""

    def __init__(self, renamed: dict[str, str] | None = None):
        self.renamed = {name_key(old): new for old, new in (renamed or {}).items()}
        self.names: dict[str, str] = {}  # key -> the spelling of his latest game
        self.shared: list[tuple[str, str]] = []  # (game hash, name) where two seats had one name

    def current(self, name: str) -> str:
        seen = set()
        while name_key(name) in self.renamed and name_key(name) not in seen:  # chains: a → b → c
            seen.add(name_key(name))
            name = self.renamed[name_key(name)]
        return name

    def seats(self, game: GameRow) -> dict[int, Seat]:
        named = {p.seat: self.current(p.name) for p in game.players if p.name and p.name.strip()}
        count: dict[str, int] = {}
        for n in named.values():
            count[name_key(n)] = count.get(name_key(n), 0) + 1
        out = {}
        for p in game.players:
            n = named.get(p.seat)
            if n is None:
                out[p.seat] = Seat(None, f"#{p.seat}")
            elif count[name_key(n)] > 1:
                if (game.hash, n) not in self.shared:
                    self.shared.append((game.hash, n))
                out[p.seat] = Seat(None, f"{n} #{p.seat}")
            else:
                self.names[name_key(n)] = n
                out[p.seat] = Seat(name_key(n), n)
        return out

    def label(self, seat: Seat) -> str:
        return self.names.get(seat.key, seat.label) if seat.key else seat.label


# ---------------------------------------------------------------------- ratings
@dataclass
class RatingSettings:
    """The rating model and the weights of the roles ([club] don_weight, sheriff_weight)."""
    don_weight: float = 1.0
    sheriff_weight: float = 1.0

    @classmethod
    def of(cls, config) -> "RatingSettings":
        c = config.section("club") if config is not None and "club" in config.sections else {}
        return cls(float(c.get("don_weight", 1.0)), float(c.get("sheriff_weight", 1.0)))

    def weight(self, role: str) -> float:
        return {"don": self.don_weight, "sheriff": self.sheriff_weight}.get(role, 1.0)

    def model(self):
        from openskill.models import PlackettLuce

        # mu 0, not the library's 25: a Weng-Lin team is as strong as the sum of its players, and
        # Mafia's sides are 7 against 3 — centred at 0, a table of newcomers is an even game
        # whatever the sides' sizes (at 25 the town would be the favourite by 175 to 75, its wins
        # would move nothing and the mafia's everything)
        model = PlackettLuce(mu=0.0)
        # the club's weights as written, not rescaled within each team to the library's [1, 2]
        model.weight_bounds = None
        return model


@dataclass
class Change:
    before: tuple[float, float]  # (mu, sigma)
    after: tuple[float, float]
    guest: bool = False  # played at the starting rating, keeps none


@dataclass
class Ratings:
    now: dict[str, tuple[float, float]]  # member key -> (mu, sigma)
    changes: dict[str, dict[int, Change]]  # game hash -> seat -> its rating's change
    history: list[tuple[GameRow, dict[str, float]]]  # each game, and the mu of every member after it
    start: tuple[float, float]


def rate_games(games: list[GameRow], people: People, settings: RatingSettings | None = None) -> Ratings:
    """Every game in the record's order updates every member's rating, team against team
    (Weng-Lin, openskill's PlackettLuce): the winning side ranked first, a draw a tie. A role's
    weight is its share of its team's result (the library's contribution weights). A guest plays
    at the starting rating and keeps none."""
    settings = settings or RatingSettings()
    model = settings.model()
    start = (model.mu, model.sigma)
    now: dict[str, tuple[float, float]] = {}
    changes: dict[str, dict[int, Change]] = {}
    history = []
    for game in sorted(games, key=GameRow.order):
        seats = people.seats(game)
        teams: dict[str, list[PlayerFacts]] = {}
        for p in game.players:
            teams.setdefault(p.team, []).append(p)
        if len(teams) < 2:
            history.append((game, {k: v[0] for k, v in now.items()}))
            continue
        names = sorted(teams)  # a fixed order of the teams: the result never depends on the rows' order
        ratings = [[model.rating(*(now.get(seats[p.seat].key, start) if seats[p.seat].key else start)) for p in teams[t]]
                   for t in names]
        ranks = [0 if (game.winner not in names or t == game.winner) else 1 for t in names]
        weights = [[settings.weight(p.role) for p in teams[t]] for t in names]
        rated = model.rate(ratings, ranks=ranks, weights=weights)
        changes[game.hash] = {}
        for t, team in zip(names, rated):
            for p, r, old in zip(teams[t], team, ratings[names.index(t)]):
                key = seats[p.seat].key
                changes[game.hash][p.seat] = Change((old.mu, old.sigma), (r.mu, r.sigma), key is None)
                if key is not None:
                    now[key] = (r.mu, r.sigma)
        history.append((game, {k: v[0] for k, v in now.items()}))
    return Ratings(now, changes, history, start)


# ---------------------------------------------------------------------- figures
@dataclass
class Standing:
    key: str | None
    name: str
    games: int = 0
    wins: int = 0
    town_games: int = 0
    town_wins: int = 0
    mafia_games: int = 0
    mafia_wins: int = 0
    killed_first_night: int = 0
    checks_found_mafia: int = 0
    rating: tuple[float, float] | None = None
    roles: dict[str, list[int]] = field(default_factory=dict)  # role -> [games, wins]


def figures(games: list[GameRow], people: People, ratings: Ratings) -> list[Standing]:
    """One row per member (and per guest seat label): games, wins, by team, by role, rating."""
    rows: dict[tuple, Standing] = {}
    for game in sorted(games, key=GameRow.order):
        seats = people.seats(game)
        for p in game.players:
            seat = seats[p.seat]
            ident = ("member", seat.key) if seat.key else ("guest", seat.label)
            s = rows.setdefault(ident, Standing(seat.key, seat.label))
            s.games += 1
            s.wins += p.won
            if p.team in ("town", "mafia"):
                setattr(s, f"{p.team}_games", getattr(s, f"{p.team}_games") + 1)
                setattr(s, f"{p.team}_wins", getattr(s, f"{p.team}_wins") + p.won)
            s.killed_first_night += p.killed_first_night
            s.checks_found_mafia += p.checks_found_mafia
            r = s.roles.setdefault(p.role, [0, 0])
            r[0] += 1
            r[1] += p.won
    for s in rows.values():
        if s.key:
            s.name = people.names.get(s.key, s.name)
            s.rating = ratings.now.get(s.key)
    return sorted(rows.values(), key=lambda s: (-s.wins / s.games, -s.games, s.name))


def by_rating(rows: list[Standing]) -> list[Standing]:
    """The standings' order: rating (mu), the surer one first at a tie, then games, then name;
    guests (no rating) last."""
    return sorted(rows, key=lambda s: (s.rating is None, -(s.rating or (0, 0))[0], (s.rating or (0, 0))[1], -s.games, s.name))


@dataclass
class Season:
    name: str
    first: dt.date
    last: dt.date

    def bounds(self) -> tuple[float, float]:
        """From the first day's midnight to the one after the last day (local time)."""
        since = time.mktime(self.first.timetuple())
        until = time.mktime((self.last + dt.timedelta(days=1)).timetuple())
        return since, until


def seasons(config) -> dict[str, Season]:
    c = config.section("club") if config is not None and "club" in config.sections else {}
    return {name: Season(name, first, last) for name, (first, last) in c.get("seasons", {}).items()}


def renamed(config) -> dict[str, str]:
    c = config.section("club") if config is not None and "club" in config.sections else {}
    return dict(c.get("renamed", {}))


@dataclass
class Club:
    """Everything `narrator club` shows, computed from one read of the record."""
    games: list[GameRow]
    people: People
    ratings: Ratings
    rows: list[Standing]


def compute(games: list[GameRow], config=None) -> Club:
    people = People(renamed(config))
    ratings = rate_games(games, people, RatingSettings.of(config))
    return Club(games, people, ratings, figures(games, people, ratings))


def rating_changes(record: Record, game_hash: str, config=None) -> dict[int, Change]:
    """How one game moved each seat's rating, replaying the record (a later game changes nothing
    of an earlier one's)."""
    return compute(record.games(), config).ratings.changes.get(game_hash, {})


# ---------------------------------------------------------------------- the outbox
def send(target, games: list[GameRow], config=None, timeout: float = CONNECT_SECONDS) -> tuple[int, int, int]:
    """Games into the club's record at `target`; what a server cannot take now waits in the
    outbox. Returns (new, already there, waiting in the outbox). Games already waiting are sent
    first, one transaction each: a game leaves the outbox only once the server has committed it."""
    if not is_server(target):
        with connect(target) as record:
            return record.add(games) + (0,)
    box = outbox_path(config)

    def keep(sent: tuple[int, int]) -> tuple[int, int, int]:
        with connect(box) as outbox:
            outbox.add(games)
            return sent + (len(outbox.games()),)

    try:
        record = connect(target, timeout)
    except unreachable_errors():
        return keep((0, 0))
    new = dup = 0
    with record:
        try:
            if box.exists():
                with connect(box) as outbox:
                    for g in outbox.games():
                        n, d = record.add([g])
                        new, dup = new + n, dup + d
                        outbox.remove([g.hash])
            n, d = record.add(games) if games else (0, 0)
            return new + n, dup + d, 0
        except unreachable_errors():
            return keep((new, dup))


def waiting(config=None) -> int:
    """How many games wait in the outbox for the club's server."""
    box = outbox_path(config)
    if not box.exists():
        return 0
    with connect(box) as outbox:
        return len(outbox.games())


def rate(wins: int, games: int) -> str:
    return f"{100 * wins / games:.0f}%" if games else "–"


def rating_text(rating: tuple[float, float] | None) -> tuple[str, str]:
    return (f"{rating[0]:.1f}", f"{rating[1]:.1f}") if rating else ("–", "–")
