"""The game report: every example game of every variant, replayed to its protocol, is drawn as one
self-contained page in its table's language, with the whole story — and bad files are answered
with file and line, never a traceback."""

from __future__ import annotations

import html as html_mod
import json
import re
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import examples as profile_examples

from conftest import Table
from narrator import protocol
from narrator.config import parse_config
from narrator.language import load_voice
from narrator.report import GameRecord, read_game, render, report_words
from narrator.replay import replay

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p for p in (ROOT / "tests" / "transcripts").glob("*.txt") if not p.name.endswith("_live.txt"))


def config_for(path: Path, players: str = ""):
    from test_transcripts import config_for as transcript_config

    cfg = transcript_config(path)
    return parse_config(cfg.text + players, path.name) if players else cfg


def protocol_file(path: Path, tmp_path: Path) -> Path:
    out = tmp_path / (path.stem + ".jsonl")
    with out.open("w", encoding="utf-8") as fh:
        assert replay(path.read_text(encoding="utf-8"), config_for(path), fh, name=path.name).finished
    return out


class Text(HTMLParser):
    """The page's visible text, and every tag it uses."""

    def __init__(self):
        super().__init__()
        self.text: list[str] = []
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Text:
    t = Text()
    t.feed(html)
    return t


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_example_game_is_drawn_whole_in_its_language(path, tmp_path):
    proto = protocol_file(path, tmp_path)
    entries = [json.loads(line) for line in proto.read_text(encoding="utf-8").splitlines()]
    lang = path.stem.split("_")[1]
    record = read_game(proto)
    assert record.language == lang and record.finished and record.problems == []
    html = render(record)
    page = parse(html)
    words = report_words(lang)
    text = " ".join(page.text)
    assert f'<html lang="{lang}">' in html
    # self-contained: no script, no external resource of any kind
    assert not [t for t, a in page.tags if t in ("script", "link", "img", "iframe")]
    assert not re.search(r"(src|href)\s*=", html)
    over = next(e for e in entries if e["type"] == "game_over")
    # the winner as that variant's narrator named him (test_the_banner_names_the_winner_…)
    variant = path.stem.split("_")[0]
    assert load_voice(lang, variant).winner(over["winner"]).rstrip(".") in text
    # the deal: every seat with its role
    deal = page_section(html, "deal")
    for seat, role in over["roles"].items():
        assert f'<span class="num">{seat}</span>' in deal and words["role_" + role] in deal
    # the timeline: every day and night, every speech, every vote, every elimination, every check
    days = sum(1 for e in entries if e["type"] == "phase" and e["phase"] == "day")
    assert html.count('class="period day"') == days
    assert html.count('<li class="sp-') == sum(1 for e in entries if e["type"] == "speech")
    assert html.count('<div class="vote') == sum(1 for e in entries if e["type"] == "vote_result")
    assert html.count('<p class="out">') == sum(1 for e in entries if e["type"] == "eliminated")
    assert html.count('<p class="check">') == sum(1 for e in entries if e["type"] == "check")
    assert html.count('<div class="shot') == sum(1 for e in entries if e["type"] == "shot")
    nominations = [e for e in entries if e["type"] in ("nomination", "accusation")]
    assert html.count('class="nom"') + html.count('class="act accusation"') + html.count('class="act nomination"') == len(nominations)


def page_section(html: str, name: str) -> str:
    return html[html.index(f'<section class="{name}"'):].split("</section>", 1)[0]


def test_a_vote_is_drawn_as_bars_with_its_tally_voters_and_the_silent(tmp_path):
    proto = protocol_file(ROOT / "tests/transcripts/classic_en_town_wins.txt", tmp_path)
    html = render(read_game(proto))
    first = html[html.index('<div class="vote">'):].split('</div></div><p class="note">', 1)
    vote = html[html.index('<div class="vote">'):html.index("</p></div>", html.index('<div class="vote">'))]
    # day 1: 3 gets 6 (1, 4, 5, 6, 7, 8 and the silent 9, 10 added), 4 gets 4 (2, 3)
    assert re.search(r'<rect width="100\.0" height="10" class="fg"/></svg><div class="n">6</div>', vote)
    assert re.search(r'<rect width="66\.7" height="10" class="fg"/></svg><div class="n">4</div>', vote)
    assert "silent, counted for the last candidate" in vote and first


def test_split_votes_revote_and_all_leave_are_shown(tmp_path):
    html = render(read_game(protocol_file(ROOT / "tests/transcripts/classic_en_simulated.txt", tmp_path)))
    for words in ("Split vote between", "Re-vote among the tied", "Do all of them leave?", "8 yes of 8", "passed",
                  "speech in the split vote"):
        assert words in html


def test_sverige_hand_votes_and_the_extension(tmp_path):
    html = render(read_game(protocol_file(ROOT / "tests/transcripts/sverige_en_simulated.txt", tmp_path)))
    assert "The day&#x27;s extension was asked for" in html and "nominee&#x27;s speech" in html
    assert "Maffia Sverige" in html and html.count('<div class="vote">') >= 3


def test_a_sverige_day_that_ends_with_nobody_nominated_says_there_is_no_vote(tmp_path):
    """Seed 000: nobody nominated when the last call ends — nobody is hanged that day ("Ingen är
    nominerad: ingen hängs i dag."). The report said "Nominerade:" with nobody after it."""
    path = ROOT / "tests/transcripts/sverige_sv_simulated.txt"
    assert "#   Ingen är nominerad: ingen hängs i dag." in path.read_text(encoding="utf-8")
    html = render(read_game(protocol_file(path, tmp_path)))
    day = html[html.index('id="day-2"'):html.index('id="night-2"')]
    assert "Inga nomineringar: ingen röstning" in day
    assert not re.search(r"Nominerade: *<", day) and 'class="vote"' not in day


def test_the_accused_s_last_word_is_a_speech_of_the_story_with_its_own_length(tmp_path):
    """Seed 001: a trial is the support vote, the discussion, the accused's last word, the execution
    vote. The last word was missing from the report (the protocol had no speech for it); it is
    drawn before the execution vote, as long as it was: from its start to the "thank you" or the
    time up that ended it, not to the first hand of the vote after it (a journal of a played game)."""
    import random

    from narrator.flow.events import event_to_dict
    from narrator.journal import Journal
    from narrator.report.story import build
    from narrator.session import Session
    from narrator.simulate import RandomPlayer

    text = 'variant = "hungariq"\nlanguage = "en"\nseats = 12\n'
    journal = Journal.create(tmp_path / "journal.jsonl", "club.toml", text, {})
    session = Session(parse_config(text), fixed_night_steps=True)  # as live play keeps the night
    session.start()
    clock, rng = 1000.0, random.Random(4)
    player = RandomPlayer(random.Random(7), illegal_rate=0, skill=0.6)
    events = [session.dealing_event(random.Random(1))]
    while session.game.state != "over":
        ev = events.pop() if events else player.legal(session.game)
        clock += rng.randint(3, 40)
        journal._write({"t": clock, "event": event_to_dict(ev)})
        session.feed(ev)
    journal.finish(session.game.winner)
    journal.close()
    record = read_game(tmp_path / "journal.jsonl")
    entries = record.entries
    words = [i for i, e in enumerate(entries) if e["type"] == "speech" and e["kind"] == "accused_last_word"]
    assert words, "the game had a trial"
    drawn = [i for p in build(entries).periods for i in p.items if i.get("speech") == "accused_last_word"]
    assert len(drawn) == len(words)
    html = render(record)
    assert html.count("the accused&#x27;s last word") == len(words)
    for i, item in zip(words, drawn):
        end = next(e for e in entries[i:] if e["type"] == "input" and e["event"]["type"] in ("end_speech", "timeout"))
        vote = next(e for e in entries[i:] if e["type"] == "vote")
        assert item["seconds"] == round(end["t"] - entries[i]["t"]) and item["timed_out"] == (end["event"]["type"] == "timeout")
        assert vote["t"] > end["t"]  # the first hand of the vote came later: it is not the end of the speech


def test_a_hungariq_day_that_runs_out_with_nobody_accused_says_so(tmp_path):
    """Seed 001: the day ends when its time is over; a day with no accusation was an empty box."""
    path = ROOT / "tests/transcripts/hungariq_hu_simulated.txt"
    assert "#   Vége a napnak." in path.read_text(encoding="utf-8").split("say ")[0]  # day 1: time up, nobody accused
    html = render(read_game(protocol_file(path, tmp_path)))
    day = html[html.index('id="day-1"'):html.index('id="night-1"')]
    assert "Senkit sem vádoltak meg: lejárt a nap" in day
    # and no day is an empty box: each has its accusations, or says there were none (the last one
    # is the morning the game ended with)
    days = re.findall(r'id="day-\d+">(.*?)</section>', html)
    assert all(("megvádolja" in d) != ("Senkit sem vádoltak meg" in d) for d in days[:-1])
    assert "A játék véget ért" in days[-1]


def test_hungariq_accusations_with_support_and_execution_votes(tmp_path):
    html = render(read_game(protocol_file(ROOT / "tests/transcripts/hungariq_hu_simulated.txt", tmp_path)))
    assert "megvádolja" in html and "Támogatják a vádat" in html and "kivégzése" in html
    assert re.search(r"\d+ igen, \d+ szavazóból", html)
    assert "Felügyelő" in html and "ellenőrzi" in html


def test_grundregeln_pointing_runoff_and_final_vote(tmp_path):
    html = render(read_game(protocol_file(ROOT / "tests/transcripts/grundregeln_de_simulated.txt", tmp_path)))
    for words in ("Alle zeigen", "Stichwahl", "Schlussabstimmung", "Verteidigung", "Die Mafia schießt"):
        assert words in html


BANNER = re.compile(r'<div class="winner [^"]*">([^<]*)</div>')


@pytest.mark.parametrize("game, winner_line", [
    ("grundregeln_de_simulated", "good_wins"),       # seed 003: the good and the evil side
    ("classic_ru_town_wins", "town_wins"),           # seed 004: «Победа мирных жителей»
    ("sverige_sv_avenger_dawn_win", None),           # seed 000: the village, not "the town"
    ("hungariq_hu_simulated", "mafia_wins_equal"),   # seed 001
    ("grundregeln_en_simulated", None),
    ("hungariq_en_simulated", None),
])
def test_the_banner_names_the_winner_as_the_narrator_of_that_variant_did(game, winner_line, tmp_path):
    """Seen on a German grundregeln report: «Die Mafia gewinnt» over a game whose narrator said «Die
    gute Seite gewinnt» / «Die böse Seite gewinnt» (seed 003), and «Победа города» over a Russian
    classic game the narrator closed with «Победа мирных жителей!». The report reads the variant and
    the language from the protocol and names the side in the narrator's words."""
    proto = protocol_file(ROOT / "tests/transcripts" / f"{game}.txt", tmp_path)
    entries = [json.loads(line) for line in proto.read_text(encoding="utf-8").splitlines()]
    variant, lang = game.split("_")[:2]
    winner = next(e for e in entries if e["type"] == "game_over")["winner"]
    banner = html_mod.unescape(BANNER.search(render(read_game(proto))).group(1))
    assert banner == load_voice(lang, variant).winner(winner).rstrip(".")
    if winner_line:
        said = next(e["text"] for e in entries if e["type"] == "say" and e["line"] == winner_line)
        assert said.startswith(banner), (said, banner)


def test_a_grundregeln_report_never_calls_the_evil_side_the_mafia_in_its_banner(tmp_path):
    """seed 003 names the sides good and evil: a mafia win at a German grundregeln table reads so."""
    entries = [{"type": "table", "language": "de", "players": {}},
               {"type": "game_start", "variant": "grundregeln", "seats": 5, "timers": {}},
               {"type": "game_over", "winner": "mafia", "roles": {"1": "mafia"}}]
    proto = tmp_path / "g.jsonl"
    proto.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    banner = html_mod.unescape(BANNER.search(render(read_game(proto))).group(1))
    assert banner == "Die böse Seite gewinnt"


def test_kamikaze_and_lover_chains_are_told_with_their_causes():
    t = Table(deal="1=inspector 2=protected_mafia 3=mafia 4=mafia 7=kamikaze_citizen 5+lover 9+lover",
              variant="hungariq", seats=12, roles={"kamikaze_citizen": 1})
    t.do("say I accuse player 7", *[f"tap {s} yes" for s in t.game.alive], "timeout", "say thank you",
         *[f"tap {s} yes" for s in t.game.alive], "tap 7 5")
    record = GameRecord("<test>", protocol.entries(t.effects, t.session.voice))
    html = render(record)
    assert "a kamikaze, takes" in html
    out = re.findall(r'<p class="out">.*?</p>', html)
    assert [re.search(r"<b>(\d+)</b>", o).group(1) for o in out] == ["7", "5", "9"]
    assert "voted out" in out[0] and "taken by a kamikaze" in out[1] and "followed a lover" in out[2]
    assert "This game is unfinished" in html and "lover" in page_section(html, "deal")


def test_names_from_the_config_are_literal_text_never_markup(tmp_path):
    path = ROOT / "tests/transcripts/classic_en_town_wins.txt"
    cfg = config_for(path, '[players]\n1 = "<script>alert(1)</script>"\n2 = "Bob & \\"Al\\""\n3 = "[red]Zed"\n')
    html = render(read_game(protocol_file(path, tmp_path), cfg))
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Bob &amp; &quot;Al&quot;" in html and "[red]Zed" in html


def test_a_journal_is_reported_with_the_length_of_every_speech(tmp_path):
    import random

    from narrator.flow.events import event_to_dict
    from narrator.journal import Journal
    from narrator.session import Session
    from narrator.simulate import RandomPlayer

    text = 'variant = "classic"\nlanguage = "ru"\n[players]\n1 = "Аня"\n'
    cfg = parse_config(text)
    journal = Journal.create(tmp_path / "journal.jsonl", "club.toml", text, {})
    session = Session(cfg, fixed_night_steps=True)  # as live play keeps the night
    session.start()
    clock = 1000.0
    player = RandomPlayer(random.Random(2), illegal_rate=0)
    events = [session.dealing_event(random.Random(1))]
    while session.game.state != "over":
        ev = events.pop() if events else player.legal(session.game)
        clock += 42
        journal._write({"t": clock, "event": event_to_dict(ev)})
        session.feed(ev)
    journal.finish(session.game.winner)
    journal.close()
    record = read_game(tmp_path / "journal.jsonl")
    assert record.kind == "journal" and record.finished and record.language == "ru" and record.players == {1: "Аня"}
    assert record.problems == []
    html = render(record)
    assert "0:42" in html and "Аня" in html and load_voice("ru", "classic").winner(session.game.winner).rstrip(".") in html


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "narrator.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.e2e
def test_the_command_writes_the_page_and_prints_its_path(tmp_path):
    proto = protocol_file(ROOT / "tests/transcripts/classic_ru_town_wins.txt", tmp_path)
    r = run("report", str(proto), "-o", str(tmp_path / "game.html"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(tmp_path / "game.html")
    assert "Отчёт об игре" in (tmp_path / "game.html").read_text(encoding="utf-8")


@pytest.mark.e2e
def test_an_unfinished_protocol_is_reported_so_far(tmp_path):
    proto = protocol_file(ROOT / "tests/transcripts/classic_en_town_wins.txt", tmp_path)
    lines = proto.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:120]) + lines[120][:15], encoding="utf-8")  # torn mid-line, as by a crash
    r = run("report", str(cut), "-o", str(tmp_path / "cut.html"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{cut}:121: a line cut short" in r.stderr
    html = (tmp_path / "cut.html").read_text(encoding="utf-8")
    assert "This game is unfinished" in html and "Day 1" in html
    # the game has no end yet: the living are still in it, not "alive at the end"
    assert "still in the game" in html and "alive at the end" not in html


@pytest.mark.e2e
@pytest.mark.parametrize("content, message", [
    ("", "empty: not a narrator protocol or journal"),
    ("hello, world\n", ":1: not a narrator protocol or journal (not JSON)"),
    ('{"name": "x"}\n', ":1: not a narrator protocol or journal"),
    ('{"type": "say", "line": "x"}\n', ":1: not a narrator protocol (no game_start entry)"),
    ('{"journal": 1, "config_text": "variant = 3"}\n', ":1: the journal's config is not valid"),
    ('{"journal": 1}\n', ":1: a journal header without its config"),
])
def test_foreign_or_damaged_files_are_named_with_their_line(tmp_path, content, message):
    f = tmp_path / "game.jsonl"
    f.write_text(content, encoding="utf-8")
    r = run("report", str(f))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert str(f) in r.stderr and message in r.stderr.replace("\n", "")


@pytest.mark.e2e
def test_a_damaged_line_in_the_middle_is_named_and_the_game_before_it_reported(tmp_path):
    proto = protocol_file(ROOT / "tests/transcripts/classic_en_town_wins.txt", tmp_path)
    lines = proto.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[60] = "{garbage\n"
    proto.write_text("".join(lines), encoding="utf-8")
    r = run("report", str(proto), "-o", str(tmp_path / "x.html"))
    assert r.returncode == 1 and f"{proto}:61: damaged line" in r.stderr and "Traceback" not in r.stderr
    assert (tmp_path / "x.html").exists()


@pytest.mark.e2e
def test_binary_junk_is_refused(tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_bytes(b"\xff\xfe\x00garbage")
    r = run("report", str(f))
    assert r.returncode == 2 and "not UTF-8" in r.stderr and "Traceback" not in r.stderr


def test_every_language_has_every_report_word_with_the_same_placeholders():
    en = report_words("en")
    for lang in ("ru", "sv", "hu", "de"):
        import tomllib

        from narrator.language import load_voice

        with load_voice(lang).source.open("rb") as fh:
            own = tomllib.load(fh)["report"]
        assert set(own) == set(en), lang
        for key, text in own.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key])), (lang, key)


def test_every_role_and_variant_has_a_report_name():
    from narrator.rules.roles import TEAM_OF
    from narrator.rules.variants import VARIANTS

    en = report_words("en")
    assert all("role_" + r in en for r in TEAM_OF)
    assert all("variant_" + v in en for v in VARIANTS)


def test_any_damage_to_any_entry_is_answered_never_a_traceback(tmp_path):
    """Entries of a foreign shape (a seat that is a word, a list where a number was, a missing
    key): `report` and `club import` answer with the file's name, or draw what they can."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from narrator.cli import main

    proto = protocol_file(ROOT / "tests/transcripts/classic_en_simulated.txt", tmp_path)
    lines = proto.read_text(encoding="utf-8").splitlines()
    junk = st.one_of(st.none(), st.integers(-5, 10**12), st.text(max_size=5), st.lists(st.integers(), max_size=3),
                     st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.booleans())

    @settings(max_examples=profile_examples(60), deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.tuples(st.integers(0, len(lines) - 1), st.text(max_size=8), junk), min_size=1, max_size=4))
    def damaged(edits):
        entries = [json.loads(line) for line in lines]
        for i, key, value in edits:
            keys = [k for k in entries[i] if k != "type"] or [key]
            entries[i][keys[zlib.crc32(key.encode()) % len(keys)]] = value  # not hash(): the same edit every run
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join(json.dumps(e) for e in entries) + "\n", encoding="utf-8")
        assert main(["report", str(bad), "-o", str(tmp_path / "bad.html")]) in (0, 1, 2)
        assert main(["club", "--database", str(tmp_path / "c.sqlite"), "import", str(bad)]) in (0, 1)

    damaged()


def test_a_seat_count_no_table_has_is_refused_by_name_not_drawn_until_the_memory_is_full(tmp_path, capsys):
    """A hand-edited "seats": 1000000000 once filled 24 GB drawing every seat (report) and
    counting every player (club import). It is refused, naming the file and its line."""
    from narrator.cli import main

    proto = protocol_file(ROOT / "tests/transcripts/classic_en_simulated.txt", tmp_path)
    entries = [json.loads(line) for line in proto.read_text(encoding="utf-8").splitlines()]
    at = next(n for n, e in enumerate(entries, start=1) if e["type"] == "game_start")
    for seats in (10**9, 0, -5, True, "10"):
        entries[at - 1]["seats"] = seats
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join(json.dumps(e) for e in entries) + "\n", encoding="utf-8")
        assert main(["report", str(bad), "-o", str(tmp_path / "bad.html")]) == 2
        assert main(["club", "--database", str(tmp_path / "c.sqlite"), "import", str(bad)]) == 1
        err = capsys.readouterr().err
        assert err.count(f"bad.jsonl:{at}: a table of {seats!r} seats is not one classic plays (10 to 20 seats)") == 2, err


def test_classic_extra_roles_doctor_putana_maniac_and_policeman_are_drawn(tmp_path):
    from narrator.simulate import simulate

    simulate("classic", 12, 9, seats=14, check_replay=False, protocols=str(tmp_path),
             roles={"doctor": 1, "putana": 1, "maniac": 1, "policeman": 1})
    pages = [render(read_game(f)) for f in sorted(tmp_path.glob("*.jsonl"))]
    text = " ".join(pages)
    for words in ("Doctor", "Putana", "Maniac", "Policeman", "protects", "blocks"):
        assert words in text, words
    # the Maniac's kill is his own shot, not the mafia's
    assert re.search(r'<h4><span class="p maniac"[^>]*><b>\d+</b></span> shoots</h4>', text)


def test_grundregeln_manner_of_death_is_told_in_the_tables_words(tmp_path):
    from narrator.simulate import simulate

    simulate("grundregeln", 3, 4, rules={"manner_of_death": True}, check_replay=False, protocols=str(tmp_path),
             language="de")
    text = " ".join(render(read_game(f)) for f in sorted(tmp_path.glob("*.jsonl")))
    assert "wählt, wie das Opfer stirbt:" in text


def test_a_night_reads_in_the_order_of_its_steps(tmp_path):
    """Seed 004: the mafia shoot, then the Don looks for the Sheriff, then the Sheriff for the
    mafia. The protocol resolves the shot at dawn; the page still tells it first."""
    html = render(read_game(protocol_file(ROOT / "tests/transcripts/classic_en_town_wins.txt", tmp_path)))
    night = " ".join(parse(html[html.index('id="night-1"'):].split("</section>", 1)[0]).text)
    assert night.index("The mafia shoot") < night.index("checks") < night.index("checks", night.index("checks") + 1)


@pytest.mark.e2e
def test_a_speech_the_host_ended_is_not_drawn_as_time_run_out(tmp_path):
    """seed 004 §4.3: a speech ends with "thank you" / "pass" or when its minute runs out — or the
    host cuts it short (`timeout` typed at the console, End speech on the host screen). The report
    drew the host's `timeout` as "time ran out". Played for real: the host ends player 1's speech,
    player 2 says thank you, player 3's time runs out; the journal's report tells the three apart.
    A journal written before the host's `timeout` was marked still reads, resumes and is drawn as
    it always was."""
    import time

    from test_journal_resume import start, wait_for_events

    cfg = tmp_path / "club.toml"
    journal = tmp_path / "game.jsonl"
    cfg.write_text('variant = "classic"\nlanguage = "en"\n[dealing]\nmode = "fixed"\n'
                   'roles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
                   '[timers]\nspeech = 10\n[rules]\nspeech_warning = 0\n[input]\nengine = "none"\n')
    play = start(["play", "--config", str(cfg), "--journal", str(journal), "--no-reveal"], tmp_path)
    play.stdin.write("timeout\ntimeout\ntimeout\n")  # night zero's three meetings (no keypad on a pipe)
    play.stdin.write("timeout\nsay thank you\n")      # the host ends 1's speech; 2 ends his own
    play.stdin.flush()
    wait_for_events(journal, 6)
    time.sleep(12)                                    # 3's ten seconds run out on the clock
    # 4 swears he is a citizen (seed 004 §5): his team loses, and the game is over
    out, err = play.communicate("defeat 4\n", timeout=60)
    assert play.returncode == 0 and "The mafia wins" in out, err
    events = [json.loads(line).get("event") for line in journal.read_text().splitlines()[1:]]
    assert {"type": "timeout", "host": True} in events and events.count({"type": "timeout"}) >= 1, events

    en = report_words("en")
    page = tmp_path / "game.html"
    r = run("report", str(journal), "-o", str(page))
    assert r.returncode == 0, r.stderr
    speeches = [" ".join(li.split()) for li in re.findall(r'<li class="sp-speech">(.*?)</li>', page.read_text())]
    states = [re.sub("<[^>]+>", " ", li) for li in speeches[:3]]
    assert en["speech_ended_by_host"] in states[0] and en["speech_time_ran_out"] not in states[0], states
    assert en["speech_ended_by_host"] not in states[1] and en["speech_time_ran_out"] not in states[1], states
    assert en["speech_time_ran_out"] in states[2] and en["speech_ended_by_host"] not in states[2], states

    # a journal of the narrator before: every `timeout` bare; it reads as it did, and resumes
    # (cut before its end: a game that was going on when the narrator was updated)
    old = tmp_path / "old.jsonl"
    old.write_text(journal.read_text().replace(', "host": true', ""))
    r = run("report", str(old), "-o", str(tmp_path / "old.html"))
    assert r.returncode == 0, r.stderr
    first = re.sub("<[^>]+>", " ", re.findall(r'<li class="sp-speech">(.*?)</li>', (tmp_path / "old.html").read_text())[0])
    assert en["speech_time_ran_out"] in first, first
    cut = [line for line in old.read_text().splitlines() if '"defeat"' not in line and '"end"' not in line]
    old.write_text("\n".join(cut) + "\n")
    resume = start(["resume", "--journal", str(old)], tmp_path)
    out, err = resume.communicate("status\nquit\n", timeout=60)
    assert resume.returncode == 0 and "The game goes on where it stopped." in out, err


def test_a_classic_player_who_leaves_the_table_is_drawn_as_the_table_heard_it(tmp_path):
    """seed 004 §5: «Leave of the gaming table» is a dismissal — the table hears "player 8 leaves
    the table and the game, without last words", by day or by night, and nobody says why. The
    report drew seed 000's "feels unwell and leaves", which nobody at a classic table said. Played
    in English (8 leaves in the middle of day 1's speeches) and from the Russian referee game
    (6 leaves in the night); sverige's unwell player who signals the host at night (seed 000) is
    still drawn so."""
    text = ("deal 1=don 2=mafia 3=mafia 4=sheriff\n"
            "say I nominate player number 7\n" "say thank you\n"
            "leave 8\n"                              # during 2's speech
            "say thank you\n" "say thank you\n" "say thank you\n"
            "defeat 3\n")                            # the game ends: seed 004 §5.1, a mafioso swears
    cfg = parse_config('variant = "classic"\nlanguage = "en"\n[players]\n8 = "<b>Ann</b> & \\"Bo\\""\n', "club.toml")
    out = tmp_path / "day.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        assert replay(text, cfg, fh, name="day.txt").finished
    heard = [json.loads(line).get("text") for line in out.read_text(encoding="utf-8").splitlines()]
    assert "Player 8 leaves the table and the game, without last words." in heard

    html = render(read_game(out, cfg))
    acts = [" ".join(re.sub("<[^>]+>", " ", a).split()) for a in re.findall(r'<p class="act">(.*?)</p>', html)]
    en = report_words("en")
    chip = '8 &lt;b&gt;Ann&lt;/b&gt; &amp; &quot;Bo&quot;'
    assert en["leaving_table"].format(seat=chip) in acts, acts
    assert "unwell" not in html

    ru = report_words("ru")
    night = render(read_game(protocol_file(ROOT / "tests/transcripts/classic_ru_team_defeat.txt", tmp_path)))
    night_acts = [" ".join(re.sub("<[^>]+>", " ", a).split())
                  for a in re.findall(r'<p class="act">(.*?)</p>', page_section(night, "period night" + '" id="night-1'))]
    assert ru["leaving_table"].format(seat="6") in night_acts, night_acts
    assert ru["leaving"].split("{seat}")[1].strip() not in night

    sv = report_words("sv")
    sverige = parse_config('variant = "sverige"\nlanguage = "sv"\nseats = 8\n', "club.toml")
    game = ("deal 1=mafia 2=mafia 3=doctor\n"
            "timeout\n" "timeout\n" "timeout\n"      # day 1 runs out: no extension, nobody nominated
            "tap 1 5\n" "leave 8\n" "tap 2 5\n" "tap 3 3\n")
    out = tmp_path / "sverige.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        replay(game, sverige, fh, name="sverige.txt")
    heard = [json.loads(line).get("text") for line in out.read_text(encoding="utf-8").splitlines()]
    assert "Spelarna 5 och 8 dog i natt." in heard  # seed 000: announced as shot
    html = render(read_game(out, sverige))
    assert sv["leaving"].format(seat="").strip() in " ".join(re.sub("<[^>]+>", " ", html).split())


@pytest.mark.e2e
def test_a_game_stopped_as_the_night_falls_says_so_in_that_night(tmp_path):
    """Read while its game stands at a night just fallen (nothing done in it yet), the report
    drew the day before as its last word, as if the game had ended there; the night it stands in
    is drawn and says the game stopped there."""
    cfg = parse_config('variant = "sverige"\nlanguage = "sv"\nseats = 8\n', "club.toml")
    game = ("deal 1=mafia 2=mafia 3=doctor\n"
            "timeout\n" "timeout\n" "timeout\n")      # day 1 runs out: no extension, nobody nominated
    out = tmp_path / "stopped.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        assert not replay(game, cfg, fh, name="stopped.txt").finished
    said = [e.get("line") for e in map(json.loads, out.read_text(encoding="utf-8").splitlines()) if e["type"] == "say"]
    assert said[-2:] == ["night_falls", "mafia_wakes_kill"], said
    page = tmp_path / "stopped.html"
    r = run("report", str(out), "-o", str(page), "--config", str(_write(tmp_path / "club.toml", cfg.text)))
    assert r.returncode == 1 and "spelet är inte slut" in r.stderr, r.stderr
    html = page.read_text(encoding="utf-8")
    sv = report_words("sv")
    night = page_section(html, 'period night" id="night-1')
    assert sv["stopped_here"] in night, night
    assert html.count(sv["stopped_here"]) == 1 and sv["game_over"] not in html


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ the terminal's words
RUSSIAN_TABLE = ('variant = "classic"\nlanguage = "ru"\nseats = 10\n[players]\n3 = "Вика"\n[dealing]\nmode = "fixed"\n'
                 'roles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n')


@pytest.mark.e2e
def test_a_russian_journal_is_reported_in_russian_and_a_game_of_no_known_language_in_english(tmp_path):
    """Play-test of session 20: `narrator report` said «the game is unfinished …» in English at a
    Russian table. The game's language is the journal's config (or --config); the file and line
    stay as written. A protocol whose language nobody names is told in English, as its page is."""
    journal = tmp_path / "vecher.jsonl"
    cfg = _write(tmp_path / "vecher.toml", RUSSIAN_TABLE + f'[input]\nengine = "none"\n[journal]\npath = "{journal}"\n')
    r = subprocess.run([sys.executable, "-m", "narrator.cli", "play", "--voice", "text", "--config", str(cfg)],
                       input="quit\n", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert journal.exists(), r.stderr
    r = run("report", str(journal), "-o", str(tmp_path / "vecher.html"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"примечание {journal}:" in r.stderr
    assert ": игра не окончена (результата ещё нет): отчёт о том, что было до сих пор" in " ".join(r.stderr.split())
    assert "unfinished" not in r.stderr
    # a damaged line in the middle of it: named by file and line, in Russian
    damaged = tmp_path / "damaged.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    damaged.write_text(lines[0] + "{garbage\n" + "".join(lines[1:]), encoding="utf-8")
    r = run("report", str(damaged), "-o", str(tmp_path / "damaged.html"))
    told = " ".join(r.stderr.split())
    assert f"ошибка {damaged}:2: повреждённая строка журнала; отчёт заканчивается перед ней" in told, r.stderr
    # a file that is no game at all: Russian where --config says so, English where nothing does
    junk = _write(tmp_path / "junk.jsonl", "hello\n")
    r = run("report", str(junk), "--config", str(cfg))
    assert r.returncode == 2 and f"ошибка {junk}:1: не протокол и не журнал narrator (не JSON)" in " ".join(r.stderr.split())
    r = run("report", str(junk))
    assert r.returncode == 2 and f"error {junk}:1: not a narrator protocol or journal (not JSON)" in " ".join(r.stderr.split())


@pytest.mark.parametrize("lang", ["en", "ru", "sv", "hu", "de"])
def test_every_report_note_the_reader_can_give_has_words_in_every_language(lang):
    import re as re_mod

    source = (ROOT / "narrator/report/reader.py").read_text(encoding="utf-8") + (ROOT / "narrator/commands/report.py").read_text(encoding="utf-8")
    keys = set(re_mod.findall(r'why\("(\w+)"', source))
    assert len(keys) >= 15
    voice, en = load_voice(lang), load_voice("en")
    for key in keys:
        assert voice.has_printed("cli", f"report_{key}"), (lang, key)
        fields = set(re_mod.findall(r"{(\w+?)(?:_article)?}", voice.cli[f"report_{key}"]))
        assert fields == set(re_mod.findall(r"{(\w+)}", en.cli[f"report_{key}"])), (lang, key)
