"""A path written in a config file is taken from that file's folder, as whoever wrote it reads it:
`narrator play --config ~/club/mafia.toml` started from any folder journals beside the config and
hears with the models beside it, and `narrator resume` from yet another folder finds the same files.
The embedded defaults (empty: each option's own place) keep their meaning; `~` is the home folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.config import PATH_OPTIONS, default_config, load_config, parse_config
from narrator.journal import read
from test_journal_faults import ROOT

CLUB = '''variant = "grundregeln"
language = "de"

[journal]
path = "spiele/heute.jsonl"

[input]
model_dir = "modelle"

[club]
database = "~/verein.sqlite"
'''


def test_a_relative_path_is_the_config_folders_and_tilde_is_home(tmp_path, monkeypatch):
    (tmp_path / "verein").mkdir()
    cfg_file = tmp_path / "verein" / "mafia.toml"
    cfg_file.write_text(CLUB + '[voice]\ncache_dir = "/var/cache/narrator"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)                  # started from another folder
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    cfg = load_config("verein/mafia.toml")
    assert cfg.section("journal")["path"] == str(tmp_path / "verein" / "spiele" / "heute.jsonl")
    assert cfg.section("input")["model_dir"] == str(tmp_path / "verein" / "modelle")
    assert cfg.section("club")["database"] == str(tmp_path / "home" / "verein.sqlite")
    assert cfg.section("voice")["cache_dir"] == "/var/cache/narrator"    # an absolute path stays as written


def test_the_embedded_defaults_keep_each_options_own_place():
    cfg = default_config()
    assert all(cfg.section(section)[key] == "" for section, key in PATH_OPTIONS)
    # a config that is no file (a test's text) has no folder: a relative path stays relative
    assert parse_config(CLUB, "<text>").section("journal")["path"] == "spiele/heute.jsonl"


@pytest.mark.e2e
def test_check_config_names_each_path_as_the_game_will_use_it(tmp_path):
    (tmp_path / "verein").mkdir()
    (tmp_path / "verein" / "mafia.toml").write_text(CLUB, encoding="utf-8")
    # the relative file name is the command line's (the working folder's), its paths the file's
    r = _in(tmp_path, ["check-config", "verein/mafia.toml"])
    assert r.returncode == 0, r.stderr
    assert f"ein relativer Pfad gilt ab dem Ordner der Konfiguration, {tmp_path / 'verein'}" in r.stdout
    assert f"  journal.path = {tmp_path / 'verein' / 'spiele' / 'heute.jsonl'}" in r.stdout
    assert f"  input.model_dir = {tmp_path / 'verein' / 'modelle'}" in r.stdout
    assert f"  club.database = {tmp_path / 'verein.sqlite'}" in r.stdout   # HOME is tmp_path here


def _in(folder: Path, argv: list[str], stdin: str = ""):
    import os
    import subprocess
    import sys

    env = {**os.environ, "HOME": str(folder), "COLUMNS": "2000", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "narrator.cli", *argv], input=stdin, capture_output=True, text=True,
                          cwd=folder, env=env, timeout=60)


@pytest.mark.e2e
def test_a_game_started_from_another_folder_journals_beside_its_config_and_resume_finds_the_same_files(tmp_path):
    club = tmp_path / "verein"
    club.mkdir()
    (club / "mafia.toml").write_text(CLUB, encoding="utf-8")
    elsewhere = tmp_path / "irgendwo"
    elsewhere.mkdir()
    # the table's operator starts the game from his home folder, names the config by its path
    play = _in(elsewhere, ["play", "--config", str(club / "mafia.toml"), "--voice", "text", "--no-reveal"], "quit\n")
    assert play.returncode == 0, play.stderr
    journal = club / "spiele" / "heute.jsonl"
    assert journal.exists() and not (elsewhere / "spiele").exists()
    assert str(journal) in play.stdout
    # the config's own model folder is where the narrator looked for its ears
    assert f"kein Vosk-Modell für 'de' in {club / 'modelle'}" in play.stderr
    header = read(journal).header
    assert header["config_dir"] == str(club)

    # resumed from a third folder, with a bare `narrator resume`: the same journal, the same models
    third = tmp_path / "dritter"
    third.mkdir()
    resume = _in(third, ["resume", "--voice", "text"], "quit\n")
    assert resume.returncode == 0, resume.stderr
    assert f"kein Vosk-Modell für 'de' in {club / 'modelle'}" in resume.stderr
    assert not (third / "modelle").exists() and not (third / "spiele").exists()


@pytest.mark.e2e
def test_a_journal_of_an_earlier_version_without_the_config_folder_still_resumes(tmp_path):
    club = tmp_path / "verein"
    club.mkdir()
    (club / "mafia.toml").write_text('variant = "classic"\nlanguage = "en"\n', encoding="utf-8")
    play = _in(club, ["play", "--config", "mafia.toml", "--voice", "text", "--no-reveal", "--journal", "game.jsonl"], "quit\n")
    assert play.returncode == 0, play.stderr
    journal = club / "game.jsonl"
    lines = journal.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    del header["config_dir"]
    journal.write_text("\n".join([json.dumps(header)] + lines[1:]), encoding="utf-8")
    resume = _in(club, ["resume", "--journal", "game.jsonl", "--voice", "text"], "quit\n")
    assert resume.returncode == 0, resume.stderr


@pytest.mark.parametrize("text, problem", [
    ('variant = "nope"\nlanguage = "en"\n', "variant: unknown variant 'nope'"),
    (None, "no such file"),
])
def test_the_host_screens_address_from_a_bad_config_names_the_problem_and_prints_no_traceback(tmp_path, capsys, text, problem):
    from narrator.cli import main

    path = tmp_path / "club.toml"
    if text is not None:
        path.write_text(text)
    assert main(["companion-host", "--config", str(path)]) == 2
    out, err = capsys.readouterr()
    assert problem in err and str(path) in err, err
    assert "Traceback" not in out + err and "http" not in out  # no address of a game it cannot start
