#!/usr/bin/env python3
"""How far the two English recognisers installable here can carry a seat, speaker by speaker: the
ceiling of any rule that chooses between them (issue 13's "≥ 90% right on every speaker, ≤ 0.5%
wrong seats accepted").

For each real spoken digit of scripts/bench_voice.py (the same clips and the same speaker split),
at the recording's level:
- listener: what the game takes (PocketSphinx with Whisper reading along, `narrator listen
  --expect seat`), as bench_voice.py hears it;
- pocketsphinx: PocketSphinx's own seat (its grammar of the table's seats, nothing reading along);
- whisper: Whisper's first choice among the table's seats, read alone on the whole clip, prompted
  as the answer to "say the number again" is — the clip from its first sample, the reading that
  suited it best here (any silence before FSDD's tightly cut clips cost it points);
- either: PocketSphinx's seat or Whisper's first choice is right — what a perfect chooser between
  the two could reach;
- whisper_sure: Whisper alone, taken where its share among the seats reaches 0.5 / 0.7 / 0.9:
  [right, wrong seat accepted] — how much it must doubt to keep wrong seats rare.

Prints one JSON object. Usage: nice -n 10 python3 scripts/bench_ceiling.py [--fsdd N] [--half report|calibrate|all]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_voice import digit_clips, hear, machine  # noqa: E402

SHARES = (0.5, 0.7, 0.9)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--audio", default=str(ROOT.parent / "shared" / "audio"))
    ap.add_argument("--fsdd", type=int, default=600, help="FSDD clips (of 1800 non-zero, before the speaker split); 0 = all")
    ap.add_argument("--half", choices=("report", "calibrate", "all"), default="report")
    ap.add_argument("--seats", type=int, default=10)
    args = ap.parse_args()

    from narrator.language import Command, load_voice
    from narrator.voice.audio import read_wav
    from narrator.voice.endpoint import as_live
    from narrator.voice.engines import Leveller, SphinxEngine
    from narrator.voice.grammar import build_grammar
    from narrator.voice.whisper_judge import SPELLED

    voice = load_voice("en")
    grammar = build_grammar(voice, "seat", upto=args.seats)
    listener = SphinxEngine()
    if listener.judge is None:
        sys.exit("Whisper is not installed: pip install -e '.[speech]'")
    alone = SphinxEngine(second_opinion=False)
    judge, leveller = listener.judge, Leveller()
    seats = SPELLED[1:args.seats + 1]
    rate = listener.sample_rate

    def seat_of(engine, x):
        got = [h.command.seat for h in hear(engine.stream(grammar), grammar, voice, as_live(x, rate), rate=rate)
               if isinstance(h.command, Command)]
        return got[0] if len(got) == 1 else None

    tally: dict[str, dict] = {}
    for digit, path, speaker in digit_clips(Path(args.audio), args.fsdd, args.half):
        x = read_wav(path, rate)
        first = judge.seat_alone(leveller.gained(x), seats)
        whisper = SPELLED.index(first.word) if first.word else None
        sphinx = seat_of(alone, x)
        t = tally.setdefault(speaker if not speaker.startswith("sc-") else "speech-commands",
                             {"clips": 0, "listener": 0, "pocketsphinx": 0, "whisper": 0, "either": 0,
                              "whisper_sure": {str(s): [0, 0] for s in SHARES}})
        t["clips"] += 1
        t["listener"] += seat_of(listener, x) == digit
        t["pocketsphinx"] += sphinx == digit
        t["whisper"] += whisper == digit
        t["either"] += digit in (sphinx, whisper)
        for s in SHARES:
            if first.share >= s:
                t["whisper_sure"][str(s)][0 if whisper == digit else 1] += 1
    out = {}
    for speaker, t in sorted(tally.items()):
        n = t["clips"]
        out[speaker] = {k: round(v / n, 3) for k, v in t.items() if k not in ("clips", "whisper_sure")}
        out[speaker]["clips"] = n
        out[speaker]["whisper_sure"] = {s: [round(r / n, 3), round(w / n, 3)] for s, (r, w) in t["whisper_sure"].items()}
    print(json.dumps({"machine": machine(), "half": args.half, "seats": args.seats, "speakers": out,
                      "load_average": [round(v, 1) for v in os.getloadavg()]}, indent=1))


if __name__ == "__main__":
    main()
