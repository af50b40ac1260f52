"""The host screen records a phone-less player's vote — through the real companion server (a
WebSocket host screen and phones, the live loop):

- it is offered exactly where the game takes a tap from that seat now (the vote's voters it still
  calls on, seed 004 §4.6 «голосуют все живые игроки»), and the vote counts as a typed `tap 10 6`
  would: the tally has it, "Waiting for" loses him;
- a vote that is not on the host screen now is refused on that screen alone and changes nothing:
  a screen a moment old, a seat that has voted or is not called, a candidate who is not one, a
  forged message at night (a night tap from the host screen would show the host who is awake);
- a seat whose phone is connected votes from his phone: the host may record his vote only when he
  confirms the phone froze, never over a vote that is in (the game's own "already voted");
- the core's refusal of a vote the host recorded is said on his screen, not on the phones.
"""

from __future__ import annotations

import asyncio
import json

from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from test_companion_pause_and_host import frames_until, host, to_the_vote

VOTES = "[companion]\nvotes = true\n"


async def nine_phones(t: Table) -> dict[int, Phone]:
    """Every seat but 10 on a phone: his battery is dead."""
    hub = t.companion.hub
    t.phones = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in range(1, 10)}
    await asyncio.gather(*(p.join() for p in t.phones.values()))
    return t.phones


def test_the_host_records_the_vote_of_a_player_without_a_phone_and_nothing_else():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL + VOTES)) as t:
            phones = await nine_phones(t)
            hub = t.companion.hub
            ws = await host(t)
            await t.to_night_one()
            await t.settle()
            # at night: nothing offered, and a forged vote is refused and never reaches the game
            assert hub.host_frame()["proxy"] is None
            t.forget()
            await ws.send(json.dumps({"t": "vote", "seat": 10, "target": 5, "epoch": hub.epoch}))
            refused = await frames_until(ws, "refused")
            assert refused["text"] == "Nothing recorded: player 10 is not being asked now."
            assert t.recorded("input", "event") == []
            await t.end_night()
            assert t.live.game.state == "speeches"
            # the speeches: nobody votes, nothing offered
            assert hub.host_frame()["proxy"] is None

        # one window for 5 and 6 (vote_call = "together"): the host's ballot has both names; where
        # the host calls them in turn it has the one being called (tests/flow/test_classic_vote_call.py)
        async with Table(parse_config(CLASSIC_DEAL + '[rules]\nvote_call = "together"\n' + VOTES)) as t:
            phones = await nine_phones(t)
            hub = t.companion.hub
            ws = await host(t)
            await to_the_vote(t)
            proxy = hub.host_frame()["proxy"]
            assert proxy["ask"] == "seat" and proxy["choices"] == [5, 6]
            rows = {r["seat"]: r for r in proxy["rows"]}
            # seat 10 first, with his words; the connected seats after, each asking to be confirmed
            assert proxy["rows"][0]["seat"] == 10 and not rows[10]["phone"]
            assert rows[10]["text"] == "Vote on behalf of player 10:"
            assert rows[3]["phone"] and rows[3]["confirm"].startswith("The phone of player 3 is connected.")
            epoch = proxy["epoch"]
            t.forget()
            # refused, each on this screen, nothing recorded: a stale screen, a non-candidate, a
            # yes/no answer to a seat ballot, a connected phone without the host's confirmation
            for msg, text in (
                ({"seat": 10, "target": 5, "epoch": epoch - 1}, "Nothing recorded: player 10 is not being asked now."),
                ({"seat": 10, "target": 7, "epoch": epoch}, "Nothing recorded for player 10: that is not a button of this vote."),
                ({"seat": 10, "answer": True, "epoch": epoch}, "Nothing recorded for player 10: that is not a button of this vote."),
                ({"seat": 11, "target": 5, "epoch": epoch}, "Nothing recorded: player 11 is not being asked now."),
                ({"seat": 3, "target": 5, "epoch": epoch},
                 "Nothing recorded: the phone of player 3 is connected. Confirm first that it froze."),
            ):
                await ws.send(json.dumps({"t": "vote", **msg}))
                assert (await frames_until(ws, "refused"))["text"] == text
            await t.settle()
            assert t.recorded("input", "event") == []
            # seat 10's vote, as `tap 10 6` at the console: counted, and he is no more waited for
            await ws.send(json.dumps({"t": "vote", "seat": 10, "target": 6, "epoch": epoch}))
            await until(lambda: t.live.game.votes.get(10) == 6, what="seat 10's vote")
            assert t.recorded("input", "event")[-1] == ({"type": "tap", "seat": 10, "target": 6},)
            frame = hub.host_frame()
            assert 10 not in [s for s, _ in frame["awaiting_votes"]["seats"]]
            assert 10 not in [r["seat"] for r in frame["proxy"]["rows"]]
            # a second vote for him: not offered any more, refused, the first one stands
            await ws.send(json.dumps({"t": "vote", "seat": 10, "target": 5, "epoch": epoch}))
            assert (await frames_until(ws, "refused"))["text"] == "Nothing recorded: player 10 is not being asked now."
            # seat 3's phone froze: confirmed, the host records it; his phone shows it as his vote
            await ws.send(json.dumps({"t": "vote", "seat": 3, "target": 5, "epoch": epoch, "confirmed": True}))
            await until(lambda: t.live.game.votes.get(3) == 5, what="seat 3's vote")
            await until(lambda: any(f["t"] == "note" and f.get("chosen") == "5" for _, f, _ in phones[3].frames),
                        what="seat 3's phone showing the vote")
            # seat 4 votes on his phone; the host's vote for him, sent from the screen he still had,
            # is refused on the host's screen, never over the vote that is in
            assert (await phones[4].tap(6))["ok"]
            await ws.send(json.dumps({"t": "vote", "seat": 4, "target": 5, "epoch": epoch, "confirmed": True}))
            assert (await frames_until(ws, "refused"))["text"] == "Nothing recorded: player 4 is not being asked now."
            assert t.live.game.votes[4] == 6

    asyncio.run(main())


def test_a_host_vote_the_game_refuses_is_said_on_his_screen_not_on_the_phones():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL + VOTES)) as t:
            phones = await nine_phones(t)
            hub = t.companion.hub
            ws = await host(t)
            await to_the_vote(t)
            epoch = hub.host_frame()["proxy"]["epoch"]
            caption = phones[1].screen["caption"]
            # the console takes seat 10's vote in the same instant: the host's comes second, and the
            # game says no as it does to a second `tap` — to this host, the table's screens unchanged
            t.live.submit_line("tap 10 5")
            await ws.send(json.dumps({"t": "vote", "seat": 10, "target": 6, "epoch": epoch}))
            refused = await frames_until(ws, "refused")
            assert "10" in refused["text"]
            await t.settle()
            assert t.live.game.votes[10] == 5
            assert phones[1].screen["caption"] == caption

    asyncio.run(main())


def test_a_dying_kamikaze_without_a_phone_names_his_companion_on_the_host_screen():
    """seed 001: the kamikaze who leaves the game names who dies with him — his own act, on the
    phones with or without phone votes: without a phone, the host records it for him alone."""
    from narrator.flow.events import EndSpeech, Nominate, Tap

    async def main():
        roles = '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector", 6 = "kamikaze_citizen"'
        cfg = ('variant = "hungariq"\nlanguage = "en"\nseats = 10\n[roles]\nkamikaze_citizen = 1\n'
               f"[dealing]\nroles = {{ {roles} }}\n")
        async with Table(parse_config(cfg)) as t:
            hub = t.companion.hub
            t.phones = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in range(1, 11) if s != 6}
            await asyncio.gather(*(p.join() for p in t.phones.values()))
            ws = await host(t)
            await t.to_first_day()
            t.live.submit_event(Nominate(6, by=5))
            await t.settle()
            # without phone votes the support vote is the console's and the voice's: nothing offered
            assert hub.host_frame()["proxy"] is None
            for s in range(1, 11):
                t.live.submit_event(Tap(s, answer=True))
            t.live.submit_event(EndSpeech())
            t.live.submit_event(EndSpeech())
            for s in range(1, 11):
                t.live.submit_event(Tap(s, answer=True))
            await until(lambda: t.live.game.state == "kamikaze", what="the kamikaze's choice")
            await t.settle()
            proxy = hub.host_frame()["proxy"]
            assert [r["seat"] for r in proxy["rows"]] == [6]
            assert proxy["rows"][0]["text"] == "Player 6 names who dies with them:"
            assert proxy["ask"] == "seat" and 2 in proxy["choices"] and 6 not in proxy["choices"]
            await ws.send(json.dumps({"t": "vote", "seat": 5, "target": 2, "epoch": proxy["epoch"]}))
            assert (await frames_until(ws, "refused"))["text"] == "Nothing recorded: player 5 is not being asked now."
            await ws.send(json.dumps({"t": "vote", "seat": 6, "target": 2, "epoch": proxy["epoch"]}))
            await until(lambda: t.recorded("kamikaze", "by", "seat") == [(6, 2)], what="his choice")
            assert 2 not in t.live.game.alive

    asyncio.run(main())
