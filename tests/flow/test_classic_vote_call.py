"""Classic's vote as a sports-mafia host runs it (seed 004 §4.4): «Vote casting is performed in
sequence the submissions were made. To cast his vote player must put his fist on a table right
after vote for certain candidate has been announced and before host says "Stop" or "Thank you".
Approximate time to cast a vote is 2 seconds.» and «If player hasn't voted his vote goes to last
player on exile vote.»

The host calls each candidate in nomination order — «Кто за игрока 3?» — the fists go down for two
seconds, «Спасибо», the next. One ballot: each living player votes once. A fist for a candidate not
called yet is refused and changes nothing; one the scorer types for a candidate called already is
him catching up, and counts. `[rules] vote_call = "together"` keeps one window for every candidate.
"""

from __future__ import annotations

import pytest
from conftest import Table

from narrator.flow.effects import Reject, Say
from narrator.flow.events import Timeout, event_from_dict, event_to_dict
from narrator.simulate import snapshot


def nominated(t: Table, *seats: int) -> list:
    """The first speakers nominate `seats` in this order, the others pass; the effects of the last
    speech's end, which opens the vote."""
    for seat in seats:
        t.do(f"say I'm submitting player number {seat}", "say thank you")
    batch = []
    while t.game.state == "speeches":
        batch = t.do("say thank you")
    return batch


def heard(t: Table, batch: list) -> list[str]:
    return [t.session.render(e.line, e.args) for e in batch if isinstance(e, Say)]


def test_the_candidates_are_called_one_at_a_time_in_nomination_order_each_with_two_seconds():
    t = Table()
    opened = nominated(t, 7, 5, 6)
    assert heard(t, opened)[-2:] == ["Nominated for the vote: players 7, 5 and 6.", "Who votes for player 7?"]
    assert [(x.name, x.seconds) for x in t.timers(opened)][-1] == ("vote_each", 2)
    second = t.do("timeout")
    assert heard(t, second) == ["Stop.", "Who votes for player 5?"]
    assert [(x.name, x.seconds) for x in t.timers(second)] == [("vote_each", 2)]
    # the last call says where every silent vote goes
    third = t.do("timeout")
    assert heard(t, third) == ["Stop.", "Who votes for player 6? Every vote not yet cast goes to player 6."]
    counts = t.do("timeout")
    assert heard(t, counts)[:4] == ["Stop.", "Player 7: 0 votes.", "Player 5: 0 votes.", "Player 6: 10 votes."]


def test_a_russian_host_calls_and_thanks():
    t = Table(lang="ru")
    t.do("say выставляю игрока номер 3", "say спасибо", "say выставляю игрока номер 8")
    batch = []
    while t.game.state == "speeches":
        batch = t.do("say спасибо")
    assert heard(t, batch)[-1] == "Кто за игрока 3?"
    assert heard(t, t.do("timeout")) == ["Спасибо.", "Кто за игрока 8? Все, кто ещё не проголосовал, голосуют за игрока 8."]


def test_a_silent_vote_goes_to_the_last_candidate():
    t = Table()
    nominated(t, 7, 5)
    t.vote({1: 7, 2: 7, 3: 7, 4: 7})
    result = t.records("vote_result")[-1]
    assert result["counts"] == {"7": 4, "5": 6} and result["added_to_last"] == [5, 6, 7, 8, 9, 10]
    assert t.eliminated() == [(5, "vote")]


def test_a_fist_for_a_candidate_not_yet_called_is_refused_and_changes_nothing():
    t = Table()
    nominated(t, 7, 5)
    refusal = t.refused("tap 1 5")
    assert refusal.line == "reject_not_called_yet" and refusal.args == {"seat": 7, "later": 5}
    assert t.session.render(refusal.line, refusal.args) == \
        "We are voting for player 7 now; vote for player 5 when that name is called."
    assert t.game.votes == {} and t.game.calling == 0


def test_a_fist_the_scorer_types_late_for_a_candidate_already_called_counts():
    t = Table()
    nominated(t, 7, 5, 6)
    t.do("tap 1 7", "timeout")            # 7's call is over; 5 is being called
    t.do("tap 2 5", "tap 3 7")            # the scorer catches up with 3's fist for 7
    assert t.game.votes == {1: 7, 2: 5, 3: 7}
    assert t.refused("tap 3 5").line == "reject_already_voted"    # one ballot: one vote each
    t.do("timeout", "timeout")
    assert t.records("vote_result")[-1]["counts"] == {"7": 2, "5": 1, "6": 7}


def test_a_tap_without_a_name_is_a_fist_for_the_one_being_called():
    t = Table()
    nominated(t, 7, 5)
    t.do("timeout", "tap 4 yes")
    assert t.game.votes == {4: 5}


def test_the_vote_closes_on_the_last_fist_and_the_calls_still_to_come_are_skipped():
    t = Table()
    nominated(t, 7, 5, 6)
    for seat in range(1, 10):
        t.do(f"tap {seat} 7")
    last = t.do("tap 10 7")
    assert heard(t, last)[:4] == ["Stop.", "Player 7: 10 votes.", "Player 5: 0 votes.", "Player 6: 0 votes."]
    assert "Who votes for player 5?" not in heard(t, t.effects)
    assert t.eliminated() == [(7, "vote")]


def test_a_split_vote_calls_the_tied_again_in_their_order():
    t = Table(lang="ru")
    t.do("say выставляю игрока номер 7", "say спасибо", "say выставляю игрока номер 5", "say спасибо",
         "say выставляю игрока номер 6")
    while t.game.state == "speeches":
        t.do("say спасибо")
    t.vote({1: 7, 2: 7, 3: 7, 4: 5, 5: 5, 6: 5, 7: 6, 8: 6, 9: 6, 10: 6})      # 3 : 3 : 4 — no split
    assert t.eliminated() == [(6, "vote")]
    t = Table(lang="ru")
    t.do("say выставляю игрока номер 7", "say спасибо", "say выставляю игрока номер 5", "say спасибо",
         "say выставляю игрока номер 6")
    while t.game.state == "speeches":
        t.do("say спасибо")
    t.vote({1: 7, 2: 7, 3: 7, 4: 7, 5: 5, 6: 5, 7: 5, 8: 5, 9: 6, 10: 6})      # 4 : 4 : 2
    assert t.records("split")[-1]["seats"] == [7, 5]
    t.do("say спасибо")                                                      # 7's 30 s
    opened = t.do("say спасибо")                                             # 5's
    assert heard(t, opened)[-2:] == ["Переголосование между игроками 7 и 5.", "Кто за игрока 7?"]
    assert heard(t, t.do("timeout")) == ["Спасибо.", "Кто за игрока 5? Все, кто ещё не проголосовал, голосуют за игрока 5."]
    assert t.game.state == "revote" and t.game.votes == {}


def test_the_yes_or_no_votes_stay_one_question_with_one_window():
    t = Table()
    nominated(t, 7, 6)
    split = {1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 6, 7: 6, 8: 6, 9: 6, 10: 6}
    t.vote(split)
    t.do("say thank you", "say thank you")
    t.vote(split)
    assert t.game.state == "all_leave_vote" and t.timers()[-1].name == "vote"


def test_a_club_that_votes_together_has_one_window_for_every_candidate():
    t = Table(vote_call='"together"')
    opened = nominated(t, 7, 5)
    assert heard(t, opened)[-1] == "We vote in this order: 7 and 5. Vote now. A vote not cast goes to player 5."
    assert [(x.name, x.seconds) for x in t.timers(opened)][-1] == ("vote", 20)
    t.do("tap 1 5", "tap 2 7")                                   # any candidate, in any order
    closed = t.do("timeout")
    assert "Stop." not in heard(t, closed)
    assert t.records("vote_result")[-1]["counts"] == {"7": 1, "5": 9}


# ------------------------------------------------------------------ a scorer's table: "Stop." as the time ends
def held(t: Table) -> list:
    """The two seconds of the call are over where a scorer types the fists: the live loop tells
    the game at once (`Timeout(count_waits=True)`), and the count waits for his line."""
    from narrator.flow.events import Timeout

    batch = t.session.feed(Timeout(count_waits=True))
    t.effects += batch
    return batch


def test_where_the_scorer_types_the_fists_stop_is_said_as_the_two_seconds_end_and_the_count_waits():
    """seed 004 §4.4: the fists go down «before host says "Stop"»: the table hears "Stop." when
    they must be down, not once the scorer has typed them; what he types then was down in time."""
    t = Table()
    nominated(t, 7, 5, 6)
    t.do("tap 1 7")
    assert heard(t, held(t)) == ["Stop."]
    assert t.game.window_over() and t.game.vote_choices() == ("seat", [7])
    t.do("tap 2 7", "tap 3 7")                         # his line: the fists that were down for 7
    counted = t.do("timeout")                          # his line is in: the count goes on
    assert heard(t, counted) == ["Who votes for player 5?"], "Stop. was said already"
    assert not t.game.window_over()
    assert heard(t, held(t)) == ["Stop."]
    t.do("tap 4 5", "tap 5 5", "tap 6 5", "tap 7 5", "tap 8 5", "tap 9 5")
    last = t.do("tap 10 5")                            # every fist is down: the counts, no second Stop.
    assert heard(t, last)[:3] == ["Player 7: 3 votes.", "Player 5: 7 votes.", "Player 6: 0 votes."]


def test_a_call_whose_end_was_said_is_not_ended_again_and_no_other_window_ends_that_way():
    """Said once: a second end of the same call changes nothing; the yes-or-no question and a speech
    have no "Stop." to say, and the game refuses such an end there (a damaged journal's)."""
    t = Table()
    nominated(t, 7, 5)
    held(t)
    before = snapshot(t.game)
    assert [e.line for e in held(t) if isinstance(e, Reject)] == ["reject_no_timer"]
    assert snapshot(t.game) == before
    t2 = Table(vote_call='"together"')
    nominated(t2, 7, 5)
    before = snapshot(t2.game)
    assert [e.line for e in held(t2) if isinstance(e, Reject)] == ["reject_no_timer"]
    assert snapshot(t2.game) == before


def test_the_end_of_a_call_is_journaled_and_read_back():
    assert event_to_dict(Timeout(count_waits=True)) == {"type": "timeout", "count_waits": True}
    assert event_to_dict(Timeout()) == {"type": "timeout"}   # every journal before reads as ever
    assert event_from_dict({"type": "timeout", "count_waits": True}) == Timeout(count_waits=True)
    with pytest.raises(ValueError, match="count_waits is true or false"):
        event_from_dict({"type": "timeout", "count_waits": 1})


# ------------------------------------------------------------------ at the table: the console
@pytest.mark.e2e
def test_a_russian_scorer_types_each_calls_fists_and_the_split_is_called_again(tmp_path):
    """`narrator play` on a terminal, no phones: the scorer types the fists of the candidate being
    called (`1 2 3` + Enter, Enter alone for none), as hands19 does for the Swedish names; the count
    of each call waits for his line once its two seconds are over."""
    from test_console_hands import CLASSIC, JOURNAL_ETC, journal_events, plain, typed, until
    from test_console_hotseat import play_on_a_terminal

    journal = tmp_path / "vecher.jsonl"
    seen = bytearray()
    with play_on_a_terminal(tmp_path, CLASSIC + JOURNAL_ETC.format(journal=journal), columns=80) as (play, master):
        until(master, seen, "Игрок 1, у вас одна минута.")
        for speaker in range(1, 11):
            if speaker <= 3:
                typed(master, f"nominate {speaker + 4}")
                until(master, seen, "принято.", times=speaker)
            typed(master, "timeout")
            until(master, seen, f"Спасибо, игрок {speaker}{' (Вика)' if speaker == 3 else ''}.")
        until(master, seen, "Кто за игрока 5?")
        typed(master, "1 2 3")
        until(master, seen, "голоса за игрока 5: 1, 2, 3 (Вика)")
        until(master, seen, "Кто за игрока 6?")
        typed(master, "tap 9 7")                               # 7 is not called yet: refused, nothing changes
        until(master, seen, "Сейчас голосуем за игрока 6; за игрока 7 голосуйте, когда его назовут.")
        # 6's two seconds run out before the scorer's line: «Спасибо.» is said then, when the fists
        # must be down (seed 004 §4.4 «before host says "Stop" or "Thank you"»), not once he has typed
        until(master, seen, "Спасибо.", times=2)               # 5's call and 6's
        # a fist on the table is a vote, not a raised hand: the wait says so in the club's words
        until(master, seen, "время для игрока 6 вышло — наберите места, которые проголосовали, и Enter")
        typed(master, "4 8")
        until(master, seen, "голоса за игрока 6: 4, 8")
        until(master, seen, "Кто за игрока 7? Все, кто ещё не проголосовал, голосуют за игрока 7.")
        assert " ".join(plain(seen).split()).count("Спасибо.") == 2, "and not a second time when the count goes on"
        typed(master, "tap 10 5")                              # the scorer catches up with 10's fist for 5
        typed(master, "")                                      # nobody put a fist down for 7
        until(master, seen, "Игрок 5: 4 голоса.")
        until(master, seen, "Игрок 7: 4 голоса.")              # 5, 6, 7, 9 silent: the last candidate's
        until(master, seen, "Автокатастрофа: поровну голосов у игроков 5 и 7.")
        typed(master, "timeout")
        until(master, seen, "Игрок 7, 30 секунд на оправдание.")
        typed(master, "timeout")
        until(master, seen, "Переголосование между игроками 5 и 7.")
        until(master, seen, "Кто за игрока 5?", times=2)
        typed(master, "1 2 3 4 8 10")
        until(master, seen, "Кто за игрока 7? Все, кто ещё не проголосовал, голосуют за игрока 7.", times=2)
        typed(master, "")
        until(master, seen, "Игрок 5: 6 голосов.")
        until(master, seen, "Игрок 5 покидает игру.")
        typed(master, "quit")
        play.wait(timeout=30)
    taps = [(e["seat"], e["target"]) for e in journal_events(journal) if e["type"] == "tap"]
    # every input is journaled as typed, the refused one too: the replay refuses it again
    assert taps[:7] == [(1, 5), (2, 5), (3, 5), (9, 7), (4, 6), (8, 6), (10, 5)]
    assert taps[7:] == [(s, 5) for s in (1, 2, 3, 4, 8, 10)]


# ------------------------------------------------------------------ journals of before
def test_a_journal_begun_before_the_calls_is_read_as_it_was_played(tmp_path):
    """A game journaled when classic still voted in one window (its header has no mode.vote_calls)
    tapped a later candidate first; its report reads that vote as the table played it."""
    import json

    from narrator.report.reader import read_game

    config = 'variant = "classic"\nlanguage = "en"\n[dealing]\nmode = "fixed"\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
    events = [{"type": "deal", "roles": {"1": "don", "2": "mafia", "3": "mafia", "4": "sheriff"}}]
    events += [{"type": "timeout"}] * 3                                         # night zero
    events += [{"type": "nominate", "seat": 7}, {"type": "end_speech"}, {"type": "nominate", "seat": 5}]
    events += [{"type": "end_speech"}] * 9
    events += [{"type": "tap", "seat": 1, "target": 5}, {"type": "tap", "seat": 2, "target": 7}, {"type": "timeout"}]
    header = {"journal": 1, "config_path": "club.toml", "config_text": config,
              "mode": {"voice": "text", "companion": False, "reveal": False}, "started": 1.0}
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header] + [{"t": 2.0, "event": e} for e in events]) + "\n")
    record = read_game(path)
    votes = [e for e in record.entries if e.get("type") == "vote_result"]
    assert votes and votes[0]["counts"] == {"7": 1, "5": 9}


def test_a_journal_begun_before_the_calls_whose_club_chose_the_calls_keeps_them(tmp_path):
    """The same journal of before, its config writing `[rules] vote_call = "each"` itself: the club
    chose the calls in turn, and the game is read with them — the early tap for 7 is refused."""
    import json

    from narrator.report.reader import read_game

    config = ('variant = "classic"\nlanguage = "en"\n[rules]\nvote_call = "each"\n'
              '[dealing]\nmode = "fixed"\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n')
    events = [{"type": "deal", "roles": {"1": "don", "2": "mafia", "3": "mafia", "4": "sheriff"}}]
    events += [{"type": "timeout"}] * 3                                         # night zero
    events += [{"type": "nominate", "seat": 7}, {"type": "end_speech"}, {"type": "nominate", "seat": 5}]
    events += [{"type": "end_speech"}] * 9
    events += [{"type": "tap", "seat": 1, "target": 5}, {"type": "tap", "seat": 2, "target": 7}]
    header = {"journal": 1, "config_path": "club.toml", "config_text": config,
              "mode": {"voice": "text", "companion": False, "reveal": False}, "started": 1.0}
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header] + [{"t": 2.0, "event": e} for e in events]) + "\n")
    record = read_game(path)
    refused = [e for e in record.entries if e.get("type") == "rejected"]
    assert [(e["event"]["seat"], e["reason"]) for e in refused] == [(1, "reject_not_called_yet")]


@pytest.mark.e2e
def test_an_english_scorer_hears_stop_once_at_the_end_of_each_call_and_after_a_crash_mid_count(tmp_path):
    """`narrator play` on a terminal, no phones: "Stop." comes from the game as each call's two
    seconds end — once, before the scorer types, never again when the count goes on. A `kill -9`
    while a count waits, and `narrator resume`: the call is over (the journal says so), so it is not
    made again and "Stop." is not said again; the count waits for the scorer's line, and goes on."""
    from test_console_hands import CLASSIC, JOURNAL_ETC, journal_events, plain, resumed_on_a_terminal, typed, until
    from test_console_hotseat import play_on_a_terminal

    journal = tmp_path / "evening.jsonl"
    english = CLASSIC.replace('language = "ru"', 'language = "en"').replace("Вика", "Vika")
    awaited = "— type the seats that voted, then Enter"  # "time for player 5 — …"
    seen = bytearray()
    with play_on_a_terminal(tmp_path, english + JOURNAL_ETC.format(journal=journal), columns=80) as (play, master):
        until(master, seen, "Player 1, you have one minute.")
        for speaker in range(1, 11):
            if speaker <= 3:
                typed(master, f"nominate {speaker + 4}")
                until(master, seen, "accepted.", times=speaker)
            typed(master, "timeout")
            until(master, seen, f"Thank you, player {speaker}{' (Vika)' if speaker == 3 else ''}.")
        until(master, seen, "Who votes for player 5?")
        until(master, seen, "Stop.")                           # the two seconds are over: fists down
        until(master, seen, awaited)
        typed(master, "1 2 3")
        until(master, seen, "votes for player 5: 1, 2, 3 (Vika)")
        until(master, seen, "Who votes for player 6?")
        until(master, seen, "Stop.", times=2)
        until(master, seen, awaited, times=2)
        assert " ".join(plain(seen).split()).count("Stop.") == 2
        play.kill()                                            # kill -9 while 6's count waits
        play.wait()
    seen = bytearray()
    with resumed_on_a_terminal(tmp_path, journal) as (play, master):
        until(master, seen, "The game goes on where it stopped.")
        until(master, seen, awaited)
        typed(master, "4 8")
        until(master, seen, "votes for player 6: 4, 8")
        until(master, seen, "Who votes for player 7? Every vote not yet cast goes to player 7.")
        until(master, seen, "Stop.")
        typed(master, "")                                      # nobody put a fist down for 7
        until(master, seen, "Player 7: 5 votes.")
        said = " ".join(plain(seen).split())
        assert "Who votes for player 6?" not in said, "the call that was over is not made again"
        assert said.count("Stop.") == 1, "6's Stop. was said before the crash, 7's once"
        typed(master, "quit")
        play.wait(timeout=30)
    events = journal_events(journal)
    ends = [e for e in events if e["type"] == "timeout"][-6:]
    # each call: its end as the two seconds ran out, then the count once the scorer's line was in
    assert ends == [{"type": "timeout", "count_waits": True}, {"type": "timeout"}] * 3
