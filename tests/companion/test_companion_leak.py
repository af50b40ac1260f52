"""A night on the phones leaks nothing: every seat, awake or asleep, alive or dead, receives the same
frames (type and size) at the same moments, and the night's steps last the same whoever is alive."""

from __future__ import annotations

import asyncio
import json
import random

from narrator.companion.testing import CLASSIC_DEAL, ManualClockSession, Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Leave, Nominate, Tap

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


CLASSIC_NIGHT = {"mafia_shoots": {s: 9 for s in MAFIA}, "don_checks": {DON: SHERIFF}, "sheriff_checks": {SHERIFF: DON}}


async def play_night(t: Table, phones, real: dict = CLASSIC_NIGHT) -> list:
    """Every phone taps at every step (the awake ones for real); returns the frames sent meanwhile."""
    live, hub = t.live, t.companion.hub
    start = len(hub.sent)
    while live.game.state == "night":
        step = live.game.step.name
        alive = live.game.alive
        await asyncio.gather(*(p.tap(real.get(step, {}).get(s, alive[(s * 3) % len(alive)])) for s, p in phones.items()))
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


CHANGED_NIGHT = {"mafia_shoots": {s: 8 for s in MAFIA}, "don_checks": {DON: SHERIFF}, "sheriff_checks": {SHERIFF: DON}}
SECOND_TAPS = {"mafia_shoots": {s: 9 for s in MAFIA}, "don_checks": {DON: 6}, "sheriff_checks": {SHERIFF: 7}}


def test_a_re_tap_leaks_nothing_the_changed_shot_counts_and_the_check_answer_stays():
    """Every phone taps twice at every step: the mafia change their shot from 8 to 9 (the last
    choice counts), the Don and the Sheriff tap again after their check (refused; the answer stays
    on their screen). Still every seat gets the same frames, sizes and moments."""

    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await to_first_real_night(t)
            live, hub = t.live, t.companion.hub
            start = len(hub.sent)
            answers: dict[int, list[str]] = {DON: [], SHERIFF: []}
            while live.game.state == "night":
                step = live.game.step.name
                alive = live.game.alive
                for taps in (CHANGED_NIGHT, SECOND_TAPS):
                    acks = await asyncio.gather(*(p.tap(taps.get(step, {}).get(s, alive[(s * 3) % len(alive)]))
                                                  for s, p in phones.items()))
                    for s in answers:
                        answers[s].append(acks[s - 1]["text"])
                live.fire()
                await t.settle()
            seats = by_seat(hub.sent[start:])
            assert all(frames == seats[5] for frames in seats.values())
            assert t.live.game.alive.count(9) == 0 and 8 in t.live.game.alive, "the last choice did not count"
            # the Don's answer, then his re-tap: the answer is still what his screen says
            assert answers[DON][2] == "Player 4 IS the Sheriff."
            assert answers[DON][3].startswith("Player 4 IS the Sheriff.\n") and "checked already" in answers[DON][3]
            assert answers[SHERIFF][5].startswith("Player 1 is MAFIA.\n")
            assert hub.notes.get(SHERIFF, {}).get("text") in (None, "Player 1 is MAFIA.")

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


# ---------------------------------------------------------------- the other rule systems
SVERIGE_DEAL = '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"'
HUNGARIQ_DEAL = '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"'


async def to_night_one_with_a_dead_seat(t: Table, dead: int) -> None:
    """Deal; at night zero a player feels unwell and leaves (dead at dawn); the day runs out by the clock."""
    t.deal()
    await until(lambda: t.live.game.state == "night")
    t.live.submit_event(Leave(dead))
    await t.settle()
    while not (t.live.game.state == "night" and t.live.game.night_no == 1):
        t.live.fire()
        await t.settle()
    assert dead not in t.live.game.alive


def assert_every_seat_saw_the_same_night(phones, sent) -> None:
    seats = by_seat(sent)
    assert len(seats) == 10
    for seat, frames in seats.items():
        assert frames == seats[5], f"seat {seat} received a different night"
    received = {s: [(fr["t"], size) for _, fr, size in p.frames] for s, p in phones.items()}
    assert all(r == received[5] for r in received.values())


def private_texts(phone) -> list[str]:
    return [fr["text"] for _, fr, _ in phone.frames if fr["t"] in ("ack", "note") and fr["text"]]


def test_a_swedish_night_with_doctor_and_sheriff_looks_the_same_on_every_phone():
    async def main():
        cfg = parse_config(f'variant = "sverige"\nlanguage = "en"\nseats = 10\n[dealing]\nroles = {{ {SVERIGE_DEAL} }}\n')
        async with Table(cfg) as t:
            phones = await t.join_all()
            await to_night_one_with_a_dead_seat(t, 10)
            real = {"mafia_kills": {1: 9, 2: 9}, "doctor_saves": {3: 9}, "sheriff_team": {4: 2}}
            sent = await play_night(t, phones, real)
            assert_every_seat_saw_the_same_night(phones, sent)
            assert 9 in t.live.game.alive, "the doctor's save reached the core"
            assert "You chose 9 — you can change it until the step ends." in private_texts(phones[3])
            assert "Player 2 is in the mafia." in private_texts(phones[4])
            for seat, p in phones.items():
                if seat not in (3, 4):
                    assert not any("protect" in x or "is in the" in x for x in private_texts(p)), seat

    asyncio.run(main())


def test_a_hungariq_night_with_the_inspector_and_the_name_reading_vote_looks_the_same_on_every_phone():
    async def main():
        cfg = parse_config(f'variant = "hungariq"\nlanguage = "en"\nseats = 10\n[dealing]\nroles = {{ {HUNGARIQ_DEAL} }}\n')
        async with Table(cfg) as t:
            phones = await t.join_all()
            await to_night_one_with_a_dead_seat(t, 10)
            real = {"inspector_checks": {4: 1}, "mafia_votes": {1: 9, 2: 9, 3: 9}}
            sent = await play_night(t, phones, real)
            assert_every_seat_saw_the_same_night(phones, sent)
            assert 9 not in t.live.game.alive, "the mafia's votes reached the core"
            assert "No: player 1 is a citizen." in private_texts(phones[4]), "the protected mafioso reads as a citizen"
            for seat, p in phones.items():
                votes = [x for x in private_texts(p) if x.startswith("You chose")]
                if seat == 10:
                    # out, and the table knows it (he left at night zero, the morning said so): told so
                    # plainly on his own phone, in frames of the same size at the same moment
                    assert votes == [] and "You left the table and are out of the game. Your taps no longer count." in private_texts(p)
                    continue
                # every living phone reads its own tap in the name vote as a mafioso reads his: the
                # length of the answer does not tell whose phone voted
                assert len(votes) == 1 and votes[0].endswith(" — you can change it until the step ends."), (seat, votes)
                if seat in (1, 2, 3):
                    assert votes == ["You chose 9 — you can change it until the step ends."], seat
                if seat != 4:
                    assert not any(x.startswith(("No:", "Yes:")) for x in private_texts(p)), seat

    asyncio.run(main())


def test_a_reload_mid_step_gives_each_phone_its_own_choice_back_and_every_phone_the_same_frames():
    """The checker and a sleeper reload after tapping: each gets its own answer and its own chosen
    seat back, in frames of the same types and sizes; the other phones get nothing meanwhile."""
    from narrator.companion.testing import Phone

    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await to_first_real_night(t)
            live = t.live
            while live.game.step.name != "sheriff_checks":
                live.fire()
                await t.settle()
            checked = await phones[SHERIFF].tap(DON)
            covered = await phones[5].tap(6)
            assert checked["ok"] and covered["ok"]
            untapped = 7  # this one tapped nothing in the step
            heard = {s: len(p.frames) for s, p in phones.items()}
            back = {}
            for s in (SHERIFF, 5, untapped):
                await phones[s].close()
                back[s] = Phone(t.ws_url, "")
                back[s].key, back[s].n = phones[s].key, phones[s].n
                await back[s].join()
                await until(lambda s=s: any(f["t"] == "note" for _, f, _ in back[s].frames), what="the note")
            await t.settle()
            shapes = {s: [(f["t"], size) for _, f, size in p.frames] for s, p in back.items()}
            assert shapes[SHERIFF] == shapes[5] == shapes[untapped]
            notes = {s: next(f for _, f, _ in p.frames if f["t"] == "note") for s, p in back.items()}
            assert (notes[SHERIFF]["text"], notes[SHERIFF]["chosen"]) == (checked["text"], str(DON))
            assert (notes[5]["text"], notes[5]["chosen"]) == (covered["text"], "6")
            assert (notes[untapped]["text"], notes[untapped]["chosen"]) == ("", None)
            assert all(len(p.frames) == heard[s] for s, p in phones.items() if s not in back)
            # the next step: nothing chosen yet, for anybody
            live.fire()
            await t.settle()
            again = Phone(t.ws_url, "")
            again.key, again.n = back[SHERIFF].key, back[SHERIFF].n
            await back[SHERIFF].close()
            await again.join()
            await until(lambda: any(f["t"] == "note" for _, f, _ in again.frames), what="the note")
            note = next(f for _, f, _ in again.frames if f["t"] == "note")
            assert (note["text"], note["chosen"]) == ("", None)
            for p in list(back.values())[1:] + [again]:
                await p.close()

    asyncio.run(main())


def test_a_mafiosos_phone_names_his_partners_and_every_role_frame_is_the_same_size():
    """The mafia know each other (seed 004 §3.1: night zero's meeting): a mafioso's role frame names
    the rest of the mafia, as the console's hot seat does; the others' name nobody, and every seat's
    role frame is padded to the same size, so nobody learns by its length who has partners."""
    async def main():
        async with Table(config()) as t:
            phones = await t.join_all()
            await t.to_first_day()
            for seat, p in phones.items():
                # from the deal on (held down at the Ready question) to the day
                shown = {fr["mates"] for _, fr, _ in p.frames if fr["t"] == "role" and fr["role"]}
                if seat in MAFIA:
                    others = [s for s in MAFIA if s != seat]
                    assert shown == {f"The rest of the mafia: {others[0]}, {others[1]}"}, shown
                else:
                    assert shown == {""}
            sizes = {f.size for f in t.companion.hub.sent if f.type == "role"}
            assert len(sizes) == 1, sizes

    asyncio.run(main())
