"""A crash at a phone table: a real `narrator play --companion` with ten phones in headless
Chromium at 360×740 is killed (`kill -9`) at the worst moments of a whole game, and brought back
with `narrator resume`. The phones are the same pages: nobody scans a code again.

After each resume every phone is looked at as its player would look at it:

- it reconnected by itself (its device key), and shows the moment the game stopped in;
- a night step starts again from its full time and the same blank screen on every phone — the
  mafia's "You chose 5" does not stand alone on three phones among seven empty ones (the
  sleepers' cover answers were lost with the crash); the choice still counts, a tap again shows
  it, and a check is final: the checker's re-tap shows his result again, not only "one check a
  night";
- in a vote cut in half, every voter sees his own vote (his button marked, "your vote is in"),
  the others an open ballot; nobody sees another's vote as his;
- the time goes on from what the journal noted (a day timer at most 5 s more than it had), and
  HungarIQ's day clock, stopped while an accusation is tried (seed 001), stands beside the trial's
  countdown on every phone and the host screen, through a pause and a crash, and goes on with what
  it had when the accusation came;
- the narrator says where the table is ("The game goes on where it stopped." and the running
  step's opening) and nothing else: not the news that closed the step before, no private line;
- every phone gets the same frames, of the same sizes, at the resume.

Screenshots of the phones after each resume go to $NARRATOR_SHOTS when it is set.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path

import pytest

from chromium import launched, need_browser
from crash_table import CrashGame, club_config, free_port
from table_game import SHAPE_JS, own_part_out

from narrator.language import load_voice

SHOTS = Path(os.environ["NARRATOR_SHOTS"]) if os.environ.get("NARRATOR_SHOTS") else None


def said(text: str) -> list[str]:
    """The narrator's lines in a stretch of the console (each printed after '» ')."""
    return [line[2:].strip() for line in text.splitlines() if line.startswith("» ")]


def resumed_part(narrator) -> str:
    text = narrator.text
    return text[text.find("» "):]


async def shapes(game: CrashGame) -> dict[int, list]:
    shown = await asyncio.gather(*(p.evaluate(SHAPE_JS) for p in game.pages.values()))
    return {s: [own_part_out(e) for e in shape] for s, shape in zip(game.pages, shown)}


def frame_sizes(game: CrashGame) -> dict[int, list[tuple[str, int]]]:
    return {s: [(f.get("t"), len(json.dumps(f, ensure_ascii=False, separators=(",", ":")).encode()))
                for f in frames] for s, frames in game.frames.items()}


class Game(CrashGame):
    cfg_variant = ""


async def shot_all(game: CrashGame, tag: str, seats=(1, 4)) -> None:
    for s in seats:
        await game.shot(s, f"{game.cfg_variant}-{tag}", SHOTS)


async def check_same_frames(game: CrashGame) -> None:
    """Every phone got the same frames at the resume, of one size each (a private answer would
    be a frame or a size of its own)."""
    await asyncio.sleep(0.3)
    sizes = frame_sizes(game)
    kinds = {s: [k for k, _ in v if k != "role"] for s, v in sizes.items()}
    assert len({tuple(k) for k in kinds.values()}) == 1, kinds
    for kind in ("screen", "note", "welcome"):
        seen = {n for v in sizes.values() for k, n in v if k == kind}
        assert len(seen) <= 1, (kind, sizes)


async def ended_for_the_town(g: CrashGame) -> None:
    """The game played on to its end after the crashes: every phone has the result, the town's."""
    await g.until_all("() => document.body.dataset.state === 'over'")
    outcomes = {s: await p.evaluate("() => document.getElementById('outcome').className") for s, p in g.pages.items()}
    for s, o in outcomes.items():
        assert o.split()[-1] == ("lost" if s in g.evil else "won"), (s, o)
    await shot_all(g, "over", (1, 4))


# ---------------------------------------------------------------------------------------------
# classic, in Russian (seeds 002/004): the mafia's shot, a vote cut in half, last words

CLASSIC_TIMERS = "night_zero_step = 3\nmafia_meeting = 5\nnight_step = 8\nspeech = 60\nvote = 30\nlast_words = 60\n"


class Classic(Game):
    cfg_variant = "classic"

    async def day(self, state: str, frame: dict) -> None:
        n = self.narrator
        if state == "speeches":
            alive, noms, speaker = frame["alive"], frame["nominations"], frame["speaker"]
            target = self.target(alive)
            town = [s for s in alive if s not in self.evil and s != speaker and s not in noms]
            if speaker is not None and len(noms) < 2 and target is not None:
                seat = target if target not in noms else town[0]
                if seat != speaker:
                    n.type(f"say я выставляю игрока {seat}")
                    await asyncio.sleep(0.2)
        n.type("timeout")


def test_a_russian_classic_table_survives_kill_9_in_the_mafias_shot_a_half_cast_vote_and_last_words(tmp_path):
    need_browser()
    ru = load_voice("ru")
    asyncio.run(_classic(tmp_path, ru))


async def _classic(tmp_path: Path, ru) -> None:
    port = free_port()
    cfg = club_config("classic", "ru", '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"', port, CLASSIC_TIMERS,
                      {1: "Аня", 5: "Zsófi"})
    crashed: list[str] = []

    def crash_at(g, one, frame) -> bool:
        st = one["state"]
        if st == "voting" and "vote" not in crashed:
            return True
        if st == "last_words" and "last_words" not in crashed:
            return True
        return st == "night" and one["step"] == "mafia_shoots" and "night" not in crashed

    async def on_crash(g: Classic, one, frame) -> None:
        st = one["state"]
        if st == "voting":
            crashed.append("vote")
            alive = frame["alive"]
            half = alive[: len(alive) // 2]
            votes = {s: g.ballot(frame, s) for s in half}
            await asyncio.gather(*(g.tap(s, v) for s, v in votes.items()))
            before = await g.looks()
            n = await g.resume_after_kill()
            after = await g.looks()
            await shot_all(g, "vote-resumed", (half[0], alive[-1]))
            for s in g.pages:
                a = after[s]
                assert a["up"] and a["state"] == "voting", (s, a)
                if s in votes:
                    # his own vote, as before the crash: not "you have already voted" over an empty ballot
                    assert a["chosen"] == [votes[s]] and a["result"] == ru.render("companion_vote_taken", {}), (s, a)
                    assert a["own"] == "", (s, a)
                elif s in alive:
                    assert a["buttons"] == before[s]["buttons"] and a["chosen"] == [] and a["result"] == "", (s, a)
                assert a["left"] <= before[s]["left"] + 6, (s, a, before[s])
            lines = said(resumed_part(n))
            assert lines[0] == ru.render("resuming", {}) and not any("🔒" in x for x in lines), lines
            await check_same_frames(g)
            # a voter's second tap on his own vote reads as the first did
            assert await g.tap(half[0], votes[half[0]]) == ru.render("companion_vote_taken", {})
            await g.vote(frame, [s for s in alive if s not in votes])
        elif st == "last_words":
            crashed.append("last_words")
            await asyncio.sleep(3)
            before = await g.looks()
            n = await g.resume_after_kill()
            after = await g.looks()
            await shot_all(g, "last-words-resumed", (1, 4))
            speaker = g.screen(1)["speaker"]
            for s, a in after.items():
                assert a["up"] and a["state"] == "last_words" and a["buttons"] == [], (s, a)
                assert 0 < a["left"] <= before[s]["left"] + 6, (s, a, before[s])
            lines = said(resumed_part(n))
            # where the table is, and not the count of hands that sent him out again
            assert lines[0] == ru.render("resuming", {}), lines
            assert lines[1] == ru.render("last_words_turn", {"seat": speaker}), lines
            assert len(lines) == 2, lines
            await check_same_frames(g)
            n.type("timeout")
        else:
            crashed.append("night")
            await g.night_taps(frame)
            mafia_saw = await g.looks()
            victim = g.victim(frame["alive"])
            assert mafia_saw[1]["result"].startswith(f"Вы выбрали {victim}"), mafia_saw[1]
            n = await g.resume_after_kill()
            after = await g.looks()
            await shot_all(g, "night-resumed", (1, 5))
            shape = await shapes(g)
            for s, a in after.items():
                assert a["up"] and a["state"] == "night" and a["step"] == "mafia_shoots", (s, a)
                # the same blank step on every phone: no "You chose" on the mafia's three alone
                assert a["result"] == "" and a["chosen"] == [], (s, a)
                assert shape[s] == shape[1], s
                assert a["left"] >= 6, (s, a)  # the step starts again from its full time
            lines = said(resumed_part(n))
            assert lines[0] == ru.render("resuming", {}) and not any("🔒" in x for x in lines), lines
            assert ru.render("mafia_sleeps", {}) not in " ".join(lines), lines
            await check_same_frames(g)
            # the mafia's choice stands; tapped again, it reads as any tap of the step does
            await g.night_taps(frame)
            again = await g.looks()
            sizes = {len(a["result"]) > 0 for a in again.values()}
            assert sizes == {True}, again
            assert again[1]["chosen"] == [str(victim)]

    async with launched() as browser:
        g = Classic(tmp_path, browser, cfg, port, evil={1, 2, 3}, words=ru)
        try:
            await g.start()
            await g.ready_all()
            await g.play(crash_at, on_crash)
            assert crashed == ["vote", "last_words", "night"], crashed
            await ended_for_the_town(g)
        finally:
            await g.close()
