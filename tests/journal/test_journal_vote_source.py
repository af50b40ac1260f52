"""Whose a day vote was is kept in the journal, so a resumed game's phones say it as before.

At a table where the host records a player's vote (the console's `tap 6 7`, his screen) the voter's
phone says "You voted for player 7 (Grace). The host recorded it for you." After a crash and
`narrator resume` the vote came back without that sentence: the journal held the vote, not whose
it was. Each day vote's line now says it (`"by": "host"` or `"by": "phone"`) — a day vote is public
(seed 004 §4.4: the hands are counted in front of the table), so this tells nobody anything. A
night tap never carries it: whose tap it was would tell who is awake. An older journal without the
note reads as before: every vote the voter's own.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from narrator.companion.testing import CLASSIC_DEAL, ManualClockSession, Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate, Tap
from narrator.journal import DamagedJournal, Journal, read

CONFIG = CLASSIC_DEAL + '[players]\n7 = "Grace"\n[rules]\nvote_call = "together"\n'


async def _to_the_vote(live) -> None:
    while live.game.state == "night":
        live.fire()
        await asyncio.sleep(0.02)
    await until(lambda: live.game.state == "speeches", what="the day")
    for seat in (7, 8):
        live.submit_event(Nominate(seat))
        live.submit_event(EndSpeech())
        await asyncio.sleep(0.02)
    while live.game.state == "speeches":
        live.submit_event(EndSpeech())
        await asyncio.sleep(0.02)
    await until(lambda: live.game.state == "voting", what="the vote")


def _played(path) -> None:
    """Night zero, a day with a vote — seat 6's typed at the console, seat 5's tapped on his phone —
    the lynch, his last words, and the mafia's shot tapped on a phone in the first night."""
    async def main():
        journal = Journal.create(path, "club.toml", CONFIG, {})
        live = ManualClockSession(parse_config(CONFIG), journal)
        task = asyncio.create_task(live.run(live.start_effects(), [live.session.dealing_event()]))
        await until(lambda: live.queue is not None and live.game.state != "setup")
        await _to_the_vote(live)
        live.submit_event(Tap(6, 7))                       # the scorer saw seat 6's hand
        live.submit_event(Tap(5, 8), source="companion")   # seat 5's own phone
        await until(lambda: len(live.game.votes) == 2, what="two votes")
        while live.game.state != "night":
            live.fire()
            await asyncio.sleep(0.02)
        await until(lambda: live.game.step is not None and live.game.step.action is not None, what="the mafia's step")
        live.submit_event(Tap(1, 9), source="companion")   # the Don's shot, from his phone
        await asyncio.sleep(0.05)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        journal.close()

    asyncio.run(main())


def _taps(path) -> list[dict]:
    lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    return [x for x in lines if x.get("event", {}).get("type") == "tap"]


def test_each_day_vote_is_journaled_with_whose_it_was_and_no_night_tap_is(tmp_path):
    path = tmp_path / "game.jsonl"
    _played(path)
    by = {(x["event"]["seat"], x["event"].get("target")): x.get("by") for x in _taps(path)}
    assert by[(6, 7)] == "host" and by[(5, 8)] == "phone"
    assert by[(1, 9)] is None, "a night tap says nothing of whose it was"


def test_a_resumed_game_reads_whose_each_vote_was_and_an_older_journal_reads_them_as_the_voters_own(tmp_path):
    path = tmp_path / "game.jsonl"
    _played(path)
    contents = read(path)
    last_vote = max(i for i, e in enumerate(contents.events) if isinstance(e, Tap) and e.seat == 5)
    events = contents.events[: last_vote + 1]  # the crash came in the middle of the vote
    live = ManualClockSession(parse_config(CONFIG), None)
    live.start_effects(replayed=events, by=contents.by)
    votes = {r["voter"]: r.get("by") for r in live.replayed_records if r.get("type") == "vote"}
    assert votes == {6: "host", 5: "phone"}
    # a journal written before the note: the same game, every vote the voter's own, as before
    older = tmp_path / "older.jsonl"
    older.write_text("".join(json.dumps({k: v for k, v in json.loads(x).items() if k != "by"}) + "\n"
                             for x in path.read_text().splitlines()))
    old = read(older)
    assert old.by == {} and len(old.events) == len(contents.events)
    live = ManualClockSession(parse_config(CONFIG), None)
    live.start_effects(replayed=old.events[: last_vote + 1], by=old.by)
    assert {r["voter"]: r.get("by") for r in live.replayed_records if r.get("type") == "vote"} == {6: None, 5: None}


@pytest.mark.parametrize("by", ["nobody", 1, None])
def test_a_damaged_note_of_whose_vote_it_was_is_named_as_damage(tmp_path, by):
    path = tmp_path / "game.jsonl"
    _played(path)
    lines = path.read_text().splitlines()
    n = next(i for i, x in enumerate(lines) if '"by": "host"' in x)
    lines[n] = lines[n].replace('"by": "host"', f'"by": {json.dumps(by)}')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DamagedJournal) as caught:
        read(path)
    assert caught.value.line == n + 1 and "whose vote it was" in str(caught.value)


def test_a_revote_forgets_that_the_host_recorded_the_first_vote():
    """Seed 004 §4.7: a tie, and the tied are voted on again. Seat 6's first vote was typed by the
    host; in the re-vote he votes on his own phone, which says so — not the first round's "The host
    recorded it for you." (whose a vote was goes with the vote, and a new round forgets both)."""
    async def main():
        async with Table(parse_config(CONFIG + "[companion]\nvotes = true\n")) as t:
            phones = await t.join_all()
            await t.to_first_day()
            await t.to_classic_vote(7, 8)
            t.live.submit_event(Tap(6, 7))
            await until(lambda: phones[6].screen.get("voted") == "You voted for player 7 (Grace). The host recorded it for you.",
                        what="the host's vote for seat 6")
            for seat in (1, 2, 3, 4):
                assert (await phones[seat].tap(7))["ok"]
            for seat in (5, 8, 9, 10):
                assert (await phones[seat].tap(8))["ok"]
            assert (await phones[7].tap(8))["ok"]  # 5 to 5: a tie
            await until(lambda: t.live.game.state == "tie_speeches", what="the tie")
            await t.end_speeches(("tie_speeches",))
            await until(lambda: t.live.game.state == "revote" and phones[6].screen.get("state") == "revote", what="the re-vote")
            assert phones[6].screen.get("voted") is None
            assert (await phones[6].tap(7))["ok"]
            await until(lambda: phones[6].screen.get("voted") == "You voted for player 7 (Grace).", what="his own vote")

    asyncio.run(main())
