#!/usr/bin/env python3
"""Speech out, per engine (espeak-ng and Piper): how soon a table hears the first line of a game on
a cold cache, how long the background pre-render of every line takes, the real-time factor and
the memory. One JSON object on stdout; the recognition rows are scripts/bench_voice.py's.

Each engine runs in its own process (so its RSS is its own) through the real sounddevice →
PortAudio → ALSA path; on a machine with no sound card ALSA's null device stands in.

    python3 scripts/bench_tts.py [--engines espeak,piper] [--language en] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIRST = "Welcome to Mafia. {n} players at the table."


def child(engine: str, language: str, cache: Path, first_only: bool = False) -> dict:
    """One cold start: the engine loads, the first line is asked for at once, the rest pre-render."""
    from narrator.config import parse_config
    from narrator.voice.tts import TTS_RATE, Line, SpeechOutput

    cfg = parse_config(f'variant = "classic"\nlanguage = "{language}"\n[voice]\nengine = "{engine}"\n'
                       f'cache_dir = "{cache}"\n')
    narrating = threading.Event()
    t0 = time.perf_counter()
    out = SpeechOutput(cfg, narrating)                       # opens the speaker, starts the worker
    first = out.voice.render("welcome", {"n": cfg.seats})
    out.speak(first)
    while not out.player.started:
        time.sleep(0.001)
    first_ms = (out.player.started[0][1] - t0) * 1000
    if first_only:
        out.close()
        return {"engine": engine, "first_line_cold_ms": round(first_ms, 1)}
    texts = out.public_texts()
    while out._ahead or out._urgent:                         # the background pre-render's queue
        time.sleep(0.01)
    files = {out.renderer.key(t) for t in texts}
    while not all((out.renderer.cache_dir / f"{k}.wav").exists() for k in files):
        time.sleep(0.01)
    prerender_s = time.perf_counter() - t0
    audio_s = sum(len(out.renderer.get(t)) for t in set(texts)) / TTS_RATE
    # real-time factor of rendering alone, on fresh lines (not the ones already cached)
    sample = [f"Player {n}, you have thirty seconds to defend yourself." for n in range(11, 19)]
    t1 = time.perf_counter()
    rendered = sum(len(out.renderer.get(t)) for t in sample) / TTS_RATE
    rtf = (time.perf_counter() - t1) / rendered
    # a cached line: request → first sample handed to PortAudio
    out.player.wait(60)
    cached = []
    for _ in range(10):
        n = len(out.player.started)
        out.speak(first)
        while len(out.player.started) == n:
            time.sleep(0.0005)
        cached.append((out.player.started[n][1] - out.player.started[n][0]) * 1000)
        out.player.wait(60)
    out.close()
    return {
        "engine": engine, "voice": out.renderer.voice_id, "language": language,
        "first_line_cold_ms": round(first_ms, 1),
        "prerender_all_s": round(prerender_s, 2), "lines": len(set(texts)), "audio_s": round(audio_s, 1),
        "rtf": round(rtf, 3),
        "cached_line_start_ms": round(statistics.median(cached), 2),
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default="espeak,piper")
    ap.add_argument("--language", default="en")
    ap.add_argument("--runs", type=int, default=5, help="cold starts per engine for the first line (the median is reported)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--cache", help=argparse.SUPPRESS)
    ap.add_argument("--first-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.language, Path(args.cache), args.first_only)))
        return
    result = {"load_average_at_start": round(os.getloadavg()[0], 1),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.processor() or platform.system()}",
              "date": time.strftime("%Y-%m-%d"), "engines": {}}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        probe = subprocess.run([sys.executable, "-c", "import sounddevice as sd; sd.query_devices(kind='output')"],
                               capture_output=True)
        if probe.returncode != 0:  # no sound card: the null device still runs the real PortAudio path
            Path(tmp, ".asoundrc").write_text("pcm.!default { type null }\n")
            env["HOME"] = tmp
            result["speaker"] = "ALSA null device"
        for engine in args.engines.split(","):
            runs = []
            for i in range(args.runs):
                cache = Path(tmp) / f"cache-{engine}-{i}"  # cold: nothing rendered yet
                # the first run measures everything; the others only the cold first line
                run = subprocess.run([sys.executable, __file__, "--child", engine, "--language", args.language,
                                      "--cache", str(cache)] + (["--first-only"] if i else []),
                                     env=env, capture_output=True, text=True)
                if run.returncode != 0:
                    runs = [{"error": run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "failed"}]
                    break
                runs.append(json.loads(run.stdout.strip().splitlines()[-1]))
            if "error" in runs[0]:
                result["engines"][engine] = runs[0]
                continue
            keys = ("first_line_cold_ms", "prerender_all_s", "rtf", "cached_line_start_ms", "rss_mb")
            summary = {k: runs[0][k] for k in ("voice", "language", "lines", "audio_s")}
            summary.update({k: runs[0][k] for k in keys})
            summary["first_line_cold_ms"] = statistics.median(r["first_line_cold_ms"] for r in runs)
            summary["first_line_cold_ms_all"] = [r["first_line_cold_ms"] for r in runs]
            result["engines"][engine] = summary
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
