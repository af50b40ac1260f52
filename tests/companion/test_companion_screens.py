"""What the companion shows around the game: the ready phase after the deal, the result kept after the
end until the host closes it, and the terminal lines and seat cards in the table's language."""

from __future__ import annotations

import asyncio
import io
import json

from narrator.companion.qr import seats_page
from narrator.companion.testing import CLASSIC_DEAL, Phone, Table, until
from narrator.config import parse_config
from narrator.console import read_console
from narrator.language import load_voice

RU_DEAL = CLASSIC_DEAL.replace('language = "en"', 'language = "ru"')


def test_the_night_waits_until_every_phone_is_ready_and_a_late_phone_sees_its_role_first():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            phones = await t.join_all()
            dealing = asyncio.create_task(t.companion.deal_when_ready([t.live.session.dealing_event()]))
            await until(lambda: all(p.screen["ask"] == "ready" for p in phones.values()))
            assert {s: p.role for s, p in phones.items()} == {s: "citizen" if s > 4 else ("don", "mafia", "mafia", "sheriff")[s - 1] for s in phones}
            for s in range(1, 10):
                await phones[s].send({"t": "ready"})
            await until(lambda: phones[10].screen["ready"] == list(range(1, 10)))
            assert t.live.game.state == "setup" and not dealing.done()
            await phones[10].send({"t": "ready"})
            await asyncio.wait_for(dealing, 5)
            await until(lambda: t.live.game.state == "night")
            await until(lambda: phones[10].screen["state"] == "night")
            assert phones[10].screen["ask"] == "seat" and phones[10].screen["ready"] is None

    asyncio.run(main())


def test_physical_cards_ask_ready_too_with_no_role_on_the_phone():
    async def main():
        cfg = parse_config('variant = "classic"\nlanguage = "en"\n[dealing]\nmode = "cards"\n')
        async with Table(cfg) as t:
            phones = await t.join_all()
            dealing = asyncio.create_task(t.companion.deal_when_ready([t.live.session.dealing_event()]))
            await until(lambda: all(p.screen["ask"] == "ready" for p in phones.values()))
            assert all(p.role is None for p in phones.values())
            t.companion.hub.start()  # the host starts without waiting
            await asyncio.wait_for(dealing, 5)
            await until(lambda: t.live.game.state == "night")

    asyncio.run(main())


def test_typing_start_at_the_console_starts_the_night():
    started = []
    thread = read_console(None, stream=io.StringIO("start\n"), on_start=lambda: started.append(True))
    thread.join(2)
    assert started == [True]


async def to_the_end(t: Table) -> None:
    """Deal and let every day vote out one player by the clock until the game is over."""
    from narrator.flow.events import Nominate, Tap

    t.deal()
    while t.live.game.state != "over":
        g = t.live.game
        if g.state == "speeches" and not g.public_view()["nominations"]:
            target = next(s for s in g.alive if s > 4)
            t.live.submit_event(Nominate(target))
            await t.settle()
            t.live.submit_event(Nominate(next(s for s in g.alive if s > 4 and s != target)))
        elif g.state == "voting":
            for s in g.alive:
                t.live.submit_event(Tap(s, g.vote_choices()[1][0]))
        else:
            t.live.fire()
        await t.settle()


def test_the_result_stays_served_after_the_game_until_the_host_closes_it():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            phones = await t.join_all()
            await to_the_end(t)
            assert t.live.game.winner == "mafia"
            keeping = asyncio.create_task(t.companion.keep_result(t.live))
            await asyncio.sleep(0.2)
            assert not keeping.done()
            await phones[5].close()  # a locked phone comes back after the end: it still gets the result
            back = Phone(t.ws_url, t.companion.hub.seat_tokens[5])
            back.key = phones[5].key  # the same phone: it reconnects with its device key
            await back.join()
            assert back.screen["state"] == "over" and back.screen["outcome"] == "lost"
            assert back.screen["roles"]["1"] == "don"
            assert phones[1].screen["outcome"] == "won"
            phones[5] = back
            t.companion.hub.close_game()
            await asyncio.wait_for(keeping, 5)
            await until(lambda: any(f["t"] == "closed" for _, f, _ in back.frames))

    asyncio.run(main())


def test_quit_or_an_empty_table_closes_the_kept_result():
    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            await to_the_end(t)
            # typed after the game: a status report is still given, a tap is no more the game's
            reported = []
            t.live.submit_control(lambda: reported.append(t.live.game.state))
            from narrator.flow.events import Tap

            t.live.submit_event(Tap(5, 1))
            t.live.submit_control("quit")
            await asyncio.wait_for(t.companion.keep_result(t.live), 5)
            assert t.companion.hub.closed.is_set() and reported == ["over"]
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            await to_the_end(t)
            # nobody connected at all: the idle limit ends it
            await asyncio.wait_for(t.companion.keep_result(t.live, idle=0.3), 5)

    asyncio.run(main())


def test_the_terminal_and_the_seat_cards_speak_the_table_language():
    async def main():
        async with Table(parse_config(RU_DEAL)) as t:
            out = io.StringIO()
            t.companion.announce(out, qr_codes=True)
            page = seats_page({1: "http://x/#a", 2: "http://x/#b"}, {}, t.companion.hub.word, "ru")
            return out.getvalue(), page

    text, page = asyncio.run(main())
    ru = load_voice("ru").phone
    assert ru["announce_seat"].format(seat=3) in text and "Seat 3" not in text
    assert "Host screen" not in text and "Экран ведущего" in text
    assert '<html lang="ru">' in page and "Место 2" in page and ru["card_hint"] in page
    assert "Scan with" not in page


def test_the_terminal_wraps_the_start_between_words_and_never_cuts_a_link(monkeypatch):
    """At a 100-column terminal the lines under the QR codes broke inside "host" and inside the
    link, where the terminal's edge fell; wrapped at the width, each line breaks between words,
    and a link or a path (to be clicked or copied) stays whole on a line of its own."""
    import os
    import shutil

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a, **k: os.terminal_size((100, 40)))

    async def main():
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            shown, piped = Terminal(), io.StringIO()
            t.companion.announce(shown, qr_codes=False)
            t.companion.announce(piped, qr_codes=False)
            return shown.getvalue(), piped.getvalue(), t.companion.host_link

    shown, piped, link = asyncio.run(main())
    assert shown.split() == piped.split(), "the same words, only the breaks differ"
    lines = shown.splitlines()
    assert len(lines) > len(piped.splitlines())
    assert all(len(line) < 100 or " " not in line for line in lines), lines
    assert link in lines, "the host's link whole, on a line of its own"


def test_a_refused_day_vote_goes_to_its_voter_only():
    async def main():
        cfg = parse_config(CLASSIC_DEAL + "[companion]\nvotes = true\n")
        async with Table(cfg) as t:
            from narrator.flow.events import EndSpeech, Nominate

            phones = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(7))
            t.live.submit_event(EndSpeech())
            await t.settle()
            t.live.submit_event(Nominate(8))
            await t.end_speeches()
            await until(lambda: phones[3].screen["state"] == "voting")
            first = await phones[3].tap(7)
            again = await phones[3].tap(8)
            assert first["ok"] and not again["ok"]
            await t.settle()
            assert all(again["text"] not in json.dumps(p.screen, ensure_ascii=False) for p in phones.values())

    asyncio.run(main())
