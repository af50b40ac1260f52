"""Every rule system on the phones: a Swedish hand vote, a HungarIQ support and execution vote, a
German pointing vote and its tie-break by the last dead, and a dying kamikaze's choice — all
through the real hub, refused and accepted exactly as the core's rules say."""

from __future__ import annotations

import asyncio

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate, Tap


def table(variant: str, roles: str, extra: str = "") -> Table:
    return Table(parse_config(f'variant = "{variant}"\nlanguage = "en"\nseats = 10\n[dealing]\nroles = {{ {roles} }}\n{extra}'))


PHONE_VOTES = "[companion]\nvotes = true\n"


def test_a_swedish_hand_vote_counts_only_the_hands_for_the_name_being_called():
    async def main():
        async with table("sverige", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"', PHONE_VOTES) as t:
            phones = await t.join_all()
            await t.to_first_day()
            await t.to_hand_vote((7, 3), (8, 5))
            await until(lambda: phones[1].screen["state"] == "hand_vote")
            assert phones[1].screen["choices"] == [7], "one name at a time"
            assert "Voting on player 7" in phones[1].screen["phase"]
            for s in (1, 2, 3):
                assert (await phones[s].tap(7))["ok"]
            early = await phones[4].tap(8)
            assert not early["ok"], "8 is not called yet"
            t.live.fire()  # the hands for 7 are counted; 8 is called
            await until(lambda: phones[4].screen["choices"] == [8])
            # seed 000: one vote per player per day — a hand that went up for 7 has no button for 8,
            # and its phone says on whom it went up; a player who has not voted gets the button
            await until(lambda: phones[1].screen["voted"], what="seat 1's spent vote")
            assert phones[1].screen["voted"] == "You voted for player 7."
            assert phones[1].screen["ask"] is None and phones[1].screen["choices"] == []
            assert (phones[4].screen["ask"], phones[4].screen["voted"]) == ("seat", None)
            late = await phones[4].tap(7)
            assert not late["ok"], "a stale screen: the hands for 7 are counted"
            assert not (await phones[1].tap(8))["ok"], "one vote per player per day (a stale page's tap)"
            for s in (4, 5, 6, 9):
                assert (await phones[s].tap(8))["ok"]
            t.live.fire()
            await t.settle()
            assert t.recorded("vote", "voter", "seat") == [(1, 7), (2, 7), (3, 7), (4, 8), (5, 8), (6, 8), (9, 8)]
            assert 8 not in t.live.game.alive

    asyncio.run(main())


def test_hungariq_support_and_execution_votes_are_yes_or_no_on_the_phones():
    async def main():
        async with table("hungariq", '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"', PHONE_VOTES) as t:
            phones = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(2, by=5))
            await until(lambda: phones[1].screen["state"] == "support_vote")
            assert (phones[1].screen["ask"], phones[1].screen["choices"]) == ("yes_no", [])
            for s in range(1, 11):
                assert (await phones[s].tap(answer=s >= 4))["ok"]
            await until(lambda: t.live.game.state == "debate")
            t.live.submit_event(EndSpeech())  # the discussion ends
            t.live.submit_event(EndSpeech())  # the accused's last word ends
            await until(lambda: phones[1].screen["state"] == "execution_vote")
            assert (await phones[6].tap(answer=True))["ok"]
            again = await phones[6].tap(answer=False)
            assert not again["ok"] and "already voted" in again["text"]
            for s in (4, 5, 7, 8, 9, 10):
                await phones[s].tap(answer=True)
            t.live.fire()
            await t.settle()
            rounds = t.recorded("vote_result", "round", "yes", "passed")
            assert rounds == [("support_vote", 7, True), ("execution_vote", 7, True)]
            assert 2 not in t.live.game.alive

    asyncio.run(main())


def test_grundregeln_pointing_and_a_tie_decided_from_the_last_dead_players_phone_only():
    async def main():
        async with table("grundregeln", '1 = "mafia", 2 = "mafia", 3 = "mafia"', PHONE_VOTES) as t:
            phones = await t.join_all()
            t.deal()
            await until(lambda: phones[1].screen["step"] == "mafia_kills")
            for s in (1, 2, 3):
                await phones[s].tap(10)
            await t.run_clock_until(lambda: t.live.game.state == "discussion")
            assert 10 not in t.live.game.alive
            t.live.submit_event(EndSpeech())
            await until(lambda: phones[1].screen["state"] == "pointing")
            assert phones[1].screen["choices"] == list(range(1, 10))
            await until(lambda: phones[10].screen["state"] == "pointing")
            assert phones[10].screen["ask"] is None, "the dead get no buttons"
            dead = await phones[10].tap(4)
            assert not dead["ok"] and t.companion.hub.refused[-1] == ("dead seat", 10)
            # seed 003: «zeigt … auf einen Mitspieler» — his own button is there, in its place, but
            # cannot be tapped; every other living phone's grid has the same nine buttons
            for s in range(1, 10):
                assert phones[s].screen["choices"] == list(range(1, 10)) and phones[s].screen["barred"] == [s]
            # a tap forged for his own seat is still refused by the rules, and counts nothing
            refused = await phones[4].tap(4)
            assert not refused["ok"], "nobody points at himself"
            # the rules refuse it as pointing, as seed 003 words it, not as a nomination
            assert refused["text"] == t.live.voice.render("reject_point_self", {}), refused
            assert t.live.game.votes == {}
            pointing = {1: 4, 2: 4, 3: 4, 4: 5, 5: 4, 6: 5, 7: 5, 8: 5, 9: 6}
            for s, target in pointing.items():
                assert (await phones[s].tap(target))["ok"]
            await until(lambda: t.live.game.state == "defences")
            assert t.live.game.nominees == [4, 5]
            await t.end_speeches(("defences",))
            await until(lambda: phones[1].screen["state"] == "final_vote")
            # in the final vote a nominee may vote against himself: nothing is barred there
            assert all(phones[s].screen["barred"] == [] for s in range(1, 10))
            for s, target in {1: 4, 2: 4, 3: 5, 6: 5}.items():
                await phones[s].tap(target)
            t.live.fire()  # 2 to 2: the player who died last decides
            await until(lambda: phones[10].screen["state"] == "tie_break")
            assert "player 10, who died last, decides" in phones[10].screen["phase"]
            assert phones[10].screen["choices"] == [4, 5] and phones[10].screen["ask"] == "seat"
            await until(lambda: phones[6].screen["state"] == "tie_break")
            assert phones[6].screen["ask"] is None, "the rules call on the last dead alone"
            assert not (await phones[6].tap(5))["ok"], "only the last dead decides"
            assert t.live.game.state == "tie_break"
            deciding = phones[10].screen["epoch"]
            decided = await phones[10].tap(5)
            # he decided, he did not vote ("Your vote: 5")
            assert decided["ok"] and decided["text"] == "You decided: player 5 is lynched.", decided
            # the lynch ends the day (seed 003: no last words): the answer is the tie-break screen's,
            # which his page drops, so his night screen is the same as every other phone's
            await until(lambda: phones[10].screen["state"] == "night")
            assert decided["epoch"] == deciding != phones[10].screen["epoch"]
            await t.settle()
            assert t.recorded("tie_break", "by", "seat") == [(10, 5)]
            assert 5 not in t.live.game.alive

    asyncio.run(main())


def test_a_dying_kamikaze_names_his_companion_from_his_own_phone():
    async def main():
        roles = '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector", 6 = "kamikaze_citizen"'
        async with table("hungariq", roles, "[roles]\nkamikaze_citizen = 1\n") as t:
            phones = await t.join_all()  # without phone votes: his choice is his own act, not a vote
            await t.to_first_day()
            t.live.submit_event(Nominate(6, by=5))
            for s in range(1, 11):
                t.live.submit_event(Tap(s, answer=True))
            t.live.submit_event(EndSpeech())
            t.live.submit_event(EndSpeech())
            for s in range(1, 11):
                t.live.submit_event(Tap(s, answer=True))
            await until(lambda: phones[6].screen["state"] == "kamikaze")
            screen = phones[6].screen
            assert screen["ask"] == "seat" and 6 not in screen["choices"] and 2 in screen["choices"]
            assert screen["phase"].startswith("Player 6 was a kamikaze")
            await until(lambda: phones[5].screen["state"] == "kamikaze")
            assert phones[5].screen["ask"] is None, "his choice is on his phone only"
            other = await phones[5].tap(2)
            assert not other["ok"] and other["text"] == "Only the dying kamikaze names a player now."
            assert (await phones[6].tap(2))["ok"]
            await t.settle()
            assert t.recorded("kamikaze", "by", "seat") == [(6, 2)]
            assert 2 not in t.live.game.alive

    asyncio.run(main())


def test_at_the_end_the_phones_show_the_winner_as_the_narrator_announced_it_and_every_role():
    async def main():
        cfg = 'variant = "grundregeln"\nlanguage = "de"\nseats = 4\n[roles]\nmafia = 1\n[dealing]\nroles = { 1 = "mafia" }\n'
        async with Table(parse_config(cfg)) as t:
            phones = await t.join_all()
            t.deal()
            await until(lambda: t.live.game.state == "night")
            t.live.submit_event(Tap(1, 4))
            await t.settle()
            await t.run_clock_until(lambda: t.live.game.state == "discussion")
            t.live.submit_event(EndSpeech())
            for voter, target in ((1, 2), (2, 1), (3, 1)):
                t.live.submit_event(Tap(voter, target))
            await t.settle()
            await t.run_clock_until(lambda: t.live.game.state == "final_vote")
            for voter, target in ((1, 2), (2, 1), (3, 1)):
                t.live.submit_event(Tap(voter, target))
            await until(lambda: phones[2].screen["state"] == "over")
            screen = phones[2].screen
            said = t.live.voice.render("good_wins", {}) + " " + t.live.voice.render("reveal_mafia", {"seats": [1], "n": 1})
            assert screen["phase"] == "Das Spiel ist vorbei. " + said
            # in a list of seats the role is named as in the game report ("1: Mafioso"), not in the
            # narrator's sentence form ("ein Mafioso")
            assert screen["role_names"]["1"] == "Mafioso"

    asyncio.run(main())


def test_physical_cards_are_identified_from_the_phones_and_each_phone_then_learns_its_role():
    # issue 4: players draw real cards; at night zero the phones identify them ("Don, tap your own
    # seat"), and every phone taps at every step so the taps betray nothing
    async def main():
        cfg = parse_config('variant = "classic"\nlanguage = "en"\n[dealing]\nmode = "cards"\n')
        async with Table(cfg) as t:
            phones = await t.join_all()
            t.deal()
            await until(lambda: t.live.game.step is not None and t.live.game.step.name == "identify_don")
            assert all(p.role is None for p in phones.values()), "no role before the cards are shown"
            claims = {"identify_don": [5], "identify_mafia": [6, 7], "identify_sheriff": [2]}
            for step, owners in claims.items():
                await until(lambda: t.live.game.step is not None and t.live.game.step.name == step, what=step)
                for s, phone in phones.items():
                    # the card holders tap their own seat; everybody else taps some other seat
                    await phone.tap(s if s in owners else (s % 10) + 1)
                t.live.fire()
                await t.settle()
            await until(lambda: t.live.game.cards_recorded, what="the cards deal")
            assert [t.live.game.role(s) for s in (5, 6, 7, 2, 1)] == ["don", "mafia", "mafia", "sheriff", "citizen"]
            assert t.recorded("card_shown", "seat", "role") == [(5, "don"), (6, "mafia"), (7, "mafia"), (2, "sheriff")]
            await until(lambda: phones[5].role == "don" and phones[1].role == "citizen", what="the roles on the phones")

    asyncio.run(main())
