"""The journal at its edges: one process per game, no game overwritten by a new one, damaged
files named by line with a way on, the deal kept from a crash in the reveal, and a private answer
told again after a resume — to its seat only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator import journal as journals
from narrator.config import parse_config
from narrator.journal import DamagedJournal, Journal, read
from narrator.language import load_voice
from narrator.live import LiveSession
from test_journal_resume import CONFIG, typed_lines, wait_for_events

ROOT = Path(__file__).resolve().parents[2]


def narrator(args: list[str], home: Path, stdin: str = "quit\n", timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "COLUMNS": "2000", "XDG_STATE_HOME": ""}
    env.pop("XDG_STATE_HOME")
    return subprocess.run([sys.executable, "-m", "narrator.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)


def popen(args: list[str], home: Path) -> subprocess.Popen:
    env = {**os.environ, "HOME": str(home), "COLUMNS": "2000", "PYTHONUNBUFFERED": "1"}
    env.pop("XDG_STATE_HOME", None)
    return subprocess.Popen([sys.executable, "-m", "narrator.cli", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)


@pytest.fixture
def club(tmp_path) -> Path:
    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG)
    return cfg


def a_game(path: Path, inputs: int = 6) -> Path:
    """A journal of an unfinished game: the deal and the first typed inputs."""
    cfg = parse_config(CONFIG, "club.toml")
    live = LiveSession(cfg, None)
    live.start_effects()
    j = Journal.create(path, "club.toml", CONFIG, {})
    j.append(live.session.dealing_event())
    for line in typed_lines()[:inputs]:
        j.append(live.session.parse(line))
    j.close()
    return path


# ---------------------------------------------------------------------- one process per journal
@pytest.mark.e2e
def test_a_second_play_or_resume_on_a_game_in_play_is_refused_naming_the_other_process(club, tmp_path):
    journal = tmp_path / "game.jsonl"
    first = popen(["play", "--config", str(club), "--journal", str(journal), "--no-reveal"], tmp_path)
    try:
        first.stdin.write("timeout\n")
        first.stdin.flush()
        wait_for_events(journal, 2)
        before = journal.read_bytes()
        for args in (["play", "--config", str(club), "--journal", str(journal), "--no-reveal"],
                     ["resume", "--journal", str(journal)]):
            r = narrator(args, tmp_path)
            assert r.returncode != 0
            assert f"being played in another window (process {first.pid})" in r.stderr
            assert "Traceback" not in r.stderr
        assert journal.read_bytes() == before          # no hole, no second writer
    finally:
        first.communicate("quit\n", timeout=30)
    assert len(read(journal).events) == 2


@pytest.mark.e2e
def test_play_never_overwrites_an_unfinished_game(club, tmp_path):
    journal = a_game(tmp_path / "game.jsonl")
    before = journal.read_bytes()
    r = narrator(["play", "--config", str(club), "--journal", str(journal), "--no-reveal"], tmp_path)
    assert r.returncode == 1
    assert "holds an unfinished game" in r.stderr and f"narrator resume --journal {journal}" in r.stderr
    assert journal.read_bytes() == before


@pytest.mark.e2e
def test_each_game_gets_its_own_file_and_resume_finds_the_latest_unfinished(club, tmp_path):
    r = narrator(["play", "--config", str(club), "--no-reveal"], tmp_path, "timeout\nquit\n")
    assert r.returncode == 0, r.stderr
    games = sorted((tmp_path / ".local/state/narrator/games").glob("*.jsonl"))
    assert len(games) == 1 and len(read(games[0]).events) == 2

    # `play` after a crash, instead of `resume`: it says so and changes nothing
    r = narrator(["play", "--config", str(club), "--no-reveal"], tmp_path, "quit\n")
    assert r.returncode == 1 and "holds an unfinished game" in r.stderr and "narrator play --new" in r.stderr
    assert len(list(games[0].parent.glob("*.jsonl"))) == 1

    time.sleep(1.1)  # the files are named by the second
    r = narrator(["play", "--config", str(club), "--no-reveal", "--new"], tmp_path, "quit\n")
    assert r.returncode == 0, r.stderr
    both = sorted(games[0].parent.glob("*.jsonl"))
    assert len(both) == 2 and len(read(both[0]).events) == 2      # the first game is untouched
    os.utime(both[0])                                             # the first was played last

    r = narrator(["resume"], tmp_path, "status\nquit\n")
    assert r.returncode == 0, r.stderr
    assert f"resumed 2 events from {both[0]}" in r.stdout


def test_at_a_terminal_play_asks_and_a_new_game_keeps_the_unfinished_one(club, tmp_path, monkeypatch, capsys):
    from narrator import cli
    from narrator.commands import play

    journal = a_game(tmp_path / "game.jsonl")
    before = journal.read_bytes()
    (tmp_path / "game.jsonl.companion").write_text("{}")
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    asked = []
    monkeypatch.setattr("builtins.input", lambda q: asked.append(q) or "n")
    args = cli.build_parser().parse_args(["play", "--journal", str(journal)])
    held = play._take_explicit(journal, args)
    assert isinstance(held, journals.Lock)
    held.release()
    # the question is printed by the console (broken between words), and answered on its line
    assert "[r]esume" in capsys.readouterr().err and asked == [""]
    aside = tmp_path / "game.unfinished-1.jsonl"
    assert aside.read_bytes() == before and (tmp_path / "game.unfinished-1.jsonl.companion").exists()

    journal = a_game(tmp_path / "game.jsonl")
    monkeypatch.setattr("builtins.input", lambda q: "r")
    assert play._take_explicit(journal, args) == "resume" and journal.exists()
    kept = journal.read_bytes()
    monkeypatch.setattr("builtins.input", lambda q: "q")
    assert play._take_explicit(journal, args) == 1 and journal.read_bytes() == kept


@pytest.mark.e2e
def test_resume_without_any_game_says_so(tmp_path):
    r = narrator(["resume"], tmp_path)
    assert r.returncode == 2 and "there is no game to resume" in r.stderr


# ---------------------------------------------------------------------- damaged journals
def damaged(tmp_path: Path, how: str) -> tuple[Path, int]:
    """A journal damaged one way; returns it and the line the damage is on."""
    path = a_game(tmp_path / "game.jsonl")
    lines = path.read_text().split("\n")[:-1]
    if how == "last line damaged":
        lines[-1] = lines[-1][:-5] + "#####"
        at = len(lines)
    elif how == "unknown event type":
        lines[3] = lines[3].replace('"type": "', '"type": "teleport')
        at = 4
    elif how == "extra field":
        lines[3] = lines[3].replace('"event": {', '"event": {"colour": "red", ')
        at = 4
    elif how == "extra key on the line":
        lines[3] = lines[3].replace('{"t"', '{"mood": 1, "t"')
        at = 4
    elif how == "bad line in the middle":
        lines[2] = "\x00\x00 garbage"
        at = 3
    elif how == "non-object header":
        lines[0] = "[1, 2]"
        at = 1
    elif how == "header without config_text":
        header = json.loads(lines[0])
        del header["config_text"]
        lines[0] = json.dumps(header)
        at = 1
    elif how == "bad JSON header":
        lines[0] = lines[0][:20]
        at = 1
    path.write_text("\n".join(lines) + "\n")
    return path, at


BODY = ["last line damaged", "unknown event type", "extra field", "extra key on the line", "bad line in the middle"]
HEADER = ["non-object header", "header without config_text", "bad JSON header"]


@pytest.mark.e2e
@pytest.mark.parametrize("how", BODY)
def test_a_damaged_journal_names_file_and_line_and_resumes_up_to_the_last_good_event_with_repair(how, tmp_path):
    path, at = damaged(tmp_path, how)
    original = path.read_bytes()
    r = narrator(["resume", "--journal", str(path)], tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{path}:{at}:" in r.stderr and "--repair" in r.stderr
    assert path.read_bytes() == original                  # nothing changed without asking

    r = narrator(["resume", "--journal", str(path), "--repair"], tmp_path, "status\nquit\n")
    assert r.returncode == 0, r.stderr
    assert f"resumed {at - 2} event{'' if at - 2 == 1 else 's'} from" in r.stdout
    assert Path(f"{path}.damaged-1").read_bytes() == original
    contents = read(path)                                 # the next resume takes it as it is
    assert len(contents.events) == at - 2 and not contents.torn


@pytest.mark.e2e
@pytest.mark.parametrize("how", HEADER)
def test_a_journal_with_a_damaged_header_is_named_and_never_a_traceback(how, tmp_path):
    path, _ = damaged(tmp_path, how)
    r = narrator(["resume", "--journal", str(path), "--repair"], tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{path}:1:" in r.stderr and "no game in this file to resume" in r.stderr


@pytest.mark.e2e
def test_a_torn_last_line_without_newline_is_cut_without_asking(tmp_path):
    path = a_game(tmp_path / "game.jsonl")
    with open(path, "a") as f:
        f.write('{"t": 1, "event": {"type": "ti')
    r = narrator(["resume", "--journal", str(path)], tmp_path, "status\nquit\n")
    assert r.returncode == 0, r.stderr
    assert not read(path).torn


def test_an_event_from_another_game_is_damage_at_its_line(tmp_path):
    path = a_game(tmp_path / "game.jsonl")
    with open(path, "a") as f:
        f.write(json.dumps({"t": 1, "event": {"type": "deal", "roles": {"x1": "don"}}}) + "\n")
    with pytest.raises(DamagedJournal) as exc:
        read(path)
    assert exc.value.line == 9 and "not a seat number" in exc.value.what


# ---------------------------------------------------------------------- the deal and private lines
def test_the_deal_is_journaled_before_anybody_sees_a_role_and_the_reveal_goes_on_after_a_crash(tmp_path, monkeypatch):
    """A crash in the hot-seat reveal: the same deal on resume, from the next seat to look."""
    from narrator.commands.live_game import reveal_deal

    text = CONFIG.replace('roles = { 1 = "sheriff", 2 = "don", 3 = "mafia", 4 = "mafia" }', 'mode = "random"')
    cfg = parse_config(text, "club.toml")
    path = tmp_path / "game.jsonl"
    live = LiveSession(cfg, None)
    live.start_effects()
    deal = live.session.dealing_event(__import__("random").Random(5))
    j = Journal.create(path, "club.toml", text, {"reveal": True})
    j.append(deal)

    import io

    from rich.console import Console

    screen = io.StringIO()  # the prompts are printed by the console, which wraps them between words

    def crash_at_seat_4(q):
        if "Seat 4: take the screen alone" in screen.getvalue():  # the prompt is on the screen: seat 4 is to look now
            raise SystemExit("power cut")
        return ""

    monkeypatch.setattr("builtins.input", crash_at_seat_4)
    with pytest.raises(SystemExit):
        reveal_deal(cfg, deal, live, Console(file=screen, width=200), j, [])
    contents = read(path)
    assert contents.events == [deal] and contents.revealed == [1, 2, 3]

    screen = io.StringIO()
    monkeypatch.setattr("builtins.input", lambda q: "")
    reveal_deal(cfg, deal, live, Console(file=screen, width=200), Journal.reopen(path), contents.revealed)
    asked = __import__("re").findall(r"Seat (\d+): take the screen alone", screen.getvalue())
    assert asked == [str(seat) for seat in range(4, cfg.seats + 1)], asked
    assert read(path).revealed == list(range(1, cfg.seats + 1))


@pytest.mark.e2e
def test_a_check_answer_lost_in_a_crash_is_told_again_to_the_checker_only(club, tmp_path):
    """Killed right after the Sheriff's tap was journaled: the resumed game tells him his check
    again while his step still runs, tells it nobody else, and does not wait for a new check."""
    journal = tmp_path / "game.jsonl"
    lines = typed_lines()
    tap = lines.index("tap 1 4")                       # the Sheriff checks seat 4 on the first night
    play = popen(["play", "--config", str(club), "--journal", str(journal), "--no-reveal"], tmp_path)
    play.stdin.write("\n".join(lines[: tap + 1]) + "\n")
    play.stdin.flush()
    wait_for_events(journal, tap + 2)
    play.kill()
    play.wait(timeout=10)

    r = narrator(["resume", "--journal", str(journal)], tmp_path, "\n".join(lines[tap + 1:]) + "\n")
    assert r.returncode == 0, r.stderr
    check = load_voice("en").render("check_mafia", {"seat": 4})
    private = [l for l in r.stdout.splitlines() if "only for seat" in l]
    # his answer once, at the resume; the later lines are the next night's, each to its own seat
    assert private[0] == f"🔒 only for seat 1: {check}"
    assert check not in "\n".join(private[1:]) and "game over: The town wins." in r.stdout


def test_after_a_resume_a_phone_gets_back_its_own_private_line_of_the_night_and_no_other():
    from narrator.companion.hub import Hub

    cfg = parse_config(CONFIG, "club.toml")
    probe = LiveSession(cfg, None)
    probe.start_effects()
    events = [probe.session.dealing_event()] + [probe.session.parse(l) for l in typed_lines()]
    events = events[: typed_lines().index("tap 1 4") + 2]
    resumed = LiveSession(cfg, None)
    resumed.start_effects(replayed=events)
    hub = Hub(cfg, resumed)
    voice = load_voice("en")
    assert hub.notes[1]["text"] == voice.render("check_mafia", {"seat": 4})
    assert hub.notes[2]["text"] == voice.render("check_sheriff", {"seat": 1})   # the Don's own check, earlier tonight
    assert set(hub.notes) == {1, 2, 4}                                         # the mafia's shot: the two who tapped


class Terminal:
    """`narrator` at a real terminal (a pty), read and typed at as a player would."""

    def __init__(self, args: list[str], home: Path):
        import pty

        self.master, slave = pty.openpty()
        env = {**os.environ, "HOME": str(home), "COLUMNS": "200", "TERM": "xterm"}
        env.pop("XDG_STATE_HOME", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "narrator.cli", *args], stdin=slave, stdout=slave, stderr=slave,
                                     cwd=ROOT, env=env, close_fds=True)
        os.close(slave)
        self.seen = ""

    def wait_for(self, text: str, timeout: float = 30) -> None:
        import select

        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never saw {text!r}; the screen had:\n{self.seen[-2000:]}")
            if select.select([self.master], [], [], min(left, 0.5))[0]:
                try:
                    self.seen += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    pass

    def type(self, line: str = "") -> None:
        os.write(self.master, (line + "\r").encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        os.close(self.master)


@pytest.mark.e2e
def test_at_a_terminal_a_crash_in_the_reveal_resumes_the_same_deal_from_the_next_seat(tmp_path):
    cfg = tmp_path / "club.toml"
    cfg.write_text('variant = "classic"\nlanguage = "en"\n[input]\nengine = "none"\n[voice]\noutput = "text"\n')
    journal = tmp_path / "game.jsonl"
    play = Terminal(["play", "--config", str(cfg), "--journal", str(journal)], tmp_path)
    try:
        for seat in (1, 2):
            play.wait_for(f"Seat {seat}: take the screen alone")
            play.type()
            play.wait_for("Press Enter to hide it")
            play.type()
        play.wait_for("Seat 3: take the screen alone")
        play.proc.kill()                                   # the power cut, while seat 3 waits to look
    finally:
        play.close()
    dealt = read(journal)
    assert len(dealt.events) == 1 and dealt.revealed == [1, 2]

    resume = Terminal(["resume", "--journal", str(journal)], tmp_path)
    try:
        resume.wait_for("The roles were dealt before the game stopped; seats 1, 2 have seen theirs.")
        for seat in range(3, 11):
            resume.wait_for(f"Seat {seat}: take the screen alone")
            resume.type()
            resume.wait_for("Press Enter to hide it")
            resume.type()
        resume.wait_for("Night falls")                     # the game starts as a new one would
        assert "Seat 1: take the screen" not in resume.seen and "Seat 2: take the screen" not in resume.seen
        resume.type("quit")
        resume.wait_for("game stopped")
    finally:
        resume.close()
    after = read(journal)
    assert after.events == dealt.events                    # the same deal, applied once
    assert after.revealed == list(range(1, 11))


# ---------------------------------------------------------------- a damaged journal, in the table's words
def table_journal(tmp_path: Path, lang: str) -> Path:
    """The journal of a classic game at a table that plays in `lang`: night zero over, player 1
    nominated 3 and spoke, player 2 speaks."""
    from narrator.flow.events import EndSpeech, Nominate, Timeout
    from narrator.session import Session

    text = CONFIG.replace('language = "en"', f'language = "{lang}"')
    j = Journal.create(tmp_path / "game.jsonl", "club.toml", text, {})
    session = Session(parse_config(text, "club.toml"))
    for ev in [session.dealing_event(), Timeout(), Timeout(), Timeout(), Nominate(3), EndSpeech(), Nominate(4)]:
        j.append(ev)
    j.close()
    return tmp_path / "game.jsonl"


def damage_as_met(path: Path, kind: str) -> int:
    """Damage the journal as a table meets it; returns the line named."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if kind == "edited by hand":
        lines[5] = lines[5].replace('"nominate"', '"teleport"')
    elif kind == "not JSON":
        lines[5] = lines[5][:30]
    elif kind == "not a journal line":
        lines[5] = '{"t": 1, "evnt": {"type": "end_speech"}}'
    elif kind == "another version":
        lines[0] = lines[0].replace('"journal": 1', '"journal": 2')
        path.write_text("\n".join(lines), encoding="utf-8")
        return 1
    path.write_text("\n".join(lines), encoding="utf-8")
    return 6


WORDS = {
    "ru": {"error": "ошибка", "edited by hand": "это не игровое событие (неизвестный тип события 'teleport')",
           "not JSON": "строка повреждена, это не JSON", "not a journal line": "это не строка журнала (в ней: evnt, t)",
           "another version": "журнал другой версии narrator (формат 2, эта версия читает 1)",
           "way on": "narrator resume --journal {path} --repair", "anew": "или начните рядом новую игру",
           "torn": "последняя строка оборвалась"},
    "hu": {"error": "hiba", "edited by hand": "nem játékesemény (ismeretlen eseménytípus: 'teleport')",
           "not JSON": "sérült sor, nem JSON", "not a journal line": "nem naplósor (evnt, t)",
           "another version": "egy másik narrator-verzió naplója (2. formátum",
           "way on": "narrator resume --journal {path} --repair", "anew": "vagy kezdj mellette új játékot",
           "torn": "az utolsó sor csonka lett"},
}


@pytest.mark.e2e
@pytest.mark.parametrize("lang", ["ru", "hu"])
@pytest.mark.parametrize("kind", ["edited by hand", "not JSON", "not a journal line", "another version"])
def test_a_damaged_journal_is_named_in_the_tables_language_with_the_ways_on(kind, lang, tmp_path):
    """The file, the line, what is wrong with it, and what can be done — resume up to the last good
    line, or start a new game beside it — in the language the game was played in."""
    path = table_journal(tmp_path, lang)
    line = damage_as_met(path, kind)
    r = narrator(["resume", "--journal", str(path)], tmp_path, stdin="")
    words = WORDS[lang]
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{words['error']} {path}:{line}: {words[kind]}" in r.stderr, r.stderr
    if line > 1:
        assert words["way on"].format(path=path) in r.stderr
    assert words["anew"] in r.stderr and "narrator play --new" in r.stderr
    told = r.stderr.replace(str(path), "F")
    assert "not a" not in told and "damaged" not in told and "error" not in told


@pytest.mark.e2e
@pytest.mark.parametrize("lang", ["ru", "hu"])
def test_a_last_line_cut_by_a_power_cut_is_named_as_left_out_and_the_game_goes_on(lang, tmp_path):
    path = table_journal(tmp_path, lang)
    raw = path.read_bytes()
    path.write_bytes(raw[:-12])  # the power went while the last input was written
    r = narrator(["resume", "--journal", str(path), "--voice", "text"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"{path}:8: {WORDS[lang]['torn']}" in r.stderr, r.stderr
    assert len(read(path).events) == 6  # that input was never applied


def test_the_journals_last_timer_mark_is_the_last_noted_and_each_timer_keeps_its_own(tmp_path):
    """A day timer's time left is noted as it runs; a resume gives what the last note says. The
    last mark is the last one noted, even of a timer noted before another (hungariq's day clock,
    timer 3, noted as an accusation holds it, the trial's timer 4 noting its own, then the day's
    clock noted again: seed 001), and each timer keeps its own last mark."""
    path = a_game(tmp_path / "game.jsonl")
    assert read(path).timer_mark is None and read(path).timer_marks == {}
    j = Journal.reopen(path)
    for number, left in ((3, 412.0), (4, 5.0), (3, 407.0)):
        j.timer_mark(number, left)
    j.close()
    contents = read(path)
    assert contents.timer_mark == (3, 407.0)
    assert contents.timer_marks == {4: 5.0, 3: 407.0}
