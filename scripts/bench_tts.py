#!/usr/bin/env python3
"""Speech out, per engine (espeak-ng and Piper): how soon a table hears the first line of a game on
a cold cache, how soon a line nobody rendered yet is heard while the background pre-render runs,
how long that pre-render of every line takes, the real-time factor and the memory. One JSON
object on stdout; the recognition rows are scripts/bench_voice.py's.

Each engine runs in its own process (so its RSS is its own), through the real Player and a real
PortAudio stream. With no sound card the stream is opened on ALSA's null device (its cost is
counted) and closed again: the null device has no clock, so PortAudio calls back in a busy loop,
a whole core of CPU no sound card costs, and that doubled Piper's first line. A thread stands in
for the card's clock instead, asking for each block of 256 samples when a card would.

    python3 scripts/bench_tts.py [--engines espeak,piper] [--language en] [--runs 5] [--busy 1]

--busy N keeps N processes spinning on the CPU throughout, to show what a loaded machine does.
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
import wave
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BLOCK = 256
# lines no table has on disk: asked for one after another while the pre-render runs
FRESH = ["Players {a} and {b} are on the vote, {a} first.", "Player {a} leaves the game with {b} votes.",
         "{a} votes for player {b}.", "Player {a}, you have {b} seconds left.", "Players {a}, {b} and 7 stay."]


def paced_player():
    from narrator.voice.tts import TTS_RATE, Player

    class PacedPlayer(Player):
        """The real Player on a stream whose callback a thread calls at a sound card's pace."""

        def __init__(self, *args, **kwargs):
            self._stop = threading.Event()
            super().__init__(*args, **kwargs)   # opens and starts the real stream: its cost is counted
            Player.close(self)                   # the null device's busy callback stops here
            threading.Thread(target=self._clock, daemon=True).start()

        def _clock(self) -> None:
            out = np.zeros(BLOCK, np.int16)
            due = time.perf_counter()
            while not self._stop.is_set():
                self._fill(out, BLOCK)
                due += BLOCK / TTS_RATE
                late = due - time.perf_counter()
                if late > 0:
                    time.sleep(late)
                else:
                    due = time.perf_counter()    # behind on a loaded machine: an underrun, as on a card

        def close(self) -> None:
            self._stop.set()
            super().close()

    return PacedPlayer


def heard_after(out, text: str) -> float:
    """Ask for a line now; ms until its first sample is handed to the speaker."""
    n = len(out.player.started)
    out.speak(text)
    while len(out.player.started) == n:
        time.sleep(0.005)
    requested, first = out.player.started[n]
    return (first - requested) * 1000


def child(engine: str, language: str, cache: Path, speaker: str, first_only: bool = False) -> dict:
    """One cold start: the engine loads, the first line is asked for at once, the rest pre-render."""
    from narrator.config import parse_config
    from narrator.voice import tts

    if speaker == "paced":
        tts.Player = paced_player()
    cfg = parse_config(f'variant = "classic"\nlanguage = "{language}"\n[voice]\nengine = "{engine}"\n'
                       f'cache_dir = "{cache}"\n')
    narrating = threading.Event()
    t0 = time.perf_counter()
    out = tts.SpeechOutput(cfg, narrating)                   # opens the speaker, starts both threads
    first = out.voice.render("welcome", {"n": cfg.seats})
    out.speak(first)
    loaded = []
    threading.Thread(target=lambda: (out._loaded.wait(), loaded.append(time.perf_counter())), daemon=True).start()
    while not out.player.started:  # the player stamps the first sample itself: polling slowly costs no accuracy
        time.sleep(0.01)
    first_ms = (out.player.started[0][1] - t0) * 1000
    out._loaded.wait()
    while not loaded:
        time.sleep(0.01)
    result = {"engine": engine, "first_line_cold_ms": round(first_ms, 1), "voice_load_ms": round((loaded[0] - t0) * 1000, 1)}
    if first_only:
        out.close()
        return result
    # lines nobody rendered, asked for while the background pre-render is busy
    out.player.wait(60)
    fresh = []
    for i, template in enumerate(FRESH):
        fresh.append(heard_after(out, template.format(a=i + 2, b=i + 5)))
        out.player.wait(60)
    texts = set(out.public_texts())
    files = {out.renderer.path(t) for t in texts}
    while not all(f.exists() for f in files):
        time.sleep(0.05)
    prerender_s = time.perf_counter() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before this script reads the files
    audio_s = 0.0
    for f in files:
        with wave.open(str(f), "rb") as w:
            audio_s += w.getnframes() / w.getframerate()
    # real-time factor of rendering alone, on lines not rendered before
    sample = [f"Player {n}, you have thirty seconds to defend yourself." for n in range(11, 19)]
    t1 = time.perf_counter()
    rendered = sum(len(out.renderer.get(t)) for t in sample) / tts.TTS_RATE
    rtf = (time.perf_counter() - t1) / rendered
    cached = []
    for _ in range(10):
        cached.append(heard_after(out, first))
        out.player.wait(60)
    out.close()
    result.update({
        "voice": out.renderer.voice_id, "language": language,
        "uncached_line_during_prerender_ms": [round(x, 1) for x in fresh],
        "prerender_all_s": round(prerender_s, 2), "lines": len(texts), "audio_s": round(audio_s, 1),
        "rtf": round(rtf, 3),
        "cached_line_start_ms": round(statistics.median(cached), 2),
        "rss_mb": round(rss_mb, 1),
    })
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default="espeak,piper")
    ap.add_argument("--language", default="en")
    ap.add_argument("--runs", type=int, default=5, help="cold starts per engine for the first line (median and max)")
    ap.add_argument("--busy", type=int, default=0, help="processes kept spinning on the CPU during the runs")
    ap.add_argument("--speaker", choices=("auto", "paced", "null"), default="auto",
                    help="auto: the sound card if there is one, else the null device with a paced callback")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--cache", help=argparse.SUPPRESS)
    ap.add_argument("--first-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.language, Path(args.cache), args.speaker, args.first_only)))
        return
    result = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()],
              "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.processor() or platform.system()}",
              "date": time.strftime("%Y-%m-%d"), "busy_processes": args.busy, "engines": {}}
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            probe = subprocess.run([sys.executable, "-c", "import sounddevice as sd; sd.query_devices(kind='output')"],
                                   capture_output=True)
            speaker = args.speaker
            if probe.returncode != 0:  # no sound card: ALSA's null device, as in the docstring
                Path(tmp, ".asoundrc").write_text("pcm.!default { type null }\n")
                env["HOME"] = tmp
                speaker = "paced" if speaker == "auto" else speaker
                result["speaker"] = {"paced": "ALSA null device, callback paced like a sound card",
                                     "null": "ALSA null device (unpaced callback)"}[speaker]
            for engine in args.engines.split(","):
                runs = []
                load = round(os.getloadavg()[0], 2)
                for i in range(args.runs):
                    cache = Path(tmp) / f"cache-{engine}-{i}"  # cold: nothing rendered yet
                    os.sync()  # the last run's ~70 MB of lines are not still being written out meanwhile
                    # the first run measures everything; the others only the cold first line
                    run = subprocess.run([sys.executable, __file__, "--child", engine, "--language", args.language,
                                          "--cache", str(cache), "--speaker", speaker] + (["--first-only"] if i else []),
                                         env=env, capture_output=True, text=True)
                    if run.returncode != 0:
                        runs = [{"error": run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "failed"}]
                        break
                    runs.append(json.loads(run.stdout.strip().splitlines()[-1]))
                if "error" in runs[0]:
                    result["engines"][engine] = runs[0]
                    continue
                summary = dict(runs[0])
                summary.pop("engine")
                firsts = [r["first_line_cold_ms"] for r in runs]
                loads = [r["voice_load_ms"] for r in runs]
                fresh = summary["uncached_line_during_prerender_ms"]
                summary.update({
                    "load_average_at_engine_start": load,
                    "first_line_cold_ms": statistics.median(firsts), "first_line_cold_ms_max": max(firsts),
                    "first_line_cold_ms_all": firsts,
                    "voice_load_ms": statistics.median(loads),
                    "uncached_line_during_prerender_ms_median": statistics.median(fresh),
                    "uncached_line_during_prerender_ms_max": max(fresh),
                })
                result["engines"][engine] = summary
    finally:
        for p in busy:
            p.kill()
    result["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
