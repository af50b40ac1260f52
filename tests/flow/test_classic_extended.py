"""Classic with more than 10 players (seed 002): more mafia, the Putana, the Policeman, the Maniac
and the Doctor, waking in the order Путана, Мафия, Дон, Шериф, Доктор, Маньяк."""

from __future__ import annotations

from conftest import Table
from narrator.rules import wins

ROLES = {"putana": 1, "policeman": 1, "doctor": 1, "maniac": 1}
DEAL = "1=sheriff 2=don 3=mafia 4=mafia 9=mafia 5=putana 6=policeman 7=doctor 8=maniac"


def night_one() -> Table:
    t = Table(deal=DEAL, seats=13, roles=ROLES)
    t.finish_day_speeches()
    return t


def test_thirteen_players_have_four_mafia_and_the_extra_roles_wake_in_the_seed_order():
    t = night_one()
    assert t.game.role_counts == {"don": 1, "mafia": 3, "sheriff": 1, **ROLES}
    order = [s.name for s in t.game.steps if t.game._step_cast(s)]
    assert order == ["putana_visits", "mafia_shoots", "don_checks", "sheriff_checks", "policeman_checks",
                     "doctor_saves", "maniac_kills"]


def test_the_doctor_saves_the_mafias_victim():
    t = night_one()
    t.do("tap 5 12", "tap 2 11", "tap 3 11", "tap 4 11", "tap 9 11", "tap 2 1", "tap 1 2", "tap 6 3",
         "tap 7 11", "tap 8 10")
    assert t.eliminated() == [(10, "shot")]            # 11 was saved; the Maniac's victim dies


def test_the_putana_blocks_a_players_night_action():
    t = night_one()
    t.do("tap 5 1", "tap 2 11", "tap 3 11", "tap 4 11", "tap 9 11", "tap 2 12", "tap 1 2")
    assert t.told()[-1].line == "blocked_no_result"    # the Sheriff learns nothing tonight
    t.do("tap 6 3", "tap 7 12", "tap 8 12")


def test_the_maniac_wins_alone_in_a_duel():
    assert wins.classic(["maniac", "citizen"]) == "maniac"
    assert wins.classic(["mafia", "citizen", "maniac"]) is None
    assert wins.classic(["citizen", "sheriff", "doctor"]) == "town"


def test_the_putana_visiting_herself_is_told_she_cannot_visit_herself():
    # seed 002 names the Putana; she visits a player (the block): the refusal says visit, not check
    t = night_one()
    r = t.refused("tap 5 5")
    assert r.line == "reject_visit_self" and r.seat == 5
    assert t.session.render(r.line, r.args) == "You cannot visit yourself."
