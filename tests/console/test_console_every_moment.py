"""`status`, `help` and odd lines typed at every moment of a whole game, for every rule system in
every language (play-test of session 23): the night's steps, speeches, nominations and
accusations, hand votes and their re-votes, last words, hungariq's support and execution votes,
grundregeln's pointing, run-off and tie-break, and the end. Whatever is typed is answered, in the
table's language, from its voice file and through its voice: no exception (a Hungarian `status`
once failed on the seat's article, a line formatted by hand), no `{placeholder}` left in a line,
and text from people — the names, the typed lines — shown as it was written, markup and braces
and all. The game is played by `narrator simulate`'s random player, its lines typed as a
transcript's are."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from console_support import console_game, typed_move
from narrator.console import console_line, status_text
from narrator.language import load_voice
from narrator.simulate import RandomPlayer

# names and typed lines that look like templates and markup: each is marked by N…N or T…T, so
# what is left of a brace once they are taken out is a placeholder the narrator left unfilled
NAMES = '[players]\n1 = "N{seat}N"\n2 = "N[bold]Ann[/bold]N"\n3 = "NBob[/]N"\n4 = "N{0}N"\n5 = "@role_don"\n'
ODD = ["status", "help", "tap 99", "vote", "³", "", "T{seat}T", "T[bold]x[/bold]T", "tap 1 T{seat}T",
       "say T{seat_article}T T[red]hiT", "nominate", "accuse 1 by T{by}T", "withdraw 1"]
TYPED = re.compile(r"[NT]\{\w*\}[NT]")


async def _played(variant: str, lang: str, seed: int) -> tuple[str, list, str]:
    async with console_game(variant, lang, seed, NAMES) as (live, console, out):
        player = RandomPlayer(random.Random(seed), illegal_rate=0, foul_rate=0.02)
        moments = []
        for _ in range(3000):
            g = live.game
            if g.state == "over":
                break
            moment = (g.state, g.screen_state(), getattr(g.step, "name", None), getattr(g, "vote_round", None))
            if moment not in moments:
                moments.append(moment)
                for line in ODD:
                    console_line(live, line, console)
                await asyncio.sleep(0.01)
            typed_move(live, console, player)
            await asyncio.sleep(0.002)
        assert live.game.state == "over", moments[-3:]
        await asyncio.sleep(0.05)
        over = status_text(live)  # after the game the console answers `status` too (with phones it stays up)
    return out.getvalue(), moments, over


@pytest.mark.parametrize("lang", ["en", "ru", "de", "sv", "hu"])
@pytest.mark.parametrize("variant", ["classic", "sverige", "hungariq", "grundregeln"])
def test_status_help_and_odd_lines_are_answered_at_every_moment_in_the_tables_language(variant, lang):
    printed, moments, over = asyncio.run(_played(variant, lang, seed=1))
    voice = load_voice(lang, variant)
    text = printed + "\n" + over
    assert "Traceback" not in text and "Error" not in text, text[-2000:]
    left = [line for line in text.splitlines() if re.search(r"\{\w*\}", TYPED.sub("", line))]
    assert not left, left[:5]
    # every moment's `status` in the table's words: its three lines, and the state named by the
    # voice file ("Phase: Tag: Reden"), never the code's own name for it ("speeches")
    heading = voice.console_text("status_state", {"state": "\0", "day": "", "alive": ""}).split("\0")[0]
    states = [line[len(heading):].split(" · ")[0] for line in printed.splitlines() if line.startswith(heading)]
    assert len(states) == len(moments), (states, moments)  # one `status` typed at each moment, each answered
    assert over.startswith(heading), over
    assert not [s for s in states if re.fullmatch(r"[a-z_]+", s)], states
    assert text.count(voice.console_text("help_console")) >= len(moments)
    # the names and the typed lines as they were written: no markup read, no brace filled
    for name in ("N{seat}N", "N[bold]Ann[/bold]N", "NBob[/]N", "N{0}N", "@role_don"):
        assert f"({name})" in text, name
    assert "'T[bold]x[/bold]T'" in text and "'T{seat_article}T T[red]hiT'" in text
    assert "'T{seat}T'" in text  # `tap 1 T{seat}T`: the target quoted as typed, not lower-cased
    if lang != "en":
        english = load_voice("en", variant)
        for key in ("status_no_timer", "status_no_nominations", "help_seat"):
            if voice.console_text(key) != english.console_text(key):
                assert english.console_text(key) not in text.replace("T{seat}T", ""), key
