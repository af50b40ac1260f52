#!/usr/bin/env python3
"""Whole day commands in Piper's en_US-joe-medium voice, heard as in a game by PocketSphinx alone,
with the digits-only model, and with Whisper reading along: right / wrong / asked again / not heard.

A natural voice beside the bench's espeak-ng sentences: 44 sentences (nominate / submit / put up /
revoke x seats 1-10, thank you, thanks, cancel that, pass), each at its level and 20 dB softer.
Piper renders a sentence differently every time (its model draws noise for the voice's timing and
timbre, and onnxruntime offers no seed for it): each sentence is rendered --takes times (3), and
every configuration hears the same renders. Runs differ by a few sentences.
Prints one JSON object. Usage: nice python3 scripts/bench_piper_commands.py [--takes N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import numpy as np  # noqa: E402

from bench_voice import WORDS, at_level, hear, outcome  # noqa: E402
from narrator.language import Command, load_voice  # noqa: E402
from narrator.voice.audio import resample  # noqa: E402
from narrator.voice.endpoint import as_live  # noqa: E402
from narrator.voice.grammar import build_grammar  # noqa: E402


def sentences() -> list[tuple[str, Command]]:
    out = []
    for n in range(1, 11):
        word = (WORDS + ["ten"])[n]
        out += [(f"I nominate player {word}.", Command("nominate", seat=n)),
                (f"I'm submitting player number {word}.", Command("nominate", seat=n)),
                (f"I'm putting up number {word}.", Command("nominate", seat=n)),
                (f"I'm revoking player number {word}.", Command("revoke", seat=n))]
    return out + [("Thank you.", Command("end_speech")), ("Thanks.", Command("end_speech")),
                  ("Cancel that.", Command("cancel")), ("Pass.", Command("end_speech"))]


def main() -> None:
    from narrator.voice.engines import SphinxEngine
    from narrator.voice.piper import load_voice as piper_voice
    from narrator.voice.piper import packaged
    from narrator.voice.verify import DigitVerifier

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--takes", type=int, default=3, help="renders of each sentence (Piper renders differently every time)")
    args = ap.parse_args()
    files = packaged("en_US-joe-medium")
    if files is None:
        sys.exit("bench_piper_commands: the Piper voice is not installed (scripts/install.sh --piper)")
    piper = piper_voice(*files)
    rate = piper.config.sample_rate

    def say(text: str) -> np.ndarray:
        x = np.concatenate([c.audio_float_array for c in piper.synthesize(text)]) * 32767
        return resample(x.astype(np.float32), rate, 16000).astype(np.int16)

    voice = load_voice("en")
    grammar = build_grammar(voice, "day", upto=10)
    spoken = [(say(text), expected, text) for _ in range(args.takes) for text, expected in sentences()]
    digits = SphinxEngine(second_opinion=False)
    digits.verifier = DigitVerifier.load()
    report = {"voice": "en_US-joe-medium", "sentences": len(spoken) // args.takes, "takes": args.takes,
              "levels_db": [0, -20]}
    for name, engine in (("alone", SphinxEngine(second_opinion=False)), ("digits_model", digits),
                         ("whisper", SphinxEngine())):
        tally = {"right": 0, "wrong": 0, "asked_again": 0, "not_heard": 0}
        missed = []
        for x, expected, text in spoken:
            for db in report["levels_db"]:
                heard = hear(engine.stream(grammar), grammar, voice, as_live(at_level(x, db), 16000))
                met = outcome(heard, expected)
                tally[met] += 1
                if met != "right":
                    missed.append(f"{text} ({db} dB): {met}, heard {[h.text for h in heard]}")
        report[name] = {**tally, "missed": missed}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
