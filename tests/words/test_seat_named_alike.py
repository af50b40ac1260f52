"""A line that names one seat twice names it the same way both times, on every screen and in every
language: classic's last call (seed 004 §4.4) reads "Who votes for player 8 (Hugo)? Every vote not
yet cast goes to player 8 (Hugo)." — never the name the first time and a bare 8 the second, which a
reader can take for another seat. Spoken, the table hears the number both times.

A seat the caption has already named in an earlier line keeps its number only, however many
times the next line says it ("Player 8 (Hugo) leaves us." then "Player 8, your last words.").
"""

from __future__ import annotations

import re

import pytest

from narrator.language import load_voice
from narrator.naming import SEAT_ARGS, named

LANGS = ("en", "ru", "de", "sv", "hu")
PLAYERS = {2: "Ann", 3: "Bo", 5: "Cy", 8: "Hugo"}

# every line that names one seat in two places: a placeholder said twice, or a seat that is also in
# the list the line reads out (vote_open's "the vote not cast goes to" the last of the order; the
# Don among the mafia)
TWICE = {
    "vote_call_last": {"seat": 8},
    "single_nominee_question": {"seat": 8},
    "withdrawn_still_nominated": {"by": 3, "seat": 8, "seats": [2], "n": 1},
    "vote_open": {"seats": [2, 8], "seat": 8},
    "reveal_roles": {"seats": [2, 3], "don": 2, "sheriff": 5, "n": 2},
}


def mentions(text: str, seat: int) -> int:
    return len(re.findall(rf"(?<!\d){seat}(?!\d)", text))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("line", TWICE)
def test_a_seat_said_twice_in_a_line_carries_its_name_every_time(lang, line):
    voice = load_voice(lang)
    args = TWICE[line]
    bare = voice.render(line, args)
    shown = named(voice, PLAYERS, line, args, bare)
    for seat, name in PLAYERS.items():
        assert shown.count(f"({name})") == mentions(bare, seat), (lang, line, shown)
    assert shown != bare


@pytest.mark.parametrize("lang", LANGS)
def test_the_last_call_names_the_called_seat_alike_both_times(lang):
    voice = load_voice(lang)
    bare = voice.render("vote_call_last", {"seat": 8})
    shown = named(voice, PLAYERS, "vote_call_last", {"seat": 8}, bare)
    assert mentions(bare, 8) == 2, bare
    assert shown.count("(Hugo)") == 2, shown


def test_the_english_last_call_reads_as_a_club_says_it():
    voice = load_voice("en")
    shown = named(voice, PLAYERS, "vote_call_last", {"seat": 8}, voice.render("vote_call_last", {"seat": 8}))
    assert shown == "Who votes for player 8 (Hugo)? Every vote not yet cast goes to player 8 (Hugo)."


@pytest.mark.parametrize("lang", LANGS)
def test_a_seat_named_earlier_in_the_caption_keeps_its_number_both_times(lang):
    voice = load_voice(lang)
    caption: set[int] = set()
    first = named(voice, PLAYERS, "vote_call", {"seat": 8}, voice.render("vote_call", {"seat": 8}), once=caption)
    assert "(Hugo)" in first
    again = named(voice, PLAYERS, "vote_call_last", {"seat": 8}, voice.render("vote_call_last", {"seat": 8}), once=caption)
    assert "(Hugo)" not in again and mentions(again, 8) == 2, again


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_that_repeats_a_seat_is_checked_here(lang):
    """A new line that says one seat twice gets its place in TWICE, so its screens are checked."""
    voice = load_voice(lang)
    for name, template in voice.lines.items():
        forms = template.values() if isinstance(template, dict) else [template]
        for form in forms:
            fields = [f for f in re.findall(r"\{(\w+)\}", form) if f in SEAT_ARGS]
            if len(fields) != len(set(fields)):
                assert name in TWICE, (lang, name, form)
