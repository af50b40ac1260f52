#!/usr/bin/env python3
"""Calibrate the acoustic gate (`Endpointing.min_word_score`, per kind) of PocketSphinx day commands.

Ordinary talk forced onto the day grammar comes out as "i nominate fifteen", "thank you",
"cancel that" and the like; the gate rejects a day command whose words fit the sound worse than a
threshold. A forced "thank you" ends somebody's minute and a forced "cancel" withdraws a
nomination, so every day command counts as a false command, not only nominations.

Everything is split in two before it is measured, and the threshold is taken from one half only:
- negatives: the real coffee orders and the other real non-command clips (FSDD zeros, Speech
  Commands' other words), even positions by name calibrate, odd positions check;
- positives: command sentences of the day grammar, spoken by espeak-ng (no real recordings of
  command sentences exist here) in several voices and rates, each at the recording's level and
  20 dB softer; the first voices calibrate, the others check.
Each kind of command gets its own threshold, just above the best-fitting forced command of that
kind in the calibration negatives (nothing of them may pass; never below -3.0); the check half
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

from bench_voice import at_level, other_negatives  # noqa: E402
from narrator.language import Command, load_voice  # noqa: E402
from narrator.voice.audio import read_wav  # noqa: E402
from narrator.voice.endpoint import Endpointing, Listener, as_live  # noqa: E402
from narrator.voice.engines import SphinxEngine  # noqa: E402
from narrator.voice.grammar import build_grammar  # noqa: E402

GATED = Endpointing().gated
FLOOR = -3.0  # no threshold lower than this: below it real commands and forced talk are not told apart
# espeak-ng voices as stand-ins for speakers: (voice, words per minute)
CALIBRATION_VOICES = [("en-us", 175), ("en-gb-x-rp+f3", 150), ("en-gb-scotland+m3", 200)]
CHECK_VOICES = [("en-gb", 165), ("en-us+f2", 140), ("en-029+m5", 190)]


def heard_with_scores(engine, voice, grammar, x):
    """The commands heard with the score gate open (the word-duration rule still applies), as a
    live microphone would hear the clip."""
    stream = engine.stream(grammar)
    out = []
    listener = Listener(stream, grammar, voice, engine.sample_rate, out.append, Endpointing(min_word_score=-math.inf))
    listener.feed(as_live(x, engine.sample_rate))
    listener.flush()
    # the score a heard command was judged by (the closing decode's, or the look's it was kept from)
    return [(h.command, h.score) for h in out if isinstance(h.command, Command)]


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--audio", default=str(ROOT.parent / "shared" / "audio"))
    ap.add_argument("--seats", type=int, default=10)
    ap.add_argument("--per-voice", type=int, default=16, help="command sentences per espeak-ng voice")
    ap.add_argument("--levels", type=lambda s: [int(v) for v in s.split(",")], default=[0, -20])
    args = ap.parse_args()
    audio = Path(args.audio)
    voice, engine = load_voice("en"), SphinxEngine()
    day = build_grammar(voice, "day", upto=args.seats)

    negatives = sorted((audio / "negatives-en").glob("*.wav")) + other_negatives(audio)
    forced: dict[int, list[tuple[float, str, str]]] = {0: [], 1: []}
    for i, path in enumerate(negatives):
        for cmd, score in heard_with_scores(engine, voice, day, read_wav(path, 16000)):
            if cmd.kind in GATED and score is not None:
                forced[i % 2].append((round(score, 3), cmd.kind, path.name))
    # one threshold per kind of command: a one-word "thanks" or "cancel" is forced out of any short
    # word and fits it as well as a real one, where a whole nomination sentence forced out of
    # talk fits it badly; one threshold for all made the sentences pay for the short words
    thresholds = {}
    for kind in sorted({k for f in forced.values() for _, k, _ in f} | {"nominate", "revoke", "end_speech", "cancel"}):
        best = max((s for s, k, _ in forced[0] if k == kind), default=-10.0)
        thresholds[kind] = max(math.ceil(best * 10 + 1e-9) / 10, FLOOR)  # just above the best-fitting forced one
    through = [f for f in forced[1] if f[0] >= thresholds[f[1]]]

    positives: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for half, voices in (("calibration", CALIBRATION_VOICES), ("check", CHECK_VOICES)):
            right_scores, wrong, missed, n = [], [], 0, 0
            per_kind: dict[str, list[int]] = {}
            for v_i, (ev, wpm) in enumerate(voices):
                for text, expected in sentences(voice, day, args.per_voice, seed=zlib.crc32(ev.encode()) + v_i):
                    x = speak(text, ev, wpm, Path(tmp))
                    for db in args.levels:
                        n += 1
                        got = heard_with_scores(engine, voice, day, at_level(x, db))
                        if [c for c, _ in got] == [expected]:
                            right_scores.append((got[0][1], expected.kind))
                            tally = per_kind.setdefault(expected.kind, [0, 0])
                            tally[0] += got[0][1] is None or got[0][1] < thresholds[expected.kind]
                            tally[1] += 1
                        elif got:
                            wrong.append({"said": text, "voice": ev, "db": db,
                                          "heard": [(c.kind, c.seat, round(s, 2)) for c, s in got]})
                        else:
                            missed += 1
            rejected = sum(s is None or s < thresholds[k] for s, k in right_scores)
            wrong_through = sum(all(s is not None and s >= thresholds[k] for k, _, s in w["heard"]) for w in wrong)
            positives[half] = {
                "voices": [f"{v} {w} wpm" for v, w in voices], "utterances": n,
                "heard_right_gate_open": len(right_scores), "of_them_rejected_by_gate": rejected,
                "recall_cost": round(rejected / max(1, len(right_scores)), 3),
                "rejected_by_kind": {k: f"{r} of {n}" for k, (r, n) in sorted(per_kind.items())},
                "heard_wrong_gate_open": len(wrong), "heard_wrong_through_gate": wrong_through,
                "not_heard": missed,
                "right_score_percentiles_5_25_50": [round(float(q), 3) for q in np.percentile([s for s, _ in right_scores], [5, 25, 50])]
                if right_scores else None,
                "wrong_examples": wrong[:6],
            }

    print(json.dumps({
        "thresholds": thresholds,
        "calibration_negatives": {"clips": len(negatives[0::2]), "forced_commands": len(forced[0]),
                                  "best_forced_by_kind": {k: max((f for f in forced[0] if f[1] == k), default=None)
                                                          for k in sorted({f[1] for f in forced[0]})}},
        "check_negatives": {"clips": len(negatives[1::2]), "forced_commands": len(forced[1]),
                            "through_the_gate": len(through), "which": through},
        "synthetic_command_sentences": positives,
    }, indent=1))


if __name__ == "__main__":
    main()
