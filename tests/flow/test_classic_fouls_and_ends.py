"""Fouls, draws and wins (seed 004 §1, §5–7)."""

from __future__ import annotations

from conftest import Table


def test_third_foul_skips_the_next_speech_but_he_may_still_nominate():
    # seed 004 §6: "After receiving third foul the player skips next 1 minute speech
    # (but can submit player for a exile vote)."
    t = Table()
    t.do("foul 2", "foul 2", "foul 2")
    assert "third_foul" in t.said()
    t.do("say thank you")
    assert t.game.floor == 2 and t.game.speech_kind == "fouled_turn"
    assert t.timers()[-1].seconds == 10
    t.do("say I'm submitting player number 5")
    assert t.game.nominations == [(2, 5)]


def test_a_third_foul_player_may_speak_in_a_split_vote():
    # seed 004 §7: "If a player received 3rd foul and got into split vote he has right to speak."
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.do("foul 7", "foul 7", "foul 7")
    t.finish_day_speeches()
    t.vote({1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 5, 7: 5, 8: 5, 9: 5, 10: 5})
    assert t.game.state == "tie_speeches" and t.game.floor == 7
    assert t.game.speech_kind == "speech" or t.records("speech")[-1]["kind"] == "tie_speech"


def test_fourth_foul_removes_without_last_words_and_cancels_todays_vote():
    # seed 004 §6–7
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.do(*["foul 9"] * 4)
    assert t.eliminated() == [(9, "fouls")]
    assert "fouled_out" in t.said()
    t.finish_day_speeches()
    assert t.records("vote_cancelled")[-1]["reason"] == "fouls"
    assert t.game.state == "night"


def test_fourth_foul_during_the_vote_stops_it():
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.finish_day_speeches()
    t.do("tap 1 7", *["foul 3"] * 4)
    assert t.records("vote_cancelled")[-1]["reason"] == "fouls"
    assert t.game.state == "night" and (7, "vote") not in t.eliminated()


def test_fourth_foul_after_the_result_cancels_the_next_vote():
    # seed 004 §7: "If the vote result has been decided before dismissal and the dismissed player
    # is not the one exiled, the next vote is cancelled."
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    t.do(*["foul 8"] * 4)                       # during 7's last words
    t.do("say thank you", "tap 2 9", "tap 3 9", "tap 4 9", "timeout", "timeout", "say thank you")
    assert t.game.day == 2
    t.do("say I'm submitting player number 6", "say thank you", "say I'm submitting player number 10")
    t.finish_day_speeches()
    assert t.records("vote_cancelled")[-1] == {"type": "vote_cancelled", "day": 2, "reason": "fouls"}


def test_fourth_foul_of_the_exiled_player_cancels_nothing():
    # seed 004 §7: "…unless this player has been killed at night or exiled by vote."
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    t.do(*["foul 7"] * 4)
    assert "fouled_out_silenced" in t.said() and t.game.state == "night"
    assert t.game.cancel_vote_day is None


def test_a_foul_on_a_dead_player_is_refused():
    t = Table()
    t.do(*["foul 9"] * 4)
    assert t.refused("foul 9").line == "reject_seat_out"


def test_three_quiet_cycles_are_a_draw():
    # seed 004 §7: "If during 3 day and night phases no players left the game — the host announces a draw."
    t = Table()
    for _ in range(3):
        t.finish_day_speeches()
        t.do("timeout", "timeout", "timeout")
    assert t.game.winner == "draw"
    assert t.records("game_over")[0]["winner"] == "draw"


def test_the_draw_names_the_clubs_own_count_of_quiet_cycles():
    # seed 004 §7 counts 3 quiet "day and night" phases; a club that sets another count must not
    # hear "three days and nights" after two (the line used to say three whatever the rule)
    from narrator.flow.effects import Say

    t = Table(draw_after_quiet_cycles=2)
    for _ in range(2):
        t.finish_day_speeches()
        t.do("timeout", "timeout", "timeout")
    assert t.game.winner == "draw"
    said = [e for e in t.effects if isinstance(e, Say) and e.line == "draw"]
    assert [e.args for e in said] == [{"n": 2}]
    assert t.session.render("draw", said[0].args).startswith("2 days and nights in a row passed")
    for lang, start in (("ru", "2 дня и 2 ночи подряд"), ("de", "2 Tage und Nächte in Folge"),
                        ("sv", "2 dagar och nätter i rad"), ("hu", "2 nap és 2 éjszaka")):
        assert Table(lang=lang).session.render("draw", {"n": 2}).startswith(start)
    assert Table(lang="ru").session.render("draw", {"n": 3}).startswith("3 дня и 3 ночи подряд")


def test_the_draw_rule_counts_only_cycles_with_nobody_leaving():
    t = Table()
    t.finish_day_speeches()
    t.do("timeout", "timeout", "timeout")
    t.finish_day_speeches()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "timeout", "timeout", "say thank you")   # someone leaves
    for _ in range(2):
        t.finish_day_speeches()
        t.do("timeout", "timeout", "timeout")
    assert t.game.winner is None


def test_town_wins_when_the_last_mafioso_leaves():
    t = Table()
    for seat in (2, 3, 4):
        t.do(*[f"foul {seat}"] * 4)
    assert t.game.winner == "town"
    assert t.said()[-2:] == ["town_wins", "reveal_roles"]


def test_mafia_wins_when_as_many_as_the_town():
    # seed 004 §1: "equal or greater than number of red team members"
    t = Table()
    for seat in (5, 6, 7):
        t.do(*[f"foul {seat}"] * 4)
    assert t.game.winner is None          # 3 mafia vs 4 town
    t.do(*["foul 8"] * 4)
    assert t.game.winner == "mafia"


def test_nothing_is_accepted_after_the_game_is_over():
    t = Table()
    for seat in (2, 3, 4):
        t.do(*[f"foul {seat}"] * 4)
    assert t.refused("say thank you").line == "reject_game_over"


def test_a_deal_must_fit_the_variant():
    t = Table(deal=None)
    assert t.refused("deal 1=don 2=don 3=mafia 4=sheriff").line == "reject_deal_must_have"
    assert t.refused("deal 1=wizard").line == "reject_unknown_role"
    assert t.refused("deal 11=don").line == "reject_no_such_seat"
    t.do("deal 10=don 9=mafia 8=mafia 7=sheriff")
    assert t.game.role(10) == "don" and t.game.role(1) == "citizen"
    assert t.refused("deal 1=don 2=mafia 3=mafia 4=sheriff").line == "reject_already_dealt"


def test_a_player_fouled_out_at_night_after_the_mafia_shot_him_was_killed():
    # seed 004 §6: "After receiving 4th foul player leaves the game without right for "last words"."
    # §7: the vote is cancelled "unless this player has been "killed" at night". The mafia shot 5,
    # then the referee gave him his fourth foul before dawn: he left at once, without last words,
    # and the morning names him as the night's victim — he was shot — so no vote is cancelled.
    t = Table()
    t.do("foul 5", "foul 5", "foul 5")
    t.finish_day_speeches()                     # nobody nominated: night
    t.do("tap 2 5", "tap 3 5", "tap 4 5")       # the mafia shoot 5
    batch = t.do("foul 5")                      # the fourth, while the Don is awake: said at dawn
    assert "foul" not in t.said(batch) and t.eliminated() == []
    t.do("tap 2 1", "tap 1 2")
    assert t.game.state == "speeches" and t.game.day == 2
    said = t.said()
    dawn = said[len(said) - 1 - said[::-1].index("city_wakes"):]
    assert dawn[1:5] == ["morning_bad", "night_foul", "fouled_out", "vote_held_shot"] and "last_words_turn" not in dawn
    assert t.eliminated() == [(5, "shot")]       # out once, shot: the morning says so
    assert t.records("shot")[-1]["seat"] == 5   # the shot is kept in the protocol as it was fired
    assert t.game.cancel_vote_day is None
