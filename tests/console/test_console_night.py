"""The night on the shared laptop, as a table without phones plays it: `narrator play` on a
pseudo-terminal, the awake role types its seat on the keypad, and the next role wakes to the same
screen.

The mafia's "you chose 5" and the Don's "Player 4 IS the Sheriff" are printed for the players
awake at that step. The Sheriff, who wakes two steps later to the same screen, must find neither
of them — nor the seats typed — on it or in its scrollback (seed 004 §3: nobody learns a role but
by the night's own checks)."""

from __future__ import annotations

import os
import time

import pytest

from conftest import four_at_night
from test_console_hotseat import ERASE_SCROLLBACK, play_on_a_terminal, reach_the_keypad, read_until

CONFIG = four_at_night(8, '[input]\nengine = "none"\n')

MAFIA_WAKES = b"The mafia wakes up and shoots."
DON_WAKES = b"The Don wakes up and looks for the Sheriff."
SHERIFF_WAKES = b"The Sheriff wakes up and looks for the mafia."
TIMER = "⏱".encode()


def read_more(fd: int, seen: bytearray, marker: bytes, count: int) -> bool:
    """Read until `marker` has been printed more than `count` times."""
    return read_until(fd, marker, seen, timeout=30, times=count + 1)


@pytest.mark.e2e
def test_whoever_wakes_next_sees_nothing_of_the_step_before(tmp_path):
    seen = bytearray()
    with play_on_a_terminal(tmp_path, CONFIG) as (play, master):
        # night zero's meetings run out by themselves (a typed `timeout` ends no night step: see
        # test_keypad_table.py); day 1's ten speeches are each ended by the host, and no vote
        assert read_more(master, seen, TIMER, 0), bytes(seen[-800:]).decode(errors="replace")  # the Don's step
        for _ in range(40):
            if MAFIA_WAKES in seen:
                break
            timers = seen.count(TIMER)
            os.write(master, b"timeout\n")
            assert read_more(master, seen, TIMER, timers), bytes(seen[-800:]).decode(errors="replace")
        assert read_until(master, MAFIA_WAKES, seen), bytes(seen[-800:]).decode(errors="replace")
        assert reach_the_keypad(master, seen, MAFIA_WAKES)  # the mafia open their eyes (see KEYPAD_GRACE)
        os.write(master, b"5\n")  # the keypad: the mafia shoot seat 5
        assert read_until(master, b"only for seats 1, 2 and 3:", seen), bytes(seen[-800:]).decode(errors="replace")
        os.write(master, b"timeout\n")
        assert read_until(master, DON_WAKES, seen)
        assert reach_the_keypad(master, seen, DON_WAKES)
        os.write(master, b"4\n")  # the Don checks seat 4
        assert read_until(master, b"Player 4 IS the Sheriff", seen), bytes(seen[-800:]).decode(errors="replace")
        os.write(master, b"timeout\n")
        assert read_until(master, SHERIFF_WAKES, seen)
        assert read_more(master, seen, TIMER, seen.count(TIMER, 0, seen.rindex(SHERIFF_WAKES)))

        # the keypad's seat is the choice of all three awake mafiosi: their answer is shown once
        mafia_step = bytes(seen[seen.rindex(MAFIA_WAKES):seen.rindex(DON_WAKES)])
        assert mafia_step.count(b"Your choice: 5") == 1 and b"You chose" not in mafia_step, mafia_step.decode(errors="replace")
        at_sheriff = seen.rindex(SHERIFF_WAKES)
        wiped = seen.rindex(ERASE_SCROLLBACK, 0, at_sheriff)
        screen = bytes(seen[wiped:]).decode(errors="replace")
        assert wiped > seen.rindex(b"Player 4 IS the Sheriff"), "the screen was not cleared before the Sheriff woke"
        # cleared before his line is first printed, not only once it has been heard: he opens his
        # eyes at "wakes up", and the Don's answer must be gone by then
        answer = seen.rindex(b"Player 4 IS the Sheriff")
        assert seen.index(ERASE_SCROLLBACK, answer) < seen.index(SHERIFF_WAKES, answer), "the Don's answer under the Sheriff's line"
        mafia_answer = seen.rindex(b"only for seats 1, 2 and 3:")
        assert seen.index(ERASE_SCROLLBACK, mafia_answer) < seen.index(DON_WAKES, mafia_answer), "the mafia's answer under the Don's line"
        for secret in ("only for seat", "Your choice", "You chose", "IS the Sheriff", "\n5", "\n4"):
            assert secret not in screen, f"{secret!r} still on the Sheriff's screen:\n{screen}"
        # what the table heard is still there to read: the step that ended and the one that begins
        assert "The Don falls asleep." in screen and "The Sheriff wakes up and looks for the mafia." in screen
        # every step is cleared alike, whoever is awake: the Don's step began on a cleared screen too
        at_don = seen.rindex(DON_WAKES)
        assert seen.rindex(ERASE_SCROLLBACK, 0, at_don) > seen.rindex(b"only for seats 1, 2 and 3:")
        assert b"Traceback" not in seen
        os.write(master, b"quit\n")
        play.wait(timeout=30)


def test_with_phones_the_night_steps_leave_the_join_codes_on_the_screen():
    """With phones no private line and no typed seat is on this screen, and a phone that joins
    late still needs its QR code: only the dawn clears it."""
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from narrator.console import ConsoleOutput
    from narrator.flow.effects import Record, Say, Timer

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    screen = ConsoleOutput(SimpleNamespace(game=None), console, clear_at_dawn=True, show_private=False)
    screen.handle(Record({"type": "phase", "phase": "night", "night": 0}), None)
    for line in ("The Don wakes up and shows himself.", "The mafia wakes up and meets."):
        screen.handle(Say("x", {}), line)
        screen.handle(Timer("night_zero_step", 120, 0), None)
        screen.timer_started(None)  # the line heard, the step's time runs
    assert ERASE_SCROLLBACK.decode() not in out.getvalue()
    screen.handle(Record({"type": "phase", "phase": "day", "day": 1}), None)
    assert ERASE_SCROLLBACK.decode() in out.getvalue()
