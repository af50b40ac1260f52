"""Hands at a table without phones, typed by the scorer at the console (`narrator play` on a
pseudo-terminal, no companion): only he sees the hands, and a Swedish name's window is 5 s (seed
000 «räcka upp sin hand. NU!»), hungariq's a count of three (seed 001), classic's one 20 s window
for every candidate where a club votes together, two seconds each where the host calls them in
turn (seed 004 §4.4).

- One line of seat numbers is the call's hands: `3 5 8` for the name being called (or yes),
  `7: 3 5 8` where several are voted on, Enter alone for nobody (or "that is all").
- A seat that cannot vote is refused by name; the other hands of the line still count.
- The count waits for the scorer's line once the window is over, and each hand is journaled as the
  tap it stands for, before the time's end: resume and report read the game as it was played."""

from __future__ import annotations

import json
import os
import re
import socket
import time

import pytest
from test_console_hotseat import narrator_on_a_terminal, play_on_a_terminal, read_until

from narrator.inputs import InputError, hands_line

JOURNAL_ETC = '[input]\nengine = "none"\n[journal]\npath = "{journal}"\n'


def plain(data) -> str:
    return re.sub(r"\x1b\[[0-9;]*[a-zA-Z]", "", bytes(data).decode(errors="replace")).replace("\r\n", "\n")


def typed(master: int, text: str) -> None:
    os.write(master, text.encode() + b"\n")


def until(master: int, seen: bytearray, text: str, times: int = 1, timeout: float = 60) -> None:
    """Wait for `text` as the eye reads it (the console's colours and line breaks left out)."""
    deadline = time.monotonic() + timeout
    while " ".join(plain(seen).split()).count(text) < times and time.monotonic() < deadline:
        read_until(master, b"\0never", seen, timeout=0.3)
    assert " ".join(plain(seen).split()).count(text) >= times, plain(seen[-2500:])


def journal_events(journal) -> list[dict]:
    return [e["event"] for e in map(json.loads, journal.read_text().splitlines()[1:]) if "event" in e]


def test_a_line_of_hands_is_read_whole_or_left_as_any_other_line():
    assert hands_line("3 5 8") == (None, [3, 5, 8])
    assert hands_line("3,5,8") == (None, [3, 5, 8])
    assert hands_line("7: 3 5 8") == (7, [3, 5, 8])
    assert hands_line("7:") == (7, [])
    for other in ("tap 3 7", "", "3 five", "I nominate 3"):
        assert hands_line(other) is None
    with pytest.raises(InputError):
        hands_line("123456 3")  # digits, but no seat


SVERIGE = '''variant = "sverige"
language = "sv"
seats = 6
[players]
3 = "Vika"
[dealing]
mode = "fixed"
roles = { 1 = "mafia", 2 = "sheriff" }
[roles]
mafia = 1
doctor = 0
sheriff = 1
[timers]
extension_offer = 3
last_call = 3
hand_vote = 5
night_step = 4
night_zero_step = 3
'''


def swedish_day_to_the_first_call(master: int, seen: bytearray, first: str = "nominate 4 by 3",
                                  second: str = "nominate 5 by 6", before_speeches: tuple[str, ...] = ()) -> None:
    """The 6-seat Swedish day of these tests: 4 nominated by 3 and 5 by 6, the day run out, the
    nominees' speeches ended — until the first name is called to the hands."""
    until(master, seen, "Dagen börjar")
    typed(master, first)
    typed(master, second)
    until(master, seen, "Spelare 5 är nominerad av spelare 6")
    for line, answer in before_speeches:
        typed(master, line)
        until(master, seen, answer)
    for done in ("Vill någon använda tidstillägget?", "Sista chansen", "Spelare 4, ditt tal", "Spelare 5, ditt tal"):
        typed(master, "timeout")
        until(master, seen, done)
    typed(master, "timeout")
    until(master, seen, "De som vill rösta på spelare 4 ska räcka upp sin hand. NU!")


@pytest.mark.e2e
def test_a_swedish_scorer_types_each_names_hands_in_one_line_and_the_count_waits_for_it(tmp_path):
    journal = tmp_path / "kvall.jsonl"
    seen = bytearray()
    with play_on_a_terminal(tmp_path, SVERIGE + JOURNAL_ETC.format(journal=journal), columns=80) as (play, master):
        swedish_day_to_the_first_call(master, seen, before_speeches=(
            ("help", "handuppräckning: platserna som räckte upp handen och Enter — 3 5 8"),))
        # the window is over and nothing was typed: the table waits for the scorer, not the reverse
        until(master, seen, "tiden är ute för spelare 4 — skriv platserna som räckte upp handen och tryck Enter (bara Enter: ingen)")
        assert "Spelare 4: " not in plain(seen)
        typed(master, "status")
        until(master, seen, "rösterna räknas när protokollförarens rad är inne")
        typed(master, "3 5 6 9")
        until(master, seen, "Det finns ingen plats 9")
        until(master, seen, "händer för spelare 4: 3 (Vika), 5, 6")
        until(master, seen, "Spelare 4: 3 röster.")
        until(master, seen, "De som vill rösta på spelare 5 ska räcka upp sin hand. NU!")
        # one vote a day (seed 000): player 3's hand went up for 4 — named, and 1 and 2 still count
        typed(master, "3 1 2")
        until(master, seen, "händer för spelare 5: 1, 2")
        until(master, seen, "Spelare 5: 2 röster.")
        until(master, seen, "Spelare 4 hängs.")
        typed(master, "quit")
        play.wait(timeout=30)
    events = journal_events(journal)
    day = events[events.index({"type": "tap", "seat": 3, "target": 4}):]
    assert day[:6] == [{"type": "tap", "seat": 3, "target": 4}, {"type": "tap", "seat": 5, "target": 4},
                       {"type": "tap", "seat": 6, "target": 4}, {"type": "tap", "seat": 9, "target": 4},
                       {"type": "timeout"}, {"type": "tap", "seat": 3, "target": 5}]
    assert day[6:9] == [{"type": "tap", "seat": 1, "target": 5}, {"type": "tap", "seat": 2, "target": 5}, {"type": "timeout"}]


HUNGARIQ = '''variant = "hungariq"
language = "hu"
seats = 7
[players]
4 = "Ádám"
[dealing]
mode = "fixed"
roles = { 1 = "mafia", 2 = "protected_mafia", 3 = "inspector" }
[roles]
mafia = 1
protected_mafia = 1
inspector = 1
[timers]
night_step = 5
night_zero_step = 3
'''


@pytest.mark.e2e
def test_hungarian_hands_on_a_count_of_three_are_the_seats_that_say_yes(tmp_path):
    journal = tmp_path / "este.jsonl"
    seen = bytearray()
    with play_on_a_terminal(tmp_path, HUNGARIQ + JOURNAL_ETC.format(journal=journal), columns=80) as (play, master):
        until(master, seen, "Akinek gyanúja támad, emeljen vádat!")
        typed(master, "accuse 1 by 5")
        until(master, seen, "háromra tegye fel a kezét")
        until(master, seen, "lejárt az idő — írd be, mely helyek tették fel a kezüket")
        # a yes-or-no vote names no candidate: the line says so and takes nothing
        typed(master, "1: 3 4")
        until(master, seen, "'1: 3 4' nem került rögzítésre: ez igen-nem szavazás")
        typed(master, "3 4 5 5 6")
        until(master, seen, "5. játékos már szavazott.")
        until(master, seen, "feltett kezek (igen): 3, 4 (Ádám), 5, 6")
        until(master, seen, "4 kéz a vád mellett.")
        typed(master, "timeout")
        until(master, seen, "tiéd az utolsó szó")
        typed(master, "timeout")
        until(master, seen, "Szavazás a kivégzésről")
        typed(master, "2 3 4 5 6 7")  # within the window: counted as it ends
        until(master, seen, "feltett kezek (igen): 2, 3, 4 (Ádám), 5, 6, 7")
        until(master, seen, "6 kéz a kivégzés mellett.")
        until(master, seen, "1. játékos halott.")
        typed(master, "quit")
        play.wait(timeout=30)
    taps = [e for e in journal_events(journal) if e["type"] == "tap"]
    assert [(e["seat"], e.get("answer")) for e in taps] == [(3, True), (4, True), (5, True), (5, True), (6, True),
                                                             (2, True), (3, True), (4, True), (5, True), (6, True), (7, True)]


CLASSIC = '''variant = "classic"
language = "ru"
seats = 10
[players]
3 = "Вика"
[dealing]
mode = "fixed"
roles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }
[timers]
night_zero_step = 3
mafia_meeting = 5
night_step = 5
'''


@pytest.mark.e2e
def test_a_russian_scorer_names_each_candidates_hands_and_ends_with_enter_alone(tmp_path):
    # a club that votes on every candidate at once (rules.vote_call = "together"); the calls one at
    # a time, seed 004 §4.4's default, are tests/flow/test_classic_vote_call.py's
    journal = tmp_path / "vecher.jsonl"
    seen = bytearray()
    together = CLASSIC + '[rules]\nvote_call = "together"\n'
    with play_on_a_terminal(tmp_path, together + JOURNAL_ETC.format(journal=journal), columns=80) as (play, master):
        until(master, seen, "Игрок 1, у вас одна минута.")
        for speaker in range(1, 11):
            if speaker <= 3:
                typed(master, f"nominate {speaker + 4}")
                until(master, seen, "принято.", times=speaker)
            typed(master, "timeout")
            until(master, seen, f"Спасибо, игрок {speaker}{' (Вика)' if speaker == 3 else ''}.")
        until(master, seen, "Голосуйте.")
        typed(master, "1 2 3")  # three candidates: whose votes?
        until(master, seen, "'1 2 3': укажите, за кого эти голоса — голосуем за нескольких (5, 6, 7): 5: 1 2 3")
        typed(master, "5: 1 2 3")
        until(master, seen, "голоса за игрока 5: 1, 2, 3 (Вика)")
        typed(master, "6: 4 8 3")
        until(master, seen, "Игрок 3 уже проголосовал.")
        until(master, seen, "голоса за игрока 6: 4, 8")
        typed(master, "9: 10")
        until(master, seen, "за игрока 9 сейчас не голосуют (кандидатуры: 5, 6, 7): ничего не принято")
        typed(master, "7: 9")
        until(master, seen, "голоса за игрока 7: 9")
        until(master, seen, "время — наберите голоса за каждую кандидатуру, 7: 3 5 8, и в конце пустой Enter")
        assert "Игрок 5: 3" not in plain(seen)
        typed(master, "")
        # seed 004 §4.4: whoever did not vote gives his vote to the last candidate
        until(master, seen, "Игрок 5: 3 голоса.")
        until(master, seen, "Игрок 7: 5 голосов.")
        until(master, seen, "Игрок 7 покидает игру.")
        typed(master, "quit")
        play.wait(timeout=30)
    taps = [(e["seat"], e["target"]) for e in journal_events(journal) if e["type"] == "tap"]
    assert taps == [(1, 5), (2, 5), (3, 5), (4, 6), (8, 6), (3, 6), (9, 7)]


def resumed_on_a_terminal(tmp_path, journal):
    """`narrator resume` of the same table after a `kill -9`, on a new pseudo-terminal."""
    return narrator_on_a_terminal(tmp_path, ["resume", "--journal", str(journal)], columns=80)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.e2e
def test_phones_at_the_table_but_votes_by_hand_the_count_waits_through_a_pause_and_a_crash(tmp_path):
    """Phones for the night, hands by day (`[companion] votes = false`): the phones have no vote
    buttons, so the scorer's line is the hands, and the count waits for it as at a keypad table —
    a `3 5` typed two seconds after «NU!» is counted, not lost. A pause while it waits takes no
    line (the scorer is told, and told again what is awaited at resume); `narrator resume` after a
    `kill -9` there calls the name again and waits for the same line."""
    journal = tmp_path / "kvall.jsonl"
    phones = f'[companion]\nenabled = true\nhost = "127.0.0.1"\nport = {free_port()}\nvotes = false\n'
    seen = bytearray()
    with play_on_a_terminal(tmp_path, SVERIGE + phones + JOURNAL_ETC.format(journal=journal), columns=80) as (play, master):
        until(master, seen, "Välkomna till Maffia")
        typed(master, "start")  # nobody tapped Ready: the host starts night zero
        swedish_day_to_the_first_call(master, seen)
        awaited = "— skriv platserna som räckte upp handen och tryck Enter"  # «tiden är ute för spelare 4 — …»
        until(master, seen, awaited)
        typed(master, "pause")
        until(master, seen, "Spelet är pausat.")
        typed(master, "3 5")
        until(master, seen, "spelet är pausat: '3 5' togs inte emot — skriv det igen efter resume")
        typed(master, "resume")
        until(master, seen, "Spelet fortsätter.")
        until(master, seen, awaited, times=2)  # what the count waits for, said again
        assert "Spelare 4: " not in plain(seen), "nothing is counted before the scorer's line"
        typed(master, "3 5")
        until(master, seen, "händer för spelare 4: 3 (Vika), 5")
        until(master, seen, "Spelare 4: 2 röster.")
        until(master, seen, "De som vill rösta på spelare 5 ska räcka upp sin hand. NU!")
        until(master, seen, awaited, times=3)  # 5's window ran out: its count waits too
        play.kill()  # kill -9 while 5's count waits for the scorer
        play.wait()
    seen = bytearray()
    with resumed_on_a_terminal(tmp_path, journal) as (play, master):
        until(master, seen, "Spelet fortsätter där det avbröts.")
        until(master, seen, "De som vill rösta på spelare 5 ska räcka upp sin hand. NU!")
        until(master, seen, awaited)
        assert "Spelare 5: " not in plain(seen)
        typed(master, "1 2 6")
        until(master, seen, "händer för spelare 5: 1, 2, 6")
        until(master, seen, "Spelare 5: 3 röster.")
        until(master, seen, "Spelare 5 hängs.")
        typed(master, "quit")
        play.wait(timeout=30)
    events = journal_events(journal)
    day = events[events.index({"type": "tap", "seat": 3, "target": 4}):]
    # each hand once, the line typed in the pause nowhere, and each count after its hands
    assert day[:7] == [{"type": "tap", "seat": 3, "target": 4}, {"type": "tap", "seat": 5, "target": 4}, {"type": "timeout"},
                       {"type": "tap", "seat": 1, "target": 5}, {"type": "tap", "seat": 2, "target": 5},
                       {"type": "tap", "seat": 6, "target": 5}, {"type": "timeout"}]
    # the call after the pause had its whole window: 5 s from its start before its time was over
    lines = [json.loads(x) for x in journal.read_text().splitlines()[1:]]
    counted = next(i for i, e in enumerate(lines) if e.get("event") == {"type": "tap", "seat": 5, "target": 4}) + 1
    assert lines[counted]["event"] == {"type": "timeout"}
    start = next(e for e in lines[counted:] if "timer" in e)
    assert start["left"] == 5.0
    marks = [e for e in lines[counted:] if e.get("timer") == start["timer"]]
    # the notes of a window's time running out race the console's lines the test acts on (a kill,
    # a quit): they may be missing, so each window is timed from its start to the count it allowed
    if marks[1]["left"] == 0.0:
        assert marks[1]["t"] - start["t"] >= 4.9, marks
    # and resumed after the crash, 5's call had its whole window again, not what its marks said:
    # called again from 5 s, and counted no sooner than 5 s later
    again = [m for m in marks[1:] if m["left"] == 5.0]
    assert again, marks
    hands = next(i for i, e in enumerate(lines) if e.get("event") == {"type": "tap", "seat": 6, "target": 5})
    count = next(e for e in lines[hands:] if e.get("event") == {"type": "timeout"})
    assert count["t"] - again[-1]["t"] >= 4.9, (again, count)
