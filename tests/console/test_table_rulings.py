"""Rulings a referee gives at odd moments, played through the console as a table meets them: what
is typed there is what a transcript holds, and what the table hears is printed.

- seed 003: in the grundregeln vote everybody *points* («zeigt jeder Spieler … auf einen
  Mitspieler»); nobody nominates, so a refusal speaks of pointing.
- seed 004 §7 «If a player leaves the game by receiving a 4th foul or disqualification the current
  or next vote is cancelled, unless this player has been "killed" at night»; §5 «Leave of the gaming
  table» is a dismissal; §4.5 «If all "mafia" players present at the table "shoot" at the same
  player — the player gets "killed"».
- seed 004 §4.4 «If those players receive equal number of votes again host initiates a new vote to
  exile both players»; §7 «If 3 players receive equal number of votes two times the vote ends».
"""

from __future__ import annotations

from test_classic_vote_cancel import TODAY, lines_after, said_in_a_row
from conftest import Table, in_calls
from test_console_table import NIGHT_ZERO, console_game, table

SPEECHES = ["timeout"] * 10
GRUND = '[roles]\nmafia = 2\n'


def grundregeln(lang: str) -> str:
    # seats 3 and 5 are the mafia (the console table's fixed deal names them first); 10 players
    return (f'variant = "grundregeln"\nlanguage = "{lang}"\nseats = 10\n[roles]\nmafia = 2\n'
            '[dealing]\nroles = { 3 = "mafia", 5 = "mafia" }\n[input]\nengine = "none"\n')


# ------------------------------------------------------------------ seed 003: pointing, not nominating
def test_pointing_at_oneself_is_answered_as_pointing_in_german():
    # the night kills 10; the discussion ends; 4 points at himself, then at 10 (dead), then twice
    printed, live = console_game(grundregeln("de"), ["tap 3 10", "tap 5 10", "<fire>", "timeout",
                                                      "tap 4 4", "tap 4 10", "tap 4 yes", "tap 4 12", "tap 4 7", "tap 4 8"])
    assert "Du kannst nicht auf dich selbst zeigen: Zeig auf einen Mitspieler." in printed
    assert "nominieren" not in printed
    assert "Spieler 10 ist schon ausgeschieden." in printed                     # not "steht nicht zur Wahl"
    assert "Zeig auf einen Spieler: Tippe die Platznummer." in printed          # a yes is no seat
    assert "Spieler None" not in printed
    assert "Es gibt keinen Platz 12; die Plätze gehen von 1 bis 10." in printed
    assert "Spieler 4 hat schon gezeigt." in printed                            # he pointed; he did not vote
    assert live.game.votes == {4: 7}


def test_pointing_wording_in_every_language():
    words = {"en": "You cannot point at yourself: point at another player.",
             "ru": "На себя указывать нельзя: укажите на другого игрока.",
             "sv": "Du kan inte peka på dig själv: peka på en annan spelare.",
             "hu": "Magadra nem mutathatsz: mutass egy másik játékosra."}
    for lang, line in words.items():
        printed, live = console_game(grundregeln(lang), ["tap 3 10", "tap 5 10", "<fire>", "timeout", "tap 4 4"])
        assert line in printed, lang
        assert live.game.votes == {}


def test_a_yes_in_the_swedish_hand_vote_is_a_hand_for_the_name_being_called():
    # seed 000: «De som vill rösta på X ska: räcka. upp. sin hand. NU!» — one name at a time
    cfg = ('variant = "sverige"\nlanguage = "sv"\n[roles]\nmafia = 2\n'
           '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n[input]\nengine = "none"\n')
    printed, live = console_game(cfg, ["<fire>", "say fem nominerar sju", "timeout", "timeout",
                                       "timeout", "say tack", "tap 6 nej", "tap 5 ja", "tap 4 8"])
    assert "Spelare None" not in printed
    assert "✗ Ingen hand uppräckt för spelare 7: ingen röst att räkna." in printed
    assert "✗ Spelare 8 är inte nominerad; nu röstar vi på spelare 7." in printed
    assert live.game.hands[7] == [5]


# ------------------------------------------------------------------ seed 004 §7: removed in the night
def test_a_player_disqualified_after_the_mafia_shot_him_was_killed_and_todays_vote_is_held():
    # the mafia (3, 5, 8) shoot 6; the referee disqualifies 6 in the Don's step
    printed, live = console_game(table("en"), NIGHT_ZERO + SPEECHES + [
        "tap 3 6", "tap 5 6", "tap 8 6", "<fire>", "disqualify 6", "<fire>", "<fire>"] + ["timeout"] * 9)
    night = lines_after(printed, "The Don wakes up and looks for the Sheriff.")
    assert night[1] == "The Don falls asleep."        # said in the morning (test_classic_night_penalties)
    morning = lines_after(printed, "Day 2")
    assert morning[1:4] == ["The morning is not good. Player 6 leaves us.",
                            "In the night, player 6 was disqualified and leaves the game without last words.",
                            "Player 6 was shot in the night, so his leaving cancels no vote: today's vote is held."]
    assert "Player 6, your last words." not in printed and TODAY not in printed
    assert "Today's vote is cancelled." not in printed and live.game.cancel_vote_day is None


def test_a_fourth_foul_after_the_shot_is_the_same_ruling():
    printed, live = console_game(table("ru"), NIGHT_ZERO + SPEECHES + [
        "tap 3 6", "tap 5 6", "tap 8 6", "<fire>"] + ["foul 6"] * 4 + ["<fire>", "<fire>"])
    morning = lines_after(printed, "День 2")
    assert morning[1:5] == ["Утро у нас не доброе. Нас покидает игрок номер 6.",
                            "Этой ночью игрок 6 получил 4 фола, теперь у него их 4.",
                            "У игрока 6 четвёртый фол. Он покидает игру без последнего слова.",
                            "Игрока 6 ночью застрелили, поэтому голосование не отменяется: сегодня голосуем."]
    assert TODAY not in printed and live.game.cancel_vote_day is None


def test_a_mafioso_who_leaves_before_the_shot_does_not_spoil_it_and_todays_vote_is_cancelled():
    # §4.5 «all "mafia" players present at the table»: 8 left, so 3 and 5 alone shoot; his tap
    # after leaving is refused to him alone
    printed, live = console_game(table("en"), NIGHT_ZERO + SPEECHES + [
        "leave 8", "tap 8 6", "tap 3 6", "tap 5 6", "<fire>", "<fire>", "<fire>"])
    assert "✗ only for seat 8: Player 8 is out of the game." in printed
    morning = lines_after(printed, "Day 2")
    assert morning[1:4] == ["The morning is not good. Player 6 leaves us.",
                            "Player 8 left the table in the night and is out of the game, without last words.",
                            "Today's vote is cancelled."]
    assert not {6, 8} & set(live.game.alive) and live.game.cancel_vote_day == 2


def test_a_player_shot_who_then_left_the_table_was_shot_and_the_vote_is_held():
    printed, live = console_game(table("en"), NIGHT_ZERO + SPEECHES + [
        "tap 3 6", "tap 5 6", "tap 8 6", "leave 6", "<fire>", "<fire>", "<fire>"])
    morning = lines_after(printed, "Day 2")
    assert morning[1:4] == ["The morning is not good. Player 6 leaves us.",
                            "Player 6 left the table in the night and is out of the game, without last words.",
                            "Player 6 was shot in the night, so his leaving cancels no vote: today's vote is held."]
    assert "Player 6, your last words." not in printed and live.game.cancel_vote_day is None


# ------------------------------------------------------------------ seed 004 §4.4, §7: a tie that narrows
NOMINATE_FOUR = ["выставляю игрока номер 7", "спасибо", "выставляю игрока номер 5", "спасибо",
                 "выставляю игрока номер 6", "спасибо", "выставляю игрока номер 9"] + ["timeout"] * 7


def votes(plan: dict[int, list[int]]) -> list[str]:
    """The fists of each candidate in his own call, in nomination order (seed 004 §4.4)."""
    return in_calls(*([f"tap {v} {c}" for v in voters] for c, voters in plan.items()))


def test_three_tied_then_two_tied_is_a_new_split_between_the_two_then_the_lift_vote():
    first = votes({7: [1, 2, 3], 5: [4, 5, 6], 6: [7, 8, 9], 9: [10]})            # 3 : 3 : 3 : 1
    second = votes({7: [1, 2, 3, 7], 5: [4, 5, 6, 8], 6: [9, 10]})                # 4 : 4 : 2 — fewer tied
    third = votes({7: [1, 2, 3, 7, 9], 5: [4, 5, 6, 8, 10]})                      # 5 : 5 — the same two
    printed, live = console_game(table("ru"), NIGHT_ZERO + NOMINATE_FOUR + first + ["timeout"] * 3 + second
                                 + ["timeout"] * 2 + third)
    said = lines_after(printed, "Автокатастрофа")
    assert said[:4] == ["Автокатастрофа: поровну голосов у игроков 7, 5 и 6.", "Игрок 7, 30 секунд на оправдание.",
                        "Спасибо, игрок 7. Время вышло.", "Игрок 5, 30 секунд на оправдание."]
    assert said_in_a_row(said, ["Игрок 6: 2 голоса.", "Снова автокатастрофа, теперь только между игроками 7 и 5.",
                                "Игрок 7, 30 секунд на оправдание."])
    assert "Трое или больше игроков дважды" not in printed                       # not three tied twice
    assert said[-1].startswith("Кто «за» то, чтобы") or "all_leave" in live.game.state
    assert live.game.state == "all_leave_vote" and live.game.tied == [7, 5]


def test_a_revote_after_a_three_way_split_sends_out_the_one_with_most_votes():
    first = votes({7: [1, 2, 3], 5: [4, 5, 6], 6: [7, 8, 9], 9: [10]})
    for plan, out in (({7: [1, 2, 3], 5: [4, 5, 6], 6: [7, 8, 9, 10]}, 6), ({7: [1, 2, 3, 10], 5: [4, 5, 6], 6: [7, 8, 9]}, 7)):
        printed, live = console_game(table("en"), NIGHT_ZERO + [
            "I'm submitting player number 7", "thank you", "I'm submitting player number 5", "thank you",
            "I'm submitting player number 6", "thank you", "I'm submitting player number 9"] + ["timeout"] * 7
            + first + ["timeout"] * 3 + votes(plan))
        assert f"Player {out} leaves the game." in printed and "Split vote again" not in printed


# ------------------------------------------------------------------ seed 001: an accusation names another
def test_a_hungarian_player_cannot_accuse_himself():
    cfg = ('variant = "hungariq"\nlanguage = "hu"\n[dealing]\nroles = { 1 = "inspector", 2 = "mafia", 3 = "mafia", '
           '4 = "protected_mafia" }\n[input]\nengine = "none"\n')
    printed, live = console_game(cfg, ["<fire>"] * 2 + ["say 5 vádat emel 5 ellen", "say 6 vádat emel 5 ellen",
                                                        "say 7 vádat emel 8 ellen"])
    assert "✗ Saját magad ellen nem emelhetsz vádat." in printed
    assert "✗ Várj, amíg a mostani vádról döntés születik." in printed        # 5 is being tried
    assert live.game.accused == 5 and live.game.state == "support_vote"


def test_an_accusation_at_night_is_answered_as_such_and_a_swedish_nomination_at_night_too():
    cfg = ('variant = "hungariq"\nlanguage = "hu"\n[dealing]\nroles = { 1 = "inspector", 2 = "mafia", 3 = "mafia", '
           '4 = "protected_mafia" }\n[input]\nengine = "none"\n')
    printed, live = console_game(cfg, ["<fire>"] * 2 + ["timeout", "say 6 vádat emel 5 ellen"])
    assert "✗ Vádat nappal lehet emelni." in printed and "mostani vádról" not in printed
    cfg = ('variant = "sverige"\nlanguage = "sv"\n[roles]\nmafia = 2\n'
           '[dealing]\nroles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n[input]\nengine = "none"\n')
    printed, live = console_game(cfg, ["<fire>", "say fem nominerar sju", "timeout", "timeout", "timeout", "say tre nominerar fyra"])
    assert "✗ Man nominerar under dagens diskussion, fram till att sista chansen är över." in printed
    assert "eget tal" not in printed


def test_a_night_step_played_from_a_transcript_does_not_wait_for_the_one_who_left():
    # in replay a step ends when every living actor has tapped; one who left the table is no actor
    t = Table()
    t.finish_day_speeches()
    t.do("leave 4", "tap 2 6", "tap 3 6")
    assert t.game.step is not None and t.game.step.name != "mafia_shoots"
    t.do("tap 2 1", "tap 1 2")
    assert (6, "shot") in t.eliminated() and (4, "left") in t.eliminated()
