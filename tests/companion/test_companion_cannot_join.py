"""A table that asks for phones gets them, or an answer before the game begins — never a traceback,
and never a game whose votes are called on phones nobody holds. Two ways the phones cannot join:
another program (another game) holds the companion's port, or the web pages' packages are not
installed. Both were a KeyError traceback (the answer's line was missing from every language)."""

from __future__ import annotations

import ast
import os
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from narrator.journal import read
from test_journal_resume import CONFIG, start, wait_for_events

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def taken_port():
    """A port another program listens on, as a second game on the same laptop would."""
    other = socket.socket()
    other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    other.bind(("127.0.0.1", 0))
    other.listen()
    yield other.getsockname()[1]
    other.close()


def club(tmp_path: Path, port: int, lang: str = "sv") -> Path:
    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG.replace('language = "en"', f'language = "{lang}"')
                   + f'[companion]\nhost = "127.0.0.1"\nport = {port}\nvotes = true\n')
    return cfg


@pytest.mark.e2e
def test_a_taken_port_is_answered_before_the_game_begins_and_nothing_is_written(taken_port, tmp_path):
    journal = tmp_path / "game.jsonl"
    play = start(["play", "--config", str(club(tmp_path, taken_port)), "--journal", str(journal), "--companion",
                  "--voice", "text"], tmp_path)
    out, err = play.communicate(timeout=60)
    assert play.returncode == 2, err
    assert "Traceback" not in err
    assert f"127.0.0.1:{taken_port}" in err and "Pågår ett annat spel där?" in err, err
    assert not journal.exists()
    assert "Det blir natt" not in out  # no night began


@pytest.mark.e2e
def test_a_resume_whose_phones_cannot_join_writes_no_note_that_they_did(taken_port, tmp_path):
    cfg = club(tmp_path, taken_port, lang="en")
    journal = tmp_path / "game.jsonl"
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal", "--voice", "text"], tmp_path)
    play.stdin.write("timeout\n")
    play.stdin.flush()
    wait_for_events(journal, 2)
    play.kill()
    play.wait(timeout=10)
    before = journal.read_bytes()
    resume = start(["resume", "--journal", str(journal), "--companion", "--voice", "text"], tmp_path)
    out, err = resume.communicate(timeout=60)
    assert resume.returncode == 2, (out, err)
    assert "Traceback" not in err
    assert f"127.0.0.1:{taken_port}" in err and "Is another game running there?" in err, err
    assert journal.read_bytes() == before  # no note of phones joining, nothing replayed into it
    assert read(journal).companion_from is None


@pytest.mark.e2e
def test_missing_web_pages_are_answered_with_how_to_install_them(tmp_path):
    """The web stack unimportable, as on a machine installed without `narrator[companion]`."""
    journal = tmp_path / "game.jsonl"
    cfg = club(tmp_path, 8765, lang="de")  # the import is checked first: the port is never tried
    code = ("import sys, runpy; sys.modules['starlette'] = None; "
            f"sys.argv = ['narrator', 'play', '--config', {str(cfg)!r}, '--journal', {str(journal)!r}, '--companion', "
            "'--voice', 'text']; runpy.run_module('narrator.cli', run_name='__main__')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                       env={**os.environ, "HOME": str(tmp_path)})
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert "die Handys können nicht beitreten" in r.stderr and "narrator[companion]" in r.stderr, r.stderr
    assert not journal.exists()


def test_every_command_line_sentence_the_code_names_is_in_every_language():
    """The cause of both tracebacks: a [cli] line named in the code but in no voices/*.toml. The
    completeness test compares the languages with each other; this compares them with the code."""
    named: set[tuple[str, str]] = set()
    for path in (ROOT / "narrator").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            args = node.args
            if fn == "cli_words" and len(args) >= 2:
                key, section = args[1], "cli"
            elif fn in ("cli_text", "console_text") and args:
                key, section = args[0], fn.removesuffix("_text")
            else:
                continue
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                named.add((section, key.value))
    assert len(named) > 50  # the scan found the calls
    for lang in ("en", "ru", "de", "sv", "hu"):
        voice = tomllib.loads((ROOT / "voices" / f"{lang}.toml").read_text())
        missing = sorted(f"[{s}] {k}" for s, k in named if k not in voice.get(s, {}))
        assert not missing, f"voices/{lang}.toml lacks {missing}"
