"""A crash or power cut loses nothing: `kill -9` of a real `narrator play`, then `narrator resume`.

The journal appends and flushes every input before applying it, so after the resume every typed
input is in the journal exactly once and the game ends exactly as an uninterrupted one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator.config import load_config
from narrator.journal import Journal, read
from narrator.language import load_voice
from narrator.session import Session

ROOT = Path(__file__).resolve().parents[2]
LIVE = ROOT / "tests" / "transcripts" / "classic_en_live.txt"

CONFIG = """variant = "classic"
language = "en"
[dealing]
roles = { 1 = "sheriff", 2 = "don", 3 = "mafia", 4 = "mafia" }
[timers]       # long enough that only the typed `timeout` lines end a phase
speech = 600
tie_speech = 300
last_words = 300
vote = 120
night_step = 120
night_zero_step = 120
mafia_meeting = 300
[input]
engine = "none"
"""


def typed_lines() -> list[str]:
    return [l.split("#")[0].strip() for l in LIVE.read_text().splitlines() if l.split("#")[0].strip()]


def start(args: list[str], tmp_path: Path) -> subprocess.Popen:
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "narrator.cli", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)


def wait_for_events(journal: Path, n: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if journal.exists():
            try:
                if len(read(journal).events) >= n:
                    return
            except ValueError:
                pass
        time.sleep(0.05)
    raise AssertionError(f"the journal never reached {n} events")


def killed_after(cut: int, tmp_path: Path) -> tuple[Path, list[str]]:
    """A real `narrator play` that took the first `cut` typed lines, then died of kill -9: its journal and the lines."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG)
    journal = tmp_path / "journal.jsonl"
    lines = typed_lines()
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path)
    play.stdin.write("\n".join(lines[:cut]) + "\n")
    play.stdin.flush()
    wait_for_events(journal, cut + 1)             # the deal and every typed input
    play.send_signal(signal.SIGKILL)
    play.wait(timeout=10)
    return journal, lines


@pytest.mark.e2e
@pytest.mark.parametrize("cut", [5, 31, 57])
def test_kill_9_then_resume_loses_nothing_and_applies_nothing_twice(cut, tmp_path):
    journal, lines = killed_after(cut, tmp_path)
    resume = start(["resume", "--journal", str(journal)], tmp_path)
    out, err = resume.communicate("\n".join(lines[cut:]) + "\n", timeout=60)
    assert resume.returncode == 0, err
    assert "game over: The town wins." in out

    contents = read(journal)
    assert contents.finished and not contents.torn
    assert len(contents.events) == len(lines) + 1     # nothing lost, nothing applied twice
    session = Session(load_config(tmp_path / "club.toml"), fixed_night_steps=True)
    session.start()
    for ev in contents.events:
        session.feed(ev)
    assert session.game.winner == "town"


def test_a_line_torn_by_the_crash_was_never_applied_and_is_dropped(tmp_path):
    j = Journal.create(tmp_path / "j.jsonl", "club.toml", CONFIG, {})
    j.append(Session(load_config_text()).dealing_event())
    j.close()
    with open(tmp_path / "j.jsonl", "a") as fh:
        fh.write('{"t": 1, "event": {"type": "tim')            # power cut mid-write
    contents = read(tmp_path / "j.jsonl")
    assert contents.torn and len(contents.events) == 1
    Journal.reopen(tmp_path / "j.jsonl").append(Session(load_config_text()).dealing_event())
    assert len(read(tmp_path / "j.jsonl").events) == 2


@pytest.mark.e2e
def test_resume_without_a_journal_says_what_to_do(tmp_path):
    r = subprocess.run([sys.executable, "-m", "narrator.cli", "resume", "--journal", str(tmp_path / "none.jsonl")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "there is no game to resume" in r.stderr


def load_config_text():
    from narrator.config import parse_config

    return parse_config(CONFIG, "club.toml")


@pytest.mark.e2e
@pytest.mark.parametrize("cut,opening", [
    # stopped while the Sheriff looks for the mafia (night 1): the table hears which step runs
    # — its own line, not "The Don falls asleep." before it, which closed the Don's step
    (30, ["The Sheriff wakes up and looks for the mafia."]),
    # stopped in the middle of player 4's speech (day 1)
    (7, ["Player 4, you have"]),
])
def test_a_resumed_game_says_again_where_it_stopped(cut, opening, tmp_path):
    journal, _ = killed_after(cut, tmp_path)
    resume = start(["resume", "--journal", str(journal)], tmp_path)
    out, err = resume.communicate("quit\n", timeout=60)
    # how the keypad is used was said when the game began: a resume does not say it again
    assert load_voice("en").render("keypad_masking", {})[:40] not in out  # (a long line wraps: its opening is enough)
    said = [l[2:] for l in out.splitlines() if l.startswith("» ")]
    # first that the game goes on, then the lines that opened the running step, said again (public
    # lines: a night step's are the same whoever is awake or alive), and nothing else
    assert said[0] == "The game goes on where it stopped."
    assert len(said) == 1 + len(opening) and all(s.startswith(o) for s, o in zip(said[1:], opening)), said


@pytest.mark.e2e
def test_after_a_crash_resume_alone_finds_the_game_the_config_journals_elsewhere(tmp_path):
    """A club keeps its journal where its config says ([journal] path). After a kill -9 the
    operator types just `narrator resume`: it is that game which goes on, not an older one left
    unfinished in the games folder."""
    (tmp_path / "club.toml").write_text(CONFIG)
    stale = start(["play", "--config", str(tmp_path / "club.toml"), "--no-reveal", "--new"], tmp_path)
    stale.communicate("quit\n", timeout=60)  # an unfinished game in the games folder, played first
    cfg = tmp_path / "kept.toml"
    cfg.write_text(CONFIG + f'[journal]\npath = "{tmp_path / "club-journal.jsonl"}"\n')
    lines = typed_lines()
    play = start(["play", "--config", str(cfg), "--no-reveal"], tmp_path)
    play.stdin.write("\n".join(lines[:30]) + "\n")
    play.stdin.flush()
    wait_for_events(tmp_path / "club-journal.jsonl", 31)
    play.send_signal(signal.SIGKILL)
    play.wait(timeout=10)
    resume = start(["resume"], tmp_path)
    out, err = resume.communicate("\n".join(lines[30:]) + "\n", timeout=60)
    assert resume.returncode == 0, err
    assert "game over: The town wins." in out
    assert read(tmp_path / "club-journal.jsonl").finished


def killed_after_lines(lines: list[str], tmp_path: Path, config: str = CONFIG) -> Path:
    """A real `narrator play` that took these typed lines, then died of kill -9: its journal."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(config)
    journal = tmp_path / "journal.jsonl"
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path)
    play.stdin.write("\n".join(lines) + "\n")
    play.stdin.flush()
    wait_for_events(journal, len(lines) + 1)
    play.send_signal(signal.SIGKILL)
    play.wait(timeout=10)
    return journal


NIGHT_ZERO = ["timeout"] * 3
DAY_ONE = NIGHT_ZERO + typed_lines()[3:15]  # every speech of day 1 (3 and 4 nominated)


@pytest.mark.e2e
@pytest.mark.parametrize("lines,opening", [
    # player 1's minute ran out (seed 004 §4.3): the table hears whose turn it is, not "Thank you,
    # player 1. Time is up." again — news of somebody else's speech
    (NIGHT_ZERO + ["say I'm submitting player number three", "timeout"], ["Player 2, you have"]),
    # in the middle of the vote (seed 004 §4.4): the call it was at, not the read-back of the
    # nominees, nor the "Stop." that ended the call before it
    (DAY_ONE + ["tap 1 3", "timeout", "tap 2 4"], ["Who votes for player 4? Every vote not yet cast goes to player 4."]),
    # in the last words of the player voted out (the silent votes go to 4, the last candidate, seed
    # 004 §4.4): his turn, not the count of hands that sent him out
    (DAY_ONE + ["tap 1 3", "timeout", "tap 2 4", "tap 3 4", "timeout"], ["Player 4, your last words."]),
], ids=["speech after a time-up", "mid-vote", "last words"])
def test_a_resumed_day_says_only_where_the_table_is(lines, opening, tmp_path):
    journal = killed_after_lines(lines, tmp_path)
    resume = start(["resume", "--journal", str(journal)], tmp_path)
    out, err = resume.communicate("quit\n", timeout=60)
    said = [l[2:] for l in out.splitlines() if l.startswith("» ")]
    assert said[0] == "The game goes on where it stopped."
    assert len(said) == 1 + len(opening) and all(s.startswith(o) for s, o in zip(said[1:], opening)), said
    assert "Time is up" not in out and "votes." not in out and "Nominated for the vote" not in out and "Stop." not in out


def test_a_last_call_opened_again_by_a_nomination_is_announced_as_the_last_call():
    """sverige (seed 000): each nomination in the last call starts its 3 s again. Resumed there, the
    table hears the last call, not "7 nominated by 3." — the news that restarted it."""
    from narrator.config import parse_config
    from narrator.flow.effects import Say
    from narrator.flow.events import Deal, Nominate, Timeout
    from narrator.live import LiveSession

    cfg = parse_config('variant = "sverige"\nlanguage = "en"\nseats = 8\n[dealing]\nmode = "seeded"\nseed = 3\n', "club.toml")
    live = LiveSession(cfg, None)
    events = [live.session.dealing_event(), Timeout(), Timeout(), Timeout(), Nominate(7, 3)]
    probe = LiveSession(cfg, None)
    probe.start_effects()
    for ev in events:
        probe.session.feed(ev)
    assert probe.game.state == "last_call", probe.game.state
    said = [e.line for e in live.start_effects(replayed=events) if isinstance(e, Say)]
    assert said == ["resuming", "last_call"], said


SVERIGE = """variant = "sverige"
language = "sv"
[dealing]
mode = "fixed"
roles = { 1 = "mafia", 2 = "mafia", 3 = "mafia", 4 = "doctor", 5 = "sheriff" }
[timers]       # long enough that only the typed `timeout` lines end a step
night_step = 120
night_zero_step = 120
[input]
engine = "none"
"""
# night zero's meeting; day 1: the free day, the call for the extension, the last call
SV_TO_NIGHT = ["timeout"] * 4


@pytest.mark.e2e
@pytest.mark.parametrize("shot", [4, 6], ids=["the doctor shot", "a villager shot"])
def test_a_swedish_night_resumed_in_the_sheriffs_step_says_the_sheriff_wakes_and_nothing_of_the_doctor(shot, tmp_path):
    """seed 000: the night's roles wake one by one; the sheriff's step opens right after «Läkaren
    somnar.» A game killed (kill -9) in it said that line again on `narrator resume` — the close
    of another step. It says its own line alone, and the same whether the doctor still lives:
    night 2, after the mafia shot the doctor in night 1 or a villager (README: After a crash)."""
    night_1 = [f"tap {m} {shot}" for m in (1, 2, 3)] + ["timeout"] * 3  # the mafia, the doctor, the sheriff
    lines = SV_TO_NIGHT + night_1 + ["timeout"] * 3 + ["timeout"] * 2  # day 2; night 2: mafia, doctor
    journal = killed_after_lines(lines, tmp_path, SVERIGE)
    resume = start(["resume", "--journal", str(journal)], tmp_path)
    out, err = resume.communicate("status\nquit\n", timeout=60)
    said = [l[2:] for l in out.splitlines() if l.startswith("» ")]
    sv = load_voice("sv")
    assert said == [sv.render("resuming", {}), sv.render("sheriff_wakes_team", {})], said
    assert sv.render("doctor_sleeps", {}) not in out
    assert "dag 2" in out.lower() and "sheriff" in out.lower(), out  # the status: night 2, the sheriff's check


# every variant's night steps, with the roles each can have: a random table played to every step
RESUMED_TABLES = {
    "classic": "",
    "classic13": 'seats = 13\n[roles]\nputana = 1\ndoctor = 1\nmaniac = 1\npoliceman = 1\n',
    "sverige": 'seats = 10\n[roles]\ndoctor = 1\navenger = 1\n',
    "sverige_freemasons": 'seats = 8\n[roles]\nsheriff = 0\nfreemason = 2\n',
    "hungariq": 'seats = 12\n[roles]\nvogon = 1\nbodyguard = 1\nsarika = 1\n',
    "grundregeln": 'seats = 9\n[rules]\nmanner_of_death = true\n',
}


@pytest.mark.parametrize("table", sorted(RESUMED_TABLES))
def test_a_resume_in_any_night_step_says_that_steps_own_line_whoever_is_alive(table):
    """Every variant, every night step, resumed anywhere in it in random games (roles dead or
    alive, choices made or not): the narrator says the game goes on and the line that opens the
    running step — with "night falls" before the night's first — never a line of another step
    (the one that closed the step before), and always the same lines for the same step."""
    import random
    from collections import defaultdict

    from narrator.config import parse_config
    from narrator.flow.effects import Say
    from narrator.live import LiveSession
    from narrator.simulate import RandomPlayer

    variant = table.split("_")[0].rstrip("0123456789")
    heard: dict[str, set] = defaultdict(set)
    for game in range(6):
        cfg = parse_config(f'variant = "{variant}"\nlanguage = "en"\n' + RESUMED_TABLES[table]
                           + f'[dealing]\nmode = "seeded"\nseed = {game}\n', "club.toml")
        live = LiveSession(cfg, None)
        live.start_effects()
        g, rng = live.game, random.Random(game)
        player = RandomPlayer(rng)
        events = [live.session.dealing_event()]
        live.session.feed(events[0])
        while g.state != "over" and len(events) < 1500:
            events.append(player.legal(g))
            live.session.feed(events[-1])
            if g.state == "night" and g.step is not None and rng.random() < 0.3:
                first = g.step_index == min(i for i, s in enumerate(g.steps) if g._step_plays(s))
                said = [e.line for e in LiveSession(cfg, None).start_effects(replayed=list(events)) if isinstance(e, Say)]
                opening = [("night_zero_falls" if g.steps is g.variant.night_zero else "night_falls")] if first else []
                assert said == ["resuming", *opening, g.step.wake_line], (g.step.name, said)
                heard[g.step.name].add(tuple(said))
    assert heard and all(len(lines) == 1 for lines in heard.values()), dict(heard)
