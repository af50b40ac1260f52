#!/usr/bin/env python3
"""Write complete example games for every variant and language into tests/transcripts/.

Each is a simulated game (a fixed seed, a table of middling skill, no illegal input) whose
accepted inputs are written back as transcript lines — spoken commands in the language's own
sentences — with the narration as comments, so a reader can follow the game. The tests replay
every one of them to its end.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from narrator.flow.effects import Say, Tell
from narrator.flow.events import event_from_dict
from narrator.flow.days import Game
from narrator.language import load_voice
from narrator.rules.dealing import deal
from narrator.rules.variants import VARIANTS
from narrator.simulate import RandomPlayer, defaults
from narrator.flow.events import Deal, EndSpeech, Nominate, Tap, Timeout
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
    voice = load_voice(lang, variant_name)
    player = RandomPlayer(rng, illegal_rate=0.0, foul_rate=0.005, skill=0.6)
    g = Game(variant, rules, timers, seats, roles=counts)
    g.start()
    lines = [f"# A complete {variant_name} game at {seats} seats, narrated in {lang}: simulated (seed {seed}),",
             "# written by scripts/make_transcripts.py; the narration follows each input as comments.",
             f"# Replay: narrator replay {variant_name}_{lang}_simulated.txt --config <a config with variant = \"{variant_name}\", language = \"{lang}\", seats = {seats}>"]
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


def _sverige_day(by: int, seat: int, voters: list[int]) -> list:
    """One nomination, the time runs out (no extension, no last call), the speech, the hands."""
    return [Nominate(seat, by), Timeout(), Timeout(), Timeout(), EndSpeech()] + [Tap(v, seat) for v in voters] + [Timeout()]


def _hungariq_quiet_day(alive: list[int], accused: tuple[int, ...] = (5, 6, 7)) -> list:
    return [ev for a in accused for ev in [Nominate(a)] + [Tap(s, answer=False) for s in alive]] + [Timeout()]


# Games played move by move, each showing one rule a club asked about (the name says which).
# (name, variant, language, seats, [roles] of the config, the deal, the inputs)
SCRIPTED = [
    # seed 000: with the avenger the mafia can only win after a night, and they do at a quiet dawn
    ("sverige_en_avenger_dawn_win", "sverige", "en", 7, {"mafia": 2, "doctor": 1, "avenger": 1},
     Deal(((1, "mafia"), (2, "mafia"), (3, "doctor"), (4, "avenger"))),
     _sverige_day(1, 5, [1, 2, 3, 4, 6, 7]) + [Tap(1, 6), Tap(2, 6), Tap(3, 4), Timeout()]
     + _sverige_day(2, 7, [1, 2, 3, 4]) + [Tap(1, 3), Tap(2, 3), Tap(3, 3), Timeout()]),
    ("sverige_sv_avenger_dawn_win", "sverige", "sv", 7, {"mafia": 2, "doctor": 1, "avenger": 1},
     Deal(((1, "mafia"), (2, "mafia"), (3, "doctor"), (4, "avenger"))),
     _sverige_day(1, 5, [1, 2, 3, 4, 6, 7]) + [Tap(1, 6), Tap(2, 6), Tap(3, 4), Timeout()]
     + _sverige_day(2, 7, [1, 2, 3, 4]) + [Tap(1, 3), Tap(2, 3), Tap(3, 3), Timeout()]),
    # seed 001: the vogon sees the bodyguard's vote on a name, as he sees the mafia's
    ("hungariq_hu_vogon_bodyguard", "hungariq", "hu", 10, {"vogon": 1, "bodyguard": 1},
     Deal(((1, "inspector"), (2, "protected_mafia"), (3, "mafia"), (4, "mafia"), (8, "vogon"), (9, "bodyguard"))),
     _hungariq_quiet_day(list(range(1, 11)))
     + [Tap(1, 3), Tap(9, 10), Tap(2, 6), Tap(3, 6), Tap(4, 6), Tap(8, 10)]           # 10 guarded; 6 dies
     + [Nominate(2), *[Tap(s, answer=True) for s in (1, 2, 3, 4, 5, 7, 8, 9, 10)], Timeout(), EndSpeech(),
        *[Tap(s, answer=True) for s in (1, 3, 4, 5, 7, 8, 9, 10)], Tap(2, answer=False)]  # the protected mafioso
     + [Tap(1, 3), Tap(9, 7), Tap(3, 7), Tap(4, 7), Tap(8, 7)]                        # 7 guarded and watched
     + [Nominate(3), *[Tap(s, answer=True) for s in (1, 3, 4, 5, 7, 8, 9, 10)], Timeout(), EndSpeech(),
        *[Tap(s, answer=True) for s in (1, 5, 7, 8, 9, 10)], Tap(3, answer=False), Tap(4, answer=False)]
     + [Tap(1, 4), Tap(9, 8), Tap(4, 5), Tap(8, 1)]                                    # 5 dies; the watch sees nobody
     + [Nominate(4), *[Tap(s, answer=True) for s in (1, 4, 7, 8, 9, 10)], Timeout(), EndSpeech(),
        *[Tap(s, answer=True) for s in (1, 7, 8, 9, 10)], Tap(4, answer=False)]),
    ("hungariq_en_vogon_bodyguard", "hungariq", "en", 10, {"vogon": 1, "bodyguard": 1},
     Deal(((1, "inspector"), (2, "protected_mafia"), (3, "mafia"), (4, "mafia"), (8, "vogon"), (9, "bodyguard"))),
     []),  # the same inputs as the Hungarian game: filled in below
]
SCRIPTED[3] = SCRIPTED[3][:6] + (SCRIPTED[2][6],)


def write_scripted(name: str, variant_name: str, lang: str, seats: int, roles: dict, dealt: Deal, inputs: list, out: Path) -> Path:
    variant = VARIANTS[variant_name]
    rules, timers = defaults(variant)
    counts = variant.roles_for(seats, roles)
    voice = load_voice(lang, variant_name)
    g = Game(variant, rules, timers, seats, roles=counts)
    g.start()
    lines = [f"# A complete {variant_name} game at {seats} seats, narrated in {lang}: played move by move",
             "# by scripts/make_transcripts.py; the narration follows each input as comments.",
             "# roles: " + ", ".join(f"{r} = {n}" for r, n in roles.items())]
    for ev in [dealt] + inputs:
        effects = g.apply(ev)
        bad = [e for e in effects if type(e).__name__ == "Reject"]
        if bad:
            raise SystemExit(f"{name}: {ev} refused: {bad}")
        lines.append(event_line(ev, voice, variant_name))
        # a private answer is shown to its reader only: here, for the reader of the example
        lines += ["#   " + voice.render(e.line, e.args) if isinstance(e, Say) else f"#   (to seat {e.seat} only) " + voice.render(e.line, e.args)
                  for e in effects if isinstance(e, (Say, Tell))]
    if g.state != "over":
        raise SystemExit(f"{name}: the game did not end")
    path = out / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def renarrate(path: Path) -> bool:
    """Keep a transcript's inputs and write its narration comments anew (after the words changed);
    False when its inputs no longer make a complete game under today's rules."""
    from narrator.config import parse_config
    from narrator.session import Session

    variant, lang = path.stem.split("_")[:2]
    text = path.read_text(encoding="utf-8")
    found = re.search(r"at (\d+) seats", text)
    seats = found.group(1) if found else None
    config = parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\n' + (f"seats = {seats}\n" if seats else ""))
    session = Session(config)
    session.start()
    lines = []
    for line in text.splitlines():
        if line.startswith("#   ") or not line.strip():
            continue
        # the replay hint named the folder, not the file (written so before session 18)
        line = line.replace("# Replay: narrator replay transcripts ", f"# Replay: narrator replay {path.name} ")
        lines.append(line)
        if line.startswith("#"):
            continue
        effects = session.feed(session.parse(line))
        if any(type(e).__name__ == "Reject" for e in effects):
            return False
        lines += ["#   " + session.render(e.line, e.args) for e in effects if isinstance(e, Say)]
    if session.game.state != "over":
        return False
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return True


def main() -> None:
    """`--renarrate` after any change of a spoken line: the simulated games keep their moves and get
    today's words, the scripted games are played again; without it, new simulated games are drawn
    (their moves change, and tests that read them — tests/report/test_report.py — may need new expectations)."""
    import sys

    out = Path(__file__).resolve().parent.parent / "tests" / "transcripts"
    if sys.argv[1:] == ["--renarrate"]:
        # the simulated games keep their moves (other tests read them); only the words are new
        for variant, lang, seats, seed in GAMES:
            path = out / f"{variant}_{lang}_simulated.txt"
            if not renarrate(path):
                print(write(variant, lang, seats, seed, out), "(played anew: its moves broke today's rules)")
            else:
                print(path, "(narrated anew)")
    else:
        for variant, lang, seats, seed in GAMES:
            print(write(variant, lang, seats, seed, out))
    for game in SCRIPTED:
        print(write_scripted(*game, out))


if __name__ == "__main__":
    main()
