"""One name for one thing in each language (session 22): a table that hears «az utolsó halott» at
the tie and reads «aki utoljára halt meg» when it is refused wonders whether they are two people.
Each language names the player who died last, the host, a vote tie, a foul and a role one way, in
every line it says, prints or shows — in the words its club's seed uses (sv 000, hu 001, ru 002,
de 003, en 004)."""

from __future__ import annotations

import re
import tomllib

import pytest

from narrator.language import load_voice, voices_dir

# what a player never reads or hears: the command sentences he says, the number words he is heard by
NOT_SHOWN = ("commands", "command_hints", "numbers", "answers", "speech")


def shown(lang: str) -> list[tuple[str, str]]:
    """(key, text) of every line, screen word, console note and report word of a language."""
    data = tomllib.loads((voices_dir() / f"{lang}.toml").read_text(encoding="utf-8"))
    out: list[tuple[str, str]] = []

    def walk(key: str, value) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(key if k in ("one", "few", "many", "other") else k, v)  # a plural form is its line's
        elif isinstance(value, str):
            out.append((key, value))
        elif isinstance(value, list):
            for v in value:
                walk(key, v)

    for section, value in data.items():
        if section not in NOT_SHOWN:
            walk(section, value)
    return out


# the one way each thing is named, and the ways it was also named before
OTHER_NAMES = {
    # seed 004 «The game is conducted by a host.» and the «“split vote” situation»; a speaking turn is
    # a turn to speak, never «the floor»
    "en": [r"[Rr]eferee", r"[Gg]ame master", r"\b[Tt]ie\b", r"[Tt]ied again", r"the floor"],
    # seed 003 «entscheidet bei einer Pattsituation der letzte Tote»; «Spielleiter» throughout
    "de": [r"zuletzt gestorben", r"Spielleitung", r"Schiedsrichter", r"\bPatt\b"],
    # seed 001 «XY halott», «a játékvezető»; a foul is a figyelmeztetés, a speech a felszólalás
    "hu": [r"utoljára halt meg", r"[Ss]zabálytalanság", r"[Bb]eszéd vége", r"[Bb]eszédek\b", r"\bE beszéd",
           r"jelölt beszéde", r"^beszéd", r"a kamikaze\b|[Pp]olgár kamikaze|[Mm]affia kamikaze", r"Mániákus|mániákus", r"Putana"],
    # seed 002 «Ведущий»; the player who died last is «погибший последним»
    "ru": [r"[Сс]удь[яи]", r"выбывший последним", r"Бакалейщик", r"Камикадзе города"],
    # seed 000 «spelledaren», «röstning» (the re-vote between the tied is its «omröstning»)
    "sv": [r"[Dd]omaren", r"mobilen", r"som dog sist\b", r"Galning|galningen", r"Medlöpare", r"Putana",
           r"Omröstningen|[Dd]agens omröstning|[Nn]ästa omröstning|ingen omröstning"],
}


@pytest.mark.parametrize("lang", sorted(OTHER_NAMES))
def test_a_thing_is_named_one_way_in_every_line(lang):
    found = [(key, text) for key, text in shown(lang) for other in OTHER_NAMES[lang] if re.search(other, text)]
    assert found == []


@pytest.mark.parametrize("lang, draw", [("hu", "Döntetlen"), ("ru", "ничь"), ("sv", "oavgjor")])
def test_a_tied_vote_is_not_called_the_draw_that_ends_a_game(lang, draw):
    # «Döntetlen.» is how a Hungarian game ends with no winner; a tied vote is a «szavazategyenlőség»
    keys = {key for key, text in shown(lang) if draw.lower() in text.lower()}
    assert keys and all("draw" in key or key in ("winner_draw", "outcome_draw") for key in keys), keys


@pytest.mark.parametrize("lang", ["ru", "hu"])
def test_the_report_names_a_role_as_the_narrator_says_it(lang):
    voice = load_voice(lang)
    report = tomllib.loads((voices_dir() / f"{lang}.toml").read_text(encoding="utf-8"))["report"]
    for key, name in report.items():
        if key.startswith("role_") and key in voice.lines:
            said = voice.render(key).lower()
            # the report may shorten a name («Мирный» for «мирный житель»), never rename it
            assert said.startswith(name.lower()), (key, name, said)


@pytest.mark.parametrize("lang, key, report_name, said", [
    ("de", "role_putana", "Verführerin", "die Verführerin"),
    ("de", "role_maniac", "Serienmörder", "der Serienmörder"),
    ("sv", "role_putana", "Förförerska", "förförerskan"),
    ("sv", "role_maniac", "Seriemördare", "seriemördaren"),
    ("sv", "role_collaborator", "Kollaboratör", "kollaboratören"),
])
def test_the_german_and_swedish_report_names_the_roles_the_table_heard(lang, key, report_name, said):
    # the report said «Putana» and «Wahnsinniger» of the player the narrator called «die Verführerin»
    # and «der Serienmörder» all game
    report = tomllib.loads((voices_dir() / f"{lang}.toml").read_text(encoding="utf-8"))["report"]
    assert (report[key], load_voice(lang).render(key, inside=True)) == (report_name, said)


def test_the_don_s_say_at_the_mafia_meeting_is_not_a_dead_player_s_last_word():
    assert "letzte Wort" not in load_voice("de").render("mafia_wakes_meet")
    assert "sista ord" not in load_voice("sv").render("mafia_wakes_meet")
    assert "utolsó szó" not in load_voice("hu").render("mafia_wakes_meet")
