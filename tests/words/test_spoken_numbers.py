"""The table hears a seat's number as a word of its language.

espeak-ng 1.51, the default voice, reads the Russian digit "7" as «сейм» (the same sound, sample for
sample, as it makes for that word), "1" as «ойдин», "8" as «восем», and "27" as «двадцать сейм»,
"25" as «двадцать пьять»: a Russian table heard «Кто за игрока сейм?». Where the voice file says so
([speech] said_tens), the spoken line says every number in words, from seat 1 to seat 30 and past
the hundredth night; the screens and the console keep the digits, and a language whose digits are
read right is left as it is."""

from __future__ import annotations

import pytest

from narrator.language import load_voice


def test_the_russian_last_call_says_seven_as_a_russian_word_and_shows_the_digit():
    ru = load_voice("ru")
    assert ru.render("vote_call_last", {"seat": 7}, spoken=True) == \
        "Кто за игрока семь? Все, кто ещё не проголосовал, голосуют за игрока семь."
    assert ru.render("vote_call_last", {"seat": 7}) == \
        "Кто за игрока 7? Все, кто ещё не проголосовал, голосуют за игрока 7."


def test_a_russian_list_of_seats_and_the_day_are_said_in_words():
    ru = load_voice("ru")
    assert ru.render("revote_open", {"seats": [1, 7, 17]}, spoken=True) == "Переголосование между игроками один, семь и семнадцать."
    assert ru.render("city_wakes", {"day": 1}, spoken=True) == "Город просыпается. День один."
    # the chant keeps its pacing ([spoken] hand_vote) and says the seat as a word
    assert ru.render("hand_vote", {"seat": 1}, spoken=True).startswith("Кто голосует за игрока один —")


def test_a_number_with_more_than_one_digit_is_said_in_words_too():
    ru = load_voice("ru")
    assert ru.render("foul", {"seat": 17, "n": 1}, spoken=True) == "Игрок семнадцать: фол номер один."
    assert ru.render("welcome", {"n": 27}, spoken=True) == "Добро пожаловать в Мафию. Игроков за столом: двадцать семь."
    # the screen keeps its digits
    assert ru.render("foul", {"seat": 25, "n": 1}) == "Игрок 25: фол номер 1."


@pytest.mark.parametrize("seat", range(1, 31))
def test_every_seat_of_a_thirty_seat_table_is_heard_in_russian_words(seat):
    ru = load_voice("ru")
    spoken = ru.render("vote_call_last", {"seat": seat}, spoken=True)
    assert not any(c.isdigit() for c in spoken)
    assert spoken.count(ru.said_in_words(seat)) == 2  # the seat is called twice, the same words both times


def test_the_words_for_a_seat_past_twenty_are_its_tens_and_its_units():
    ru = load_voice("ru")
    assert [ru.said_in_words(n) for n in (7, 17, 20, 21, 27, 30)] == \
        ["семь", "семнадцать", "двадцать", "двадцать один", "двадцать семь", "тридцать"]
    # a number past the words the file gives is left to the engine, never half said
    assert ru.said_in_words(1000) is None and ru.said_in_words(0) is None


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
    assert ru.render("accusation_count", {"n": 11}, spoken=True) == "За обвинение одиннадцать рук."
    assert ru.render("draw", {"n": 2}, spoken=True) == "Два дня и две ночи подряд никто не покинул игру. Ничья."
    # a masculine noun keeps the masculine word, and the screen keeps the digit
    assert ru.render("vote_count", {"seat": 3, "n": 1}, spoken=True) == "Игрок три: один голос."
    assert ru.render("accusation_count", {"n": 1}) == "За обвинение 1 рука."


@pytest.mark.parametrize("n, said", [
    (21, "За обвинение двадцать одна рука."),
    (22, "За обвинение двадцать две руки."),
    (25, "За обвинение двадцать пять рук."),
    (30, "За обвинение тридцать рук."),
    (31, "За обвинение тридцать одна рука."),
    (101, "За обвинение сто одна рука."),
    (111, "За обвинение сто одиннадцать рук."),
    (112, "За обвинение сто двенадцать рук."),
])
def test_a_russian_count_past_twenty_is_said_whole_in_words_and_agrees(n, said):
    # no digit is left for the engine: it says "20" and "27" in its own way («двадцать сейм»)
    assert load_voice("ru").render("accusation_count", {"n": n}, spoken=True) == said


def test_tens_of_nights_and_minutes_agree_past_twenty():
    ru = load_voice("ru")
    assert ru.render("draw", {"n": 21}, spoken=True) == \
        "Двадцать один день и двадцать одна ночь подряд никто не покинул игру. Ничья."
    assert ru.render("draw", {"n": 32}, spoken=True) == \
        "Тридцать два дня и тридцать две ночи подряд никто не покинул игру. Ничья."
    assert ru.render("speech_turn", {"seat": 21, "time": 21 * 60}, spoken=True) == "Игрок двадцать один, у вас двадцать одна минута."
    assert ru.render("speech_turn", {"seat": 2, "time": 52}, spoken=True) == "Игрок два, у вас пятьдесят две секунды."
