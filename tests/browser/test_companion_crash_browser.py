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
from narrator.live import spoken_left

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

# the vote in one 30 s window (vote_call = "together", a [rules] table after the timers): a kill -9
# in the middle of it has time to come back before it closes; calls of 2 s each would be over
CLASSIC_TIMERS = ("night_zero_step = 3\nmafia_meeting = 5\nnight_step = 8\nspeech = 60\nvote = 30\nlast_words = 60\n"
                  '[rules]\nvote_call = "together"\n')


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


def voted(voice, choice, names: dict) -> str:
    """A voter's phone after his vote, as before the crash: the vote that counts, named in the line
    above the table (`own`); the answer box under the ballot does not say it again."""
    return ""


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
                    assert a["chosen"] == [votes[s]] and a["result"] == voted(ru, votes[s], {1: "Аня", 5: "Zsófi"}), (s, a)
                    # and the line that names it, on his phone alone
                    name = {1: "Аня", 5: "Zsófi"}.get(int(votes[s]))
                    label = f"{votes[s]} ({name})" if name else str(votes[s])
                    assert a["own"] == ru.phone["voted_for"].format(seat=label), (s, a)
                elif s in alive:
                    assert a["own"] == "", (s, a)
                    assert a["buttons"] == before[s]["buttons"] and a["chosen"] == [] and a["result"] == "", (s, a)
                assert a["left"] <= before[s]["left"] + 6, (s, a, before[s])
            lines = said(resumed_part(n))
            assert lines[0] == ru.render("resuming", {}) and not any("🔒" in x for x in lines), lines
            await check_same_frames(g)
            # a voter's second tap on his own vote reads as the first did
            assert await g.tap(half[0], votes[half[0]]) == voted(ru, votes[half[0]], {1: "Аня", 5: "Zsófi"})
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


# ---------------------------------------------------------------------------------------------
# hungariq, in Hungarian (seed 001): a trial cut by a crash twice, a pause in it, and the day after

HU_TIMERS = ("day = 150\nsupport_vote = 10\ndebate = 60\nlast_word = 30\nexecution_vote = 10\nnight_step = 4\n"
             "night_zero_step = 3\nname_reading = 5\n")


class Hungariq(Game):
    cfg_variant = "hungariq"

    async def day(self, state: str, frame: dict) -> None:
        n = self.narrator
        alive, target = frame["alive"], self.target(frame["alive"])
        if state == "accusations" and frame["day"] not in self.named_days and target is not None:
            self.named_days.add(frame["day"])
            town = min(s for s in alive if s not in self.evil)
            n.type(f"say {town} vádolja {target}")
            return
        n.type("timeout")


def clock(seconds: float) -> str:
    s = max(0, round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def test_a_hungarian_table_keeps_its_day_clock_through_a_trial_a_pause_and_two_crashes(tmp_path):
    need_browser()
    asyncio.run(_hungariq(tmp_path, load_voice("hu")))


async def _hungariq(tmp_path: Path, hu) -> None:
    port = free_port()
    cfg = club_config("hungariq", "hu", '1 = "inspector", 2 = "mafia", 3 = "mafia", 4 = "protected_mafia"', port,
                      HU_TIMERS, {1: "Ann", 5: "Zsófi"})
    done: list[str] = []

    def crash_at(g, one, frame) -> bool:
        return one["state"] == "accusations" and not done

    async def phones_held(g: Hungariq, text: str) -> dict:
        looks = await g.looks()
        for s, a in looks.items():
            assert text in a["info"], (s, a)
        assert await g.host.locator("#day-held").inner_text() == text
        return looks

    async def on_crash(g: Hungariq, one, frame) -> None:
        done.append("trial")
        n = g.narrator
        await asyncio.sleep(4)
        n.type("say 5 vádolja 9")  # a citizen: the table spares him
        await g.until_all("() => document.body.dataset.state === 'support_vote'")
        await asyncio.sleep(0.5)
        day_left = (await g.looks())[1]
        # the countdown is the support vote's; the day's time stands beside it, stopped
        held_line = next(x for x in day_left["info"].split(" · ") if "hátra" in x)
        held = int(held_line.split("még ")[1].split(" ")[0].split(":")[0]) * 60 + int(held_line.split(":")[1][:2])
        assert 140 <= held <= 147, held_line
        text = hu.phone["day_held"].format(time=clock(held))
        await phones_held(g, text)
        await g.host.screenshot(path=str(SHOTS / "hungariq-support-host.png")) if SHOTS else None
        # half the table's hands are up when the machine dies
        voters = [1, 2, 3, 5, 6]
        await asyncio.gather(*(g.tap(s, "yes") for s in voters))
        n = await g.resume_after_kill()
        await g.host.wait_for_function("() => document.getElementById('day-held').innerText !== ''", timeout=20_000)
        after = await phones_held(g, text)  # the day still has what it had when the accusation came
        await shot_all(g, "support-resumed", (1, 4))
        for s, a in after.items():
            assert a["state"] == "support_vote", (s, a)
            assert a["chosen"] == (["yes"] if s in voters else []), (s, a)
            assert a["result"] == (voted(hu, "yes", {}) if s in voters else ""), (s, a)
        await check_same_frames(g)
        await asyncio.gather(*(g.tap(s, "yes") for s in g.pages if s not in voters))
        await g.until_all("() => document.body.dataset.state === 'debate'")
        # a pause in the trial: both countdowns stand, the day's still beside the trial's
        n.type("pause")
        await g.until_all("() => document.body.dataset.paused === '1'")
        paused = await phones_held(g, text)
        assert "szünet" in (await g.text(1)).lower()
        await asyncio.sleep(1.5)
        assert (await g.looks())[1]["left"] == paused[1]["left"]
        await g.host.screenshot(path=str(SHOTS / "hungariq-paused-host.png")) if SHOTS else None
        n.type("resume")
        await g.until_all("() => document.body.dataset.paused === ''")
        await asyncio.sleep(2)
        before = await g.looks()
        n = await g.resume_after_kill()
        # the host screen came back by itself too, to the resumed game
        resuming = hu.render("resuming", {})
        await g.host.wait_for_function(f"() => document.getElementById('caption').innerText.startsWith({json.dumps(resuming)})",
                                       timeout=20_000)
        after = await phones_held(g, text)
        await shot_all(g, "debate-resumed", (1, 9))
        await g.host.screenshot(path=str(SHOTS / "hungariq-debate-resumed-host.png")) if SHOTS else None
        for s, a in after.items():
            assert a["state"] == "debate" and a["left"] <= before[s]["left"] + 6, (s, a, before[s])
        lines = said(resumed_part(n))
        assert lines[0] == hu.render("resuming", {}) and len(lines) == 2, lines
        n.type("timeout")
        await g.until_all("() => document.body.dataset.state === 'accused_last_word'")
        n.type("timeout")
        await g.until_all("() => document.body.dataset.state === 'execution_vote'")
        await asyncio.gather(*(g.tap(s, "no") for s in g.pages))
        await g.until_all("() => document.body.dataset.state === 'accusations'")
        await asyncio.sleep(0.5)
        # the day goes on with what it had: said, and on every phone's and the host's countdown
        going = await g.looks()
        for s, a in going.items():
            assert held - 3 <= a["left"] <= held, (s, a, held)
            assert "hátra; áll" not in a["info"], (s, a)
        assert hu.render("day_time_left", {"time": spoken_left(held)}) in said(n.text), said(n.text)
        assert await g.host.locator("#day-held").inner_text() == ""
        host_left = int(await g.host.evaluate("() => document.body.dataset.left"))
        assert held - 3 <= host_left <= held, host_left
        # and a crash now keeps it too: never more than it had
        await asyncio.sleep(2)
        before = await g.looks()
        n = await g.resume_after_kill()
        after = await g.looks()
        await shot_all(g, "day-resumed", (1, 4))
        for s, a in after.items():
            assert a["state"] == "accusations" and a["left"] <= min(held, before[s]["left"] + 6), (s, a, before[s])
            assert a["left"] >= before[s]["left"] - 5, (s, a, before[s])

    async with launched() as browser:
        g = Hungariq(tmp_path, browser, cfg, port, evil={2, 3, 4}, words=hu)
        try:
            await g.start()
            g.host = await (await browser.new_context(viewport={"width": 800, "height": 900})).new_page()
            await g.host.goto(g.host_link())
            await g.ready_all()
            await g.play(crash_at, on_crash)
            assert done == ["trial"]
            await ended_for_the_town(g)
        finally:
            await g.host.context.close()
            await g.close()


# ---------------------------------------------------------------------------------------------
# sverige, in Swedish (seed 000): a hand vote cut in half, the sheriff's check cut by a crash

SV_TIMERS = ("first_day = 60\nday = 60\nextension_offer = 3\nlast_call = 2\nnominee_speech = 15\nhand_vote = 20\n"
             "night_step = 6\nnight_zero_step = 3\n")


class Sverige(Game):
    cfg_variant = "sverige"

    async def day(self, state: str, frame: dict) -> None:
        n = self.narrator
        alive, target = frame["alive"], self.target(frame["alive"])
        if state == "discussion" and frame["day"] not in self.named_days and target is not None:
            self.named_days.add(frame["day"])
            town = min(s for s in alive if s not in self.evil)
            n.type(f"say {town} nominerar {target}")
            await asyncio.sleep(0.3)
        n.type("timeout")

    async def vote(self, frame: dict, seats=None) -> None:
        epoch = (await self.looks())[1]["epoch"]
        await super().vote(frame, seats)
        await asyncio.sleep(0.3)
        if (await self.looks())[1]["epoch"] == epoch:
            self.narrator.type("timeout")  # the mafia keep their hands down: the call is over


def test_a_swedish_table_survives_kill_9_in_a_hand_vote_and_in_the_sheriffs_check(tmp_path):
    need_browser()
    asyncio.run(_sverige(tmp_path, load_voice("sv")))


async def _sverige(tmp_path: Path, sv) -> None:
    port = free_port()
    cfg = club_config("sverige", "sv", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"', port, SV_TIMERS,
                      {3: "Åsa-Maria Lindqvist-Bergström", 8: "Jörg"})
    done: list[str] = []

    def crash_at(g, one, frame) -> bool:
        if one["state"] == "hand_vote" and "vote" not in done:
            return True
        return one["state"] == "night" and one["step"] == "sheriff_team" and "check" not in done

    async def on_crash(g: Sverige, one, frame) -> None:
        if one["state"] == "hand_vote":
            done.append("vote")
            target = frame["choices"][0]
            assert target == g.target(frame["alive"])
            voters = [3, 4, 5]
            await asyncio.gather(*(g.tap(s, str(target)) for s in voters))
            before = await g.looks()
            n = await g.resume_after_kill()
            after = await g.looks()
            await shot_all(g, "hand-vote-resumed", (3, 6))
            for s, a in after.items():
                assert a["state"] == "hand_vote" and a["buttons"] == [str(target)], (s, a)
                assert a["chosen"] == ([str(target)] if s in voters else []), (s, a)
                assert a["result"] == (voted(sv, target, {3: "Åsa-Maria Lindqvist-Bergström", 8: "Jörg"}) if s in voters else ""), (s, a)
                assert a["left"] <= before[s]["left"] + 6, (s, a, before[s])
            lines = said(resumed_part(n))
            assert lines[0] == sv.render("resuming", {}) and len(lines) == 2, lines
            await check_same_frames(g)
            await g.vote(frame, [s for s in frame["alive"] if s not in voters])
        else:
            done.append("check")
            await g.night_taps(frame)
            sheriff = (await g.looks())[4]["result"]
            assert sheriff and "valt" not in sheriff, sheriff  # his answer: the team of the seat he tapped
            n = await g.resume_after_kill()
            after = await g.looks()
            await shot_all(g, "check-resumed", (4, 6))
            shape = await shapes(g)
            for s, a in after.items():
                assert a["state"] == "night" and a["step"] == "sheriff_team", (s, a)
                assert a["result"] == "" and a["chosen"] == [] and shape[s] == shape[1], (s, a)
            lines = said(resumed_part(n))
            assert lines[0] == sv.render("resuming", {}) and not any("🔒" in x for x in lines), lines
            await check_same_frames(g)
            # a check is final: tapped again, the sheriff reads his answer, then that it was his one
            again = await g.tap(4, frame["choices"][0])
            assert again.splitlines()[0] == sheriff and sv.render("reject_already_checked", {}) in again, again
            await g.shot(4, "sverige-check-again", SHOTS)

    async with launched() as browser:
        g = Sverige(tmp_path, browser, cfg, port, evil={1, 2}, words=sv)
        try:
            await g.start()
            await g.ready_all()
            await g.play(crash_at, on_crash)
            assert done == ["vote", "check"], done
            await ended_for_the_town(g)
        finally:
            await g.close()


# ---------------------------------------------------------------------------------------------
# a crash while the players look at their roles

def test_a_crash_while_the_phones_show_the_roles_keeps_the_deal(tmp_path):
    """The roles are dealt at random and on the phones; three players have tapped Ready when the
    machine dies. The resumed game shows every phone the role it showed before — a new deal
    behind the players' backs would leave a player who had looked playing a role he no longer
    has — and asks Ready again; night zero starts when all are ready, and a crash in it resumes
    night zero, not the Ready."""
    need_browser()
    asyncio.run(_deal(tmp_path))


async def _deal(tmp_path: Path) -> None:
    en = load_voice("en")
    port = free_port()
    cfg = club_config("classic", "en", "", port, "night_zero_step = 6\nmafia_meeting = 6\n").replace("[dealing]\nroles = {  }\n", "")

    def roles(g) -> dict[int, str]:
        return {s: next(f for f in reversed(g.frames[s]) if f.get("t") == "role").get("role") for s in g.pages}

    async with launched() as browser:
        g = Game(tmp_path, browser, cfg, port, evil=set(), words=en)
        g.cfg_variant = "classic-random-deal"
        try:
            await g.start()
            await g.until_all("() => document.querySelector('#grid button[data-choice=ready]')")
            dealt = roles(g)
            assert sorted(dealt.values()).count("citizen") == 6
            for s in (1, 2, 3):
                await g.pages[s].locator("#grid button[data-choice=ready]").click()
            await asyncio.sleep(0.5)
            await g.resume_after_kill()
            await g.until_all("() => document.querySelector('#grid button[data-choice=ready]:not([disabled])')")
            assert roles(g) == dealt  # the same role on every phone
            await shot_all(g, "deal-resumed", (1, 4))
            await g.ready_all()
            await g.until_all("() => document.body.dataset.state === 'night'")
            await asyncio.sleep(1)
            n = await g.resume_after_kill()
            looks = await g.looks()
            assert all(a["state"] == "night" and a["step"] == "don_meets" for a in looks.values()), looks
            assert roles(g) == dealt
            assert not any(a["buttons"] == ["ready"] for a in looks.values())
            assert said(resumed_part(n))[0] == en.render("resuming", {})
        finally:
            await g.close()
