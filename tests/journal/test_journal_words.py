"""What a table is told when its journal cannot be written or opened: the file, why, and what to
do — in the table's language, never a traceback. A full disk, a read-only disk or folder, a folder
of the journal's path that is a file, a journal path that is a folder (`narrator play` in a real
process; the failing disk itself is in test_journal_faults.py)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from narrator.journal import JournalLocked, io_error, read_error
from narrator.language import LANGUAGES, load_voice
from narrator.worded import Worded
from test_journal_faults import FAULTY, run

CODES = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO, errno.EISDIR, errno.EEXIST,
         errno.ENOTDIR, errno.EBADF)


def every_error(tmp_path: Path):
    in_the_way = tmp_path / "club"
    in_the_way.write_text("not a folder")
    for code in CODES:
        for resume in (True, False):
            path = in_the_way / "games" / "x.jsonl" if code in (errno.EEXIST, errno.ENOTDIR) else tmp_path / "x.jsonl"
            yield io_error(path, OSError(code, os.strerror(code)), resume)
    for code in (errno.EACCES, errno.EPERM, errno.EISDIR, errno.EIO, errno.EBADF):
        yield read_error(tmp_path / "x.jsonl", OSError(code, os.strerror(code)))
    yield JournalLocked(tmp_path / "x.jsonl", 4711)
    yield JournalLocked(tmp_path / "x.jsonl", None)


def parts(w: Worded):
    yield w
    for v in w.words.values():
        if isinstance(v, Worded):
            yield from parts(v)


@pytest.mark.e2e
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_journal_error_names_the_file_and_is_said_in_the_tables_language(lang, tmp_path):
    voice = load_voice(lang)
    for exc in every_error(tmp_path):
        for w in (*parts(exc.why), *parts(exc.what_to_do)):
            assert w.is_said_in(voice), (lang, w.name)
        said = exc.said(voice)
        assert said.startswith(f"{exc.path}: ") and " — " in said and "{" not in said
        if lang != "en":
            assert said != exc.said(None), said          # not English at a table that speaks another language


def test_the_way_on_after_a_full_disk_depends_on_whether_the_game_had_begun(tmp_path):
    full = OSError(errno.ENOSPC, "No space left on device")
    assert str(io_error(tmp_path / "g.jsonl", full).what_to_do) == f"free some space, then `narrator resume --journal {tmp_path / 'g.jsonl'}`"
    # nothing of a game that could not start is in the file: start it again, no resume of nothing
    assert str(io_error(tmp_path / "g.jsonl", full, resume=False).what_to_do) == "free some space, then start the game again"


HU = 'variant = "hungariq"\nlanguage = "hu"\n'
DE = 'variant = "grundregeln"\nlanguage = "de"\n'
SV = 'variant = "sverige"\nlanguage = "sv"\n'
RU = 'variant = "classic"\nlanguage = "ru"\n'


def play(tmp_path: Path, config: str, *extra: str, faulty: tuple[str, ...] = ()):
    cfg = tmp_path / "club.toml"
    cfg.write_text(config, encoding="utf-8")
    argv = [str(FAULTY), *faulty, "--"] if faulty else ["-m", "narrator.cli"]
    r = run([*argv, "play", "--config", str(cfg), "--voice", "text", "--no-reveal", *extra], tmp_path, "quit\n")
    assert "Traceback" not in r.stderr + r.stdout
    return r


@pytest.mark.e2e
def test_a_journal_folder_that_is_a_file_is_named_with_what_to_do_in_hungarian(tmp_path):
    club = tmp_path / "klub"
    club.write_text("a club's notes, not a folder")
    journal = club / "jatek.jsonl"
    r = play(tmp_path, HU, "--journal", str(journal))
    assert r.returncode == 2
    assert (f"a játék nem tud elindulni: {journal}: {club}: ez fájl, nem mappa — helyezd át vagy nevezd át azt a fájlt, "
            "vagy válassz másik naplófájlt") in r.stderr
    assert club.read_text() == "a club's notes, not a folder"      # the file in the way is left as it was


@pytest.mark.e2e
def test_a_games_folder_that_is_a_file_is_named_in_german(tmp_path):
    # the default place of every game's journal: ~/.local/state/narrator/games (XDG_STATE_HOME)
    games = Path(os.environ["XDG_STATE_HOME"]) / "narrator" / "games"  # set for every test by conftest.py
    games.parent.mkdir(parents=True, exist_ok=True)
    games.write_text("")
    r = play(tmp_path, DE, "--new")
    assert r.returncode == 2
    assert f"das Spiel kann nicht beginnen: {games}/" in r.stderr
    assert f": {games} ist eine Datei, kein Ordner — diese Datei verschieben oder umbenennen" in r.stderr


@pytest.mark.e2e
def test_a_journal_path_that_is_a_folder_asks_for_a_file_in_it_in_swedish(tmp_path):
    folder = tmp_path / "spel"
    folder.mkdir()
    r = play(tmp_path, SV, "--journal", str(folder))
    assert r.returncode == 2
    assert f"spelet kan inte starta: {folder}: det här är en mapp, inte en fil — ange en fil i den" in r.stderr
    assert list(folder.iterdir()) == []


@pytest.mark.e2e
def test_a_folder_the_player_may_not_write_in_is_named_in_russian(tmp_path):
    # root writes anywhere: the folder's refusal is the kernel's EACCES at the journal's open
    journal = tmp_path / "ro" / "igra.jsonl"
    journal.parent.mkdir()
    r = play(tmp_path, RU, "--journal", str(journal), faulty=("EACCES", "open"))
    assert r.returncode == 2
    assert (f"игра не может начаться: {journal}: нет прав на запись в папку {journal.parent} — исправьте права доступа, "
            "или выберите другой файл журнала") in r.stderr


@pytest.mark.e2e
@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in any folder; the simulated refusal above covers it")
def test_a_read_only_folder_for_real(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        r = play(tmp_path, DE, "--journal", str(folder / "spiel.jsonl"))
    finally:
        folder.chmod(0o755)
    assert r.returncode == 2
    assert f"keine Berechtigung, in {folder} zu schreiben — die Berechtigungen korrigieren" in r.stderr


@pytest.mark.e2e
def test_a_header_that_cannot_be_written_asks_to_start_again_not_to_resume_nothing(tmp_path):
    journal = tmp_path / "spiel.jsonl"
    r = play(tmp_path, DE, "--journal", str(journal), faulty=("ENOSPC", "0"))
    assert r.returncode == 2
    assert f"das Spiel kann nicht beginnen: {journal}: die Festplatte ist voll — Platz schaffen, dann das Spiel neu beginnen" in r.stderr
    assert "narrator resume" not in r.stderr


# `narrator resume` on a journal it cannot read: the file, why and what to do, never only the
# system's error. A file that cannot be read at all names no language: English.
def resume(tmp_path: Path, journal: Path, *wrap: str, locale: dict | None = None, more: tuple = ()):
    """`narrator resume --journal F`; `locale`: the system's locale variables (none: C, English)."""
    import subprocess
    import sys
    from test_journal_faults import ROOT
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    env.update({"HOME": str(tmp_path), "COLUMNS": "2000", "PYTHONPATH": str(ROOT), **(locale or {"LANG": "C.UTF-8"})})
    r = subprocess.run([*wrap, sys.executable, "-m", "narrator.cli", "resume", "--journal", str(journal), "--voice", "text",
                        *more], input="", capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert "Traceback" not in r.stderr + r.stdout, r.stderr
    return r


def a_german_game(tmp_path: Path) -> Path:
    journal = tmp_path / "spiel.jsonl"
    r = play(tmp_path, DE, "--journal", str(journal))
    assert r.returncode == 0 and journal.exists(), r.stderr
    return journal


@pytest.mark.e2e
def test_resuming_a_folder_asks_for_the_journal_in_it(tmp_path):
    folder = tmp_path / "spiele.jsonl"
    folder.mkdir()
    r = resume(tmp_path, folder)
    assert r.returncode == 2
    assert (f"{folder}: this is a folder, not a file — name a journal file inside it "
            f"(`narrator resume --journal {folder}/FILE.jsonl`), or type only `narrator resume`") in r.stderr, r.stderr


@pytest.mark.e2e
def test_resuming_a_journal_the_player_may_not_read_says_so_for_real(tmp_path):
    import shutil
    journal = a_german_game(tmp_path)
    journal.chmod(0)
    # root reads anything: in a user namespace as another user it is refused as a player is
    wrap = () if os.geteuid() != 0 else ("unshare", "--user", "--map-user=1000", "--map-group=1000")
    if wrap and (shutil.which("unshare") is None or os.system("unshare --user --map-user=1000 true 2>/dev/null") != 0):
        pytest.skip("no user namespace to be refused in")
    try:
        r = resume(tmp_path, journal, *wrap)
    finally:
        journal.chmod(0o600)
    assert r.returncode == 2
    assert (f"{journal}: no permission to read this file — fix the permissions, "
            f"then `narrator resume --journal {journal}`") in r.stderr, r.stderr
    assert "Permission denied" not in r.stderr


@pytest.mark.e2e
def test_resuming_a_german_journal_with_binary_garbage_names_the_line_in_german(tmp_path):
    journal = a_german_game(tmp_path)
    good = journal.read_bytes()
    journal.write_bytes(good + b"\x00\xff\xfe\x89PNG garbage \xf3\n")
    r = resume(tmp_path, journal)
    assert r.returncode == 2
    lines = len(good.splitlines())
    assert f"{journal}:{lines + 1}: kein Text (beschädigte Bytes)" in r.stderr, r.stderr
    assert f"narrator resume --journal {journal} --repair" in r.stderr
    assert journal.read_bytes() == good + b"\x00\xff\xfe\x89PNG garbage \xf3\n"   # left as it was


@pytest.mark.e2e
def test_resuming_a_file_that_is_no_journal_at_all_says_so(tmp_path):
    junk = tmp_path / "foto.jsonl"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff binary\n")
    r = resume(tmp_path, junk)
    assert r.returncode == 2
    assert f"{junk}:1: not a narrator journal" in r.stderr, r.stderr
    assert "narrator play --new" in r.stderr


def refused_as_a_player(tmp_path: Path) -> tuple[str, ...]:
    """root reads anything: in a user namespace as another user it is refused as a player is."""
    import shutil
    wrap = () if os.geteuid() != 0 else ("unshare", "--user", "--map-user=1000", "--map-group=1000")
    if wrap and (shutil.which("unshare") is None or os.system("unshare --user --map-user=1000 true 2>/dev/null") != 0):
        pytest.skip("no user namespace to be refused in")
    return wrap


@pytest.mark.e2e
@pytest.mark.parametrize("lang", ["ru", "de"])
def test_a_journal_resume_cannot_read_is_told_in_the_language_of_the_users_config_or_locale(lang, tmp_path):
    """Nothing in a folder, an unreadable file or a file whose first line is no journal header
    names the table's language: `narrator resume` said why in English to a Russian or German
    club. It says it in the language of the config the user names (`--config`), else of the
    system's locale (LC_ALL before LC_MESSAGES before LANG, as POSIX reads them)."""
    voice = load_voice(lang)
    locale = {"ru": "ru_RU.UTF-8", "de": "de_DE.UTF-8"}[lang]
    folder = tmp_path / "games.jsonl"
    folder.mkdir()
    is_folder = voice.cli_text("journal_is_folder", {})
    # the locale names the language
    r = resume(tmp_path, folder, locale={"LANG": locale})
    assert r.returncode == 2 and f"{folder}: {is_folder} — " in r.stderr, r.stderr
    assert voice.cli_text("error", {}) in r.stderr
    # LC_ALL overrules LANG; LC_MESSAGES overrules LANG too
    r = resume(tmp_path, folder, locale={"LANG": "sv_SE.UTF-8", "LC_ALL": locale})
    assert f"{folder}: {is_folder} — " in r.stderr, r.stderr
    r = resume(tmp_path, folder, locale={"LANG": "C.UTF-8", "LC_MESSAGES": locale})
    assert f"{folder}: {is_folder} — " in r.stderr, r.stderr
    # the config the user names, whatever the locale says
    club = tmp_path / "club.toml"
    club.write_text(f'variant = "classic"\nlanguage = "{lang}"\n')
    r = resume(tmp_path, folder, locale={"LANG": "hu_HU.UTF-8"}, more=("--config", str(club)))
    assert f"{folder}: {is_folder} — " in r.stderr, r.stderr
    # a first line that is no journal header (a binary file saved over the journal)
    junk = tmp_path / "foto.jsonl"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff binary\n")
    r = resume(tmp_path, junk, locale={"LANG": locale})
    assert r.returncode == 2 and f"{junk}:1: {voice.cli_text('damaged_not_journal', {})}" in r.stderr, r.stderr
    assert voice.cli_text("or_new_game", {}) in r.stderr
    # a journal it may not read: its own language is locked in it with the rest
    journal = a_german_game(tmp_path)
    wrap = refused_as_a_player(tmp_path)
    journal.chmod(0)
    try:
        r = resume(tmp_path, journal, *wrap, locale={"LANG": locale})
    finally:
        journal.chmod(0o600)
    assert r.returncode == 2 and f"{journal}: {voice.cli_text('journal_no_permission_read', {})} — " in r.stderr, r.stderr
    # C, POSIX or a language the narrator does not speak: English, as before
    r = resume(tmp_path, folder, locale={"LANG": "fr_FR.UTF-8"})
    assert f"{folder}: this is a folder, not a file — " in r.stderr, r.stderr


@pytest.mark.e2e
def test_resume_with_the_clubs_config_goes_on_with_the_game_at_its_journal_path(tmp_path):
    """`narrator resume --config club.toml`: the game that config journals (`[journal] path`, taken
    from the config's folder), said in its language when that journal cannot be read."""
    import subprocess
    import sys
    from test_journal_faults import ROOT

    club = tmp_path / "club"
    club.mkdir()
    (club / "tonight.jsonl").mkdir()  # a folder where the journal should be
    (club / "mafia.toml").write_text('variant = "classic"\nlanguage = "ru"\n[journal]\npath = "tonight.jsonl"\n')
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    env.update({"HOME": str(tmp_path), "COLUMNS": "2000", "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"})
    r = subprocess.run([sys.executable, "-m", "narrator.cli", "resume", "--config", str(club / "mafia.toml"), "--voice", "text"],
                       input="", capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"{club / 'tonight.jsonl'}: {load_voice('ru').cli_text('journal_is_folder', {})} — " in r.stderr, r.stderr


def test_resume_reads_the_clubs_config_once_and_still_names_its_errors_in_its_language(tmp_path, monkeypatch, capsys):
    """`narrator resume --config F` read F twice, once for the language of what it says before a
    journal is read and once to load it. Now once: the journal it names, or the config's own error
    (file, line and key, in the language it names: `verein.toml:4: timers.night_step: …`)."""
    from pathlib import Path

    from narrator import cli

    monkeypatch.setenv("HOME", str(tmp_path))
    for var in ("LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    reads: list[str] = []
    read_bytes = Path.read_bytes

    def counted(self):
        reads.append(self.name)
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", counted)
    club = tmp_path / "club"
    club.mkdir()
    (club / "tonight.jsonl").mkdir()  # a folder where the journal should be
    (club / "mafia.toml").write_text('variant = "classic"\nlanguage = "ru"\n[journal]\npath = "tonight.jsonl"\n')
    assert cli.main(["resume", "--config", str(club / "mafia.toml"), "--voice", "text"]) == 2
    assert reads.count("mafia.toml") == 1, reads
    assert load_voice("ru").cli_text("journal_is_folder", {}) in capsys.readouterr().err

    reads.clear()
    (club / "verein.toml").write_text('variant = "grundregeln"\nlanguage = "de"\n[timers]\nnight_step = "lang"\n')
    assert cli.main(["resume", "--config", str(club / "verein.toml"), "--voice", "text"]) == 2
    assert reads.count("verein.toml") == 1, reads
    said = capsys.readouterr().err
    assert f"{club / 'verein.toml'}:4: timers.night_step: muss int sein" in said.replace("\n", ""), said
