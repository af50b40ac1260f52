"""A night on the phones leaks nothing: every seat, awake or asleep, alive or dead, receives the same
frames (type and size) at the same moments, and the night's steps last the same whoever is alive."""

from __future__ import annotations

import asyncio
import json
import random

from narrator.companion.testing import CLASSIC_DEAL, ManualClockSession, Table
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate, Tap

MAFIA, DON, SHERIFF = (1, 2, 3), 1, 4
ROLE_WORDS = ("don", "mafia", "sheriff")


def config(extra: str = ""):
    return parse_config(CLASSIC_DEAL + extra)


async def to_first_real_night(t: Table, vote_out: int | None = None) -> None:
    """Deal, sleep through night zero, and talk through day 1 (voting `vote_out` out, or nobody)."""
    live = t.live
    await t.to_first_day()
    if vote_out is not None:
        live.submit_event(Nominate(vote_out))
        live.submit_event(EndSpeech())
        await t.settle()
        other = next(s for s in live.game.alive if s not in (vote_out, live.game.speaker) and s != 1)
        live.submit_event(Nominate(other))
    await t.end_speeches()
    if live.game.state == "voting":
        for s in live.game.alive:
            live.submit_event(Tap(s, vote_out))
        await t.settle()
    await t.end_speeches(("last_words",))
    assert live.game.state == "night" and live.game.night_no == 1


async def play_night(t: Table, phones) -> list:
    """Every phone taps at every step (the awake ones for real); returns the frames sent meanwhile."""
    live, hub = t.live, t.companion.hub
    start = len(hub.sent)
    real = {"mafia_shoots": {s: 9 for s in MAFIA}, "don_checks": {DON: SHERIFF}, "sheriff_checks": {SHERIFF: DON}}
    while live.game.state == "night":
        step = live.game.step.name
        alive = live.game.alive
        await asyncio.gather(*(p.tap(real[step].get(s, alive[(s * 3) % len(alive)])) for s, p in phones.items()))
        live.fire()
        await t.settle()
    return hub.sent[start:]


def by_seat(sent) -> dict[int, list[tuple]]:
    seats: dict[int, list[tuple]] = {}
    for f in sent:
        seats.setdefault(f.seat, []).append((f.type, f.size, f.batch if f.type != "ack" else None))
    return seats


def test_every_seat_gets_the_same_frames_at_the_same_moments_during_a_night():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await to_first_real_night(t)
            sent = await play_night(t, phones)
            seats = by_seat(sent)
            assert len(seats) == 10
            reference = seats[5]  # a citizen, asleep all night
            for seat, frames in seats.items():
                assert frames == reference, f"seat {seat} received a different night"
            assert {f.type for f in sent} >= {"screen", "ack"}
            assert 9 not in t.live.game.alive, "the mafia's real shots reached the core"
            # acks leave at the same fixed moment after the tap, for a real shot as for a dummy
            acks = [f for f in sent if f.type == "ack"]
            assert len(acks) == 30
            assert all(f.delay >= t.companion.hub.ack_delay for f in acks)
            # and on the wire: every phone received the same types and sizes, from joining to dawn
            received = {s: [(fr["t"], size) for _, fr, size in p.frames] for s, p in phones.items()}
            assert all(r == received[5] for r in received.values())

    asyncio.run(main())


def test_check_results_reach_only_the_checker_and_no_phone_learns_another_role():
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await to_first_real_night(t)
            await play_night(t, phones)
            assert t.live.game.state != "night"
            for seat, p in phones.items():
                texts = [fr.get("text", "") for _, fr, _ in p.frames if fr["t"] in ("ack", "note")]
                shown_roles = {fr["role"] for _, fr, _ in p.frames if fr["t"] == "role" and fr["role"]}
                assert shown_roles == {t.live.game.role(seat)}
                checks = [x for x in texts if "Sheriff" in x or "MAFIA" in x or "not mafia" in x]
                if seat == DON:
                    assert checks == ["Player 4 IS the Sheriff."]
                elif seat == SHERIFF:
                    assert checks == ["Player 1 is MAFIA."]
                else:
                    assert checks == []
                for _, fr, _ in p.frames:
                    if fr["t"] in ("screen", "ack", "note", "welcome"):
                        payload = json.dumps({k: v for k, v in fr.items() if k not in ("text", "caption")}).lower()
                        assert not any(f'"{w}"' in payload for w in ROLE_WORDS), fr
                    if fr["t"] == "screen":
                        assert fr["roles"] is None

    asyncio.run(main())


def test_a_dead_role_plays_the_same_night_and_its_steps_last_as_long():
    """Game A: everybody alive. Game B: the Sheriff was voted out on day 1. Same phones' view, same clock."""

    async def night(vote_out):
        cfg = config("[night]\njitter_ms = 700\n")
        session = lambda c, j: ManualClockSession(c, j, jitter_rng=random.Random(4))  # noqa: E731
        async with Table(cfg, session_class=session) as t:
            phones = await t.join_all()
            await to_first_real_night(t, vote_out)
            armed_before = len(t.live.armed)
            sent = await play_night(t, phones)
            steps = [a for a in t.live.armed[armed_before - 1:] if a[1] is not None]
            alive = list(t.live.game.alive)
            return by_seat(sent), steps, alive

    async def main():
        seats_a, steps_a, _ = await night(None)
        seats_b, steps_b, alive_b = await night(SHERIFF)
        assert SHERIFF not in alive_b
        assert [s for s in steps_a] == [s for s in steps_b]
        assert len(steps_a) == 3 and all(sec > 10 for _, _, sec in steps_a), "jitter is added to every step"
        # the dead Sheriff's phone and a citizen's phone see the same night, in both games
        strip = lambda frames: [(ty, size) for ty, size, _ in frames]  # noqa: E731
        for seat in (SHERIFF, 5, DON):
            assert strip(seats_a[seat]) == strip(seats_b[seat]) == strip(seats_a[5])

    asyncio.run(main())
