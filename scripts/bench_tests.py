#!/usr/bin/env python3
"""How long the test suite takes: the whole suite (the README's test command) and the fast loop
(`-m "not e2e"`), each run once through pytest as an engineer runs it, and the 20 slowest tests.

Prints one JSON object:
    {"cores": 2, "suite": {"wall_s": …, "passed": …, "failed": …, "skipped": …},
     "fast_loop": {…}, "slowest": [{"test": …, "s": …}, …]}

    python3 scripts/bench_tests.py [--fast-only] [--slowest 20] [-- extra pytest args]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(select: list[str], extra: list[str]) -> tuple[dict, list[tuple[str, float]]]:
    """One run of pytest: its wall time, its counts from the JUnit report, and each test's time."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *select,
                               f"--junitxml={report}", *extra], cwd=ROOT, capture_output=True, text=True)
        wall = time.monotonic() - started
        counts = {"wall_s": round(wall, 1), "exit": proc.returncode, "passed": 0, "failed": 0, "skipped": 0}
        times: list[tuple[str, float]] = []
        if report.exists():
            for case in ET.parse(report).getroot().iter("testcase"):
                name = f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
                times.append((name, float(case.get("time") or 0)))
                if case.find("failure") is not None or case.find("error") is not None:
                    counts["failed"] += 1
                elif case.find("skipped") is not None:
                    counts["skipped"] += 1
                else:
                    counts["passed"] += 1
        if proc.returncode not in (0, 5):
            counts["tail"] = proc.stdout[-2000:]
        return counts, times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fast-only", action="store_true", help="time the fast loop alone")
    ap.add_argument("--slowest", type=int, default=20, help="how many of the slowest tests to list")
    ap.add_argument("extra", nargs="*", help="more pytest arguments (after --)")
    args = ap.parse_args()
    result: dict = {"cores": os.cpu_count()}
    fast, fast_times = run(["-m", "not e2e"], args.extra)
    result["fast_loop"] = fast
    times = fast_times
    if not args.fast_only:
        whole, times = run([], args.extra)
        result["suite"] = whole
    result["slowest"] = [{"test": name, "s": round(s, 2)} for name, s in sorted(times, key=lambda t: -t[1])[:args.slowest]]
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0 if all(r.get("exit") in (0, None) for r in (result.get("suite", {}), fast)) else 1


if __name__ == "__main__":
    sys.exit(main())
