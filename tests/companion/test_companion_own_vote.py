"""A player who voted on his phone can read on whom: his phone's own line names the vote the game
recorded for him — his tap, the host's press for him or a hand typed at the console — in every
rule system's vote, and again after the page reloads. Nobody else's phone shows it.

Seed 000 gives a Swede one vote a day: under the names called after his, he has no button, and
his phone said only «Du har redan röstat.» — a player unsure whether his tap landed could not
check. Now it says «Du röstade på spelare 7 (Ann).» (a raised hand typed as "ja" is the name that
was called), and a game resumed in the middle of the names says the same."""

from __future__ import annotations

import asyncio

from narrator.companion.testing import ManualClockSession, Phone, Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate, Tap, Timeout
from narrator.session import Session

NAMES = '[players]\n7 = "Ann"\n'


def config(variant: str, lang: str, roles: str):
    return parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n[dealing]\nroles = {{ {roles} }}\n'
                        f'[companion]\nvotes = true\n{NAMES}')


def own(phones: dict, seat: int):
    return phones[seat].screen["voted"]


async def reloaded(t: Table, phones: dict, seat: int) -> dict:
    """The seat's page loaded again (a reload, the phone closed and opened): its first screen."""
    again = Phone(t.ws_url, "")
    again.key = phones[seat].key
    await again.join()
    phones[seat] = again
    return again.screen


SV = '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"'


def test_a_swedish_voter_reads_on_whom_his_one_vote_went_under_every_later_name_and_after_a_reload():
    async def main():
        async with Table(config("sverige", "sv", SV)) as t:
            ps = await t.join_all()
            await t.to_first_day()
            await t.to_hand_vote((7, 3), (8, 5))
            await until(lambda: ps[1].screen["state"] == "hand_vote")
            assert all(own(ps, s) is None for s in ps), "nobody has voted yet"
            assert (await ps[1].tap(7))["ok"]
            t.live.submit_event(Tap(2, None, True))  # the host typed the hand he saw: "tap 2 ja"
            await until(lambda: own(ps, 1) and own(ps, 2))
            assert own(ps, 1) == "Du röstade på spelare 7 (Ann)."
            assert own(ps, 2) == "Du röstade på spelare 7 (Ann). Spelledaren registrerade din röst."
            # the raised hand the host typed is a vote for the name called: his phone marks it, and
            # says it once, in the line above (the answer box is empty, not the same news again)
            note = [f for _, f, _ in ps[2].frames if f["t"] == "note"][-1]
            assert (note["text"], note["chosen"]) == ("", "7")
            assert all(own(ps, s) is None for s in range(3, 11)), "a vote is shown on its voter's phone alone"
            t.live.fire()  # 7 counted, 8 called
            await until(lambda: ps[1].screen["choices"] == [] and ps[4].screen["choices"] == [8])
            # no button for 8 (seed 000: one vote a day), and the line says where his vote went
            for seat in (1, 2):
                assert ps[seat].screen["ask"] is None and own(ps, seat).startswith("Du röstade på spelare 7 (Ann).")
            assert own(ps, 4) is None and ps[4].screen["ask"] == "seat"
            screen = await reloaded(t, ps, 1)
            assert screen["voted"] == "Du röstade på spelare 7 (Ann).", "after a reload, the same line"
            assert (await ps[4].tap(8))["ok"]
            await until(lambda: own(ps, 4) == "Du röstade på spelare 8.")
            assert own(ps, 1) == "Du röstade på spelare 7 (Ann)."

    asyncio.run(main())


def test_a_game_resumed_in_the_middle_of_the_names_still_names_each_vote():
    """Killed while 8 was being called: the resumed phones read the votes of the names before."""
    cfg = config("sverige", "en", SV)
    probe = Session(cfg, fixed_night_steps=True)
    events = [probe.dealing_event()]
    probe.start()
    probe.feed(events[0])
    for ev in ([Timeout()] * 2 + [Nominate(7, by=3), Nominate(8, by=5)]):
        events.append(ev)
        probe.feed(ev)
    while probe.game.state != "hand_vote":
        events.append(EndSpeech() if probe.game.state == "nominee_speeches" else Timeout())
        probe.feed(events[-1])
    for ev in (Tap(1, 7), Tap(2, None, True), Timeout(), Tap(4, 8)):
        events.append(ev)
        probe.feed(ev)
    assert probe.game.ballot[probe.game.ballot_index] == 8

    class Resumed(ManualClockSession):
        def start_effects(self, replayed=None, timer_marks=None):
            return super().start_effects(replayed=events)

    async def main():
        async with Table(cfg, session_class=Resumed) as t:
            ps = await t.join_all()
            await until(lambda: all(p.screen["state"] == "hand_vote" for p in ps.values()))
            assert own(ps, 1) == own(ps, 2) == "You voted for player 7 (Ann)."
            assert own(ps, 4) == "You voted for player 8."
            assert own(ps, 5) is None and ps[5].screen["choices"] == [8]

    asyncio.run(main())


def test_hungarian_yes_and_no_are_read_as_the_vote_they_answered():
    """seed 001: the support vote and the execution vote are a yes or a no on the accused; each is
    read back as what it was («A kivégzés mellett szavaztál. Vádlott: 7 (Ann).»), on its voter's phone."""
    async def main():
        async with Table(config("hungariq", "hu", '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"')) as t:
            ps = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(7, by=5))
            await until(lambda: ps[1].screen["state"] == "support_vote")
            assert (await ps[1].tap(answer=False))["ok"]
            assert (await ps[4].tap(answer=True))["ok"]
            await until(lambda: own(ps, 1) and own(ps, 4))
            assert own(ps, 1) == "Nem támogattad a vádat. Vádlott: 7 (Ann)."
            assert own(ps, 4) == "Támogattad a vádat. Vádlott: 7 (Ann)."
            assert (await reloaded(t, ps, 4))["voted"] == "Támogattad a vádat. Vádlott: 7 (Ann)."
            for s in (2, 3, *range(5, 11)):
                assert (await ps[s].tap(answer=True))["ok"]
            await until(lambda: t.live.game.state == "debate")
            assert all(own(ps, s) is None for s in ps), "the vote is over: nothing of it stands"
            t.live.submit_event(EndSpeech())
            t.live.submit_event(EndSpeech())
            await until(lambda: ps[1].screen["state"] == "execution_vote")
            assert all(own(ps, s) is None for s in ps), "a new vote: everyone votes again"
            assert (await ps[5].tap(answer=True))["ok"]
            t.live.submit_event(Tap(6, None, False))  # the host recorded seat 6's no
            await until(lambda: own(ps, 5) and own(ps, 6))
            assert own(ps, 5) == "A kivégzés mellett szavaztál. Vádlott: 7 (Ann)."
            assert own(ps, 6) == "A kivégzés ellen szavaztál. Vádlott: 7 (Ann). A szavazatodat a játékvezető rögzítette."
            assert (await reloaded(t, ps, 6))["voted"] == "A kivégzés ellen szavaztál. Vádlott: 7 (Ann). A szavazatodat a játékvezető rögzítette."
            assert own(ps, 1) is None

    asyncio.run(main())


def test_a_classic_vote_and_its_all_leave_question_are_read_back():
    """seed 004 §4.4: a vote among the nominees, the re-vote of a tie, and "should they all leave?"."""
    async def main():
        async with Table(config("classic", "ru", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"')) as t:
            ps = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(7, by=1))
            await t.settle()
            t.live.submit_event(EndSpeech())
            t.live.submit_event(Nominate(8, by=2))
            await t.end_speeches()
            await until(lambda: ps[1].screen["state"] == "voting")
            for s in range(1, 10):
                if s == 6:
                    t.live.fire()                     # «Спасибо.» — «Кто за игрока 8?» (seed 004 §4.4)
                    await until(lambda: ps[6].screen["choices"] == [8])
                assert (await ps[s].tap(7 if s <= 5 else 8))["ok"]
                if s == 1:
                    await until(lambda: own(ps, 1))
                    assert own(ps, 1) == "Вы проголосовали за игрока 7 (Ann)." and own(ps, 2) is None
            await until(lambda: own(ps, 9) == "Вы проголосовали за игрока 8.")
            assert (await reloaded(t, ps, 9))["voted"] == "Вы проголосовали за игрока 8."
            assert (await ps[10].tap(8))["ok"]  # the last vote closes the vote: 5 : 5
            await t.run_clock_until(lambda: t.live.game.state == "revote")
            await until(lambda: ps[1].screen["state"] == "revote")
            assert all(own(ps, s) is None for s in ps), "the re-vote is a vote of its own"
            for s in range(1, 11):
                if s == 6:
                    t.live.fire()
                    await until(lambda: ps[6].screen["choices"] == [8])
                assert (await ps[s].tap(7 if s <= 5 else 8))["ok"]
            # tied again (seed 004 §4.4): should they all leave?
            await until(lambda: ps[3].screen["state"] == ps[9].screen["state"] == "all_leave_vote")
            assert (await ps[3].tap(answer=True))["ok"]
            assert (await ps[9].tap(answer=False))["ok"]
            await until(lambda: own(ps, 3) and own(ps, 9))
            assert own(ps, 3) == "Вы проголосовали за то, чтобы все покинули игру."
            assert own(ps, 9) == "Вы проголосовали за то, чтобы все остались."

    asyncio.run(main())


def test_a_german_pointing_and_the_final_vote_are_read_back():
    """seed 003: everyone points at a fellow player, then the final vote among the nominees."""
    async def main():
        async with Table(config("grundregeln", "de", '1 = "mafia", 2 = "mafia", 3 = "mafia"')) as t:
            ps = await t.join_all()
            await t.to_first_day()
            await t.run_clock_until(lambda: t.live.game.state == "pointing")
            await until(lambda: ps[1].screen["state"] == "pointing")
            assert (await ps[1].tap(7))["ok"]
            await until(lambda: own(ps, 1))
            assert own(ps, 1) == "Du hast auf Spieler 7 (Ann) gezeigt."
            assert (await reloaded(t, ps, 1))["voted"] == "Du hast auf Spieler 7 (Ann) gezeigt."
            g = t.live.game
            for s in range(2, 11):
                assert (await ps[s].tap(7 if s in (2, 3, 4, 5, 8) else 8))["ok"]
            await t.run_clock_until(lambda: g.state == "final_vote")
            await until(lambda: ps[1].screen["state"] == "final_vote")
            assert all(own(ps, s) is None for s in ps), "a new round: nobody's pointing stands for it"
            voters = [s for s in g.alive if s != 10]
            for i, s in enumerate(voters):
                assert (await ps[s].tap(g.candidates[i % 2]))["ok"]
            await until(lambda: own(ps, voters[0]))
            assert own(ps, voters[0]) == f"Du hast für Spieler {g.candidates[0]}{' (Ann)' if g.candidates[0] == 7 else ''} gestimmt."
    asyncio.run(main())


def test_a_vote_on_a_lone_nominee_reads_as_his_own_yes_or_no_not_as_they_all_leave():
    """Classic's vote on a lone nominee (seed 002, `first_day_single_nominee_vote`) is a yes or no
    on him: his phone read "You voted for them all to leave the game." under "Does player 5 leave?"
    (the words of the all-leave question, recorded without a round like it)."""

    async def main():
        cfg = parse_config('variant = "classic"\nlanguage = "en"\n[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
                           '[rules]\nfirst_day_single_nominee_vote = true\n[companion]\nvotes = true\n')
        async with Table(cfg) as t:
            phones = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(5))
            t.live.submit_event(EndSpeech())
            await t.settle()
            await t.end_speeches()
            await until(lambda: phones[3].screen["phase"] == "Does player 5 leave?")
            assert (await phones[3].tap(answer=True))["ok"] and (await phones[4].tap(answer=False))["ok"]
            await until(lambda: phones[3].screen["voted"] and phones[4].screen["voted"], what="the badges")
            assert phones[3].screen["voted"] == "You voted for player 5 to leave the game."
            assert phones[4].screen["voted"] == "You voted for player 5 to stay."

    asyncio.run(main())
