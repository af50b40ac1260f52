"""grundregeln with `manner_of_death = true` on the phones (seed 003): the mafia choose the manner
from a list, and every phone — awake or asleep — shows the same list, the same frames at the
same moments; the narrator announces the mafia's choice in the morning."""

from __future__ import annotations

import asyncio

from narrator.companion.testing import Table, until
from narrator.config import parse_config

CONFIG = ('variant = "grundregeln"\nlanguage = "en"\nseats = 10\n[rules]\nmanner_of_death = true\n'
          '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "mafia" }\n')


def test_the_mafia_choose_the_manner_on_their_phones_and_every_phone_sees_the_same_night():
    async def main():
        async with Table(parse_config(CONFIG)) as t:
            phones = await t.join_all()
            hub = t.companion.hub
            t.deal()
            await until(lambda: t.live.game.state == "night" and t.live.game.step is not None)
            # a tap carries the screen it was made on: every phone must have the kill's screen first
            await until(lambda: all((p.screen or {}).get("ask") == "seat" for p in phones.values()), what="the kill's screen")
            start = len(hub.sent)
            # the kill: the mafia on 9, everybody else taps some seat as cover
            await asyncio.gather(*(p.tap(9 if s in (1, 2, 3) else (s % 10) + 1) for s, p in phones.items()))
            t.live.fire()
            await t.settle()
            assert t.live.game.step.name == "mafia_chooses_manner"
            screens = {s: p.screen for s, p in phones.items()}
            assert all(sc["ask"] == "manner" and sc["choices"] == list(range(1, 9)) for sc in screens.values())
            assert screens[1]["choice_names"]["5"] == "strangled with a silk scarf"
            assert all({k: v for k, v in sc.items() if k not in ("you", "pad")} == {k: v for k, v in screens[5].items() if k not in ("you", "pad")}
                       for sc in screens.values())
            acks = await asyncio.gather(*(p.tap(5 if s in (1, 2, 3) else (s % 8) + 1) for s, p in phones.items()))
            t.live.fire()
            await t.settle()
            assert acks[0]["text"] == "Your victim will be found strangled with a silk scarf."
            assert all("victim" not in a["text"] for s, a in zip(phones, acks) if s not in (1, 2, 3))
            seats = {}
            for f in hub.sent[start:]:
                seats.setdefault(f.seat, []).append((f.type, f.size, f.batch if f.type != "ack" else None))
            assert all(frames == seats[5] for frames in seats.values()), "a phone received a different night"
            await until(lambda: t.live.game.state == "discussion")
            assert t.recorded("eliminated", "seat") == [(9,)]
            assert ("manner", 5) in [(e["type"], e.get("manner")) for e in t.records if e["type"] == "manner"]

    asyncio.run(main())
