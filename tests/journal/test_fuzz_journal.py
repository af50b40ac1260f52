"""Fuzzing the journal files `narrator resume` reads (issue 10): cut at any byte, bytes damaged
anywhere, lines and headers from elsewhere. Whatever the file holds: no traceback; either the game
resumes, or a message names the file and the line and says how to go on; without --repair the
file is left exactly as it was, and with it a copy of the damaged file is kept first.

`cmd_resume` runs for real up to the point where the live game would start (stubbed here).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import examples as profile_examples

from narrator.commands import resume as resume_command
from narrator.config import parse_config
from narrator.journal import DamagedJournal, Journal, read
from narrator.live import LiveSession
from test_journal_resume import CONFIG, typed_lines


def fuzz(examples: int) -> settings:
    return settings(max_examples=profile_examples(examples), deadline=None, suppress_health_check=list(HealthCheck))


def whole_game() -> bytes:
    """The journal of a complete classic game, less its end line: an unfinished game."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "g.jsonl"
        cfg = parse_config(CONFIG, "club.toml")
        live = LiveSession(cfg, None)
        live.start_effects()
        j = Journal.create(path, "club.toml", CONFIG, {})
        j.append(live.session.dealing_event())
        for line in typed_lines()[:-1]:
            j.append(live.session.parse(line))
        j.close()
        return path.read_bytes()


GAME = whole_game()


@pytest.fixture
def resume(monkeypatch, capsys):
    started = []

    async def no_live_game(live, first, initial, args, console, journaled=False):
        started.append(live)
        return 0

    monkeypatch.setattr(resume_command, "run_live", no_live_game)

    def run(path: Path, repair: bool = False) -> tuple[int, str, list]:
        started.clear()
        args = argparse.Namespace(journal=str(path), voice="text", companion=False, listen=False, repair=repair)
        code = resume_command.cmd_resume(args)
        return code, capsys.readouterr().err, list(started)

    return run


def check(path: Path, resume) -> None:
    original = path.read_bytes()
    code, err, started = resume(path)
    if code == 0:
        assert started and started[0].game is not None
        return
    assert "Traceback" not in err
    named = re.search(re.escape(str(path)) + r":(\d+): \S", err.replace("\n", " "))
    assert named, err                                 # the file and the line, then what is wrong
    assert path.read_bytes() == original              # nothing changed without asking
    if "--repair" not in err:
        assert f"{path}:1:" in err and "no game in this file" in err
        return
    code, err, started = resume(path, repair=True)
    assert code == 0 and started, err
    copies = sorted(path.parent.glob(path.name + ".damaged-*"))
    assert copies and copies[-1].read_bytes() == original
    assert not read(path).torn                        # the next resume takes the file as it is


@fuzz(60)
@given(cut=st.integers(min_value=0, max_value=len(GAME)))
def test_a_journal_cut_at_any_byte(cut, tmp_path_factory, resume):
    path = tmp_path_factory.mktemp("cut") / "game.jsonl"
    path.write_bytes(GAME[:cut])
    check(path, resume)


@fuzz(60)
@given(spots=st.lists(st.tuples(st.integers(min_value=0, max_value=len(GAME) - 1), st.binary(min_size=1, max_size=4)),
                      min_size=1, max_size=4))
def test_a_journal_with_damaged_bytes(spots, tmp_path_factory, resume):
    raw = bytearray(GAME)
    for at, junk in spots:
        raw[at:at + len(junk)] = junk
    path = tmp_path_factory.mktemp("bytes") / "game.jsonl"
    path.write_bytes(bytes(raw))
    check(path, resume)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)
foreign_events = st.fixed_dictionaries(
    {"type": st.sampled_from(["deal", "nominate", "revoke", "end_speech", "tap", "foul", "timeout", "extend", "leave", "x"])},
    optional={"seat": json_values | st.integers(-3, 20), "target": json_values | st.integers(-3, 20),
              "answer": json_values, "by": st.integers(-3, 20),
              "roles": st.dictionaries(st.text(max_size=3), st.sampled_from(["don", "mafia", "sheriff", "citizen", "x", 1]), max_size=4),
              "extras": json_values, "cards": json_values})
foreign_lines = (json_values.map(lambda v: json.dumps(v))
                 | foreign_events.map(lambda e: json.dumps({"t": 1, "event": e}))
                 | st.text(max_size=30).filter(lambda t: "\n" not in t))


@fuzz(80)
@given(where=st.integers(min_value=1, max_value=len(typed_lines())), lines=st.lists(foreign_lines, min_size=1, max_size=3))
def test_a_journal_with_lines_from_elsewhere(where, lines, tmp_path_factory, resume):
    own = GAME.decode().split("\n")
    own[where:where] = lines
    path = tmp_path_factory.mktemp("foreign") / "game.jsonl"
    path.write_text("\n".join(own))
    check(path, resume)


@fuzz(40)
@given(header=json_values | st.fixed_dictionaries({"journal": st.just(1)}, optional={"config_text": json_values | st.text(max_size=60),
                                                                                     "config_path": json_values, "mode": json_values}))
def test_a_foreign_header(header, tmp_path_factory, resume):
    own = GAME.decode().split("\n")
    own[0] = json.dumps(header)
    path = tmp_path_factory.mktemp("header") / "game.jsonl"
    path.write_text("\n".join(own))
    check(path, resume)
