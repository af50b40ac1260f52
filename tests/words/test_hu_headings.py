"""A Hungarian club host's screen words: a heading numbers its seat as a sentence does, with the
article the number takes and the player's name after the numbered noun — «Szavazás: 8. játékos
(Bo)», «Kiessen az 5. játékos (Ede)?» — never a form's label («Szavazás – jelölt: 8 (Bo)»); the
host's hand-entry lines ask what he is to enter, as a scorer at the table would."""

from __future__ import annotations

import pytest

from narrator.language import load_voice
from narrator.naming import named

PLAYERS = {5: "Ede", 8: "Bo"}


def heading(key: str, seat: int) -> str:
    """A [phone] line about one seat as the companion words it (hub._seat_words)."""
    hu = load_voice("hu")
    template = hu.phone[key]
    return named(hu, PLAYERS, key, {"seat": seat}, hu.words(template, {"seat": seat}), template=template)


@pytest.mark.parametrize("key, seat, expected", [
    ("state_voting_call", 8, "Szavazás: 8. játékos (Bo)"),
    ("state_revote_call", 5, "Újraszavazás: 5. játékos (Ede)"),
    ("state_single_vote", 5, "Kiessen az 5. játékos (Ede)?"),
    ("state_execution_vote", 8, "Kivégezzük a 8. játékost (Bo)?"),
    ("host_state_single_vote", 5, "Szavazás: kiesik-e az 5. játékos (Ede), az egyetlen jelölt?"),
    ("host_hands_awaited", 5, "Lejárt az idő: kik szavaztak az 5. játékosra (Ede)? Jelöld be a helyüket, "
                              "és koppints a „Rögzítés” gombra; ha senki, a „Senki” gombra."),
])
def test_a_hungarian_heading_numbers_its_seat_with_the_article_and_the_name_after_the_noun(key, seat, expected):
    assert heading(key, seat) == expected


def test_the_hand_entry_names_the_buttons_it_has():
    hu = load_voice("hu").phone
    for key in ("host_hands_awaited", "host_hands_awaited_yes"):
        assert f"„{hu['host_hands_confirm']}”" in hu[key] and f"„{hu['host_hands_nobody']}”" in hu[key]
