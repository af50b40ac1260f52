"""Text from people at the edges (issue 10, items 6-8): whatever a player types, a config holds or
a transcript says is answered in plain words, printed literally, and never ends the game."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from narrator.companion import KeypadInput
from narrator.companion.testing import ManualClockSession, until
from narrator.config import ConfigError, Locator, load_config, parse_config
from narrator.console import ConsoleOutput, read_console
from narrator.flow.events import Tap
from narrator.inputs import InputError, Talk, parse_line
from narrator.language import load_voice, seat_number

ROOT = Path(__file__).resolve().parents[2]
EN = load_voice("en")
DE = load_voice("de")
BASE = 'variant = "classic"\nlanguage = "en"\n'


def narrator(*args: str, stdin: str | None = None, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "narrator.cli", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd or ROOT, timeout=timeout)


def problems(text: str) -> list[str]:
    with pytest.raises(ConfigError) as exc:
        parse_config(text, "club.toml")
    return [str(p) for p in exc.value.problems]


# ---------------------------------------------------------------- 6. digits of every script

@pytest.mark.parametrize("token, seat", [("3", 3), ("٣", 3), ("３", 3), ("۷", 7), ("10", 10), ("0007", 7)])
def test_decimal_digits_of_any_script_are_seat_numbers(token, seat):
    assert seat_number(token) == seat


@pytest.mark.parametrize("token", ["³", "½", "①", "", "-3", "+3", " 3", "3\x00", "1e3", "7" * 5, "9" * 4300, "Ⅲ"])
def test_anything_else_is_no_seat_number_and_never_raises(token):
    assert seat_number(token) is None


@pytest.mark.parametrize("line", [
    "tap ³ 4", "tap 3 ³", "foul ³", "leave ²", "deal ³=don", "deal ³+lover", "tap 1 " + "9" * 4300, "tap 1 " + "9" * 5000,
    "tap \x00 3", "tap 1 \x1b[31m", "\x00tap 1 2", "tap 1 [/]", "deal 1=@x", "deal 1=@role_don", "deal 1+@x",
])
def test_a_line_with_a_bad_number_is_refused_in_words(line):
    with pytest.raises(InputError) as exc:
        parse_line(line, EN)
    message = str(exc.value)
    assert "seat number" in message or "unknown input" in message or "no role" in message or "no second-deal flag" in message
    assert len(message) < 200, "a long line is quoted cut short"


def test_a_superscript_in_a_spoken_nomination_is_not_accepted():
    with pytest.raises(InputError) as exc:
        parse_line("say I'm submitting player number ³", EN)
    assert exc.value.line == "not_understood"
    with pytest.raises(InputError):
        parse_line("say I'm submitting player number " + "7" * 4300, EN)
    with pytest.raises(InputError):
        parse_line("say ich nominiere Spieler ³", DE)


def test_byte_order_mark_tabs_and_other_scripts_digits_are_read():
    assert parse_line("\ufefftap 3 7", EN) == Tap(3, 7)
    assert parse_line("tap\t3\u00a07", EN) == Tap(3, 7)
    assert parse_line("tap ٣ ٧", EN) == Tap(3, 7)
    assert isinstance(parse_line("say " + "a" * 10_000, EN), Talk)


def test_a_german_superscript_at_night_leaves_the_keypad_alone():
    class Live:
        loop = object()  # never used: ³ is no seat
        game = type("G", (), {"state": "night", "phase": lambda self: "night"})()

    keypad = KeypadInput(Live())
    assert keypad.line("³") is False
    assert keypad.line("9" * 5000) is False
    assert keypad.key("³") is False


def _console_game(lines: list[str], cfg_text: str = BASE + '[dealing]\nseed = 3\n[players]\n2 = "Bob[/]"\n'):
    """A live game whose console reads `lines` through the real console thread; returns what it printed."""
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False)
    cfg = parse_config(cfg_text)

    async def main():
        live = ManualClockSession(cfg, None)
        live.outputs = [ConsoleOutput(live, console, clear_at_dawn=False)]
        first = live.start_effects()
        task = asyncio.create_task(live.run(first, [live.session.dealing_event()]))
        await until(lambda: live.loop is not None)
        await until(lambda: live.game.state == "night")
        thread = read_console(live, io.StringIO("".join(line + "\n" for line in lines)), console, KeypadInput(live))
        await asyncio.wait_for(task, 10)
        thread.join(5)
        return live

    live = asyncio.run(main())
    return live, out.getvalue()


def test_typing_a_superscript_three_at_night_is_answered_and_the_console_lives_on():
    live, printed = _console_game(["³", "٣", "9" * 4300, "\ufeffstatus", "x" * 10_000, "\x00\x07", "tap ³ 3", "# a note",
                                   "timeout", "status", "quit"])
    assert "'³' is not a seat number: type the seat with the digits 0-9" in printed
    # 4,300 nines are digits all right: there is just no such seat (it was "not a seat number")
    assert "there is no seat '" in printed and "the seats are 1 to 10" in printed
    assert "tap seat must be a seat number" in printed
    assert "(10000 characters)" in printed and "x" * 100 not in printed
    assert "a comment (after #)" in printed
    assert printed.count("state: Night") == 2, "status answered after every bad line"
    assert live.stopped, "quit still works"


def test_names_with_brackets_are_printed_literally_and_the_speech_timer_starts():
    cfg = BASE + '[dealing]\nseed = 3\n[timers]\nspeech = 600\n[players]\n1 = "Anna [guest]"\n2 = "Bob[/]"\n3 = "[bold]Eve"\n'
    live, printed = _console_game(["timeout"] * 6 + ["status", "quit"], cfg)
    assert "(Anna [guest])" in printed and "(Bob[/])" in printed and "([bold]Eve)" in printed
    assert "alive: 1 (Anna [guest]), 2 (Bob[/]), 3 ([bold]Eve" in printed
    assert live.game.state == "speeches" and live._timer_name == "speech"


@pytest.mark.e2e
def test_a_real_console_game_answers_every_bad_line(tmp_path):
    """`narrator play` itself, typed at as a German table would (stdin piped: no hot-seat reveal)."""
    cfg = tmp_path / "club.toml"
    cfg.write_text('variant = "classic"\nlanguage = "de"\n[dealing]\nseed = 5\n[input]\nengine = "none"\n'
                   '[players]\n1 = "Anna [Gast]"\n2 = "Bob[/]"\n', encoding="utf-8")
    typed = ["³", "tap ³ 4", "ich nominiere Spieler ³", "x" * 10_000, "\x1b[31m", "\ufeffstatus"] + ["timeout"] * 6 + ["status", "quit"]
    r = narrator("play", "--config", str(cfg), "--journal", str(tmp_path / "j.jsonl"), stdin="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    # the console answers in the table's language, and a path stays whole to be copied
    assert "'³' ist keine Platznummer" in r.stdout
    assert "(Anna [Gast])" in r.stdout and "(Bob[/])" in r.stdout
    assert "Phase: Tag: Reden · Tag 1 · im Spiel: 1 (Anna [Gast]), 2 (Bob[/])" in r.stdout
    assert f"Spiel angehalten; weiter mit: narrator resume --journal {tmp_path / 'j.jsonl'}" in r.stdout


# ---------------------------------------------------------------- 7. text is printed literally

def test_the_console_prints_narration_and_names_literally():
    out = io.StringIO()
    from types import SimpleNamespace

    from narrator.language import load_voice

    live = SimpleNamespace(config=parse_config(BASE + '[players]\n2 = "Bob[/]"\n'), session=SimpleNamespace(voice=load_voice("en")))
    c = ConsoleOutput(live, Console(file=out, width=200), clear_at_dawn=False)
    from narrator.flow.effects import Reject, Say

    c.handle(Say("x", {"seat": 2}), "Player 2 [speaks]")  # a line the voice does not have: as it came
    c.handle(Say("last_words_turn", {"seat": 2}), "Player 2, your last words.")
    c.handle(Reject("bad_input", {}), "Not understood: '[/]'.")
    assert out.getvalue().splitlines() == ["» Player 2 [speaks]", "» Player 2 (Bob[/]), your last words.", "✗ Not understood: '[/]'."]


@pytest.mark.e2e
def test_check_config_quotes_markup_in_a_config_literally(tmp_path):
    f = tmp_path / "club.toml"
    f.write_text('variant = "[/]"\nlanguage = "[bold]"\nplayers = 3\n', encoding="utf-8")
    r = narrator("check-config", str(f))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "unknown variant '[/]'" in r.stderr
    assert "unknown language '[bold]'" in r.stderr
    assert "players: must be a table ([players])" in r.stderr


@pytest.mark.e2e
def test_a_markup_name_passes_check_config_and_replays(tmp_path):
    f = tmp_path / "club.toml"
    f.write_text(BASE + '[players]\n2 = "Bob[/]"\n1 = "Anna [guest]"\n', encoding="utf-8")
    assert narrator("check-config", str(f)).returncode == 0
    transcript = (ROOT / "tests/transcripts/classic_en_town_wins.txt").read_text(encoding="utf-8")
    t = tmp_path / "game.txt"
    t.write_text(transcript, encoding="utf-8")
    r = narrator("replay", str(t), "--config", str(f), "--protocol", str(tmp_path / "p.jsonl"))
    assert r.returncode == 0, r.stderr


@pytest.mark.e2e
def test_markup_in_a_transcript_is_quoted_literally(tmp_path):
    t = tmp_path / "game.txt"
    t.write_text("\ufeffdeal 1=don 2=mafia 3=mafia 4=sheriff\ntap [/] 3\ntap 1 [bold]x\nsay [red]hello[/]\n"
                 "say I'm submitting player number ³\ntap 1 " + "9" * 4300 + "\n", encoding="utf-8")
    r = narrator("replay", str(t), "--protocol", str(tmp_path / "p.jsonl"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "game.txt:2: tap seat must be a seat number, not '[/]'" in r.stderr
    assert "game.txt:3: tap target must be a seat number, not '[bold]x'" in r.stderr
    assert "no command in '[red]hello[/]'" in r.stderr
    assert "game.txt:5: not a valid sentence for a command: \"I'm submitting player number ³\"" in r.stderr
    assert "game.txt:6: tap target must be a seat number (written with the digits 0-9" in r.stderr


# ---------------------------------------------------------------- 8. configs

@pytest.mark.parametrize("text, expected", [
    (BASE + '[players]\n"²" = "A"\n', "club.toml:4: players.²: a seat number from 1 to 10"),
    (BASE + '[dealing]\nroles = {"²" = "don"}\n', "club.toml:4: dealing.roles.²: a seat number"),
    (BASE + '[dealing]\nroles = {1 = 7}\n', "club.toml:4: dealing.roles.1: a role name"),
    ('variant = ["classic"]\nlanguage = "en"\n', "club.toml:1: variant: unknown variant ['classic']"),
    ('language = "en"\n[variant]\nx = 1\n', "club.toml:2: variant: unknown variant {'x': 1}"),
    ('variant = "classic"\nlanguage = 5\n', "club.toml:2: language: unknown language 5"),
    (BASE + '[voice]\nvolume = nan\n', "club.toml:4: voice.volume: must be a number from 0 to 1, not nan"),
    (BASE + '[voice]\nvolume = inf\n', "club.toml:4: voice.volume: must be a number from 0 to 1, not inf"),
    (BASE + '[voice]\nvolume = -inf\n', "club.toml:4: voice.volume: must be a number from 0 to 1, not -inf"),
    (BASE + '[voice.de]\nvolume = nan\n', "club.toml:4: voice.de.volume: must be a number from 0 to 1, not nan"),
    (BASE + '[voice]\nrate = 100000000000000000\n', "club.toml:4: voice.rate: must be at most 450, not 100000000000000000"),
    (BASE + '[companion]\nport = 0\n', "club.toml:4: companion.port: must be at least 1, not 0"),
    (BASE + '[roles]\nmafia = 1000000\n', "club.toml:4: roles.mafia: a count of players (0 to 10), not 1000000"),
    (BASE + '[players]\n1 = "A\\u001b[2J"\n', "club.toml:4: players.1: a player's name is printable text"),
    (BASE + '[players]\n1 = "' + "A" * 41 + '"\n', "club.toml:4: players.1: a player's name is printable text"),
    (BASE + '[players]\n1 = "A"\n01 = "B"\n', "club.toml:5: players.01: seat 1 is named twice"),
    (BASE + '[dealing]\nroles = {1 = "don", "01" = "sheriff"}\n', "club.toml:4: dealing.roles.01: seat 1 is dealt twice"),
    (BASE + 'x = ' + "[" * 3000 + "]" * 3000 + "\n", "club.toml:3: (syntax): arrays or tables nested too deeply"),
])
def test_a_bad_config_is_an_error_naming_line_and_key(text, expected):
    got = problems(text)
    assert any(p.startswith(expected) for p in got), got


@pytest.mark.parametrize("text, line", [
    (BASE + '[roles]\nmafia = 6\n', "club.toml:4: roles.mafia: 7 on the mafia's side (1 don, 6 mafia) at 10 seats"),
    ('variant = "grundregeln"\nlanguage = "de"\nseats = 5\n[roles]\nmafia = 4\n',
     "club.toml:5: roles.mafia: 4 on the mafia's side (4 mafia) at 5 seats"),
    ('variant = "sverige"\nlanguage = "sv"\nseats = 6\n[roles]\nmafia = 3\n', "club.toml:5: roles.mafia: 3 on the mafia's side"),
    ('variant = "hungariq"\nlanguage = "hu"\nseats = 6\n[roles]\nmafia = 2\n', "club.toml:5: roles.mafia: 3 on the mafia's side"),
])
def test_a_deal_decided_before_the_game_starts_is_refused(text, line):
    got = problems(text)
    assert any(p.startswith(line) and "decided before it starts" in p for p in got), got


def test_the_largest_undecided_mafia_is_accepted():
    assert parse_config(BASE + '[roles]\nmafia = 3\n').roles == {"don": 1, "mafia": 3, "sheriff": 1}
    parse_config('variant = "grundregeln"\nlanguage = "de"\nseats = 5\n[roles]\nmafia = 2\n')


@pytest.mark.e2e
def test_config_files_that_cannot_be_read_are_named(tmp_path):
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'variant = "classic"\nlanguage = "de"\n[players]\n1 = "J\xfcrgen"\n')
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + BASE.encode())
    assert load_config(bom).variant.name == "classic"
    # the Latin-1 file names its language at the top: the command answers in it (German)
    cases = {latin: (f"{latin}:4: (file): not UTF-8 text", f"{latin}:4: (Datei): kein UTF-8-Text"),
             tmp_path: (f"{tmp_path}:0: (file): a directory",) * 2,
             tmp_path / "none.toml": (f"{tmp_path / 'none.toml'}:0: (file): no such file",) * 2}
    for path, (expected, printed) in cases.items():
        with pytest.raises(ConfigError) as exc:
            load_config(path)
        assert str(exc.value).startswith(expected)
        r = narrator("check-config", str(path))
        assert r.returncode == 1 and "Traceback" not in r.stderr and printed in r.stderr


@pytest.mark.e2e
def test_deep_nesting_through_the_command(tmp_path):
    f = tmp_path / "deep.toml"
    f.write_text(BASE + "x = " + "[" * 5000 + "]" * 5000 + "\ny = {a = " * 1 + "1}\n", encoding="utf-8")
    r = narrator("check-config", str(f))
    assert r.returncode == 1 and "Traceback" not in r.stderr and "nested too deeply" in r.stderr


def test_problem_lines_are_found_in_one_pass_over_the_file(monkeypatch):
    """6,000 bad keys took 37 s when each problem searched the whole file for its line."""
    built = []
    original = Locator.__init__

    def counting(self, text):
        built.append(1)
        original(self, text)

    monkeypatch.setattr(Locator, "__init__", counting)
    text = BASE + "[rules]\n" + "".join(f"bad_{i} = {i}\n" for i in range(6000))
    got = problems(text)
    assert len(got) == 6000 and got[-1].startswith("club.toml:6003: rules.bad_5999: unknown key")
    assert len(built) == 1


def test_lines_are_counted_as_toml_counts_them():
    # a form feed or a line separator inside a string is no new line for TOML
    assert problems(BASE + 'name = "a\u2028b"\n[timers]\nspeech = 0\n')[-1].startswith("club.toml:5: timers.speech")


def test_the_end_of_input_during_the_role_reveal_stops_it_without_showing_the_next_role():
    from narrator.console import reveal_roles

    out = io.StringIO()
    # seat 1 types a word (not taken), then Enter, Enter; seat 2 Enter, and a long line hides it
    answers = iter(["³ [/]", "", "", "", "x" * 10_000])

    def ask(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    with pytest.raises(KeyboardInterrupt):
        reveal_roles({1: "citizen", 2: "don", 3: "sheriff"}, EN, Console(file=out, width=100), ask=ask)
    shown_roles = out.getvalue()
    assert "citizen" in shown_roles.lower() and "don" in shown_roles.lower()
    assert "sheriff" not in shown_roles.lower()
    assert "³ [/]" in shown_roles  # the word answered, literally


def test_a_line_reference_that_does_not_exist_is_narrated_as_written():
    # "@name" in an argument is another line of the voice file; a player's text is never one
    assert EN.render("reject_unknown_role", {"role": "@x"}) == "There is no role @x in this game."


def test_the_hot_seat_prompt_breaks_between_words_at_80_columns():
    """At an 80-column terminal input()'s own prompt was cut in the middle of a word («… um deine
    Rolle zu seh» / «en.»); printed by the console it breaks between words."""
    from narrator.console import reveal_roles
    from narrator.language import load_voice

    out = io.StringIO()
    reveal_roles({1: "citizen"}, load_voice("de"), Console(file=out, width=80), ask=lambda prompt: "")
    text = out.getvalue()
    assert "seh\nen" not in text and "Rolle zu \nsehen." in text, text


def test_a_line_naming_several_seats_names_their_players_too():
    """«Spieler 4 ist heute Nacht gestorben.» (seats=[4]) was printed without the name the next line
    then carried; a line naming seats names their players, each after its number, as the phones do."""
    from narrator.console import ConsoleOutput
    from narrator.flow.effects import Say
    from narrator.language import load_voice
    from types import SimpleNamespace

    out = io.StringIO()
    voice = load_voice("de")
    live = SimpleNamespace(config=SimpleNamespace(players={4: "Dieter", 2: "Bernd", 5: "Eva [b]"}),
                           session=SimpleNamespace(voice=voice))
    screen = ConsoleOutput(live, Console(file=out, width=100), clear_at_dawn=False)
    for line, args in (("morning_deaths", {"seats": [4], "n": 1}), ("morning_deaths", {"seats": [2, 5], "n": 2})):
        screen.handle(Say(line, args), voice.render(line, args))
    shown = out.getvalue()
    assert "4 (Dieter)" in shown and "2 (Bernd)" in shown and "5 (Eva [b])" in shown, shown
    assert ". (" not in shown, shown  # never again after the whole sentence
