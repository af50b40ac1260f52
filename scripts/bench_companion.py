#!/usr/bin/env python3
"""Load test of the companion on loopback: 20 phones (two tables of 10, one narrator process and one
event loop, each table with its own server) tap through the real ASGI stack during a night step.

Prints one JSON object: {"clients": 20, "ack_p50_ms": …, "ack_p99_ms": …, "errors": 0, …}. The
latency is measured at the phone, from sending a tap to receiving its acknowledgement, and includes
the fixed night acknowledgement delay ([night] ack_ms, the same for every seat by design).

    python3 scripts/bench_companion.py [--taps 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.companion.testing import CLASSIC_DEAL, Table, until  # noqa: E402
from narrator.config import parse_config  # noqa: E402


async def phone_taps(phone, taps: int, latencies: list[float], errors: list[str]) -> None:
    for i in range(taps):
        sent = time.perf_counter()
        try:
            ack = await phone.tap(1 + (phone.seat + i) % 10)
        except Exception as exc:  # noqa: BLE001 - every failure is counted, none hidden
            errors.append(f"seat {phone.seat}: {type(exc).__name__}")
            continue
        latencies.append((time.perf_counter() - sent) * 1000)
        if not ack.get("ok", False) and "out of the game" not in ack.get("text", ""):
            errors.append(f"seat {phone.seat}: refused: {ack.get('text')}")


async def main(taps: int) -> dict:
    cfg = parse_config(CLASSIC_DEAL)
    async with Table(cfg) as a, Table(cfg) as b:
        for t in (a, b):
            # a bench phone taps ~40 times a second to load the server; a real phone is held to 4
            # (the flood limit), which would only measure the limit
            t.companion.hub.tap_burst, t.companion.hub.tap_rate = 10**6, 10**6
        phones = list((await a.join_all()).values()) + list((await b.join_all()).values())
        await asyncio.gather(a.to_night_one(), b.to_night_one())
        for p in phones:  # the phones learn the night's screen before they tap on it
            await until(lambda p=p: p.screen["step"] == "mafia_shoots")
        latencies: list[float] = []
        errors: list[str] = []
        await asyncio.gather(*(phone_taps(p, taps, latencies, errors) for p in phones))
        hold = a.companion.hub.ack_delay * 1000
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "clients": len(phones),
        "ack_p50_ms": round(statistics.median(latencies), 2),
        "ack_p99_ms": round(q[98], 2),
        "errors": len(errors),
        "acks": len(latencies),
        "ack_hold_ms": hold,
        "ack_max_ms": round(max(latencies), 2),
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=50, help="taps per phone (default 50)")
    args = ap.parse_args()
    print(json.dumps(asyncio.run(main(args.taps))))
