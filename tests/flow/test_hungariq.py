"""Mensa HungarIQ (seed 001): accusations with a support vote, the last word, the execution vote,
the inspector and the protected mafioso, the name-reading mafia vote, the endgame, optional roles
and chain deaths."""

from __future__ import annotations

from conftest import Table
from narrator.rules.night import resolve_mafia_vote

DEAL = "1=inspector 2=protected_mafia 3=mafia 4=mafia"   # 12 players: 3 mafiosi, one protected


def day_one(deal: str = DEAL, roles: dict | None = None, **kw) -> Table:
    t = Table(deal=deal, variant="hungariq", seats=12, roles=roles, **kw)
    assert t.game.state == "accusations"
    return t


def all_vote(t: Table, answer: str, seats=None) -> None:
    for s in seats or list(t.game.alive):
        t.do(f"tap {s} {answer}")


def test_night_zero_inspector_then_mafia_with_the_protected_mafioso():
    t = day_one()
    assert t.said()[1:7] == ["night_zero_falls", "inspector_wakes_meet", "inspector_sleeps",
                             "mafia_wakes_meet_protected", "mafia_sleeps", "city_wakes"]


def test_an_accusation_needs_a_majority_to_stand_then_the_last_word_then_the_execution_vote():
    t = day_one()
    t.do("say I accuse player number 7")
    assert t.game.state == "support_vote"
    all_vote(t, "yes", range(1, 8))                      # 7 of 12
    t.do("timeout")
    assert t.game.state == "debate" and "accusation_stands" in t.said()
    t.do("timeout")
    assert t.game.state == "accused_last_word" and t.game.floor == 7
    t.do("say thank you")
    all_vote(t, "yes")
    assert t.eliminated() == [(7, "vote")] and t.game.state == "night"    # the day ends with a death


def test_a_failed_accusation_lets_others_follow_up_to_three():
    t = day_one(failed_accusations_count=True)
    for seat in (5, 6, 7):
        t.do(f"say player 1 accuses player {seat}")
        all_vote(t, "no")
    assert "day_over" in t.said() and t.game.state == "night"


def test_by_default_only_accusations_that_reached_the_discussion_count_towards_three():
    # seed 001: «általában három vádlott tárgyalása» — three trials; an accusation without a
    # majority for it never came to trial, so the day goes on until its time runs out
    t = day_one()
    for seat in (5, 6, 7, 8):
        t.do(f"say player 1 accuses player {seat}")
        all_vote(t, "no")
    assert t.game.state == "accusations" and "day_over" not in t.said()
    for seat in (5, 6):
        t.do(f"say player 1 accuses player {seat}")
        all_vote(t, "yes")
        t.do("timeout", "say thank you")
        all_vote(t, "no")
    assert t.game.state == "accusations"
    t.do("say player 1 accuses player 7")
    all_vote(t, "yes")
    t.do("timeout", "say thank you")
    all_vote(t, "no")                                   # the third trial ends the day
    said = t.said()
    assert said[said.index("day_over") - 1:][:3] == ["spared", "day_over", "night_falls"] and t.game.state == "night"
    t2 = day_one()
    t2.do("say I accuse player 5")
    all_vote(t2, "no")
    t2.do("timeout")                                    # the day's time is up
    assert t2.game.state == "night"


def test_the_inspector_sees_the_protected_mafioso_as_a_citizen_the_first_time_only():
    # seed 001: "A játékvezető akkor is nemet int…"; extra rule 2: the second check reads yes
    t = day_one()
    quiet_day(t)
    t.do("tap 1 2")
    assert t.told()[-1].line == "check_no"
    t.do("tap 2 9", "tap 3 9", "tap 4 9")
    quiet_day(t)
    t.do("tap 1 2")
    assert t.told()[-1].line == "check_yes"


def test_the_mafia_vote_needs_every_living_mafioso_on_one_name():
    t = day_one()
    quiet_day(t)
    t.do("tap 1 5")
    assert t.said()[-1] == "mafia_vote_reading"
    t.do("tap 2 9", "tap 3 9", "tap 4 8")
    assert t.eliminated() == [] and "morning_nobody" in t.said()


def test_three_of_four_or_five_suffice_and_aunt_sarika_counts_where_it_matters():
    assert resolve_mafia_vote([1, 2, 3, 4], {1: 9, 2: 9, 3: 9, 4: 8}, None, True) == (9, False)
    assert resolve_mafia_vote([1, 2, 3], {1: 9, 2: 9, 3: 8}, None, True) == (None, False)
    # seed 001: 3 mafiosi + Sárika on one name: nobody dies; 2 mafiosi + Sárika: the name dies
    assert resolve_mafia_vote([1, 2, 3], {1: 9, 2: 9, 3: 9}, 9, True) == (None, True)
    assert resolve_mafia_vote([1, 2, 3], {1: 9, 2: 9, 3: 8}, 9, True) == (9, False)
    assert resolve_mafia_vote([1], {1: 9}, 9, True) == (9, False)       # one mafioso: her vote is nothing


def execute(t: Table, seat: int) -> None:
    t.do(f"say I accuse player {seat}")
    all_vote(t, "yes")
    t.do("timeout", "say thank you")
    all_vote(t, "yes")


def test_the_endgame_of_three_has_no_nights():
    # seed 001: two citizens and one mafioso left — no time limit, no more nights
    t = Table(deal="1=inspector 2=protected_mafia", variant="hungariq", seats=6)
    execute(t, 3)
    t.do("tap 1 5", "tap 2 4")                      # night: the inspector checks, the mafioso kills 4
    assert t.eliminated() == [(3, "vote"), (4, "shot")]
    execute(t, 5)
    assert t.game.alive == [1, 2, 6] and "endgame" in t.said()
    assert t.game.state == "accusations" and t.game.timer is None
    for _ in range(4):                               # more accusations than a normal day allows
        t.do("say I accuse player 6")
        all_vote(t, "no")
    assert t.game.state == "accusations"
    execute(t, 2)
    assert t.game.winner == "town" and "citizens_win" in t.said()


def test_the_protected_citizen_is_pardoned_once():
    t = day_one(deal=DEAL + " 7=protected_citizen", roles={"protected_citizen": 1})
    t.do("say I accuse player 7"); all_vote(t, "yes"); t.do("timeout", "say thank you"); all_vote(t, "yes")
    assert "pardoned" in t.said() and 7 in t.game.alive


def test_the_corner_grocer_is_announced():
    t = day_one(deal=DEAL + " 7=grocer", roles={"grocer": 1})
    t.do("say I accuse player 7"); all_vote(t, "yes"); t.do("timeout", "say thank you"); all_vote(t, "yes")
    assert "died_as_grocer" in t.said()


def test_a_kamikaze_names_who_dies_with_him_at_the_same_moment():
    t = day_one(deal=DEAL + " 7=kamikaze_citizen", roles={"kamikaze_citizen": 1})
    t.do("say I accuse player 7"); all_vote(t, "yes"); t.do("timeout", "say thank you"); all_vote(t, "yes")
    assert t.game.state == "kamikaze" and t.said()[-1] == "kamikaze_choose"
    assert t.refused("tap 8 9").line == "reject_not_kamikaze"
    t.do("tap 7 3")
    assert t.eliminated() == [(7, "vote"), (3, "kamikaze")] and t.game.state == "night"


def test_lovers_die_a_moment_apart_and_the_win_is_checked_between():
    # seed 001 extra rule 3: the later-dying lover's team can win in that moment
    t = Table(deal="1=inspector 2=protected_mafia 3=mafia 4=mafia 5+lover 9+lover", variant="hungariq", seats=12)
    assert "lovers_wake_meet" in t.said()
    t.do("say I accuse player 5"); all_vote(t, "yes"); t.do("timeout", "say thank you"); all_vote(t, "yes")
    assert t.eliminated() == [(5, "vote"), (9, "lover")] and "lover_dies" in t.said()


def quiet_day(t: Table) -> None:
    """Three accusations without support, then the day's time runs out."""
    for seat in (5, 6, 7):
        t.do(f"say I accuse player {seat}")
        all_vote(t, "no")
    t.do("timeout")


def test_the_bodyguard_protects_one_name_but_never_himself():
    # seed 001: "Minden éjjel egy névnél szavaz, aki azon az éjszakán nem halhat meg. A testőr önmagára nem szavazhat."
    t = day_one(deal=DEAL + " 8=bodyguard", roles={"bodyguard": 1})
    quiet_day(t)
    t.do("tap 1 5")                                   # the inspector
    assert t.refused("tap 8 8").line == "reject_protect_self"
    t.do("tap 8 9", "tap 2 9", "tap 3 9", "tap 4 9")
    assert t.eliminated() == [] and "morning_nobody" in t.said()


def test_the_vogon_sees_whether_anybody_voted_on_the_name_he_watches():
    # seed 001: the vogon "egyetlen névnél kinyithatja a szemét, és megnézheti, hogy szavaz-e éppen valaki"
    t = day_one(deal=DEAL + " 8=vogon", roles={"vogon": 1})
    quiet_day(t)
    t.do("tap 1 5", "tap 2 9", "tap 3 9", "tap 4 9")
    batch = t.do("tap 8 9")
    assert [(x.seat, x.line) for x in t.told(batch)] == [(8, "watch_someone")]
    assert t.eliminated() == [(9, "shot")]


def test_aunt_sarika_completes_a_mafia_vote_that_lacks_one_mafioso():
    t = day_one(deal=DEAL + " 8=sarika", roles={"sarika": 1})
    quiet_day(t)
    t.do("tap 1 5", "tap 8 9", "tap 2 9", "tap 3 9", "tap 4 10")
    assert t.eliminated() == [(9, "shot")]


def _collaborator_outcomes(t: Table) -> tuple[str, bool]:
    """What the collaborator's phone shows at the end, and what the club records for him."""
    from narrator.club import facts
    from narrator.companion.hub import Hub
    from narrator.flow.effects import Record
    from narrator.report.reader import GameRecord

    view = t.game.public_view()
    phone = Hub._outcome(None, 3, view)  # reads nothing of the hub but the public view
    entries = [e.entry for e in t.effects if isinstance(e, Record)]
    _, players = facts(GameRecord(path="game", entries=entries, language="en"))
    return phone, next(p for p in players if p.seat == 3).won


def _execute(t: Table, seat: int) -> None:
    t.do(f"say I accuse player {seat}")
    all_vote(t, "yes")
    t.do("timeout", "timeout")                      # the debate, the last word
    all_vote(t, "yes")


def test_the_collaborator_wins_with_the_mafia_and_loses_with_the_citizens():
    # seed 001: «Kollaboráns: Olyan polgár, aki a végén akkor számít győztesnek, ha a maffiózók
    # nyernek. (Ha pl. tömeghalál miatt – ld. később – egyedül marad életben, akkor ő veszít, mert a
    # polgárok nyernek.)» Before, his phone read "won" when the citizens won and "lost" when the
    # mafia did, and the club counted him a winner either way.
    deal = "1=protected_mafia 2=mafia 3=collaborator 4=inspector"
    roles = {"mafia": 1, "collaborator": 1}
    t = Table(deal=deal, variant="hungariq", seats=7, roles=roles)
    _execute(t, 5)
    t.do("tap 4 1", "tap 1 6", "tap 2 6")         # the inspector looks; the mafia kill 6
    _execute(t, 7)                                  # 2 mafiosi against 2 citizens
    assert t.game.winner == "mafia" and t.game.seats[3].alive
    assert _collaborator_outcomes(t) == ("won", True)

    t = Table(deal=deal, variant="hungariq", seats=7, roles=roles)
    _execute(t, 1)
    t.do("tap 4 2", "tap 2 5")                      # the last mafioso kills 5
    _execute(t, 2)
    assert t.game.winner == "town" and t.game.seats[3].alive
    assert _collaborator_outcomes(t) == ("lost", False)


def spare(t: Table, seat: int) -> None:
    """An accusation that stands, then an execution vote without a majority."""
    t.do(f"say I accuse player {seat}")
    all_vote(t, "yes")
    t.do("timeout", "say thank you")
    all_vote(t, "no")


def test_a_player_spared_by_the_execution_vote_is_not_accused_again_that_day():
    # seed 001: «Ha nincs meg a többség, a vádlott tovább él, és más vádlottat keresnek»
    t = day_one()
    spare(t, 7)
    assert "spared" in t.said() and t.game.state == "accusations"
    refused = t.refused("say player 5 accuses player 7")
    assert refused.line == "reject_tried_today" and refused.args == {"seat": 7}
    assert t.session.render("reject_tried_today", {"seat": 7}) == "Player 7 was tried today and lives: accuse someone else."
    t.do("say player 5 accuses player 8")            # another accused: the day goes on
    assert t.game.state == "support_vote" and t.game.accused == 8
    all_vote(t, "no")
    t.do("timeout")                                   # the day's time runs out
    t.do("tap 1 9", "tap 2 10", "tap 3 10", "tap 4 10")
    assert t.game.day == 2 and t.game.state == "accusations"
    t.do("say player 5 accuses player 7")            # a new day: he may be accused again
    assert t.game.state == "support_vote" and t.game.accused == 7


def test_the_endgame_begins_a_new_day_and_there_the_spared_may_be_accused_again():
    # seed 001: «Ha valaki meghalt … éjszaka következik» — the death ends the day; in the endgame
    # «ekkor már nem lehet éjszakát elrendelni», so the next day begins at once; «nincs időkorlát a
    # nappalra, sem a vádemelések számára … Addig kell játszaniuk, míg egyikük halálát a másik kettő
    # meg nem szavazza»
    t = Table(deal="1=inspector 2=protected_mafia", variant="hungariq", seats=6)
    execute(t, 3)
    t.do("tap 1 5", "tap 2 4")
    assert t.game.day == 2
    execute(t, 5)                                     # day 2 ends with a death: three are left
    assert t.game.alive == [1, 2, 6] and t.game.day == 3
    assert t.records("phase")[-1] == {"type": "phase", "phase": "day", "day": 3}
    spare(t, 6)
    spare(t, 6)                                       # no limit: the same player again
    assert t.game.state == "accusations" and t.game.day == 3
    assert t.refused("timeout").line == "reject_no_timer"   # the endgame's day has no time limit
    execute(t, 2)
    assert t.game.winner == "town"


def test_a_table_without_a_protected_mafioso_is_not_told_that_one_shows_himself():
    # seed 001 deals one protected mafioso; a club that plays without (protected_mafia = 0) must
    # not hear at night zero that he shows himself: the mafia would look for him
    t = day_one(deal="1=inspector 2=mafia 3=mafia 4=mafia", roles={"protected_mafia": 0, "mafia": 3})
    said = t.said()
    assert "mafia_wakes_see" in said and "mafia_wakes_meet_protected" not in said


def test_an_accusation_that_was_not_taken_is_taught_as_an_accusation_in_every_language():
    """«Vádat emelek XY ellen» (seed 001): a malformed accusation was answered with classic's
    "Say: I'm submitting player number…", a sentence a Hungarian table does not take at all.
    The answer teaches the table's own sentences, and the examples it gives are taken."""
    import pytest

    from narrator.inputs import InputError, sentence_event
    from narrator.language import load_voice

    examples = {"en": ("I accuse player seven", "three accuses seven"),
                "ru": ("обвиняю игрока номер семь", "третий обвиняет седьмого"),
                "de": ("ich beschuldige Spieler sieben", "drei beschuldigt sieben"),
                "sv": ("jag anklagar spelare sju", "tre anklagar sju"),
                "hu": ("vádat emelek a hetes ellen", "a hármas megvádolja a hetest")}
    for lang, (alone, named) in examples.items():
        voice = load_voice(lang, "hungariq")
        line = voice.render("not_understood", {})
        assert line != load_voice(lang, "classic").render("not_understood", {})
        assert alone in line and named in line, (lang, line)
        assert voice.parse(alone.lower(), only={"accuse"}).seat == 7
        assert voice.parse(named.lower(), only={"accuse"}).by == 3
        malformed = {"en": "i accuse player", "ru": "обвиняю игрока", "de": "ich beschuldige spieler",
                     "sv": "jag anklagar spelare", "hu": "vádat emelek ellen"}[lang]
        with pytest.raises(InputError) as refused:
            sentence_event(malformed, voice, "hungariq")
        assert refused.value.line == "not_understood"
