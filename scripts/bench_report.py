"""Report and club figures, printed as one JSON object.

- report rendering time of a long game (10 days or more; the longest of a batch of simulated games,
  read from its protocol file and drawn as HTML), median of several runs;
- import speed of the club's record in games per second (simulated protocols into a fresh SQLite
  file, each game its own transaction, as `narrator club import` does);
- the club's table (figures and every rating replayed from the record) and, at game over, the
  game's rating changes, in milliseconds.

    python3 scripts/bench_report.py [--games 200] [--runs 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator import club  # noqa: E402
from narrator.report import read_game, render  # noqa: E402
from narrator.simulate import simulate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "games"
        players = {i: f"Player {i}" for i in range(1, 11)}
        # skill 0.6 plays like a table (scripts/balance.py); the longest games reach 10 days
        simulate("classic", args.games, 7, check_replay=False, protocols=str(folder), players=players, skill=0.6)
        files = sorted(folder.glob("*.jsonl"))
        # the long game: a 20-seat classic table plays 10 days and more
        long_folder = Path(tmp) / "long"
        simulate("classic", 60, 3, seats=20, check_replay=False, protocols=str(long_folder),
                 players={i: f"Player {i}" for i in range(1, 21)})

        def days_of(rec) -> int:
            return next((e["days"] for e in rec.entries if e["type"] == "game_over"), 0)

        longs = [(f, read_game(f)) for f in sorted(long_folder.glob("*.jsonl"))]
        longest_file, longest = next(((f, r) for f, r in longs if days_of(r) == 10), max(longs, key=lambda fr: days_of(fr[1])))
        days = days_of(longest)
        read_times, render_times = [], []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            rec = read_game(longest_file)
            t1 = time.perf_counter()
            html = render(rec)
            t2 = time.perf_counter()
            read_times.append(t1 - t0)
            render_times.append(t2 - t1)
        db = Path(tmp) / "club.sqlite"
        conn = club.connect(db)
        t0 = time.perf_counter()
        club.import_many(conn, [read_game(f) for f in files])  # as `narrator club import FILES…`
        elapsed = time.perf_counter() - t0
        conn2 = club.connect(Path(tmp) / "one-by-one.sqlite")
        t0 = time.perf_counter()
        for f in files[:50]:
            club.import_record(conn2, read_game(f))  # as at every game over: one game, one transaction
        one_by_one = 50 / (time.perf_counter() - t0)
        conn2.close()
        t0 = time.perf_counter()
        dups = sum(1 for f in files if not club.import_record(conn, read_game(f)))
        dup_elapsed = time.perf_counter() - t0
        t0 = time.perf_counter()
        table = club.compute(conn.games())  # what `narrator club` reads and computes: figures and ratings
        table_ms = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        club.rating_changes(conn, table.games[-1].hash)  # at game over: the page's rating section
        changes_ms = (time.perf_counter() - t0) * 1000
        conn.close()
    print(json.dumps({
        "report_game_days": days,
        "report_protocol_entries": len(longest.entries),
        "report_read_ms_median": round(statistics.median(read_times) * 1000, 2),
        "report_render_ms_median": round(statistics.median(render_times) * 1000, 2),
        "report_total_ms_median": round(statistics.median(a + b for a, b in zip(read_times, render_times)) * 1000, 2),
        "report_html_kb": round(len(html.encode("utf-8")) / 1024, 1),
        "club_import_games": len(files),
        "club_import_games_per_second": round(len(files) / elapsed, 1),
        "club_import_one_transaction_each_games_per_second": round(one_by_one, 1),
        "club_duplicate_check_games_per_second": round(len(files) / dup_elapsed, 1),
        "club_duplicates_refused": dups,
        "club_table_ms": round(table_ms, 2),
        "club_rating_changes_ms": round(changes_ms, 2),
    }))


if __name__ == "__main__":
    main()
