"""Every example game in tests/transcripts/ replays to its end, in its variant and language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator.config import parse_config
from narrator.replay import replay

HERE = Path(__file__).resolve().parents[1] / "transcripts"
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


def test_a_scorers_table_is_written_as_it_is_played_and_counts_the_fists_typed_after_stop():
    """Where the scorer types the fists, each call's time ends with "Stop." before his line is in
    (seed 004 §4.4: the fists go down «before host says "Stop"»): `timeout count`, written for the
    core's `Timeout(count_waits=True)` and read back as it. The same fists as the game tapped on
    phones give the same votes, and every "Stop." is said once."""
    from narrator.flow.events import Timeout
    from narrator.language import load_voice
    from narrator.transcript import event_line

    voice = load_voice("en", "classic")
    assert event_line(Timeout(count_waits=True), voice, "classic") == "timeout count"
    assert event_line(Timeout(), voice, "classic") == "timeout"
    typed, tapped = (replay(p.read_text(encoding="utf-8"), config_for(p), name=p.name)
                     for p in (HERE / "classic_en_scorers_table.txt", HERE / "classic_en_town_wins.txt"))
    ends = [e["event"] for e in typed.protocol if e["type"] == "input" and e["event"]["type"] == "timeout"]
    assert {"type": "timeout", "count_waits": True} in ends
    stops = [e for e in typed.protocol if e["type"] == "say" and e["line"] == "vote_stop"]
    calls = [e for e in typed.protocol if e["type"] == "say" and e["line"] in ("vote_call", "vote_call_last")]
    assert len(stops) == len(calls) == 6
    results = [[e for e in r.protocol if e["type"] in ("vote_result", "eliminated", "game_over")] for r in (typed, tapped)]
    assert results[0] == results[1]


def test_a_calls_end_is_one_line_anywhere_else_it_is_refused_and_changes_nothing():
    from narrator.flow.events import Timeout
    from narrator.inputs import InputError, parse_line
    from narrator.language import load_voice

    voice = load_voice("en", "classic")
    assert parse_line("timeout count", voice) == parse_line("Timeout  COUNT  # Stop.", voice) == Timeout(count_waits=True)
    assert parse_line("timeout", voice) == Timeout()
    # the answer to a stray word after it names the one word that may follow
    with pytest.raises(InputError, match="timeout takes nothing after it but count") as refused:
        parse_line("timeout 5", voice)
    assert refused.value.worded.name == "input_timeout_after"
    assert load_voice("hu").console["input_timeout_after"].startswith("a timeout után csak a count")
    # a speech has no call to stop, nor does a sverige table (seed 000 has no "Stop.")
    for variant, lines in (("classic", "say thank you\ntimeout count\n"), ("sverige", "timeout count\n")):
        config = parse_config(f'variant = "{variant}"\nlanguage = "en"\n[dealing]\nseed = 1\n', "t.toml")
        result = replay(lines, config, name="t.txt")
        assert result.problems[0] == f"t.txt:{lines.count(chr(10))}: refused: No timer is running."
