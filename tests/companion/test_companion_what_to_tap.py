"""A phone tells its player to tap only what its screen shows, and a vote's answer says what the
game counted — through the real companion server (protocol phones, a WebSocket host screen).

- seed 000 Tid: when the day's time is up the living may ask for the extension on their phones
  («Dag: säg ”tidstillägg” eller tryck på knappen.» over its button); a dead player's phone has no
  button and read the same «… tryck på knappen»: it reads what the table is doing instead, and so
  does every phone while a pause greys the button;
- a vote on the phones: a player the ballot does not call on (hungariq's accused, seed 001) reads
  what the table votes on, not the question put to the voters («Támogatod a vádat?») over no button;
- a player who tapped Ready reads that the table waits for the others, not "then tap Ready";
- a phone and the host recording the same seat's vote in the same instant (seed 004 §4.6: one vote
  a player): the phone reads the vote the game recorded and who recorded it — "Your vote: 5" or
  "The host recorded your vote: 5", its button marked — never a bare "Your vote is in." after the
  answer wait, nor "already voted" under a vote it never showed; the answer keeps the size of
  every answer frame.
"""

from __future__ import annotations

import asyncio
import json
import re

from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from narrator.flow.events import Nominate, Tap
from test_companion_names_and_extension import hang_six_by_hands, sverige
from test_companion_pause_and_host import frames_until, host, to_the_vote

# the words that tell a reader to tap or press, in each table language
TAP_WORDS = {"en": r"\b(tap|taps|press)\b", "sv": r"\btryck", "hu": r"koppint|\bnyom", "de": r"\btipp|\bdrück",
             "ru": r"нажм|выбер"}


def tells_to_tap(lang: str, text: str) -> bool:
    return re.search(TAP_WORDS[lang], text, re.I) is not None


def test_a_dead_swedes_phone_at_the_extension_question_reads_no_button_it_does_not_have():
    async def main():
        async with sverige() as t:
            phones = await t.join_all()
            await t.to_first_day()
            await hang_six_by_hands(t)
            await t.end_night()
            assert 6 not in t.live.game.alive
            t.live.fire()
            await until(lambda: t.live.game.public_view()["timer"] == "extension_offer", what="day 2's question")
            await t.settle()
            await until(lambda: phones[6].screen["caption"].startswith("Tiden är ute"), what="the question")
            for s, p in phones.items():
                has_button = p.screen["ask"] == "extension"
                assert has_button == (s in t.live.game.alive), s
                # a line that says "tryck" stands over a button; the dead read what the table does
                assert tells_to_tap("sv", p.screen["phase"]) == has_button, (s, p.screen["phase"])
            assert phones[6].screen["phase"] == "Tiden är ute: bordet tillfrågas om någon vill ha tidstillägget"
            # a pause greys every button: no phone tells its player to tap it, and the host reads
            # to tap Resume, the one button his screen shows
            ws = await host(t)
            await ws.send(json.dumps({"t": "pause"}))
            await until(lambda: all(p.screen["paused"] for p in phones.values()), what="the paused screens")
            for s, p in phones.items():
                assert not tells_to_tap("sv", p.screen["phase"]), (s, p.screen["phase"])
            frame = t.companion.hub.host_frame()
            assert frame["controls"] == ["resume", "reissue"] and "Fortsätt" in frame["awaiting"]
            await ws.send(json.dumps({"t": "resume"}))
            await until(lambda: not phones[7].screen["paused"], what="the resume")
            assert phones[7].screen["phase"] == "Dag: säg ”tidstillägg” eller tryck på knappen."
            await ws.close()

    asyncio.run(main())


def test_a_player_the_vote_does_not_call_on_reads_what_the_table_votes_on():
    """seed 001: day 1 executes player 6; on day 2 the living vote on the accusation, and his
    phone, with no button, reads what the table does, the voters the question."""
    async def main():
        cfg = ('variant = "hungariq"\nlanguage = "hu"\nseats = 10\n'
               '[dealing]\nroles = { 1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector" }\n'
               "[companion]\nvotes = true\n")
        async with Table(parse_config(cfg)) as t:
            phones = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(6, by=5))
            await until(lambda: t.live.game.state == "support_vote", what="the support vote")
            for s in range(1, 11):
                t.live.submit_event(Tap(s, answer=True))
            await until(lambda: t.live.game.state != "support_vote", what="the debate")
            while t.live.game.state != "execution_vote":
                t.live.fire()
                await t.settle()
            for s in range(1, 11):
                t.live.submit_event(Tap(s, answer=True))
            await t.settle()
            while t.live.game.state != "night":
                t.live.fire()
                await t.settle()
            await t.end_night()
            assert 6 not in t.live.game.alive
            t.live.submit_event(Nominate(7, by=5))
            await until(lambda: t.live.game.state == "support_vote", what="day 2's support vote")
            await t.settle()
            called = set(t.live.game.awaiting()[1]["seats"])
            assert called and 6 not in called
            for s, p in phones.items():
                assert (p.screen["ask"] is not None) == (s in called), s
                if s in called:
                    assert p.screen["phase"].startswith("Támogatod a vádat?"), p.screen["phase"]
                else:
                    assert p.screen["phase"] == t.companion.hub.phase_text(host=True), (s, p.screen["phase"])
                    assert "?" not in p.screen["phase"]

    asyncio.run(main())


def test_a_player_who_tapped_ready_is_not_told_to_tap_it():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            phones = await t.join_all()
            hub = t.companion.hub
            dealing = asyncio.create_task(t.companion.deal_when_ready([t.live.session.dealing_event()]))
            await until(lambda: all(p.screen and p.screen["ask"] == "ready" for p in phones.values()), what="the deal")
            assert tells_to_tap("en", phones[3].screen["phase"])
            await phones[3].send({"t": "ready"})
            await until(lambda: phones[3].screen["ready"] == [3], what="seat 3 ready")
            assert phones[3].screen["phase"] == hub.word("dealt_ready")
            assert not tells_to_tap("en", phones[3].screen["phase"])
            assert tells_to_tap("en", phones[4].screen["phase"])  # he still has his button
            for p in phones.values():
                await p.send({"t": "ready"})
            await asyncio.wait_for(dealing, 10)

    asyncio.run(main())


async def nine_and_host(t: Table):
    hub = t.companion.hub
    t.phones = {s: Phone(t.ws_url, hub.seat_tokens[s]) for s in range(1, 11)}
    await asyncio.gather(*(p.join() for p in t.phones.values()))
    ws = await host(t)
    await to_the_vote(t)
    return t.phones, ws, hub.host_frame()["proxy"]["epoch"]


def test_a_phone_and_the_host_voting_in_the_same_instant_read_what_the_game_recorded():
    """seed 004 §4.6: one vote a player. Seat 4's phone froze (the host confirms it) and came back
    in the same instant: both send his vote. The game counts the first; his phone reads that
    one, in the same answer frame size, never a bare "Your vote is in." nor "already voted"."""
    async def race(host_first: bool, phone_target: int):
        async with Table(parse_config(CLASSIC_DEAL + "[companion]\nvotes = true\n")) as t:
            phones, ws, epoch = await nine_and_host(t)
            hub = t.companion.hub
            host_vote = json.dumps({"t": "vote", "seat": 4, "target": 5, "epoch": epoch, "confirmed": True})
            if host_first:
                await ws.send(host_vote)
                tap = asyncio.create_task(phones[4].tap(phone_target))
            else:
                tap = asyncio.create_task(phones[4].tap(phone_target))
                await asyncio.sleep(0)
                await ws.send(host_vote)
            ack = await tap
            await t.settle()
            counted = t.live.game.votes[4]
            size = next(n for _, f, n in reversed(phones[4].frames) if f["t"] == "ack")
            assert size == hub.answer_size
            by_host = not (counted == phone_target and not (host_first and phone_target == 5))
            # the vote that counts is said once, in the line above the table, and whose it was
            mine = f"You voted for player {counted}." + (" The host recorded it for you." if by_host else "")
            await until(lambda: phones[4].screen["voted"] == mine, what=f"seat 4's line: {mine}")
            if phone_target == counted:
                assert ack["ok"] and ack["text"] == "", ack  # the line above says it; the box not again
            else:
                # his tap was not his vote: the answer to it says why
                assert not ack["ok"] and ack["text"] == f"The host recorded your vote: {counted}", ack
                assert ack["chosen"] == str(counted)  # the page marks the vote that counts
            assert "already voted" not in ack["text"] and ack["text"] != "Your vote is in."
            # a reload shows the same
            again = Phone(t.ws_url, "")
            again.key = phones[4].key
            await phones[4].close()
            await again.join()
            await until(lambda: any(f["t"] == "note" for _, f, _ in again.frames), what="the note")
            note = next(f for _, f, _ in again.frames if f["t"] == "note")
            assert note["chosen"] == str(counted) and note["text"] == "" and again.screen["voted"] == mine
            await again.close()
            await ws.close()
            return counted

    async def main():
        for host_first in (True, False):
            for target in (5, 6):
                await race(host_first, target)

    asyncio.run(main())


def test_the_console_s_vote_for_a_phone_is_said_as_the_hosts():
    # one window for both names (vote_call = "together"), so the phone has the other name to tap
    async def main():
        async with Table(parse_config(CLASSIC_DEAL + '[rules]\nvote_call = "together"\n[companion]\nvotes = true\n')) as t:
            phones, ws, epoch = await nine_and_host(t)
            t.live.submit_event(Tap(7, 6))
            await until(lambda: any(f["t"] == "note" and f.get("chosen") == "6" for _, f, _ in phones[7].frames),
                        what="seat 7's phone showing the vote")
            note = next(f for _, f, _ in phones[7].frames if f["t"] == "note" and f.get("chosen") == "6")
            assert note["text"] == ""  # said once, in the line above the table:
            await until(lambda: phones[7].screen["voted"] == "You voted for player 6. The host recorded it for you.")
            # his own tap on the other name afterwards: the vote that stands, the refusal under it
            ack = await phones[7].tap(5)
            assert not ack["ok"] and ack["text"] == "The host recorded your vote: 6"
            assert t.live.game.votes[7] == 6
            await ws.close()

    asyncio.run(main())
