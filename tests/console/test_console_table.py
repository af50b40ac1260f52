"""The console as a table meets it (play-test of session 10): whoever types gets an answer in the
table's language, a leave typed while phones are on is answered at the console and gone before the
next step, a speaker cut off by a crash gets the rest of his minute, and a state folder that
cannot be written is said once, with the command that finds the game."""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from narrator.companion.testing import ManualClockSession, until
from narrator.config import parse_config
from narrator.console import ConsoleOutput, console_line
from narrator.journal import read
from narrator.language import load_voice
from narrator.session import Session

ROOT = Path(__file__).resolve().parents[2]
ERASE = "\x1b[3J"
DEAL = '[dealing]\nroles = { 1 = "sheriff", 3 = "don", 5 = "mafia", 8 = "mafia" }\n[input]\nengine = "none"\n'


def table(lang: str, extra: str = "", variant: str = "classic") -> str:
    return f'variant = "{variant}"\nlanguage = "{lang}"\n' + DEAL + extra


async def _typed(live, console, lines, show_private=True):
    for line in lines:
        if line == "<fire>":
            live.fire()
        else:
            console_line(live, line, console)
        await asyncio.sleep(0.02)  # the loop applies it before the next line is typed


def console_game(cfg_text: str, lines: list[str], show_private: bool = True, terminal: bool = False):
    """A live game on a manual clock, typed at through the console's own line handler; what the
    console printed, and the session. `<fire>` lets the running timer run out."""
    out = io.StringIO()
    console = Console(file=out, width=300, highlight=False, force_terminal=terminal, color_system=None)
    cfg = parse_config(cfg_text, "club.toml")

    async def main():
        live = ManualClockSession(cfg, None)
        live.outputs = [ConsoleOutput(live, console, clear_at_dawn=terminal, show_private=show_private)]
        task = asyncio.create_task(live.run(live.start_effects(), [live.session.dealing_event()]))
        await until(lambda: live.queue is not None and live.game.state != "setup")
        await _typed(live, console, lines)
        live.submit_control("quit")
        await asyncio.wait_for(task, 10)
        return live

    live = asyncio.run(main())
    return out.getvalue(), live


NIGHT_ZERO = ["<fire>"] * 3
DAY_ONE_QUIET = ["timeout"] * 10  # ten speeches, no nomination: the city goes to sleep


def test_leave_typed_at_the_console_while_phones_are_on_is_answered_there_and_wiped_before_the_next_step():
    """Seen at a table with phones: `leave 6` typed at the laptop got no answer at all — only seat
    6's phone heard of it. Now the console says it (the same private line the no-phone console
    shows), and the screen is wiped before the next step's players open their eyes, the typed
    line with it (seed 000: the sleeping table must not learn it)."""
    printed, live = console_game(table("en"), NIGHT_ZERO + DAY_ONE_QUIET + ["leave 6", "<fire>"],
                                 show_private=False, terminal=True)
    answer = load_voice("en", "classic").render("player_left_unwell", {"seat": 6})
    assert answer in printed
    after = printed[printed.index(answer):]
    next_step = load_voice("en").render("don_wakes_check")
    # the step's timer wipes the screen the moment it starts; its public lines are printed again
    assert ERASE in after, "wiped before the Don's step runs"
    shown_to_the_don = after[after.rindex(ERASE):]
    assert next_step in shown_to_the_don and answer not in shown_to_the_don and "leave 6" not in shown_to_the_don
    assert live.game.leaving == [6]
    # a check result still never reaches the shared screen while phones are on
    assert "IS the Sheriff" not in printed and "is mafia" not in printed.lower()


def test_a_vote_typed_at_a_russian_table_is_answered_and_the_console_speaks_russian():
    """Seen at a Russian table: `tap 1 5` in the vote printed nothing (every other line is
    answered), and `³`, `status` and `help` answered in English."""
    lines = NIGHT_ZERO + ["Выставляю игрока номер 5", "timeout", "выставляю игрока номер 8"] + ["timeout"] * 9 + [
        "tap 1 5", "tap 1 8", "³", "[bold]привет[/bold]", "status", "help", "# заметка"]
    printed, live = console_game(table("ru"), lines)
    assert "голос принят: игрок 1 — за игрока 5" in printed
    assert "✗ Игрок 1 уже проголосовал." in printed  # the second tap is refused, and says so
    assert "'³' — не номер места: наберите номер цифрами 0–9 и нажмите Enter" in printed
    assert "в '[bold]привет[/bold]' нет команды: это разговор за столом" in printed  # literally, no markup
    # the host calls one nominee at a time (seed 004 §4.4): `status` names the one whose hands are called
    assert re.search(r"фаза: Голосование: игрок 5 · день 1 · в игре: 1, 2, .*, 10\nвыставлены: 5, 8 · фолы: нет · таймер: осталось \d+ с",
                     printed), printed[-600:]
    assert "ждём: голосов мест" in printed
    assert "ввод: say <фраза>" in printed and "комментарий (после #): ничего не принято" in printed
    assert "⏱ 60 с" in printed and "speech" not in printed  # the timer in the table's words, not the code's


def test_a_hungarian_and_a_swedish_status_are_in_their_languages():
    hu, _ = console_game(table("hu", variant="hungariq").replace('1 = "sheriff", 3 = "don", 5 = "mafia", 8 = "mafia"',
                                                                   '1 = "inspector", 3 = "mafia", 5 = "mafia", 8 = "protected_mafia"'),
                         ["status"])
    assert "állapot: Éjszaka · 0. nap · játékban: 1, 2" in hu, hu[-500:]
    sv, _ = console_game(table("sv", variant="sverige").replace('1 = "sheriff", 3 = "don", 5 = "mafia", 8 = "mafia"',
                                                                '1 = "sheriff", 2 = "doctor", 3 = "mafia", 5 = "mafia", 8 = "mafia"'), ["status", "½"])
    assert "läge: Natt · dag 0 · kvar i spelet: 1, 2" in sv, sv[-500:]
    assert "'½' är inget platsnummer" in sv


@pytest.mark.e2e
def test_two_deaths_in_one_morning_are_one_bad_morning():
    """Seen at a Russian table: a player who left at night and the mafia's victim were announced
    as «Утро у нас не доброе…» twice, like two mornings. The one who left is not the mafia's:
    leaving the table is a dismissal (seed 004 §5), said after the night's news."""
    session = Session(parse_config(table("ru"), "club.toml"), fixed_night_steps=True)
    effects = session.start()
    lines = ["deal 1=sheriff 3=don 5=mafia 8=mafia", "timeout", "timeout", "timeout"] + DAY_ONE_QUIET + [
        "tap 3 4", "tap 5 4", "tap 8 4", "leave 6", "timeout", "timeout", "timeout"]
    for line in lines:
        effects += session.feed(session.parse(line))
    said = [session.voice.render(e.line, e.args) for e in effects if type(e).__name__ == "Say"]
    morning = said[said.index("Город просыпается. День 2."):][:3]
    assert morning[1:] == ["Утро у нас не доброе. Нас покидает игрок номер 4.",
                           "Игрок 6 ночью покинул игровой стол и выбыл из игры без последнего слова."]


# ------------------------------------------------------------------ a real process, killed

CLUB = table("en", "[timers]\nspeech = 60\nnight_zero_step = 10\nmafia_meeting = 5\n")


def start(args: list[str], tmp_path: Path, env: dict | None = None) -> subprocess.Popen:
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1", **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "narrator.cli", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)


def read_until(proc: subprocess.Popen, text: str, timeout: float = 60) -> str:
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if text in line:
            return "".join(seen)
    raise AssertionError(f"never printed {text!r}: {''.join(seen)[-800:]}")


@pytest.mark.e2e
def test_a_speaker_cut_off_by_a_crash_gets_the_rest_of_his_minute_and_a_night_step_its_full_time(tmp_path):
    """`narrator resume` gave a speaker interrupted at 40 of 60 s a fresh minute. The journal now
    notes what a day timer has left (every 5 s and at a pause); the resumed speech goes on from
    there. A night step still starts again from full: its length must tell nothing."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(CLUB)
    journal = tmp_path / "game.jsonl"
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path)
    read_until(play, "The Don wakes up")
    time.sleep(2)
    play.send_signal(signal.SIGKILL)  # in the middle of night zero's first step
    play.wait(timeout=10)
    assert read(journal).timer_mark is None, "nothing of a night step is noted"

    resume = start(["resume", "--journal", str(journal)], tmp_path)
    out = read_until(resume, "⏱")
    assert out.rstrip().endswith("⏱ 10 s from now (status: the time left)"), out  # the step from full, as every other step
    out = read_until(resume, "Player 1, you have", timeout=90)
    time.sleep(17)  # 17 s of player 1's minute
    resume.send_signal(signal.SIGKILL)
    resume.wait(timeout=10)
    number, left = read(journal).timer_mark
    assert 40 <= left <= 50, left

    again = start(["resume", "--journal", str(journal)], tmp_path)
    out, err = again.communicate("status\nquit\n", timeout=60)
    said = [line[2:] for line in out.splitlines() if line.startswith("» ")]
    assert said[0] == "The game goes on where it stopped."
    turn = next(s for s in said if s.startswith("Player 1, you have"))
    assert re.fullmatch(r"Player 1, you have (4\d|50) seconds\.", turn), turn
    assert re.search(r"⏱ (4\d|50) s", out) and re.search(r"timer: (4\d|50) s left", out), out


@pytest.mark.e2e
def test_a_state_folder_that_cannot_be_written_is_said_once_with_the_command_that_finds_the_game(tmp_path):
    """`narrator play --journal F` notes F in the state folder so that a bare `narrator resume`
    finds it after a crash. When that folder cannot be written (here: a file stands where it
    should be — root writes through permission bits), the operator was told nothing."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    env = {"XDG_STATE_HOME": str(blocked / "state")}
    cfg = tmp_path / "club.toml"
    cfg.write_text(CLUB.replace('language = "en"', 'language = "de"'))
    journal = tmp_path / "game.jsonl"
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path, env)
    out, err = play.communicate("quit\n", timeout=60)
    assert play.returncode == 0 and "Traceback" not in out + err, err
    warning = [line for line in out.splitlines() if "nicht beschreibbar" in line]
    assert len(warning) == 1, out
    assert f"{blocked / 'state' / 'narrator'} ist nicht beschreibbar" in warning[0]
    assert warning[0].endswith(f"weiter geht es dann mit: narrator resume --journal {journal}")

    bare = start(["resume"], tmp_path, env)
    out, err = bare.communicate("", timeout=60)
    assert bare.returncode == 2 and "Traceback" not in err
    assert "cannot be written" in err and "narrator resume --journal F" in err

    named = start(["resume", "--journal", str(journal)], tmp_path, env)
    out, err = named.communicate("quit\n", timeout=60)
    assert named.returncode == 0 and "Traceback" not in err, err


@pytest.mark.e2e
def test_a_hungarian_accusation_typed_as_a_hungarian_says_it_is_taken():
    """Seen at a Hungarian table: «vádolom a 7. játékost» and «3. játékos vádolja a 7.
    játékost» — the plain way to say it — were table talk; only «megvádolom…» was an accusation
    (seed 001: anyone may accuse)."""
    cfg = 'variant = "hungariq"\nlanguage = "hu"\n[dealing]\nroles = { 1 = "inspector", 3 = "mafia", 5 = "mafia", 8 = "protected_mafia" }\n'
    for typed in ("vádolom a 7. játékost", "3. játékos vádolja a 7. játékost"):
        session = Session(parse_config(cfg, "club.toml"), fixed_night_steps=True)
        session.start()
        session.feed(session.parse("deal 1=inspector 3=mafia 5=mafia 8=protected_mafia"))
        while session.game.state == "night":
            session.feed(session.parse("timeout"))
        effects = session.feed(session.parse("say " + typed))
        records = [e.entry for e in effects if type(e).__name__ == "Record"]
        assert any(r["type"] == "accusation" and r["seat"] == 7 for r in records), (typed, records)


def test_pause_and_resume_are_answered_as_done_not_as_refused():
    """Seen at a German table: `pause` was answered «✗ Das Spiel ist pausiert.», the mark of a
    refused input; a line typed during the pause is still answered as held back."""
    printed, live = console_game(table("de"), NIGHT_ZERO + ["pause", "foul 4", "resume"])
    de = load_voice("de")
    paused, resumed = de.render("paused"), de.render("resumed")
    assert f"⏸ {paused}" in printed and f"▶ {resumed}" in printed
    assert f"✗ {paused}" not in printed and f"✗ {resumed}" not in printed
    assert printed.count(f"⏸ {paused}") == 2  # the foul typed in the pause is held back, and said so
    assert not live.paused and live.game.seats[4].fouls == 0
