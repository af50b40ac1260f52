"""Physical cards (issue 4): the players draw real cards and the narrator learns the roles at night
zero, the way a human host does (seed 004 §4.2: "Don… shows that he's the Don")."""

from __future__ import annotations

from conftest import Table


def cards(**kw) -> Table:
    t = Table(deal="cards", **kw)
    assert t.said()[1:3] == ["night_zero_falls", "identify_wake"]
    return t


def test_each_card_shows_itself_by_tapping_its_own_seat_and_the_deal_is_assembled():
    t = cards()
    t.do("tap 5 5", "tap 6 6", "tap 7 7", "tap 2 2")
    deal = t.records("deal")[-1]
    assert deal["cards"] is True and deal["missing"] == {}
    assert (t.game.role(5), t.game.role(6), t.game.role(7), t.game.role(2), t.game.role(1)) == (
        "don", "mafia", "mafia", "sheriff", "citizen")
    assert t.game.state == "speeches"          # then the usual meetings ran and day 1 began


def test_a_tap_on_another_seat_is_cover_and_shows_nothing():
    t = cards()
    batch = t.do("tap 1 3", "tap 4 9")
    assert t.records("card_shown", batch) == [] and t.told(batch) == []
    assert t.game.step.name == "identify_don"


def test_the_answer_goes_to_the_card_holder_only():
    t = cards()
    batch = t.do("tap 5 5")
    assert [(x.seat, x.line) for x in t.told(batch)] == [(5, "identify_taken")]
    assert "identify_taken" not in t.said(batch)


def test_a_card_that_did_not_show_is_called_once_more():
    t = cards()
    t.do("timeout")
    assert t.said()[-1] == "identify_again" and t.game.step.name == "identify_don"
    t.do("tap 5 5")
    assert t.game.step.name == "identify_mafia"


def test_a_second_claim_of_a_full_role_or_by_a_seat_that_already_showed_is_refused_privately():
    t = cards()
    t.do("tap 5 5", "tap 6 6")
    r = t.refused("tap 5 5")
    assert r.line == "reject_already_claimed" and r.seat == 5
    t.do("tap 7 7", "tap 2 2")
    assert t.game.state == "speeches"


def test_works_with_the_companion_and_keypad_because_every_seat_may_tap_at_every_step():
    t = cards(fixed_night_steps=True)
    assert t.game.awake_seats() == list(range(1, 11))
