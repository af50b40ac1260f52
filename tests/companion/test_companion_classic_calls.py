"""Classic's vote called candidate by candidate (seed 004 §4.4 «right after vote for certain
candidate has been announced and before host says "Stop"»), on the phones: the heading names the
one being called, in the table's words, and a vote for a candidate whose call is over is refused
on the phone that sent it, with the reason, and spends nothing."""

from __future__ import annotations

import asyncio

import pytest

from narrator.companion.testing import CLASSIC_DEAL, Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate

HEADINGS = {"en": ("Vote: player 8 (Bo)", "Too late: the votes for player 7 are counted."),
            "ru": ("Голосование: игрок 8 (Bo)", "Поздно: голоса за игрока 7 уже подсчитаны."),
            "de": ("Abstimmung: Spieler 8 (Bo)", "Zu spät: Die Stimmen für Spieler 7 sind schon gezählt."),
            "sv": ("Röstning på spelare 8 (Bo)", "För sent: rösterna på spelare 7 är redan räknade."),
            "hu": ("Szavazás: 8. játékos (Bo)", "Késő: a 7. játékosra leadott szavazatokat már megszámoltam.")}


async def called(t: Table, *seats: int) -> None:
    await t.to_first_day()
    for seat in seats:
        t.live.submit_event(Nominate(seat))
        t.live.submit_event(EndSpeech())
        await t.settle()
    await t.end_speeches()
    await until(lambda: t.live.game.state == "voting", what="the vote")


@pytest.mark.parametrize("lang", sorted(HEADINGS))
def test_the_heading_names_the_one_called_and_a_vote_for_one_called_already_is_refused_on_that_phone(lang):
    heading, late = HEADINGS[lang]
    config = parse_config(CLASSIC_DEAL.replace('language = "en"', f'language = "{lang}"')
                          + '[companion]\nvotes = true\n[players]\n8 = "Bo"\n')

    async def main():
        async with Table(config) as t:
            game = t.live.game
            ps = await t.join_all()
            await called(t, 7, 8, 6)
            t.live.fire()  # "Stop.": 8 is called
            await until(lambda: game.calling == 1 and ps[5].screen["choices"] == [8], what="8 called")
            assert ps[5].screen["phase"] == heading
            before = {s: len(p.frames) for s, p in ps.items()}
            answer = await ps[5].tap(7)  # a tap for 7, now that his call is over
            assert not answer["ok"] and answer["text"] == late, answer["text"]
            assert 5 not in game.votes and not ps[5].screen["voted"]  # no vote spent
            await t.settle()
            # the other phones were sent nothing for it
            assert all(len(p.frames) == before[s] for s, p in ps.items() if s != 5)
            assert (await ps[5].tap(8))["ok"]  # his vote is still his, for a later call
            await until(lambda: game.votes == {5: 8}, what="his vote for 8")
            # once he has voted, a tap for 7 is no "you may still vote": the rules' answer, as before
            again = await ps[5].tap(7)
            assert not again["ok"] and "Too late" not in again["text"] and game.votes == {5: 8}, again["text"]

    asyncio.run(main())


def test_a_revote_heading_names_the_one_called_again():
    config = parse_config(CLASSIC_DEAL + "[companion]\nvotes = true\n")

    async def main():
        async with Table(config) as t:
            game = t.live.game
            ps = await t.join_all()
            await called(t, 7, 8)
            for voter in range(1, 6):  # 5–5: a tie, 7 and 8 speak again and are called again
                assert (await ps[voter].tap(7))["ok"]
            t.live.fire()
            await until(lambda: game.calling == 1, what="8 called")
            await t.run_clock_until(lambda: game.state == "revote")
            await until(lambda: ps[1].screen["state"] == "revote")
            assert ps[1].screen["phase"] == "Re-vote: player 7"

    asyncio.run(main())
