"""`status` names the player the moment is about, as the host screen's heading does.

At a table with names the phones, the host screen and `status`'s own alive list read
"player 5 (Ann)", but `status`'s state said the bare seat: «állapot: Szavazás a vád támogatásáról
– vádlott: 5 · …», "state: Vote: player 5 · …" — the host had to count round the table to know who
was on trial. The state is now the heading's line (naming.seat_words, the same function), the
name shown as typed: markup and braces print as those characters."""

from __future__ import annotations

import asyncio
import random

import pytest

from console_support import console_game, typed_move
from narrator.console import console_line
from narrator.simulate import RandomPlayer

NAME = {s: f"[bold]N{s}[/bold]" for s in range(1, 13)} | {9: "{seat}", 10: "Bob[/]"}
NAMES = "[players]\n" + "".join(f'{s} = "{n}"\n' for s, n in NAME.items())

# the moment, and the state part of `status` there as the host screen's heading words it
HEADINGS = {
    ("hungariq", "en", "support_vote"): "Vote on the accusation against player {seat} ({name})",
    ("hungariq", "hu", "support_vote"): "Szavazás a vád támogatásáról – vádlott: {seat} ({name})",
    ("sverige", "en", "hand_vote"): "Voting on player {seat} ({name})",
    # the seat's article is the number's, "az 5. játékosról"; the name follows the glued word
    ("sverige", "hu", "hand_vote"): "Szavazás {article} {seat}. játékosról ({name})",
}


async def _status_at(variant: str, lang: str, state: str, names: str = NAMES) -> tuple[str, int | None]:
    """`status` as typed at the console the first time the game is at `state` about one seat."""
    async with console_game(variant, lang, 1, names) as (live, console, out):
        player = RandomPlayer(random.Random(1), illegal_rate=0, foul_rate=0)
        for _ in range(3000):
            g = live.game
            if g.state == "over":
                break
            if g.screen_state() == state and g.subject() is not None:
                start = len(out.getvalue())
                console_line(live, "status", console)
                await asyncio.sleep(0.05)
                return out.getvalue()[start:], g.subject()
            typed_move(live, console, player)
            await asyncio.sleep(0.002)
    return "", None


@pytest.mark.parametrize("variant,lang,state", sorted(HEADINGS))
def test_status_names_the_player_on_trial_as_the_host_screen_does(variant, lang, state):
    status, seat = asyncio.run(_status_at(variant, lang, state))
    assert seat is not None, f"the game never reached {state}"
    heading = HEADINGS[variant, lang, state].format(seat=seat, name=NAME[seat], article="az" if seat in (1, 5) else "a")
    first = status.strip().splitlines()[0]
    # the name as typed, right after the seat: "… player 5 ([bold]N5[/bold]) · day 1 · …"
    assert first.split(": ", 1)[1].startswith(heading + " · "), first


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_status_at_a_table_without_names_keeps_the_bare_seat(lang):
    status, seat = asyncio.run(_status_at("hungariq", lang, "support_vote", names=""))
    heading = HEADINGS["hungariq", lang, "support_vote"].format(seat=seat, name="").replace(" ()", "")
    assert status.strip().splitlines()[0].split(": ", 1)[1].startswith(heading + " · "), status
