"""Phones at the table: the deal shows each phone its own role, a phone that drops mid-night comes
back to exactly where the game is, day votes on the phones follow the core's rules, and the keypad
turns a typed seat into the awake role's taps."""

from __future__ import annotations

import asyncio
import json

from narrator.companion.testing import connect  # from a page of the server itself (its Origin)

from narrator.companion import KeypadInput
from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate

DON, SHERIFF = 1, 4


def config(extra: str = ""):
    return parse_config(CLASSIC_DEAL + extra)


def test_each_phone_learns_its_own_role_at_the_deal():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            assert all(p.role is None for p in phones.values())
            t.deal()
            await until(lambda: all(p.role for p in phones.values()))
            assert {s: p.role for s, p in phones.items()} == {s: t.live.game.role(s) for s in phones}

    asyncio.run(main())


def test_a_phone_that_reconnects_mid_night_is_back_where_the_game_is():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await t.to_night_one()
            t.live.fire()
            await t.settle()
            assert t.live.game.step.name == "don_checks"
            sheriff_before = phones[SHERIFF].screen
            ack = await phones[DON].tap(SHERIFF)
            assert ack["text"] == "Player 4 IS the Sheriff."
            await phones[DON].close()  # the screen locks
            t.live.fire()  # the night goes on without him
            await t.settle()
            back = Phone(t.ws_url, t.companion.hub.seat_tokens[DON])
            back.n, back.key = phones[DON].n, phones[DON].key
            await back.join()
            phones[DON] = back
            assert back.role == "don"
            assert back.screen["step"] == "sheriff_checks" == phones[SHERIFF].screen["step"]
            assert back.screen["epoch"] == phones[SHERIFF].screen["epoch"] > sheriff_before["epoch"]
            notes = [f["text"] for _, f, _ in back.frames if f["t"] == "note"]
            assert notes == [""], "a finished step's answer is never shown by itself again"
            assert back.checks == ["Night 1: Player 4 IS the Sheriff."], "it is kept, held down with his role"
            # he taps on as before: the sequence numbers carry on across the reconnect
            ack = await back.tap(7)
            assert ack["ok"]

    asyncio.run(main())


def test_a_second_connection_of_the_same_phone_replaces_the_first():
    # a reload or a second tab on the same phone: the newest connection wins
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            again = Phone(t.ws_url, t.companion.hub.seat_tokens[3])
            again.key = phones[3].key
            await again.join()
            await until(lambda: phones[3].ws.close_code is not None)
            assert phones[3].ws.close_code == 4000
            assert t.companion.hub.phones[3] is not None
            await again.close()

    asyncio.run(main())


async def ballot_of_7_and_8(t):
    """Every phone joined, day 1: 7 and 8 nominated, the speeches over, the phones voting."""
    phones = await t.join_all()
    await t.to_first_day()
    t.live.submit_event(Nominate(7))
    t.live.submit_event(EndSpeech())
    t.live.submit_event(Nominate(8))
    await t.end_speeches()
    await until(lambda: phones[1].screen["state"] == "voting")
    return phones


def test_day_votes_on_the_phones_follow_the_core_rules():
    # one window for 7 and 8 (vote_call = "together"); the calls in turn: test_classic_vote_call.py
    async def main():
        async with Table(config('[rules]\nvote_call = "together"\n[companion]\nvotes = true\n')) as t:
            phones = await ballot_of_7_and_8(t)
            assert phones[1].screen["ask"] == "seat" and phones[1].screen["choices"] == [7, 8]
            assert (await phones[1].tap(7))["ok"]
            again = await phones[1].tap(8)
            assert not again["ok"] and "already voted" in again["text"]
            assert not (await phones[2].tap(5))["ok"], "5 is not on the ballot"
            for s in range(2, 6):
                await phones[s].tap(7)
            # seats 6..10 stay silent: their votes go to the last candidate, 8 (5 to 5, a split)
            t.live.fire()
            await t.settle()
            assert t.recorded("vote", "voter", "seat") == [(s, 7) for s in range(1, 6)]
            assert t.live.game.state == "tie_speeches"

    asyncio.run(main())


def test_a_double_tap_on_a_vote_is_answered_as_the_vote_that_counts():
    """In a 5-second vote a voter who taps twice must still see that his vote is in: the same
    choice again is answered as the first tap was, and counted once; another choice is refused
    under the vote that stands."""
    async def main():
        async with Table(config("[companion]\nvotes = true\n")) as t:
            phones = await ballot_of_7_and_8(t)
            first = await phones[1].tap(7)
            again = await phones[1].tap(7)
            # the vote is said once, in the line above the table ("You voted for player 7."); the
            # answer box under the ballot does not repeat it
            assert first["ok"] and again["ok"] and again["text"] == first["text"] == ""
            assert phones[1].screen["voted"] == "You voted for player 7."
            other = await phones[1].tap(8)
            assert not other["ok"] and "already voted" in other["text"] and "7" not in other["text"]
            t.live.fire()
            await t.settle()
            assert [v for v in t.recorded("vote", "voter", "seat") if v[0] == 1] == [(1, 7)]

    asyncio.run(main())


def test_without_phone_votes_a_tap_in_the_day_is_refused():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await t.to_first_day()
            ack = await phones[2].tap(3)
            assert not ack["ok"] and phones[2].screen["ask"] is None

    asyncio.run(main())


def test_the_keypad_taps_for_every_awake_mafioso_and_only_at_night():
    async def main():
        async with Table(config()) as t:
            keypad = KeypadInput(t.live)
            t.deal()
            await until(lambda: t.live.game.state == "night")
            assert keypad.line("5")  # night zero: taken, but nobody acts
            await t.end_night()
            assert not keypad.line("5"), "in the day a number is the console's"
            await t.end_speeches()
            for key in ("KP_9", "Enter"):
                keypad.key(key)
            await t.settle()
            assert t.recorded("shot_fired", "by", "seat") == [(1, 9), (2, 9), (3, 9)]
            assert not keypad.line("nominate 3")

    asyncio.run(main())


def test_the_table_is_ready_to_deal_when_every_seat_has_joined_or_the_host_says_start():
    async def main():
        async with Table(config('[companion]\npin = "1"\n')) as t:
            assert not await t.companion.wait_for_table(timeout=0.05)
            await t.join_all()
            assert await t.companion.wait_for_table(timeout=1)
        async with Table(config('[companion]\npin = "1"\n')) as t:
            async with connect(t.ws_url) as ws:
                await ws.send(json.dumps({"t": "host", "pin": "1"}))
                await ws.recv()
                await ws.send(json.dumps({"t": "start"}))
                assert await t.companion.wait_for_table(timeout=1)

    asyncio.run(main())
