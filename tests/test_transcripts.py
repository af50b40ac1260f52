"""Every example game in tests/transcripts/ replays to its end, in its variant and language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator.config import parse_config
from narrator.replay import replay

HERE = Path(__file__).resolve().parent / "transcripts"
GAMES = sorted(p for p in HERE.glob("*.txt") if not p.name.endswith("_live.txt"))


def config_for(path: Path):
    variant, lang = path.stem.split("_")[:2]
    seats = re.search(r"at (\d+) seats", path.read_text(encoding="utf-8"))
    text = f'variant = "{variant}"\nlanguage = "{lang}"\n' + (f"seats = {seats.group(1)}\n" if seats else "")
    roles = re.search(r"^# roles: (.+)$", path.read_text(encoding="utf-8"), re.M)
    if roles:  # a game played with a [roles] table of its own
        text += "[roles]\n" + roles.group(1).replace(", ", "\n") + "\n"
    return parse_config(text, path.name)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_example_game_replays_to_its_end(path):
    result = replay(path.read_text(encoding="utf-8"), config_for(path), name=path.name)
    assert result.problems == [] and result.notes == []
    assert result.finished and result.session.game.winner in ("town", "mafia", "draw", "maniac")


def test_every_variant_has_example_games_in_at_least_two_languages():
    langs: dict[str, set[str]] = {}
    for p in GAMES:
        variant, lang = p.stem.split("_")[:2]
        langs.setdefault(variant, set()).add(lang)
    assert set(langs) == {"classic", "sverige", "hungariq", "grundregeln"}
    assert all(len(v) >= 2 for v in langs.values()), langs
