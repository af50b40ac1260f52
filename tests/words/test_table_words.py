"""Words a club notices (session 18): a Swedish withdrawal that leaves the seat nominated by
another says so, the vote a Swede already gave is named, the mafia's manner of death is asked the
same way of one mafioso or of several, the end names the mafia as players, and the classic day's
first speaker follows seed 004 (or seed 002, chosen in the config)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Table
from narrator.config import ConfigError, parse_config
from narrator.flow.effects import Say
from narrator.language import LANGUAGES, load_voice

SEEDS = Path("/work/shared/rules/seeds")


def seed(prefix: str) -> str | None:
    found = next(SEEDS.glob(f"{prefix}_*.txt"), None) if SEEDS.is_dir() else None
    return found.read_text(encoding="utf-8") if found else None


def spoken(t: Table, batch: list | None = None) -> list[str]:
    return [t.session.render(e.line, e.args) for e in (batch if batch is not None else t.effects) if isinstance(e, Say)]


# ---------------------------------------------------------------- sverige (seed 000)
SV_DEAL = "1=mafia 2=mafia 3=mafia 4=doctor 5=sheriff"          # 12 players


def test_a_swedish_day_where_a_withdrawn_seat_stays_nominated_by_another_player():
    """Seed 000 Nominering: each player holds one nomination of his own, and only he withdraws it.
    When 3 withdraws his nomination of 5 while 7 still nominates 5, 5 is still on the list: the
    table heard only «Spelare 3 avnominerar spelare 5.» and took 5 for free. The whole day, to the
    vote: the read-back, the speeches and the hands follow the nominations as they stand."""
    t = Table(deal=SV_DEAL, variant="sverige", seats=12, lang="sv")
    assert t.game.state == "discussion"
    t.do("say 3 nominerar 5", "say 7 nominerar 5")
    batch = t.do("say 3 avnominerar 5")
    assert spoken(t, batch) == ["Spelare 3 avnominerar spelare 5; spelare 5 är fortfarande nominerad av spelare 7."]
    assert t.game.public_nominations() == [5]
    t.do("say 3 nominerar 8", "say 9 nominerar 5")          # 3 is free to nominate again
    batch = t.do("say 7 avnominerar 5")                     # 9 still holds 5
    assert spoken(t, batch) == ["Spelare 7 avnominerar spelare 5; spelare 5 är fortfarande nominerad av spelare 9."]
    t.do("timeout", "timeout")                              # time up, nobody wants the extension: the last call
    assert t.game.state == "last_call"
    batch = t.do("say 9 avnominerar 5")                     # the last one: 5 is off the list
    assert spoken(t, batch) == ["Spelare 9 avnominerar spelare 5."]
    assert t.game.public_nominations() == [8]
    batch = t.do("timeout")                                 # the read-back names 8 alone
    assert spoken(t, batch)[0] == "Nominerad till röstningen: spelare 8."
    t.do("say tack")                                        # 8's speech
    assert t.game.state == "hand_vote"
    t.do("tap 3 8", "tap 4 8", "tap 6 8")
    again = t.refused("tap 3 8")
    # the hands went up in front of everybody on NU (seed 000), so the answer names his vote
    assert t.session.render(again.line, again.args) == "Spelare 3 har redan röstat i dag, på spelare 8."
    t.do("timeout")
    assert t.eliminated() == [(8, "vote")] and t.game.state == "night"


def test_several_nominators_left_are_all_named_in_every_language():
    for lang in LANGUAGES:
        v = load_voice(lang, "sverige")
        one = v.render("withdrawn_still_nominated", {"by": 3, "seat": 5, "seats": [7], "n": 1})
        two = v.render("withdrawn_still_nominated", {"by": 3, "seat": 5, "seats": [7, 9], "n": 2})
        assert "3" in one and "5" in one and "7" in one and one != v.render("withdrawn_by", {"by": 3, "seat": 5}), lang
        assert "7" in two and "9" in two, lang
    assert load_voice("en").render("withdrawn_still_nominated", {"by": 3, "seat": 5, "seats": [7, 9], "n": 2}) == \
        "Player 3 withdraws the nomination of player 5; player 5 stays nominated by players 7 and 9."


def test_a_last_call_reopened_by_a_withdrawal_that_leaves_the_seat_nominated_resumes_as_the_last_call():
    """A resume says again the lines that opened the running step (README, After a crash), never the
    news that restarted it: the withdrawal is old news, the last call is where the table is."""
    from narrator.flow.events import Nominate, Revoke, Timeout
    from narrator.live import LiveSession

    cfg = parse_config('variant = "sverige"\nlanguage = "en"\nseats = 8\n[dealing]\nmode = "seeded"\nseed = 3\n', "club.toml")
    live = LiveSession(cfg, None)
    events = [live.session.dealing_event(), Timeout(), Nominate(5, 3), Nominate(5, 7), Timeout(), Timeout(), Revoke(5, 3)]
    probe = LiveSession(cfg, None)
    probe.start_effects()
    heard = []
    for ev in events:
        heard += [e.line for e in probe.session.feed(ev) if isinstance(e, Say)]
    assert probe.game.state == "last_call" and heard[-1] == "withdrawn_still_nominated", heard
    said = [e.line for e in live.start_effects(replayed=events) if isinstance(e, Say)]
    assert said == ["resuming", "last_call"], said


# ---------------------------------------------------------------- the mafia addressed (seed 003)
def test_the_manner_of_death_is_asked_alike_of_one_mafioso_or_of_several():
    """Seed 003: «dass die Mafiosi dem Spielleiter eine Todesart mitteilen müssen». Said aloud into
    the night, «Mafia, bevor ihr einschlaft: … euer Opfer» to a lone mafioso was wrong, and «du»
    would tell the sleeping table that one is left: the question names the mafia and takes no
    person at all (Russian «вы» is one player or several alike)."""
    if (text := seed("003")) is not None:
        assert "Todesart" in text
    for lang in LANGUAGES:
        v = load_voice(lang, "grundregeln")
        asked = v.render("mafia_wakes_manner", {"menu": [1, 2]}).lower()
        told = v.render("chosen_manner", {"manner": "@manner_1"}).lower()
        for plural in {"de": (" ihr ", "euer", "wählt"), "sv": (" ni ", " ert "), "hu": ("tok", "tek", "atok", "jatok")}.get(lang, ()):
            assert plural not in asked and plural not in told, (lang, plural, asked, told)
    assert load_voice("de").render("chosen_manner", {"manner": "@manner_2"}) == "Das Opfer wird tot aufgefunden: auf dem Grund des Flusses."


def test_a_lone_mafioso_in_a_german_game_hears_the_same_question_as_two():
    lines = []
    for deal, seats in (("1=mafia", 5), ("1=mafia 2=mafia", 7)):
        t = Table(deal=deal, variant="grundregeln", seats=seats, lang="de", roles={"mafia": len(deal.split())}, manner_of_death=True)
        t.do("tap 1 3", "timeout")                          # the victim chosen: the manner is asked
        said = [s for s in spoken(t) if s.startswith("Mafia,")]
        assert len(said) == 1, spoken(t)
        lines.append(said[0])
    assert lines[0] == lines[1]
    assert lines[0].startswith("Mafia, noch vor dem Einschlafen: Wie wird das Opfer aufgefunden? Bitte eine Nummer wählen.")


# ---------------------------------------------------------------- the end
def test_the_end_names_the_mafia_as_players_in_a_whole_sentence():
    """«Maffian var 6 och 8.» read as a note; the closing line is a sentence naming players."""
    expected = {
        "en": ("The only mafioso was player 6.", "The mafia were players 6 and 8."),
        "sv": ("Ensam i maffian var spelare 6.", "Maffian var spelare 6 och 8."),
        "de": ("Der einzige Mafioso war Spieler 6.", "Zur Mafia gehörten die Spieler 6 und 8."),
        "ru": ("Единственным мафиози был игрок 6.", "Мафией были игроки 6 и 8."),
        "hu": ("Az egyetlen maffiózó a 6. játékos volt.", "A maffiózók a következő játékosok voltak: 6 és 8."),
    }
    for lang, (one, two) in expected.items():
        v = load_voice(lang, "sverige")
        assert v.render("reveal_mafia", {"seats": [6], "n": 1}) == one
        assert v.render("reveal_mafia", {"seats": [6, 8], "n": 2}) == two


def test_a_grundregeln_game_won_by_the_good_side_closes_with_a_sentence():
    t = Table(deal="1=mafia", variant="grundregeln", seats=5, lang="de", roles={"mafia": 1})
    t.do("tap 1 2")
    while t.game.state == "night":
        t.do("timeout")
    t.do("timeout")                                          # the discussion ends: everybody points
    t.do("tap 1 3", "tap 3 1", "tap 4 1", "tap 5 1")
    while t.game.state == "defences":
        t.do("timeout")
    t.do("tap 1 3", "tap 3 1", "tap 4 1", "tap 5 1")
    assert t.game.state == "over"
    assert spoken(t)[-2:] == ["Die gute Seite gewinnt: Niemand von der bösen Seite lebt mehr.",
                              "Der einzige Mafioso war Spieler 1."]


def test_a_classic_table_without_a_don_is_not_told_the_don_was_a_dash():
    t = Table(deal=None)
    t.game.seats[1].role, t.game.seats[4].role = "mafia", "sheriff"
    for s in (2, 3):
        t.game.seats[s].role = "mafia"
    for s in range(5, 11):
        t.game.seats[s].role = "citizen"
    t.game.out = []
    t.game.reveal_roles()
    said = [t.session.render(e.line, e.args) for e in t.game.out if isinstance(e, Say)]
    assert said == ["The mafia were players 1, 2 and 3.", "The Sheriff was player 4."]


# ---------------------------------------------------------------- the classic day's first speaker
# seed 004 §4.3 «starting with player 1 during first “day”, player 2 during second “day” and so on»;
# seed 002 «Обсуждение второго дня начинается со следующего, после говорившего первым в предыдущем круге игрока»
CLASSIC_DEAL = "8=don 9=mafia 10=mafia 4=sheriff"


def _night(t: Table, shot: int) -> None:
    """The mafia shoot `shot`; the night and the dawn's last words run out."""
    assert t.game.state == "night"
    t.do(f"tap 8 {shot}", f"tap 9 {shot}", f"tap 10 {shot}")
    while t.game.state != "speeches":
        t.do("timeout")


def _openers(**rules) -> list[int]:
    t = Table(deal=CLASSIC_DEAL, **rules)
    while t.game.state != "speeches":
        t.do("timeout")                                     # night zero
    openers = []
    for shot in (2, 5, None):
        openers.append(t.records("speeches")[-1]["order"][0])
        assert t.records("speeches")[-1]["order"] == sorted(t.game.alive, key=lambda s: (s < openers[-1], s))
        if shot is None:
            break
        t.finish_day_speeches()                             # nobody nominated: no vote, night falls
        _night(t, shot)
    return openers


def test_seed_004_day_n_opens_with_player_n_and_a_dead_players_turn_passes_on():
    """Three days with deaths: 2 is shot on night 1, 5 on night 2. Day 2 is seat 2's day, who is
    dead: 3 opens. Day 3 is seat 3's: 3 opens again (seed 002 would give it to 4)."""
    if (text := seed("004")) is not None:
        assert "player 2 during second" in text
    assert _openers() == [1, 3, 3]
    assert _openers(day_opener='"day_number"') == [1, 3, 3]


def test_seed_002_each_day_opens_after_the_previous_days_opener():
    if (text := seed("002")) is not None:
        assert "после говорившего первым в предыдущем круге" in text
    assert _openers(day_opener='"after_previous"') == [1, 3, 4]


def test_seed_004_day_eleven_opens_with_seat_one_again():
    t = Table(deal=CLASSIC_DEAL)
    t.game.day = 10                                          # the 11th day starts next
    t.game.start_day()
    assert t.records("speeches")[-1]["order"][0] == 1


def test_a_day_opener_the_rules_do_not_know_is_named_with_file_line_and_key():
    text = 'variant = "classic"\nlanguage = "en"\n[rules]\nday_opener = "fifth"\n'
    with pytest.raises(ConfigError) as err:
        parse_config(text, "club.toml")
    assert str(err.value).splitlines()[0] == \
        "club.toml:4: rules.day_opener: must be one of day_number, after_previous, not 'fifth'"
    assert parse_config(text.replace("fifth", "after_previous")).rules["day_opener"] == "after_previous"
    assert parse_config('variant = "classic"\nlanguage = "en"\n').rules["day_opener"] == "day_number"


def test_the_phones_name_the_seat_alike_both_times_and_every_nominator_left():
    """On a phone the narrator's caption carries the players' names (README, Names): the seat that
    stays nominated is named the same way both times the line says it, and the nominators still
    holding it are named too."""
    import asyncio

    from test_companion_names_everywhere import classic

    async def main():
        async with classic() as t:
            hub = t.companion.hub
            line = hub.named("withdrawn_still_nominated", {"by": 1, "seat": 7, "seats": [9], "n": 1}, "")
            voted = hub.named("reject_voted_today_for", {"by": 9, "seat": 7}, "")
            return line, voted

    line, voted = asyncio.run(main())
    assert line == ("Player 1 (<b>Ann</b>) withdraws the nomination of player 7 (Åsa-Maria Lindqvist-Bergström); "
                    "player 7 (Åsa-Maria Lindqvist-Bergström) stays nominated by player 9 (Zsófi)."), line
    assert voted == "Player 9 (Zsófi) has already voted today, for player 7 (Åsa-Maria Lindqvist-Bergström).", voted
