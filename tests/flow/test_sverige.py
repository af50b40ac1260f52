"""Maffia Sverige (seed 000): free day, nominations by anyone, last call, hand votes, the doctor,
the organisation rule, the avenger."""

from __future__ import annotations

import pytest

from narrator.flow.effects import Say
from conftest import Table
from narrator.inputs import InputError
from narrator.rules.variants import sverige_table

DEAL = "1=mafia 2=mafia 3=mafia 4=doctor 5=sheriff"      # 12 players


def day_one(**kw) -> Table:
    t = Table(deal=DEAL, variant="sverige", seats=12, **kw)
    assert t.said()[1:5] == ["night_zero_falls", "mafia_wakes_see", "mafia_sleeps", "city_wakes"]
    assert t.game.state == "discussion"
    return t


def test_night_zero_only_lets_the_mafia_see_each_other_and_the_first_day_is_15_minutes():
    t = day_one()
    assert t.timers()[-1].seconds == 900 and t.eliminated() == []


def test_anyone_nominates_naming_both_players_and_the_narrator_confirms():
    t = day_one()
    batch = t.do("say three nominates seven")
    assert t.records("nomination", batch) == [{"type": "nomination", "by": 3, "seat": 7}]
    assert t.session.render("nominated_by", {"seat": 7, "by": 3}) == "Player 7 is nominated by player 3."


def test_a_swedish_table_hears_each_nomination_and_hand_count_in_whole_sentences():
    # seed 000 Nominering: the nominee's name is said so the game master «kan anteckna den
    # nominerades namn», and the nominator is the only one who may withdraw it; «1 nominerad av 3.»
    # named neither as a player. Each line of the kind — the nomination, its withdrawal, the hand
    # call «De som vill rösta på [nominerad person] ska: räcka. upp. sin hand. NU!» and its count —
    # names the players, in every language
    t = Table(deal="1=mafia 2=mafia 3=doctor", variant="sverige", seats=8, lang="sv")
    t.do("timeout")                                        # night zero: the mafia see each other
    batch = t.do("say tre nominerar sju", "say fyra nominerar ett", "say fyra avnominerar ett")
    shown = [t.session.render(e.line, e.args) for e in batch if isinstance(e, Say)]
    assert shown == ["Spelare 7 är nominerad av spelare 3.", "Spelare 1 är nominerad av spelare 4.",
                     "Spelare 4 avnominerar spelare 1."]
    t.do("timeout", "timeout", "timeout", "say tack")      # the day, the extension offer, the last call, the speech
    t.do("tap 4 7", "tap 5 7", "timeout")
    said = [t.session.render(e.line, e.args) for e in t.effects if isinstance(e, Say)]
    assert said[-5:-2] == ["De som vill rösta på spelare 7 ska räcka upp sin hand. NU!", "Spelare 7: 2 röster.",
                           "Spelare 7 hängs."], said
    from narrator.language import load_voice
    expected = {"en": "Player 7 is nominated by player 3.", "de": "Spieler 7 ist von Spieler 3 nominiert.",
                "ru": "Игрок 3 выставил игрока 7.", "hu": "A 7. játékost a 3. játékos jelölte."}
    for lang, line in expected.items():
        assert load_voice(lang, "sverige").render("nominated_by", {"seat": 7, "by": 3}) == line
    assert load_voice("hu", "sverige").render("withdrawn_by", {"seat": 1, "by": 5}) == "Az 5. játékos visszavonta az 1. játékos jelölését."


def test_one_active_nominee_each_withdrawn_only_by_the_nominator():
    t = day_one()
    t.do("say three nominates seven")
    assert t.refused("say three nominates eight").line == "reject_active_nominee"
    t.do("say four nominates nine")
    assert t.refused("say four withdraws seven").line == "reject_withdraw_not_yours"
    t.do("say three withdraws seven", "say three nominates eight")
    assert t.game.public_nominations() == [9, 8]


def test_a_withdrawal_by_one_who_has_no_nominee_is_answered_as_such():
    # seed 000: «endast den som nominerade en viss person får avnominera samma person och är åter fri
    # att nominera» — after his withdrawal he has nothing left to withdraw; «only the one who
    # nominated 1 can withdraw» sent the table looking for another nominator (seen at a Swedish table)
    t = day_one(lang="sv")
    t.do("say sju nominerar ett", "say åtta nominerar ett", "say sju avnominerar ett")
    refusal = t.refused("say sju drar tillbaka ett")
    assert refusal.line == "reject_nothing_to_withdraw"
    assert t.session.render(refusal.line, refusal.args) == "Spelare 7 har ingen nominering att dra tillbaka."
    assert t.game.public_nominations() == [1]                  # still nominated, by 8
    assert t.refused("say nio avnominerar ett").line == "reject_nothing_to_withdraw"


def test_a_nomination_must_say_who_nominates():
    # anyone may speak, so a sentence without its speaker is not taken as a nomination: it is
    # answered with what is missing, not with the sentence that was just said
    t = day_one()
    assert t.refused("say I'm submitting player number 7").line == "reject_need_nominator"
    assert t.refused("say I'm revoking player number 7").line == "reject_need_nominator"
    assert t.refused("say three nominates three").line == "reject_self_nomination"   # "nominera andra spelare"


def test_a_swedish_table_is_told_to_name_the_nominator():
    t = day_one(lang="sv")
    need = "Säg vem som nominerar, till exempel: tre nominerar sju."
    for said in ("jag nominerar spelare nummer 4", "Jag nominerar sjuan", "jag avnominerar spelare 4"):
        reject = t.refused(f"say {said}")
        assert t.session.render(reject.line, reject.args) == need
    with pytest.raises(InputError) as half:             # a nomination cut short is taught in its whole form
        t.do("say 6 nominerar")
    assert t.session.render(half.value.line, {}) == "Inte godkänt. Säg vem som nominerar vem, till exempel: tre nominerar sju."
    batch = t.do("say 6 nominerar 7")
    assert t.records("nomination", batch) == [{"type": "nomination", "by": 6, "seat": 7}]


def test_a_swedish_nominator_withdraws_in_his_own_words():
    # seed 000: only the nominator withdraws his nomination; a Swedish table says it «drar
    # tillbaka» as often as «avnominerar», and «tre drar tillbaka sju» was table talk
    t = day_one(lang="sv")
    for withdrawn in ("tre drar tillbaka sju", "spelare tre tar tillbaka nomineringen av spelare sju", "tre avnominerar sju"):
        t.do("say tre nominerar sju")
        t.do(f"say {withdrawn}")
        assert t.game.public_nominations() == [], withdrawn
    assert t.refused("say fyra drar tillbaka sju").line == "reject_nothing_to_withdraw"


@pytest.mark.parametrize("lang, said", [("en", "I nominate player 4"), ("de", "Ich nominiere Spieler vier"),
                                        ("ru", "Выставляю игрока номер четыре"), ("hu", "Jelölöm a négyes játékost"),
                                        ("sv", "jag nominerar fyran")])
def test_in_every_language_a_nomination_in_the_first_person_asks_for_the_nominator(lang, said):
    t = day_one(lang=lang)
    assert t.refused(f"say {said}").line == "reject_need_nominator"


def _to_speeches(t: Table, *lines: str) -> None:
    t.do(*lines)
    t.do("timeout")                                     # the day's time is up: the extension is offered
    assert t.said()[-1] == "day_time_up"
    t.do("timeout", "timeout")                          # nobody wants it; the last call passes


def test_one_time_extension_per_day_then_the_last_call():
    t = day_one()
    t.do("timeout", "say extension")
    assert t.timers()[-1].seconds == 180
    t.do("timeout")
    assert t.game.state == "last_call" and t.timers()[-1].seconds == 3
    t.do("say five nominates nine")                    # a last-call nomination restarts the 3 s
    assert t.timers()[-1].name == "last_call"


def test_speeches_follow_the_order_of_first_nomination():
    t = day_one()
    _to_speeches(t, "say three nominates seven", "say four nominates eight", "say three withdraws seven",
                 "say three nominates seven")
    assert t.game.state == "nominee_speeches" and t.game.floor == 7
    assert t.timers()[-1].seconds == 120


def test_hands_on_now_late_hands_do_not_count_one_vote_a_day():
    t = day_one()
    _to_speeches(t, "say three nominates seven", "say four nominates eight")
    t.do("say thank you", "say thank you")
    assert t.game.state == "hand_vote" and t.said()[-1] == "hand_vote"
    t.do("tap 1 7", "tap 2 7")
    # seed 000: the hands went up in front of everybody, so the answer names the vote he gave
    again = t.refused("tap 1 7")
    assert (again.line, again.args) == ("reject_voted_today_for", {"by": 1, "seat": 7})
    assert t.session.render(again.line, again.args) == "Player 1 has already voted today, for player 7."
    t.do("timeout")                                     # the hands for 7 are counted
    assert t.refused("tap 5 7").line == "reject_late_vote"
    t.do("tap 5 8", "timeout")
    assert t.records("vote_result")[-1]["counts"] == {"7": 2, "8": 1}
    assert t.eliminated() == [(7, "vote")]


def test_status_names_the_nominee_whose_hands_are_being_called():
    """«Röstning på spelare» named nobody at `status` when two or more were nominated."""
    from types import SimpleNamespace

    from narrator.console import state_name

    t = day_one(lang="sv")
    _to_speeches(t, "say tre nominerar sju", "say fyra nominerar åtta")
    t.do("say tack", "say tack")
    live = SimpleNamespace(game=t.game, session=t.session)
    assert state_name(live) == "Röstning på spelare 7"
    t.do("tap 1 7", "timeout")
    assert state_name(live) == "Röstning på spelare 8"


def test_a_hand_for_a_nominee_not_yet_called_is_early_and_told_so():
    t = day_one(lang="sv")
    _to_speeches(t, "say 3 nominerar 7", "say 4 nominerar 9", "say 5 nominerar 1")
    t.do("say tack", "say tack", "say tack")
    assert t.game.state == "hand_vote" and t.records("vote_open")[-1]["candidates"] == [7, 9, 1]
    early = t.refused("tap 5 9")
    assert early.line == "reject_not_called_yet"
    assert t.session.render(early.line, early.args) == "Nu röstar vi på spelare 7; rösta på spelare 9 när hen ropas upp."
    t.do("timeout", "tap 5 9")                          # 9 is called: the same hand counts
    assert t.records("vote")[-1] == {"type": "vote", "voter": 5, "seat": 9}

def test_a_tie_is_revoted_among_the_tied_and_a_second_tie_hangs_nobody():
    t = day_one()
    _to_speeches(t, "say three nominates seven", "say four nominates eight")
    t.do("say thank you", "say thank you", "tap 1 7", "timeout", "tap 2 8", "timeout")
    assert t.records("split")[-1]["seats"] == [7, 8] and t.said()[-1] == "hand_vote"
    t.do("tap 1 7", "timeout", "tap 2 8", "timeout")
    assert "tie_again_nobody" in t.said() and t.eliminated() == [] and t.game.state == "night"


def test_the_morning_tells_of_an_attempt_but_not_on_whom():
    t = day_one()
    _to_speeches(t)                                     # nobody nominated: nobody is hanged
    t.do("tap 1 9", "tap 2 9", "tap 3 9", "tap 4 9", "tap 5 1")
    assert "morning_attempt" in t.said() and t.eliminated() == []


def test_the_doctor_must_change_patient_unless_the_save_succeeded():
    t = day_one()
    _to_speeches(t)
    t.do("tap 1 9", "tap 2 9", "tap 3 9", "tap 4 10", "tap 5 1")   # the doctor guarded 10; 9 dies
    _to_speeches(t)
    t.do("tap 1 11", "tap 2 11", "tap 3 11")
    assert t.refused("tap 4 10").line == "reject_same_save"


def test_organisation_rule_with_more_than_ten_players():
    # seed 000 Mål: the village wins when all mafia but one are out — unless ten or fewer started
    from narrator.rules import wins

    assert wins.sverige(["mafia"] + ["citizen"] * 5, started=12, moment="day", avenger_in_play=False, organisation_rule=True) == "town"
    assert wins.sverige(["mafia"] + ["citizen"] * 5, started=10, moment="day", avenger_in_play=False, organisation_rule=True) is None


def test_with_the_avenger_the_mafia_win_only_after_a_night():
    from narrator.rules import wins

    roles = ["mafia", "mafia", "citizen", "citizen"]
    assert wins.sverige(roles, started=20, moment="day", avenger_in_play=True, organisation_rule=False) is None
    assert wins.sverige(roles, started=20, moment="dawn", avenger_in_play=True, organisation_rule=False) == "mafia"


def test_an_unwell_player_leaves_at_night_and_is_announced_as_shot():
    t = day_one()
    _to_speeches(t)
    # «signalera spelledaren under nattfasen»: the game master answers him alone, the table hears nothing
    batch = t.do("leave 12")
    assert t.said(batch) == [] and [(e.seat, e.line) for e in t.told(batch)] == [(12, "player_left_unwell")]
    assert t.told(t.do("leave 12")) == t.told(batch)    # asked again, answered again, taken once
    assert t.records("leaving") == [{"type": "leaving", "seat": 12}]
    t.do("tap 1 9", "tap 2 8", "tap 3 9", "tap 4 1", "tap 5 1")   # the mafia disagree
    assert t.eliminated() == [(12, "left")]
    assert t.session.render("morning_deaths", {"seats": [12], "n": 1}) == "Player 12 died tonight."
    assert "morning_deaths" in t.said()


def test_the_default_table_comes_from_the_balance_search():
    # the seed's diagram is missing: a quarter mafia up to ten players, ~29 % above (README, Balance)
    assert sverige_table(8) == {"mafia": 2, "doctor": 1}
    assert sverige_table(10) == {"mafia": 2, "doctor": 1, "sheriff": 1}
    assert sverige_table(12) == {"mafia": 3, "doctor": 1, "sheriff": 1}
    assert sverige_table(16)["mafia"] == 5
    assert sverige_table(20) == {"mafia": 6, "doctor": 1, "sheriff": 1, "avenger": 1}


def test_after_a_night_without_a_save_the_doctor_may_guard_anyone_again():
    # seed 000: «måste byta person varje natt såvida hen inte lyckats föregående natt» — the
    # person to change is the one of the night before; after a night he guarded nobody, the patient
    # of two nights ago is a change again (he used to be refused as "the same")
    t = day_one()
    _to_speeches(t)
    t.do("tap 1 9", "tap 2 9", "tap 3 9", "tap 4 10", "tap 5 1")   # the doctor guarded 10; 9 dies
    _to_speeches(t)
    t.do("tap 1 11", "tap 2 11", "tap 3 11", "timeout", "tap 5 2")  # the doctor guards nobody; 11 dies
    assert t.eliminated() == [(9, "shot"), (11, "shot")]
    _to_speeches(t)
    t.do("tap 1 10", "tap 2 10", "tap 3 10")
    batch = t.do("tap 4 10")
    assert t.records("protect", batch) == [{"type": "protect", "by": 4, "seat": 10}]
    t.do("tap 5 3")
    assert "morning_attempt" in t.said()[-3:] and t.eliminated() == [(9, "shot"), (11, "shot")]  # 10 saved


def test_an_extension_asked_for_before_the_time_is_up_and_a_foul_are_answered_by_what_the_rules_say():
    """Seed 000 offers the time extension when the day's time runs out, and has no referee's fouls:
    both are answered with the reason, not "I don't understand that input"."""
    t = day_one()
    assert t.refused("say extension").line == "reject_extension_not_yet"
    assert t.refused("foul 3").line == "reject_no_fouls"
    assert t.game.state == "discussion" and t.records("extension") == []


def test_other_rules_have_no_time_extension():
    t = Table(deal="1=don 2=mafia 3=mafia 4=sheriff", variant="classic", seats=10)
    assert t.refused("extend").line == "reject_no_extension"
