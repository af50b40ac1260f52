#!/usr/bin/env python3
"""How long checking a hostile config takes: N unknown keys, each an error naming its line.

Reporting must stay linear in the file (it was quadratic: 6,000 bad keys took 37 s). Prints one
JSON object: {"bad_keys": {"3000": seconds, "6000": …, "12000": …}, "ratio_12000_to_6000": …}.

    python3 scripts/bench_config.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.config import ConfigError, parse_config  # noqa: E402


def check(n: int) -> float:
    text = 'variant = "classic"\nlanguage = "en"\n[rules]\n' + "".join(f"bad_key_{i} = {i}\n" for i in range(n))
    start = time.perf_counter()
    try:
        parse_config(text, "club.toml")
    except ConfigError as exc:
        assert len(exc.problems) == n
    return time.perf_counter() - start


def main() -> None:
    times = {n: min(check(n) for _ in range(3)) for n in (3000, 6000, 12000)}
    print(json.dumps({"bad_keys": {str(n): round(t, 4) for n, t in times.items()},
                      "ratio_12000_to_6000": round(times[12000] / times[6000], 2)}))


if __name__ == "__main__":
    main()
