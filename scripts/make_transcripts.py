#!/usr/bin/env python3
"""Write complete example games for every variant and language into tests/transcripts/.

Each is a simulated game (a fixed seed, a table of middling skill, no illegal input) whose
accepted inputs are written back as transcript lines — spoken commands in the language's own
sentences — with the narration as comments, so a reader can follow the game. The tests replay
every one of them to its end.
"""

from __future__ import annotations

import random
from pathlib import Path

from narrator.flow.effects import Say
from narrator.flow.events import event_from_dict
from narrator.flow.game import Game
from narrator.language import load_voice
from narrator.rules.dealing import deal
from narrator.rules.variants import VARIANTS
from narrator.simulate import RandomPlayer, defaults
from narrator.flow.events import Deal
from narrator.transcript import event_line

GAMES = [
    ("classic", "en", 10, 11), ("classic", "ru", 10, 12), ("classic", "sv", 10, 13), ("classic", "de", 10, 14), ("classic", "hu", 10, 15),
    ("sverige", "sv", 12, 21), ("sverige", "en", 12, 22),
    ("hungariq", "hu", 12, 31), ("hungariq", "en", 12, 32),
    ("grundregeln", "de", 8, 41), ("grundregeln", "en", 8, 42),
]


def write(variant_name: str, lang: str, seats: int, seed: int, out: Path) -> Path:
    variant = VARIANTS[variant_name]
    rules, timers = defaults(variant)
    counts = variant.roles_for(seats)
    rng = random.Random(seed)
    voice = load_voice(lang)
    player = RandomPlayer(rng, illegal_rate=0.0, foul_rate=0.005, skill=0.6)
    g = Game(variant, rules, timers, seats, roles=counts)
    g.start()
    lines = [f"# A complete {variant_name} game at {seats} seats, narrated in {lang}: simulated (seed {seed}),",
             "# written by scripts/make_transcripts.py; the narration follows each input as comments.",
             f"# Replay: narrator replay {out.name} --config <a config with variant = \"{variant_name}\", language = \"{lang}\", seats = {seats}>"]
    events = [Deal(tuple(sorted((s, r) for s, r in deal(counts, seats, rng).items() if r != "citizen")))]
    while g.state != "over" and len(lines) < 5000:
        ev = events.pop() if events else player.legal(g)
        effects = g.apply(ev)
        if any(type(e).__name__ == "Reject" for e in effects):
            continue
        lines.append(event_line(ev, voice, variant_name))
        for e in effects:
            if isinstance(e, Say):
                lines.append("#   " + voice.render(e.line, e.args))
    path = out / f"{variant_name}_{lang}_simulated.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "tests" / "transcripts"
    for variant, lang, seats, seed in GAMES:
        print(write(variant, lang, seats, seed, out))


if __name__ == "__main__":
    main()
