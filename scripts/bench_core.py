#!/usr/bin/env python3
"""Benchmark of the pure game core: complete random games per second on one core (target for
classic: >= 500 games/s), with and without replaying every protocol. Prints one JSON object.

    python3 scripts/bench_core.py [--games 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform

from narrator.rules.variants import VARIANTS
from narrator.simulate import simulate


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rows = []
    for name in VARIANTS:
        checked = simulate(name, args.games, args.seed, check_replay=True)
        plain = simulate(name, args.games, args.seed, check_replay=False)
        rows.append({"variant": name, "games": args.games, "violations": checked["violations"],
                     "games_per_second": plain["games_per_second"],
                     "games_per_second_with_replay_check": checked["games_per_second"],
                     "mean_days": plain["mean_days"]})
    print(json.dumps({
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}",
        "load_average": os.getloadavg()[0],
        "target_classic_games_per_second": 500,
        "variants": rows,
    }))


if __name__ == "__main__":
    main()
