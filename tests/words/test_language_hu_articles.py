"""A Hungarian seat is said with its article wherever it is a sentence's subject or object.

"7. játékos kiesett" is a headline; a Mensa HungarIQ table says "A 7. játékos kiesett.", "Az 5.
játékost kizárjuk." — "a" or "az" as the number is read (hét, öt). The bare form stays where the seat
stands alone: called ("7. játékos, tiéd a szó"), listed after a colon ("Távozik közülünk: 7.
játékos."), or as a label ("7. játékos: MAFFIÓZÓ."). The article is filled from the number
({seat_article}), and one that opens a sentence gets its capital however the words are filled:
a narrator's line, a phone's screen, a line with a player's name after his seat."""

from __future__ import annotations

import re
import tomllib

import pytest

from narrator.language import load_voice, voices_dir
from narrator.naming import named

# "{seat}. játékos…", "{by}. hely…": a placeholder read as an ordinal before the word it numbers
ORDINAL = re.compile(r"(?P<before>\{(?P<name>\w+)_article\} )?\{(?P<seat>\w+)\}\. (?P<word>(?:játékos|hely)\w*)(?=(?P<after>.{0,2}))")
# what may follow a seat that stands alone: the line's end, a comma (called), a colon (a label),
# a full stop or a semicolon (the end of a list), a bracket or an arrow (the console's notes)
ALONE = re.compile(r"$|[,.:;)]| \(| →| —")


def templates(table, where=""):
    """Every template of a voice file's table, with where it is: plural forms and a variant's own
    lines as well."""
    for key, value in table.items():
        if isinstance(value, dict):
            yield from templates(value, f"{where}{key}.")
        elif isinstance(value, str):
            yield f"{where}{key}", value
        elif isinstance(value, list):
            yield from ((f"{where}{key}[{i}]", v) for i, v in enumerate(value) if isinstance(v, str))


def hungarian_templates():
    with (voices_dir() / "hu.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return [(f"{section}.{key}", text) for section, table in data.items() if isinstance(table, dict)
            for key, text in templates(table) if section not in ("commands", "command_hints", "numbers")]


def test_every_hungarian_seat_that_is_no_call_list_or_label_has_its_article():
    bare = []
    for where, text in hungarian_templates():
        for m in ORDINAL.finditer(text):
            if m["before"]:
                assert m["name"] == m["seat"], f"{where}: the article of {m['name']} before {m['seat']}"
                continue
            alone = m["word"] in ("játékos", "hely") and ALONE.match(m["after"])
            if not alone:
                bare.append(f"{where}: {text}")
    assert bare == []


@pytest.mark.parametrize("seat, article", [(1, "Az"), (5, "Az"), (7, "A"), (10, "A")])
def test_a_line_that_opens_with_the_seat_opens_with_its_capital_article(seat, article):
    hu = load_voice("hu", "classic")
    assert hu.render("reject_already_voted", {"seat": seat}) == f"{article} {seat}. játékos már szavazott."
    assert hu.render("disqualified", {"seat": seat}).startswith(f"{article} {seat}. játékost kizárjuk")
    # the same line after a colon, inside a sentence: no capital
    assert hu.render("vote_cancelled_left", {"seat": seat}) == \
        f"Ma nincs szavazás: {article.lower()} {seat}. játékos elhagyta az asztalt."


def test_a_line_the_status_puts_inside_its_sentence_keeps_a_small_article():
    hu = load_voice("hu")
    assert hu.render("awaiting_speech", {"seat": 5}, inside=True).startswith("az 5. játékos felszólalásának vége")
    assert hu.render("awaiting_speech", {"seat": 5}).startswith("Az 5. játékos")


def test_a_called_or_listed_seat_stays_bare():
    hu = load_voice("hu", "classic")
    assert hu.render("speech_turn", {"seat": 7, "time": 60}).startswith("7. játékos, tiéd a szó")
    assert hu.render("morning_bad", {"seat": 7}) == "Nem jó reggelre virradtunk. Távozik közülünk: 7. játékos."
    assert hu.render("check_mafia", {"seat": 7}) == "7. játékos: MAFFIÓZÓ."


@pytest.mark.parametrize("seat, article", [(1, "Az"), (5, "Az"), (7, "A")])
def test_a_seat_named_with_its_player_keeps_the_article_of_its_number(seat, article):
    hu = load_voice("hu", "sverige")
    players = {1: "Ann", 5: "Bo", 7: "Cy", 10: "Dan"}
    args = {"seat": seat, "by": 10}
    text = named(hu, players, "nominated_by", args, hu.render("nominated_by", args))
    assert text == f"{article} {seat}. játékost ({players[seat]}) a 10. játékos (Dan) jelölte."
    args = {"seat": 10, "speaker": seat}
    text = named(hu, players, "reject_not_your_turn", args, hu.render("reject_not_your_turn", args))
    assert text == f"10. játékos (Dan), most nem te beszélsz: {article.lower()} {seat}. játékos ({players[seat]}) van soron."


@pytest.mark.parametrize("seat, article", [(1, "Az"), (7, "A")])
def test_a_phone_screens_own_words_open_with_the_capital_article_too(seat, article):
    hu = load_voice("hu")
    assert hu.words(hu.phone["host_vote_for"], {"seat": seat}) == f"{article} {seat}. játékos szavazata:"
    # a template that does not open with it is left as it is written
    assert hu.words(hu.phone["host_vote_not_now"], {"seat": seat}).startswith(f"Nem rögzítettem semmit: {article.lower()} {seat}.")
    assert load_voice("en").words(load_voice("en").phone["host_vote_for"], {"seat": seat}) == f"Vote on behalf of player {seat}:"


def test_a_console_note_after_its_dot_keeps_a_small_article():
    # the console's notes follow "· " and open in small letters, as every Hungarian note does
    hu = load_voice("hu", "grundregeln")
    assert hu.console_text("vote_for_pointing", {"voter": 5, "seat": 7}) == "szavazat rögzítve: az 5. játékos rámutat: 7. játékos"
