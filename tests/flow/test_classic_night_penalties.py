"""The referee's penalties given at night are said in the morning (seed 004 §5-7), played at a
Russian table through the console as the referee types them, and at a phone table.

§4.5: «During the night each player must not speak, move, touch other players.» A foul said aloud
in the mafia's step — «Игрок 3: фол номер 1.» — tells the sleeping table that seat 3 moved while
the mafia were awake. So at night the referee's foul or dismissal is taken silently: recorded,
confirmed to the host alone (the console's line marked for the host, the host screen), never
spoken, not a byte to a phone, the night's steps as long as ever — and said to the table in the
morning, after the night's news, with what it does:

§6: «After receiving third foul the player skips next 1 minute speech (but can submit player for a
exile vote). After receiving 4th foul player leaves the game without right for "last words".»
§5: violations that «immediately result in player's dismissal: 1. Peeking during night phase …»
§7: «If a player leaves the game by receiving a 4th foul or disqualification the current or next
vote is cancelled, unless this player has been "killed" at night or exiled by vote.»

A removal is immediate: he acts no more that night (a dismissed mafioso's shot is no longer the
mafia's, §4.5 «all "mafia" players present at the table»). For the others he is at the table
until the morning says otherwise — a seat they may still choose, as one who left the table unwell
is — and if the mafia shoot him, before or after, he was "killed" at night: no vote is cancelled.
"""

from __future__ import annotations

import asyncio
import html
import re
from pathlib import Path

import pytest

from conftest import Table
from narrator.companion.testing import Table as PhoneTable, until
from narrator.config import parse_config
from narrator.flow.effects import HostLine, Say
from narrator.language import load_voice
from narrator.protocol import entries
from narrator.report import GameRecord, render, story
from test_console_table import NIGHT_ZERO, console_game, table
from test_journal_resume import CONFIG, killed_after_lines, start

# the console deal of test_console_table: 1 Sheriff, 3 Don, 5 and 8 mafia
DAY_ONE = ["timeout"] * 10            # ten speeches, nobody nominated: the city falls asleep
TODAY = "Сегодняшнее голосование отменяется."
HOST = "🔒 только для ведущего: "


def said(printed: str) -> list[str]:
    return [line[2:] for line in printed.splitlines() if line.startswith("» ")]


def the_night(printed: str) -> list[str]:
    """The narrator's lines from nightfall to dawn (night 1)."""
    lines = said(printed)
    start = lines.index("Наступает ночь. Город засыпает.")
    end = next(i for i, line in enumerate(lines) if line.startswith("Город просыпается. День 2"))
    return lines[start:end]


def the_morning(printed: str) -> list[str]:
    lines = said(printed)
    return lines[next(i for i, line in enumerate(lines) if line.startswith("Город просыпается. День 2")):]


@pytest.mark.e2e
def test_a_foul_in_the_mafias_step_is_said_to_nobody_but_the_host_and_the_morning_says_it():
    night = ["foul 4", "<fire>", "<fire>", "<fire>"]     # in the mafia's step; nobody shoots
    printed, live = console_game(table("ru"), NIGHT_ZERO + DAY_ONE + night)
    quiet, _ = console_game(table("ru"), NIGHT_ZERO + DAY_ONE + ["<fire>"] * 3)
    # the night the table hears is the night of a table without a foul, line for line
    assert the_night(printed) == the_night(quiet)
    assert not any("фол" in line.lower() for line in the_night(printed))
    # the referee reads at once that it was taken, marked as his alone
    assert HOST + "Фол номер 1 игроку 4 записан: стол услышит о нём утром." in printed
    assert the_morning(printed)[1:3] == ["Утро у нас доброе. Этой ночью никто не погиб.",
                                         "Этой ночью игрок 4 получил фол: фол номер 1."]
    assert live.game.seats[4].fouls == 1 and live.game.state == "speeches" and 4 in live.game.alive


def test_the_night_steps_run_as_long_and_the_phones_count_no_fouls_before_the_morning():
    # what a removal changes the table sees only at dawn: the steps, their time, the seats alive
    night = ["foul 4", "disqualify 6", "<fire>", "foul 9", "<fire>", "<fire>"]
    printed, live = console_game(table("ru"), NIGHT_ZERO + DAY_ONE + night[:3])
    view = live.game.public_view()
    assert view["fouls"] == {} and 6 in view["alive"] and live.game.state == "night"
    printed, live = console_game(table("ru"), NIGHT_ZERO + DAY_ONE + night)
    _, quiet = console_game(table("ru"), NIGHT_ZERO + DAY_ONE + ["<fire>"] * 3)
    assert live.armed == quiet.armed                     # every step's timer, to the second


def test_a_fourth_foul_at_night_puts_him_out_in_the_morning_without_last_words_and_todays_vote_goes():
    # §6 «After receiving 4th foul player leaves the game without right for "last words"», §7
    day = ["foul 9", "foul 9", "foul 9"] + DAY_ONE      # three fouls by day, said at once
    night = ["foul 9", "<fire>", "<fire>", "<fire>"]
    nominate = ["выставляю игрока номер 7", "timeout", "выставляю игрока номер 6"] + ["timeout"] * 8
    printed, live = console_game(table("ru"), NIGHT_ZERO + day + night + nominate)
    assert HOST + "Четвёртый фол игроку 9 записан" in printed
    assert "Игрок 9: фол номер 4." not in printed        # the day's words: never said into the night
    assert the_morning(printed)[1:5] == [
        "Утро у нас доброе. Этой ночью никто не погиб.", "Этой ночью игрок 9 получил фол: фол номер 4.",
        "У игрока 9 четвёртый фол. Он покидает игру без последнего слова.", TODAY]
    # out of the day's speeches, no last words, and no vote where it would have opened
    assert "Игрок 9, ваше последнее слово." not in printed and "Игрок 9, у вас" not in the_morning(printed)
    assert "Сегодня голосования нет: игрок 9 удалён по фолам." in the_morning(printed)
    assert 9 not in live.game.alive and live.game.causes[9] == "fouls" and live.game.state == "night"


def test_a_third_foul_at_night_skips_his_next_speech_said_in_the_morning():
    # §6 «After receiving third foul the player skips next 1 minute speech (but can submit …)»
    printed, live = console_game(table("ru"), NIGHT_ZERO + ["foul 7", "foul 7"] + DAY_ONE
                                 + ["foul 7", "<fire>", "<fire>", "<fire>"] + ["timeout"] * 6)
    morning = the_morning(printed)
    assert morning[2:4] == ["Этой ночью игрок 7 получил фол: фол номер 3.",
                            "У игрока 7 третий фол: он пропускает следующую речь."]
    assert "У игрока 7 три фола: он пропускает речь, но может выставить кандидатуру." in morning


def test_a_dismissal_at_night_of_the_seat_the_mafia_then_shoot_was_a_kill():
    # §5 «Peeking during night phase» → dismissal; the mafia (3, 5, 8) shoot 6 afterwards: he was
    # "killed" at night (§7), leaves without last words, and today's vote is held
    night = ["disqualify 6", "tap 3 6", "tap 5 6", "tap 8 6", "<fire>", "<fire>", "<fire>"]
    printed, live = console_game(table("ru"), NIGHT_ZERO + DAY_ONE + night)
    assert HOST + "Дисквалификация игрока 6 записана" in printed
    # the mafia chose a seat still at the table for them: nothing told them he was gone
    assert "Игрок 6 выбыл из игры." not in printed
    assert the_morning(printed)[1:4] == [
        "Утро у нас не доброе. Нас покидает игрок номер 6.",
        "Этой ночью игрок 6 дисквалифицирован и покидает игру без последнего слова.",
        "Игрока 6 ночью застрелили, поэтому голосование не отменяется: сегодня голосуем."]
    assert "Игрок 6, ваше последнее слово." not in printed and TODAY not in printed
    assert live.game.causes[6] == "shot" and live.game.cancel_vote_day is None


def test_one_shot_and_one_not_the_morning_does_not_say_the_vote_is_held_and_then_cancelled():
    # 6 is shot and dismissed, 9 gets his fourth foul and was not shot: 9 cancels today's vote (§7)
    night = ["disqualify 6", "foul 9", "tap 3 6", "tap 5 6", "tap 8 6", "<fire>", "<fire>", "<fire>"]
    printed, live = console_game(table("ru"), NIGHT_ZERO + ["foul 9"] * 3 + DAY_ONE + night)
    morning = the_morning(printed)
    assert "Игрока 6 ночью застрелили, поэтому голосование не отменяется: сегодня голосуем." not in morning
    assert morning[-2] == TODAY and live.game.cancel_vote_day == 2 and live.game.cancel_seat == 9


def test_a_dismissed_mafioso_shoots_no_more_and_the_others_shot_decides():
    # §4.5: the shot needs «all "mafia" players present at the table»; his own tap is answered to
    # him alone, and only in his step
    t = Table()
    t.finish_day_speeches()
    t.do("disqualify 3", "tap 2 7")
    assert t.refused("tap 3 9").seat == 3
    t.do("tap 4 7", "tap 2 1", "tap 1 2")          # the step closes without him; the Don, the Sheriff
    assert t.eliminated() == [(7, "shot"), (3, "disqualified")]
    assert t.records("shot")[-1]["shooters"] == {"2": [7], "4": [7]}


def test_the_order_of_the_shot_and_the_removal_never_changes_the_night():
    # nobody at the table saw which came first, so it cannot matter
    before, after = Table(), Table()
    for t in (before, after):
        t.finish_day_speeches()
    before.do("disqualify 6", "tap 2 6", "tap 3 6", "tap 4 6", "tap 2 1", "tap 1 2")
    after.do("tap 2 6", "tap 3 6", "disqualify 6", "tap 4 6", "tap 2 1", "tap 1 2")
    assert before.said()[-8:] == after.said()[-8:] and before.eliminated() == after.eliminated() == [(6, "shot")]


def test_penalties_at_night_that_cannot_be_given_are_refused_to_the_host_alone():
    t = Table()
    t.finish_day_speeches()
    t.do("disqualify 6")
    for line in ("foul 6", "disqualify 6", "leave 6"):
        refused = t.refused(line)
        assert refused.line == "reject_seat_out" and refused.seat is None   # the console's, never a phone's
    t.do("leave 7")
    assert t.refused("foul 7").line == "reject_seat_out"


def test_a_team_defeat_at_night_ends_the_game_at_once_and_the_nights_fouls_go_unsaid():
    # §5: «immediately result in player's team defeat»: the roles are revealed, so it is said at once
    t = Table()
    t.finish_day_speeches()
    batch = t.do("foul 5", "defeat 2")
    assert [e.line for e in batch if isinstance(e, Say)][:1] == ["defeat_town_wins"]
    assert "night_foul" not in t.said() and t.game.state == "over"


def test_the_protocol_keeps_the_foul_in_the_night_it_was_given_and_the_report_draws_it_there():
    t = Table()
    t.finish_day_speeches()
    t.do("foul 5", "tap 2 6", "tap 3 6", "tap 4 6", "disqualify 6", "tap 2 1", "tap 1 2")
    protocol = entries(t.effects, load_voice("en", "classic"))
    host = [e for e in protocol if e["type"] == "host"]
    assert [e["line"] for e in host] == ["night_foul_held", "night_disqualified_held"]
    told = story.build(protocol)
    night = next(p for p in told.periods if p.kind == "night" and p.number == 1)
    kinds = [i["kind"] for i in night.items]
    assert kinds.index("foul") < kinds.index("disqualification") < kinds.index("eliminated")
    assert not any(i["kind"] == "foul" for p in told.periods if p.kind == "day" and p.number == 2 for i in p.items)
    assert told.eliminated[6] == {"cause": "shot", "period": ("night", 1)} and told.fouls == {5: 1}
    # and the page draws it in that night's section, not the morning's day
    page = html.unescape(render(GameRecord("<test>", protocol, language="en")))
    night_1 = page[page.index('id="night-1"'):page.index('id="day-2"')]
    text = " ".join(re.sub("<[^>]+>", " ", night_1).split())
    assert "Foul on 5 (1)" in text and text.index("Foul on 5") < text.index("6 is disqualified") < text.index("6 is out")
    assert "Foul" not in re.sub("<[^>]+>", "", page[page.index('id="day-2"'):])


@pytest.mark.e2e
def test_a_game_resumed_in_the_night_of_a_silent_foul_says_it_in_the_morning_exactly_once(tmp_path: Path):
    # kill -9 in the Don's step after the foul; the resumed game says the morning once
    lines = ["timeout"] * 3 + ["timeout"] * 10 + ["foul 7", "tap 2 5", "tap 3 5", "tap 4 5", "timeout"]
    journal = killed_after_lines(lines, tmp_path)
    resume = start(["resume", "--journal", str(journal)], tmp_path)
    out, err = resume.communicate("timeout\ntimeout\nquit\n", timeout=60)
    heard = said_en(out)
    assert heard[:2] == ["The game goes on where it stopped.", "The Don wakes up and looks for the Sheriff."], heard
    assert heard.count("In the night, player 7 got a foul: foul number 1.") == 1
    morning = heard[heard.index("The city wakes up. Day 2."):]
    assert morning[1:3] == ["The morning is not good. Player 5 leaves us.", "In the night, player 7 got a foul: foul number 1."]


def said_en(out: str) -> list[str]:
    return [line[2:] for line in out.splitlines() if line.startswith("» ")]


def test_at_a_phone_table_a_foul_given_at_night_reaches_the_host_screen_and_no_phone():
    cfg = parse_config('variant = "classic"\nlanguage = "en"\nseats = 10\n[dealing]\n'
                       'roles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n')

    async def main():
        async with PhoneTable(cfg) as t:
            await t.join_all()
            await t.to_night_one()
            hub, g = t.companion.hub, t.live.game
            await t.settle()
            sent = len(hub.sent)
            frames = {s: len(p.frames) for s, p in t.phones.items()}
            hub._host_action(None, {"t": "foul", "seat": 6})
            await until(lambda: g.night_penalties, what="the foul")
            hub._host_action(None, {"t": "disqualify", "seat": 9})
            hub._host_action(None, {"t": "foul", "seat": 9})          # out already: refused
            await t.settle()
            assert hub.sent[sent:] == [] and {s: len(p.frames) for s, p in t.phones.items()} == frames
            assert hub.host_frame()["held"] == [
                "Foul number 1 for player 6, noted: the table hears it in the morning.",
                "Player 9 disqualified, noted: he acts no more tonight; in the morning the table hears it, "
                "and he leaves the game without last words."]
            assert hub.caption.endswith("The mafia wakes up and shoots.")
            await t.end_night()
            assert "In the night, player 6 got a foul: foul number 1." in hub.caption
            assert hub.host_frame()["held"] == [] and 9 not in g.alive

    asyncio.run(main())


def test_the_maniacs_defeat_at_night_is_his_dismissal_said_in_the_morning_as_one():
    # above ten seats (seed 002) the Maniac is a team of one: his defeat is his dismissal, worded as
    # a disqualification so his role stays secret — and at night, said in the morning like any
    t = Table(deal="1=sheriff 2=don 3=mafia 4=mafia 6=mafia 5=maniac", seats=13, roles={"maniac": 1})
    t.finish_day_speeches()
    batch = t.do("defeat 5")
    assert [e.line for e in batch if isinstance(e, HostLine)] == ["night_disqualified_held"]
    assert not [e for e in batch if isinstance(e, Say)] and t.game.state == "night"
    assert t.records("defeat") == [{"type": "defeat", "seat": 5, "team": "maniac"}]
    while t.game.state == "night":
        t.do("timeout")
    assert "night_disqualified" in t.said() and (5, "disqualified") in t.eliminated()
