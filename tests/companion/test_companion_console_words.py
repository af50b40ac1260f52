"""What the companion prints at the narrator's terminal, in the table's language (play-test of
session 20: at night a dead seat's tap printed «companion: refused (seat out), seat 4» in English on
a Swedish table). The line is the same whoever's seat it is, and a living seat's refusal at night is
never printed: a line at that moment would tell the room whose phone was busy while the town slept."""

from __future__ import annotations

import asyncio
import logging

import pytest

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.events import Disqualify
from narrator.language import LANGUAGES, load_voice

DON, MAFIA, SHERIFF, CITIZEN = 1, 2, 4, 5
SWEDISH = ('variant = "classic"\nlanguage = "sv"\n[dealing]\n'
           'roles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n')


def printed(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "narrator.companion" and r.levelno >= logging.WARNING]


@pytest.mark.parametrize("out", [MAFIA, CITIZEN])
def test_a_dead_seats_tap_at_night_is_said_in_swedish_and_the_same_whatever_its_role(out, caplog):
    caplog.set_level(logging.DEBUG, logger="narrator.companion")

    async def main():
        async with Table(parse_config(SWEDISH)) as t:
            phones = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Disqualify(out))  # out of the game, and the table was told so
            await t.settle()
            await t.end_speeches()
            await until(lambda: t.live.game.state == "night", what="night one")
            caplog.clear()
            ack = await phones[out].tap(9)
            assert not ack["ok"]
            await until(lambda: printed(caplog), what="the line at the terminal")
            assert printed(caplog) == [f"companion: från telefonen på plats {out}, togs inte emot (platsen är ute ur spelet)"]

    asyncio.run(main())


def test_a_living_seats_refusal_at_night_is_never_printed_awake_or_asleep(caplog):
    caplog.set_level(logging.DEBUG, logger="narrator.companion")

    async def main():
        async with Table(parse_config(SWEDISH)) as t:
            phones = await t.join_all()
            await t.to_night_one()
            caplog.clear()
            hub = t.companion.hub
            for seat in (DON, SHERIFF, CITIZEN):  # the mafia awake now, the others asleep
                phone = phones[seat]
                phone.n += 1
                await phone.send({"t": "tap", "seat": seat, "n": phone.n, "epoch": phone.screen["epoch"] - 1, "target": 9})
                await phone.send([])  # not even a message
            await until(lambda: sum(s is not None for _, s in hub.refused[-6:]) == 6, what="the six refusals")
            await asyncio.sleep(0.2)
            assert printed(caplog) == []
            # by day the same refusal is printed, for each seat in the same words
            await t.end_night()
            await until(lambda: t.live.game.state != "night", what="the day")
            for seat in (DON, CITIZEN):
                await phones[seat].send([])
            await until(lambda: len(printed(caplog)) == 2, what="two lines")
            assert printed(caplog) == [f"companion: från telefonen på plats {seat}, togs inte emot "
                                       "(ett meddelande som spelet inte förstår)" for seat in (DON, CITIZEN)]

    asyncio.run(main())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_the_hub_names_has_words_in_every_language(lang):
    from narrator.companion.refusals import REFUSAL_WORDS

    voice = load_voice(lang)
    for word in {*REFUSAL_WORDS.values(), "host"}:
        assert voice.has_printed("console", f"companion_why_{word}"), (lang, word)
    assert "companion: refused" not in voice.console_text("companion_refused_seat", {"seat": 4, "reasons": "x"})
