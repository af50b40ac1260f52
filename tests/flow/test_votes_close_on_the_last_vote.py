"""A vote ends when nothing more can change it: once every living player has voted, the table does
not sit out the rest of the window in silence. Seed 004 §4.4 gives the window («Approximate time
to cast a vote is 2 seconds») only so that a late fist counts for the last candidate; with every
fist on the table nobody is late. The same for every vote of every rule system, with hands and
with `[companion] votes = true` (the phones change the words, never when a vote closes). A vote a
player has not cast in waits for its time: a hand table's host types the fists he sees, never
the ones he does not."""

from __future__ import annotations

import pytest

from narrator.flow.days import Game
from narrator.flow.effects import Say, Timer
from narrator.flow.events import Deal, EndSpeech, Nominate, Tap, Timeout
from narrator.rules.variants import VARIANTS


def game(variant: str, seats: int, deal: dict[int, str], phones: bool):
    v = VARIANTS[variant]
    g = Game(v, {k: o.default for k, o in v.rules.items()}, {k: o.default for k, o in v.timers.items()},
             seats, votes_on_phones=phones)
    g.start()
    g.apply(Deal(tuple(sorted(deal.items()))))
    while g.state == "night":
        g.apply(Timeout())  # night zero (or grundregeln's first night): nobody chooses anything
    return g


def everybody(g, vote) -> list:
    """Every living player votes (`vote(seat)` is his Tap); the effects of the last one."""
    *first, last = g.alive
    for seat in first:
        g.apply(vote(seat))
        assert g.timer is not None  # still open: somebody has not voted
    return g.apply(vote(last))


def called_in_turn(g, fists: dict[int, list[int]]) -> list:
    """Classic's vote calls each candidate in turn (seed 004 §4.4): his fists in his call, then his
    window's end; the effects of the last fist, which closes the vote."""
    *first, (last_candidate, last_fists) = fists.items()
    for candidate, voters in first:
        for seat in voters:
            g.apply(Tap(seat, candidate))
        g.apply(Timeout())
    *rest, final = last_fists
    for seat in rest:
        g.apply(Tap(seat, last_candidate))
        assert g.timer is not None  # still open: somebody has not voted
    return g.apply(Tap(final, last_candidate))


def said(effects) -> list[str]:
    return [e.line.removesuffix("_phones") for e in effects if isinstance(e, Say)]


def no_window_left(effects) -> bool:
    """The vote's timer was stopped or replaced by the next one."""
    return any(isinstance(e, Timer) for e in effects)


@pytest.mark.parametrize("phones", [False, True], ids=["hands", "phones"])
def test_classic_every_vote_closes_on_the_last_fist(phones):
    g = game("classic", 10, {1: "sheriff", 2: "don", 3: "mafia", 4: "mafia"}, phones)
    g.apply(Nominate(5))
    g.apply(EndSpeech())
    g.apply(Nominate(6))
    while g.state == "speeches":
        g.apply(EndSpeech())
    last = called_in_turn(g, {5: [1, 3, 5, 7, 9], 6: [2, 4, 6, 8, 10]})  # five and five: a split vote
    assert "split_vote" in said(last) and no_window_left(last)
    g.apply(EndSpeech())
    g.apply(EndSpeech())  # the tied players' 30 s
    last = called_in_turn(g, {5: [1, 3, 5, 7, 9], 6: [2, 4, 6, 8, 10]})  # tied again
    assert "all_leave_question" in said(last) and g.state == "all_leave_vote"
    last = everybody(g, lambda s: Tap(s, answer=False))
    assert "all_stay" in said(last) and g.state == "night"  # nobody for: both stay (seed 002)


@pytest.mark.parametrize("phones", [False, True], ids=["hands", "phones"])
def test_hungariq_the_support_and_execution_votes_close_on_the_last_hand(phones):
    g = game("hungariq", 12, {1: "inspector", 2: "protected_mafia", 3: "mafia", 4: "mafia"}, phones)
    g.apply(Nominate(5, by=1))
    last = everybody(g, lambda s: Tap(s, answer=True))
    assert "accusation_stands" in said(last) and g.state == "debate"
    g.apply(EndSpeech())  # the discussion, then the accused's last word
    g.apply(EndSpeech())
    last = everybody(g, lambda s: Tap(s, answer=False))
    assert "spared" in said(last) and g.state == "accusations"


@pytest.mark.parametrize("phones", [False, True], ids=["hands", "phones"])
def test_sverige_a_name_waits_for_its_hands_and_the_ballot_closes_with_the_last_vote_of_the_day(phones):
    g = game("sverige", 12, {1: "mafia", 2: "mafia", 3: "mafia", 4: "doctor", 5: "sheriff"}, phones)
    g.apply(Nominate(7, by=1))
    g.apply(Nominate(8, by=2))
    while g.state != "nominee_speeches":
        g.apply(Timeout())  # the day, the extension's offer, the last call
    g.apply(EndSpeech())
    g.apply(EndSpeech())
    # seed 000: the hands for 7 go up on NOW; who keeps his vote may still give it to 8, so the
    # name's window runs its time
    for seat in g.alive[:6]:
        g.apply(Tap(seat, 7))
    assert g.state == "hand_vote" and g.ballot[g.ballot_index] == 7
    g.apply(Timeout())
    *first, last_voter = g.alive[6:]
    for seat in first:
        g.apply(Tap(seat, 8))
    last = g.apply(Tap(last_voter, 8))  # every vote of the day is spent: nothing is left to wait for
    assert "tie_revote" in said(last) and no_window_left(last)


@pytest.mark.parametrize("phones", [False, True], ids=["hands", "phones"])
def test_grundregeln_the_pointing_and_the_final_vote_close_on_the_last_finger(phones):
    g = game("grundregeln", 8, {1: "mafia", 2: "mafia", 3: "mafia"}, phones)
    g.apply(EndSpeech())  # the discussion is over: everybody points
    last = everybody(g, lambda s: Tap(s, 4 if s != 4 else 5))
    assert "nominated_two" in said(last) and g.state == "defences"
    g.apply(EndSpeech())
    g.apply(EndSpeech())
    last = everybody(g, lambda s: Tap(s, 4))
    assert "lynched" in said(last)
