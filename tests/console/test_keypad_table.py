"""A German grundregeln table without phones plays its nights on the keypad in the middle of the
table: `narrator play` on a pseudo-terminal, the awake mafia type the seat and Enter.

Night steps last their full time whoever is awake or alive (seed 003: the game begins with the
mafia's night; README: nobody may hear who is dead or who hesitated). At a keypad table only an
awake player can type at night, so a typed `timeout` that ended a night step would tell the table
its role is alive. Played here as it happened at the table: the final vote closed by itself with
the last raised hand, the host typed `timeout` for it a moment later, and that `timeout` cut the
mafia's first step of the night to half a second — they never chose. Now it is answered at the
console (never spoken) and the step runs to its end.
"""

from __future__ import annotations

import json
import os
import re
import time

import pytest

from conftest import four_at_night
from test_answers_and_deals_words import on_a_terminal
from test_console_hotseat import ERASE_SCROLLBACK, play_on_a_terminal, reach_the_keypad, read_until

from narrator.companion import KeypadInput
from narrator.language import load_voice
from narrator.live import KEYPAD_ANNOUNCE

NIGHT_STEP = 6
# how long after the console's ⏱ a player types on a table with a speaker: beyond the step's first
# second (KEYPAD_GRACE), which runs from when the line is heard — the card's latency after the ⏱
SPOKEN_REACH = 2.0

CONFIG = f"""variant = "grundregeln"
language = "de"
seats = 6
[dealing]
mode = "fixed"
roles = {{ 1 = "mafia", 2 = "mafia" }}
[timers]
discussion = 600
vote = 60
defence = 60
night_step = {NIGHT_STEP}
[input]
engine = "none"
[journal]
path = "{{journal}}"
"""

MAFIA_WAKE = b"Mafiosi erwachen"


def events(journal):
    return [line for line in map(json.loads, journal.read_text().splitlines()[1:]) if "event" in line]


def type_line(master, text: str) -> None:
    os.write(master, text.encode() + b"\n")


@pytest.mark.e2e
def test_a_timeout_typed_at_night_ends_no_step_and_the_keypad_shot_is_taken(tmp_path):
    de = load_voice("de")
    refused = de.console_text("timeout_at_night", {}).encode()
    journal = tmp_path / "game.jsonl"
    seen = bytearray()
    with play_on_a_terminal(tmp_path, CONFIG.replace("{journal}", str(journal))) as (play, master):
        tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
        # night 0 (seed 003 begins with the mafia's night): a seat beyond the table is answered to
        # the awake mafia, the typed `timeout` changes nothing, the keypad's 6 is their shot
        assert read_until(master, MAFIA_WAKE, seen), tail()
        assert read_until(master, "⏱".encode(), seen), tail()
        time.sleep(1.5)  # the mafia open their eyes and reach the keypad
        type_line(master, "9")
        assert read_until(master, "Es gibt keinen Platz 9".encode(), seen), tail()
        type_line(master, "timeout")
        assert read_until(master, refused, seen), tail()
        type_line(master, "6")
        # both mafiosi read the keypad's answer: it speaks to them both ("Eure Wahl"), not to one
        assert read_until(master, "Eure Wahl: 6".encode(), seen), tail()
        assert read_until(master, b"Tag 1", seen, timeout=NIGHT_STEP + 30), tail()
        assert "Du hast".encode() not in seen, tail()
        assert read_until(master, "Diskutiert".encode(), seen), tail()
        assert b"6" in seen[seen.rindex(b"Tag 1"):], tail()  # the morning names the mafia's victim

        # day 1: discussion, everyone points, the two nominees defend, the final vote
        type_line(master, "timeout")
        assert read_until(master, "Zeigt auf".encode(), seen), tail()
        for voter, target in ((1, 3), (2, 3), (3, 4), (4, 3), (5, 3)):
            type_line(master, f"tap {voter} {target}")
        # the last hand closes the vote by itself: the two with most votes defend
        assert read_until(master, "Spieler 3, verteidige dich".encode(), seen), tail()
        type_line(master, "timeout")
        assert read_until(master, "Spieler 4, verteidige dich".encode(), seen), tail()
        type_line(master, "timeout")
        assert read_until(master, "Jetzt wird endgültig abgestimmt".encode(), seen), tail()
        for voter, target in ((1, 3), (2, 3), (3, 4), (4, 3)):
            type_line(master, f"tap {voter} {target}")
        # seed 003: each point is a «Stimme»; the console shows it as the point it is, and the final
        # vote («Nach dieser wird endgültig abgestimmt»), where nobody points, as a vote
        assert read_until(master, "Stimme gezählt: Spieler 4 für Spieler 3".encode(), seen), tail()
        assert seen.count("zeigt auf Spieler 3".encode()) == 4, tail()
        # the last hand closes the vote by itself and the night falls; the host's `timeout`, meant
        # for the vote, comes right behind it and reaches the game in the night
        type_line(master, "tap 5 3\ntimeout")
        assert read_until(master, refused, seen, times=2), tail()
        assert reach_the_keypad(master, seen, MAFIA_WAKE), tail()
        type_line(master, "4")  # the mafia, still awake: the keypad's shot
        assert read_until(master, b"Tag 2", seen, timeout=NIGHT_STEP + 30), tail()
        assert b"Traceback" not in seen, tail()
        type_line(master, "quit")
        play.wait(timeout=30)

    taken = events(journal)
    kinds = [e["event"]["type"] for e in taken]
    last_hand = max(i for i, e in enumerate(taken) if e["event"] == {"type": "tap", "seat": 5, "target": 3})
    dawn = kinds.index("timeout", last_hand)
    # the night's step ended on the game's clock, not on the typed `timeout`: its full length
    assert taken[dawn]["t"] - taken[last_hand]["t"] >= NIGHT_STEP - 0.05, taken[last_hand:dawn + 1]
    # the keypad's 4 reached the game as the shot of both living mafiosi, within the step
    assert {"type": "tap", "seat": 1, "target": 4} in [e["event"] for e in taken[last_hand:dawn]]
    assert {"type": "tap", "seat": 2, "target": 4} in [e["event"] for e in taken[last_hand:dawn]]
    # night 0 too: its only timeout is the clock's, a full step after the deal
    first_dawn = kinds.index("timeout")
    assert taken[first_dawn]["t"] - taken[0]["t"] >= NIGHT_STEP - 0.05


def test_a_long_number_on_the_keypad_is_no_seat_and_never_its_last_digits():
    """A key held down or typed twice ("1005") was cut to its last three digits, 005: a shot at
    seat 5 that nobody typed. The whole number is kept, and Enter leaves it to the console, which
    answers it ("there is no seat '10005'…") — the game never sees it."""
    taken = []

    class Live:
        loop = object()
        game = type("G", (), {"state": "night", "phase": lambda self: "night"})()

        def open_night_step(self):
            return 7

        def submit_keypad(self, target, typed_in, strict):
            taken.append(target)

    keypad = KeypadInput(Live())
    for key in ("KP_1", "KP_0", "KP_0", "KP_0", "KP_5"):
        assert keypad.key(key)
    assert keypad.key("KP_Enter") is False and taken == []
    for key in ("KP_5", "KP_Enter"):
        keypad.key(key)
    assert taken == [5]  # the buffer starts afresh after Enter


@pytest.mark.realtime
@pytest.mark.e2e
def test_on_the_speaker_the_night_step_lasts_its_time_whatever_the_keypad_typed(tmp_path):
    """The same German table with speech on, through ALSA's file plugin (tests/voice/alsa_support.py):
    while the mafia are awake the keypad takes a seat beyond the table, a `timeout` and their
    shot. None of it is heard, and the silence between «Die Mafiosi erwachen…» and «Die Mafiosi
    schließen die Augen.» is the step's configured time (no rain here, so the step is silence;
    measured by hand, typed or not the night step was heard as 6.02 and 6.04 s)."""
    import numpy as np
    from alsa_support import sound_card

    speaker, mic = sound_card(tmp_path)
    config = CONFIG.replace("{journal}", str(tmp_path / "game.jsonl")).replace("seats = 6", "seats = 5")
    config += '[voice]\nrate = 300\nambience = 0.0\n'
    (tmp_path / "tisch.toml").write_text(config)
    seen = bytearray()
    try:
        with on_a_terminal(["play", "--config", str(tmp_path / "tisch.toml"), "--voice", "speech"], tmp_path) as (play, master):
            tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
            assert read_until(master, "⏱".encode(), seen, timeout=120), tail()
            # the step opens once its line is heard (⏱ is printed as the speaker says when its last
            # sample will be heard: a sound card's latency later); the mafia reach the keypad
            time.sleep(SPOKEN_REACH)
            for line in ("9", "timeout", "3"):
                type_line(master, line)
            assert read_until(master, b"Tag 1", seen, timeout=NIGHT_STEP + 60), tail()
            at_dawn = seen.count("⏱".encode())  # the night's step was shown twice: wiped once more after its first second
            assert read_until(master, "⏱".encode(), seen, times=at_dawn + 1), tail()
            time.sleep(3)  # the morning's lines reach the speaker
            type_line(master, "quit")
            play.wait(timeout=30)
    finally:
        speaker.close()
        mic.close()
    samples = speaker.samples().astype(np.int32)
    frame = speaker.rate // 50
    loud = np.array([np.abs(samples[i:i + frame]).max() > 300 for i in range(0, len(samples) - frame, frame)])
    starts = np.flatnonzero(np.diff(loud.astype(int)) == -1) + 1  # speech → silence
    ends = np.flatnonzero(np.diff(loud.astype(int)) == 1) + 1  # silence → speech
    gaps = [(e - s) * 0.02 for s in starts for e in ends[ends > s][:1]]
    night = max(gaps)
    # the step's time plus the lines' own silent edges (espeak-ng pads a line by a few frames)
    assert NIGHT_STEP - 0.05 <= night <= NIGHT_STEP + 0.25, f"the night step was heard as {night:.2f} s, not {NIGHT_STEP}"
    assert b"Spieler 3" in seen[seen.rindex(b"Tag 1"):], tail()  # the shot was taken


# ---------------------------------------------------------------------------------------------
# A classic table (seed 004) without phones: the Don, two mafiosi and the Sheriff on the keypad.

CLASSIC = four_at_night(5, '[input]\nengine = "none"\n[journal]\npath = "{journal}"\n')

EN_MAFIA = b"The mafia wakes up and shoots."
EN_DON = b"The Don wakes up and looks for the Sheriff."
EN_SHERIFF = b"The Sheriff wakes up and looks for the mafia."
EN_DAY_2 = b"Day 2."
NOTED = load_voice("en").console_text("referee_noted_at_night", {}).encode()


def wake_and_type(master, seen, text: str, line: bytes) -> None:
    """An awake player opens his eyes, reaches the keypad and types: a second or more after the
    step `line` opened has begun to run (the keypad takes no seat in a step's first second, see
    KEYPAD_GRACE)."""
    assert reach_the_keypad(master, seen, line), bytes(seen[-1500:]).decode(errors="replace")
    type_line(master, text)


@pytest.mark.e2e
def test_a_late_enter_is_nobody_s_choice_and_pause_waits_for_the_day(tmp_path):
    """seed 004 §4: the Don checks one seat a night, the mafia shoot together. At the keypad the
    mafia's seat is everybody's choice at once, and its answer is shown once for them all. A
    mafioso's Enter that comes as the Don is woken is not the Don's check — the Don still has it,
    and nothing on the screen or in the step's length says a key came late. `pause` typed at night
    is answered on the screen only and the step runs its time; typed in the day, it pauses."""
    journal = tmp_path / "game.jsonl"
    seen = bytearray()
    en = load_voice("en")
    no_pause = en.console_text("pause_at_night", {}).split(":")[0].encode()  # the screen wraps the rest
    with play_on_a_terminal(tmp_path, CLASSIC.replace("{journal}", str(journal))) as (play, master):
        tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
        # night zero's three meetings run out by themselves; day 1: ten speeches ended by the host
        assert read_until(master, b"Day 1.", seen, timeout=60), tail()
        assert read_until(master, "⏱".encode(), seen, times=4), tail()
        type_line(master, "pause")  # in the day a pause is a pause, and says so
        assert read_until(master, en.render("paused", {}).encode(), seen), tail()
        type_line(master, "pause")  # twice: said so, nothing changes
        assert read_until(master, en.console_text("already_paused", {}).encode(), seen), tail()
        type_line(master, "resume")
        assert read_until(master, en.render("resumed", {}).encode(), seen), tail()
        type_line(master, "resume")
        assert read_until(master, en.console_text("not_paused", {}).encode(), seen), tail()
        for _ in range(10):
            type_line(master, "timeout")
            time.sleep(0.15)
        assert read_until(master, EN_MAFIA, seen), tail()
        assert read_until(master, "⏱".encode(), seen, times=seen.count("⏱".encode(), 0, seen.rindex(EN_MAFIA)) + 1), tail()
        wake_and_type(master, seen, "11", EN_MAFIA)  # a seat beyond the table: told to the awake mafia, once
        assert read_until(master, b"There is no seat 11", seen), tail()
        type_line(master, "5")
        assert read_until(master, b"only for seats 1, 2 and 3:", seen, times=2), tail()
        type_line(master, "pause")
        assert read_until(master, no_pause, seen), tail()
        # the mafia change their mind just as the step ends: the Enter reaches the game while the
        # Don is being woken
        assert read_until(master, EN_DON, seen, timeout=30), tail()
        type_line(master, "4")
        type_line(master, "tap 2 4")  # typed as a command, it names its seat but not its step
        assert read_until(master, b"too late: that step is over", seen, times=2), tail()
        late = bytes(seen[seen.rindex(EN_DON):])
        wake_and_type(master, seen, "4", EN_DON)  # the Don, awake: his check is his own
        assert read_until(master, b"Player 4 IS the Sheriff", seen), tail()
        os.write(master, b"7")  # the Don starts a seat and never presses Enter
        assert read_until(master, EN_SHERIFF, seen, timeout=30), tail()
        wake_and_type(master, seen, "1", EN_SHERIFF)  # the Sheriff's 1, not "71": the half-typed 7 is gone
        assert read_until(master, b"Player 1 is MAFIA.", seen), tail()
        assert read_until(master, EN_DAY_2, seen, timeout=30), tail()
        assert b"Traceback" not in seen, tail()
        type_line(master, "quit")
        play.wait(timeout=30)

    mafia_step = bytes(seen[seen.rindex(EN_MAFIA):seen.rindex(EN_DON)]).decode(errors="replace")
    assert mafia_step.count("There is no seat 11") == 1, mafia_step
    assert mafia_step.count("Your choice: 5") == 1, mafia_step
    assert "paused" not in mafia_step.lower().replace("not paused", ""), mafia_step
    # the late keys were answered on the screen as too late while the Don's line was being said,
    # and nothing else: no answer to anybody, no echo of what was typed (the terminal echoes
    # nothing at night)
    late = late.decode(errors="replace")
    assert late.count("too late: that step is over") == 2 and "only for" not in late and "tap 2 4" not in late, late
    taken = events(journal)
    kinds = [e["event"]["type"] for e in taken]
    night = max(i for i, e in enumerate(taken) if e["event"] == {"type": "tap", "seat": 1, "target": 5})
    steps = [i for i in range(night, len(taken)) if kinds[i] == "timeout"][:3]  # mafia, Don, Sheriff
    don_taps = [e["event"] for e in taken[steps[0] + 1:steps[1]]]
    # the Don's step took one tap: his own check of seat 4 — the mafia's late 4 is nowhere
    assert don_taps == [{"type": "tap", "seat": 1, "target": 4}], don_taps
    mafia_taps = [e["event"] for e in taken[night - 2:steps[0]] if e["event"]["type"] == "tap"]
    assert {"type": "tap", "seat": 2, "target": 4} not in mafia_taps
    # on the Don's screen the late keys are gone once his first second is over (wiped again)
    don_screen = bytes(seen[seen.rindex(ERASE_SCROLLBACK, 0, seen.rindex(b"Player 4 IS the Sheriff")):]).decode(errors="replace")
    assert "tap 2 4" not in don_screen and "too late" not in don_screen, don_screen
    # every step ran its own time, the paused-at-night mafia step too (night_step = 5), once its
    # line had been given the time a speaker takes to say it (no speaker here: KEYPAD_ANNOUNCE)
    starts = [taken[night - 2]["t"]] + [taken[i]["t"] for i in steps]
    for a, b in zip(starts[1:], starts[2:]):
        assert 5 + KEYPAD_ANNOUNCE - 0.05 <= b - a <= 5 + KEYPAD_ANNOUNCE + 0.5, (a, b)


@pytest.mark.e2e
def test_a_resumed_mafia_step_shows_its_answer_once(tmp_path):
    """The game stopped while the mafia were awake: the resume tells the running step's private
    answer again (README: After a crash), once for the three seats the keypad's 5 was for, as it
    was shown the first time — not once per mafioso."""
    journal = tmp_path / "game.jsonl"
    config = CLASSIC.replace("{journal}", str(journal))
    seen = bytearray()
    with play_on_a_terminal(tmp_path, config) as (play, master):
        tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
        assert read_until(master, b"Day 1.", seen, timeout=60), tail()
        for _ in range(10):
            type_line(master, "timeout")
            time.sleep(0.15)
        assert read_until(master, EN_MAFIA, seen), tail()
        wake_and_type(master, seen, "5", EN_MAFIA)
        assert read_until(master, b"Your choice: 5", seen), tail()
        type_line(master, "quit")
        play.wait(timeout=30)
    seen = bytearray()
    from test_answers_and_deals_words import on_a_terminal

    with on_a_terminal(["resume", "--journal", str(journal), "--voice", "text"], tmp_path) as (play, master):
        assert read_until(master, b"Your choice: 5", seen), bytes(seen[-1500:]).decode(errors="replace")
        time.sleep(0.5)
        type_line(master, "quit")
        play.wait(timeout=30)
    text = bytes(seen).decode(errors="replace")
    assert text.count("Your choice: 5") == 1 and "You chose" not in text and "only for seats 1, 2 and 3:" in text, text


@pytest.mark.realtime
@pytest.mark.e2e
def test_on_the_speaker_a_key_typed_while_the_don_is_woken_is_not_his_check(tmp_path):
    """The classic table with speech on, through ALSA's file plugin: the mafia's seat goes in, a
    `pause` typed at night is refused on the screen, and a mafioso's Enter while the speaker is
    still saying «The mafia falls asleep. The Don wakes up…» is nobody's choice. The Don, once his
    line has been heard (the console's ⏱ is printed then), checks seat 4 himself. Every night step
    is heard as its configured time: the silence between the lines is the step, whatever was typed."""
    import numpy as np
    from alsa_support import sound_card

    from test_answers_and_deals_words import on_a_terminal

    speaker, mic = sound_card(tmp_path)
    journal = tmp_path / "game.jsonl"
    config = CLASSIC.replace("{journal}", str(journal)) + '[voice]\nrate = 300\nambience = 0.0\n'
    (tmp_path / "club.toml").write_text(config)
    seen = bytearray()
    timer = "⏱".encode()
    try:
        with on_a_terminal(["play", "--config", str(tmp_path / "club.toml"), "--voice", "speech"], tmp_path) as (play, master):
            tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
            assert read_until(master, b"Day 1.", seen, timeout=120), tail()
            assert read_until(master, timer, seen, times=4, timeout=30), tail()  # 3 steps of night zero, player 1
            for n in range(10):
                type_line(master, "timeout")
                assert read_until(master, timer, seen, times=5 + n, timeout=30), tail()  # heard, then the next
            assert EN_MAFIA in seen, tail()
            time.sleep(SPOKEN_REACH)
            type_line(master, "5")
            assert read_until(master, b"Your choice: 5", seen), tail()
            type_line(master, "pause")
            assert read_until(master, b"night steps are not paused", seen), tail()
            assert read_until(master, EN_DON, seen, timeout=30), tail()
            heard = seen.count(timer)
            type_line(master, "4")  # printed at once, still being said: a mafioso's late Enter
            # answered on the screen as at a table without a speaker, never aloud, and gone with
            # the screen cleared as the Don's step opens
            assert read_until(master, b"too late: that step is over", seen), tail()
            assert read_until(master, timer, seen, times=heard + 1, timeout=30), tail()
            time.sleep(SPOKEN_REACH)
            type_line(master, "4")
            assert read_until(master, b"Player 4 IS the Sheriff", seen), tail()
            assert read_until(master, b"Day 2.", seen, timeout=60), tail()
            assert read_until(master, timer, seen, times=seen.count(timer) + 1, timeout=30), tail()
            time.sleep(1)
            type_line(master, "quit")
            play.wait(timeout=30)
    finally:
        speaker.close()
        mic.close()
    taken = events(journal)
    kinds = [e["event"]["type"] for e in taken]
    shot = max(i for i, e in enumerate(taken) if e["event"] == {"type": "tap", "seat": 1, "target": 5})
    steps = [i for i in range(shot, len(taken)) if kinds[i] == "timeout"][:3]
    assert [e["event"] for e in taken[steps[0] + 1:steps[1]]] == [{"type": "tap", "seat": 1, "target": 4}]
    samples = speaker.samples().astype(np.int32)
    frame = speaker.rate // 50
    loud = np.array([np.abs(samples[i:i + frame]).max() > 300 for i in range(0, len(samples) - frame, frame)])
    starts = np.flatnonzero(np.diff(loud.astype(int)) == -1) + 1
    ends = np.flatnonzero(np.diff(loud.astype(int)) == 1) + 1
    gaps = sorted((e - s) * 0.02 for s in starts for e in ends[ends > s][:1])
    # night 1's three steps (mafia, Don, Sheriff) are the three longest silences: 5 s each. Never
    # shorter; longer only by the loop's lateness on a loaded machine (5.3 s at load 10 in CI),
    # where a step that waited for what was typed would be whole seconds longer
    night = gaps[-3:]
    assert all(5 - 0.05 <= g <= 5 + 0.6 for g in night), f"night steps heard as {night}"


@pytest.mark.e2e
def test_the_keypads_answer_to_the_mafia_names_a_removed_or_departed_mafioso_until_the_morning(tmp_path):
    """seed 004 §5: a dismissal at night is immediate for him — he acts no more, and a dismissed
    mafioso's shot is no longer the mafia's (§4.5 «all "mafia" players present at the table») —
    but for the others he is at the table until the morning says otherwise (README: Fouls and
    dismissals at night). The keypad's one answer to the awake mafia was addressed "only for
    seats 1 and 2" once the referee had removed seat 3: his partners read the removal off the
    label before the morning. It reads as every night, "seats 1, 2 and 3", and so it does for one
    who left the table (§5 «Leave of the gaming table»), and for the last of them still acting;
    only the living mafiosi still at the table shoot, and the morning says both."""
    journal = tmp_path / "game.jsonl"
    config = CLASSIC.replace("{journal}", str(journal)).replace("night_step = 5", "night_step = 9")
    seen = bytearray()
    with play_on_a_terminal(tmp_path, config) as (play, master):
        tail = lambda: bytes(seen[-1500:]).decode(errors="replace")  # noqa: E731
        assert read_until(master, b"Day 1.", seen, timeout=60), tail()
        assert read_until(master, "⏱".encode(), seen, times=4), tail()
        for _ in range(10):
            type_line(master, "timeout")
            time.sleep(0.15)
        assert read_until(master, EN_MAFIA, seen), tail()
        assert read_until(master, "⏱".encode(), seen, times=seen.count("⏱".encode(), 0, seen.rindex(EN_MAFIA)) + 1), tail()
        type_line(master, "disqualify 3")  # the referee, in the mafia's own step: silent until the morning
        assert read_until(master, NOTED, seen), tail()
        wake_and_type(master, seen, "5", EN_MAFIA)
        assert read_until(master, b"Your choice: 5", seen), tail()
        type_line(master, "leave 2")  # a mafioso feels unwell and leaves the table
        assert read_until(master, NOTED, seen, times=2), tail()
        type_line(master, "6")  # the Don alone acts now: still "Your choice", to the three of them
        assert read_until(master, b"Your choice: 6", seen), tail()
        type_line(master, "disqualify 3")  # typed twice: refused, and that too would tell
        assert read_until(master, NOTED, seen, times=3), tail()
        assert read_until(master, EN_DON, seen, timeout=30), tail()
        assert read_until(master, EN_DAY_2, seen, timeout=60), tail()
        assert read_until(master, b"your last words", seen), tail()
        assert read_until(master, b"typed in the night and not taken", seen), tail()
        assert b"Traceback" not in seen, tail()
        type_line(master, "quit")
        play.wait(timeout=30)

    mafia_step = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", bytes(seen[seen.rindex(EN_MAFIA):seen.rindex(EN_DON)]).decode(errors="replace"))
    for seat in (5, 6):
        assert f"🔒 only for seats 1, 2 and 3: Your choice: {seat}" in mafia_step, mafia_step
    assert "only for seats 1 and 2" not in mafia_step and "only for seat 1:" not in mafia_step, mafia_step
    assert "You chose" not in mafia_step, mafia_step
    # nothing the awake mafia read names what the referee did: not his answer, not a refusal that
    # says seat 3 is out, not the leaver's own line, not what he typed (nothing is echoed at night)
    for told in ("only for the host", "only for seat 2", "disqualif", "out of the game", "left the table", "leave 2", "✗"):
        assert told not in mafia_step, (told, mafia_step)
    assert seen.count(NOTED) == 3, tail()  # the same note for each of his lines, the refused one too
    morning = bytes(seen[seen.rindex(EN_DAY_2):]).decode(errors="replace")
    # the Don's 6 was the mafia's shot: the dismissed 3 and the departed 2 shoot no more
    assert "Player 6 leaves us" in morning and "player 3 was disqualified" in morning, morning
    assert "Player 2 left the table" in morning, morning
    # the referee reads at dawn what the game did not take of his night
    assert "typed in the night and not taken: Player 3 is out of the game" in morning, morning
    taps = [e["event"] for e in events(journal) if e["event"]["type"] == "tap"]
    assert taps[-3:] == [{"type": "tap", "seat": 1, "target": 5}, {"type": "tap", "seat": 2, "target": 5},
                         {"type": "tap", "seat": 1, "target": 6}], taps


def test_a_keypad_terminal_that_will_not_take_terminal_settings_still_plays():
    # a stream that says it is a terminal but is a pipe (a wrapper, a serial console): turning the
    # night's echo off fails there with termios.error, and the game goes on, never a traceback
    import os

    from narrator.console import _ForgetHalfTyped

    read, write = os.pipe()
    with os.fdopen(read) as stream, os.fdopen(write, "w"):
        terminal = _ForgetHalfTyped(None, stream)
        terminal.echo(False)
        terminal.echo(True)
        terminal._restore()
