"""At game over: the report and the protocol are written beside the journal, the game enters the
club's record, and the companion serves the report to the phones and the host screen."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import urllib.error
import urllib.request
from types import SimpleNamespace

import pytest

from narrator.config import parse_config
from narrator.journal import Journal, read
from narrator.live import LiveSession
from narrator.simulate import RandomPlayer

PLAYERS = "[players]\n" + "".join(f'{i} = "P{i} <i>"\n' for i in range(1, 11))


def finished_journal(tmp_path, stop_before_end: bool = False):
    """A whole classic game with live rules (night steps keep their length), journaled."""
    cfg = parse_config(f'variant = "classic"\nlanguage = "de"\n{PLAYERS}[club]\ndatabase = "{tmp_path / "club.sqlite"}"\n'
                       '[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n')
    path = tmp_path / "journal.jsonl"
    journal = Journal.create(path, "club.toml", cfg.text, {})
    live = LiveSession(cfg, None)
    live.start_effects()
    deal = live.session.dealing_event()
    journal.append(deal)
    live.session.feed(deal)
    player = RandomPlayer(random.Random(4), illegal_rate=0)
    while live.game.state != "over":
        ev = player.legal(live.game)
        if stop_before_end and live.game.day == 2:
            break
        journal.append(ev)
        live.session.feed(ev)
    if live.game.state == "over":
        journal.finish(live.game.winner)
    journal.close()
    return cfg, path


def timer_marks(journal) -> list[float]:
    """When each of the journal's timer notes was written."""
    marks = []
    for line in journal.read_text().splitlines()[1:] if journal.exists() else []:
        try:
            entry = json.loads(line)
        except ValueError:
            break  # the line being written this moment
        if "timer" in entry:
            marks.append(entry["t"])
    return marks


def live_on(cfg, path):
    live = LiveSession(cfg, None)
    live.journal = SimpleNamespace(path=path)
    live.start_effects(replayed=read(path).events)
    return live


def test_game_over_writes_the_report_and_protocol_beside_the_journal_and_adds_the_game_to_the_club(tmp_path):
    from narrator.report import read_game
    from narrator.report.live import finish

    cfg, path = finished_journal(tmp_path)
    live = live_on(cfg, path)
    assert live.game.state == "over"
    written, warnings = finish(live)
    assert warnings == [] and len(written) == 2
    page, proto = map(__import__("pathlib").Path, written)
    assert page.parent == path.parent and page.suffix == ".html" and proto.name.endswith(".protocol.jsonl")
    html = page.read_text(encoding="utf-8")
    assert "Spielbericht" in html and "P1 &lt;i&gt;" in html
    # the protocol beside it is the same game as the journal: importing it again adds nothing
    assert read_game(proto).content_hash() == read_game(path).content_hash()
    db = sqlite3.connect(tmp_path / "club.sqlite")
    assert db.execute("SELECT COUNT(*), MIN(variant) FROM games").fetchone() == (1, "classic")
    assert db.execute("SELECT COUNT(*) FROM players WHERE name LIKE 'P% <i>'").fetchone()[0] == 10
    finish(live)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, ""


def test_the_companion_serves_the_report_only_once_the_game_is_over(tmp_path):
    from narrator.companion import start

    async def serve(live):
        live.attach()
        companion = start(live.config, live, host="127.0.0.1", port=0, announce=False)
        await companion.started()
        try:
            status, body = await asyncio.to_thread(get, f"http://127.0.0.1:{companion.port}/report")
            frame = companion.hub.screen_frame(1)
            host = companion.hub.host_frame()
        finally:
            await companion.stop()
        return status, body, frame, host

    cfg, path = finished_journal(tmp_path)
    status, body, frame, host = asyncio.run(serve(live_on(cfg, path)))
    assert status == 200 and "Spielbericht" in body and "P4 &lt;i&gt;" in body
    assert frame["report_url"] == "/report" and host["report_url"] == "/report"

    cfg, path = finished_journal(tmp_path / "on", stop_before_end=True) if (tmp_path / "on").mkdir() is None else None
    status, body, frame, host = asyncio.run(serve(live_on(cfg, path)))
    assert status == 404 and body == "" and frame["report_url"] is None and host["report_url"] is None


@pytest.mark.e2e
def test_a_real_narrator_play_prints_the_reports_path_at_game_over(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    live_lines = [ln.split("#")[0].strip() for ln in (root / "tests/transcripts/classic_en_live.txt").read_text().splitlines()]
    config = tmp_path / "club.toml"
    config.write_text('variant = "classic"\nlanguage = "en"\n[dealing]\n'
                      'roles = { 1 = "sheriff", 2 = "don", 3 = "mafia", 4 = "mafia" }\n'
                      '[players]\n1 = "Ann [b]"\n[input]\nengine = "none"\n[timers]\nspeech = 600\ntie_speech = 300\n'
                      'last_words = 300\nvote = 120\nnight_step = 120\nnight_zero_step = 120\nmafia_meeting = 300\n',
                      encoding="utf-8")
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    play = subprocess.run([sys.executable, "-m", "narrator.cli", "play", "--config", str(config), "--journal",
                           str(tmp_path / "journal.jsonl"), "--no-reveal"], input="\n".join(ln for ln in live_lines if ln) + "\n",
                          capture_output=True, text=True, cwd=root, env=env, timeout=120)
    assert play.returncode == 0, play.stderr
    assert "game over: The town wins." in play.stdout
    line = next(ln for ln in play.stdout.splitlines() if ln.startswith("report: "))
    page = Path(line[len("report: "):])
    assert page.parent == tmp_path and page.name.startswith("journal-") and page.suffix == ".html"
    html = page.read_text(encoding="utf-8")
    assert "The town wins" in html and "Ann [b]" in html
    db = sqlite3.connect(tmp_path / "data" / "narrator" / "club.sqlite")
    assert db.execute("SELECT COUNT(*), MIN(winner) FROM games").fetchone() == (1, "town")


def test_a_games_own_journal_gets_its_report_under_the_same_name(tmp_path):
    import shutil
    import time as _time

    from narrator.report.live import finish

    cfg, path = finished_journal(tmp_path)
    own = tmp_path / "games" / (_time.strftime("%Y-%m-%d_%H-%M-%S") + ".jsonl")
    own.parent.mkdir()
    shutil.copy(path, own)
    written, _ = finish(live_on(cfg, own))
    assert written == [str(own.with_suffix(".html")), str(own.with_suffix(".protocol.jsonl"))]


@pytest.mark.e2e
def test_a_speech_cut_by_a_crash_is_drawn_as_long_as_it_was_spoken_not_as_the_machine_was_down(tmp_path):
    """A real `narrator play` dies of kill -9 two seconds into player 1's speech; the table waits
    eight seconds, `narrator resume`s, and player 1 ends his speech two seconds later. The report
    of that journal tells one story: one speech of player 1, of the seconds spoken after the
    resume (the timer's note at the speech's start is the last moment known to be played), not of
    the twelve the clock counted across the crash."""
    import signal
    import time

    from narrator.report import read_game
    from narrator.report.story import build
    from test_journal_resume import CONFIG, start, wait_for_events

    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG)
    journal = tmp_path / "journal.jsonl"
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path)
    play.stdin.write("timeout\ntimeout\ntimeout\n")  # night zero: the Don, the mafia, the Sheriff
    play.stdin.flush()
    wait_for_events(journal, 4)
    time.sleep(2)
    play.send_signal(signal.SIGKILL)
    play.wait(timeout=10)
    time.sleep(8)
    marks = len(timer_marks(journal))
    resume = start(["resume", "--journal", str(journal)], tmp_path)
    try:
        # player 1 speaks on for two seconds from the moment the resumed game gives him the floor
        # again — its timer's note in the journal — not from when the process was started: under
        # load its start-up took those two seconds, and the speech was drawn 0 s long
        deadline = time.monotonic() + 60
        while len(timer_marks(journal)) <= marks and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(timer_marks(journal)) > marks, "the resumed speech never started"
        time.sleep(2)
        resume.stdin.write("say thank you\n")
        resume.stdin.flush()
        wait_for_events(journal, 5)
    finally:
        resume.kill()
        resume.wait(timeout=10)
    record = read_game(journal)
    speeches = [i for p in build(record.entries).periods for i in p.items if i["kind"] == "speech"]
    assert [s["seat"] for s in speeches] == [1, 2], speeches  # nothing doubled by the resume
    # as long as he spoke after the resume (the floor given back to his "thank you", on the clock
    # the journal was written on), never the eight seconds and more the machine was down
    resumed_at = timer_marks(journal)[marks]
    thanked_at = [e for e in map(json.loads, journal.read_text().splitlines()[1:]) if "event" in e][4]["t"]
    spoken = thanked_at - resumed_at
    assert 2 <= speeches[0]["seconds"] <= round(spoken) + 1 < 8, (speeches[0], spoken)


@pytest.mark.e2e
def test_a_game_killed_in_the_middle_of_a_day_is_reported_where_it_stands(tmp_path):
    """A real `narrator play` dies of kill -9 during player 2's speech on day 1, after player 1
    nominated player 5. Read before anyone resumes it, the journal's report says where the game
    stands — no result yet, everybody still in the game, day 1 with both speeches and the
    nomination — and its timeline ends with "The game stopped here", not with a speech that looks
    finished; it invents no end (no "The game is over", nobody "alive at the end")."""
    import html as html_mod
    import re
    import signal
    import subprocess
    import sys

    from narrator.report import report_words
    from test_journal_resume import CONFIG, ROOT, start, wait_for_events

    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG)
    journal = tmp_path / "journal.jsonl"
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path)
    play.stdin.write("timeout\ntimeout\ntimeout\n")  # night zero: the Sheriff, the Don, the mafia
    play.stdin.write("nominate 5\nsay thank you\n")  # player 1 nominates 5 and ends his speech
    play.stdin.flush()
    wait_for_events(journal, 6)
    play.send_signal(signal.SIGKILL)                 # in the middle of player 2's speech
    play.wait(timeout=10)

    page = tmp_path / "stopped.html"
    r = subprocess.run([sys.executable, "-m", "narrator.cli", "report", str(journal), "-o", str(page)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 1 and "unfinished" in r.stderr, r.stderr
    html = page.read_text(encoding="utf-8")
    en = report_words("en")
    text = " ".join(html_mod.unescape(re.sub("<[^>]+>", " ", html)).split())
    assert en["winner_none"] in text and en["so_far"] in text
    assert text.count(en["still_in"]) == 10 and en["survived"] not in text and en["game_over"] not in text
    day = html[html.index('id="day-1"'):]
    day_text = " ".join(html_mod.unescape(re.sub("<[^>]+>", " ", day)).split())
    assert re.search(r"1 speech \d+:\d\d → 5 .*2 speech", day_text), day_text
    assert day_text.endswith(en["stopped_here"] + " " + en["footer"]), day_text[-200:]
