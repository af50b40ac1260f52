"""The console and the keypad as a club table reads them, on an 80- and a 60-column terminal.

- At a keypad night nobody talks: a line without a seat is told what the keypad takes ("'привет'
  — не номер места: ночью наберите номер места и Enter"), never "taken as table talk", in the same
  words at every step whoever is awake (seed 004 §3: nobody learns a role but by the night's own
  checks).
- `status` at a keypad night says only what is true: the step runs its full time, a typed
  `timeout` is refused there — not "(taps, or timeout)".
- A club's scorer types English whatever the table speaks: `nominate 3`, `withdraw 3`, `vote 5 3`
  and the English sentences ("I nominate player 5", "thank you") are taken at a Russian table as
  its own words are; an input the rules do not have is answered in the table's language.
- The journal's line reads whole at 80 and at 60 columns: its path from ~, never cut by the
  terminal in the middle of a word, and a path longer than the line stands whole on a line of its
  own, to be copied.
"""

from __future__ import annotations

import io
import re

import pytest

from test_console_hotseat import ERASE_SCROLLBACK, play_on_a_terminal, reach_the_keypad, read_until
from test_console_table_reads import plain, type_line

from rich.text import Text

from narrator.config import parse_config
from narrator.console import WholeWords, help_text, waiting_text
from narrator.language import load_voice
from narrator.session import Session

RU = load_voice("ru", "classic")
DE = load_voice("de", "grundregeln")
NIGHT_STEP = 10
# a journal in a club's folder whose path is longer than any terminal line
LONG_FOLDER = "клуб-мафия/" + "сезон-2026-осень-вторник-вечер/" * 3


def ru_config(journal) -> str:
    return ('variant = "classic"\nlanguage = "ru"\n[dealing]\nmode = "fixed"\n'
            'roles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
            f'[timers]\nnight_zero_step = 3\nmafia_meeting = 5\nnight_step = {NIGHT_STEP}\nspeech = 300\n'
            f'[input]\nengine = "none"\n[journal]\npath = "{journal}"\n[players]\n3 = "Вика"\n')


def lines_since(seen: bytearray, start: int) -> list[str]:
    return plain(seen[start:]).split("\n")


def said(voice, line: str, **args) -> bytes:
    return voice.render(line, args).encode()


@pytest.mark.e2e
def test_a_russian_table_takes_the_scorers_english_and_its_keypad_night_says_what_it_takes(tmp_path):
    journal = tmp_path / LONG_FOLDER / "вечер.jsonl"
    journal.parent.mkdir(parents=True)
    shown_path = "~/" + str(journal.relative_to(tmp_path))  # HOME is tmp_path
    seen = bytearray()
    with play_on_a_terminal(tmp_path, ru_config(journal), columns=80) as (play, master):
        tail = lambda: plain(seen[-2000:])  # noqa: E731
        assert read_until(master, said(RU, "speech_turn", seat=1, time=300).split(b",")[0], seen, timeout=60), tail()

        # the journal's line: its path whole on a line of its own (longer than the line, the
        # terminal wraps it and it copies whole), the words around it broken between words
        screen = lines_since(seen, 0)
        assert shown_path in screen, screen[:6]
        assert "журнал:" in screen and "· help — список команд" in screen, screen[:6]
        assert all(len(line) <= 80 for line in screen if shown_path not in line), screen

        # day 1, player 1's speech: the scorer types English at the Russian table
        type_line(master, "nominate 3")
        assert read_until(master, "3 (Вика) принято.".encode(), seen), tail()
        type_line(master, "withdraw 3")
        assert read_until(master, "3 (Вика) снято.".encode(), seen), tail()
        type_line(master, "I nominate player 5")
        assert read_until(master, said(RU, "nomination_accepted", seat=5), seen), tail()
        type_line(master, "vote 3")  # no voter: answered in the table's language, nothing taken
        assert read_until(master, RU.console_text("input_vote_two", {}).encode(), seen), tail()
        type_line(master, "thank you")
        assert read_until(master, "Игрок 2, у вас".encode(), seen), tail()
        time_up = "Время вышло.".encode()
        for n in range(1, 10):  # the host ends speeches 2 to 10
            type_line(master, "timeout")
            assert read_until(master, time_up, seen, times=n), tail()

        # the night: whoever is awake reads the same answers at every step
        mafia, don = said(RU, "mafia_wakes_shoot"), said(RU, "don_wakes_check")
        answers = []
        for step in (mafia, don):
            assert reach_the_keypad(master, seen, step, timeout=60), tail()
            start = len(seen)
            helped, waiting = seen.count("консоль: status".encode()), seen.count("ждём:".encode())
            for typed in ("привет", "say добрый вечер", "status", "help"):
                type_line(master, typed)
            # the help is printed at once, the status in the game's turn: both, in either order
            assert read_until(master, "консоль: status".encode(), seen, times=helped + 1), tail()
            assert read_until(master, "ждём:".encode(), seen, times=waiting + 1), tail()
            read_until(master, b"\0never", seen, timeout=0.5)  # the rest of the status's last line
            lines = [line for line in lines_since(seen, start) if line.strip()]
            # what was printed in answer: after the step's screen (cleared again after its first second)
            timers = [i for i, line in enumerate(lines) if line.startswith("⏱")]
            answers.append(lines[timers[-1] + 1:] if timers else lines)
        at_the_mafia, at_the_don = answers
        nothing = RU.console_text("keypad_night_seat", {"text": "'привет'"})
        assert "· " + nothing in at_the_mafia, at_the_mafia
        assert "· " + RU.console_text("keypad_night_seat", {"text": "'say добрый вечер'"}) not in at_the_mafia
        assert not [line for line in at_the_mafia + at_the_don if "разговор за столом" in line]
        # the status names the step the table heard, and no timeout: the step runs its full time
        waiting = [line for line in at_the_mafia if line.startswith("ждём:")]
        assert waiting == ["ждём: " + RU.console_text("status_keypad_step", {"step": RU.render("step_mafia_shoots")})], at_the_mafia
        assert "timeout)" not in " ".join(at_the_mafia + at_the_don)
        assert RU.console_text("help_keypad", {}).split(";")[0] in " ".join(at_the_mafia), at_the_mafia
        # the same lines at the Don's step, but for the step's own name and the time left (the
        # status comes in the game's turn, the help at once: in either order)
        same = lambda lines: sorted(line for line in lines if not line.startswith(("ждём:", "выставлены:")))  # noqa: E731
        assert same(at_the_mafia) == same(at_the_don), (at_the_mafia, at_the_don)
        assert b"Traceback" not in seen, tail()
        type_line(master, "quit")
        play.wait(timeout=30)


@pytest.mark.e2e
def test_a_german_table_at_60_columns_reads_its_lines_whole_and_is_told_it_nominates_nobody(tmp_path):
    """grundregeln (seed 003): the mafia's night comes first, then everybody points."""
    journal = tmp_path / "abend.jsonl"
    config = ('variant = "grundregeln"\nlanguage = "de"\nseats = 6\n[dealing]\nmode = "fixed"\n'
              'roles = { 1 = "mafia", 2 = "mafia" }\n[timers]\ndiscussion = 600\nvote = 60\ndefence = 60\n'
              f'night_step = {NIGHT_STEP}\n[input]\nengine = "none"\n[journal]\npath = "{journal}"\n')
    seen = bytearray()
    with play_on_a_terminal(tmp_path, config, columns=60) as (play, master):
        tail = lambda: plain(seen[-2000:])  # noqa: E731
        assert reach_the_keypad(master, seen, b"Die Mafiosi erwachen"), tail()  # the line breaks at 60 columns
        screen = plain(seen[seen.rindex(ERASE_SCROLLBACK):])
        # the journal's line, from ~, fits 60 columns
        assert "Journal: ~/abend.jsonl · help zeigt die Eingaben\n" in screen, screen
        start = len(seen)
        type_line(master, "hallo")
        type_line(master, "status")
        assert read_until(master, "wartet auf:".encode(), seen), tail()
        assert read_until(master, "volle Zeit)".encode(), seen), tail()
        night = plain(seen[start:])
        assert DE.console_text("keypad_night_seat", {"text": "'hallo'"}) in re.sub(r"\s*\n", " ", night), night
        # every line broken between words: none is wider than the terminal
        assert all(len(line) <= 60 for line in night.split("\n")), night

        assert read_until(master, "Diskutiert".encode(), seen, timeout=NIGHT_STEP + 30), tail()
        start = len(seen)
        type_line(master, "nominate 3")  # the scorer's habit from a classic table
        answer = DE.console_text("not_in_these_rules", {"command": "nominate"})
        assert read_until(master, answer.split(" (")[0].encode(), seen), tail()
        type_line(master, "timeout")
        assert read_until(master, "Zeigt auf".encode(), seen), tail()
        type_line(master, "vote 1 3")  # the scorer's word for a pointing hand
        assert read_until(master, "Spieler 1 zeigt auf Spieler 3".encode(), seen), tail()
        assert b"Traceback" not in seen, tail()
        type_line(master, "quit")
        play.wait(timeout=30)
    assert "eigenen Rede" not in plain(seen[start:])  # never "nominate only during your own speech"


def table(lang: str, variant: str) -> Session:
    return Session(parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\n'))


def test_typed_english_sentences_are_taken_at_every_table_and_the_microphone_hears_the_tables_language_only():
    ru = table("ru", "classic")
    assert ru.parse("say I nominate player 3") == ru.parse("say я выставляю 3") == ru.parse("nominate 3")
    assert ru.parse("say thank you") == ru.parse("say спасибо")
    # the microphone's grammar is the table's: an English sentence heard there is talk
    assert type(ru.hear("I nominate player 3")).__name__ == "Talk"
    sv = table("sv", "sverige")
    # seed 000: whoever nominates is named — "by 5" in the typed word, as in the sentence
    assert sv.parse("nominate 3 by 5") == sv.parse("say player 5 nominates player 3") == sv.parse("say spelare 5 nominerar spelare 3")
    assert sv.parse("withdraw 3 by 5") == sv.parse("say spelare 5 avnominerar spelare 3")
    hu = table("hu", "hungariq")
    assert hu.parse("accuse 4 by 2") == hu.parse("say player 2 accuses player 4")
    # "I nominate" is no sentence of hungariq's (it accuses, seed 001): talk, not a guess
    assert type(hu.parse("say I nominate player 3")).__name__ == "Talk"
    assert ru.parse("vote 5 3") == ru.parse("tap 5 3") and ru.parse("vote 5 да") == ru.parse("tap 5 yes")


class _Live:
    def __init__(self, lang: str, variant: str):
        self.session = table(lang, variant)
        self.game = self.session.game
        self.config = self.session.config


def test_help_lists_the_inputs_these_rules_take_in_the_tables_language():
    classic = help_text(_Live("ru", "classic"), keypad=True)
    assert "nominate <место> · withdraw <место>" in classic and "foul <место>" in classic
    assert "accuse" not in classic and "extend" not in classic and "start" not in classic
    assert load_voice("ru").console_text("help_keypad", {}) in classic
    sverige = help_text(_Live("sv", "sverige"), phones=True)
    assert "nominate <plats> by <plats> · withdraw <plats> by <plats>" in sverige and "extend" in sverige
    assert "foul" not in sverige and load_voice("sv").console_text("help_phones", {}) in sverige
    hungariq = help_text(_Live("hu", "hungariq"))
    assert "accuse <hely> [by <hely>]" in hungariq and "nominate" not in hungariq and "withdraw" not in hungariq
    grundregeln = help_text(_Live("de", "grundregeln"))
    assert "nominate" not in grundregeln and "accuse" not in grundregeln and "vote <Wähler>" in grundregeln


def printed(width: int, text: str) -> list[str]:
    out = io.StringIO()
    WholeWords(file=out, width=width, force_terminal=True, color_system=None, highlight=False).print(Text(text), soft_wrap=True)
    return out.getvalue().split("\n")[:-1]


def test_a_line_breaks_between_words_keeps_its_parts_whole_and_a_long_path_alone_and_whole():
    line = "журнал: ~/.local/state/narrator/games/2026-11-24_20-56-51.jsonl · help — список команд"
    # "· he" / "lp — список команд" was the terminal's cut
    assert printed(80, line) == ["журнал: ~/.local/state/narrator/games/2026-11-24_20-56-51.jsonl",
                                 "· help — список команд"]
    assert printed(60, line) == ["журнал:", "~/.local/state/narrator/games/2026-11-24_20-56-51.jsonl",
                                 "· help — список команд"]
    assert printed(100, line) == [line]
    path = "/home/anna/" + "a-very-long-folder-name-for-the-club/" * 3 + "game.jsonl"
    stopped = f"game stopped; continue it with: narrator resume --journal {path}"
    assert printed(80, stopped) == ["game stopped; continue it with: narrator resume --journal", path]


def test_status_at_a_keypad_night_names_the_step_and_its_full_time_in_every_language():
    """What `status` (and a resume's "waiting for") says at a keypad table's night: the step the
    table heard, a seat and Enter on the keypad, its full time — never "or timeout", refused there."""
    from conftest import Table

    for lang in ("en", "ru", "de", "sv", "hu"):
        t = Table(lang=lang, fixed_night_steps=True)  # night zero runs its steps, as live
        live = _Live(lang, "classic")
        live.session, live.game = t.session, t.game
        voice = t.session.voice
        assert waiting_text(live, keypad_table=True) == voice.console_text("status_keypad_wait", {})
        for _ in range(40):  # night zero's steps, then day 1's speeches, to the mafia's shot
            if t.game.state == "night" and t.game.step is not None and t.game.step.action:
                break
            t.do("timeout")
        said = waiting_text(live, keypad_table=True)
        assert said == voice.console_text("status_keypad_step", {"step": voice.render("step_mafia_shoots", inside=True)})
        assert "timeout" not in said
        # with phones (or a script's piped lines) a typed timeout does end the step: said as ever
        assert waiting_text(live, keypad_table=False) == t.session.awaiting_text()


def test_a_day_sentence_these_rules_do_not_have_is_answered_as_such_not_as_table_talk():
    """Hungariq accuses (seed 001), grundregeln points (seed 003): "I nominate player 3" or «ich
    nominiere Spieler 3» there is no talk, and is not guessed into another input either."""
    from rich.console import Console

    from narrator.console import console_line

    def answer(lang: str, variant: str, typed: str) -> str:
        live = _Live(lang, variant)
        out = io.StringIO()
        console_line(live, typed, Console(file=out, width=200))
        return out.getvalue().strip()

    hu = load_voice("hu", "hungariq")
    assert answer("hu", "hungariq", "I nominate player 3") == "· " + hu.console_text("not_in_these_rules", {"command": "nominate"})
    assert answer("de", "grundregeln", "ich nominiere Spieler 3") == "· " + DE.console_text("not_in_these_rules", {"command": "nominate"})
    assert answer("de", "grundregeln", "nominate 3") == "· " + DE.console_text("not_in_these_rules", {"command": "nominate"})
    assert answer("hu", "hungariq", "withdraw 3") == "· " + hu.console_text("not_in_these_rules", {"command": "withdraw"})
    assert answer("hu", "hungariq", "szia") == "· " + hu.console_text("table_talk", {"text": "'szia'"})
