#!/usr/bin/env python3
"""Load test of the companion on loopback: 20 phones (two tables of 10, one narrator process and one
event loop, each table with its own server) tap through the real ASGI stack during a night step.

Prints one JSON object: {"clients": 20, "ack_p50_ms": …, "ack_p99_ms": …, "errors": 0, …}. The
latency is measured at the phone, from sending a tap to receiving its acknowledgement, and includes
the fixed night acknowledgement delay ([night] ack_ms, the same for every seat by design).

    python3 scripts/bench_companion.py [--taps 50]

With --flood, the phones of one table tap at a real phone's pace (within the tap limits) while
another process floods the server with host messages (20,000 in 5 s by default, over 100
connections): as a host screen gone mad (--flood-as host, with the host's key: only the rate
limit stands in its way) or as strangers without it (--flood-as stranger). Prints the phones'
ack p50/p99/max during the flood and the process's memory at the start, its peak and the end:

    python3 scripts/bench_companion.py --flood [--flood-as host|stranger] [--messages 20000] [--seconds 5]
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


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def flooder(url: str, hello: dict, messages: int, seconds: float, conns: int, sent, ready) -> None:
    """In its own process: `conns` connections send `messages` host messages, spread over `seconds`."""
    from narrator.companion.testing import connect

    async def one(share: int, deadline: float) -> None:
        done = 0
        while done < share and time.monotonic() < deadline + 2:
            try:
                async with connect(url, open_timeout=5, close_timeout=0.5) as ws:
                    await ws.send(json.dumps(hello))
                    while done < share:
                        # spread evenly: each connection keeps to its share of the rate
                        due = start + done * seconds / share
                        if due > time.monotonic():
                            await asyncio.sleep(due - time.monotonic())
                        await ws.send('{"t":"pause"}')
                        done += 1
                        with sent.get_lock():
                            sent.value += 1
            except Exception:  # noqa: BLE001 - refused or closed: a stranger connects again
                await asyncio.sleep(0.01)

    async def run() -> None:
        nonlocal start
        ready.wait()
        start = time.monotonic()
        share = messages // conns
        await asyncio.gather(*(one(share, start + seconds) for _ in range(conns)))

    start = 0.0
    asyncio.run(run())


async def flood(kind: str, messages: int, seconds: float, conns: int) -> dict:
    import multiprocessing as mp

    from narrator.companion.testing import host_hello

    cfg = parse_config(CLASSIC_DEAL)
    async with Table(cfg) as t:
        phones = list((await t.join_all()).values())
        await t.to_night_one()
        for p in phones:
            await until(lambda p=p: p.screen["step"] == "mafia_shoots")
        hello = host_hello(t.companion.hub) if kind == "host" else {"t": "host"}
        ctx = mp.get_context("spawn")
        sent, ready = ctx.Value("i", 0), ctx.Event()
        proc = ctx.Process(target=flooder, args=(t.ws_url, hello, messages, seconds, conns, sent, ready), daemon=True)
        proc.start()
        await asyncio.sleep(1.5)  # the flooder's interpreter starts
        rss_start = peak = rss_mb()
        latencies: list[float] = []
        errors: list[str] = []

        async def real_phone(phone) -> None:
            # a real phone's pace: a tap every half second, well within the tap limits
            end = time.monotonic() + seconds + 1
            i = 0
            while time.monotonic() < end:
                sent_at = time.perf_counter()
                try:
                    ack = await phone.tap(1 + (phone.seat + i) % 10)
                    latencies.append((time.perf_counter() - sent_at) * 1000)
                    if not ack.get("ok", False):
                        errors.append(f"seat {phone.seat}: refused: {ack.get('text')}")
                except Exception as exc:  # noqa: BLE001 - every failure is counted
                    errors.append(f"seat {phone.seat}: {type(exc).__name__}")
                i += 1
                await asyncio.sleep(0.5)

        async def watch_memory() -> None:
            nonlocal peak
            while proc.is_alive():
                peak = max(peak, rss_mb())
                await asyncio.sleep(0.1)

        ready.set()
        began = time.monotonic()
        watcher = asyncio.create_task(watch_memory())
        await asyncio.gather(*(real_phone(p) for p in phones))
        await asyncio.get_running_loop().run_in_executor(None, proc.join, seconds + 10)
        flood_seconds = time.monotonic() - began
        watcher.cancel()
        await asyncio.sleep(0.5)
        rss_end = rss_mb()
        refused = sum(1 for r, _ in t.companion.hub.refused if r == "host flood")
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "mode": "flood", "flood_as": kind, "flood_messages": sent.value, "flood_connections": conns,
        "flood_seconds": round(flood_seconds, 2), "phones": len(phones), "acks": len(latencies), "errors": len(errors),
        "ack_p50_ms": round(statistics.median(latencies), 2), "ack_p99_ms": round(q[98], 2),
        "ack_max_ms": round(max(latencies), 2), "ack_hold_ms": t.companion.hub.ack_delay * 1000,
        "rss_start_mb": round(rss_start, 1), "rss_peak_mb": round(peak, 1), "rss_end_mb": round(rss_end, 1),
        "host_flood_dropped": refused, "ack_top_ms": sorted(round(x, 1) for x in latencies)[-5:],
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=50, help="taps per phone (default 50)")
    ap.add_argument("--flood", action="store_true", help="measure the phones during a flood of host messages")
    ap.add_argument("--flood-as", choices=("host", "stranger"), default="host",
                    help="the flood with the host's key (default) or without it")
    ap.add_argument("--messages", type=int, default=20_000, help="host messages in the flood (default 20000)")
    ap.add_argument("--seconds", type=float, default=5.0, help="the flood's length (default 5 s)")
    ap.add_argument("--connections", type=int, default=100, help="the flood's connections (default 100)")
    args = ap.parse_args()
    if args.flood:
        print(json.dumps(asyncio.run(flood(args.flood_as, args.messages, args.seconds, args.connections))))
    else:
        print(json.dumps(asyncio.run(main(args.taps))))
