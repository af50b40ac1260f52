"""The club's record: simulated games written as protocols, imported into SQLite, counted once
each, filtered, exported, and written by two narrators at the same moment without a loss."""

from __future__ import annotations

import csv
import io
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

# every test here drives a real process, server or speech model
pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Anna", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo"]


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "narrator.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, env=env)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    d = tmp_path_factory.mktemp("club")
    cfg = d / "club.toml"
    players = "".join(f'{i} = "{n}"\n' for i, n in enumerate(NAMES, start=1))
    cfg.write_text(f'variant = "classic"\nlanguage = "en"\n[players]\n{players}[club]\ndatabase = "{d / "club.sqlite"}"\n',
                   encoding="utf-8")
    r = run("simulate", "--games", "24", "--seed", "5", "--config", str(cfg), "--protocols", str(d / "games"))
    assert r.returncode == 0, r.stderr
    sv = d / "sverige.toml"
    sv.write_text(f'variant = "sverige"\nlanguage = "sv"\nseats = 10\n[players]\n{players}', encoding="utf-8")
    r = run("simulate", "--variant", "sverige", "--games", "6", "--seed", "6", "--config", str(sv), "--protocols", str(d / "sv"))
    assert r.returncode == 0, r.stderr
    return d, cfg


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_simulate_writes_one_protocol_per_game_with_the_table(club):
    d, _ = club
    files = sorted((d / "games").glob("*.jsonl"))
    assert len(files) == 24
    first = files[0].read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith('{"type": "table", "language": "en", "players": {')
    r = run("report", str(files[0]), "-o", str(d / "one.html"))
    assert r.returncode == 0, r.stderr


def test_import_counts_each_game_once_and_every_player_in_every_game(club):
    d, cfg = club
    files = [str(f) for f in sorted((d / "games").glob("*.jsonl"))]
    r = run("club", "--config", str(cfg), "import", *files)
    assert r.returncode == 0 and "imported 24 new game(s); 0 already in the record" in r.stdout, r.stderr
    r = run("club", "--config", str(cfg), "import", *files[:5])
    assert r.returncode == 0 and "imported 0 new game(s); 5 already in the record" in r.stdout
    r = run("club", "--config", str(cfg), "--csv")
    table = rows(r.stdout)
    overall = {x["player"]: x for x in table if x["scope"] == "all"}
    assert set(overall) == set(NAMES) and all(int(x["games"]) == 24 for x in overall.values())
    db = sqlite3.connect(d / "club.sqlite")
    winners = dict(db.execute("SELECT winner, COUNT(*) FROM games GROUP BY winner").fetchall())
    mafia_wins = db.execute("SELECT COUNT(*) FROM players p JOIN games g ON g.hash = p.game "
                            "WHERE p.team = 'mafia' AND g.winner = 'mafia'").fetchone()[0]
    assert sum(int(x["wins"]) for x in overall.values()) == mafia_wins + 7 * winners.get("town", 0)
    # by team and by role add up to the whole
    for name in NAMES:
        teams = [x for x in table if x["player"] == name and x["scope"] == "team"]
        roles = [x for x in table if x["player"] == name and x["scope"] == "role"]
        assert sum(int(x["games"]) for x in teams) == sum(int(x["games"]) for x in roles) == 24
    # a sheriff's check that found mafia is counted for the sheriff: compare with the protocols
    found = db.execute("SELECT SUM(checks_found_mafia) FROM players WHERE role = 'sheriff'").fetchone()[0]
    in_files = sum(f.read_text(encoding="utf-8").count('"result": "mafia"') for f in (d / "games").glob("*.jsonl"))
    assert found == in_files


def test_filters_by_variant_and_date_and_the_table(club):
    d, cfg = club
    r = run("club", "--config", str(cfg), "import", *map(str, (d / "sv").glob("*.jsonl")))
    assert r.returncode == 0, r.stderr
    sv = {x["player"]: x for x in rows(run("club", "--config", str(cfg), "--variant", "sverige", "--csv").stdout)
          if x["scope"] == "all"}
    assert all(int(x["games"]) == 6 for x in sv.values()) and set(sv) == set(NAMES)
    assert rows(run("club", "--config", str(cfg), "--since", "2999-01-01", "--csv").stdout) == []
    r = run("club", "--config", str(cfg), "--since", "yesterday")
    assert r.returncode == 2 and "--since takes a date" in r.stderr
    # a typo in the rule system is named, not read as "no games yet"
    r = run("club", "--config", str(cfg), "--variant", "sverig")
    assert r.returncode == 2 and "one of classic, sverige, hungariq, grundregeln, not 'sverig'" in r.stderr
    r = run("club", "--config", str(cfg))
    assert r.returncode == 0 and "Anna" in r.stdout and "Killed" in r.stdout and "By role" in r.stdout


def test_unfinished_and_foreign_files_are_refused_by_name(club, tmp_path):
    d, cfg = club
    good = sorted((d / "games").glob("*.jsonl"))[0]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(good.read_text(encoding="utf-8").splitlines(keepends=True)[:50]), encoding="utf-8")
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not a game\n", encoding="utf-8")
    r = run("club", "--database", str(tmp_path / "c.sqlite"), "import", str(cut), str(junk))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{cut}" in r.stderr and "only finished games" in r.stderr and f"{junk}:1:" in r.stderr
    assert "imported 0 new game(s); 0 already in the record; 2 refused" in r.stdout


def test_two_narrators_importing_into_one_shared_file_at_once_lose_nothing(club, tmp_path):
    d, _ = club
    files = [str(f) for f in sorted((d / "games").glob("*.jsonl"))]
    db = tmp_path / "shared.sqlite"
    # two processes, overlapping halves, started together
    a = subprocess.Popen([sys.executable, "-m", "narrator.cli", "club", "--database", str(db), "import", *files[:16]],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    b = subprocess.Popen([sys.executable, "-m", "narrator.cli", "club", "--database", str(db), "import", *files[8:]],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    (out_a, err_a), (out_b, err_b) = a.communicate(timeout=300), b.communicate(timeout=300)
    assert a.returncode == b.returncode == 0, err_a + err_b
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 24
    assert conn.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 240


def test_two_writers_in_tight_loops_hold_the_lock_in_turn(club, tmp_path):
    """Both writers hammer the file through the library, each game its own transaction."""
    d, _ = club
    script = (
        "import sys; from narrator import club; from narrator.report import read_game\n"
        "c = club.connect(sys.argv[1])\n"
        "for f in sys.argv[2:]: club.import_record(c, read_game(f))\n"
    )
    files = [str(f) for f in sorted((d / "games").glob("*.jsonl"))]
    db = tmp_path / "tight.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", script, str(db), *part], cwd=ROOT, stderr=subprocess.PIPE, text=True)
             for part in (files, list(reversed(files)))]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0] == 24


def test_the_default_record_lives_in_the_users_data_directory(tmp_path):
    import os

    from narrator import club

    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    r = run("club", env=env)
    assert r.returncode == 0 and (tmp_path / "data" / "narrator" / "club.sqlite").exists()
    assert club.default_path().name == "club.sqlite"


def test_a_club_reads_its_record_in_the_language_it_plays_in(club, tmp_path):
    """A Swedish club's record, read with no flag at all: its games were all played in Swedish, so
    the table speaks Swedish; a Russian club's config makes it Russian, --language overrides both.
    --csv keeps its English keys for spreadsheets and scripts."""
    d, _ = club
    db = tmp_path / "sv.sqlite"
    r = run("club", "--database", str(db), "--config", str(d / "sverige.toml"), "import", *map(str, (d / "sv").glob("*.jsonl")))
    assert r.returncode == 0 and "nya spel importerade: 6" in r.stdout, r.stdout + r.stderr
    r = run("club", "--database", str(db))
    assert r.returncode == 0, r.stderr
    assert "Klubbens statistik: 6 spel" in r.stdout and "Spelare" in r.stdout and "Per roll" in r.stdout
    assert "Maffian" in r.stdout and "Player" not in r.stdout
    ru = tmp_path / "ru.toml"
    ru.write_text(f'variant = "classic"\nlanguage = "ru"\n[club]\ndatabase = "{db}"\n', encoding="utf-8")
    r = run("club", "--config", str(ru))
    assert "Рейтинг клуба: 6 игр" in r.stdout and "Игрок" in r.stdout and "По ролям" in r.stdout, r.stdout
    assert "Шериф" in r.stdout or "Доктор" in r.stdout  # the roles in the club's words, as the game report names them
    r = run("club", "--config", str(ru), "--language", "de")
    assert "Die Bilanz des Clubs: 6 Spiele" in r.stdout and "Spieler" in r.stdout
    r = run("club", "--config", str(ru), "--since", "gestern")
    assert r.returncode == 2 and "--since принимает дату вида 2026-11-01, а не 'gestern'" in r.stderr
    r = run("club", "--config", str(ru), "--csv")
    assert r.stdout.splitlines()[0] == "player,scope,key,games,wins,win_rate,killed_first_night,checks_found_mafia,rating,uncertainty"
    r = run("club", "--database", str(tmp_path / "empty.sqlite"), "--language", "hu")
    assert "Még nincs játék" in r.stdout
    r = run("club", "--database", str(db), "--language", "xx")
    assert r.returncode == 2 and "Traceback" not in r.stderr
