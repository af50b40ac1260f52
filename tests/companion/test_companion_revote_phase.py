"""A re-vote reads as one on every screen, in every language.

Seed 000: a tie «sker en omröstning mellan enbart dem». Sverige's re-vote is the same hand vote as
the first, one name called at a time, so the phones' phase line and the host's heading read
«Röstning på spelare 8 (Märta)» in both rounds: only the narrator's caption said it was a re-vote,
and a player who missed it tapped as if the first vote had gone on. The line now names the round,
with each language's one word for it (the word classic's re-vote already used): «Omröstning mellan
de lika: spelare 8 (Märta)». Classic's re-vote is a state of its own and always read so; hungariq
has no re-vote (a support vote, then an execution vote), grundregeln's run-off is its own state."""

from __future__ import annotations

import asyncio

import pytest

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.console import state_name
from narrator.flow.events import Tap

ROLES = '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"'
NAMES = '[players]\n7 = "Örjan"\n8 = "Märta"\n'

# (first vote, re-vote) of nominee 8, as every phone and the host screen read them
LINES = {
    "sv": ("Röstning på spelare 8 (Märta)", "Omröstning mellan de lika: spelare 8 (Märta)"),
    "en": ("Voting on player 8 (Märta)", "Re-vote: player 8 (Märta)"),
    "ru": ("Голосование за игрока 8 (Märta)", "Переголосование: игрок 8 (Märta)"),
    "de": ("Abstimmung über Spieler 8 (Märta)", "Neue Abstimmung: Spieler 8 (Märta)"),
    "hu": ("Szavazás a 8. játékosról (Märta)", "Újraszavazás: 8. játékos (Märta)"),
}


def config(variant: str, lang: str, extra: str = "", roles: str = ROLES):
    return parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n[dealing]\nroles = {{ {roles} }}\n'
                        f'[companion]\nvotes = true\n{extra}{NAMES}')


@pytest.mark.parametrize("lang", sorted(LINES))
def test_the_swedish_re_vote_between_the_tied_is_named_on_every_phone_and_the_host_screen(lang):
    first, again = LINES[lang]

    async def main():
        async with Table(config("sverige", lang)) as t:
            ps = await t.join_all()
            hub = t.companion.hub
            await t.to_first_day()
            await t.to_hand_vote((7, 3), (8, 5))
            await until(lambda: ps[1].screen["choices"] == [7], what="7 called")
            for s in range(1, 6):
                t.live.submit_event(Tap(s, 7))
            await t.settle()
            t.live.fire()  # 7 counted, 8 called
            await until(lambda: ps[6].screen["choices"] == [8], what="8 called")
            # the first round: a seat that may tap, one whose vote is spent, the host
            assert (ps[6].screen["phase"], hub.host_frame()["phase"]) == (first, first)
            assert state_name(t.live) == first  # `status` names the player as the heading does
            for s in range(6, 11):
                t.live.submit_event(Tap(s, 8))
            await t.settle()  # five and five: every vote spent, the tie goes to the re-vote
            await until(lambda: t.live.game.vote_round == "revote" and ps[1].screen["choices"] == [7], what="the re-vote")
            t.live.submit_event(Tap(1, 7))
            await t.settle()
            t.live.fire()
            await until(lambda: ps[2].screen["choices"] == [8], what="8 called again")
            # every phone reads the same line (frames are alike for every seat): the one whose
            # re-vote went to 7 and has no button, and the ones still to vote
            assert {p.screen["phase"] for p in ps.values()} == {again} and ps[1].screen["ask"] is None
            assert ps[1].screen["phase"] != first
            assert hub.host_frame()["phase"] == again
            assert state_name(t.live) == again

    asyncio.run(main())


def test_classic_s_re_vote_already_reads_as_one():
    async def main():
        async with Table(config("classic", "sv", '[rules]\nvote_call = "each"\n', '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"')) as t:
            ps = await t.join_all()
            await t.to_first_day()
            await t.to_classic_vote(7, 8)
            await until(lambda: ps[1].screen["choices"] == [7], what="7 called")
            assert ps[1].screen["phase"] == "Röstning på spelare 7 (Örjan)"
            for s in range(1, 6):
                t.live.submit_event(Tap(s, 7))
            await t.settle()
            await t.run_clock_until(lambda: t.live.game.calling == 1)
            for s in range(6, 11):
                t.live.submit_event(Tap(s, 8))
            await t.settle()
            await t.run_clock_until(lambda: t.live.game.state == "revote")
            await until(lambda: ps[1].screen["state"] == "revote", what="the re-vote")
            assert ps[1].screen["phase"].startswith("Omröstning mellan de lika: spelare ")
            assert t.companion.hub.host_frame()["phase"].startswith("Omröstning mellan de lika: spelare ")

    asyncio.run(main())
