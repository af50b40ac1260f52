"""Classic day rules: speeches, nominations, votes (seed 004 §4.3–4.4, seed 002)."""

from __future__ import annotations

import pytest

from conftest import Table
from narrator.inputs import InputError


def test_night_zero_has_no_kill_and_day_one_opens_with_seat_one(table):
    # seed 004 §4.2: Don, mafia and Sheriff meet; nobody is shot on night zero
    assert table.said()[:9] == [
        "welcome", "night_zero_falls", "don_wakes_meet", "don_sleeps", "mafia_wakes_meet",
        "mafia_sleeps", "sheriff_wakes_meet", "sheriff_sleeps", "city_wakes",
    ]
    assert table.eliminated() == []
    assert table.game.state == "speeches" and table.game.floor == 1


def test_speech_order_rotates_by_day_and_skips_the_dead():
    # seed 002: each day starts with the player after the one who opened the previous day
    t = Table()
    assert t.records("speeches")[0]["order"] == list(range(1, 11))
    t.finish_day_speeches()                       # nobody nominated: no vote, night
    t.do("tap 2 2", "tap 3 2", "tap 4 2")          # mafia shoots seat 2?? they may shoot their own
    t.do("timeout", "timeout")
    t.do("say thank you")                          # last words of 2
    assert t.records("speeches")[1]["order"] == [3, 4, 5, 6, 7, 8, 9, 10, 1]   # seat 2 is dead


def test_a_speech_lasts_one_minute_and_ends_with_thank_you_or_pass(table):
    assert table.timers()[-1].seconds == 60           # seed 004 §4.3
    table.do("say pass")
    assert table.game.floor == 2
    table.do("timeout")
    assert table.game.floor == 3
    assert "time_up" in table.said()


def test_nomination_by_the_speaker_is_accepted_with_its_number(table):
    batch = table.do("say I'm submitting player number seven")
    assert table.records("nomination", batch) == [{"type": "nomination", "by": 1, "seat": 7}]
    assert table.said(batch) == ["nomination_accepted"]
    assert table.session.render("nomination_accepted", {"seat": 7}) == "7 accepted."


def test_russian_nomination_and_ordinal_form():
    t = Table(lang="ru")
    batch = t.do("say Выставляю игрока номер семь")
    assert t.records("nomination", batch) == [{"type": "nomination", "by": 1, "seat": 7}]
    assert t.session.render("nomination_accepted", {"seat": 7}) == "7 принято."
    t.do("say спасибо")
    assert t.refused("say выставляю седьмого").line == "reject_already_nominated"
    t.do("say выставляю третьего")
    assert t.refused("say выставляю четвертого").line == "reject_one_nomination"


def test_one_nomination_per_speaker_per_day(table):
    table.do("say I'm submitting player number 7")
    assert table.refused("say I'm submitting player number 8").line == "reject_one_nomination"


def test_an_already_nominated_player_cannot_be_nominated_again(table):
    table.do("say I'm submitting player number 7", "say thank you")
    assert table.refused("say I'm submitting player number 7").line == "reject_already_nominated"


def test_nominations_only_during_ones_own_speech(table):
    # seed 004 §4.4: "During his/her minute of speaking each player can submit…"
    assert table.refused("tap 3 5").line == "reject_tap_now"
    table.finish_day_speeches()
    assert table.game.state == "night"
    assert table.refused("say I'm submitting player number 7").line == "reject_nominate_now"


def test_unknown_and_dead_seats_are_refused(table):
    assert table.refused("say I'm submitting player number eleven").line == "reject_no_such_seat"
    assert table.refused("say I'm submitting player number 0").line == "reject_no_such_seat"


def test_a_malformed_nomination_is_answered_and_not_accepted(table):
    # seed 002: if any part of the procedure is broken the host does not confirm
    with pytest.raises(InputError) as e:
        table.do("say I'm submitting player")
    assert e.value.line == "not_understood"
    assert table.game.nominations == []


def test_ordinary_talk_is_not_a_command(table):
    assert table.do("say I think seven is suspicious, he voted for three") == []
    assert table.game.nominations == []


def test_revocation_only_during_the_same_speech(table):
    table.do("say I'm submitting player number 7")
    batch = table.do("say I'm revoking player number 7 from vote")
    assert table.records("revocation", batch) == [{"type": "revocation", "by": 1, "seat": 7}]
    assert table.game.nominations == []
    table.do("say I'm submitting player number 8", "say thank you")
    assert table.refused("say I'm revoking player number 8").line == "reject_revoke_not_yours"
    assert table.game.nominations == [(1, 8)]


def test_cancel_withdraws_a_misheard_nomination_of_this_speech(table):
    table.do("say I'm submitting player number 7", "say cancel")
    assert table.game.nominations == []


def test_nominees_are_voted_in_nomination_order_one_vote_each(table):
    table.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    table.finish_day_speeches()
    assert table.game.state == "voting" and table.game.candidates == [7, 5]
    table.do("tap 1 7")
    assert table.refused("tap 1 5").line == "reject_already_voted"
    assert table.refused("tap 2 9").line == "reject_not_candidate"


def test_non_voters_count_for_the_last_candidate():
    # seed 004 §4.4: "If player hasn't voted his vote goes to last player on exile vote."
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.finish_day_speeches()
    t.vote({1: 7, 2: 7, 3: 7, 4: 7})
    result = t.records("vote_result")[0]
    assert result["counts"] == {"7": 4, "5": 6}
    assert result["added_to_last"] == [5, 6, 7, 8, 9, 10]
    assert t.eliminated() == [(5, "vote")]


def test_the_vote_closes_when_every_living_player_has_voted(table):
    table.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    table.finish_day_speeches()
    table.vote({s: 7 for s in range(1, 11)}, close=False)
    assert table.eliminated() == [(7, "vote")]
    assert table.game.state == "last_words"


def test_last_words_one_minute_then_night():
    t = Table()
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    assert t.game.state == "last_words" and t.game.floor == 7
    assert t.timers()[-1].seconds == 60
    t.do("say thank you")
    assert t.game.state == "night"


def test_last_words_can_be_switched_off():
    t = Table(last_words=False)
    t.do("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    assert t.game.state == "night"


def test_day_one_single_nominee_means_no_vote(table):
    # seed 004 §4.4: "If during first Day only one player is submitted the voting is cancelled."
    table.do("say I'm submitting player number 7")
    table.finish_day_speeches()
    assert table.records("vote_cancelled")[-1]["reason"] == "single_nominee_first_day"
    assert table.game.state == "night" and table.eliminated() == []


def _to_day_two(t: Table) -> None:
    t.finish_day_speeches()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "tap 2 5", "tap 1 3")   # seat 9 shot; checks
    t.do("say thank you")                                          # 9's last words


def test_single_nominee_on_a_later_day_leaves_without_a_vote():
    t = Table()
    _to_day_two(t)
    assert t.game.day == 2 and t.game.floor == 2
    t.do("say I'm submitting player number 6")
    t.finish_day_speeches()
    assert (6, "vote") in t.eliminated()
    # said once: "Player 6 is the only nominee and leaves the game.", not again "Player 6 leaves the game."
    said = t.said()
    assert said[said.index("single_nominee_leaves") + 1] == "last_words_turn" and "eliminated_by_vote" not in said
    # nor after «На голосование выставлен игрок 6.»: his own line is the news, said once
    assert said[said.index("single_nominee_leaves") - 1] != "nominees"


def test_several_nominees_are_read_out_as_players_before_the_vote():
    # seed 004 §4.4 «Vote casting is performed in sequence the submissions were made»
    t = Table(lang="ru")
    t.do("say выставляю игрока номер 7", "say спасибо", "say выставляю игрока номер 5")
    while t.game.state == "speeches":
        t.do("say спасибо")
    said = [t.session.render(e.line, e.args) for e in t.effects if type(e).__name__ == "Say"]
    # then the first of them is called, as the host calls each in turn
    assert said[-2:] == ["На голосование выставлены игроки 7 и 5.", "Кто за игрока 7?"]


def test_a_table_voting_together_hears_the_order_and_whose_silence_counts_for_whom():
    # rules.vote_call = "together": one window; as seed 004 §4.4 has it, the silent vote for the last
    t = Table(lang="ru", vote_call='"together"')
    t.do("say выставляю игрока номер 7", "say спасибо", "say выставляю игрока номер 5")
    while t.game.state == "speeches":
        t.do("say спасибо")
    said = [t.session.render(e.line, e.args) for e in t.effects if type(e).__name__ == "Say"]
    assert said[-2:] == ["На голосование выставлены игроки 7 и 5.",
                         "Голосуем в порядке выставления: 7 и 5. Голосуйте. Кто не проголосует, тот голосует за игрока 5."]


def test_single_nominee_rule_option_off_asks_the_table_whether_he_leaves():
    # a vote on him as on several could only send him out: every silent vote counts for the last
    # candidate (seed 004 §4.4), and he is the last. Off, the option gives seed 002's reading,
    # «Та кандидатура, которая набрала большинство голосов, выбывает»: yes or no, and a majority
    t = Table(single_nominee_eliminated=False)
    _to_day_two(t)
    t.do("say I'm submitting player number 6")
    t.finish_day_speeches()
    assert t.game.state == "single_vote" and t.game.vote_choices() == ("yes_no", [])
    assert t.said()[-1] == "single_nominee_question"
    assert t.session.render("single_nominee_question", {"seat": 6}) == (
        "Player 6 is the only nominee. Who is for player 6 leaving the game? Yes or no.")
    t.vote({1: "yes", 2: "yes", 3: "yes", 4: "no"})   # three of nine living: no majority
    said = t.said()
    assert said[said.index("all_leave_count"):][:3] == ["all_leave_count", "single_nominee_stays", "night_falls"]
    assert t.game.state == "night" and (6, "vote") not in t.eliminated()
    assert t.records("vote_result")[-1] == {"type": "vote_result", "round": "single", "seat": 6, "yes": 3,
                                            "electorate": 9, "passed": False}


def test_a_lone_nominee_the_majority_votes_out_leaves_with_his_last_words():
    t = Table(single_nominee_eliminated=False)
    _to_day_two(t)
    t.do("say I'm submitting player number 6")
    t.finish_day_speeches()
    t.vote({s: "yes" for s in (1, 2, 3, 4, 5)})  # five of nine
    assert (6, "vote") in t.eliminated() and t.game.state == "last_words" and t.game.floor == 6
    said = [t.session.render(e.line, e.args) for e in t.effects if type(e).__name__ == "Say"]
    assert said[-3:] == ["5 votes for.", "Player 6 leaves the game.", "Player 6, your last words."]


def test_a_first_day_vote_on_a_lone_nominee_is_the_same_question():
    t = Table(first_day_single_nominee_vote=True)
    t.do("say I'm submitting player number 7")
    t.finish_day_speeches()
    assert t.game.state == "single_vote"
    t.vote({s: "yes" for s in range(1, 11)})
    assert (7, "vote") in t.eliminated()


def test_a_lone_nominee_disqualified_during_his_vote_cancels_it():
    # seed 004 §7: the current vote is cancelled
    t = Table(single_nominee_eliminated=False)
    _to_day_two(t)
    t.do("say I'm submitting player number 6")
    t.finish_day_speeches()
    t.do("tap 1 yes", "disqualify 6")
    assert t.game.state == "night" and t.records("vote_cancelled")[-1]["reason"] == "disqualified"


def _split(t: Table, a: int = 7, b: int = 5) -> None:
    t.do(f"say I'm submitting player number {a}", "say thank you", f"say I'm submitting player number {b}")
    t.finish_day_speeches()
    t.vote({1: a, 2: a, 3: a, 4: a, 5: a, 6: b, 7: b, 8: b, 9: b, 10: b})


def test_split_vote_gives_30_second_speeches_in_nomination_order_then_a_revote():
    # seed 004 §4.4 and seed 002 "Автокатастрофа"
    t = Table()
    _split(t)
    assert t.records("split") == [{"type": "split", "seats": [7, 5]}]
    assert t.game.state == "tie_speeches" and t.game.floor == 7
    assert t.timers()[-1].seconds == 30
    t.do("say thank you")
    assert t.game.floor == 5
    t.do("timeout")
    assert t.game.state == "revote" and t.game.candidates == [7, 5]
    t.vote({s: 5 for s in range(1, 11)})
    assert t.eliminated() == [(5, "vote")]


def test_tied_twice_asks_whether_all_leave_majority_yes_removes_both():
    t = Table()
    _split(t)
    t.do("say thank you", "say thank you")
    t.vote({1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 5, 7: 5, 8: 5, 9: 5, 10: 5})
    assert t.game.state == "all_leave_vote"
    t.vote({1: "yes", 2: "yes", 3: "yes", 4: "yes", 5: "yes", 6: "yes", 7: "no"})
    assert t.eliminated() == [(7, "vote"), (5, "vote")]
    assert t.game.state == "last_words"


def test_all_leave_without_a_majority_keeps_everybody():
    # seed 002: "если голоса делятся поровну, игроки остаются в игре"; silence is not a yes
    t = Table()
    _split(t)
    t.do("say thank you", "say thank you")
    t.vote({1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 5, 7: 5, 8: 5, 9: 5, 10: 5})
    t.vote({1: "yes", 2: "yes", 3: "yes", 4: "yes", 5: "yes", 6: "no"})
    assert t.eliminated() == [] and t.game.state == "night"


def _day_two_with_nine(t: Table) -> None:
    t.finish_day_speeches()
    t.do("tap 2 9", "tap 3 9", "tap 4 9", "tap 2 5", "tap 1 3", "say thank you")


def test_three_tied_twice_ends_the_vote():
    # seed 004 §7: "If 3 players receive equal number of votes two times the vote ends."
    t = Table()
    _day_two_with_nine(t)
    assert t.game.floor == 2
    t.do("say I'm submitting player number 5", "say thank you", "say I'm submitting player number 6",
         "say thank you", "say I'm submitting player number 7")
    t.finish_day_speeches()
    three_way = {1: 5, 2: 5, 3: 5, 4: 6, 5: 6, 6: 6, 7: 7, 8: 7, 10: 7}
    t.vote(three_way)
    assert t.records("split")[0]["seats"] == [5, 6, 7]
    t.pass_speeches(3)
    t.vote(three_way)
    assert t.records("vote_ends")[0]["reason"] == "tie_twice"
    assert "tie_twice_vote_ends" in t.said()
    assert t.game.state == "night" and [s for s, c in t.eliminated() if c == "vote"] == []


def test_no_vote_is_ever_held_to_remove_all_remaining_players():
    # seed 004 §7: "Vote for exile of ALL remaining players is not conducted."
    t = Table(three_way_tie_twice_ends=False)
    for seat in (3, 4, 6, 7, 8, 9, 10):       # fouls leave 1 (Sheriff), 2 (Don), 5 (citizen)
        t.do(*[f"foul {seat}"] * 4)
    assert t.game.alive == [1, 2, 5] and t.game.winner is None
    t.finish_day_speeches()                    # today's vote is cancelled by the fouls
    t.do("timeout", "timeout", "timeout")      # the Don misses, checks time out
    t.do("say I'm submitting player number 2", "say thank you")
    t.do("say I'm submitting player number 5", "say thank you")
    t.do("say I'm submitting player number 1", "say thank you")
    t.vote({1: 2, 2: 5, 5: 1})
    t.pass_speeches(3)
    t.vote({1: 2, 2: 5, 5: 1})
    assert t.records("vote_ends")[0]["reason"] == "would_remove_everyone"
    assert t.game.alive == [1, 2, 5]


def test_a_russian_night_zero_has_the_don_and_the_sheriff_meet_the_host():
    # seed 002: «„Шериф“ открывает глаза и знакомится с „Ведущим“»; seed 004 §4.2 the Don shows
    # himself to the host too — the narrator is that host («…и показывает себя» was no Russian a
    # club host says)
    t = Table(lang="ru", fixed_night_steps=True)
    t.do("timeout", "timeout", "timeout")                   # the Don, the mafia, the Sheriff
    said = [t.session.render(e.line, e.args) for e in t.effects if type(e).__name__ == "Say"]
    assert said[1:8] == ["Наступает ночь. Город засыпает. Все надевают маски.",
                         "Просыпается Дон. Дон знакомится с ведущим.", "Спасибо, Дон. Дон засыпает.",
                         "Просыпается мафия и знакомится. Решающее слово за Доном.", "Спасибо, мафия. Мафия засыпает.",
                         "Просыпается Шериф. Шериф знакомится с ведущим.", "Спасибо, Шериф. Шериф засыпает."]


def test_the_report_draws_the_vote_on_a_lone_nominee_as_its_question(tmp_path):
    from conftest import config_text
    from narrator.config import parse_config
    from narrator.report import read_game, render
    from narrator.replay import replay

    cfg = parse_config(config_text(rules={"first_day_single_nominee_vote": True}))
    game = "\n".join(["deal 1=sheriff 2=don 3=mafia 4=mafia", "say I'm submitting player number 7",
                      *["say thank you"] * 10, "tap 1 yes", "tap 2 yes", "tap 3 no", "timeout"])
    proto = tmp_path / "single.jsonl"
    with proto.open("w", encoding="utf-8") as fh:
        replay(game, cfg, fh, name="single.txt")
    html = render(read_game(proto))
    assert "Does " in html and " leave?" in html and "2 yes of 10" in html


def test_a_game_resumed_in_the_vote_on_a_lone_nominee_hears_the_question_again():
    from conftest import config_text
    from narrator.config import parse_config
    from narrator.flow.effects import Say
    from narrator.flow.events import EndSpeech, Nominate, Tap, Timeout
    from narrator.live import LiveSession

    cfg = parse_config(config_text(rules={"first_day_single_nominee_vote": True}) + "[dealing]\nmode = \"seeded\"\nseed = 3\n")
    live = LiveSession(cfg, None)
    events = [live.session.dealing_event(), Timeout(), Timeout(), Timeout(), Nominate(7), *[EndSpeech()] * 10,
              Tap(1, answer=True)]
    said = [(e.line, e.args) for e in live.start_effects(replayed=events) if isinstance(e, Say)]
    assert live.game.state == "single_vote" and live.game.answers == {1: True}
    assert said == [("resuming", {}), ("single_nominee_question", {"seat": 7})], said
