"""The referee's penalties beyond fouls, and a player who leaves the table (seed 004 §3, §5, §7).

§5: «Following game rules violations immediately result in player's team defeat: 1. Pledge/vow of
any kind ("I swear I'm a citizen") 2. Extortion of any kind, intimidations or bribery attempt
3. Hints from others in the room» and «… immediately result in player's dismissal: 1. Peeking
during night phase … 5. Leave of the gaming table …».
§7: «If a player leaves the game by receiving a 4th foul or disqualification the current or next
vote is cancelled, unless this player has been "killed" at night or exiled by vote. If the vote
result has been decided before dismissal and the dismissed player is not the one exiled, the next
vote is cancelled.»
"""

from __future__ import annotations

import pytest

from conftest import Table
from narrator.flow.effects import HostLine, Say

NOMINATE_7_AND_5 = ("say I'm submitting player number 7", "say thank you", "say I'm submitting player number 5")


def morning(t: Table) -> list[str]:
    said = t.said()
    return said[len(said) - 1 - said[::-1].index("city_wakes"):]


# ------------------------------------------------------------------ disqualification
def test_a_disqualified_player_leaves_without_last_words_and_todays_vote_is_cancelled():
    t = Table()
    t.do(*NOMINATE_7_AND_5)
    batch = t.do("disqualify 9")                   # peeking, insults, gestures…: the referee's call
    # the table hears at once which vote goes, not only when the speeches are over
    assert t.said(batch) == ["disqualified", "vote_cancelled_today"] and t.eliminated() == [(9, "disqualified")]
    assert t.records("disqualification") == [{"type": "disqualification", "seat": 9}]
    assert "last_words_turn" not in t.said()
    t.finish_day_speeches()                         # seat 9's speech is skipped: he is out
    assert [r["seat"] for r in t.records("speech")] == [1, 2, 3, 4, 5, 6, 7, 8, 10]
    assert t.records("vote_cancelled")[-1] == {"type": "vote_cancelled", "day": 1, "reason": "disqualified"}
    assert "vote_cancelled_disqualified" in t.said()
    assert t.game.state == "night" and not t.records("vote_open")


def test_the_speaker_disqualified_mid_speech_hands_the_floor_on():
    t = Table()
    t.do("say thank you", "say thank you")        # seat 3 speaks
    assert t.game.floor == 3
    t.do("disqualify 3")
    assert t.game.floor == 4 and t.game.state == "speeches"


def test_a_disqualification_during_the_vote_stops_it():
    t = Table()
    t.do(*NOMINATE_7_AND_5)
    t.finish_day_speeches()
    t.do("tap 1 7", "disqualify 3")
    assert t.records("vote_cancelled")[-1]["reason"] == "disqualified"
    assert t.game.state == "night" and (7, "vote") not in t.eliminated()
    assert t.game.cancel_vote_day is None          # today's vote was the one cancelled


def test_a_disqualification_after_the_result_cancels_the_next_vote():
    t = Table()
    t.do(*NOMINATE_7_AND_5)
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    t.do("disqualify 8")                            # during 7's last words: today's result stands
    assert t.eliminated() == [(7, "vote"), (8, "disqualified")] and t.game.floor == 7
    t.do("say thank you", "tap 2 9", "tap 3 9", "tap 4 9", "tap 2 1", "tap 1 2", "say thank you")
    assert t.game.day == 2
    t.do("say I'm submitting player number 6", "say thank you", "say I'm submitting player number 10")
    t.finish_day_speeches()
    assert t.records("vote_cancelled")[-1] == {"type": "vote_cancelled", "day": 2, "reason": "disqualified"}


def test_the_exiled_player_disqualified_in_his_last_words_cancels_nothing():
    # §7: «…unless this player has been "killed" at night or exiled by vote»
    t = Table()
    t.do(*NOMINATE_7_AND_5)
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    batch = t.do("disqualify 7")
    assert t.said(batch)[0] == "disqualified_silenced" and t.game.state == "night"
    assert t.game.cancel_vote_day is None and t.eliminated() == [(7, "vote")]


def hosted(batch: list) -> list[str]:
    """The lines told to the host alone."""
    return [e.line for e in batch if isinstance(e, HostLine)]


def test_disqualified_at_night_after_the_shot_is_said_in_the_morning_and_he_was_killed():
    # §5: «Peeking during night phase», «Touching other players or any speaking during the night
    # phase» «immediately result in player's dismissal»: the host alone reads it at once — said into
    # the night it tells the sleeping table who moved — and the morning says it after the night's
    # news; the mafia shot him, so he was killed and no vote is cancelled (§7 «unless this player
    # has been "killed" at night»), and he leaves without last words
    t = Table()
    t.finish_day_speeches()
    t.do("tap 2 6", "tap 3 6", "tap 4 6")          # the mafia shoot 6
    batch = t.do("disqualify 6")                   # he spoke while the Don was awake
    assert t.said(batch) == [] and hosted(batch) == ["night_disqualified_held"] and t.eliminated() == []
    t.do("tap 2 1", "tap 1 2")
    dawn = morning(t)
    assert dawn[:4] == ["city_wakes", "morning_bad", "night_disqualified", "vote_held_shot"]
    assert "last_words_turn" not in dawn and t.eliminated() == [(6, "shot")]
    assert t.game.state == "speeches" and t.game.day == 2 and t.game.cancel_vote_day is None


def test_disqualified_at_night_before_the_shot_he_acts_no_more_and_todays_vote_is_cancelled():
    # a dismissed mafioso shoots no more: the shot is the two still at the table's (§4.5 «all
    # "mafia" players present at the table»)
    t = Table()
    t.finish_day_speeches()
    batch = t.do("disqualify 3")                   # mafioso 3, while the mafia are awake
    assert t.said(batch) == [] and t.game.alive == list(range(1, 11))
    refused = t.refused("tap 3 7")
    assert refused.line == "reject_seat_out" and refused.seat == 3   # his alone, never the table's
    t.do("tap 2 7", "tap 4 7", "tap 2 1", "tap 1 2")
    dawn = morning(t)
    assert dawn[:4] == ["city_wakes", "morning_bad", "night_disqualified", "vote_cancelled_today"]
    assert t.eliminated() == [(7, "shot"), (3, "disqualified")]
    t.do("say thank you")                          # 7's last words; 3 has none
    t.finish_day_speeches()
    assert t.records("vote_cancelled")[-1]["reason"] == "disqualified"


def test_a_disqualification_that_gives_the_mafia_parity_ends_the_game():
    t = Table()
    for seat in (5, 6, 7):                           # three citizens out: 4 town, 3 mafia
        t.do(f"disqualify {seat}")
    assert t.game.state != "over"
    t.do("disqualify 8")
    assert t.game.winner == "mafia" and t.said()[-2] == "mafia_wins"


def test_who_cannot_be_disqualified_is_answered_and_nothing_changes():
    t = Table()
    t.do("disqualify 9")
    assert t.refused("disqualify 9").line == "reject_seat_out"
    assert t.refused("disqualify 11").line == "reject_no_such_seat"
    before_deal = Table(deal=None)
    assert before_deal.refused("disqualify 3").line == "reject_not_started"
    assert before_deal.refused("defeat 3").line == "reject_not_started"
    # the other seeds have no referee who dismisses a player or gives a team the defeat
    sverige = Table(deal="1=mafia 2=mafia 3=mafia 4=doctor 5=sheriff", variant="sverige", seats=12)
    assert sverige.refused("disqualify 3").line == "reject_no_penalties"
    assert sverige.refused("defeat 3").line == "reject_no_penalties"
    no_referee = Table(fouls=False)
    assert no_referee.refused("disqualify 3").line == "reject_no_penalties"


# ------------------------------------------------------------------ team defeat
def test_a_mafiosos_vow_gives_the_mafia_the_defeat_and_the_town_wins():
    # §5.1 «Pledge/vow of any kind ("I swear I'm a citizen")», said by the mafioso at seat 3
    t = Table()
    t.do("say thank you", "say thank you")
    batch = t.do("defeat 3")
    assert t.records("defeat") == [{"type": "defeat", "seat": 3, "team": "mafia"}]
    assert [e.line for e in batch if isinstance(e, Say)] == ["defeat_town_wins", "reveal_roles"]
    assert t.game.winner == "town" and t.game.state == "over"
    assert t.session.render("defeat_town_wins", {"seat": 3}) == "Player 3's team loses by the host's decision. The town wins!"
    assert t.records("game_over")[-1]["winner"] == "town"
    assert t.refused("say thank you").line == "reject_game_over"


def test_a_citizens_threat_gives_the_town_the_defeat_even_in_his_last_words():
    # the classic case: voted out, he swears in his last words that he is a citizen — he is out
    # already, and his team still loses
    t = Table()
    t.do(*NOMINATE_7_AND_5)
    t.finish_day_speeches()
    t.vote({s: 7 for s in range(1, 11)})
    assert t.game.floor == 7 and 7 not in t.game.alive
    t.do("defeat 7")
    assert t.game.winner == "mafia" and "defeat_mafia_wins" in t.said() and "mafia_wins" not in t.said()


def test_a_team_defeat_at_night_ends_the_game_there():
    t = Table()
    t.finish_day_speeches()
    t.do("tap 2 6", "defeat 10")                    # §5.3 a hint from the room for the town
    assert t.game.winner == "mafia" and t.game.state == "over" and t.game.night_no == 1


def test_the_maniacs_defeat_is_his_dismissal_and_the_others_play_on():
    # above ten seats (seed 002) the Maniac is a team of one; said as a disqualification, so the
    # table does not learn that he was the Maniac
    t = Table(deal="1=sheriff 2=don 3=mafia 4=mafia 6=mafia 5=maniac", seats=13, roles={"maniac": 1})
    t.do("defeat 5")
    assert t.game.state == "speeches" and t.eliminated() == [(5, "disqualified")]
    assert "disqualified" in t.said() and t.records("defeat") == [{"type": "defeat", "seat": 5, "team": "maniac"}]


def test_the_defeat_and_disqualification_are_said_in_russian():
    t = Table(lang="ru")
    t.do("disqualify 9")
    assert t.session.render("disqualified", {"seat": 9}) == "Игрок 9 дисквалифицирован и покидает игру без последнего слова."
    t.do("defeat 2")
    texts = [t.session.render(e.line, e.args) for e in t.effects if isinstance(e, Say)]
    assert "Команде игрока 2 засчитывается поражение. Победа мирных жителей!" in texts


# ------------------------------------------------------------------ leaving the table
def test_a_player_who_leaves_at_night_has_no_last_words_and_the_days_vote_is_cancelled():
    # §3 «Player must remain at the table during all times while he is remaining in the game»;
    # §5.5 «Leave of the gaming table» is a dismissal
    t = Table()
    t.finish_day_speeches()
    batch = t.do("leave 6")
    assert t.said(batch) == [] and [(e.seat, e.line) for e in t.told(batch)] == [(6, "player_left_unwell")]
    assert "without last words" in t.session.render("player_left_unwell", {"seat": 6})
    t.do("tap 2 5", "tap 3 5", "tap 4 5", "tap 2 1", "tap 1 2")
    dawn = morning(t)
    assert dawn[:3] == ["city_wakes", "morning_bad", "left_table_at_night"]
    assert [r["seat"] for r in t.records("speech") if r["kind"] == "last_words"] == [5]
    assert t.eliminated() == [(5, "shot"), (6, "left")]
    t.do("say thank you")                            # 5's last words
    t.finish_day_speeches()
    assert t.records("vote_cancelled")[-1] == {"type": "vote_cancelled", "day": 2, "reason": "left"}
    assert "vote_cancelled_left" in t.said()


def test_a_leaver_the_mafia_shot_that_night_was_shot_and_still_has_no_last_words():
    # §7: «unless this player has been "killed" at night»: no vote is cancelled
    t = Table()
    t.finish_day_speeches()
    t.do("leave 6", "tap 2 6", "tap 3 6", "tap 4 6", "tap 2 1", "tap 1 2")
    dawn = morning(t)
    assert dawn[1:3] == ["morning_bad", "left_table_at_night"] and "last_words_turn" not in dawn
    assert t.eliminated() == [(6, "shot")] and t.game.cancel_vote_day is None
    assert t.game.state == "speeches"


def test_a_player_who_leaves_at_night_zero_is_out_before_day_one():
    t = Table(deal=None, fixed_night_steps=True)       # live: every step runs its full time
    t.do("deal 1=sheriff 2=don 3=mafia 4=mafia", "leave 10", "timeout", "timeout", "timeout")
    # no morning after night zero; the day's vote is cancelled with the news
    assert morning(t) == ["city_wakes", "left_table_at_night", "vote_cancelled_today", "speech_turn"]
    assert t.eliminated() == [(10, "left")]
    assert t.game.floor == 1 and t.game.cancel_vote_day == 1


def test_a_player_who_leaves_by_day_is_out_at_once_and_the_vote_is_cancelled():
    t = Table()
    t.do(*NOMINATE_7_AND_5)
    batch = t.do("leave 7")                         # the nominee feels unwell
    assert t.said(batch) == ["left_table", "vote_cancelled_today"] and t.eliminated() == [(7, "left")]
    assert t.game.public_nominations() == [5]
    t.finish_day_speeches()
    assert t.records("vote_cancelled")[-1]["reason"] == "left" and t.game.state == "night"


def test_a_player_who_leaves_during_the_vote_stops_it_and_his_vote_with_it():
    t = Table()
    t.do(*NOMINATE_7_AND_5)
    t.finish_day_speeches()
    t.do("tap 4 7", "leave 4")
    assert t.game.state == "night" and t.records("vote_cancelled")[-1]["reason"] == "left"
    assert not t.records("vote_result")


def test_leaving_by_day_stays_a_night_matter_in_the_other_rule_systems():
    sverige = Table(deal="1=mafia 2=mafia 3=mafia 4=doctor 5=sheriff", variant="sverige", seats=12)
    assert sverige.refused("leave 7").line == "reject_leave_now"


# ------------------------------------------------------------------ journaled, and resumed after a crash
@pytest.mark.e2e
def test_a_disqualification_and_a_team_defeat_are_journaled_and_survive_a_crash(tmp_path):
    """A real `narrator play` killed with kill -9 after the referee's `disqualify 9`: `narrator
    resume` goes on with seat 9 out, and the `defeat 3` typed afterwards ends the game."""
    import signal

    import test_journal_resume as jr
    from narrator.config import load_config
    from narrator.flow.events import Defeat, Disqualify
    from narrator.journal import read
    from narrator.session import Session

    cfg = tmp_path / "club.toml"
    cfg.write_text(jr.CONFIG)
    journal = tmp_path / "journal.jsonl"
    before = ["timeout"] * 3 + ["say I'm submitting player number 7", "say thank you", "disqualify 9"]
    play = jr.start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path)
    play.stdin.write("\n".join(before) + "\n")
    play.stdin.flush()
    jr.wait_for_events(journal, len(before) + 1)
    play.send_signal(signal.SIGKILL)
    play.wait(timeout=10)

    resume = jr.start(["resume", "--journal", str(journal)], tmp_path)
    out, err = resume.communicate("status\ndefeat 3\n", timeout=60)
    assert resume.returncode == 0, err
    assert "Player 3's team loses by the host's decision. The town wins!" in out
    assert "game over" in out
    contents = read(journal)
    assert contents.finished
    assert contents.events.count(Disqualify(9)) == 1 and contents.events[-1] == Defeat(3)
    session = Session(load_config(cfg), fixed_night_steps=True)
    session.start()
    effects = [e for ev in contents.events for e in session.feed(ev)]
    assert session.game.winner == "town" and not session.game.seats[9].alive
    assert [e.entry["cause"] for e in effects if getattr(e, "entry", {}).get("type") == "eliminated"] == ["disqualified"]
