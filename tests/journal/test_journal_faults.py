"""A disk that fills up, turns read-only or fails in the middle of a real `narrator play`.

The rule: an event is applied only once it is durably in the journal; a write that fails is never
written later; the game stops and says why in plain words; `narrator resume` after the fault
gives exactly the game as it stood, and it plays on to the same end."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from narrator.config import parse_config
from narrator.flow.effects import Say
from narrator.journal import read
from narrator.language import load_voice
from narrator.session import Session
from test_journal_resume import CONFIG, typed_lines

# every test here drives a real process, server or speech model
pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
FAULTY = ROOT / "tests" / "journal" / "faulty_disk.py"


def run(argv: list[str], tmp_path: Path, stdin: str, timeout: float = 60) -> subprocess.CompletedProcess:
    # wide columns: each narration line stays one line in the captured output
    env = {**os.environ, "HOME": str(tmp_path), "COLUMNS": "2000", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *argv], input=stdin, capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=timeout)


def narration(stdout: str) -> list[str]:
    voice = load_voice("en")
    extra = {voice.render("keypad_masking", {}), voice.render("journal_failed", {}), voice.render("resuming", {})}
    return [l[2:] for l in stdout.splitlines() if l.startswith("» ") and l[2:] not in extra]


def narration_of_journal(journal: Path) -> list[str]:
    """Every public line the journaled events make the narrator say, from the start."""
    contents = read(journal)
    session = Session(parse_config(CONFIG, "club.toml"), fixed_night_steps=True)
    effects = session.start()
    for ev in contents.events:
        effects += session.feed(ev)
    return [session.voice.render(e.line, e.args) for e in effects if isinstance(e, Say)]


def stood_at(text: str) -> str:
    """The status block (state, day, alive, nominations, fouls, waiting for), without the clock."""
    start = text.index("state: ")
    block = text[start:].splitlines()[:3]
    return re.sub(r" · timer: .*", "", "\n".join(block))


REASONS = {"ENOSPC": "the disk is full", "EROFS": "the disk is read-only", "EIO": "the disk failed"}


@pytest.mark.parametrize("code,after", [("ENOSPC", 20), ("EROFS", 7), ("EIO", 44)])
def test_a_failing_disk_stops_the_game_with_the_reason_and_resume_gives_the_game_as_it_stood(code, after, tmp_path):
    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG)
    journal = tmp_path / "game.jsonl"
    lines = typed_lines()

    play = run([str(FAULTY), code, str(after), "--", "play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"],
               tmp_path, "\n".join(lines) + "\n")
    assert play.returncode == 3, play.stderr
    assert "Traceback" not in play.stderr + play.stdout
    # the file, why, and the command that goes on
    assert f"the game stopped: {journal}: {REASONS[code]}" in play.stderr and "narrator resume" in play.stderr
    # the table hears it too, through the normal outputs
    assert load_voice("en").render("journal_failed", {}) in play.stdout

    contents = read(journal)
    assert not contents.torn and not contents.finished        # the half-written line was taken back
    # the header, then every line that made it (the inputs and the day timers' time-left marks)
    assert contents.total_lines == after
    # nothing that missed the journal was applied: the narration is exactly the journal's
    assert narration(play.stdout) == narration_of_journal(journal)

    # the disk works again: resume is the game as it stood, and it plays on to the same end
    typed = len(contents.events) - 1                           # the deal is not typed
    resume = run(["-m", "narrator.cli", "resume", "--journal", str(journal)], tmp_path,
                 "status\n" + "\n".join(lines[typed:]) + "\n")
    assert resume.returncode == 0, resume.stderr
    assert stood_at(resume.stdout) == stood_at(play.stderr)
    assert "game over: The town wins." in resume.stdout
    final = read(journal)
    assert final.finished and len(final.events) == len(lines) + 1


def test_a_journal_that_cannot_be_created_is_named_with_what_to_do(tmp_path):
    locked = tmp_path / "ro"
    locked.mkdir()
    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG)
    r = run([str(FAULTY), "EROFS", "0", "--", "play", "--config", str(cfg), "--journal", str(locked / "game.jsonl"),
             "--no-reveal"], tmp_path, "")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"the game cannot start: {locked / 'game.jsonl'}: the disk is read-only" in r.stderr


def _tmpfs(size: str) -> Path | None:
    """A tiny filesystem of its own, where the machine lets the test make one (root, Linux)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        return None
    where = Path(tempfile.mkdtemp(prefix="narrator-tinyfs-"))
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if r.returncode != 0:
        where.rmdir()
        return None
    return where


def test_a_really_full_disk_mid_game_stops_it_and_resume_loses_nothing(tmp_path):
    fs = _tmpfs("64k")
    if fs is None:
        pytest.skip("no tiny filesystem here (needs root and tmpfs); the injected failing disk above covers it")
    play = None
    try:
        cfg = tmp_path / "club.toml"
        cfg.write_text(CONFIG)
        journal = fs / "game.jsonl"
        lines = typed_lines()
        env = {**os.environ, "HOME": str(tmp_path), "COLUMNS": "2000", "PYTHONUNBUFFERED": "1"}
        play = subprocess.Popen([sys.executable, "-m", "narrator.cli", "play", "--config", str(cfg), "--journal", str(journal),
                                 "--no-reveal"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, cwd=ROOT, env=env)
        from test_journal_resume import wait_for_events

        cut = 12
        play.stdin.write("\n".join(lines[:cut]) + "\n")
        play.stdin.flush()
        wait_for_events(journal, cut + 1)
        # another program takes every free byte of the disk
        fd = os.open(fs / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        out, err = play.communicate("\n".join(lines[cut:]) + "\n", timeout=60)
        assert play.returncode == 3, err
        assert "Traceback" not in err + out
        assert f"the game stopped: {journal}: the disk is full" in err and "free some space" in err
        assert narration(out) == narration_of_journal(journal)
        contents = read(journal)
        assert not contents.torn and cut + 1 <= len(contents.events) < len(lines) + 1

        (fs / "filler").unlink()                      # space is back
        typed = len(contents.events) - 1
        resume = run(["-m", "narrator.cli", "resume", "--journal", str(journal)], tmp_path,
                     "status\n" + "\n".join(lines[typed:]) + "\n")
        assert resume.returncode == 0, resume.stderr
        assert stood_at(resume.stdout) == stood_at(err)
        assert "game over: The town wins." in resume.stdout
        assert len(read(journal).events) == len(lines) + 1
    finally:
        if play is not None and play.poll() is None:
            play.kill()
            play.wait()
        subprocess.run(["umount", str(fs)], capture_output=True)
        fs.rmdir()
