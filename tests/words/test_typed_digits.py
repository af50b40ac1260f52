"""A seat typed in the digits of any script is the same seat: a host whose keyboard layout is
full-width (３) or Arabic-Indic (٣) types the same game as one on ASCII digits, at every prompt.

Every typed seat goes through one reading of a seat number (`narrator.language.seat_number`):
`tap`, `vote`, the day's typed words, the referee's, `deal`, a typed sentence, the keypad at night
and the scorer's line of hands. Before, the line of hands took ASCII digits only: a Swedish
scorer's «３ ５ ６» was table talk, one prompt after «tap ３ ４» had been taken. A superscript ³
(AltGr+3 on a German keyboard) is no decimal digit, and stays answered as no seat number."""

from __future__ import annotations

import pytest
from test_console_hands import JOURNAL_ETC, SVERIGE, journal_events, swedish_day_to_the_first_call, typed, until
from test_console_hotseat import play_on_a_terminal
from test_edges_text import _console_game

from narrator.companion.keypad import KeypadInput
from narrator.inputs import InputError, hands_line, parse_line
from narrator.language import load_voice

ASCII = "0123456789"
SCRIPTS = {
    "ascii": str.maketrans({}),
    "full-width": str.maketrans(ASCII, "０１２３４５６７８９"),
    "arabic-indic": str.maketrans(ASCII, "٠١٢٣٤٥٦٧٨٩"),
}

# every typed line that names a seat, at a table whose rules take it
LINES = [
    ("classic", "en", "tap 3 7"),
    ("classic", "en", "tap 3 yes"),
    ("classic", "en", "vote 5 3"),
    ("classic", "en", "vote 10 no"),
    ("classic", "en", "nominate 3"),
    ("classic", "en", "withdraw 3"),
    ("sverige", "sv", "nominate 3 by 5"),
    ("sverige", "sv", "withdraw 3 by 5"),
    ("hungariq", "hu", "accuse 4 by 2"),
    ("classic", "en", "foul 4"),
    ("classic", "en", "disqualify 4"),
    ("classic", "en", "defeat 4"),
    ("classic", "en", "leave 4"),
    ("classic", "en", "deal 1=don 2=mafia 10=sheriff"),
    ("hungariq", "hu", "deal 5+lover 6+kamikaze"),
    ("classic", "en", "say I'm submitting player number 7"),
    ("classic", "ru", "say выставляю игрока номер 7"),
    ("sverige", "sv", "say I nominate player 3"),
]


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("variant, lang, line", LINES)
def test_a_typed_line_is_the_same_event_in_the_digits_of_any_script(variant, lang, line, script):
    voice = load_voice(lang, variant)
    assert parse_line(line.translate(SCRIPTS[script]), voice, variant) == parse_line(line, voice, variant)


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("line, hands", [
    ("3 5 8", (None, [3, 5, 8])),
    ("3,5,8", (None, [3, 5, 8])),
    ("7: 3 5 8", (7, [3, 5, 8])),
    ("10:", (10, [])),
])
def test_a_scorers_line_of_hands_is_the_same_hands_in_the_digits_of_any_script(line, hands, script):
    assert hands_line(line.translate(SCRIPTS[script])) == hands
    assert hands_line(line) == hands


def test_a_layouts_own_colon_and_commas_go_with_its_digits():
    # a full-width layout types its own punctuation with its digits, an Arabic one its comma
    assert hands_line("７：３，５，８") == (7, [3, 5, 8])
    assert hands_line("３、５") == (None, [3, 5])
    assert hands_line("٣، ٥، ٨") == (None, [3, 5, 8])


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_a_seat_typed_on_the_keypad_at_night_is_the_same_seat_in_any_script(script):
    class Live:
        loop = object()
        game = type("G", (), {"state": "night", "phase": lambda self: "night"})()
        taken: list[int] = []

        def open_night_step(self):
            return 1

        def submit_keypad(self, seat, step, strict):
            self.taken.append(seat)

    keypad = KeypadInput(Live())
    assert keypad.line("7".translate(SCRIPTS[script])) is True
    assert keypad.line("10".translate(SCRIPTS[script])) is True
    assert keypad.live.taken == [7, 10]


@pytest.mark.parametrize("line", ["³ 5", "3 ³", "7: ³", "5 ²"])
def test_a_superscript_is_no_line_of_hands(line):
    assert hands_line(line) is None


@pytest.mark.parametrize("line", ["vote ³ 5", "vote 5 ³", "nominate ³", "foul ³", "tap ³ 3"])
def test_a_superscript_in_a_typed_command_is_answered_as_no_seat_number(line):
    with pytest.raises(InputError) as exc:
        parse_line(line, load_voice("en"))
    assert "written with the digits 0-9" in str(exc.value)


def test_a_superscript_typed_at_the_keypad_gets_the_answer_it_always_got():
    live, printed = _console_game(["³ 5", "٣", "quit"])
    assert "'³ 5' is not a seat number: type the seat with the digits 0-9" in printed
    assert live.stopped


@pytest.mark.e2e
def test_a_swedish_scorer_on_a_full_width_layout_types_the_same_hands(tmp_path):
    """The Swedish day of tests/console/test_console_hands.py, its hands typed in full-width and
    Arabic-Indic digits: the same answers, the same taps in the journal."""
    journal = tmp_path / "kvall.jsonl"
    seen = bytearray()
    with play_on_a_terminal(tmp_path, SVERIGE + JOURNAL_ETC.format(journal=journal), columns=80) as (play, master):
        swedish_day_to_the_first_call(master, seen, "nominate ４ by ３", "nominate ٥ by ٦")
        typed(master, "³ ５")  # AltGr+3: no seat, and no hand of this call
        until(master, seen, "'³ ５' är inget platsnummer")
        typed(master, "３ ５ ６")
        until(master, seen, "händer för spelare 4: 3 (Vika), 5, 6")
        until(master, seen, "Spelare 4: 3 röster.")
        until(master, seen, "De som vill rösta på spelare 5 ska räcka upp sin hand. NU!")
        typed(master, "١، ٢")
        until(master, seen, "händer för spelare 5: 1, 2")
        until(master, seen, "Spelare 5: 2 röster.")
        until(master, seen, "Spelare 4 hängs.")
        typed(master, "quit")
        play.wait(timeout=30)
    events = journal_events(journal)
    day = events[events.index({"type": "nominate", "seat": 4, "by": 3}):]
    assert {"type": "nominate", "seat": 5, "by": 6} in day
    taps = [e for e in day if e["type"] == "tap"]
    assert taps == [{"type": "tap", "seat": 3, "target": 4}, {"type": "tap", "seat": 5, "target": 4},
                    {"type": "tap", "seat": 6, "target": 4}, {"type": "tap", "seat": 1, "target": 5},
                    {"type": "tap", "seat": 2, "target": 5}]
