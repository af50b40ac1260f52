"""One record for a club night: several narrators write their finished games to one PostgreSQL
server (a real one, started by the suite), each game counted once however often it is sent; a
narrator that cannot reach the server keeps the game and sends it later. The server's standings
and ratings are the ones the same games give imported one by one into SQLite."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from narrator import club
from narrator.config import parse_config
from narrator.language import load_voice
from narrator.report import read_game
from postgres_support import postgres  # noqa: F401  (the session's server)

# every test here drives a real process, server or speech model
pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Anna", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Robert'); DROP TABLE players;--", "<b>Jo</b>"]
T0 = 1_790_000_000.0  # 2026-09-21: the night's games, half an hour apart

NARRATOR = """
import sys, time
from narrator import club
from narrator.report import read_game
url, start_at, files = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
rows = [club.game_row(read_game(f)) for f in files]
while time.time() < start_at:
    time.sleep(0.002)
for row in rows:
    print(*club.send(url, [row]), flush=True)
    time.sleep(float(__import__("os").environ.get("PAUSE", "0")))
"""


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> list[Path]:
    """Twelve finished games of one club night, as protocols with their start times."""
    from narrator.simulate import simulate

    d = tmp_path_factory.mktemp("night")
    simulate("classic", 12, 41, check_replay=False, protocols=str(d / "games"), players=dict(enumerate(NAMES, start=1)))
    files = sorted((d / "games").glob("*.jsonl"))
    for i, f in enumerate(files):
        lines = f.read_text(encoding="utf-8").splitlines(keepends=True)
        table = json.loads(lines[0])
        table["started"] = T0 + 1800 * i
        f.write_text(json.dumps(table) + "\n" + "".join(lines[1:]), encoding="utf-8")
    return files


def rows_of(files) -> list[club.GameRow]:
    return [club.game_row(read_game(f)) for f in files]


def standings(target) -> tuple:
    """Everything the standings show: each row's figures, by role and rating, in the page's order."""
    with club.connect(target) as record:
        c = club.compute(record.games())
    return tuple((r.name, r.games, r.wins, r.town_games, r.town_wins, r.mafia_games, r.mafia_wins,
                  r.killed_first_night, r.checks_found_mafia, tuple(sorted(r.roles.items())), r.rating)
                 for r in club.by_rating(c.rows))


def narrators(url: str, parts: list[list[Path]], tmp_path: Path, pause: float = 0.0) -> list[subprocess.Popen]:
    """Narrator processes on their own laptops (each its own outbox), all starting one moment."""
    start_at = time.time() + 1.5
    procs = []
    for i, files in enumerate(parts):
        env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / f"laptop{i}"), PAUSE=str(pause))
        procs.append(subprocess.Popen([sys.executable, "-c", NARRATOR, url, str(start_at), *map(str, files)],
                                      cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    return procs


def finished(procs) -> list[str]:
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outs.append(out)
    return outs


def count(url: str) -> tuple[int, int]:
    with club.connect(url) as record:
        return (record.execute("SELECT COUNT(*) FROM games").fetchone()[0],
                record.execute("SELECT COUNT(*) FROM players").fetchone()[0])


def test_three_narrators_finishing_at_once_count_every_game_once_and_agree_with_sqlite(postgres, night, tmp_path):  # noqa: F811
    url = postgres.new_database()
    # overlapping evenings: a game sent by two tables (a protocol copied over) is still one game
    procs = narrators(url, [night[:8], night[4:], list(reversed(night))], tmp_path)
    outs = finished(procs)
    assert count(url) == (12, 120)
    sent = [tuple(map(int, line.split())) for out in outs for line in out.splitlines()]
    assert sum(new for new, _, _ in sent) == 12 and all(kept == 0 for _, _, kept in sent)
    # the same games imported one by one into SQLite, in another order: the same standings
    db = tmp_path / "one-by-one.sqlite"
    with club.connect(db) as record:
        for row in random.Random(4).sample(rows_of(night), 12):
            record.add([row])
    assert standings(url) == standings(db)
    assert all(r[-1] is not None for r in standings(url))  # every member is rated
    names = {r[0] for r in standings(url)}
    assert names == set(NAMES)  # a name is data: the quote and the markup came back as written


def test_ratings_replay_identically_from_the_server(postgres, night):  # noqa: F811
    url = postgres.new_database()
    with club.connect(url) as record:
        record.add(rows_of(reversed(night)))
        first = club.compute(record.games()).ratings
        again = club.compute(record.games()).ratings
    assert first.now == again.now and first.changes == again.changes
    # replayed from nothing, game by game in the record's order: the same figures to the last bit
    people = club.People()
    replay = club.rate_games(sorted(rows_of(night), key=club.GameRow.order), people)
    assert replay.now == first.now


def test_a_game_sent_twice_is_counted_once(postgres, night, tmp_path):  # noqa: F811
    url = postgres.new_database()
    row = rows_of(night[:1])
    assert club.send(url, row) == (1, 0, 0)
    assert club.send(url, row) == (0, 1, 0)
    r = subprocess.run([sys.executable, "-m", "narrator.cli", "club", "--database", url, "import", str(night[0])],
                       capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env=dict(os.environ, XDG_DATA_HOME=str(tmp_path)))
    assert r.returncode == 0 and "imported 0 new game(s); 1 already in the record" in r.stdout, r.stderr
    assert count(url) == (1, 10)


def test_the_server_restarted_in_the_middle_of_a_night_loses_nothing(postgres, night, tmp_path):  # noqa: F811
    url = postgres.new_database()
    procs = narrators(url, [night[:6], night[6:]], tmp_path, pause=0.25)
    deadline = time.time() + 60
    while count(url)[0] < 3 and time.time() < deadline:  # both are sending, one game a quarter second
        time.sleep(0.05)
    postgres.stop()
    time.sleep(0.8)  # down long enough for each narrator to finish a game or two meanwhile
    postgres.start()
    outs = finished(procs)
    sent = [tuple(map(int, line.split())) for out in outs for line in out.splitlines()]
    assert len(sent) == 12 and any(kept for _, _, kept in sent), sent
    # what the restart refused waits in each laptop's outbox and is sent by narrator club sync
    for i in range(2):
        env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / f"laptop{i}"))
        r = subprocess.run([sys.executable, "-m", "narrator.cli", "club", "--database", url, "sync"],
                           capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
        assert r.returncode == 0 and "sent to postgresql://narrator@127.0.0.1" in r.stdout, r.stdout + r.stderr
    assert count(url) == (12, 120)
    db = tmp_path / "one-by-one.sqlite"
    with club.connect(db) as record:
        for row in rows_of(night):
            record.add([row])
    assert standings(url) == standings(db)


def test_a_game_finished_while_the_server_is_down_is_kept_said_and_synced_later(postgres, night, tmp_path):  # noqa: F811
    url = postgres.new_database()
    box = tmp_path / "outbox.sqlite"
    text = (f'variant = "classic"\nlanguage = "ru"\n[club]\ndatabase = "{url}"\noutbox = "{box}"\n')
    cfg = parse_config(text, str(tmp_path / "club.toml"), str(tmp_path))
    assert club.database_target(cfg) == url  # a server's URL is no path to resolve
    from narrator.report.live import _to_club

    live = SimpleNamespace(config=cfg, voice=load_voice("ru"))
    club.send(url, rows_of(night[:2]), cfg)
    postgres.stop()
    try:
        warnings: list[str] = []
        assert _to_club(live, read_game(night[2]), warnings) is None
        # said at the end of the game, in the table's language, with where the game waits
        assert len(warnings) == 1 and warnings[0].startswith("Сервер клуба postgresql://narrator@127.0.0.1"), warnings
        assert str(box) in warnings[0] and "narrator club sync" in warnings[0]
        assert club.waiting(cfg) == 1
        config = tmp_path / "club.toml"
        config.write_text(text, encoding="utf-8")
        r = subprocess.run([sys.executable, "-m", "narrator.cli", "club", "--config", str(config), "sync"],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert r.returncode == 1 and "1 игра ещё ждёт отправки" in r.stderr and "Traceback" not in r.stderr, r.stderr
    finally:
        postgres.start()
    r = subprocess.run([sys.executable, "-m", "narrator.cli", "club", "--config", str(config), "sync"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0 and "новых игр — 1; уже были там — 0" in r.stdout, r.stdout + r.stderr
    assert club.waiting(cfg) == 0 and count(url) == (3, 30)
    # the next game over finds the server again, and the page shows how each rating moved
    warnings = []
    changes = _to_club(live, read_game(night[3]), warnings)
    assert warnings == [] and sorted(changes) == list(range(1, 11)) and count(url) == (4, 40)
