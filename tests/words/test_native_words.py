"""Words a native club player reads at the console and on the phones (play-test of session 14):
the German basic rules' point is a «Stimme» and is shown as a point (seed 003), the Hungarian
label of a line for several seats and the host screen's Ready read as Hungarian, not as a
translation."""

from __future__ import annotations

from pathlib import Path

from narrator.language import LANGUAGES, load_voice
from test_console_table import console_game
from test_console_words import FIRST_DAY, GRUND

SEEDS = Path("/work/shared/rules/seeds")
SEED_003 = next(SEEDS.glob("003_*.txt"), None) if SEEDS.is_dir() else None


def test_a_german_point_is_a_vote_counted_as_the_player_pointing():
    """Seed 003: «zeigt jeder Spieler nach Kommando des Spielleiters auf einen Mitspieler … Die beiden
    mit den meisten erhaltenen Stimmen werden nominiert». A point is a Stimme; the console said
    «Stimme angenommen: Spieler 1 für Spieler 3», words for a ballot, not for a point."""
    if SEED_003 is not None:
        assert "erhaltenen Stimmen" in SEED_003.read_text(encoding="utf-8")
    printed, live = console_game(GRUND, [l if l != "timeout" else "<fire>" for l in FIRST_DAY])
    assert "Stimme gezählt: Spieler 1 zeigt auf Spieler 3" in printed
    assert "Stimme gezählt: Spieler 3 zeigt auf Spieler 4" in printed
    assert "angenommen" not in printed
    # seed 003 «Nach dieser wird endgültig abgestimmt»: after the defences nobody points, the final
    # vote is a vote — the console said «zeigt auf» for it too
    pointing, final = printed.split("endgültig abgestimmt", 1)
    assert "Spieler 1 für Spieler 3" not in pointing
    assert "Stimme gezählt: Spieler 1 für Spieler 3" in final and "Stimme gezählt: Spieler 3 für Spieler 4" in final
    assert "zeigt auf" not in final


def test_every_language_shows_a_grundregeln_point_as_a_point_and_its_final_vote_as_a_vote():
    for lang in LANGUAGES:
        grund = load_voice(lang, "grundregeln")
        point = grund.console_text("vote_for_pointing", {"voter": 1, "seat": 3})
        vote = load_voice(lang, "classic").console_text("vote_for", {"voter": 1, "seat": 3})
        assert point != vote, lang
        # the final vote and the run-off are worded as every variant's vote
        assert grund.console_text("vote_for", {"voter": 1, "seat": 3}) == vote, lang
        assert not load_voice(lang, "classic").has_printed("console", "vote_for_pointing"), lang
    assert load_voice("de", "classic").console_text("vote_for", {"voter": 1, "seat": 3}) == "Stimme gezählt: Spieler 1 für Spieler 3"


def test_the_hungarian_label_for_several_seats_and_the_wait_for_ready_read_as_hungarian():
    hu = load_voice("hu", "hungariq")
    # «csak az ezeken a helyeken ülőknek (1, 2 és 3):» stacked two articles on one noun phrase
    assert hu.render("private_for_seats", {"seats": [1, 2, 3]}) == "csak ezeknek a helyeknek (1, 2 és 3):"
    # under the host screen's «Mire vár» the value is a name, in the nominative: «Kész jelzését» was an
    # accusative object of no verb
    assert hu.phone["host_waiting_ready"].startswith("minden telefon Kész jelzése ")
    for key, text in hu.phone.items():
        if key.startswith("host_awaiting") or key == "host_waiting_ready":
            assert "jelzését" not in text and "helyekről" not in text, key


def test_german_lines_put_no_comma_before_oder_between_two_alternatives():
    """«Tippen, oder timeout» read wrong to a German player: two alternatives joined by «oder»
    take no comma. The one comma left before «oder» closes an infinitive group («um … zu
    spielen, oder …»), where German sets it."""
    from narrator.language import voices_dir
    text = (voices_dir() / "de.toml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if ", oder" in line and not line.startswith("#")]
    assert all(line.split(", oder")[0].rstrip().endswith(" zu spielen") for line in lines), lines
    de = load_voice("de")
    assert de.render("awaiting_night_step", {"step": "das Opfer der Mafia"}) == "Das Opfer der Mafia (Tippen oder timeout)"
    assert de.render("awaiting_speech", {"seat": 3}).endswith("(danke sagen oder timeout)")
