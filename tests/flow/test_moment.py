"""The moment as the rules describe it (narrator/flow/moment.py): what the table is doing, what each
seat is asked, what the host may do — one description the phones, the host screen and the console
render. Each rule system's own part is its day module's; the night's is the shared night's."""

from __future__ import annotations

from dataclasses import replace

from conftest import Table


def test_at_night_every_seat_is_asked_the_same_whatever_its_role():
    # the house rule: a phone that lights up betrays nothing — the mafia's step asks every seat,
    # awake or asleep, the same question with the same choices, and counts nobody's answer
    t = Table(variant="classic", seats=10)
    while t.game.moment().step is None or t.game.step.action != "shoot":
        t.do("timeout")
    m = t.game.moment()
    assert m.phase == "night" and m.name == "night" and m.ask == "seat"
    assert m.voters == () and m.decider is None and m.subject is None and m.vote is None
    asks = {replace(t.game.seat_ask(s), seat=0) for s in t.game.seats}
    assert len(asks) == 1, "one shape for the mafia and for the sleepers"
    (ask,) = asks
    assert ask.kind == "seat" and ask.choices == tuple(t.game.alive)
    assert ask.barred == () and not ask.counted and ask.answer is None


def grundregeln_day() -> Table:
    t = Table(deal="1=mafia 2=mafia", variant="grundregeln", seats=8, roles={"mafia": 2})
    t.do("tap 1 8", "tap 2 8")  # seed 003: the game starts with a killing night; 8 dies
    return t


def test_grundregeln_pointing_bars_each_players_own_seat_and_is_given_by_pointing():
    # seed 003: «zeigt jeder Spieler … auf einen Mitspieler» — never at himself
    t = grundregeln_day()
    t.do("timeout")
    m = t.game.moment()
    assert t.game.state == "pointing" and m.name == "state_pointing" and m.answer == "point"
    assert m.ask == "seat" and m.by_vote and m.voters == tuple(t.game.alive)
    for seat in t.game.alive:
        ask = t.game.seat_ask(seat)
        assert ask.counted and ask.kind == "seat" and ask.barred == (seat,)
    t.do("tap 1 3")
    assert t.game.seat_ask(1).answer == (3, None) and not t.game.seat_ask(1).counted


def test_a_grundregeln_tie_is_decided_by_the_last_dead_alone():
    # seed 003: "entscheidet bei einer Pattsituation der letzte Tote"
    t = grundregeln_day()
    t.do("timeout")
    for voter, target in {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 7, 7: 5}.items():
        t.do(f"tap {voter} {target}")
    t.do("say thank you", "say thank you")
    for voter, target in {1: 3, 2: 3, 3: 4, 4: 4, 5: 3, 6: 4}.items():
        t.do(f"tap {voter} {target}")
    t.do("timeout")
    m = t.game.moment()
    assert t.game.state == "tie_break" and m.decider == 8 and m.voters == (8,) and m.subject == 8
    assert m.answer == "vote" and t.game.seat_ask(8).counted
    assert not any(t.game.seat_ask(s).counted for s in t.game.alive)
    assert t.game.seat_ask(8).barred == (), "the dead decider names either nominee"


def test_hungariq_accuses_on_every_screen():
    # seed 001: «Vádat emelek XY ellen», «a vádlott»
    t = Table(deal="1=inspector 2=protected_mafia 3=mafia 4=mafia", variant="hungariq", seats=12)
    assert t.game.moment().accusing
    t.do("say I accuse player number 7")
    m = t.game.moment()
    assert m.name == "state_support_vote" and m.nominations == (7,) and m.subject == 7
    assert m.ask == "yes_no" and m.by_vote and t.game.seat_ask(3).kind == "yes_no"
    assert not Table(variant="classic", seats=10).game.moment().accusing


def test_a_swedish_day_offers_its_one_extension_to_everyone_and_its_votes_are_hands():
    # seed 000 Tid: anyone may ask for the day's one extension; the host has a button for it
    t = Table(deal="1=mafia 2=mafia 3=mafia 4=doctor 5=sheriff", variant="sverige", seats=12)
    assert t.game.moment().nominator_named
    t.do("say seven nominates nine")
    t.do("timeout")
    m = t.game.moment()
    assert m.extension == "extension_offer" and m.name == "state_extension_offer"
    assert m.ask == "extension" and not m.by_vote and m.voters == tuple(t.game.alive)
    assert "extend" in m.host
    t.do("timeout", "timeout")  # nobody wants it; the last call passes
    t.do("say thank you")
    m = t.game.moment()
    # seed 000: a hand goes up for one name at a time, on "NOW"
    assert t.game.state == "hand_vote" and m.answer == "hand" and m.vote == ("seat", (9,))
    assert m.extension is None and "extend" not in m.host


def test_a_classic_vote_calls_its_candidates_one_at_a_time():
    # seed 004 §4.4: «Vote casting is performed in sequence the submissions were made»
    t = Table(variant="classic", seats=10)
    while t.game.state == "night":
        t.do("timeout")
    for seat in (3, 5):
        t.do(f"say I'm submitting player number {seat}", "say thank you")
    while t.game.state == "speeches":
        t.do("say thank you")
    m = t.game.moment()
    assert m.called == (3, 5) and m.calling == 0 and m.name == "state_voting_call"
    assert m.vote == ("seat", (3,)) and m.penalties
