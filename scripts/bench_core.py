#!/usr/bin/env python3
"""Benchmark of the pure game core: complete random games per second on one core (target for
classic: >= 500 games/s), with and without replaying every protocol. Prints one JSON object.

Each figure comes twice: by the wall clock (`games_per_second`, what a user waits) and by the
process's CPU time (`cpu_games_per_second`), which a loaded machine — a CI run, other jobs on the
same cores — hardly moves: compare the CPU figures across machines and moments.

    python3 scripts/bench_core.py [--games 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

from narrator.rules.variants import VARIANTS
from narrator.simulate import simulate


def timed(name: str, games: int, seed: int, check_replay: bool) -> tuple[dict, float | None]:
    """simulate's result, and its games per second of this process's CPU time."""
    started = time.process_time()
    result = simulate(name, games, seed, check_replay=check_replay)
    used = time.process_time() - started
    return result, round(games / used, 1) if used else None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rows = []
    for name in VARIANTS:
        checked, checked_cpu = timed(name, args.games, args.seed, True)
        plain, plain_cpu = timed(name, args.games, args.seed, False)
        rows.append({"variant": name, "games": args.games, "violations": checked["violations"],
                     "games_per_second": plain["games_per_second"],
                     "cpu_games_per_second": plain_cpu,
                     "games_per_second_with_replay_check": checked["games_per_second"],
                     "cpu_games_per_second_with_replay_check": checked_cpu,
                     "mean_days": plain["mean_days"]})
    print(json.dumps({
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}",
        "load_average": os.getloadavg()[0],
        "target_classic_games_per_second": 500,
        "variants": rows,
    }))


if __name__ == "__main__":
    main()
