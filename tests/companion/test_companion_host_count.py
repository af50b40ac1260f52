"""The host screen enters the whole count the game waits for at a table whose hands are typed
(`[companion] votes = false`, the scorer's console a terminal): one row of seats per candidate
voted on in the window, or the yes. Its entry is the console's line in other clothes: each hand an
ordinary `tap`, checked by the game — and taken whole or not at all. A seat that voted meanwhile,
a seat pointing at himself, a seat in two rows: nothing is recorded, the journal holds no trace,
and the host reads the game's own reason ("Player 6 has already pointed."), as the console would
print it for that hand."""

from __future__ import annotations

import asyncio
import json

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate, Tap


class Screen:
    """A host screen's connection, as the hub answers it: what it was sent."""

    def __init__(self):
        self.sent: list[dict] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def table(variant: str, roles: str, language: str = "en", seats: int = 8) -> Table:
    return Table(parse_config(f'variant = "{variant}"\nlanguage = "{language}"\nseats = {seats}\n'
                              f'[dealing]\nroles = {{ {roles} }}\n[companion]\nvotes = false\n'))


async def answered(t: Table, screen: Screen, msg: dict) -> dict | None:
    """The host's entry, through the hub as the page sends it; the refusal it got, if any."""
    before = len(screen.sent)
    t.companion.hub._host_action(screen, {"t": "hands", "call": t.live.hand_call(), **msg})
    await t.settle()
    return screen.sent[before] if len(screen.sent) > before else None


def test_grundregeln_pointing_entered_whole_or_not_at_all_with_the_games_reason():
    async def main():
        async with table("grundregeln", '1 = "mafia", 2 = "mafia", 3 = "mafia"') as t:
            live, game, hub = t.live, t.live.game, t.companion.hub
            live.scorer_at_console = True
            await t.join_all()
            t.deal()
            await t.run_clock_until(lambda: game.state == "discussion")
            live.submit_event(EndSpeech())
            await until(lambda: game.state == "pointing", what="the pointing")
            live.fire()
            await until(live.hands_waiting, what="the count waiting")
            offer = hub.host_hands()
            assert offer["several"] and [r["seat"] for r in offer["rows"]] == list(range(1, 9))
            assert offer["barred"]["4"] == [4], "one points at a fellow player (seed 003)"
            screen = Screen()
            # a seat in two rows, a player not on the ballot, a row twice, no rows: no entry of this count
            for votes in ([[4, [1, 2]], [5, [2]]], [[9, [1]]], [[4, [1]], [4, [2]]], "4: 1 2", [[4, 1]]):
                refusal = await answered(t, screen, {"votes": votes})
                assert refusal == {"t": "refused", "text": "Nothing recorded: the count is not waiting for those seats."}, votes
            # a seat the table does not have is the game's to answer, as it answers the console's `4: 9`
            refusal = await answered(t, screen, {"votes": [[4, [1, 9]]]})
            assert refusal["text"] == "Nothing recorded: There is no seat 9; seats are 1 to 8."
            assert game.votes == {}
            # the scorer types 6's pointing at the console first; the host's entry names 6 too
            live.submit_line("vote 6 4")
            await until(lambda: game.votes == {6: 4}, what="the console's vote")
            records = len(t.records)
            refusal = await answered(t, screen, {"votes": [[4, [1, 2]], [5, [6, 7]]]})
            assert refusal["text"] == "Nothing recorded: Player 6 has already pointed."
            # the scorer at the terminal reads that it was the host's count the game refused
            assert hub.refused[-1] == ("host count refused", None)
            # a hand pointing at himself, forged past the page's disabled button: the rules' reason
            refusal = await answered(t, screen, {"votes": [[4, [1]], [3, [3]]]})
            assert refusal["text"] == "Nothing recorded: You cannot point at yourself: point at another player."
            # nothing of either entry counted or journaled, and the count still waits
            assert game.votes == {6: 4} and len(t.records) == records and live.hands_waiting()
            assert hub.host_hands()["rows"][3]["cast"] == [6]  # 6's pointing at 4, shown fixed in 4's row
            assert await answered(t, screen, {"votes": [[4, [1, 2]], [5, [3, 7]]]}) is None
            await until(lambda: game.state != "pointing", what="the pointing's count")
            result = [e for e in t.records if e.get("type") == "vote_result"][-1]
            assert result["counts"] == {"4": 3, "5": 2}
            # the same entry again comes too late: the count has been said
            refusal = await answered(t, screen, {"votes": [[4, [5]]]})
            assert refusal["text"].startswith("Nothing recorded: the count is not waiting for votes now")

    asyncio.run(main())


def test_a_hungarian_support_vote_is_entered_as_its_yes_row():
    async def main():
        async with table("hungariq", '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"', "hu", seats=10) as t:
            live, game, hub = t.live, t.live.game, t.companion.hub
            live.scorer_at_console = True
            await t.join_all()
            await t.to_first_day()
            live.submit_event(Nominate(2, by=5))
            await until(lambda: game.state == "support_vote", what="the support vote")
            live.fire()
            await until(live.hands_waiting, what="the count waiting")
            offer = hub.host_hands()
            assert not offer["several"] and [r["seat"] for r in offer["rows"]] == [None]
            assert offer["text"].startswith("Lejárt az idő: kik szavaztak igennel?")
            assert await answered(t, Screen(), {"votes": [[None, [4, 5, 6, 7, 8, 9]]]}) is None
            await until(lambda: game.state != "support_vote", what="the support vote's count")
            assert t.recorded("vote_result", "round", "yes") == [("support_vote", 6)]

    asyncio.run(main())


def test_a_classic_together_entry_the_console_raced_changes_nothing():
    async def main():
        config = parse_config('variant = "classic"\nlanguage = "ru"\n[rules]\nvote_call = "together"\n'
                              '[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
                              '[companion]\nvotes = false\n[players]\n3 = "Вика"\n')
        async with Table(config) as t:
            live, game = t.live, t.live.game
            live.scorer_at_console = True
            await t.join_all()
            await t.to_first_day()
            await t.to_classic_vote(7, 8)
            live.fire()
            await until(live.hands_waiting, what="the count waiting")
            live.submit_event(Tap(3, 8))  # the scorer's `vote 3 8`, first
            await until(lambda: game.votes == {3: 8}, what="the console's vote")
            screen = Screen()
            refusal = await answered(t, screen, {"votes": [[7, [1, 2, 3]], [8, [4]]]})
            # the game's reason, the player named as every host line names him
            assert refusal["text"] == "Ничего не записано: Игрок 3 (Вика) уже проголосовал."
            assert game.votes == {3: 8}
            assert await answered(t, screen, {"votes": [[7, [1, 2]], [8, [4]]]}) is None
            await until(lambda: game.state != "voting", what="the count")
            result = [e for e in t.records if e.get("type") == "vote_result"][-1]
            assert result["counts"] == {"7": 2, "8": 8}  # the silent votes go to the last (seed 004 §4.4)

    asyncio.run(main())


def test_a_swedish_name_called_is_entered_as_its_one_row_and_a_hand_given_to_an_earlier_name_is_refused():
    async def main():
        async with table("sverige", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"', "sv", seats=10) as t:
            live, game, hub = t.live, t.live.game, t.companion.hub
            live.scorer_at_console = True
            await t.join_all()
            await t.to_first_day()
            await t.to_hand_vote((7, 3), (8, 5))
            live.fire()
            await until(live.hands_waiting, what="7's count waiting")
            offer = hub.host_hands()
            assert not offer["several"] and [r["seat"] for r in offer["rows"]] == [7]
            screen = Screen()
            assert await answered(t, screen, {"votes": [[7, [1, 2, 3]]]}) is None
            await until(lambda: game.vote_choices() == ("seat", [8]), what="8 called")
            live.fire()
            await until(live.hands_waiting, what="8's count waiting")
            # seed 000: one hand a day — 3's went up for 7
            refusal = await answered(t, screen, {"votes": [[8, [3, 4]]]})
            assert refusal["text"] == "Inget registrerades: Spelare 3 har redan röstat i dag, på spelare 7."
            assert await answered(t, screen, {"votes": [[8, [4, 5, 6, 9]]]}) is None
            await t.settle()
            assert t.recorded("vote", "voter", "seat") == [(1, 7), (2, 7), (3, 7), (4, 8), (5, 8), (6, 8), (9, 8)]

    asyncio.run(main())
