"""The hot-seat reveal on a real terminal, as a table meets it: `narrator play` on a pseudo-terminal,
each player presses Enter to see his role and Enter to hide it, then the console takes the game.

The shared laptop must keep no role anywhere a player can scroll to, and the console must still
answer after the reveal has read from the keyboard (it once died there: stdin cannot be
reconfigured after the first read)."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ERASE_SCROLLBACK = b"\x1b[3J"

CONFIG = """variant = "classic"
language = "{lang}"
[timers]
night_zero_step = 120
mafia_meeting = 300
[input]
engine = "none"
"""


def read_until(fd: int, wanted: bytes, seen: bytearray, timeout: float = 60, times: int = 1) -> bool:
    """Read the terminal into `seen` until `wanted` has been printed `times` times in all."""
    deadline = time.monotonic() + timeout
    while seen.count(wanted) < times and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen.count(wanted) >= times


def reach_the_keypad(fd: int, seen: bytearray, line: bytes, timeout: float = 60) -> bool:
    """The awake role reaches the keypad: the step `line` opened runs (its "⏱" is printed after it —
    with a speaker once the line is heard, without one KEYPAD_ANNOUNCE after it was printed), and
    its first second (KEYPAD_GRACE, a late key's) is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        at = seen.rfind(line)
        if at >= 0 and "⏱".encode() in seen[at:]:
            time.sleep(1.5)
            return True
        read_until(fd, b"\0never", seen, timeout=0.2)
    return False


@contextlib.contextmanager
def narrator_on_a_terminal(tmp_path: Path, args: list[str], columns: int = 120):
    """`narrator ARGS --voice text` on a pseudo-terminal, as a table's laptop runs it: the process
    and the terminal's end to type into and read from; whatever happens, both are gone after."""
    master, slave = pty.openpty()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1", "TERM": "xterm", "COLUMNS": str(columns)}
    play = subprocess.Popen([sys.executable, "-m", "narrator.cli", *args, "--voice", "text"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True)
    os.close(slave)
    try:
        yield play, master
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()
        os.close(master)


def play_on_a_terminal(tmp_path: Path, config: str, columns: int = 120):
    """`narrator play` of `config` on a pseudo-terminal (see narrator_on_a_terminal)."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(config)
    return narrator_on_a_terminal(tmp_path, ["play", "--config", str(cfg)], columns)


# the prompts the players read are in the table's language (seat, then the line that hides the
# role), and so is the console's status
PROMPTS = {"en": ("Seat {seat}: take the screen alone", "Press Enter to hide it", "The Don wakes up", "waiting for:"),
           "ru": ("Место {seat}: посмотрите на экран", "Нажмите Enter, чтобы скрыть", "Просыпается Дон", "ждём:")}


@pytest.mark.e2e
@pytest.mark.parametrize("lang", sorted(PROMPTS))
def test_the_hot_seat_reveal_wipes_the_scrollback_and_the_console_answers_after_it(tmp_path, lang):
    look, hide, night, waiting = PROMPTS[lang]
    seen = bytearray()
    with play_on_a_terminal(tmp_path, CONFIG.replace("{lang}", lang)) as (play, master):
        for seat in range(1, 11):
            assert read_until(master, look.format(seat=seat).encode(), seen), bytes(seen[-800:]).decode(errors="replace")
            os.write(master, b"\n")
            assert read_until(master, hide.encode(), seen)
            shown_at = len(seen)
            os.write(master, b"\n")
            following = (look.format(seat=seat + 1) if seat < 10 else night).encode()
            assert read_until(master, following, seen), seen[-800:]
            # the role just shown is wiped from the screen and from the scrollback before anything follows
            after = bytes(seen[shown_at:])
            assert ERASE_SCROLLBACK in after and after.index(ERASE_SCROLLBACK) < after.index(following)
        os.write(master, b"status\n")
        assert read_until(master, waiting.encode(), seen), seen[-800:]
        assert play.poll() is None, "the game must still be running"
        assert b"Traceback" not in seen
        os.write(master, b"quit\n")
        play.wait(timeout=30)
