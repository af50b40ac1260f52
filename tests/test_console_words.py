"""What the console says around a game, as a non-English table meets it (play-test of session 11):
a grundregeln game ends in the words of its own narrator (seed 003: the good and the evil side),
the status at night names no nominee, and a resume says where the game stands, not again how the
keypad works."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator.console import status_text
from narrator.journal import read
from narrator.language import load_voice
from test_console_table import console_game, start

ROOT = Path(__file__).resolve().parent.parent


def cli(args: list[str], tmp_path: Path, stdin: str = "", env: dict | None = None, timeout: float = 60):
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1", "COLUMNS": "2000", **(env or {})}
    return subprocess.run([sys.executable, "-m", "narrator.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)


# ------------------------------------------------------------------ a crash, and the resume

RU_CLUB = """variant = "classic"
language = "ru"
[dealing]
roles = { 1 = "sheriff", 2 = "don", 3 = "mafia", 4 = "mafia" }
[timers]
speech = 600
night_zero_step = 120
mafia_meeting = 300
[input]
engine = "none"
"""



# ------------------------------------------------------------------ a grundregeln table (seed 003)

GRUND = 'variant = "grundregeln"\nlanguage = "de"\nseats = 5\n[roles]\nmafia = 1\n[dealing]\nroles = { 1 = "mafia" }\n' \
        '[timers]\ndiscussion = 600\nvote = 120\ndefence = 120\nnight_step = 60\n[input]\nengine = "none"\n'
# night 1: the mafia (seat 1) kill 2; day 1: everybody points, 3 and 4 defend, 3 is lynched
FIRST_DAY = ["tap 1 2", "timeout", "timeout", "tap 1 3", "tap 3 4", "tap 4 3", "tap 5 3", "timeout", "timeout",
             "tap 1 3", "tap 3 4", "tap 4 3", "tap 5 3"]
# night 2: 4 is killed; day 2: 1 and 5 point at each other, tie again, and 4 (died last) decides: 5
SECOND_DAY = ["tap 1 4", "timeout", "timeout", "tap 1 5", "tap 5 1", "timeout", "timeout", "tap 1 5", "tap 5 1", "tap 4 5"]


def test_the_german_status_at_night_names_no_nominee_of_the_day_and_reads_as_one_sentence():
    """Seen at a German grundregeln table: `status` in the night listed the day's nominees, and
    said «wartet auf: Das Opfer der Mafia» with a capital in the middle of the sentence."""
    printed, live = console_game(GRUND, [l if l != "timeout" else "<fire>" for l in FIRST_DAY] + ["status"])
    assert live.game.state == "night" and live.game.public_nominations() == [3, 4]  # the game keeps them till dawn
    status = printed[printed.rindex("Phase: "):]
    assert status.startswith("Phase: Nacht · Tag 1 · im Spiel: 1, 4, 5"), status
    assert "nominiert: niemand" in status, status
    assert "wartet auf: das Opfer der Mafia (Tippen, oder timeout)" in status, status


def test_a_grundregeln_game_ends_at_the_console_in_the_words_of_its_narrator_and_quit_returns(tmp_path):
    """Seen at a German grundregeln table: the narrator said «Die böse Seite gewinnt», the console
    printed «Spiel vorbei: Die Mafia gewinnt.» — the phone's word. Both now name the winner as the
    narrator of seed 003 does; a `quit` typed after the result finds the shell again."""
    cfg = tmp_path / "verein.toml"
    cfg.write_text(GRUND)
    r = cli(["play", "--config", str(cfg), "--voice", "text", "--journal", str(tmp_path / "spiel.jsonl"), "--no-reveal"],
            tmp_path, "\n".join(FIRST_DAY + SECOND_DAY + ["quit", "status"]) + "\n", timeout=90)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    de = load_voice("de", "grundregeln")
    assert f"» {de.render('evil_wins')}" in r.stdout
    assert "Spiel vorbei: Die böse Seite gewinnt." in r.stdout
    assert "Die Mafia gewinnt" not in r.stdout
    assert read(tmp_path / "spiel.jsonl").finished


def test_the_status_after_the_end_names_the_winner_as_the_narrator_does():
    printed, live = console_game(GRUND, [l if l != "timeout" else "<fire>" for l in FIRST_DAY + SECOND_DAY])
    assert live.game.state == "over"
    assert status_text(live).startswith("Phase: Das Spiel ist vorbei. Die böse Seite gewinnt. · Tag 2")


@pytest.mark.parametrize("typed,running", [
    # killed in the middle of player 2's speech (day 1)
    (["timeout"] * 4, "Spieler 2, deine Redezeit"),
    # killed while the mafia meet at night zero
    (["timeout"], "Der Don schläft ein."),
])
def test_a_resume_says_where_the_game_stands_and_not_again_how_the_keypad_works(typed, running, tmp_path):
    """Seen at a German table after a crash mid-day: the resume explained the keypad again, as at
    the start of the game. The table heard it then; a resume says that the game goes on and the
    lines that opened the running step, nothing more."""
    from test_journal_resume import wait_for_events

    de = load_voice("de")
    cfg = tmp_path / "verein.toml"
    cfg.write_text(RU_CLUB.replace('language = "ru"', 'language = "de"'))
    journal = tmp_path / "spiel.jsonl"
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal", "--voice", "text"], tmp_path)
    play.stdin.write("\n".join(typed) + "\n")
    play.stdin.flush()
    wait_for_events(journal, len(typed) + 1)
    time.sleep(1)
    play.send_signal(signal.SIGKILL)
    play.wait(timeout=10)

    resume = start(["resume", "--journal", str(journal), "--voice", "text"], tmp_path)
    out, err = resume.communicate("quit\n", timeout=60)
    said = [line[2:] for line in out.splitlines() if line.startswith("» ")]
    assert said[0] == de.render("resuming")
    # (printed, a long line wraps: its opening words are enough to find it)
    assert de.render("keypad_masking")[:40] not in out, out
    assert any(s.startswith(running) for s in said[1:]), said
    assert "Traceback" not in err


def test_a_lone_mafioso_on_the_hot_seat_is_told_he_is_alone_not_given_an_empty_list(tmp_path):
    """Seen on a four-seat German grundregeln table (seed 003: one mafioso is enough): the hot seat
    showed the only mafioso «Mit dir in der Mafia: .»."""
    from test_console_hotseat import play_on_a_terminal
    from test_console_hotseat import read_until as read_terminal

    de = load_voice("de", "grundregeln")
    seen = bytearray()
    config = 'variant = "grundregeln"\nlanguage = "de"\nseats = 4\n[roles]\nmafia = 1\n[input]\nengine = "none"\n'
    with play_on_a_terminal(tmp_path, config) as (play, master):
        for seat in range(1, 5):
            assert read_terminal(master, de.render("reveal_look", {"seat": seat}).encode(), seen), seen[-600:]
            os.write(master, b"\n")
            assert read_terminal(master, de.render("reveal_hide", {}).encode(), seen, times=seat)
            os.write(master, b"\n")
        assert read_terminal(master, de.render("night_zero_falls").encode(), seen), seen[-600:]
        os.write(master, b"quit\n")
        play.wait(timeout=30)
    shown = bytes(seen).decode(errors="replace")
    assert shown.count(de.render("your_mates_none")) == 1
    assert "Mit dir in der Mafia: ." not in shown
