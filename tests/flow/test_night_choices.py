"""Every night choice may be changed until its step closes, and the last choice is the one that
counts; a check is answered at once and is final.

Seed 002: the host records a miss «если кто-то из членов Мафии стреляет в другой номер, либо не
стреляет вообще» — a different seat or no shot. Seed 004 §4.5: "if all mafia players shoot at the
same player — the player gets killed". A phone, the keypad or the console holds one choice per
player that he may correct while the step lasts (seed 004's "shoots twice" is a gesture at two
numbers of the host's count, which a single held choice cannot be), so the mafia miss only when
their *final* choices differ or one of them made none.

Live play keeps every step open for its full time (`fixed_night_steps`), which is where a player
has the time to change his mind; each step here ends with `timeout`.
"""

from __future__ import annotations

from conftest import Table
from narrator.flow.effects import Tell


def to_step(t: Table, name: str) -> Table:
    """Play on (speeches thanked, everything else timed out) until the night step `name` is open."""
    for _ in range(300):
        g = t.game
        if g.state == "night" and g.step is not None and g.step.name == name:
            return t
        t.do("say thank you" if g.state == "speeches" else "timeout")
    raise AssertionError(f"never reached {name}: {t.game.state}")


def classic(**kw) -> Table:
    return to_step(Table(fixed_night_steps=True, **kw), "mafia_shoots")       # mafia: 2 (Don), 3, 4


def finish_night(t: Table) -> None:
    while t.game.state == "night":
        t.do("timeout")


# ------------------------------------------------------------------ the mafia's shot (seeds 002, 004)

def test_a_mafioso_who_taps_the_same_seat_again_still_kills():
    # issue 9: every mafioso tapped 7, the Don tapped 7 again — the morning must not be good
    t = classic()
    t.do("tap 2 7", "tap 3 7", "tap 4 7", "tap 2 7")
    finish_night(t)
    assert t.eliminated() == [(7, "shot")] and "morning_bad" in t.said()


def test_a_changed_shot_counts_the_last_choice():
    t = classic()
    t.do("tap 2 9", "tap 3 7", "tap 4 7", "tap 2 7")      # the Don comes round to his partners' seat
    finish_night(t)
    assert t.eliminated() == [(7, "shot")]
    assert t.records("shot")[-1]["shooters"] == {"2": [9, 7], "3": [7], "4": [7]}   # the protocol keeps the changes


def test_a_change_away_from_the_agreed_seat_is_a_miss_seed_002():
    # seed 002: one of the mafia shooting at another number is a miss — judged on the final choices
    t = classic()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "tap 4 8")
    finish_night(t)
    assert t.records("shot")[-1]["seat"] is None and t.eliminated() == [] and "morning_good" in t.said()


def test_changing_away_and_back_again_kills():
    t = classic()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "tap 4 8", "tap 4 9")
    finish_night(t)
    assert t.eliminated() == [(9, "shot")]


def test_a_mafioso_who_never_chooses_still_makes_it_a_miss_seed_002():
    t = classic()
    t.do("tap 2 9", "tap 3 9", "tap 2 9", "tap 3 9")
    finish_night(t)
    assert t.eliminated() == []


def test_every_change_is_answered_you_chose_and_can_change():
    t = classic()
    batch = t.do("tap 3 9", "tap 3 5")
    assert t.told(batch) == [Tell(3, "choice_taken", {"seat": 9}), Tell(3, "choice_taken", {"seat": 5})]
    assert t.session.render("choice_taken", {"seat": 7}) == "You chose 7 — you can change it until the step ends."


def test_in_replay_a_change_before_the_last_mafioso_taps_counts():
    t = Table()                                       # replay: the step closes once every mafioso chose
    t.finish_day_speeches()
    t.do("tap 2 9", "tap 2 8", "tap 3 8", "tap 4 8")
    assert t.game.step.name == "don_checks"
    t.do("timeout", "timeout")
    assert t.eliminated() == [(8, "shot")]


# ------------------------------------------------------------------ checks are final

def test_a_check_is_answered_once_and_a_second_tap_changes_nothing():
    t = classic()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "timeout")
    assert t.game.step.name == "don_checks"
    first = t.do("tap 2 1")
    assert t.told(first) == [Tell(2, "check_sheriff", {"seat": 1})]
    again = t.refused("tap 2 5")
    assert again.line == "reject_already_checked" and again.seat == 2      # private, to the Don only
    t.do("timeout")
    t.do("tap 1 2")
    assert t.refused("tap 1 3").line == "reject_already_checked"
    assert [(c["by"], c["seat"]) for c in t.records("check")] == [(2, 1), (1, 2)]


# ------------------------------------------------------------------ every other changeable choice

EXTENDED = dict(deal="1=sheriff 2=don 3=mafia 4=mafia 9=mafia 5=putana 6=policeman 7=doctor 8=maniac",
                seats=13, roles={"putana": 1, "policeman": 1, "doctor": 1, "maniac": 1})


def test_the_doctor_may_change_his_save_and_the_last_one_counts():
    t = to_step(Table(fixed_night_steps=True, **EXTENDED), "mafia_shoots")
    t.do("tap 2 11", "tap 3 11", "tap 4 11", "tap 9 11")
    to_step(t, "doctor_saves")
    t.do("tap 7 12", "tap 7 11")
    finish_night(t)
    assert (11, "shot") not in t.eliminated()          # seed 002: the doctor guessed the victim


def test_the_maniac_may_change_his_victim():
    t = to_step(Table(fixed_night_steps=True, **EXTENDED), "maniac_kills")
    t.do("tap 8 12", "tap 8 10")
    finish_night(t)
    assert t.eliminated() == [(10, "shot")]


def test_the_putana_may_change_her_visit_and_only_the_last_one_is_blocked():
    t = to_step(Table(fixed_night_steps=True, **EXTENDED), "putana_visits")
    t.do("tap 5 1", "tap 5 6")                         # first the Sheriff, then the Policeman
    assert t.game.blocked == {6}
    to_step(t, "sheriff_checks")
    batch = t.do("tap 1 2")
    assert t.told(batch) == [Tell(1, "check_mafia", {"seat": 2})]      # the Sheriff was freed
    to_step(t, "policeman_checks")
    assert t.told(t.do("tap 6 3"))[-1].line == "blocked_no_result"


def test_sverige_mafia_doctor_and_avenger_choices_can_be_changed():
    t = to_step(Table(deal="1=mafia 2=mafia 3=mafia 4=doctor 5=sheriff 6=avenger", variant="sverige", seats=12,
                      roles={"avenger": 1}, fixed_night_steps=True), "mafia_kills")
    t.do("tap 1 7", "tap 2 7", "tap 3 8", "tap 3 7")
    to_step(t, "doctor_saves")
    t.do("tap 4 7", "tap 4 9")                          # the doctor changes his mind: 7 is not saved
    to_step(t, "sheriff_team")
    t.do("tap 5 1")
    assert t.refused("tap 5 2").line == "reject_already_checked"
    to_step(t, "avenger_shoots")
    t.do("tap 6 10", "tap 6 11")
    finish_night(t)
    assert sorted(t.eliminated()) == [(7, "shot"), (11, "shot")]


HUNGARIQ = dict(deal="1=inspector 2=protected_mafia 3=mafia 4=mafia 5=bodyguard 6=sarika 7=vogon", variant="hungariq",
                seats=12, roles={"bodyguard": 1, "sarika": 1, "vogon": 1}, fixed_night_steps=True)


def test_hungariq_mafia_vote_bodyguard_and_sarika_can_be_changed_the_vogons_watch_is_final():
    t = to_step(Table(**HUNGARIQ), "inspector_checks")
    t.do("tap 1 9")
    assert t.refused("tap 1 2").line == "reject_already_checked"
    to_step(t, "bodyguard_protects")
    t.do("tap 5 10", "tap 5 11")                        # 10 is left unguarded
    to_step(t, "sarika_votes")
    t.do("tap 6 12", "tap 6 8")                         # Sárika's last vote is on someone else
    to_step(t, "mafia_votes")
    # seed 001: one name and one only — each mafioso's last name is his vote
    t.do("tap 2 9", "tap 3 10", "tap 4 10", "tap 2 10")
    to_step(t, "vogon_watches")
    batch = t.do("tap 7 10")
    assert t.told(batch) == [Tell(7, "watch_someone", {"seat": 10})]
    assert t.refused("tap 7 9").line == "reject_already_checked"
    finish_night(t)
    assert t.eliminated() == [(10, "shot")]


def test_grundregeln_kill_counts_the_last_choice_seed_003():
    t = Table(deal="1=mafia 2=mafia", variant="grundregeln", seats=8, roles={"mafia": 2}, fixed_night_steps=True)
    assert t.game.step.name == "mafia_kills"
    t.do("tap 1 5", "tap 2 6", "tap 1 6")
    finish_night(t)
    assert t.eliminated() == [(6, "shot")]


def test_a_refused_change_keeps_the_earlier_choice():
    # seed 000: the doctor may not protect the same person twice in a row unless the save succeeded
    t = to_step(Table(deal="1=mafia 2=mafia 3=mafia 4=doctor 5=sheriff", variant="sverige", seats=12,
                      fixed_night_steps=True), "doctor_saves")
    t.do("tap 4 9")
    finish_night(t)
    to_step(t, "doctor_saves")
    t.do("tap 4 8")
    assert t.refused("tap 4 9").line == "reject_same_save"
    assert t.game.intents["doctor_saves"][4][-1] == 8
