"""The console as a table without phones reads it, on an 80-column terminal: `narrator play` on a
pseudo-terminal, the names from the config's [players], the keypad at night.

- A player's name stands where his number is ("Thank you, player 3 (Bo). Time is up."), as on the
  phones, not after the whole sentence; a name is shown as typed, markup and all.
- The line that says where the journal is and how to get help survives every wipe of the screen:
  the host needs it after a crash, which comes at any moment of the game.
- Whatever a referee's or a player's fingers do at the keypad at night — a digit of another
  script, a stray space or sign, a held key, control keys, markup, Ctrl-D — is answered, changes
  nothing, and is answered the same whichever role is awake (seed 004 §3: nobody learns a role but
  by the night's own checks)."""

from __future__ import annotations

import json
import os
import re
import signal

import pytest

from conftest import four_at_night
from test_console_hotseat import ERASE_SCROLLBACK, play_on_a_terminal, reach_the_keypad, read_until

from narrator.language import load_voice

EN = load_voice("en")
NIGHT_STEP = 12
LONG = "Maximilian von Hohenzollern-Sigmaringen"
NAMES = f'[players]\n3 = "[red]Bo[/red]"\n4 = "{LONG}"\n5 = "Bob[/]"\n6 = "{{seat}}"\n'
MAFIA_WAKES = b"The mafia wakes up and shoots."
DON_WAKES = b"The Don wakes up and looks for the Sheriff."
SHERIFF_WAKES = b"The Sheriff wakes up and looks for the mafia."
TIMER = "⏱".encode()


def config(journal) -> str:
    return four_at_night(NIGHT_STEP, f'[input]\nengine = "none"\n[journal]\npath = "{journal}"\n' + NAMES)


def plain(data) -> str:
    """The terminal's bytes as the eye reads them: without the colours."""
    return re.sub(r"\x1b\[[0-9;]*m", "", bytes(data).decode(errors="replace")).replace("\r\n", "\n")


def type_line(master: int, text: str) -> None:
    os.write(master, text.encode() + b"\n")


def to_the_first_night(master: int, seen: bytearray, votes: dict[int, int] | None = None) -> None:
    """Night zero runs out by itself; each of day 1's ten speeches is ended by the host. With
    `votes` (voter: nominee), the first speakers nominate the nominees and the table votes."""
    tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
    assert read_until(master, b"Player 1, you have", seen, timeout=60), tail()
    nominees = sorted(set((votes or {}).values()))
    for seat in range(1, 11):
        if seat <= len(nominees):
            type_line(master, f"I nominate player {nominees[seat - 1]}")
            assert read_until(master, b"accepted.", seen, times=seat), tail()
        type_line(master, "timeout")
        # "Thank you, player N." and no earlier mention: the typed "I nominate player 5" is echoed too
        thanked = f"Thank you, player {seat}".encode()
        assert read_until(master, thanked, seen, times=seen.count(thanked) + 1), tail()
    if votes:
        # the host calls each nominee in turn (seed 004 §4.4): his fists, then Enter ends the call
        for i, nominee in enumerate(nominees):
            assert read_until(master, f"Who votes for player {nominee}".encode(), seen), tail()
            for voter in (v for v, n in votes.items() if n == nominee):
                type_line(master, f"tap {voter} {nominee}")
            if i < len(nominees) - 1 or len(votes) < 10:   # the last fist of all closes the vote itself
                type_line(master, "")
        assert read_until(master, b"your last words.", seen, timeout=60), tail()
        type_line(master, "timeout")
    assert read_until(master, MAFIA_WAKES, seen), tail()


def screen_after_last_wipe(seen: bytearray, before: bytes) -> str:
    at = seen.rindex(before)
    return plain(seen[seen.rindex(ERASE_SCROLLBACK, 0, at):])


@pytest.mark.e2e
def test_names_stand_by_their_numbers_and_the_journal_line_outlives_every_wipe(tmp_path):
    journal = tmp_path / "tonight.jsonl"
    help_line = EN.console_text("journal", {"path": "~/tonight.jsonl"})  # HOME is tmp_path: the path from ~
    seen = bytearray()
    with play_on_a_terminal(tmp_path, config(journal), columns=80) as (play, master):
        tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
        assert read_until(master, help_line.encode(), seen), tail()
        to_the_first_night(master, seen, votes={**{v: 6 for v in range(1, 8)}, 8: 5, 9: 5, 10: 5})
        text = plain(seen)
        # the console's own notes name the seats too: the host sees whose hand he counted
        assert f"· vote taken: player 4 ({LONG}) for player 6 ({{seat}})" in re.sub(r"\s*\n", " ", text), text[-3000:]
        assert "· vote taken: player 8 for player 5 (Bob[/])" in text, text[-3000:]
        assert "» Player 6 ({seat}) leaves the game." in text, text[-3000:]
        # where the number is, as the phones have it — and the name shown as typed
        assert "» Thank you, player 3 ([red]Bo[/red]). Time is up." in text, text[-2000:]
        assert "» Player 5 (Bob[/]), you have 5 minutes." in text, text[-2000:]
        assert "» Player 6 ({seat}), you have 5 minutes." in text, text[-2000:]
        assert ". (" not in text, text[-2000:]  # never again after the whole sentence
        assert LONG in text  # at 80 columns a long name is broken between words, if at all

        # the night's first step: the screen was wiped, and the journal line is on it again
        assert reach_the_keypad(master, seen, MAFIA_WAKES), tail()
        assert help_line in screen_after_last_wipe(seen, MAFIA_WAKES), tail()
        type_line(master, "4")  # the mafia shoot the long name: the answer names him
        assert read_until(master, b"Your choice: 4", seen), tail()
        assert read_until(master, SHERIFF_WAKES, seen, timeout=6 * NIGHT_STEP), tail()
        shown = plain(seen)
        # a line longer than the terminal breaks at a space: the name is never cut inside a word
        assert LONG.split()[-1] in shown[shown.rindex("Your choice: 4"):], tail()
        assert help_line in screen_after_last_wipe(seen, SHERIFF_WAKES), tail()
        # and at dawn: the morning's wipe keeps it too
        last_words_before = seen.count(b"words.")  # day 1's, counted before the morning is read
        assert read_until(master, b"Day 2", seen, timeout=6 * NIGHT_STEP), tail()
        # the morning's own last words (day 1's are on record already; at 80 columns the line may
        # break anywhere between its words)
        assert read_until(master, b"words.", seen, times=last_words_before + 1), tail()
        morning = screen_after_last_wipe(seen, b"Day 2")
        # seed 004's morning: "The morning is not good. Player 4 (…) leaves us.", broken at a space
        assert help_line in morning and f"Player 4 ({LONG}) leaves us." in re.sub(r"\s*\n", " ", morning), morning
        assert b"Traceback" not in seen
        type_line(master, "quit")
        play.wait(timeout=30)


# what a finger can type at the keypad at night, and what the console answers it: one answer
# each, naming what was typed; never taken as a seat, never journaled
ODD = [
    ("3 3", EN.console_text("not_a_seat", {"text": "'3 3'"})),
    ("+3", EN.console_text("not_a_seat", {"text": "'+3'"})),
    ("3.0", EN.console_text("not_a_seat", {"text": "'3.0'"})),
    ("[red]3[/red]", EN.console_text("not_a_seat", {"text": "'[red]3[/red]'"})),
    # nobody talks at night: a line without a digit is told what the keypad takes
    ("[/]", EN.console_text("keypad_night_seat", {"text": "'[/]'"})),
    ("7" * 500, "(500 characters)"),
    ("\x01", EN.console_text("keypad_night_seat", {"text": "'\\x01'"})),
    ("\x1b[A", EN.console_text("keypad_night_seat", {"text": "'\\x1b[A'"})),
]


def answers_to_the_odd_keys(master: int, seen: bytearray) -> list[str]:
    """Every odd line typed at once, then a bare Tab, an empty Enter and Ctrl-D: what the step's
    screen shows in answer, in order."""
    start = len(seen)
    for typed, _ in ODD:
        type_line(master, typed)
    type_line(master, "\t")
    type_line(master, "")
    os.write(master, b"\x04")  # Ctrl-D on an empty line: the end of input, at a terminal
    assert read_until(master, EN.console_text("eof_ignored", {}).encode(), seen, times=seen.count(b"Ctrl-D") + 1), bytes(seen[-1500:])
    type_line(master, "status")  # the keyboard still answers after it
    assert read_until(master, b"waiting for:", seen, times=seen.count(b"waiting for:") + 1), bytes(seen[-1500:])
    return [line for line in plain(seen[start:]).split("\n") if line.startswith("· ")]


@pytest.mark.e2e
def test_odd_keys_at_night_are_answered_alike_in_every_step_and_change_nothing(tmp_path):
    journal = tmp_path / "tonight.jsonl"
    seen = bytearray()
    with play_on_a_terminal(tmp_path, config(journal)) as (play, master):
        tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
        to_the_first_night(master, seen)
        assert reach_the_keypad(master, seen, MAFIA_WAKES), tail()
        taken_before = journal.read_text().count('"event"')
        at_the_mafia = answers_to_the_odd_keys(master, seen)
        assert journal.read_text().count('"event"') == taken_before, "an odd key was taken as an input"
        # a digit of another script (an Arabic or a full-width keyboard) is the seat it reads as,
        # answered with the seat in 0-9 digits, so the table sees what was taken
        type_line(master, "٣")
        assert read_until(master, b"Your choice: 3 ([red]Bo[/red])", seen), tail()
        assert read_until(master, DON_WAKES, seen, timeout=2 * NIGHT_STEP), tail()
        assert reach_the_keypad(master, seen, DON_WAKES), tail()
        at_the_don = answers_to_the_odd_keys(master, seen)
        type_line(master, "０４")  # full-width: the Don checks seat 4
        assert read_until(master, b"Player 4", seen, times=seen.count(b"Player 4") + 1), tail()
        assert read_until(master, SHERIFF_WAKES, seen, timeout=2 * NIGHT_STEP), tail()
        assert reach_the_keypad(master, seen, SHERIFF_WAKES), tail()
        at_the_sheriff = answers_to_the_odd_keys(master, seen)

        # one answer for each odd line, naming it as typed (markup and control keys shown, not
        # obeyed); the Tab and the empty Enter are passed over in silence, as at any moment
        for typed, answer in ODD:
            assert sum(answer in line for line in at_the_mafia) == 1, (typed, answer, at_the_mafia)
        # whoever is awake, the same answers: nothing on the screen tells which role is there
        assert at_the_mafia == at_the_don == at_the_sheriff, (at_the_mafia, at_the_don, at_the_sheriff)
        assert play.poll() is None and b"Traceback" not in seen, tail()

        # Ctrl-C stops the game as at any terminal, with the way back on the screen; nothing is lost
        taken = journal.read_text()
        play.send_signal(signal.SIGINT)  # Ctrl-C, as the terminal sends it to the game it runs
        assert read_until(master, EN.printed("cli", "interrupted").encode(), seen), tail()
        play.wait(timeout=30)
        assert journal.read_text() == taken
    kinds = [json.loads(line)["event"]["type"] for line in journal.read_text().splitlines()[1:] if '"event"' in line]
    assert "tap" in kinds and "say" not in kinds, kinds


@pytest.mark.e2e
def test_the_hot_seat_reveal_names_the_seat_it_calls_and_the_mafias_partners(tmp_path):
    """The laptop calls «Место 3: посмотрите на экран»: with names from the config the right player
    reaches for it ("Место 3 (Костя)"), and a mafioso reads his partners by name, as the table
    knows them (seed 004 §2: the mafia get to know each other on the first night)."""
    names = {1: "Аня", 2: "Борис", 3: "Костя", 4: "Дима", 5: "Ева", 6: "Фёдор", 7: "[b]Вика[/b]", 8: "Гоша", 9: "Ира", 10: "Юра"}
    cfg = ('variant = "classic"\nlanguage = "ru"\n[dealing]\nmode = "seeded"\nseed = 7\n[timers]\nnight_zero_step = 120\n'
           'mafia_meeting = 300\n[input]\nengine = "none"\n[players]\n' + "".join(f'{s} = "{n}"\n' for s, n in names.items()))
    seen = bytearray()
    with play_on_a_terminal(tmp_path, cfg, columns=80) as (play, master):
        for seat in range(1, 11):
            assert read_until(master, f"Место {seat} ({names[seat]}): посмотрите".encode(), seen), plain(seen[-800:])
            os.write(master, b"\n")
            assert read_until(master, "Нажмите Enter, чтобы скрыть".encode(), seen, times=seat), plain(seen[-800:])
            os.write(master, b"\n")
        assert read_until(master, "Просыпается Дон".encode(), seen), plain(seen[-800:])
        partners = re.findall(r"Ваши напарники по мафии: ([^\n]*?)\.\s*\n", plain(seen))
        assert len(partners) == 3, partners  # the Don and two mafiosi, each told the other two
        for told in partners:
            for seat in map(int, re.findall(r"(\d+) \(", told)):
                assert f"{seat} ({names[seat]})" in told, told
            assert len(re.findall(r"\d+ \(", told)) == 2, told
        type_line(master, "quit")
        play.wait(timeout=30)


def test_a_message_on_an_80_column_terminal_breaks_between_words_and_a_long_path_stays_whole(monkeypatch):
    """"no microphone found …; connect one, or name it in [input] microphone" was cut by the
    terminal in the middle of "[input" / "] microphone"; a path longer than the line is still
    left whole for the terminal to wrap, so that it can be copied."""
    import io

    from narrator.commands import terminal
    from narrator.console import WholeWords

    out = io.StringIO()
    monkeypatch.setattr(terminal, "err", WholeWords(file=out, force_terminal=True, width=80, soft_wrap=True, highlight=False, color_system=None))
    message = EN.printed("cli", "no_microphone")
    terminal.say_error(message, "", "yellow")
    lines = out.getvalue().splitlines()
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines), lines
    assert " ".join(line.strip() for line in lines) == message
    out.truncate(0), out.seek(0)
    path = "/home/anna/club/" + "very-long-folder-name/" * 4 + "tonight.jsonl"
    terminal.say_error(f"{path}: the disk is full", "error")
    # on a line of its own, with no newline in it: the terminal wraps it, and it copies whole
    assert out.getvalue().splitlines() == ["error", f"{path}:", "the disk is full"], out.getvalue()


@pytest.mark.e2e
def test_after_a_resume_the_journal_line_is_back_after_every_wipe(tmp_path):
    """A game resumed at night: "resumed 12 events from F" is news once; after the next wipe the
    host still reads where the journal is and how to get help."""
    import pty
    import subprocess
    import sys

    from test_console_hotseat import ROOT

    journal = tmp_path / "tonight.jsonl"
    help_line = EN.console_text("journal", {"path": "~/tonight.jsonl"})  # HOME is tmp_path: the path from ~
    seen = bytearray()
    with play_on_a_terminal(tmp_path, config(journal)) as (play, master):
        to_the_first_night(master, seen)
        play.kill()  # the machine dies in the mafia's step
        play.wait()
    master, slave = pty.openpty()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1", "TERM": "xterm", "COLUMNS": "120"}
    resumed = subprocess.Popen([sys.executable, "-m", "narrator.cli", "resume", "--journal", str(journal), "--voice", "text"],
                               stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True)
    os.close(slave)
    seen = bytearray()
    try:
        assert read_until(master, b"resumed", seen), plain(seen)
        assert read_until(master, DON_WAKES, seen, timeout=3 * NIGHT_STEP), plain(seen)
        assert read_until(master, TIMER, seen, times=seen.count(TIMER, 0, seen.rindex(DON_WAKES)) + 1), plain(seen)
        assert help_line in screen_after_last_wipe(seen, DON_WAKES), plain(seen[-1500:])
        type_line(master, "quit")
        resumed.wait(timeout=30)
    finally:
        if resumed.poll() is None:
            resumed.kill()
            resumed.wait()
        os.close(master)
