"""Classic night rules: the shot, the checks, the morning (seed 004 §4.2, §4.5; seed 002)."""

from __future__ import annotations

from conftest import Table
from narrator.flow.effects import Reject, Tell


def night_one(**rules) -> Table:
    t = Table(**rules)
    t.finish_day_speeches()
    assert t.game.state == "night" and t.game.step.name == "mafia_shoots"
    return t


def test_night_order_is_mafia_don_sheriff():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 9")
    assert t.game.step.name == "don_checks"
    t.do("tap 2 5")
    assert t.game.step.name == "sheriff_checks"


def test_all_mafia_on_the_same_seat_kill_at_dawn():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "timeout", "timeout")
    assert t.eliminated() == [(9, "shot")]
    assert "morning_bad" in t.said()
    assert t.game.state == "last_words" and t.game.floor == 9     # seed 004 §4.5: 1 minute last words


def test_a_different_seat_is_a_miss():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 8", "timeout", "timeout")
    assert t.eliminated() == [] and "morning_good" in t.said()


def test_a_mafioso_who_does_not_shoot_makes_it_a_miss():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "timeout", "timeout", "timeout")
    assert t.eliminated() == []


def live_night_one(*day_lines: str) -> Table:
    """Live play: every night step, night zero included, lasts until its timer runs out."""
    t = Table(fixed_night_steps=True)
    assert [t.game.step.name for _ in range(1)] == ["don_meets"]
    t.do("timeout", "timeout", "timeout")
    t.do(*day_lines)
    t.finish_day_speeches()
    assert t.game.step.name == "mafia_shoots"
    return t


def test_a_changed_shot_counts_the_last_choice_in_live_play():
    # seeds 002/004: a miss when one of the mafia shoots elsewhere — judged on the final choices
    # (tests/flow/test_night_choices.py has the whole rule). Live, the step lasts its full time.
    t = live_night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 9")
    assert t.game.step.name == "mafia_shoots"       # live: no early end when all have shot
    t.do("tap 4 8", "timeout", "timeout", "timeout")
    assert t.records("shot")[-1]["seat"] is None and t.eliminated() == []


def test_a_seat_whose_role_is_not_awake_cannot_tap_and_is_answered_privately():
    t = night_one()
    reject = t.refused("tap 5 9")
    assert reject.line == "reject_not_awake" and reject.seat == 5


def test_dead_players_cannot_act():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "timeout", "timeout", "say thank you")
    t.finish_day_speeches()
    assert t.refused("tap 9 3").line == "reject_seat_out"
    assert t.refused("tap 2 9").line == "reject_seat_out"      # shooting a dead seat


def test_don_check_answers_only_the_don():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 9")
    batch = t.do("tap 2 1")
    tells = t.told(batch)
    assert tells == [Tell(2, "check_sheriff", {"seat": 1})]
    assert t.records("check", batch) == [{"type": "check", "by": 2, "seat": 1, "result": "sheriff"}]
    # nothing public reveals the answer
    assert not any(line.startswith("check") for line in t.said(batch))


def test_sheriff_check_red_or_black():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "tap 2 5")
    batch = t.do("tap 1 3")
    assert t.records("check", batch)[0]["result"] == "mafia"
    assert t.told(batch) == [Tell(1, "check_mafia", {"seat": 3})]


def test_the_don_reads_as_mafia_to_the_sheriff():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "tap 2 5", "tap 1 2")
    assert t.records("check")[-1]["result"] == "mafia"


def test_one_check_per_night_and_never_on_oneself():
    t = night_one()
    t.do("tap 2 9", "tap 3 9", "tap 4 9")
    assert t.refused("tap 2 2").line == "reject_check_self"



def test_after_the_one_check_a_tap_on_a_dead_seat_is_told_the_check_is_made():
    # the Don is awake for the whole step (live play): his second tap, on seat 5 who fouled out,
    # meets his check first — and only he is told
    t = live_night_one(*["foul 5"] * 4)
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "timeout")
    assert t.game.step.name == "don_checks"
    t.do("tap 2 1")
    again = t.refused("tap 2 5")
    assert (again.line, again.seat) == ("reject_already_checked", 2)
    assert t.records("check") == [{"type": "check", "by": 2, "seat": 1, "result": "sheriff"}]
    assert t.session.render(again.line, again.args) == "One check per night; you have checked already."
    assert t.refused("tap 1 5").line == "reject_not_awake"     # the Sheriff's check is still to come

def test_a_sheriff_shot_tonight_still_checks_and_leaves_at_dawn():
    # seed 004 §4.5: the shot player leaves at the beginning of the next day
    t = night_one()
    t.do("tap 2 1", "tap 3 1", "tap 4 1", "tap 2 5")
    assert t.game.step.name == "sheriff_checks" and 1 in t.game.alive
    t.do("tap 1 4")
    assert t.records("check")[-1] == {"type": "check", "by": 1, "seat": 4, "result": "mafia"}
    assert t.eliminated() == [(1, "shot")]


def test_a_step_whose_actor_is_dead_passes_at_once_in_replay():
    t = Table()
    t.finish_day_speeches()
    t.do("tap 2 1", "tap 3 1", "tap 4 1", "tap 2 5", "tap 1 4", "say thank you")   # sheriff shot
    t.finish_day_speeches()
    t.do("tap 2 7", "tap 3 7", "tap 4 7", "tap 2 5")
    assert t.game.state == "last_words" and t.game.floor == 7    # the Sheriff's step passed by itself


def test_live_night_steps_last_their_full_time_even_for_dead_roles():
    # DESIGN: night phases of dead roles still play, with the same duration
    t = live_night_one(*["foul 1"] * 4, *["foul 2"] * 4)     # the Sheriff and the Don are out
    steps = []
    for _ in range(3):
        steps.append((t.game.step.name, t.timers()[-1].seconds))
        t.do("timeout")
    assert steps == [("mafia_shoots", 10), ("don_checks", 10), ("sheriff_checks", 10)]


def test_night_narration_is_identical_whoever_is_alive():
    def night_lines(deal: str) -> list[str]:
        t = Table(deal=deal, fixed_night_steps=True)
        t.do("timeout", "timeout", "timeout")
        t.do(*["foul 1"] * 4)
        t.finish_day_speeches()
        before = len(t.effects)
        for _ in range(3):
            t.do("timeout")
        return t.said(t.effects[before:])

    assert night_lines("1=sheriff 2=don 3=mafia 4=mafia") == night_lines("9=sheriff 10=don 3=mafia 5=mafia")


def test_refusals_at_night_are_private_to_the_tapping_seat():
    t = night_one()
    t.do("tap 2 9")
    r = t.refused("tap 7 3")
    assert isinstance(r, Reject) and r.seat == 7
