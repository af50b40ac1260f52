"""The host screen's "Waiting for" row while a hand call's count waits for the scorer (`[companion]
votes = false`): the entry of the votes for the player called, here or at the console — not "votes
from seats 1 … 10", which read as if the phones still had a vote to give. In each of the table's
languages, with the player's name as every host line names him."""

from __future__ import annotations

import asyncio

import pytest

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.language import LANGUAGES

DEAL = ('variant = "classic"\nlanguage = "{lang}"\n[dealing]\nroles = {{ 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }}\n'
        '[players]\n7 = "Ann"\n[companion]\nvotes = false\n')

AWAITED = {
    "en": "the votes for player 7 (Ann) to be entered, here or at the console",
    "ru": "ввода голосов за игрока 7 (Ann) — здесь или в консоли",
    "de": "das Eintragen der Stimmen für Spieler 7 (Ann), hier oder an der Konsole",
    "sv": "att rösterna på spelare 7 (Ann) skrivs in, här eller i konsolen",
    "hu": "a 7. játékosra (Ann) leadott szavazatok beírása, itt vagy a konzolon",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_host_screen_waits_for_the_entry_of_the_called_players_votes(lang):
    async def main():
        async with Table(parse_config(DEAL.format(lang=lang))) as t:
            live, game, hub = t.live, t.live.game, t.companion.hub
            live.scorer_at_console = True
            await t.join_all()
            await t.to_first_day()
            await t.to_classic_vote(7, 8)
            # 7's window runs: the seats still vote (a fist each), and the row lists them
            assert hub.host_awaiting_votes() is not None
            live.fire()
            await until(live.hands_waiting, what="7's count waiting for the scorer")
            assert hub.host_awaiting() == AWAITED[lang]
            assert hub.host_awaiting_votes() is None  # no seat chips: nobody has a vote left to give
            # whoever enters them, the count goes on and the row with it
            call = live.hand_call()
            live.submit_control(lambda: live.hands_entered(call))
            await until(lambda: game.calling == 1, what="8 called")
            assert hub.host_awaiting_votes() is not None and hub.host_awaiting() != AWAITED[lang]

    asyncio.run(main())
