"""Rules the seed documents settle, each played at the table it describes: wins that come without a
death, every night vote the vogon can see, the mafia's manner of death, and the options where a
seed leaves a choice open (each with its default read from the seed's own words)."""

from __future__ import annotations

from conftest import Table


# ------------------------------------------------------------------ sverige (seed 000)
SVERIGE_AVENGER = "1=mafia 2=mafia 3=doctor 4=avenger"   # 7 seats: 5, 6 and 7 are villagers


def sverige_hang(t: Table, by: int, seat: int) -> None:
    """A day of seed 000: one nomination, the time runs out, the nominee speaks, the hands go up."""
    t.do(f"say {by} nominates {seat}", "timeout", "timeout", "timeout", "say thank you")
    for voter in [s for s in t.game.alive if s != seat]:
        t.do(f"tap {voter} {seat}")
    t.do("timeout")                                        # the hands are counted


def test_with_the_avenger_the_mafia_win_at_a_dawn_where_nobody_died():
    # seed 000 Mål: «Maffian vinner när de är lika många eller fler än de i bybo-laget», and with the
    # avenger «måste maffian vinna efter en nattfas»: the win is checked after the night, deaths or not
    t = Table(deal=SVERIGE_AVENGER, variant="sverige", seats=7, roles={"mafia": 2, "doctor": 1, "avenger": 1})
    sverige_hang(t, 1, 5)                                  # 2 mafia against 4
    t.do("tap 1 6", "tap 2 6", "tap 3 4", "timeout")       # 6 is shot; the avenger holds his fire
    assert t.eliminated() == [(5, "vote"), (6, "shot")]
    sverige_hang(t, 1, 7)                                  # 2 against 2, after a day: not yet
    assert t.game.state == "night" and t.game.winner is None
    t.do("tap 1 3", "tap 2 3", "tap 3 3", "timeout")       # the doctor saves himself; nobody dies
    assert t.records("eliminated")[-1]["seat"] == 7
    assert t.game.winner == "mafia" and t.game.state == "over"
    assert t.said()[-3:-1] == ["morning_attempt", "mafia_wins_village"]


def test_without_a_death_no_other_variant_changes_its_winner_at_dawn():
    # a quiet night leaves every count as it was: only the avenger's "after a night" waits for a dawn
    t = Table(variant="sverige", seats=7, deal="1=mafia 2=mafia 3=doctor", roles={"mafia": 2, "doctor": 1})
    sverige_hang(t, 1, 5)
    t.do("tap 1 3", "tap 2 3", "tap 3 3")                  # saved: nobody dies, 2 against 3
    assert t.game.state == "discussion" and t.game.winner is None


# ------------------------------------------------------------------ hungariq (seed 001)
HUNGARIQ = "1=inspector 2=protected_mafia 3=mafia 4=mafia 8=vogon 9=bodyguard"


def hungariq_quiet_day(t: Table) -> None:
    for seat in (5, 6, 7):
        t.do(f"say I accuse player {seat}")
        for s in list(t.game.alive):
            t.do(f"tap {s} no")
    t.do("timeout")                                        # the day's time runs out


def test_the_vogon_sees_the_bodyguards_vote():
    # seed 001: the bodyguard «Minden éjjel egy névnél szavaz», and the vogon «megnézheti, hogy
    # szavaz-e éppen valaki»: the bodyguard's vote on a name is a vote the vogon sees
    t = Table(deal=HUNGARIQ, variant="hungariq", seats=12, roles={"vogon": 1, "bodyguard": 1})
    hungariq_quiet_day(t)
    t.do("tap 1 5", "tap 9 10", "tap 2 11", "tap 3 11", "tap 4 11")
    batch = t.do("tap 8 10")
    assert [(x.seat, x.line) for x in t.told(batch)] == [(8, "watch_someone")]
    assert t.records("watch")[-1] == {"type": "watch", "by": 8, "seat": 10, "result": True}


def test_the_vogon_sees_nobody_on_a_name_nobody_voted_on():
    t = Table(deal=HUNGARIQ, variant="hungariq", seats=12, roles={"vogon": 1, "bodyguard": 1})
    hungariq_quiet_day(t)
    t.do("tap 1 5", "tap 9 10", "tap 2 11", "tap 3 11", "tap 4 11")
    batch = t.do("tap 8 12")
    assert [(x.seat, x.line) for x in t.told(batch)] == [(8, "watch_nobody")]


# ------------------------------------------------------------------ the seeds' open choices
def test_sverige_a_lone_nominee_without_a_raised_hand_is_not_hanged():
    # seed 000 Röstning: «Spelaren som får högst antal röster hängs» — with no hand raised nobody
    # got the most votes (rule hang_without_votes, default false)
    t = Table(deal="1=mafia 2=mafia 3=doctor", variant="sverige", seats=8)
    t.do("say 1 nominates 5", "timeout", "timeout", "timeout", "say thank you", "timeout")
    assert t.said()[-4:-2] == ["hand_vote_count", "no_votes_nobody_hanged"]
    assert t.eliminated() == [] and t.game.state == "night"


def test_sverige_a_lone_nominee_without_votes_hangs_when_the_club_says_so():
    t = Table(deal="1=mafia 2=mafia 3=doctor", variant="sverige", seats=8, hang_without_votes=True)
    t.do("say 1 nominates 5", "timeout", "timeout", "timeout", "say thank you", "timeout")
    assert t.eliminated() == [(5, "vote")]


def test_sverige_one_raised_hand_is_the_most_votes():
    t = Table(deal="1=mafia 2=mafia 3=doctor", variant="sverige", seats=8)
    t.do("say 1 nominates 5", "timeout", "timeout", "timeout", "say thank you", "tap 1 5", "timeout")
    assert t.eliminated() == [(5, "vote")]


def test_hungariq_the_protected_citizen_is_pardoned_at_every_day_death_sentence():
    # seed 001: «Nappali halálos ítélet esetén játékvezetői kegyelemben részesül» — no count
    t = Table(deal=HUNGARIQ.replace("8=vogon 9=bodyguard", "7=protected_citizen"), variant="hungariq", seats=12,
              roles={"protected_citizen": 1})
    for _ in range(2):
        t.do("say I accuse player 7")
        for s in list(t.game.alive):
            t.do(f"tap {s} yes")
        t.do("timeout", "say thank you")
        for s in list(t.game.alive):
            t.do(f"tap {s} yes")
    assert t.said().count("pardoned") == 2 and 7 in t.game.alive


def test_hungariq_pardoned_once_only_when_the_club_says_so():
    t = Table(deal=HUNGARIQ.replace("8=vogon 9=bodyguard", "7=protected_citizen"), variant="hungariq", seats=12,
              roles={"protected_citizen": 1}, pardon_every_sentence=False)
    for _ in range(2):
        t.do("say I accuse player 7")
        for s in list(t.game.alive):
            t.do(f"tap {s} yes")
        t.do("timeout", "say thank you")
        for s in list(t.game.alive):
            t.do(f"tap {s} yes")
    assert t.said().count("pardoned") == 1 and t.eliminated() == [(7, "vote")]


def test_classic_above_ten_nobody_but_the_maniac_wins_while_he_lives_unless_the_club_says_so():
    # seed 002: the town wins «когда устранена вся «Мафия»»; the Маньяк above ten is a killer of
    # his own side, so by default the town has not won while he lives (town_wins_while_maniac_lives)
    from narrator.rules import wins

    roles = ["maniac", "citizen", "citizen", "sheriff"]
    assert wins.classic(roles, rules={"town_wins_while_maniac_lives": False}) is None
    assert wins.classic(roles, rules={"town_wins_while_maniac_lives": True}) == "town"
    assert wins.classic(["maniac", "citizen"], rules={"town_wins_while_maniac_lives": True}) == "maniac"


def test_classic_the_town_wins_with_the_maniac_alive_at_a_table_that_chose_it():
    deal = "1=sheriff 2=don 3=mafia 4=mafia 6=mafia 5=maniac"
    t = Table(deal=deal, seats=13, roles={"maniac": 1}, town_wins_while_maniac_lives=True)
    for _ in range(8):                               # day by day the mafia are voted out; nobody shoots
        if t.game.state == "over":
            break
        mafia = [s for s in t.game.alive if t.game.role(s) in ("don", "mafia")]
        t.do(f"say I'm submitting player number {mafia[0]}")    # the day's first speaker
        while t.game.state == "speeches":
            t.do("say thank you")
        if t.game.state == "voting":
            t.vote({s: mafia[0] for s in t.game.alive})
        while t.game.state == "last_words":
            t.do("say thank you")
        while t.game.state == "night":
            t.do("timeout")
        while t.game.state == "last_words":
            t.do("say thank you")
    assert t.game.winner == "town" and 5 in t.game.alive


# ------------------------------------------------------------------ grundregeln (seed 003)
def test_grundregeln_the_mafia_choose_the_manner_of_death_and_the_narrator_announces_it():
    # seed 003: «dass die Mafiosi dem Spielleiter eine Todesart mitteilen müssen» and in the morning
    # «Er verkündet ob, wer und ggf. wie ein Spieler gestorben ist»
    t = Table(deal="1=mafia 2=mafia", variant="grundregeln", seats=8, roles={"mafia": 2}, manner_of_death=True)
    assert t.said()[-1] == "mafia_wakes_kill"
    t.do("tap 1 8", "tap 2 8")
    assert t.said()[-1] == "mafia_wakes_manner" and "mafia_sleeps" not in t.said()[-2:]   # still awake
    assert t.game.night_choices() == ("manner", [1, 2, 3, 4, 5, 6, 7, 8])
    assert t.session.render("mafia_wakes_manner", [e for e in t.effects if getattr(e, "line", "") == "mafia_wakes_manner"][-1].args) \
        .endswith("1: poisoned at the dinner table; 2: at the bottom of the river; 3: shot in the back in a dark alley; "
                  "4: under a piano that fell from a window; 5: strangled with a silk scarf; 6: in the cellar, among the "
                  "wine barrels; 7: run over by a horse carriage; 8: stabbed with a letter opener.")
    assert t.refused("tap 1 9").line == "reject_no_such_choice"     # a number of the list, not a seat
    batch = t.do("tap 2 4", "tap 1 5")                             # the last choice counts
    assert [(x.seat, x.line, x.args) for x in t.told(batch)] == [(2, "chosen_manner", {"manner": "@manner_4"}),
                                                                   (1, "chosen_manner", {"manner": "@manner_5"})]
    said = [e for e in t.effects if getattr(e, "line", None) == "died_manner"]
    assert [e.args for e in said] == [{"seat": 8, "manner": "@manner_5"}]
    assert t.session.render("died_manner", said[0].args) == "Player 8 was found strangled with a silk scarf."


def test_grundregeln_without_the_option_nobody_is_asked_for_a_manner():
    t = Table(deal="1=mafia 2=mafia", variant="grundregeln", seats=8, roles={"mafia": 2})
    t.do("tap 1 8", "tap 2 8")
    assert "mafia_wakes_manner" not in t.said() and "died_manner" not in t.said()
    assert t.eliminated() == [(8, "shot")]


# ------------------------------------------------------------------ the game report tells them too
def report_of(t: Table, tmp_path) -> str:
    from narrator import protocol
    from narrator.report import read_game, render

    path = tmp_path / "game.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        protocol.write(protocol.entries(t.effects, t.session.voice), fh)
    return render(read_game(path))


def test_the_report_tells_the_chosen_manner_and_a_vote_without_hands(tmp_path):
    t = Table(deal="1=mafia 2=mafia", variant="grundregeln", seats=8, roles={"mafia": 2}, manner_of_death=True,
              lang="de")
    t.do("tap 1 8", "tap 2 8", "tap 2 4", "tap 1 5")
    assert "wählt, wie das Opfer stirbt: mit einem Seidenschal erdrosselt" in report_of(t, tmp_path)
    s = Table(deal="1=mafia 2=mafia 3=doctor", variant="sverige", seats=8)
    s.do("say 1 nominates 5", "timeout", "timeout", "timeout", "say thank you", "timeout")
    assert "Nobody voted: nobody is hanged" in report_of(s, tmp_path)
