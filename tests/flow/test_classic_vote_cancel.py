"""Which vote a removal cancels, and when the table hears it (seed 004 §3, §5, §7), played at a
Russian table through the console, as the referee types it.

§7: «If a player leaves the game by receiving a 4th foul or disqualification the current or next
vote is cancelled, unless this player has been "killed" at night or exiled by vote. If the vote
result has been decided before dismissal and the dismissed player is not the one exiled, the next
vote is cancelled.» §5.5: «Leave of the gaming table» is a dismissal; §3: «Player must remain at
the table during all times while he is remaining in the game».

A referee says which vote goes the moment he removes the player («Игрок 9 дисквалифицирован…
Сегодняшнее голосование отменяется.»), and the narrator says it again, briefly and with the
seat, where the table would have expected the vote.
"""

from __future__ import annotations

import html

from conftest import Table
from narrator import protocol
from narrator.flow.events import Nominate
from narrator.report import GameRecord, render
from test_console_table import NIGHT_ZERO, console_game, table

# the console deal of test_console_table: 1 Sheriff, 3 Don, 5 and 8 mafia
TODAY = "Сегодняшнее голосование отменяется."
NEXT = "Следующее голосование отменяется."
SPEECHES = ["timeout"] * 10


def lines_after(printed: str, text: str) -> list[str]:
    """The narrator's lines (» …) from the one that says `text` on."""
    said = [line[2:] for line in printed.splitlines() if line.startswith("» ")]
    first = next(i for i, line in enumerate(said) if text in line)
    return said[first:]


def said_in_a_row(said: list[str], run: list[str]) -> bool:
    return any(said[i:i + len(run)] == run for i in range(len(said)))


def test_a_disqualification_in_the_speeches_cancels_todays_vote_at_once_and_again_when_the_vote_would_open():
    # §7 «the current … vote is cancelled»: today's result is still open
    printed, live = console_game(table("ru"), NIGHT_ZERO + [
        "выставляю игрока номер 7", "спасибо", "выставляю игрока номер 5", "disqualify 9"] + ["timeout"] * 8)
    said = lines_after(printed, "Игрок 9 дисквалифицирован")
    assert said[:2] == ["Игрок 9 дисквалифицирован и покидает игру без последнего слова.", TODAY]
    assert said_in_a_row(said, ["Спасибо, игрок 10. Время вышло.", "Сегодня голосования нет: игрок 9 дисквалифицирован.",
                                "Наступает ночь. Город засыпает."])
    assert live.game.state == "night" and live.game.cancel_vote_day is None and live.game.day == 1
    assert "Голосуем" not in printed and "На голосование выставлены" not in printed


def test_a_fourth_foul_after_the_result_cancels_the_next_vote_and_the_next_day_has_none():
    # §7 «If the vote result has been decided before dismissal and the dismissed player is not the
    # one exiled, the next vote is cancelled»: 7 is voted out, 8 gets his fourth foul in 7's last words
    vote_7 = [f"tap {s} 7" for s in range(1, 11)]
    night = ["tap 3 2", "tap 5 2", "<fire>", "tap 3 4", "<fire>", "tap 1 5", "<fire>"]   # 8 is out: 3 and 5 shoot
    printed, live = console_game(table("ru"), NIGHT_ZERO + [
        "выставляю игрока номер 7", "спасибо", "выставляю игрока номер 5"] + ["timeout"] * 9 + vote_7 + [
        "foul 8", "foul 8", "foul 8", "foul 8", "спасибо"] + night + [
        "спасибо", "выставляю игрока номер 6", "timeout", "выставляю игрока номер 10"] + ["timeout"] * 6)
    said = lines_after(printed, "Игрок 7, ваше последнее слово.")
    assert said[:7] == ["Игрок 7, ваше последнее слово.", "Игрок 8: фол номер 1.", "Игрок 8: фол номер 2.",
                        "Игрок 8: фол номер 3.", "У игрока 8 третий фол: он пропускает следующую речь.",
                        "Игрок 8: фол номер 4.", "У игрока 8 четвёртый фол. Он покидает игру без последнего слова."]
    # 7 goes on with his last words, then the night; today's vote was held and stands
    assert said[7:9] == [NEXT, "Наступает ночь. Город засыпает."] and TODAY not in said
    day2 = lines_after(printed, "День 2")
    assert said_in_a_row(day2, ["Спасибо, игрок 1. Время вышло.", "Сегодня голосования нет: игрок 8 удалён по фолам.",
                                "Наступает ночь. Город засыпает."])
    assert live.game.day == 2 and live.game.state == "night" and not {2, 7, 8} & set(live.game.alive)


def test_a_player_who_leaves_during_the_vote_stops_it_there():
    printed, live = console_game(table("ru"), NIGHT_ZERO + [
        "выставляю игрока номер 7", "спасибо", "выставляю игрока номер 5"] + ["timeout"] * 9 + ["tap 4 7", "leave 4"])
    said = lines_after(printed, "Игрок 4 покидает игровой стол")
    assert said[:3] == ["Игрок 4 покидает игровой стол и выбывает из игры без последнего слова.", TODAY,
                        "Наступает ночь. Город засыпает."]
    assert live.game.state == "night" and 7 in live.game.alive


def test_a_player_who_left_in_the_night_is_said_with_the_morning_news_and_todays_vote_with_him():
    printed, live = console_game(table("ru"), NIGHT_ZERO + SPEECHES + ["leave 6", "<fire>", "<fire>", "<fire>"])
    morning = lines_after(printed, "День 2")
    assert morning[2:4] == ["Игрок 6 ночью покинул игровой стол и выбыл из игры без последнего слова.", TODAY]
    assert morning[1].startswith("Утро у нас доброе") and live.game.cancel_vote_day == 2


def test_a_disqualification_at_night_cancels_the_next_vote_said_at_dawn():
    # §5.1 «Peeking during night phase»: there is no vote at night, so the next one goes — said
    # with the morning's news, as only dawn tells whether the mafia had shot him (§7 «unless this
    # player has been "killed" at night»)
    printed, live = console_game(table("ru"), NIGHT_ZERO + SPEECHES + ["disqualify 6", "<fire>", "<fire>", "<fire>"])
    # into the night nothing is said: the host alone reads it (seed 004 §5-7, see test_classic_night_penalties)
    assert "🔒 только для ведущего: Дисквалификация игрока 6 записана" in printed
    assert NEXT not in printed
    morning = lines_after(printed, "День 2")
    assert morning[1:4] == ["Утро у нас доброе. Этой ночью никто не погиб.",
                            "Этой ночью игрок 6 дисквалифицирован и покидает игру без последнего слова.", TODAY]
    assert live.game.cancel_vote_day == 2


def test_the_exiled_player_disqualified_in_his_last_words_cancels_nothing_and_says_no_vote():
    # §7 «unless this player has been … exiled by vote»
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    batch = t.do("disqualify 7")
    assert "vote_cancelled_today" not in t.said(batch) and "vote_cancelled_next" not in t.said(batch)


def test_two_removals_the_same_day_cancel_that_one_vote():
    # seed 004 §7 cancels «the current or next vote»: a second dismissal before today's vote cancels
    # the same vote, not tomorrow's as well (the reminder names the first)
    t = Table()
    t.do("disqualify 9", "foul 10", "foul 10", "foul 10", "foul 10")
    # the second is told the vote stays cancelled, not the first one's news again
    assert t.said().count("vote_cancelled_today") == 1 and t.said().count("vote_already_cancelled_today") == 1
    assert [r["day"] for r in t.records("vote_cancel_pending")] == [1]
    t.finish_day_speeches()
    assert t.records("vote_cancelled")[-1]["reason"] == "disqualified"
    assert t.session.render("vote_cancelled_disqualified", {"seat": 9}) == "There is no vote today: player 9 was disqualified."
    t.do("tap 2 1", "tap 3 1", "tap 4 1", "tap 2 5", "tap 1 2", "say thank you")     # 1 shot: last words
    t.do("say I'm submitting player number 5", "say thank you", "say I'm submitting player number 6")
    t.finish_day_speeches()
    assert t.game.state == "voting"                                                    # day 2 votes


# ------------------------------------------------------------------ the report says which vote
def report_of(t: Table) -> str:
    entries = protocol.entries(t.effects, t.session.voice)
    return html.unescape(render(GameRecord("<test>", entries, language=t.config.language)))


def test_the_report_names_todays_vote_or_the_next_days_in_every_language():
    words = {
        "en": ("Today's vote is cancelled (a disqualification)", "The next vote, on day 2, is cancelled (a fourth foul)"),
        "ru": ("Голосование этого дня отменено (дисквалификация)", "Следующее голосование, в день 2, отменено (четвёртый фол)"),
        "de": ("Die Abstimmung dieses Tages entfällt (eine Disqualifikation)", "Die nächste Abstimmung, an Tag 2, entfällt (ein viertes Foul)"),
        "sv": ("Dagens röstning ställs in (en diskvalificering)", "Nästa röstning, dag 2, ställs in (en fjärde varning)"),
        "hu": ("A mai szavazás elmarad (kizárás)", "A következő, 2. napi szavazás elmarad (negyedik figyelmeztetés)"),
    }
    for lang, (today, next_) in words.items():
        t = Table(lang=lang)
        t.do("disqualify 9")                                  # day 1, before the vote: today's
        while t.game.state == "speeches":
            t.do("timeout")
        page = report_of(t)
        day1 = page[page.index('id="day-1"'):].split("</section>", 1)[0]
        assert today in day1, lang
        # the next day's: today's result is decided (7 is voted out) when 6 gets his fourth foul
        t = Table(lang=lang)
        t.effects += t.session.feed(Nominate(7)) + t.do("timeout") + t.session.feed(Nominate(5))
        while t.game.state == "speeches":
            t.do("timeout")
        t.vote({s: 7 for s in range(1, 11)})
        t.do("foul 6", "foul 6", "foul 6", "foul 6")
        page = report_of(t)
        day1 = page[page.index('id="day-1"'):].split("</section>", 1)[0]
        assert next_ in day1, lang


def test_the_report_of_a_removal_after_the_vote_names_the_next_day():
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    t.do("leave 8")                                           # in 7's last words: today's result stands
    page = report_of(t)
    assert "The next vote, on day 2, is cancelled (a player left the table)" in page
    assert "Today's vote is cancelled" not in page


def test_status_shows_the_nominees_and_that_there_is_no_vote_today():
    # after «Сегодняшнее голосование отменяется.» a referee who types `status` must not read the
    # nominees as if a vote were coming
    from narrator.console import status_text

    printed, live = console_game(table("ru"), NIGHT_ZERO + [
        "выставляю игрока номер 7", "спасибо", "выставляю игрока номер 5", "disqualify 9"])
    assert "выставлены: 7, 5 (голосования сегодня нет)" in status_text(live)


def test_status_before_any_removal_says_nothing_of_a_cancelled_vote():
    from narrator.console import status_text

    printed, live = console_game(table("ru"), NIGHT_ZERO + ["выставляю игрока номер 7"])
    assert "7" in status_text(live) and "голосования сегодня нет" not in status_text(live)


def test_a_second_removal_the_same_day_says_the_vote_is_already_cancelled_not_cancelled_again():
    # §7 cancels «the current or next vote»: one vote a day, so a second disqualification the same
    # day takes nothing more, and the table hears that, not the first one's news a second time
    printed, live = console_game(table("ru"), NIGHT_ZERO + [
        "выставляю игрока номер 7", "спасибо", "disqualify 9", "disqualify 6"] + ["timeout"] * 7)
    said = lines_after(printed, "Игрок 9 дисквалифицирован")
    assert said[1] == TODAY
    second = said.index("Игрок 6 дисквалифицирован и покидает игру без последнего слова.")
    assert said[second + 1] == "Сегодняшнее голосование уже отменено."
    assert said.count(TODAY) == 1
    # the vote that goes is still the first one's, named where the vote would have opened
    assert said_in_a_row(said, ["Сегодня голосования нет: игрок 9 дисквалифицирован.", "Наступает ночь. Город засыпает."])
    assert live.game.state == "night" and live.game.day == 1
