"""The classic day as a sports-mafia referee checks it, played at a Russian table through the
console: what is typed there is what a transcript holds, and what the table hears is printed.

Seed 004 §4.4 «Votes can only be casted for players who where submitted by one of the players
during discussion»; §5 «Following game rules violations immediately result in foul points: 1.
Speaking outside of allowed 1 minute 2. Removing of fist from table during vote … 3. Gestures or
speaking during voting phase»; §6 «After receiving third foul the player skips next 1 minute speech
(but can submit player for a exile vote). After receiving 4th foul player leaves the game without
right for "last words"»; §7 «If a player leaves the game by receiving a 4th foul … the current or
next vote is cancelled, unless this player has been "killed" at night or exiled by vote».
"""

from __future__ import annotations

from conftest import in_calls
from test_classic_vote_cancel import NEXT, TODAY, lines_after, said_in_a_row
from test_console_table import NIGHT_ZERO, console_game, table

QUIET_NIGHT = ["<fire>"] * 3          # nobody shoots, the Don and the Sheriff check nobody


def test_nobody_nominated_means_no_vote_and_the_night():
    # §4.4: only a submitted player can be voted for; with none the day ends with its speeches
    printed, live = console_game(table("ru"), NIGHT_ZERO + ["timeout"] * 10)
    said = lines_after(printed, "Спасибо, игрок 10. Время вышло.")
    assert said[1:3] == ["Никто не выставлен. Сегодня голосования нет.", "Наступает ночь. Город засыпает."]
    assert live.game.state == "night" and live.game.alive == list(range(1, 11))


def test_a_third_foul_in_his_own_speech_lets_him_finish_and_skips_his_next_speech_but_not_his_nomination():
    # §6: the speech he is giving is not the «next» one; tomorrow he has a turn to nominate only
    printed, live = console_game(table("ru"), NIGHT_ZERO + ["foul 1", "foul 1", "foul 1", "выставляю игрока номер 7"]
                                 + ["timeout"] * 10 + QUIET_NIGHT + ["timeout"] * 9 + ["выставляю игрока номер 6"])
    day1 = lines_after(printed, "День 1")
    assert said_in_a_row(day1, ["Игрок 1: фол номер 3.", "У игрока 1 третий фол: он пропускает следующую речь.",
                                "7 принято."])                       # the floor is still his
    day2 = lines_after(printed, "День 2")
    assert said_in_a_row(day2, ["Спасибо, игрок 10. Время вышло.",
                                "У игрока 1 три фола: он пропускает речь, но может выставить кандидатуру.", "6 принято."])
    assert "⏱ 10 с" in printed[printed.index("У игрока 1 три фола"):]
    assert live.game.nominations == [(1, 6)] and live.game.floor == 1


def test_a_fourth_foul_on_the_speaker_ends_his_speech_and_todays_vote_at_once():
    printed, live = console_game(table("ru"), NIGHT_ZERO + ["выставляю игрока номер 7", "спасибо",
                                                             "foul 2", "foul 2", "foul 2", "foul 2"])
    said = lines_after(printed, "Игрок 2: фол номер 4.")
    assert said[1:4] == ["У игрока 2 четвёртый фол. Он покидает игру без последнего слова.", TODAY,
                         "Игрок 3, у вас одна минута."]
    assert live.game.floor == 3 and 2 not in live.game.alive and "Игрок 2, ваше последнее слово." not in printed


def test_a_foul_in_the_vote_is_a_foul_and_the_vote_goes_on():
    # §5.2–3: a fist lifted or a gesture in the vote is a foul, not a removal: only a 4th cancels
    nominate = ["выставляю игрока номер 7", "спасибо", "выставляю игрока номер 5"] + ["timeout"] * 9
    printed, live = console_game(table("ru"), NIGHT_ZERO + nominate + ["tap 1 7", "foul 4", "foul 4", "foul 4"]
                                 + [f"tap {s} 7" for s in range(2, 11)])
    said = lines_after(printed, "Кто за игрока 7?")
    assert said_in_a_row(said, ["Игрок 4: фол номер 3.", "У игрока 4 третий фол: он пропускает следующую речь."])
    assert said_in_a_row(said, ["Игрок 7: 10 голосов.", "Игрок 5: 0 голосов.", "Игрок 7 покидает игру."])
    assert TODAY not in printed and live.game.seats[4].skip_next_speech


def test_a_fourth_foul_in_the_split_vote_speeches_cancels_the_revote():
    # §7: the re-vote is today's vote, not yet decided
    nominate = ["выставляю игрока номер 7", "спасибо", "выставляю игрока номер 5"] + ["timeout"] * 9
    split = in_calls([f"tap {s} 7" for s in (1, 2, 3, 4, 5)], [f"tap {s} 5" for s in (6, 7, 8, 9, 10)])
    printed, live = console_game(table("ru"), NIGHT_ZERO + nominate + split + ["foul 9"] * 4)
    said = lines_after(printed, "Автокатастрофа")
    assert said[:2] == ["Автокатастрофа: поровну голосов у игроков 7 и 5.", "Игрок 7, 30 секунд на оправдание."]
    assert said[-4:] == ["У игрока 9 четвёртый фол. Он покидает игру без последнего слова.", TODAY,
                         "Наступает ночь. Город засыпает.", "Внимание, мафия! Мафия просыпается и стреляет."]
    assert {5, 7} <= set(live.game.alive)


def test_both_leave_by_the_lift_vote_each_with_last_words_and_a_fourth_foul_takes_the_second_ones():
    # seed 002 «Кто «ЗА» то, чтобы все голосуемые покинули игру?», seed 004 §4.4: both leave, each
    # with his last words; §6 a 4th foul means no last words, §7 and cancels nothing: he was exiled
    nominate = ["выставляю игрока номер 7", "спасибо", "выставляю игрока номер 6"] + ["timeout"] * 9
    split = in_calls([f"tap {s} 7" for s in (1, 2, 3, 4, 5)], [f"tap {s} 6" for s in (6, 7, 8, 9, 10)])
    lift = [f"tap {s} yes" for s in range(1, 8)] + ["tap 8 no", "tap 9 no", "tap 10 no"]
    printed, live = console_game(table("ru"), NIGHT_ZERO + nominate + split + ["спасибо", "спасибо"] + split + lift
                                 + ["foul 6"] * 4 + ["спасибо"])
    said = lines_after(printed, "Кто за то, чтобы игроки 7 и 6 покинули игру?")
    assert said[1:5] == ["За — 7 голосов.", "Игрок 7 покидает игру.", "Игрок 6 покидает игру.", "Игрок 7, ваше последнее слово."]
    assert said_in_a_row(said, ["У игрока 6 четвёртый фол. Он лишается последнего слова.", "Наступает ночь. Город засыпает."])
    assert "Игрок 6, ваше последнее слово." not in said and TODAY not in said and NEXT not in said
    assert "У игрока 6 третий фол: он пропускает следующую речь." not in said   # he has no next speech
    assert live.game.cancel_vote_day is None and live.game.seats[6].fouls == 4


def test_the_first_day_with_one_nominee_has_no_vote():
    # §4.4 «If during first "Day" only one player is submitted the voting is cancelled»
    printed, live = console_game(table("ru"), NIGHT_ZERO + ["выставляю игрока номер 7"] + ["timeout"] * 10)
    said = lines_after(printed, "Спасибо, игрок 10. Время вышло.")
    # the lone nominee's own line names him: «На голосование выставлен игрок 7.» before it was the same news
    assert said[1:3] == ["В первый день выставлен только игрок 7. Голосования нет.", "Наступает ночь. Город засыпает."]


def test_the_second_of_two_voted_out_disqualified_before_his_last_words_loses_them_and_cancels_nothing():
    from conftest import Table

    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 6")
    t.finish_day_speeches()
    split = {1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 6, 7: 6, 8: 6, 9: 6, 10: 6}
    t.vote(split)
    t.do("say thank you", "say thank you")
    t.vote(split)
    t.vote({s: "yes" for s in range(1, 11)})
    assert t.game.floor == 7 and t.game.last_words_queue == [6]
    batch = t.do("disqualify 6")
    assert t.said(batch) == ["disqualified_no_last_words"] and t.game.floor == 7
    assert t.session.render("disqualified_no_last_words", {"seat": 6}) == "Player 6 is disqualified and loses his last words."
    t.do("say thank you")
    assert t.game.state == "night" and t.game.cancel_vote_day is None
    assert t.refused("disqualify 6").line == "reject_seat_out"     # out, and his last words gone
