"""German basic rules (seed 003): the game starts with a killing night; pointing nominates the two
with most votes (run-off on ties); defences; the final vote; the last to die breaks a tie."""

from __future__ import annotations

from conftest import Table

from narrator import protocol
from narrator.report import GameRecord, render

DEAL = "1=mafia 2=mafia"   # 8 players


def first_day(**kw) -> Table:
    t = Table(deal=DEAL, variant="grundregeln", seats=8, roles={"mafia": 2}, **kw)
    # "Das Spiel beginnt mit einer Nacht": the mafia choose a victim at once
    assert t.said()[1:3] == ["night_falls", "mafia_wakes_kill"] and t.game.state == "night"
    t.do("tap 1 8", "tap 2 8")
    assert t.eliminated() == [(8, "shot")] and t.game.state == "discussion"
    return t


def point(t: Table, votes: dict[int, int]) -> None:
    for voter, target in votes.items():
        t.do(f"tap {voter} {target}")
    if t.game.state in ("pointing", "runoff", "final_vote") and len(t.game.votes) < len(t.game.alive):
        t.do("timeout")                              # the silent do not count


def test_the_two_with_most_votes_are_nominated_and_defend():
    t = first_day()
    t.do("timeout")
    assert t.game.state == "pointing"
    point(t, {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 5, 7: 4})
    assert t.records("nominees")[-1]["seats"] == [3, 4]
    assert t.game.state == "defences" and t.game.floor == 3
    t.do("say thank you", "say thank you")
    assert t.game.state == "final_vote"
    point(t, {1: 4, 2: 4, 3: 4, 4: 3, 5: 4, 6: 3, 7: 3})
    assert (4, "vote") in t.eliminated() and t.game.state == "night"


def test_a_tie_for_the_second_place_goes_to_a_run_off():
    t = first_day()
    t.do("timeout")
    point(t, {1: 3, 2: 3, 3: 4, 4: 5, 5: 6, 6: 3})     # seat 7 does not point
    assert t.game.state == "runoff" and t.game.candidates == [4, 5, 6]
    point(t, {1: 5, 2: 5, 3: 6})
    assert t.records("nominees")[-1]["seats"] == [3, 5]


def test_a_final_tie_is_decided_by_the_player_who_died_last():
    t = first_day()
    t.do("timeout")
    point(t, {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 7, 7: 5})
    t.do("say thank you", "say thank you")
    point(t, {1: 3, 2: 3, 3: 4, 4: 4, 5: 3, 6: 4})
    assert t.game.state == "tie_break" and t.said()[-1] == "tie_last_dead_decides"
    assert t.refused("tap 5 3").line == "reject_not_decider"
    t.do("tap 8 4")                                 # seat 8, shot last night, decides
    assert (4, "vote") in t.eliminated()


def test_status_during_a_tie_names_the_last_dead_who_decides():
    """The console's `status` read «…az utolsó halott dönt: · 2. nap» — the decider was left out."""
    from types import SimpleNamespace

    from narrator.console import state_name

    for lang, line in (("en", "Split vote: player 8, who died last, decides"),
                       ("hu", "Szavazategyenlőség – az utolsó halott dönt: 8")):
        t = first_day(lang=lang)
        t.do("timeout")
        point(t, {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 7, 7: 5})
        t.do(*["say " + t.session.voice.commands["end_speech"][0]] * 2)
        point(t, {1: 3, 2: 3, 3: 4, 4: 4, 5: 3, 6: 4})
        assert t.game.state == "tie_break" and t.game.subject() == 8
        assert state_name(SimpleNamespace(game=t.game, session=t.session)) == line


def test_the_last_dead_who_left_the_table_unwell_is_not_asked_the_one_who_died_before_him_decides():
    # seed 003 «entscheidet bei einer Pattsituation der letzte Tote» — as a dead player the table can
    # still ask («So kann er im Zweifelsfall noch als letzter Toter befragt werden»). Seat 7 left
    # the table unwell in the night (announced among the dead, seed 000's way): he is not there
    t = Table(deal=DEAL, variant="grundregeln", seats=8, roles={"mafia": 2})
    t.do("leave 7", "tap 1 8", "tap 2 8")
    assert t.eliminated() == [(8, "shot"), (7, "left")] and t.game.state == "discussion"
    t.do("timeout")
    point(t, {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 4})
    t.do("say thank you", "say thank you")
    point(t, {1: 3, 2: 3, 3: 4, 4: 4, 5: 3, 6: 4})
    assert t.game.state == "tie_break" and t.game.decider == 8
    assert t.session.render("tie_last_dead_decides", {"seat": 8}) == "Split vote. Player 8, who died last, decides."
    t.do("tap 8 3")
    assert (3, "vote") in t.eliminated()


def test_with_two_players_left_each_points_at_the_other_and_the_last_dead_decides_between_them():
    # seed 003: the good side wins only when nobody evil lives, and the other way round — with one
    # of each left the day goes on: both are nominated, both defend, and their one vote each ties
    t = Table(deal="1=mafia", variant="grundregeln", seats=4, roles={"mafia": 1})
    t.do("tap 1 4")                                  # night 1: seat 4
    t.do("timeout")
    point(t, {1: 3, 2: 3, 3: 2})
    t.do("say thank you", "say thank you")
    point(t, {1: 3, 2: 3, 3: 2})                     # seat 3 lynched
    t.do("timeout")                                  # night 2: the mafioso misses
    assert t.game.alive == [1, 2] and t.game.state == "discussion"
    t.do("timeout")
    point(t, {1: 2, 2: 1})
    assert t.records("nominees")[-1]["seats"] == [1, 2]
    t.do("say thank you", "say thank you")
    point(t, {1: 2, 2: 1})
    assert t.game.state == "tie_break" and t.game.decider == 3
    t.do("tap 3 1")
    assert t.game.winner == "town"


def test_a_table_that_agreed_another_tie_rule_lynches_nobody_on_a_tie():
    # seed 003 «Ist keine andere Regel vereinbart …, entscheidet bei einer Pattsituation der letzte
    # Tote»: the seed leaves a table its own rule; `tie_break = "nobody"` spares both
    t = first_day(lang="de", tie_break="\"nobody\"")
    t.do("timeout")
    point(t, {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 7, 7: 5})
    t.do("say danke", "say danke")
    point(t, {1: 3, 2: 3, 3: 4, 4: 4, 5: 3, 6: 4})
    assert t.said()[-3:] == ["tie_nobody_lynched", "night_falls", "mafia_wakes_kill"]
    assert t.session.render("tie_nobody_lynched", {}) == "Gleichstand: Heute wird niemand gelyncht."
    assert not [d for d in t.eliminated() if d[1] == "vote"]
    assert t.records("vote_ends")[-1] == {"type": "vote_ends", "reason": "tie", "seats": [3, 4]}


def test_the_tie_rule_is_the_last_dead_unless_the_config_says_otherwise():
    from narrator.config import ConfigError, parse_config
    from narrator.rules.variants import VARIANTS

    assert VARIANTS["grundregeln"].rules["tie_break"].default == "last_dead"
    try:
        parse_config('variant = "grundregeln"\nlanguage = "en"\n[rules]\ntie_break = "coin"\n', "club.toml")
    except ConfigError as e:
        assert "tie_break" in str(e) and "last_dead, nobody" in str(e)
    else:
        raise AssertionError("a tie rule the game does not know was taken")


def test_a_dead_decider_who_lets_the_time_run_out_lynches_nobody_and_is_named_for_it():
    t = first_day(lang="de")
    t.do("timeout")
    point(t, {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 7, 7: 5})
    t.do("say danke", "say danke")
    point(t, {1: 3, 2: 3, 3: 4, 4: 4, 5: 3, 6: 4})
    assert t.game.state == "tie_break"
    t.do("timeout")                                 # seat 8 stays silent; seed 003 says no more
    assert t.said()[-3:] == ["tie_decider_silent", "night_falls", "mafia_wakes_kill"] and not [d for d in t.eliminated() if d[1] == "vote"]
    assert t.session.render("tie_decider_silent", {"seat": 8}) == (
        "Spieler 8 hat nicht rechtzeitig entschieden: Niemand wird gelyncht.")
    # the game's report ends that day with what the table heard, not on the tie alone
    assert t.records("vote_ends")[-1] == {"type": "vote_ends", "reason": "tie_undecided", "seats": [3, 4]}
    html = render(GameRecord("<test>", protocol.entries(t.effects, t.session.voice)))
    assert "Split vote, and the player who died last did not decide in time: nobody is lynched" in html


def test_the_good_side_wins_when_nobody_evil_lives():
    t = first_day()
    for target in (1, 2):
        if t.game.state == "night":
            t.do("tap 1 7", "tap 2 7") if 1 in t.game.alive else t.do("timeout")
        t.do("timeout")
        point(t, {s: target for s in t.game.alive if s != target} | ({target: 3} if target in t.game.alive else {}))
        while t.game.state == "defences":
            t.do("say thank you")
        point(t, {s: target for s in t.game.alive})
    assert t.game.winner == "town" and "good_wins" in t.said()


def test_the_manner_of_death_is_announced_when_the_option_is_on():
    t = Table(deal=DEAL, variant="grundregeln", seats=8, roles={"mafia": 2}, manner_of_death=True)
    t.do("tap 1 8", "tap 2 8", "tap 1 2", "tap 2 2")
    assert "died_manner" in t.said()
    assert t.session.render("died_manner", {"seat": 8, "manner": "@manner_2"}) == "Player 8 was found at the bottom of the river."


def lynch_four(t: Table) -> list:
    """A whole first day: the discussion, the pointing (3 and 4 nominated), both defences, and the
    final vote that lynches seat 4; returns the final vote's effects."""
    t.do("timeout")
    point(t, {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 5, 7: 4})
    while t.game.state == "defences":
        t.do("timeout")
    batch = []
    for voter, target in {1: 4, 2: 4, 3: 4, 4: 3, 5: 4, 6: 3, 7: 3}.items():
        batch += t.do(f"tap {voter} {target}")
    return batch


def test_the_lynched_leaves_without_last_words_as_the_seed_has_it():
    # seed 003 says nothing of last words: the two nominees «bekommen … noch einmal die Gelegenheit,
    # sich zu verteidigen», then «wird endgültig abgestimmt, wer gelyncht wird» — the defence is the
    # last word, and the night follows the lynch (rule last_words, default false)
    t = first_day(lang="de")
    batch = lynch_four(t)
    assert t.said(batch) == ["lynched", "night_falls", "mafia_wakes_kill"]
    assert (4, "vote") in t.eliminated() and t.game.state == "night"
    assert t.game.rules["last_words"] is False


def test_a_table_that_gives_last_words_hears_them_after_the_lynch_and_then_the_night():
    # the open point as a club may settle it: [rules] last_words = true, timers.last_words (30 s)
    t = first_day(lang="de", last_words=True)
    batch = lynch_four(t)
    assert t.said(batch) == ["lynched", "last_words_turn"] and t.game.state == "last_words"
    assert t.game.floor == 4 and [(x.name, x.seconds) for x in t.timers(batch)][-1] == ("last_words", 30)
    assert [t.session.render(e.line, e.args) for e in batch if type(e).__name__ == "Say"] == [
        "Spieler 4 wird gelyncht.", "Spieler 4, deine letzten Worte."]
    t.do("say danke")
    assert t.said()[-2:] == ["night_falls", "mafia_wakes_kill"] and t.game.state == "night"
    t.do("tap 1 5", "tap 2 5")                                 # the next night and day go on as ever
    assert t.game.state == "discussion" and t.game.day == 2


def test_a_lynch_that_ends_the_game_gives_no_last_words():
    # the good side wins the moment nobody evil lives (seed 003 «Gewonnen!»): nobody speaks after
    t = Table(deal="1=mafia", variant="grundregeln", seats=5, roles={"mafia": 1}, last_words=True)
    t.do("tap 1 5", "timeout")
    point(t, {2: 1, 3: 1, 4: 1, 1: 2})
    while t.game.state == "defences":
        t.do("timeout")
    point(t, {2: 1, 3: 1, 4: 1, 1: 2})
    assert t.game.winner == "town" and "last_words_turn" not in t.said()


def test_a_german_table_hears_its_nominees_defences_and_final_vote_in_whole_sentences():
    # seed 003: «Die beiden … werden nominiert»; «die zwei Nominierten [bekommen] noch einmal die
    # Gelegenheit, sich zu verteidigen»; «wird endgültig abgestimmt, wer gelyncht wird» — each said
    # as a German game master says it, the defence with the time it has («Nominiert: 3 und 4.» was
    # a list, and «verteidige dich» gave no length)
    t = first_day(lang="de")
    t.do("timeout")
    batch = []
    for voter, target in {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 5, 7: 4}.items():
        batch += t.do(f"tap {voter} {target}")
    batch += t.do("say danke")

    def words(effects):
        return [t.session.render(e.line, e.args) for e in effects if type(e).__name__ == "Say"]

    assert words(batch) == ["Nominiert sind die Spieler 3 und 4.", "Spieler 3, verteidige dich: Du hast eine Minute.",
                            "Spieler 4, verteidige dich: Du hast eine Minute."]
    assert words(t.do("say danke")) == ["Jetzt wird endgültig abgestimmt, wer gelyncht wird: die Spieler 3 und 4."]


def test_a_tie_with_nobody_dead_yet_lynches_nobody_and_the_report_says_why():
    # seed 003's tie-breaker is the last dead; a first night without a death leaves none
    t = Table(deal=DEAL, variant="grundregeln", seats=8, roles={"mafia": 2}, lang="de")
    t.do("timeout")                                 # the mafia did not agree: nobody dies
    assert t.eliminated() == [] and t.game.state == "discussion"
    t.do("timeout")
    point(t, {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 7, 7: 5, 8: 4})
    t.do("say danke", "say danke")
    point(t, {1: 3, 2: 3, 3: 4, 4: 4, 5: 3, 6: 4, 7: 3, 8: 4})
    assert t.said()[-3:] == ["tie_nobody_decides", "night_falls", "mafia_wakes_kill"]
    assert t.records("vote_ends")[-1] == {"type": "vote_ends", "reason": "tie_no_dead", "seats": [3, 4]}
    html = render(GameRecord("<test>", protocol.entries(t.effects, t.session.voice)))
    assert "Split vote, and nobody has died yet to decide it: nobody is lynched" in html
