"""A table that votes on its phones ([companion] votes = true) never hears "raise your hand".

Seed 000 calls the Swedish vote as a show of hands («räcka upp sin hand … NU!»), seed 001 the
HungarIQ votes on a count of three, seed 003 has everyone point. Where the phones take the votes,
the narrator calls the same vote at the same moment in the phones' words («Vem röstar på spelare
7? Rösta i telefonen. NU!»), counts votes, not hands, and says nobody voted where nobody did — and a
table without phone votes still hears the hands. Only the words differ: who may vote, when, and
what counts are the same game, live, resumed from the journal and read back from it."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.days import Game
from narrator.flow.effects import Record, Reject, Say
from narrator.flow.events import Deal, EndSpeech, Nominate, Tap, Timeout
from narrator.flow.game import PHONE_TWINS
from narrator.journal import read
from narrator.language import ARTICLE_SUFFIX, LANGUAGES, load_voice, plural_categories
from narrator.report.reader import read_game
from narrator.rules.dealing import deal
from narrator.rules.variants import VARIANTS
from narrator.session import Session, as_played
from narrator.simulate import RandomPlayer, defaults

ROOT = Path(__file__).resolve().parents[2]

# a raised hand, a count of three or a pointing finger, as each language says it ("Handy" is a phone)
HANDS = {
    "en": r"\bhands?\b|\braise|\bon three\b|one, two|\bpoint",
    "sv": r"\bhand(en|er)?\b|händer|räck|\bpå tre\b|ett, två|\bpeka",
    "de": r"\bHand\b|\bHände\b|gehoben|\bhoch\b|auf drei|eins, zwei|\bzeigt",
    "ru": r"рук|подним|на счёт три|раз, два|укажите",
    "hu": r"\bkéz|\bkez[eéo]|háromra|egy, kettő|mutass",
}


def hands(lang: str, text: str) -> bool:
    return re.search(HANDS[lang], text, re.I) is not None


def texts(template) -> list[str]:
    return list(template.values()) if isinstance(template, dict) else [template]


def fields(template) -> set[str]:
    return {f.removesuffix(ARTICLE_SUFFIX) for t in texts(template) for f in re.findall(r"\{(\w+)\}", t)}


# ------------------------------------------------------------------ the words
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_vote_line_has_a_phone_twin_in_every_language_with_no_hand_in_it(lang):
    """The completeness of the phones' words: each line that calls or counts a vote by hand has
    its `_phones` twin in every language, taking the same values (and every plural form)."""
    voice = load_voice(lang)
    for line in PHONE_TWINS:
        twin = voice.lines.get(line + "_phones")
        assert twin is not None, f"{lang}: {line}_phones is missing"
        assert fields(twin) == fields(voice.lines[line]), f"{lang}: {line}_phones"
        if isinstance(voice.lines[line], dict):
            assert set(twin) == set(plural_categories(lang)), f"{lang}: {line}_phones"
        assert not any(hands(lang, t) for t in texts(twin)), f"{lang}: {line}_phones: {twin}"
    # the hands are there to be replaced: the Swedish call and the HungarIQ count say them
    assert hands(lang, voice.render("hand_vote", {"seat": 7}))
    assert hands(lang, voice.render("accusation_count", {"n": 3}))


def test_the_twins_are_exactly_the_lines_the_core_words_by_the_table():
    source = "\n".join(p.read_text() for p in (ROOT / "narrator" / "flow").glob("*.py"))
    assert set(re.findall(r'_vote_line\("([a-z_]+)"\)', source)) == PHONE_TWINS


# ------------------------------------------------------------------ the same game, other words
def random_game(variant_name: str, seed: int, phones: bool) -> list:
    variant = VARIANTS[variant_name]
    rules, timers = defaults(variant)
    seats = variant.default_seats
    counts = variant.roles_for(seats)
    rng = random.Random(seed)
    g = Game(variant, rules, timers, seats, roles=counts, votes_on_phones=phones)
    effects = g.start() + g.apply(Deal(tuple(sorted(deal(counts, seats, rng).items()))))
    player = RandomPlayer(rng, illegal_rate=0.05, skill=0.5)
    while g.state != "over" and len(effects) < 20000:
        effects += g.apply(player.illegal(g) if rng.random() < 0.05 else player.legal(g))
    g.close()
    return effects


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_phone_table_plays_the_same_game_and_hears_only_other_words(variant):
    """Random games (refused inputs too), once with hands and once on the phones: every record is
    the same, and every line is the same line or its phones' twin — so a vote is counted alike."""
    twins = 0
    for seed in range(8):
        hand, phone = random_game(variant, seed, False), random_game(variant, seed, True)
        assert [e.entry for e in hand if isinstance(e, Record)] == [e.entry for e in phone if isinstance(e, Record)]
        said_hand = [(e.line, e.args) for e in hand if isinstance(e, Say)]
        said_phone = [(e.line.removesuffix("_phones"), e.args) for e in phone if isinstance(e, Say)]
        assert said_hand == said_phone
        assert not any(e.line.endswith("_phones") for e in hand if isinstance(e, Say))
        twins += sum(e.line.endswith("_phones") for e in phone if isinstance(e, Say))
        refused_hand = [e.entry["reason"] for e in hand if isinstance(e, Record) and e.entry["type"] == "rejected"]
        assert all(not r.endswith("_phones") for r in refused_hand)
    # classic calls its vote in words that fit both ("Vote now."): it has no twin to say
    assert (twins > 0) == (variant != "classic"), twins


def session(variant: str, lang: str, deal_: str, phones: bool, seats: int = 8) -> Session:
    cfg = parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\nseats = {seats}\n[dealing]\nmode = "fixed"\n'
                       f"roles = {{ {deal_} }}\n" + ("[companion]\nvotes = true\n" if phones else ""))
    s = Session(cfg, fixed_night_steps=True)  # as a live table: every night step runs its time
    s.start()
    s.feed(s.dealing_event())
    return s


def play(s: Session, *lines: str) -> list[str]:
    """The lines typed at the table; what the narrator says and answers, in the table's words."""
    out = []
    for line in lines:
        for e in s.feed(s.parse(line)):
            if isinstance(e, Say):
                out.append(s.render(e.line, e.args))
            elif isinstance(e, Reject):
                out.append("✗ " + s.render(e.line, e.args))
    return out


SV_DEAL = '1 = "mafia", 2 = "mafia", 3 = "doctor"'
# night zero's meeting; day 1: 3 nominates 7, the day's time, the extension's call, the last call
SV_TO_VOTE = ["timeout", "say tre nominerar sju", "timeout", "timeout", "timeout", "say tack"]
# the same, typed at a live table: each night step's line heard before its timeout
SV_LIVE = ["?Maffian vaknar och ser varandra.", "timeout", "?Byn vaknar. Dag 1.", *SV_TO_VOTE[1:]]


@pytest.mark.parametrize("phones", [True, False], ids=["phones", "hands"])
def test_a_swedish_vote_is_called_on_the_phones_or_by_hand_and_counted_alike(phones):
    """seed 000 Röstning: «De som vill rösta på X ska: räcka upp sin hand. NU!», one name at a
    time, late hands do not count, and with no hand raised nobody hangs. On the phones: the call,
    a refused "no", a late vote and the day with no vote in the phones' words; by hand, as ever."""
    s = session("sverige", "sv", SV_DEAL, phones)
    said = play(s, *SV_TO_VOTE)
    call = "Vem röstar på spelare 7? Rösta i telefonen. NU!" if phones else "De som vill rösta på spelare 7 ska räcka upp sin hand. NU!"
    assert said[-1] == call
    said = play(s, "tap 6 nej", "tap 1 7", "tap 2 7", "timeout")
    assert said[0] == ("✗ Ingen röst på spelare 7: inget att räkna." if phones
                       else "✗ Ingen hand uppräckt för spelare 7: ingen röst att räkna.")
    assert said[1:3] == ["Spelare 7: 2 röster.", "Spelare 7 hängs."]
    assert 7 not in s.game.alive
    # night 1: the mafia shoot nobody, the doctor and everything else sleep through
    while s.game.state == "night":
        play(s, "timeout")
    said = play(s, "say tre nominerar fem", "say fyra nominerar sex", "timeout", "timeout", "timeout", "say tack",
                "say tack", "timeout", "tap 1 5")
    assert said[-3:] == (["Spelare 5: 0 röster.", "Vem röstar på spelare 6? Rösta i telefonen. NU!",
                          "✗ För sent: rösterna på spelare 5 är redan räknade."] if phones
                         else ["Spelare 5: 0 röster.", "De som vill rösta på spelare 6 ska räcka upp sin hand. NU!",
                               "✗ För sent: händerna för spelare 5 är redan räknade."])
    said = play(s, "timeout")
    assert said == ["Spelare 6: 0 röster.", "Ingen röstade: ingen hängs i dag." if phones
                    else "Ingen räckte upp handen: ingen hängs i dag.", "Det blir natt. Byn somnar.",
                    "Maffian vaknar och enas om vem som ska skjutas."]


def test_a_german_pointing_on_the_phones_is_a_choice_on_the_phone():
    """seed 003: «alle zeigen» — with the phones taking the votes nobody points with a finger:
    the narrator asks them to choose on the phone; the rules' own word, pointing, stays where it
    names the vote (the host's «Spieler 3 zeigt auf:», "You cannot point at yourself")."""
    for phones, line in ((True, "Alle: Wählt am Handy den Spieler, den ihr lynchen wollt. Jetzt!"),
                         (False, "Alle: Zeigt auf den Spieler, den ihr lynchen wollt. Jetzt!")):
        s = session("grundregeln", "de", '1 = "mafia", 2 = "mafia", 3 = "mafia"', phones)
        said = play(s, "tap 1 8", "tap 2 8", "tap 3 8", "timeout", "timeout")
        assert said[-1] == line, said


def test_a_resumed_phone_table_hears_where_it_is_as_a_hand_table_does():
    """A resume says the lines that opened the running step, never the news that closed the one
    before (README: After a crash). Resumed in the trial's discussion (seed 001), a phone table
    hears «The accusation stands…», not again how many voted for it — as a table of hands does;
    and anywhere in random days of every variant with twins, the phone table is told the same
    lines as the hand table, in its own words."""
    from narrator.live import LiveSession

    def resumed(variant: str, phones: bool, events: list, extra: str = "") -> list[str]:
        cfg = parse_config(f'variant = "{variant}"\nlanguage = "en"\n{extra}' + ("[companion]\nvotes = true\n" if phones else ""),
                           "club.toml")
        return [e.line for e in LiveSession(cfg, None).start_effects(replayed=list(events)) if isinstance(e, Say)]

    trial = 'seats = 8\n[dealing]\nmode = "fixed"\nroles = { 1 = "protected_mafia", 2 = "mafia", 3 = "inspector" }\n'
    deal_ = parse_config('variant = "hungariq"\nlanguage = "en"\n' + trial)
    events = [Session(deal_).dealing_event(), Timeout(), Timeout(), Nominate(7, 3), *(Tap(s, None, True) for s in range(1, 9))]
    assert resumed("hungariq", True, events, trial) == resumed("hungariq", False, events, trial) == ["resuming", "accusation_stands"]

    for variant in ("sverige", "hungariq", "grundregeln"):
        for seed in range(4):
            extra = f'[dealing]\nmode = "seeded"\nseed = {seed}\n'
            probe = LiveSession(parse_config(f'variant = "{variant}"\nlanguage = "en"\n{extra}', "club.toml"), None)
            probe.start_effects()
            g, rng = probe.game, random.Random(seed)
            player, events = RandomPlayer(rng, skill=0.5), [probe.session.dealing_event()]
            probe.session.feed(events[0])
            while g.state != "over" and len(events) < 600:
                events.append(player.legal(g))
                probe.session.feed(events[-1])
                if g.state != "night" and rng.random() < 0.2:
                    phone, hand = resumed(variant, True, events, extra), resumed(variant, False, events, extra)
                    assert [line.removesuffix("_phones") for line in phone] == hand, (variant, g.state, phone)


# ------------------------------------------------------------------ whole games with phones
class Heard:
    """An output that keeps what the narrator says, in the table's words."""

    def __init__(self):
        self.lines: list[str] = []

    def handle(self, effect, text) -> None:
        if isinstance(effect, Say):
            self.lines.append(text)


def phone_table(variant: str, lang: str, roles: str, phones: bool) -> Table:
    return Table(parse_config(f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n[dealing]\nroles = {{ {roles} }}\n'
                              + ("[companion]\nvotes = true\n" if phones else "")))


@pytest.mark.parametrize("phones", [True, False], ids=["phones", "hands"])
def test_a_swedish_table_votes_on_its_phones_and_hears_no_hand(phones):
    """A sverige-sv game with the companion: the day's vote tapped on the phones is called and
    counted without a hand in it, the phones show the narrator's call, and the votes count; the
    same game with the phones at night only hears «räcka upp sin hand» and votes at the console."""
    async def main():
        async with phone_table("sverige", "sv", '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"', phones) as t:
            heard = Heard()
            t.live.outputs.append(heard)
            ps = await t.join_all()
            await t.to_first_day()
            await t.to_hand_vote((7, 3), (8, 5))
            await until(lambda: ps[1].screen["state"] == "hand_vote")
            call = load_voice("sv").render("hand_vote_phones" if phones else "hand_vote", {"seat": 7})
            assert call in heard.lines and call in ps[1].screen["caption"]
            assert (ps[1].screen["ask"] == "seat") == phones, "the phones vote only where the table votes on them"

            async def vote(seat: int, target: int) -> None:
                if phones:
                    assert (await ps[seat].tap(target))["ok"]
                else:
                    t.live.submit_event(Tap(seat, target))
                    await t.settle()

            for s in (1, 2, 3):
                await vote(s, 7)
            t.live.fire()
            await until(lambda: t.live.game.ballot_index == 1)
            if phones:
                # a player taps what his screen shows: the call for 8 reaches every phone before a tap
                await until(lambda: all(ps[s].screen["choices"] == [8] for s in (4, 5, 6, 9)), what="8's call on the phones")
            for s in (4, 5, 6, 9):
                await vote(s, 8)
            t.live.fire()
            await t.settle()
            assert t.recorded("vote", "voter", "seat") == [(1, 7), (2, 7), (3, 7), (4, 8), (5, 8), (6, 8), (9, 8)]
            assert 8 not in t.live.game.alive
            assert "Spelare 7: 3 röster." in heard.lines and "Spelare 8: 4 röster." in heard.lines
            day = heard.lines[heard.lines.index("Byn vaknar. Dag 1."):]
            assert any(hands("sv", line) for line in day) != phones, day

    asyncio.run(main())


@pytest.mark.parametrize("phones", [True, False], ids=["phones", "hands"])
def test_a_hungarian_table_votes_on_its_phones_and_hears_no_hand(phones):
    """A hungariq-hu game with the companion (seed 001: support on a count of three, the trial,
    the execution vote): on the phones no «kéz» and no «háromra», the votes counted as votes;
    without phone votes the table hears the hands."""
    async def main():
        async with phone_table("hungariq", "hu", '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"', phones) as t:
            heard = Heard()
            t.live.outputs.append(heard)
            ps = await t.join_all()
            await t.to_first_day()
            t.live.submit_event(Nominate(2, by=5))
            await until(lambda: ps[1].screen["state"] == "support_vote")
            hu = load_voice("hu")
            assert hu.render("accusation_phones" if phones else "accusation", {"seat": 2}) in ps[1].screen["caption"]

            async def vote(seat: int, yes: bool) -> None:
                if phones:
                    assert (await ps[seat].tap(answer=yes))["ok"]
                else:
                    t.live.submit_event(Tap(seat, None, yes))
                    await t.settle()

            for s in range(1, 11):
                await vote(s, s >= 4)
            await until(lambda: t.live.game.state == "debate")
            t.live.submit_event(EndSpeech())  # the discussion ends
            t.live.submit_event(EndSpeech())  # the accused's last word ends
            await until(lambda: ps[1].screen["state"] == "execution_vote")
            for s in (4, 5, 6, 7, 8, 9, 10):
                await vote(s, True)
            t.live.fire()  # the mafia kept their votes: the window closes
            await until(lambda: 2 not in t.live.game.alive)
            await t.settle()
            assert t.recorded("vote_result", "round", "yes", "passed") == [("support_vote", 7, True), ("execution_vote", 7, True)]
            counts = (["7 szavazat a vád mellett.", "7 szavazat a kivégzés mellett."] if phones
                      else ["7 kéz a vád mellett.", "7 kéz a kivégzés mellett."])
            assert all(c in heard.lines for c in counts), heard.lines
            assert (hu.render("execution_vote_phones" if phones else "execution_vote", {"seat": 2}) in heard.lines)
            day = heard.lines[heard.lines.index("Eljön a reggel, mindenki felébred. 1. nap."):]
            assert any(hands("hu", line) for line in day) != phones, day

    asyncio.run(main())


# ------------------------------------------------------------------ played, killed, resumed, read back
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Narrator:
    """A real `narrator play` or `narrator resume`, its console read as it prints."""

    def __init__(self, args: list[str], home: Path):
        env = {**os.environ, "HOME": str(home), "PYTHONUNBUFFERED": "1", "COLUMNS": "250"}
        self.proc = subprocess.Popen([sys.executable, "-m", "narrator.cli", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
        self.out: list[str] = []
        self._reader = threading.Thread(target=lambda: self.out.extend(iter(self.proc.stdout.readline, "")), daemon=True)
        self._reader.start()

    def said(self) -> list[str]:
        return [line[2:].rstrip("\n") for line in self.out if line.startswith("» ")]

    def wait_for(self, text: str, times: int = 1, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while sum(text in line for line in list(self.out)) < times:
            assert time.monotonic() < deadline and self.proc.poll() is None, \
                f"never printed {text!r}:\n{''.join(self.out)[-3000:]}"
            time.sleep(0.05)

    def play(self, steps: list[str]) -> None:
        """Type each line; "?text" waits until the narrator has printed text (a night step's line:
        a timeout typed before its step runs would end nothing)."""
        for step in steps:
            if step.startswith("?"):
                self.wait_for(step[1:])
            else:
                self.type(step)

    def type(self, *lines: str) -> None:
        for line in lines:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            time.sleep(0.05)

    def end(self, kill: bool) -> None:
        if kill:
            self.proc.send_signal(signal.SIGKILL)
        else:
            self.type("quit")
        self.proc.wait(timeout=30)
        self._reader.join(timeout=5)


def club(variant: str, lang: str, roles: str, companion: bool, timers: str) -> str:
    return (f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 8\n[dealing]\nmode = "fixed"\nroles = {{ {roles} }}\n'
            f"[timers]\nnight_step = 120\nnight_zero_step = 120\n{timers}\n"
            f'[companion]\nenabled = {str(companion).lower()}\nhost = "127.0.0.1"\nport = {free_port()}\nvotes = true\n'
            '[input]\nengine = "none"\n[voice]\noutput = "text"\n')


GAMES = {
    # (config, typed before the crash, the last console note before it and how many times it is
    # printed by then, typed after the resume)
    "sverige-sv": (("sverige", "sv", SV_DEAL, "hand_vote = 30"),
                   SV_LIVE + ["tap 1 7", "tap 2 7"], ("spelare 2 röstar på spelare 7", 1),
                   ["tap 3 7", "timeout"]),
    "hungariq-hu": (("hungariq", "hu", '1 = "protected_mafia", 2 = "mafia", 3 = "inspector"', "support_vote = 30\nexecution_vote = 30"),
                    ["?A felügyelő felébred, és felfedi magát.", "timeout", "?A maffiózók felébrednek", "timeout",
                     "?1. nap.", "say a 3 vádat emel a 7 ellen", *(f"tap {s} igen" for s in range(1, 9)),
                     "timeout", "timeout", "tap 3 igen", "tap 4 igen"],
                    # seat 4's yes to the support vote, then to the execution vote
                    ("4. játékos, igen", 2),
                    ["tap 5 igen", "tap 6 igen", "tap 8 igen", "timeout"]),
}


@pytest.mark.e2e
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_phone_vote_game_resumed_mid_vote_and_read_back_from_its_journal_says_the_same_lines(game, tmp_path):
    """`narrator play` with the companion and phone votes, killed (kill -9) in the middle of a day
    vote: `narrator resume` calls that vote again in the phones' words, counts it on, and the
    journal read back (the report's replay of it) gives every line the table heard, word for word.
    A journal of this game whose companion did not run reads back with hands, the same game."""
    (variant, lang, roles, timers), before, note, after = GAMES[game]
    cfg = tmp_path / "club.toml"
    cfg.write_text(club(variant, lang, roles, True, timers))
    journal = tmp_path / "game.jsonl"
    voice = load_voice(lang, variant)
    played = Narrator(["play", "--config", str(cfg), "--journal", str(journal), "--voice", "text"], tmp_path)
    played.wait_for(voice.render("welcome", {"n": 8}))
    played.type("start")  # no phone has said Ready: the host starts night zero
    played.wait_for(voice.render("night_zero_falls", {}))
    played.play(before)
    played.wait_for(*note)  # the last vote is journaled (fsynced) before its note is printed
    played.end(kill=True)

    resumed = Narrator(["resume", "--journal", str(journal), "--voice", "text"], tmp_path)
    resumed.wait_for(voice.render("resuming", {}))
    call = ("hand_vote_phones", {"seat": 7}) if variant == "sverige" else ("execution_vote_phones", {"seat": 7})
    resumed.wait_for(voice.render(*call))
    resumed.type(*after)
    resumed.wait_for(voice.render("night_falls", {}))
    resumed.end(kill=False)

    first, again = played.said(), resumed.said()
    assert again[:2] == [voice.render("resuming", {}), voice.render(*call)], again
    heard = first + again[2:]
    assert not any(hands(lang, line) for line in heard), heard
    assert voice.render(*call) in first
    counted = "Spelare 7: 3 röster." if variant == "sverige" else "5 szavazat a kivégzés mellett."
    assert counted in again

    record = read_game(journal)
    assert [voice.render(e["line"], e["args"]) for e in record.entries if e["type"] == "say"] == heard

    # the same journal, had its companion not run (as a game before phone votes): the same game, with hands
    header, *rest = journal.read_text().splitlines()
    old = json.loads(header)
    old["mode"]["companion"] = False
    old["config_text"] = old["config_text"].replace("enabled = true", "enabled = false")
    handed = tmp_path / "handed.jsonl"
    handed.write_text("\n".join([json.dumps(old), *rest]) + "\n")
    by_hand = read_game(handed)
    assert [e for e in by_hand.entries if e["type"] != "say"] == [e for e in record.entries if e["type"] != "say"]
    assert [e["line"] for e in by_hand.entries if e["type"] == "say"] == [
        e["line"].removesuffix("_phones") for e in record.entries if e["type"] == "say"]
    assert read(handed).events == read(journal).events


@pytest.mark.e2e
def test_votes_on_phones_without_the_companion_are_hands(tmp_path):
    """`[companion] votes = true` in a club's config, but `narrator play` without the companion
    (no --companion, enabled = false): there are no phones to vote on, so the table raises its
    hands and hears so — as its journal says when resumed."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(club("sverige", "sv", SV_DEAL, False, "hand_vote = 30"))
    assert not as_played(parse_config(cfg.read_text()), False).section("companion")["votes"]
    assert as_played(parse_config(cfg.read_text()), True).section("companion")["votes"]
    journal = tmp_path / "game.jsonl"
    played = Narrator(["play", "--config", str(cfg), "--journal", str(journal), "--voice", "text", "--no-reveal"], tmp_path)
    played.play(SV_LIVE)
    sv = load_voice("sv")
    played.wait_for(sv.render("hand_vote", {"seat": 7}))
    played.end(kill=True)
    resumed = Narrator(["resume", "--journal", str(journal), "--voice", "text"], tmp_path)
    resumed.wait_for(sv.render("hand_vote", {"seat": 7}))
    resumed.end(kill=False)
    assert sv.render("hand_vote_phones", {"seat": 7}) not in "".join(played.out + resumed.out)


@pytest.mark.e2e
def test_a_game_begun_by_hand_and_resumed_with_phones_takes_its_votes_on_them_from_there(tmp_path):
    """`narrator play` without phones, killed (kill -9) in the middle of a Swedish hand vote, then
    `narrator resume --companion`: the phones come to the table, so the vote that runs is called
    again as they take it («Rösta i telefonen. NU!») and counted as votes. The journal notes where
    they joined: the report reads every line as the table heard it — the hands before, the phones
    after — and a plain `narrator resume` later comes back with the phones (README: After a crash)."""
    cfg = tmp_path / "club.toml"
    cfg.write_text(club("sverige", "sv", SV_DEAL, False, "hand_vote = 30"))
    journal = tmp_path / "game.jsonl"
    sv = load_voice("sv", "sverige")
    played = Narrator(["play", "--config", str(cfg), "--journal", str(journal), "--voice", "text", "--no-reveal"], tmp_path)
    played.play(SV_LIVE)
    played.wait_for(sv.render("hand_vote", {"seat": 7}))
    played.type("tap 1 7")
    played.wait_for("spelare 1 röstar på spelare 7")
    played.end(kill=True)
    assert read(journal).companion_from is None

    resumed = Narrator(["resume", "--journal", str(journal), "--voice", "text", "--companion"], tmp_path)
    call = sv.render("hand_vote_phones", {"seat": 7})
    resumed.wait_for(call)
    contents = read(journal)
    assert contents.companion_from == len(contents.events), "the phones joined where the game stood"
    resumed.type("tap 2 7", "tap 3 7")
    resumed.wait_for("spelare 3 röstar på spelare 7")
    resumed.end(kill=True)
    # killed once more: a resume without --companion knows the phones are at the table
    again = Narrator(["resume", "--journal", str(journal), "--voice", "text"], tmp_path)
    again.wait_for(call)
    again.type("timeout")
    again.wait_for(sv.render("night_falls", {}))
    again.end(kill=False)

    first, second, third = played.said(), resumed.said(), again.said()
    assert sv.render("hand_vote", {"seat": 7}) in first and call not in first, first
    assert second[:2] == [sv.render("resuming", {}), call], second
    assert third[:2] == [sv.render("resuming", {}), call], third
    assert "Spelare 7: 3 röster." in third, third
    assert not any(hands("sv", line) for line in second + third)
    # the keypad's explanation is the table's, said by the command line when a game without phones begins
    keypad = {sv.render("keypad_masking", {}), sv.render("keypad_masking_sound", {})}
    heard = [line for line in first if not any(k.startswith(line) for k in keypad)] + second[2:] + third[2:]
    record = read_game(journal)
    assert [sv.render(e["line"], e["args"]) for e in record.entries if e["type"] == "say"] == heard
    assert [(e["voter"], e["seat"]) for e in record.entries if e["type"] == "vote"] == [(1, 7), (2, 7), (3, 7)]


def test_the_note_of_the_phones_joining_is_read_as_a_journal_line_and_a_damaged_one_is_named(tmp_path):
    """The journal's "companion" line counts the inputs before it; one that is not `true` is
    damage, named in the table's words like any other damaged line."""
    from narrator.journal import DamagedJournal, Journal

    path = tmp_path / "game.jsonl"
    j = Journal.create(path, "club.toml", 'variant = "sverige"\nlanguage = "sv"\n', {"companion": False})
    j.append(Timeout())
    j.companion_joined()
    j.append(Timeout())
    j.close()
    contents = read(path)
    assert (contents.companion_from, len(contents.events)) == (1, 2)
    path.write_text(path.read_text().replace('"companion": true', '"companion": "yes"'))
    with pytest.raises(DamagedJournal) as exc:
        read(path)
    assert exc.value.line == 3 and "en skadad anteckning om att telefonerna anslöt till spelet" in exc.value.said(load_voice("sv"))
