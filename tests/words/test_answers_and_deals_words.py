"""The last English and Latin-only corners of a non-English table (play-test of session 11): a
fixed deal the rules cannot take, a number too long to quote, and the questions typed at the
terminal — a German answers "ja", a Russian "да", a Hungarian "igen", and is not asked again."""

from __future__ import annotations

import contextlib
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.commands.terminal import LATIN_ANSWERS
from narrator.language import load_voice
from test_console_hotseat import read_until

ROOT = Path(__file__).resolve().parents[2]
LANGS = ["en", "ru", "de", "sv", "hu"]


def cli(args: list[str], tmp_path: Path, stdin: str = ""):
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1", "COLUMNS": "2000"}
    return subprocess.run([sys.executable, "-m", "narrator.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=60)


@contextlib.contextmanager
def on_a_terminal(args: list[str], tmp_path: Path):
    """The command on a pseudo-terminal, as the table's laptop runs it (the questions are only
    asked at a terminal): the process and the terminal's end; both are gone after."""
    master, slave = pty.openpty()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1", "TERM": "xterm", "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, "-m", "narrator.cli", *args], stdin=slave, stdout=slave, stderr=slave,
                            cwd=ROOT, env=env, close_fds=True)
    os.close(slave)
    try:
        yield proc, master
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def club(lang: str) -> str:
    return (f'variant = "classic"\nlanguage = "{lang}"\n[dealing]\nroles = {{ 1 = "sheriff", 2 = "don", 3 = "mafia", 4 = "mafia" }}\n'
            '[timers]\nspeech = 600\nnight_zero_step = 120\n[input]\nengine = "none"\n')


def unfinished_game(lang: str, tmp_path: Path) -> tuple[Path, Path]:
    """A game begun and left at night zero: its config and its journal."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(club(lang), encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    first = cli(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal", "--voice", "text"], tmp_path,
                "timeout\ntimeout\nquit\n")
    assert first.returncode == 0, first.stderr
    return cfg, journal


# ------------------------------------------------------------------ a fixed deal the rules cannot take

@pytest.mark.e2e
@pytest.mark.parametrize("lang, expected", [
    ("sv", "club.toml:5: dealing.roles: utdelningen måste ha 1 don, 2 mafia, 1 sheriff"),
    ("de", "club.toml:5: dealing.roles: die Verteilung muss 1 don, 2 mafia, 1 sheriff enthalten"),
    ("ru", "club.toml:5: dealing.roles: в раздаче должно быть 1 don, 2 mafia, 1 sheriff"),
    ("hu", "club.toml:5: dealing.roles: ennyi szerep kell a leosztásban: 1 don, 2 mafia, 1 sheriff"),
    ("en", "club.toml:5: dealing.roles: the deal must have 1 don, 2 mafia, 1 sheriff"),
])
def test_a_fixed_deal_with_two_dons_is_refused_in_the_tables_language(lang, expected, tmp_path):
    """seed 004 §2: one Don, two mafiosi, one Sheriff. A club's fixed deal with two Dons was
    answered in English at every table; the roles stay in the config's own words ("don"), which
    are the words to fix."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(f'variant = "classic"\nlanguage = "{lang}"\n[dealing]\nmode = "fixed"\nroles = {{ 1 = "don", 2 = "don" }}\n')
    r = cli(["check-config", str(cfg)], tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{tmp_path}/{expected}" in r.stderr, r.stderr
    assert lang == "en" or "the deal must have" not in r.stderr


@pytest.mark.e2e
def test_a_seat_beyond_the_table_is_named_at_its_own_line_in_german(tmp_path):
    cfg = tmp_path / "verein.toml"
    cfg.write_text('variant = "classic"\nlanguage = "de"\n[dealing]\nmode = "fixed"\n[dealing.roles]\n1 = "don"\n12 = "sheriff"\n')
    r = cli(["check-config", str(cfg)], tmp_path)
    assert f"{cfg}:7: dealing.roles.12: Platz 12 gibt es an diesem Tisch nicht (Plätze 1–10)" in r.stderr, r.stderr


@pytest.mark.e2e
@pytest.mark.parametrize("lang, number", [("ru", "число из 35 цифр"), ("ru31", "число из 31 цифры"),
                                          ("de", "eine Zahl mit 35 Ziffern"), ("sv", "ett tal med 35 siffror"),
                                          ("hu", "egy 35 jegyű szám"), ("en", "a number of 35 digits")])
def test_a_number_too_long_to_quote_is_counted_in_the_tables_language(lang, number, tmp_path):
    """A hostile or mistyped value is not quoted whole (it could flood the screen): it is counted —
    in the table's words, with the plural the count takes (ru: 31 цифры, 35 цифр)."""
    digits = 31 if lang.endswith("31") else 35
    cfg = tmp_path / "club.toml"
    cfg.write_text(f'variant = "classic"\nlanguage = "{lang[:2]}"\n[timers]\nspeech = {"9" * digits}\n')
    r = cli(["check-config", str(cfg)], tmp_path)
    assert r.returncode == 1 and f"club.toml:4: timers.speech: " in r.stderr and number in r.stderr, r.stderr
    assert lang[:2] == "en" or "a number of" not in r.stderr


@pytest.mark.e2e
def test_a_deal_typed_at_a_german_table_is_refused_in_german(tmp_path):
    """`deal` typed (or in a transcript) with the roles wrong: the answer said to the table names
    what the deal needs in German, with the roles as the deal is typed."""
    cfg = tmp_path / "verein.toml"
    cfg.write_text('variant = "classic"\nlanguage = "de"\n')
    game = tmp_path / "spiel.txt"
    game.write_text("deal 1=don 2=don 3=mafia\ndeal 1=don 1=mafia\n")
    r = cli(["replay", str(game), "--config", str(cfg)], tmp_path)
    assert "Diese Verteilung passt nicht zu diesem Spiel: Sie braucht 1 don, 2 mafia, 1 sheriff." in r.stderr, r.stderr
    assert "Diese Verteilung passt nicht zu diesem Spiel: Platz 1 ist zweimal genannt." in r.stderr
    assert "must have" not in r.stderr and "named twice" not in r.stderr


# ------------------------------------------------------------------ the questions at the terminal

@pytest.mark.parametrize("lang", LANGS)
def test_each_language_answers_each_question_with_letters_that_never_mean_two_things(lang):
    """The unfinished-game question (resume, new, quit) and the repair question (yes, no): the
    table's own letters beside the Latin ones, none standing for two answers, each named by the
    question."""
    voice = load_voice(lang)
    for question, choices in (("unfinished_ask", ("resume", "new", "quit")), ("repair_ask", ("yes", "no"))):
        letters = [{LATIN_ANSWERS[c], *voice.answers[c]} for c in choices]
        for i, mine in enumerate(letters):
            for other in letters[i + 1:]:
                assert not mine & other, f"{lang} {question}: {mine & other} means two answers"
        asked = voice.cli_text(question)
        for c in choices:
            assert f"[{voice.answers[c][0]}" in asked or f"/{voice.answers[c][0]}]" in asked, f"{lang} {question}: {c}"


def answer_each_time_asked(master: int, asked: bytes, typed: list[str], seen: bytearray) -> None:
    """Type the answers one by one, each once the question has been asked once more."""
    for n, answer in enumerate(typed, start=1):
        assert read_until(master, asked, seen, times=n), bytes(seen[-600:]).decode(errors="replace")
        os.write(master, answer.encode() + b"\n")


@pytest.mark.e2e
@pytest.mark.parametrize("lang, typed, resumed", [
    ("de", ["x", "weiter"], True),    # "weiterspielen": asked again after a letter that means nothing
    ("de", ["r"], True),              # the Latin letter still works
    ("ru", ["продолжить"], True),
    ("sv", ["fortsätt"], True),
    ("hu", ["új"], False),
    ("hu", ["uj"], False),            # a keyboard without ú
    ("ru", ["н"], False),
])
def test_the_unfinished_game_question_takes_the_tables_own_answer(lang, typed, resumed, tmp_path):
    """`narrator play` where an unfinished game waits asks resume, new game or quit. A German who
    typed "w" (weiterspielen) or a Russian "п" (продолжить) was asked again and again."""
    voice = load_voice(lang)
    cfg, journal = unfinished_game(lang, tmp_path)
    seen = bytearray()
    with on_a_terminal(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal", "--voice", "text"],
                       tmp_path) as (proc, master):
        asked = voice.cli_text("unfinished_ask").encode()
        answer_each_time_asked(master, asked, typed, seen)
        if resumed:
            assert read_until(master, voice.render("resuming").encode(), seen), bytes(seen[-600:]).decode(errors="replace")
            assert not list(tmp_path.glob("game.unfinished-*.jsonl"))
        else:
            kept = voice.cli_text("kept_aside", {"path": str(tmp_path / "game.unfinished-1.jsonl")})
            assert read_until(master, kept.encode(), seen), bytes(seen[-600:]).decode(errors="replace")
        assert seen.count(asked) == len(typed)
        os.write(master, b"quit\n")
        proc.wait(timeout=30)


@pytest.mark.e2e
@pytest.mark.parametrize("lang, typed, repaired", [
    ("ru", ["ж", "да"], True),
    ("de", ["ja"], True),
    ("sv", ["j"], True),
    ("hu", ["igen"], True),
    ("hu", ["y"], True),
    ("en", ["yes"], True),
    ("de", ["nein"], False),
    ("ru", ["нет"], False),
])
def test_the_repair_question_takes_the_tables_own_yes_and_no(lang, typed, repaired, tmp_path):
    """A damaged journal: resume from the last good line? A Russian answering «да» was asked again."""
    voice = load_voice(lang)
    cfg, journal = unfinished_game(lang, tmp_path)
    with journal.open("a") as fh:
        fh.write('{"type": "teleport"}\n')
    seen = bytearray()
    with on_a_terminal(["resume", "--journal", str(journal), "--voice", "text"], tmp_path) as (proc, master):
        asked = voice.cli_text("repair_ask").encode()
        answer_each_time_asked(master, asked, typed, seen)
        if repaired:
            assert read_until(master, voice.render("resuming").encode(), seen), bytes(seen[-600:]).decode(errors="replace")
            assert (tmp_path / "game.jsonl.damaged-1").exists()
            os.write(master, b"quit\n")
        else:
            how = voice.cli_text("repair_how", {"path": str(journal)})
            assert read_until(master, how.encode(), seen), bytes(seen[-600:]).decode(errors="replace")
            assert not (tmp_path / "game.jsonl.damaged-1").exists()
        proc.wait(timeout=30)
        assert seen.count(asked) == len(typed)
