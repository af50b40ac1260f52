"""The club's season: ratings that understand teams (openskill), names as a person reads them,
seasons from the config, the standings page and CSV, and the rating change on the game's page."""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
import sys
from pathlib import Path

import pytest

from narrator import club
from narrator.config import ConfigError, parse_config

ROOT = Path(__file__).resolve().parents[2]
DEAL = ["sheriff", "don", "mafia", "mafia"] + ["citizen"] * 6
T0 = 1_790_000_000.0  # 2026-09-21 (local time: the same day on any machine of the suite's zones)


def game(n: int, winner: str | None, names: list[str | None], deal: list[str] = DEAL, t: float | None = None) -> club.GameRow:
    """A finished game as the record keeps it: seat i+1 is names[i] with deal[i]."""
    when = T0 + 3600 * n if t is None else t
    players = [club.PlayerFacts(i + 1, name, role, club.side_of(role), club.wins_with(role, winner), False, 0, None)
               for i, (name, role) in enumerate(zip(names, deal))]
    return club.GameRow(f"{n:064x}", when, when, None, "classic", 10, winner, 3, "en", None, players)


TEN = ["Anna", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo"]


def test_a_win_moves_every_rating_team_against_team_and_the_sheriff_and_don_weigh_as_the_club_chooses():
    people = club.People()
    even = club.rate_games([game(1, "town", TEN)], people)
    ch = even.changes[game(1, "town", TEN).hash]
    up, down = ch[5].after[0] - ch[5].before[0], ch[3].after[0] - ch[3].before[0]
    assert up > 0 > down and ch[1].after[0] - ch[1].before[0] == pytest.approx(up)  # a sheriff weighs as a citizen
    # the first game of newcomers is an even game whatever the sides' sizes (7 against 3): the
    # town's win moves its players as far up as the mafia's win would move the mafia's
    mafia_won = club.rate_games([game(1, "mafia", TEN)], club.People()).changes[game(1, "mafia", TEN).hash]
    assert mafia_won[3].after[0] - mafia_won[3].before[0] == pytest.approx(up)
    weighed = club.rate_games([game(1, "town", TEN)], club.People(), club.RatingSettings(don_weight=2.0, sheriff_weight=2.0))
    w = weighed.changes[game(1, "town", TEN).hash]
    # a weight is the role's share of its team's result: twice the winner's gain, half the loser's loss
    assert w[1].after[0] - w[1].before[0] == pytest.approx(2 * (w[5].after[0] - w[5].before[0]))
    assert w[2].after[0] - w[2].before[0] == pytest.approx((w[3].after[0] - w[3].before[0]) / 2)
    # and the uncertainty shrinks with every game played
    assert all(c.after[1] < c.before[1] for c in ch.values())


def test_a_draw_is_a_tie_and_moves_nobody_far():
    ch = club.rate_games([game(1, None, TEN)], club.People()).changes[game(1, None, TEN).hash]
    assert all(abs(c.after[0] - c.before[0]) < 1e-9 for c in ch.values())


def test_replaying_the_record_in_any_row_order_gives_the_same_ratings():
    rng = random.Random(41)
    games = []
    for n in range(30):
        names = rng.sample(TEN + ["Kai", "Lea"], 10)
        games.append(game(n, rng.choice(["town", "mafia"]), names, rng.sample(DEAL, 10), t=T0 + 600 * (n // 3)))
    # three games end at each moment: the id decides among them
    first = club.rate_games(games, club.People())
    again = club.rate_games(rng.sample(games, len(games)), club.People())
    assert first.now == again.now and first.changes == again.changes


def test_one_person_however_the_name_is_typed_and_a_renamed_member_keeps_his_games():
    g1 = game(1, "town", ["anna ", *TEN[1:]])
    g2 = game(2, "mafia", ["ＡＮＮＡ", *TEN[1:]])
    g3 = game(3, "town", ["Anna", "Sasha", *TEN[2:]])
    g4 = game(4, "town", ["Anna", "Alexandra", *TEN[2:]])
    c = club.compute([g1, g2, g3, g4], parse_config('variant = "classic"\nlanguage = "en"\n[club.renamed]\nSasha = "Alexandra"\n'))
    rows = {r.name: r for r in c.rows}
    assert rows["Anna"].games == 4  # shown as the latest game wrote it
    # Sasha's game is Alexandra's: one row, one rating, under the name the club renamed him to
    assert rows["Alexandra"].games == 2 and "Sasha" not in rows and rows["Bob"].games == 2


def test_two_seats_of_one_game_with_one_name_are_two_guests_never_one_member_on_both_sides():
    names = ["Anna", "Bob", "Cleo", "Anna", *TEN[4:]]  # the sheriff and a mafioso both written Anna
    c = club.compute([game(1, "town", TEN), game(2, "town", names)])
    rows = {r.name: r for r in c.rows}
    assert rows["Anna"].games == 1 and rows["Anna #1"].games == 1 and rows["Anna #4"].games == 1
    assert rows["Anna #1"].rating is None and rows["Anna"].rating is not None
    assert c.people.shared == [(game(2, "town", names).hash, "Anna")]
    assert c.ratings.changes[game(2, "town", names).hash][1].guest


def test_names_are_data_in_the_record_and_the_standings_page(tmp_path):
    hostile = ["Robert'); DROP TABLE players;--", "<script>alert(1)</script>", 'Tom "T" & Jerry', *TEN[3:]]
    db = tmp_path / "club.sqlite"
    with club.connect(db) as record:
        record.add([game(1, "town", hostile), game(2, "mafia", hostile)])
        games = record.games()
    assert {p.name for p in games[0].players} >= set(hostile[:3])
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM players").fetchone()[0] == 20
    from narrator.language import load_voice
    from narrator.report.standings import render

    page = render(club.compute(games), load_voice("en"))
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Robert&#x27;); DROP TABLE players;--" in page and "Tom &quot;T&quot; &amp; Jerry" in page


def test_seasons_and_renames_are_read_from_the_config_and_a_bad_one_is_named_by_line():
    cfg = parse_config('variant = "classic"\nlanguage = "en"\n[club]\ndon_weight = 1.5\n'
                       '[club.seasons]\n"autumn 2026" = [2026-09-01, 2026-12-31]\nspring = ["2027-01-01", "2027-05-31"]\n'
                       '[club.renamed]\nSasha = "Alexandra"\n')
    s = club.seasons(cfg)
    assert [x.name for x in s.values()] == ["autumn 2026", "spring"] and str(s["spring"].last) == "2027-05-31"
    assert club.RatingSettings.of(cfg).don_weight == 1.5 and club.renamed(cfg) == {"Sasha": "Alexandra"}
    with pytest.raises(ConfigError) as e:
        parse_config('variant = "classic"\nlanguage = "de"\n[club.seasons]\nwinter = ["2027-03-01", "2027-01-01"]\n'
                     '[club.renamed]\nX = ""\n[club]\nsheriff_weight = 0\n', "club.toml")
    lines = e.value.lines()
    assert lines[0].startswith("club.toml:4: club.seasons.winter: eine Saison ist ihr erster und letzter Tag")
    assert lines[1].startswith("club.toml:6: club.renamed.X: der neue Name ist ein Text von höchstens 40 Zeichen")
    assert lines[2].startswith("club.toml:8: club.sheriff_weight:")


def test_a_server_url_is_taken_as_written_and_its_password_never_printed(tmp_path):
    cfg = parse_config('variant = "classic"\nlanguage = "en"\n[club]\ndatabase = "postgresql://club:secret@10.0.0.2/club"\n',
                       str(tmp_path / "c.toml"), str(tmp_path))
    assert club.database_target(cfg) == "postgresql://club:secret@10.0.0.2/club"
    assert club.shown_target(club.database_target(cfg)) == "postgresql://club:***@10.0.0.2/club"
    assert club.outbox_path(cfg).name == "club-outbox.sqlite"


def test_an_old_record_without_end_times_is_read_and_rated(tmp_path):
    db = tmp_path / "old.sqlite"
    old = sqlite3.connect(db)
    old.executescript(club.SCHEMA.replace(",\n    ended_at DOUBLE PRECISION", ""))
    old.execute("INSERT INTO games VALUES ('h', ?, ?, 'classic', 10, 'town', 2, 'en', NULL)", (T0, T0))
    old.executemany("INSERT INTO players VALUES ('h', ?, ?, ?, ?, ?, 0, 0, NULL)",
                    [(i + 1, n, r, club.side_of(r), int(club.side_of(r) == "town")) for i, (n, r) in enumerate(zip(TEN, DEAL))])
    old.commit()
    old.close()
    with club.connect(db) as record:
        c = club.compute(record.games())
    assert len(c.rows) == 10 and all(r.rating for r in c.rows)


def run(*args):
    """`narrator ARGS…` in this process (the command's own main), its output caught."""
    import contextlib
    from types import SimpleNamespace

    from narrator.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    """Ten simulated games, five in September and five in October, imported into one record."""
    d = tmp_path_factory.mktemp("season")
    players = "".join(f"{i} = {json.dumps(n)}\n" for i, n in enumerate(TEN, start=1))
    cfg = d / "club.toml"
    cfg.write_text(f'variant = "classic"\nlanguage = "en"\n[players]\n{players}[club]\ndatabase = "club.sqlite"\n'
                   '[club.seasons]\nseptember = [2026-09-01, 2026-09-30]\noctober = [2026-10-01, 2026-10-31]\n', encoding="utf-8")
    from narrator.simulate import simulate

    simulate("classic", 10, 3, check_replay=False, protocols=str(d / "games"), players=dict(enumerate(TEN, start=1)))
    for i, f in enumerate(sorted((d / "games").glob("*.jsonl"))):
        lines = f.read_text(encoding="utf-8").splitlines(keepends=True)
        table = json.loads(lines[0])
        table["started"] = 1_788_800_000 + 86400 * (3 * i + (10 if i >= 5 else 0))  # 2026-09-07 onwards
        f.write_text(json.dumps(table) + "\n" + "".join(lines[1:]), encoding="utf-8")
    r = run("club", "--config", str(cfg), "import", *map(str, sorted((d / "games").glob("*.jsonl"))))
    assert r.returncode == 0 and "imported 10 new" in r.stdout, r.stdout + r.stderr
    return d, cfg


def test_a_season_counts_its_own_games_and_its_ratings_start_afresh(season):
    d, cfg = season
    table = lambda *a: list(csv.DictReader(io.StringIO(run("club", "--config", str(cfg), "--csv", *a).stdout)))  # noqa: E731
    whole = {r["player"]: r for r in table() if r["scope"] == "all"}
    sept = {r["player"]: r for r in table("--season", "september") if r["scope"] == "all"}
    octo = {r["player"]: r for r in table("--season", "october") if r["scope"] == "all"}
    assert all(int(r["games"]) == 10 for r in whole.values())
    assert all(int(r["games"]) == 5 for r in sept.values()) and all(int(r["games"]) == 5 for r in octo.values())
    # September's ratings are the first five games' alone: the whole record's go on from them
    assert {k: v["rating"] for k, v in sept.items()} != {k: v["rating"] for k, v in whole.items()}
    assert all(float(r["uncertainty"]) > float(whole[k]["uncertainty"]) for k, r in sept.items())
    r = run("club", "--config", str(cfg), "--season", "winter")
    assert r.returncode == 2 and "--season takes a season of the config's [club.seasons], one of september, october, not 'winter'" in r.stderr
    r = run("club", "--config", str(cfg), "--season", "october")
    # the heading breaks between words at the terminal's width, wherever the record's path ends
    assert r.returncode == 0 and "season october: 2026-10-01 – 2026-10-31" in " ".join(r.stdout.split()) and "±" in r.stdout


def test_the_standings_page_is_one_file_with_the_table_and_the_chart(season, tmp_path):
    d, cfg = season
    out = tmp_path / "standings.html"
    r = run("club", "--config", str(cfg), "--season", "september", "--html", str(out), "--language", "ru")
    assert r.returncode == 0 and r.stdout.strip() == str(out), r.stderr
    page = out.read_text(encoding="utf-8")
    assert "Таблица клуба" in page and "Сезон september: 2026-09-01 – 2026-09-30" in page and "Игр: 5" in page
    assert page.count("<polyline") == 10 and "<script" not in page and "http" not in page.replace("http-equiv", "")
    r = run("club", "--database", str(tmp_path / "none.sqlite"), "sync")
    assert r.returncode == 2 and "this record is a file" in r.stderr


def test_the_game_report_shows_each_players_rating_change(season, tmp_path):
    from narrator.report import read_game, render

    d, cfg = season
    f = sorted((d / "games").glob("*.jsonl"))[4]
    record = read_game(f)
    with club.connect(d / "club.sqlite") as rec:
        changes = club.rating_changes(rec, record.content_hash())
    assert sorted(changes) == list(range(1, 11))
    page = render(record, changes)
    assert "The club&#x27;s rating" in page and page.count("<td class=\"up\">+") + page.count("<td class=\"down\">-") == 10
    assert "The club&#x27;s rating" not in render(record)  # a game outside any club record: no section


def test_at_game_over_the_page_beside_the_journal_shows_every_players_rating_change(tmp_path):
    """A live German game to its end: the club's record takes it and its page shows each rating."""
    from test_report_live import finished_journal, live_on

    from narrator.report.live import finish, report_html

    cfg, path = finished_journal(tmp_path)
    live = live_on(cfg, path)
    written, warnings = finish(live)
    assert warnings == []
    html = Path(written[0]).read_text(encoding="utf-8")
    assert "Die Wertung des Clubs" in html and html.count("<i>±") == 20  # before and after, each seat
    assert "Die Wertung des Clubs" in report_html(live)  # the phones' and host screen's /report too


def test_narrator_report_of_a_game_in_the_clubs_record_shows_the_rating_change(season, tmp_path):
    d, cfg = season
    f = sorted((d / "games").glob("*.jsonl"))[0]
    r = run("report", str(f), "--config", str(cfg), "-o", str(tmp_path / "g.html"))
    assert r.returncode == 0, r.stderr
    assert "The club&#x27;s rating" in (tmp_path / "g.html").read_text(encoding="utf-8")


def test_a_server_without_its_driver_is_named_and_the_game_still_waits_in_the_outbox(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from narrator.language import load_voice
    from narrator.report import read_game
    from narrator.report.live import _to_club

    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg fails, as without the club extra
    box = tmp_path / "outbox.sqlite"
    cfg = parse_config(f'variant = "classic"\nlanguage = "sv"\n[club]\ndatabase = "postgresql://club@10.0.0.2/club"\n'
                       f'outbox = "{box}"\n')
    warnings: list[str] = []
    protocol = sorted((ROOT / "tests" / "transcripts").glob("classic_en_simulated.txt"))
    assert protocol  # a finished game of the suite's, as its protocol
    from test_report import protocol_file

    assert _to_club(SimpleNamespace(config=cfg, voice=load_voice("sv")), read_game(protocol_file(protocol[0], tmp_path)),
                    warnings) is None
    assert warnings[0].startswith("postgresql://club@10.0.0.2/club: för att nå en PostgreSQL-server behöver narrator psycopg")
    assert warnings[1].startswith("Klubbens server postgresql://club@10.0.0.2/club går inte att nå") and club.waiting(cfg) == 1


def test_check_config_never_prints_the_servers_password(tmp_path):
    cfg = tmp_path / "club.toml"
    cfg.write_text('variant = "classic"\nlanguage = "en"\n[club]\ndatabase = "postgresql://club:secret@10.0.0.2/club"\n',
                   encoding="utf-8")
    r = run("check-config", str(cfg))
    assert r.returncode == 0 and "secret" not in r.stdout + r.stderr
