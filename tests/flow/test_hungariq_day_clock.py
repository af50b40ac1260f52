"""HungarIQ's day clock (seed 001): the day lasts its time (20 minutes by default; the seed says
only «elég hosszú volt a nappal»), and the trials do not eat it. The clock stops when an accusation
is made and goes on with what was left when the accusation falls or the accused is spared — after
a crash in the middle of a trial too — and the table hears how much of its day is left."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest

from conftest import Table
from test_console_table import read_until, start

from narrator.config import parse_config
from narrator.flow.effects import Say, Timer
from narrator.journal import read
from narrator.language import load_voice
from narrator.live import LiveSession

DEAL = "1=inspector 2=mafia 3=protected_mafia"


def timers(batch) -> list[Timer]:
    return [e for e in batch if isinstance(e, Timer)]


def test_the_core_holds_the_day_clock_for_a_trial_and_resumes_it_after():
    """The core has no clock: it says which timer is the day's clock (hold) and when it goes on
    with what it had (resume); a new day's clock starts from full."""
    t = Table(deal=DEAL, variant="hungariq", seats=8)
    day = [e for e in timers(t.effects) if e.name == "day"]
    assert day == [Timer("day", 1200, hold=True)]
    t.do("say player 1 accuses player 4")
    for s in range(1, 9):
        t.do(f"tap {s} no")                                    # the accusation falls
    assert timers(t.effects)[-1] == Timer("day", 1200, hold=True, resume=True)
    t.do("say player 2 accuses player 5")
    for s in range(1, 9):
        t.do(f"tap {s} {'yes' if s <= 6 else 'no'}")          # it stands: the trial
    t.do("timeout", "timeout")                                  # the discussion, the last word
    for s in range(1, 9):
        t.do(f"tap {s} no")                                    # spared (seed 001: «tovább él»)
    assert timers(t.effects)[-1] == Timer("day", 1200, hold=True, resume=True)
    t.do("timeout")                                             # the day's time is over
    assert t.game.state == "night"
    after = timers(t.effects)[[e.name for e in timers(t.effects)].index("night_step") - 1]
    assert after == Timer(None)                                 # the night forgets the held day


def _cfg(day: int = 600) -> object:
    return parse_config(f'variant = "hungariq"\nlanguage = "en"\nseats = 8\n[dealing]\nroles = {{ 1 = "inspector", '
                        f'2 = "mafia", 3 = "protected_mafia" }}\n[timers]\nday = {day}\n[input]\nengine = "none"\n',
                        "club.toml")


def _events(cfg, lines: list[str]):
    probe = LiveSession(cfg, None)
    events = [probe.session.dealing_event()]
    probe.start_effects()
    probe.session.feed(events[0])
    for line in lines:
        ev = probe.session.parse(line)
        events.append(ev)
        probe.session.feed(ev)
    return events, probe.game.state


NIGHT_ZERO = ["timeout", "timeout"]
TRIAL = ["say player 2 accuses player 5", *(f"tap {s} yes" for s in range(1, 7)), "tap 7 no", "tap 8 no"]


def test_a_resume_in_a_trial_holds_the_day_with_what_its_mark_says_it_had():
    """The journal keeps each timer's last mark: the day's clock (timer 3, after night zero's two
    steps) was held at 412 s when the accusation came, the trial's timer noted its own since."""
    cfg = _cfg()
    events, state = _events(cfg, NIGHT_ZERO + TRIAL)
    assert state == "debate"
    live = LiveSession(cfg, None)
    first = live.start_effects(replayed=events, timer_marks={3: 412.0, 4: 5.0, 5: 150.0})
    assert live.held_remaining() == 412.0
    assert [e for e in first if isinstance(e, Timer)] == [Timer("debate", 150.0)]


def test_a_resume_on_the_day_clock_after_a_failed_accusation_gives_what_was_left_not_a_fresh_day():
    """Crashed after a failed accusation, before the restarted clock noted anything: it had what
    the held clock had (300 s), and the table hears so."""
    cfg = _cfg()
    failed = ["say player 1 accuses player 4", *(f"tap {s} no" for s in range(1, 9))]
    events, state = _events(cfg, NIGHT_ZERO + failed)
    assert state == "accusations"
    live = LiveSession(cfg, None)
    first = live.start_effects(replayed=events, timer_marks={3: 300.0, 4: 5.0})
    clock = [e for e in first if isinstance(e, Timer)]
    assert clock == [Timer("day", 300.0, hold=True)]
    timer, said = live._clocked(clock[0])
    assert said == [Say("day_time_left", {"time": 300})]
    assert live.voice.render(said[0].line, said[0].args) == "The day has 5 minutes left."


def test_the_time_left_is_said_in_every_language():
    for lang, text in {"en": "The day has 11 minutes left.", "de": "Der Tag hat noch 11 Minuten.",
                       "sv": "Dagen har 11 minuter kvar.", "hu": "A napból még 11 perc van hátra.",
                       "ru": "До конца дня — 11 минут."}.items():
        assert load_voice(lang).render("day_time_left", {"time": 660}) == text


CLUB = """variant = "hungariq"
language = "en"
seats = 8
[dealing]
roles = { 1 = "inspector", 2 = "mafia", 3 = "protected_mafia" }
[timers]          # a one-minute day; a trial long enough that only typed lines end it
day = 60
support_vote = 30
debate = 300
last_word = 300
execution_vote = 30
night_zero_step = 120
[input]
engine = "none"
"""


def _said_left(out: str) -> list[int]:
    return [int(n) for n in re.findall(r"» The day has (\d+) seconds left\.", out)]


@pytest.mark.e2e
def test_a_table_plays_two_failed_accusations_and_a_crash_in_the_trial_and_keeps_its_day(tmp_path: Path):
    """A real `narrator play`: the day's minute runs, an accusation falls, a second stands and is
    tried; the machine dies in the discussion (kill -9). `narrator resume` goes on with the
    discussion, `status` shows the held day, the accused is spared, and the day goes on with what
    it had when the accusation was made — the trial ate none of it, and nothing started from full."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(CLUB)
    journal = tmp_path / "game.jsonl"
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path)
    read_until(play, "Everybody closes their eyes")
    play.stdin.write("timeout\ntimeout\n")
    play.stdin.flush()
    read_until(play, "⏱ 60 s")
    time.sleep(6)
    play.stdin.write("say player 1 accuses player 4\n" + "".join(f"tap {s} no\n" for s in range(1, 9)))
    play.stdin.flush()
    out = read_until(play, "The day has")
    first = _said_left(out)
    assert len(first) == 1 and 50 <= first[0] <= 55, out      # about six seconds of the minute gone
    assert re.search(rf"⏱ {first[0]} s", read_until(play, "⏱")), "the console shows the time really left"
    time.sleep(5)
    play.stdin.write("".join(line + "\n" for line in TRIAL))
    play.stdin.flush()
    read_until(play, "Discuss player 5")
    time.sleep(6)                                               # the discussion runs; the day does not
    marks = read(journal).timer_marks
    play.send_signal(signal.SIGKILL)
    play.wait(timeout=10)
    held = marks[max(n for n in marks if n <= 5)]               # the day's clock, held by the accusation
    assert 40 <= held <= first[0] - 4, marks

    resume = start(["resume", "--journal", str(journal)], tmp_path)
    out = read_until(resume, "⏱")
    said = [line[2:] for line in out.splitlines() if line.startswith("» ")]
    assert said == ["The game goes on where it stopped.", "The accusation stands. Discuss player 5."], said
    resume.stdin.write("status\n")
    resume.stdin.flush()
    status = read_until(resume, "the day:")
    assert re.search(rf"the day: {round(held)} s left, stopped", status), status
    time.sleep(3)                                               # the resumed trial takes time; the day still does not
    resume.stdin.write("timeout\ntimeout\n" + "".join(f"tap {s} no\n" for s in range(1, 9)))
    resume.stdin.flush()
    out = read_until(resume, "The day has")
    assert "No majority: player 5 lives." in out
    assert _said_left(out) == [max(1, round(held))], out        # what it had, not a fresh minute
    resume.stdin.write("quit\n")
    resume.stdin.flush()
    rest, err = resume.communicate(timeout=30)
    assert "Traceback" not in out + rest + err, err


def test_an_accusation_from_a_phone_during_a_pause_is_held_back_and_the_day_keeps_its_time():
    """While the host has paused the game nothing changes it: an accusation sent during the pause (a
    phone's, the host screen's) never reaches the rules — it is answered "The game is paused.", the
    day stays in its accusations with its clock stopped where the pause stopped it, and nothing is
    journaled. At `resume` the day goes on with that time, and an accusation made then opens the
    trial (seed 001: «Vádat emelek XY ellen», hands up on a count of three: 5 s)."""
    import asyncio

    from narrator.companion.testing import ManualClockSession, until
    from narrator.flow.effects import Record, Reject
    from narrator.flow.events import Nominate

    seen: list = []

    class Seen:
        def handle(self, effect, text):
            seen.append(effect)

    async def main():
        live = ManualClockSession(_cfg(600), None, outputs=[Seen()])
        task = asyncio.create_task(live.run(live.start_effects(), [live.session.dealing_event()]))
        await until(lambda: live.queue is not None and live.game.state != "setup")
        for _ in range(2):
            live.fire()                                         # night zero's two steps
            await asyncio.sleep(0.05)
        await until(lambda: live.game.state == "accusations", what="the day")
        live.submit_control("pause")
        await asyncio.sleep(0.05)
        day_left = live.timer_remaining()
        armed = len(live.armed)
        live.submit_event(Nominate(4, by=1), source="companion")
        await until(lambda: any(isinstance(e, Record) and e.entry.get("reason") == "paused" for e in seen),
                    what="the accusation held back")
        assert live.game.state == "accusations" and live.held_remaining() is None
        assert live.timer_remaining() == day_left
        assert [e.line for e in seen if isinstance(e, Reject)][-1] == "paused"
        live.submit_control("resume")
        await asyncio.sleep(0.05)
        assert live.armed[armed:] == [("day", None, day_left)], live.armed  # what it had, not more
        live.submit_event(Nominate(4, by=1), source="companion")
        await until(lambda: live.game.state == "support_vote", what="the support vote")
        assert live.armed[-1] == ("support_vote", None, 5), live.armed
        live.submit_control("quit")
        await asyncio.wait_for(task, 10)

    asyncio.run(main())
