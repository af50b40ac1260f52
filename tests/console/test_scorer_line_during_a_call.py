"""A scorer's line typed while the narrator is still saying the name belongs to that name's call.

Seed 004 §4.4: the host names each candidate in turn and the fists go down before "Stop". A quick
scorer types the fists as the name is said: his line is taken for the call being made, never
refused as a line for the call before ("that call's count has been said already") because the
call's timer had not started yet when he pressed Enter. Found by CI under load, where a typed Enter
came between the printed "Who votes for player 8?" and the start of its two seconds."""

from __future__ import annotations

import asyncio

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.effects import Say

DEAL = ('variant = "classic"\nlanguage = "en"\n[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
        '[companion]\nvotes = false\n')


class Scorer:
    """An output that reads the hand call the scorer's Enter would be typed in, as each name is said."""

    def __init__(self, live):
        self.live, self.heard = live, []

    def handle(self, effect, text) -> None:
        if isinstance(effect, Say) and effect.line in ("vote_call", "vote_call_last"):
            self.heard.append((effect.args["seat"], self.live.hand_call()))


def test_a_line_typed_while_the_name_is_said_is_for_that_call():
    async def main():
        async with Table(parse_config(DEAL)) as t:
            live = t.live
            live.scorer_at_console = True
            scorer = Scorer(live)
            live.outputs.append(scorer)
            await t.join_all()
            await t.to_first_day()
            await t.to_classic_vote(7, 8)
            first = live.hand_call()
            live.fire()                                   # 7's two seconds are over
            await until(live.hands_waiting, what="7's count waiting for the scorer")
            live.hands_entered(first)                     # his line for 7: nobody; 8 is called
            await until(lambda: len(scorer.heard) == 2, what="8 called")
            await t.settle()
            return scorer.heard, first, live.hand_call()

    heard, first, second = asyncio.run(main())
    assert heard == [(7, first), (8, second)], "the call a line typed during the name belongs to"
    assert second == first + 1
