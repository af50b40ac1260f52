"""The host screen's count is taken whole or not at all (docs/how-to/phones-and-host-screen.md,
*Day votes on the phones*): the core answers "would every one of these hands be taken?" without taking any —
`first_refusal(events)`, the refusal `apply` would give the first hand it refuses, each hand judged
on the game as the hands before it leave it. The game does not change and records nothing, wherever
the refused hand stands in the entry."""

from __future__ import annotations

import pytest
from conftest import Table

from narrator.flow.events import Tap, Timeout
from narrator.simulate import snapshot


def scorers_call(t: Table) -> None:
    """Seat 1 nominates 7 and seat 2 nominates 5; 7 is called, seat 1's fist goes down for him
    (typed at the console), and his two seconds are over: "Stop.", the count waits."""
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5", "say thank you")
    while t.game.state == "speeches":
        t.do("say thank you")
    t.do("tap 1 7")
    t.session.feed(Timeout(count_waits=True))
    assert t.game.window_over()


@pytest.mark.parametrize("where", [0, 1, 3], ids=["first", "among", "last"])
def test_a_hand_refused_anywhere_in_the_entry_leaves_the_game_as_it_was(where):
    t, twin = Table(), Table()
    scorers_call(t)
    scorers_call(twin)
    entry = [Tap(2, 7), Tap(3, 7), Tap(4, 7)]
    entry.insert(where, Tap(1, 7))  # seat 1 voted already: the console's `tap 1 7`
    before = snapshot(t.game)
    refused = t.game.first_refusal(entry)
    assert (refused.line, refused.args) == ("reject_already_voted", {"seat": 1})
    assert t.session.render(refused.line, refused.args) == "Player 1 has already voted."
    assert snapshot(t.game) == before
    # nothing recorded either: from here the game answers every input as its twin, which never saw the entry
    for line in ("tap 2 7", "timeout", "tap 3 5"):
        assert t.do(line) == twin.do(line), line


def test_each_hand_is_judged_on_the_game_the_hands_before_it_leave():
    """A seat twice in one entry is a second vote at its second hand, as typed one after the other."""
    t = Table()
    scorers_call(t)
    refused = t.game.first_refusal([Tap(2, 7), Tap(3, 7), Tap(2, 7)])
    assert (refused.line, refused.args) == ("reject_already_voted", {"seat": 2})
    assert t.game.votes == {1: 7}


def test_an_entry_that_would_be_taken_whole_is_answered_none_and_not_taken():
    t = Table()
    scorers_call(t)
    before = snapshot(t.game)
    assert t.game.first_refusal([Tap(2, 7), Tap(3, 7)]) is None
    assert snapshot(t.game) == before and t.game.votes == {1: 7}


def test_a_refusal_is_the_one_apply_gives_the_same_hand():
    """A hand for a candidate not called yet: the same line and args as the console's answer."""
    t = Table()
    scorers_call(t)
    refused = t.game.first_refusal([Tap(2, 7), Tap(3, 5)])
    direct = t.refused("tap 3 5")
    assert (refused.line, refused.args, refused.seat) == (direct.line, direct.args, direct.seat)


def test_a_chain_of_deaths_played_on_the_copy_moves_the_copy_alone():
    """A kamikaze's choice runs the chain the game holds as a continuation (a closure over the game,
    seed 001): judged on the copy, it must not kill his victim in the game itself."""
    t = Table(deal="1=inspector 2=protected_mafia 3=mafia 4=mafia 7=kamikaze_citizen", variant="hungariq",
              seats=12, roles={"kamikaze_citizen": 1})
    t.do("say I accuse player 7")
    for s in list(t.game.alive):
        t.do(f"tap {s} yes")
    t.do("timeout", "say thank you")
    for s in list(t.game.alive):
        t.do(f"tap {s} yes")
    assert t.game.state == "kamikaze"
    before = snapshot(t.game)
    assert t.game.first_refusal([Tap(7, 3)]) is None
    assert snapshot(t.game) == before and t.game.state == "kamikaze" and 3 in t.game.alive
    t.do("tap 7 3")  # and the game itself still plays it as before
    assert t.eliminated() == [(7, "vote"), (3, "kamikaze")] and t.game.state == "night"

