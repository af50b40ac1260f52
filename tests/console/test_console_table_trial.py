"""What issue 39's newcomer met at a console table, each played as the table meets it: a seat typed
on the keypad before the night's step began (the note said so, then vanished with the step's
screen a second later: the shot lost unnoticed), the ⏱ line that never counted down, and the last
call's "votes for player 8: nobody" read before "Player 8: 7 votes."."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace

import pytest
from rich.console import Console

from console_support import console_game
from narrator.console import ConsoleOutput, console_line
from narrator.flow.effects import Record, Reject, Say, Tell, Timer
from narrator.language import load_voice

LANGS = ("en", "ru", "de", "sv", "hu")
CLEAR = "\x1b[2J"


def _table(lang: str):
    voice = load_voice(lang)
    session = SimpleNamespace(voice=voice, render=lambda line, args: voice.render(line, args))
    live = SimpleNamespace(session=session, config=SimpleNamespace(players={}), loop=None, keypad_table=True)
    file = io.StringIO()
    out = ConsoleOutput(live, Console(file=file, force_terminal=True, width=300, color_system=None), clear_at_dawn=True)
    return voice, out, file


def _screen(file: io.StringIO) -> str:
    """What the table reads now: everything since the screen was last cleared."""
    return file.getvalue().rpartition(CLEAR)[2]


def _step(out, voice, line: str) -> None:
    out.handle(Say(line, {"n": 10}), voice.render(line, {"n": 10}))
    out.handle(Timer("night_step", 10), None)
    out.timer_started(None)  # its line heard: the screen is cleared for its role


@pytest.mark.parametrize("lang", LANGS)
def test_a_seat_typed_too_early_is_said_not_taken_and_stays_up_through_its_step(lang):
    voice, out, file = _table(lang)
    early = voice.console_text("keypad_too_early", {})
    out.handle(Record({"type": "phase", "phase": "night"}), None)
    out.handle(Say("welcome", {"n": 10}), voice.render("welcome", {"n": 10}))
    out.handle(Reject("keypad_too_early"), early)  # typed while the step was being announced
    out.handle(Timer("night_step", 10), None)
    out.timer_started(None)
    assert early in _screen(file), "the step's wiped screen still says the seat was not taken"
    _step(out, voice, "welcome")
    assert early not in _screen(file), "the next step's players read nothing of the step before"


def test_the_note_gives_way_to_the_next_keys_answer():
    voice, out, file = _table("en")
    early = voice.console_text("keypad_too_early", {})
    assert "not taken" in early
    out.handle(Record({"type": "phase", "phase": "night"}), None)
    out.handle(Reject("keypad_too_early"), early)
    out.handle(Timer("night_step", 10), None)
    out.timer_started(None)
    out.handle(Tell(3, "you_chose", {"seat": 5}), "You chose 5.")  # the seat typed again, taken
    out._wiped_to([])  # the step's second wipe (a late key's echo): the answer's screen, no note
    assert early not in _screen(file)


@pytest.mark.parametrize("lang", LANGS)
def test_the_timer_line_says_the_time_from_now_once(lang):
    voice, out, file = _table(lang)
    out.handle(Timer("speech", 60), None)
    out.timer_started(None)
    line = next(ln for ln in file.getvalue().splitlines() if "⏱" in ln)
    assert line.strip() == "⏱ " + voice.console_text("timer_from_now", {"n": 60})
    assert "status" in line  # where the time left is told: the line itself does not count


@pytest.mark.parametrize("lang", LANGS)
def test_the_last_calls_note_names_the_votes_not_cast_that_go_to_him(lang):
    asyncio.run(_last_call(lang))


async def _last_call(lang: str) -> None:
    async with console_game("classic", lang, 7) as (live, console, out):
        voice = live.session.voice  # with classic's own words: a fist on the table, not a hand
        live.scorer_at_console = True  # the table's terminal: the count waits for the scorer's line
        g = live.game
        while not (g.state == "speeches" and g.day == 1):
            live.fire()
            await asyncio.sleep(0)
        for seat in (7, 8):
            console_line(live, f"nominate {seat}", console)
            await asyncio.sleep(0.05)
            live.fire()
            await asyncio.sleep(0)
        while g.state != "voting":
            live.fire()
            await asyncio.sleep(0)
        live.fire()  # player 7's call: its time is over, the count waits for the line
        await asyncio.sleep(0.05)
        console_line(live, "1 2 4", console)
        await asyncio.sleep(0.05)
        live.fire()  # player 8's, the last
        await asyncio.sleep(0.05)
        console_line(live, "", console)  # Enter alone: nobody typed for him
        await asyncio.sleep(0.05)
        text = out.getvalue()
        rest = ", ".join(str(s) for s in range(1, 11) if s not in (1, 2, 4))
        note = voice.console_text("hands_for_last", {"seat": 8, "voters": voice.console_text("hands_nobody", {}),
                                                     "n": 7, "silent": rest})
        assert note in text, text[-1500:]
        count = voice.render("vote_count", {"seat": 8, "n": 7})
        assert text.index(note) < text.index(count), "the note, then the count that agrees with it"
