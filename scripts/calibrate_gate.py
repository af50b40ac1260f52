#!/usr/bin/env python3
"""Calibrate the gates of PocketSphinx day commands: the acoustic one (`Endpointing.min_word_score`,
per kind) and, where Whisper reads along, Whisper's (`Endpointing.min_fit`, per kind).

Ordinary talk forced onto the day grammar comes out as "i nominate fifteen", "thank you",
"cancel that" and the like; a gate rejects a day command whose words fit the sound worse than a
threshold: PocketSphinx's acoustic score, or how likely Whisper finds the words in the sound. A forced "thank you" ends somebody's minute and a forced "cancel" withdraws a
nomination, so every day command counts as a false command, not only nominations.

Everything is split in two before it is measured, and the threshold is taken from one half only:
- negatives: the real coffee orders and the other real non-command clips (FSDD zeros, Speech
  Commands' other words), even positions by name calibrate, odd positions check;
- positives: command sentences of the day grammar, spoken by espeak-ng (no real recordings of
  command sentences exist here) in several voices and rates, each at the recording's level and
  20 dB softer; the first voices calibrate, the others check.
Each kind of command gets its own threshold, just above the best-fitting forced command of that
kind in the calibration negatives (nothing of them may pass; never below the gate's floor); the check half
reports how many forced commands still pass and what the gate costs: the share of positives heard
right that it rejects, by kind.

Prints one JSON object. Usage: nice -n 10 python3 scripts/calibrate_gate.py [--audio DIR] [--per-voice N]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import numpy as np  # noqa: E402

from bench_voice import at_level, hear, other_negatives  # noqa: E402
from narrator.language import Command, load_voice  # noqa: E402
from narrator.voice.audio import read_wav  # noqa: E402
from narrator.voice.endpoint import Endpointing, as_live  # noqa: E402
from narrator.voice.engines import SphinxEngine  # noqa: E402
from narrator.voice.grammar import build_grammar  # noqa: E402

GATED = Endpointing().gated
# per gate, no threshold lower than this: below it real commands and forced talk are not told apart
# (PocketSphinx's mean log acoustic score per frame; Whisper's mean log probability per token: real
# sentences of the calibration voices sit above -2.9 in 95 of 100, forced ones below -6)
GATES = {"acoustic": -3.0, "whisper": -5.0}
# espeak-ng voices as stand-ins for speakers: (voice, words per minute)
CALIBRATION_VOICES = [("en-us", 175), ("en-gb-x-rp+f3", 150), ("en-gb-scotland+m3", 200)]
CHECK_VOICES = [("en-gb", 165), ("en-us+f2", 140), ("en-029+m5", 190)]


def heard_with_scores(engine, voice, grammar, x):
    """The commands heard with both gates open (the word-duration rule still applies), as a live
    microphone would hear the clip: (command, PocketSphinx's word score, Whisper's fit)."""
    out = hear(engine.stream(grammar), grammar, voice, as_live(x, engine.sample_rate),
               Endpointing(min_word_score=-math.inf, min_fit=-math.inf), engine.sample_rate)
    # the scores a heard command was judged by (the closing decode's, or the look's it was kept from)
    return [(h.command, h.score, getattr(h.reading, "fit", None)) for h in out if isinstance(h.command, Command)]


def sentences(voice, grammar, n: int, seed: int) -> list[tuple[str, Command]]:
    """n command sentences of the grammar, every kind among them, in a fixed random order."""
    rng = random.Random(seed)
    by_kind: dict[str, list[str]] = {}
    for p in grammar.phrases():
        by_kind.setdefault(voice.parse(p, only=grammar.only).kind, []).append(p)
    picked = []
    kinds = sorted(by_kind)
    while len(picked) < n:
        kind = kinds[len(picked) % len(kinds)]
        text = rng.choice(by_kind[kind])
        picked.append((text, voice.parse(text, only=grammar.only)))
    return picked


def speak(text: str, espeak_voice: str, wpm: int, tmp: Path) -> np.ndarray:
    wav = tmp / "s.wav"
    subprocess.run(["espeak-ng", "-v", espeak_voice, "-s", str(wpm), "-w", str(wav), text], check=True)
    return read_wav(wav, 16000)


def calibrate(forced, floor: float, kinds=("nominate", "revoke", "end_speech", "cancel")) -> dict[str, float]:
    """Per kind, just above the best-fitting forced command of the calibration half; never below `floor`."""
    thresholds = {}
    for kind in sorted({k for f in forced.values() for _, k, _ in f} | set(kinds)):
        best = max((s for s, k, _ in forced[0] if k == kind), default=-99.0)
        thresholds[kind] = round(max(math.ceil(best * 10 + 1e-9) / 10, floor), 1)
    return thresholds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--audio", default=str(ROOT.parent / "shared" / "audio"))
    ap.add_argument("--seats", type=int, default=10)
    ap.add_argument("--per-voice", type=int, default=16, help="command sentences per espeak-ng voice")
    ap.add_argument("--levels", type=lambda s: [int(v) for v in s.split(",")], default=[0, -20])
    # each rule system's day is its own grammar: talk is forced onto its sentences, not classic's
    ap.add_argument("--variant", default="classic", choices=("classic", "sverige", "hungariq", "grundregeln"))
    args = ap.parse_args()
    audio = Path(args.audio)
    voice, engine = load_voice("en", args.variant), SphinxEngine()
    if engine.judge is None:
        sys.exit("calibrate_gate: Whisper is not installed (pip install -e .[speech]); both gates are calibrated")
    day = build_grammar(voice, "day", upto=args.seats)

    negatives = sorted((audio / "negatives-en").glob("*.wav")) + other_negatives(audio)
    # per gate, per half of the negatives: (value, kind, clip)
    forced = {g: {0: [], 1: []} for g in GATES}
    for i, path in enumerate(negatives):
        for cmd, score, fit in heard_with_scores(engine, voice, day, read_wav(path, 16000)):
            if cmd.kind in GATED:
                for g, value in (("acoustic", score), ("whisper", fit)):
                    if value is not None:
                        forced[g][i % 2].append((round(value, 3), cmd.kind, path.name))
    thresholds = {g: calibrate(forced[g], floor, day.kinds) for g, floor in GATES.items()}

    heard: dict[str, list] = {}  # per half of the voices: (kind, score, fit) of each sentence heard right
    wrong_heard: dict[str, list] = {}
    counts: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for half, voices in (("calibration", CALIBRATION_VOICES), ("check", CHECK_VOICES)):
            heard[half], wrong_heard[half], counts[half] = [], [], [0, 0]
            for v_i, (ev, wpm) in enumerate(voices):
                for text, expected in sentences(voice, day, args.per_voice, seed=zlib.crc32(ev.encode()) + v_i):
                    x = speak(text, ev, wpm, Path(tmp))
                    for db in args.levels:
                        counts[half][0] += 1
                        got = heard_with_scores(engine, voice, day, at_level(x, db))
                        if [c for c, *_ in got] == [expected]:
                            heard[half].append((expected.kind, got[0][1], got[0][2]))
                        elif got:
                            wrong_heard[half].append({"said": text, "voice": ev, "db": db,
                                                      "heard": [(c.kind, c.seat, s, f) for c, s, f in got]})
                        else:
                            counts[half][1] += 1

    # the gates as the listener applies them (Endpointing.gate), with these thresholds
    calibrated = Endpointing(min_word_score=thresholds["acoustic"], min_fit=thresholds["whisper"])

    def passes(g, kind, value):
        return value is not None and value >= calibrated.gate(kind, whisper=g == "whisper")

    report = {"variant": args.variant, "thresholds": thresholds, "gates": {}}
    for g, index in (("acoustic", 1), ("whisper", 2)):
        through = [f for f in forced[g][1] if passes(g, f[1], f[0])]
        positives = {}
        for half in heard:
            right = heard[half]
            per_kind: dict[str, list[int]] = {}
            for r in right:
                tally = per_kind.setdefault(r[0], [0, 0])
                tally[0] += not passes(g, r[0], r[index])
                tally[1] += 1
            rejected = sum(t[0] for t in per_kind.values())
            positives[half] = {
                "utterances": counts[half][0], "heard_right_gates_open": len(right), "of_them_rejected_by_gate": rejected,
                "recall_cost": round(rejected / max(1, len(right)), 3),
                "rejected_by_kind": {k: f"{r} of {n}" for k, (r, n) in sorted(per_kind.items())},
                "heard_wrong_gates_open": len(wrong_heard[half]),
                "heard_wrong_through_gate": sum(all(passes(g, k, (s, f)[index - 1]) for k, _, s, f in w["heard"])
                                                for w in wrong_heard[half]),
                "not_heard": counts[half][1],
            }
        report["gates"][g] = {
            "calibration_negatives": {"clips": len(negatives[0::2]), "forced_commands": len(forced[g][0]),
                                      "best_forced_by_kind": {k: max((f for f in forced[g][0] if f[1] == k), default=None)
                                                              for k in sorted({f[1] for f in forced[g][0]})}},
            "check_negatives": {"clips": len(negatives[1::2]), "forced_commands": len(forced[g][1]),
                                "through_the_gate": len(through), "which": through},
            "synthetic_command_sentences": positives,
        }
    report["voices"] = {"calibration": [f"{v} {w} wpm" for v, w in CALIBRATION_VOICES],
                        "check": [f"{v} {w} wpm" for v, w in CHECK_VOICES]}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
