#!/usr/bin/env python3
"""Recommended setups by player count, derived by simulation (prints one JSON object).

Method: a simulated town whose choices land on a real mafioso with probability `skill` (the
mafia always vote against the town). `skill` is calibrated so that the classic 10-seat game —
whose 3-of-10 setup the sports-mafia federations tuned over many real games — comes out nearest
to even. With that table strength fixed, for every variant and player count the mafia count
whose town win rate is nearest to 50 % is recommended. The Swedish seed's role diagram is
missing; its default table (narrator.rules.variants.sverige_table) comes from this script.

    python3 scripts/balance.py [--games 300] [--seed 1] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from narrator.rules.variants import VARIANTS
from narrator.simulate import simulate

MAFIA_ROLE = {"classic": "mafia", "sverige": "mafia", "hungariq": "mafia", "grundregeln": "mafia"}
FIXED = {"classic": {"don": 1}, "hungariq": {"protected_mafia": 1}}


def town_rate(variant: str, seats: int, mafia: int, skill: float, games: int, seed: int) -> float:
    roles = {MAFIA_ROLE[variant]: mafia - sum(FIXED.get(variant, {}).values())}
    r = simulate(variant, games, seed, seats=seats, roles=roles, skill=skill, check_replay=False)
    assert r["violations"] == 0, r
    return r["win_rate"]["town"]


def calibrate(games: int, seed: int) -> tuple[float, float]:
    best = None
    for skill in [x / 20 for x in range(6, 17)]:
        rate = simulate("classic", games, seed, skill=skill, check_replay=False)["win_rate"]["town"]
        if best is None or abs(rate - 0.5) < abs(best[1] - 0.5):
            best = (skill, rate)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    started = time.time()
    skill, classic_rate = calibrate(args.games, args.seed)
    table = []
    plan = {
        "classic": range(10, 21, 2),
        "sverige": range(8, 27, 2),
        "hungariq": range(10, 17, 2),
        "grundregeln": range(5, 17, 2),
    }
    for variant, sizes in plan.items():
        lo, hi = VARIANTS[variant].seats
        for n in sizes:
            if not lo <= n <= hi:
                continue
            low = max(1 + sum(FIXED.get(variant, {}).values()), n // 6)
            options = {}
            top = n // 2 if variant == "grundregeln" else n // 3 + 1
            for m in range(low, max(low, top) + 1):
                options[m] = town_rate(variant, n, m, skill, args.games, args.seed)
            best = min(options, key=lambda m: abs(options[m] - 0.5))
            default = sum(v for r, v in VARIANTS[variant].roles_for(n).items() if r in ("mafia", "don", "protected_mafia"))
            table.append({"variant": variant, "players": n, "recommended_mafia": best, "town_win_rate": options[best],
                          "default_mafia": default, "rates": {str(m): r for m, r in options.items()}})
    result = {"machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
              "games_per_setup": args.games, "skill": skill, "classic_10_town_rate": classic_rate,
              "seconds": round(time.time() - started, 1), "setups": table}
    if args.markdown:
        print("| variant | players | recommended mafia | town wins | default mafia |")
        print("|---|---|---|---|---|")
        for row in table:
            print(f"| {row['variant']} | {row['players']} | {row['recommended_mafia']} | {row['town_win_rate']:.0%} | {row['default_mafia']} |")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
