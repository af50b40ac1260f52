"""Narration text and command sentences: complete in every language, plurals right."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from narrator.flow.days import Game
from narrator.language import ARTICLE_SUFFIX, LANGUAGES, Command, Malformed, hu_article, load_voice, plural_categories, voices_dir

PRESENT = [lang for lang in LANGUAGES if (voices_dir() / f"{lang}.toml").exists()]
ROOT = Path(__file__).resolve().parents[2]


def placeholders(template) -> set[str]:
    """The values a line takes: {seat_article} is no value of its own but the article the
    language puts before {seat}, filled from it."""
    texts = template.values() if isinstance(template, dict) else [template]
    return {f.removesuffix(ARTICLE_SUFFIX) for t in texts for _, f, _, _ in string.Formatter().parse(t) if f}


def test_english_and_russian_are_present():
    assert {"en", "ru"} <= set(PRESENT)


@pytest.mark.parametrize("table", ["lines", "console", "cli", "config_errors", "winners"])
@pytest.mark.parametrize("lang", [l for l in PRESENT if l != "en"])
def test_every_line_exists_in_every_language_with_the_same_placeholders(lang, table):
    """What is said, what the console prints for whoever types at it, what the command line says
    around a game (a crash, a resume, the speaker) and what is wrong with a config: the table's language."""
    en, other = getattr(load_voice("en"), table), getattr(load_voice(lang), table)
    assert set(other) == set(en)
    for line, template in en.items():
        assert placeholders(other[line]) == placeholders(template), f"{lang}: {line}"
        if table != "lines" and isinstance(other[line], dict):
            assert set(other[line]) == set(plural_categories(lang)), f"{lang}: {line}"


@pytest.mark.parametrize("variant", ["classic", "sverige", "hungariq", "grundregeln"])
@pytest.mark.parametrize("lang", [l for l in PRESENT if l != "en"])
def test_a_variants_own_console_words_exist_in_every_language(lang, variant):
    """[console.<variant>] (hungariq's status names the accused, seed 001): the same in every language."""
    en, other = load_voice("en", variant).console, load_voice(lang, variant).console
    assert set(other) == set(en)
    for line, template in en.items():
        assert placeholders(other[line]) == placeholders(template), f"{lang} {variant}: {line}"
        if line not in load_voice("en").console:
            # a line of this variant's alone (grundregeln's pointing, seed 003): in no shared table
            assert line not in load_voice(lang).console, f"{lang} {variant}: {line} is the variant's own in English only"
            continue
        own = load_voice("en", variant).console[line] != load_voice("en").console[line]
        assert own == (other[line] != load_voice(lang).console[line]), f"{lang} {variant}: {line} is worded its own way in one language only"


# the narrator's winner lines of each rule system (the day module's winner_line): the side that won
WINNER_LINES = {
    "classic": {"town": ["town_wins"], "mafia": ["mafia_wins", "mafia_wins_more"], "maniac": ["maniac_wins"]},
    "sverige": {"town": ["village_wins"], "mafia": ["mafia_wins_village", "mafia_wins_village_more"]},
    "hungariq": {"town": ["citizens_win", "citizens_win_dead"], "mafia": ["mafia_wins_equal", "mafia_wins_more_citizens"]},
    "grundregeln": {"town": ["good_wins"], "mafia": ["evil_wins"]},
}


@pytest.mark.parametrize("variant", sorted(WINNER_LINES))
@pytest.mark.parametrize("lang", PRESENT)
def test_the_winner_is_named_in_the_words_the_variants_narrator_announces_it_with(lang, variant):
    """Seen at a German grundregeln table: the console printed «Die Mafia gewinnt.» while the
    narrator said «Die böse Seite gewinnt» (seed 003 speaks of the good and the evil side). The
    console and the status name the winner as the narrator of that variant opens his line."""
    voice = load_voice(lang, variant)
    for winner, lines in WINNER_LINES[variant].items():
        name = voice.winner(winner).rstrip(".")
        for line in lines:
            said = voice.render(line, {"n": 3})
            assert said.startswith(name), f"{lang} {variant}: {said!r} does not open with {name!r}"
    assert voice.render("draw", {"n": 3}).endswith(voice.winner("draw"))


@pytest.mark.parametrize("lang", PRESENT)
def test_plural_lines_give_every_plural_form_of_the_language(lang):
    v = load_voice(lang)
    for line, template in v.lines.items():
        if isinstance(template, dict):
            assert set(template) == set(plural_categories(lang)), f"{lang}: {line}"


def test_every_line_the_core_says_is_in_the_voice_files():
    source = "\n".join(p.read_text() for p in (ROOT / "narrator").rglob("*.py"))
    used = set(re.findall(r'(?:_say|Refused|Tell\(\w+,|Answer)\(\s*"([a-z_]+)"', source))
    used |= set(re.findall(r'"(check_[a-z_]+|reject_[a-z_]+|awaiting_[a-z_]+|step_[a-z_]+)"', source))
    # a vote's call and count, said as the table votes: by hand, or its twin on the phones
    used |= {line + suffix for line in re.findall(r'_vote_line\(\s*"([a-z_]+)"\)', source) for suffix in ("", "_phones")}
    from narrator.flow.night import ACTIONS

    missing = {u for u in used if u not in load_voice("en").lines and not u.endswith("_") and u not in ACTIONS}
    assert not missing


def test_russian_plural_forms():
    ru = load_voice("ru")
    assert [ru.render("vote_count", {"seat": 3, "n": n}) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "Игрок 3: 1 голос.", "Игрок 3: 2 голоса.", "Игрок 3: 5 голосов.", "Игрок 3: 11 голосов.",
        "Игрок 3: 21 голос.", "Игрок 3: 22 голоса.", "Игрок 3: 25 голосов.",
    ]


def test_lists_of_seats_read_naturally():
    assert load_voice("en").render("nominees", {"seats": [3, 5, 7], "n": 3}) == "Nominated for the vote: players 3, 5 and 7."
    assert load_voice("ru").render("nominees", {"seats": [3, 7], "n": 2}) == "На голосование выставлены игроки 3 и 7."
    assert load_voice("ru").render("nominees", {"seats": [5], "n": 1}) == "На голосование выставлен игрок 5."


@pytest.mark.parametrize("sentence,expected", [
    ("I'm submitting player number seven", Command("nominate", 7)),
    ("I am submitting player 7 for vote", Command("nominate", 7)),
    ("im submitting player number ten", Command("nominate", 10)),
    ("I'm revoking player 7 from vote", Command("revoke", 7)),
    ("Thank you.", Command("end_speech")),
    ("pass", Command("end_speech")),
    ("cancel", Command("cancel")),
    ("I'm submitting", Malformed("nominate", "I'm submitting")),
    ("seven", None),
    ("I saw seven vote for three", None),
])
def test_english_commands(sentence, expected):
    assert load_voice("en").parse(sentence) == expected


@pytest.mark.parametrize("sentence,expected", [
    ("Выставляю игрока номер семь", Command("nominate", 7)),
    ("выставляю седьмого", Command("nominate", 7)),
    ("Я выставляю игрока номер 10", Command("nominate", 10)),
    ("выставляю четвёртого", Command("nominate", 4)),
    ("снимаю игрока номер семь", Command("revoke", 7)),
    ("Спасибо", Command("end_speech")),
    ("пас", Command("end_speech")),
    ("отмена", Command("cancel")),
    ("выставляю", Malformed("nominate", "выставляю")),
    ("семь", None),
])
def test_russian_commands(sentence, expected):
    assert load_voice("ru").parse(sentence) == expected


def test_a_bare_seat_number_is_understood_only_when_a_seat_is_asked_for():
    en = load_voice("en")
    assert en.parse("seven") is None
    assert en.parse("seven", only={"seat"}) == Command("seat", 7)


def test_the_grammar_lists_every_nomination_sentence():
    phrases = load_voice("ru").phrases("nominate")
    assert "выставляю игрока номер семь" in phrases and "выставляю седьмого" in phrases
    assert all(load_voice("ru").parse(p) is not None for p in phrases[:200])


# Hungarian says "az" before a number read with a vowel first (egy, öt, ötven, ezer) and "a"
# before any other: "az 1. helyen", "a 2. helyen", "a 10. helyen", "az 5. helyen".
HU_SEAT_ARTICLES = {1: "az", 2: "a", 3: "a", 4: "a", 5: "az", 6: "a", 7: "a", 8: "a", 9: "a", 10: "a",
                    11: "a", 12: "a", 13: "a", 14: "a", 15: "a", 16: "a", 17: "a", 18: "a", 19: "a", 20: "a"}


@pytest.mark.parametrize("seat", range(1, 21))
def test_a_hungarian_line_puts_the_article_each_seat_is_read_with(seat):
    voice = load_voice("hu")
    line = voice.render("private_for", {"seat": seat})
    assert line == f"csak {HU_SEAT_ARTICLES[seat]} {seat}. helyen ülőnek:"
    assert voice.render("reject_not_decider", {"speaker": seat}).startswith(f"Ezt a szavazategyenlőséget csak {HU_SEAT_ARTICLES[seat]} {seat}. játékos, az utolsó halott")
    assert voice.config_text("named_twice", {"seat": seat}) == f"{HU_SEAT_ARTICLES[seat]} {seat}. helynek két neve van"


@pytest.mark.parametrize("number, article", [(0, "a"), (21, "a"), (50, "az"), (55, "az"), (60, "a"), (100, "a"),
                                             (150, "a"), (500, "az"), (501, "az"), (1000, "az"), (1999, "az"),
                                             (2000, "a"), (5000, "az"), (11000, "a"), (1_000_000, "az")])
def test_hungarian_numbers_past_the_seats_take_the_article_of_their_first_spoken_word(number, article):
    # tizenegyezer, ötezer, ezer, ötszáz, száz (never "egyszáz"), ötven, nulla
    assert hu_article(str(number)) == article


def test_hungarian_words_take_the_article_of_their_first_sound():
    assert hu_article("extend") == "az" and hu_article("deal") == "a" and hu_article("0xf3") == "a"


def test_no_hungarian_line_leaves_the_reader_to_choose_between_a_and_az():
    text = (voices_dir() / "hu.toml").read_text(encoding="utf-8")
    assert [line for line in text.splitlines() if "a(z)" in line] == []


def test_only_a_language_with_such_articles_uses_an_article_filler():
    for lang in PRESENT:
        if lang != "hu":
            assert ARTICLE_SUFFIX + "}" not in (voices_dir() / f"{lang}.toml").read_text(encoding="utf-8"), lang
