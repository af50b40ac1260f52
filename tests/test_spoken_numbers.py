"""The table hears a seat's number as a word of its language.

espeak-ng 1.51, the default voice, reads the Russian digit "7" as «сейм» (the same sound, sample for
sample, as it makes for that word), "1" as «ойдин», "8" as «восем»: a Russian table heard «Кто за игрока сейм?».
Where the voice file says so ([speech] said_numbers), the spoken line carries those numbers as
words; the screens and the console keep the digits, and a language whose digits are read right is
left as it is."""

from __future__ import annotations

import pytest

from narrator.language import load_voice


def test_the_russian_last_call_says_seven_as_a_russian_word_and_shows_the_digit():
    ru = load_voice("ru")
    assert ru.render("vote_call_last", {"seat": 7}, spoken=True) == \
        "Кто за игрока семь? Все, кто ещё не проголосовал, голосуют за игрока семь."
    assert ru.render("vote_call_last", {"seat": 7}) == \
        "Кто за игрока 7? Все, кто ещё не проголосовал, голосуют за игрока 7."


def test_a_russian_list_of_seats_and_the_day_are_said_in_words_where_the_digit_is_misread():
    ru = load_voice("ru")
    assert ru.render("revote_open", {"seats": [1, 7, 17]}, spoken=True) == "Переголосование между игроками один, семь и 17."
    assert ru.render("city_wakes", {"day": 1}, spoken=True) == "Город просыпается. День один."
    # the chant keeps its pacing ([spoken] hand_vote) and says the seat as a word
    assert ru.render("hand_vote", {"seat": 1}, spoken=True).startswith("Кто голосует за игрока один —")


def test_only_a_number_standing_alone_is_said_in_words():
    ru = load_voice("ru")
    assert ru.said_numbers["7"] == "семь" and ru.said_numbers["8"] == "восемь"
    # 17 is read right by the engine as it is: a digit inside a longer number is never replaced
    assert ru.render("foul", {"seat": 17, "n": 1}, spoken=True) == "Игрок 17: фол номер один."


@pytest.mark.parametrize("lang", ["en", "de", "sv", "hu"])
def test_a_language_whose_digits_are_read_right_hears_the_written_line(lang):
    voice = load_voice(lang)
    for seat in range(1, 11):
        assert voice.render("vote_call_last", {"seat": seat}, spoken=True) == voice.render("vote_call_last", {"seat": seat})


def test_a_russian_count_of_hands_minutes_or_nights_agrees_with_its_feminine_noun():
    # the engine says «один», «два» whatever follows: «один рука», «два минуты» is not Russian
    ru = load_voice("ru")
    assert ru.render("accusation_count", {"n": 1}, spoken=True) == "За обвинение одна рука."
    assert ru.render("execution_count", {"n": 2}, spoken=True) == "За казнь две руки."
    assert ru.render("accusation_count", {"n": 21}, spoken=True) == "За обвинение 20 одна рука."
    assert ru.render("accusation_count", {"n": 11}, spoken=True) == "За обвинение 11 рук."
    assert ru.render("draw", {"n": 2}, spoken=True) == "2 дня и две ночи подряд никто не покинул игру. Ничья."
    # a masculine noun keeps the engine's own word, and the screen keeps the digit
    assert ru.render("vote_count", {"seat": 3, "n": 1}, spoken=True) == "Игрок 3: один голос."
    assert ru.render("accusation_count", {"n": 1}) == "За обвинение 1 рука."
