"""Through the real companion server (WebSocket phones, the live loop):

- the players' names of the config's [players] reach every phone and the host screen — the same
  on every phone, as typed (markup and placeholders are text), beside the numbers in the list of
  nominees — and a night frame is still the same size on every phone, whoever is awake;
- a Swedish day's time extension (seed 000 Tid: «spelledaren ska när tiden är slut fråga om
  någon i gruppen - vem som helst - vill använda ett av tidstilläggen … Endast ett tidstillägg
  per dag»): while the narrator asks, every phone says so and a living player's phone can ask for
  it; two phones asking at once ask once, with no refusal said to the table; a dead player's
  phone has no button and its tap changes nothing.
"""

from __future__ import annotations

import asyncio

from narrator.companion.testing import Phone, Table, until
from narrator.config import parse_config
from narrator.flow.events import Nominate, Tap

NAMES = {1: "<b>Ann</b>", 2: "{seat}", 7: "Åsa-Maria Lindqvist-Bergström", 9: "Zsófi"}
PLAYERS = "[players]\n" + "".join(f"{s} = '{n}'\n" for s, n in NAMES.items())


def sverige(extra: str = "") -> Table:
    return Table(parse_config(
        'variant = "sverige"\nlanguage = "sv"\nseats = 10\n'
        '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n' + extra))


async def to_the_question(t: Table) -> None:
    """Night zero, then the free day runs out: the narrator asks about the extension."""
    await t.to_first_day()
    assert t.live.game.state == "discussion"
    t.live.fire()
    await until(lambda: t.live.game.public_view()["timer"] == "extension_offer", what="the question")
    await t.settle()


async def hang_six_by_hands(t: Table) -> None:
    """Day 1: 3 nominates 6, five hands (typed at the console) hang him, and night 1 falls."""
    t.live.submit_event(Nominate(6, by=3))
    while t.live.game.state != "hand_vote":
        t.live.fire()
        await t.settle()
    for s in (3, 4, 5, 7, 8):
        t.live.submit_event(Tap(s, 6))
    await t.settle()
    while t.live.game.state != "night":
        t.live.fire()
        await t.settle()


def test_every_phone_gets_the_names_as_typed_and_the_nominees_with_their_names():
    async def main():
        async with sverige(PLAYERS) as t:
            phones = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(7, by=3))
            t.live.submit_event(Nominate(1, by=4))
            await until(lambda: phones[5].screen["nominations"] == [7, 1], what="the nominations")
            for seat, phone in phones.items():
                assert phone.screen["names"] == {str(s): n for s, n in NAMES.items()}, seat
                assert phone.screen["you"] == seat
            assert phones[5].screen["nominees_text"] == "Nominerade: 7 (Åsa-Maria Lindqvist-Bergström), 1 (<b>Ann</b>)"
            assert t.companion.hub.host_frame()["names"]["2"] == "{seat}"

    asyncio.run(main())


def test_a_table_without_names_gets_none_and_its_nominees_by_number():
    async def main():
        async with sverige() as t:
            phones = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(7, by=3))
            await until(lambda: phones[5].screen["nominations"] == [7], what="the nomination")
            assert phones[5].screen["names"] == {}
            assert phones[5].screen["nominees_text"] == "Nominerade: 7"

    asyncio.run(main())


def test_with_names_every_night_frame_is_still_the_same_size_on_every_phone():
    async def main():
        async with sverige(PLAYERS) as t:
            phones = await t.join_all()
            hub = t.companion.hub
            await t.to_first_day()
            t.live.submit_event(Nominate(2, by=3))
            while t.live.game.state != "hand_vote":  # the day, its question, the last call, the speech
                t.live.fire()
                await t.settle()
            for s in range(3, 11):
                t.live.submit_event(Tap(s, 2))
            await t.settle()
            while t.live.game.state != "night":
                t.live.fire()
                await t.settle()
            assert 2 not in t.live.game.alive
            start = len(hub.sent)
            # night 1: the mafia (1) shoots 10, the doctor (3) and the sheriff (4) choose, everyone taps
            real = {"mafia_kills": {1: 10}, "doctor_saves": {3: 5}, "sheriff_team": {4: 1}}
            while t.live.game.state == "night":
                step = t.live.game.step.name
                # the dead seat 2 taps too: every phone taps at every step
                await asyncio.gather(*(p.tap(real.get(step, {}).get(s, 7)) for s, p in phones.items()))
                t.live.fire()
                await t.settle()
            sizes: dict[int, list] = {}
            for f in hub.sent[start:]:
                sizes.setdefault(f.seat, []).append((f.type, f.size))
            assert len({tuple(v) for v in sizes.values()}) == 1, "every phone got the same frames, the same size"

    asyncio.run(main())


def test_the_swedish_extension_question_is_on_every_phone_and_a_living_player_asks_for_it():
    async def main():
        async with sverige() as t:
            phones = await t.join_all()
            hub = t.companion.hub
            await to_the_question(t)
            # the question once: the narrator's words in the caption, the heading says where the day
            # is and how to answer (the question in both read it twice on a small phone)
            heading = "Dag: säg ”tidstillägg” eller tryck på knappen."
            await until(lambda: phones[10].screen["phase"] == heading, what="the question on the phones")
            for phone in phones.values():
                assert phone.screen["phase"] == heading
                assert (phone.screen["ask"], phone.screen["choices"]) == ("extension", [])
                assert phone.screen["caption"] == "Tiden är ute. Vill någon använda tidstillägget?"
                assert "?" not in phone.screen["phase"]
            # the host asks nobody: his screen says what the table is asked
            assert hub.host_frame()["phase"] == "Tiden är ute: bordet tillfrågas om någon vill ha tidstillägget"
            question_screen = phones[5].screen["epoch"]
            # two players tap at once: the extension is asked for once, and nobody hears a refusal
            first, second = await asyncio.gather(phones[5].tap(answer=True), phones[8].tap(answer=True))
            assert first["ok"] and second["ok"]
            assert first["text"] == second["text"] == "Du har begärt tidstillägget."
            # each asker reads it on the screen his request led to: the extension's screen was on his
            # phone before the answer (a page drops an answer for a screen it no longer shows)
            for seat, answer in ((5, first), (8, second)):
                screens = [f for _, f, _ in phones[seat].frames if f["t"] in ("screen", "ack")]
                ack = next(i for i, f in enumerate(screens) if f is answer)
                assert screens[ack - 1]["t"] == "screen" and screens[ack - 1]["phase"] == "Dag: diskussion (tidstillägg)"
                assert answer["epoch"] == screens[ack - 1]["epoch"] != question_screen
            await t.settle()
            assert t.recorded("extension", "day") == [(1,)]
            assert not t.recorded("rejected", "event"), "no «already used» said to the table"
            # the others read what happened: the narrator's words, and the day's phase
            await until(lambda: phones[1].screen["phase"] == "Dag: diskussion (tidstillägg)", what="the extension")
            assert phones[1].screen["caption"] == "Tidstillägg: 3 minuter till."
            assert phones[1].screen["ask"] is None
            assert t.live.game.public_view()["timer"] == "extension"
            # a slow phone's tap on the question, arriving after the extension was granted: met, not "too late"
            phones[9].n += 1
            await phones[9].send({"t": "tap", "seat": 9, "n": phones[9].n, "epoch": question_screen, "answer": True})
            late = await asyncio.wait_for(phones[9]._acks.get(), 5)
            assert late["ok"] and late["text"] == "Du har begärt tidstillägget."
            assert late["epoch"] == phones[9].screen["epoch"]
            assert t.recorded("extension", "day") == [(1,)], "asked once"
            # a reload while the extension runs: his answer is still there (it stands for this screen)
            await phones[5].close()
            again = Phone(t.ws_url, "")
            again.key = phones[5].key
            await again.join()
            await until(lambda: any(f["t"] == "note" for _, f, _ in again.frames), what="the note after the reload")
            note = next(f for _, f, _ in again.frames if f["t"] == "note")
            assert note["text"] == "Du har begärt tidstillägget." and note["epoch"] == again.screen["epoch"]
            await again.close()
            # when it runs out there is no second question: the last call (seed 000: one per day)
            t.live.fire()
            await until(lambda: phones[1].screen["phase"] == "Sista nomineringen: nominera eller avnominera nu", what="the last call")

    asyncio.run(main())


def test_a_dead_players_phone_shows_the_question_but_cannot_ask():
    async def main():
        async with sverige() as t:
            phones = await t.join_all()
            hub = t.companion.hub
            await t.to_first_day()
            # day 1 hangs 6, night 1 passes: day 2's question
            await hang_six_by_hands(t)
            await t.end_night()
            assert 6 not in t.live.game.alive and t.live.game.day == 2
            t.live.fire()
            await until(lambda: t.live.game.public_view()["timer"] == "extension_offer", what="day 2's question")
            await until(lambda: phones[6].screen["caption"].startswith("Tiden är ute"), what="the question")
            # seed 000 Tid: the living may ask; the dead player's phone has no button, and its line
            # does not tell him to tap one — it says what the table is doing
            assert phones[6].screen["phase"] == "Tiden är ute: bordet tillfrågas om någon vill ha tidstillägget"
            assert phones[7].screen["phase"] == "Dag: säg ”tidstillägg” eller tryck på knappen."
            assert phones[6].screen["ask"] is None and phones[7].screen["ask"] == "extension"
            refused = await phones[6].tap(answer=True)
            # told on his own phone, plainly, that he is out
            assert not refused["ok"] and refused["text"] == "Du är ute ur spelet. Dina tryck räknas inte längre."
            assert hub.refused[-1] == ("dead seat", 6)
            await t.settle()
            assert t.recorded("extension", "day") == [] and t.live.game.public_view()["timer"] == "extension_offer"

    asyncio.run(main())


def test_the_swedish_dawn_stays_on_the_phones_under_the_days_first_line():
    """Seed 000: «Mornings say who died, or that there was an attempt». The phones' caption is all
    the narrator said at that moment: with its last line alone, «Dagen börjar: …» hid the news."""
    async def main():
        async with sverige(PLAYERS) as t:
            phones = await t.join_all()
            await t.to_first_day()
            await hang_six_by_hands(t)
            # night 1: the mafia (1, 2) shoot 7, whom nobody saves
            while t.live.game.state == "night":
                if t.live.game.step.name == "mafia_kills":
                    await asyncio.gather(phones[1].tap(7), phones[2].tap(7))
                t.live.fire()
                await t.settle()
            await until(lambda: phones[5].screen["day"] == 2, what="day 2")
            caption = phones[5].screen["caption"]
            assert "7 (Åsa-Maria Lindqvist-Bergström)" in caption, caption  # who died in the night
            assert caption.endswith("Dagen börjar: 10 minuter fri diskussion. Nominera när ni vill."), caption
            assert {p.screen["caption"] for p in phones.values()} == {caption}

    asyncio.run(main())
