"""What a seat knows from the deal (moment.SeatKnows): a mafioso his partners, as the console's hot
seat tells him — every other seat nothing more than his role. The phone's held-down area shows
the partners from its role frame (`mates`, phone.html), in every language's words."""

from __future__ import annotations

import pytest

from narrator.config import parse_config
from narrator.language import load_voice
from narrator.rules.roles import team_of
from narrator.session import Session

LANGS = ("en", "ru", "de", "sv", "hu")


@pytest.mark.parametrize("variant", ["classic", "sverige", "hungariq", "grundregeln"])
def test_a_mafioso_knows_his_partners_and_nobody_else_knows_anyone(variant):
    cfg = parse_config(f'variant = "{variant}"\nlanguage = "en"\n[dealing]\nseed = 5\n[input]\nengine = "none"\n', "club.toml")
    s = Session(cfg)
    s.start()
    s.feed(s.dealing_event())
    g = s.game
    mafia = [seat for seat in g.seats if team_of(g.role(seat)) == "mafia"]
    assert len(mafia) >= 2
    for seat in g.seats:
        knows = g.seat_knows(seat)
        assert knows.role == g.role(seat)
        assert knows.partners == (tuple(m for m in mafia if m != seat) if seat in mafia else ())


@pytest.mark.parametrize("lang", LANGS)
def test_the_phone_has_the_partners_words_in_every_language(lang):
    voice = load_voice(lang)
    assert "{seats}" in voice.phone["my_mates"] and voice.phone["my_mates_none"]


def test_the_phone_page_shows_the_partners_of_its_role_frame():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "narrator/companion/static/phone.html").read_text(encoding="utf-8")
    assert "mates = m.mates" in page and 'team.className = "mates"' in page
