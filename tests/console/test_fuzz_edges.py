"""Fuzzing the edges where text from people enters (issue 10): config files, transcript lines,
console and keypad lines, and companion messages. Whatever arrives: no traceback, an answer that
says what was wrong, and a refused input leaves the game exactly as it was (`simulate.snapshot`).

The example counts keep the whole file well under a minute on a loaded 2-core machine;
NARRATOR_FUZZ_SCALE=50 multiplies them for a deep search.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import examples as profile_examples
from rich.console import Console
from websockets.sync.client import connect

from narrator.commands.terminal import say_error
from narrator.companion import KeypadInput
from narrator.companion.server import MAX_MESSAGE
from narrator.companion.testing import CLASSIC_DEAL, ManualClockSession, Table, own_origin, until
from narrator.config import ConfigError, parse_config
from narrator.console import ConsoleOutput, console_line
from narrator.flow.effects import Record, Reject
from narrator.inputs import InputError, Talk
from narrator.language import load_voice, seat_number
from narrator.rules.variants import VARIANTS
from narrator.session import Session
from narrator.simulate import RandomPlayer, snapshot

def fuzz(examples: int) -> settings:
    # NARRATOR_FUZZ_SCALE=50 for a deep search on a quiet machine; CI runs the small counts
    scale = float(os.environ.get("NARRATOR_FUZZ_SCALE", "1"))
    return settings(max_examples=max(1, int(profile_examples(examples) * scale)), deadline=None, suppress_health_check=list(HealthCheck))

# ---------------------------------------------------------------- what people type

NASTY = ["³", "²", "½", "٣", "３", "Ⅲ", "①", "\x00", "\x07", "\x1b[31m", "\ufeff", "\u2028", "\r", "\t", "[/]", "[bold]",
         "[red]x[/red]", "\\", "#", "=", "+", '"', "{", "}", "nan", "inf", "-1", "0", "99999", "9" * 4301, "a" * 300,
         "yes", "no", "ja", "да", "don", "mafia", "sheriff", "Bürger", "дон", "@x", "@role_don", "{seat}", "{", "%s",
         "1=@x", "3=don", "2=mafia", "5+lover", "4+@x", "cards"]
token = st.one_of(st.sampled_from(NASTY), st.integers(-3, 25).map(str), st.text(max_size=12))
WORDS = ["tap", "say", "deal", "foul", "leave", "timeout", "extend", "status", "pause", "resume", "help", "TAP", "Say"]


def _sentences() -> list[str]:
    out = []
    for lang in ("en", "de", "ru"):
        v = load_voice(lang)
        for patterns in v.commands.values():
            out.extend(p.replace("[", "").replace("]", "").replace("(", "").replace(")", "").split("|")[0] for p in patterns)
    return out


SENTENCES = _sentences()
sentence = st.builds(lambda s, a, b: s.replace("{seat}", a).replace("{by}", b), st.sampled_from(SENTENCES), token, token)
line = st.one_of(
    st.builds(lambda w, ts: " ".join([w, *ts]), st.sampled_from(WORDS), st.lists(token, max_size=4)),
    st.builds(lambda s: "say " + s, sentence),
    sentence,
    st.lists(token, min_size=1, max_size=5).map(" ".join),
    st.text(max_size=60),
    st.integers(0, 20_000).map(lambda n: "say " + "x" * n),
)


# ---------------------------------------------------------------- config text

KEYS = ["variant", "language", "seats", "players", "dealing", "roles", "rules", "timers", "voice", "input", "companion",
        "night", "journal", "mode", "seed", "volume", "rate", "speech", "mafia", "don", "1", "10", "²", "x"]
value = st.recursive(
    st.one_of(st.sampled_from(['"classic"', '"en"', '"de"', '"sverige"', '"[/]"', '"Bob[/]"', '"\\u001b"', "nan", "inf",
                               "-inf", "true", "1e999", "0", "-1", "10", "99999999999999999999", '"³"', '"fixed"']),
              st.integers().map(str), st.floats(allow_nan=True).map(lambda f: repr(f).replace("nan", "nan")),
              st.text(max_size=8).map(json.dumps)),
    lambda inner: st.one_of(st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
                            st.lists(st.tuples(st.sampled_from(KEYS), inner), max_size=3).map(
                                lambda kv: "{" + ", ".join(f'"{k}" = {v}' for k, v in kv) + "}")),
    max_leaves=6,
)
toml_line = st.one_of(
    st.builds(lambda k, v: f'{k} = {v}', st.sampled_from(KEYS).map(lambda k: k if k.isascii() and k.isalnum() else json.dumps(k)), value),
    st.sampled_from(KEYS).map(lambda k: f"[{k}]"),
    st.sampled_from(["[voice.de]", "[[players]]", "[dealing.roles]", "# comment [/]", ""]),
    st.text(max_size=20),
)
config_text = st.builds(lambda head, body: head + "\n".join(body) + "\n",
                        st.sampled_from(['variant = "classic"\nlanguage = "en"\n', 'variant = "grundregeln"\nlanguage = "de"\n',
                                         'variant = "sverige"\nlanguage = "sv"\n', ""]),
                        st.lists(toml_line, max_size=12))


@fuzz(120)
@given(text=config_text)
def test_any_config_text_is_a_config_or_errors_naming_file_line_and_key(text):
    try:
        cfg = parse_config(text, "club.toml")
    except ConfigError as exc:
        assert exc.problems
        lines = text.count("\n") + 1
        for p in exc.problems:
            assert p.file == "club.toml" and 1 <= p.line <= lines and p.key and p.message
            assert len(str(p)) < 600, "a hostile value is quoted cut short"
        out = io.StringIO()
        console = Console(file=out, width=120)
        from narrator.commands import terminal

        saved, terminal.err = terminal.err, console
        try:
            for p in exc.problems:
                say_error(str(p))  # printed literally: markup in a config never raises
        finally:
            terminal.err = saved
        assert out.getvalue().count("error ") >= len(exc.problems)
    else:
        mafia = sum(n for r, n in cfg.roles.items() if r in ("don", "mafia", "protected_mafia"))
        assert 0 < 2 * mafia < cfg.seats, "an accepted config is not decided before it starts"
        assert all(isinstance(s, int) and 1 <= s <= cfg.seats for s in cfg.players)


@fuzz(60)
@given(raw=st.binary(max_size=200))
def test_any_bytes_as_a_config_file(tmp_path_factory, raw):
    from narrator.config import load_config

    f = tmp_path_factory.mktemp("cfg") / "club.toml"
    f.write_bytes(raw)
    try:
        load_config(f)
    except ConfigError as exc:
        assert all(str(f) in str(p) for p in exc.problems)


# ---------------------------------------------------------------- transcript lines

def _game_at(variant: str, seed: int, steps: int) -> Session:
    v = VARIANTS[variant]
    cfg = parse_config(f'variant = "{variant}"\nlanguage = "{ {"classic": "en", "sverige": "sv", "hungariq": "hu", "grundregeln": "de"}[variant]}"\n'
                       f"[dealing]\nseed = {seed}\n")
    s = Session(cfg)
    s.start()
    s.feed(s.dealing_event())
    player = RandomPlayer(random.Random(seed), illegal_rate=0.0)
    for _ in range(steps):
        if s.game.state == "over":
            break
        s.feed(player.legal(s.game))
    assert v.name == s.config.variant.name
    return s


@fuzz(80)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10_000), steps=st.integers(0, 120),
       lines=st.lists(line, min_size=1, max_size=8))
def test_any_transcript_line_is_played_or_refused_in_words_and_a_refusal_changes_nothing(variant, seed, steps, lines):
    s = _game_at(variant, seed, steps)
    for text in lines:
        before = snapshot(s.game)
        try:
            item = s.parse(text)
        except InputError as exc:
            assert str(exc), "a refusal says what was wrong"
            assert snapshot(s.game) == before
            continue
        if item is None or isinstance(item, Talk):
            assert snapshot(s.game) == before
            continue
        effects = s.feed(item)
        if any(isinstance(e, Reject) for e in effects):
            assert snapshot(s.game) == before, f"{text!r} was refused but changed the game"
            for e in effects:
                if isinstance(e, Reject):
                    assert s.render(e.line, e.args)


# ---------------------------------------------------------------- console and keypad lines

class _Recorder:
    def __init__(self):
        self.effects = []

    def handle(self, effect, text):
        self.effects.append(effect)


@pytest.fixture(scope="module")
def console_table():
    """A live game at night one on a loop that runs only when the test turns it."""
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def _live_at(loop, seed: int, steps: int):
    cfg = parse_config(CLASSIC_DEAL.replace('[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n',
                                            f"[dealing]\nseed = {seed}\n") + '[players]\n2 = "Bob[/]"\n3 = "[bold]Eve"\n')
    live = ManualClockSession(cfg, None)
    live.loop, live.queue = loop, asyncio.Queue()
    out = io.StringIO()
    rec = _Recorder()
    live.outputs = [ConsoleOutput(live, Console(file=out, width=200, highlight=False), clear_at_dawn=False), rec]
    live._dispatch(live.start_effects())
    live._apply(live.session.dealing_event())
    player = RandomPlayer(random.Random(seed), illegal_rate=0.0)
    for _ in range(steps):
        if live.game.state == "over":
            break
        live._apply(player.legal(live.game))
    return live, out, rec


def _turn(loop, live) -> None:
    for _ in range(3):
        loop.run_until_complete(asyncio.sleep(0))
    while not live.queue.empty():
        live._handle(*live.queue.get_nowait())


@fuzz(40)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80), lines=st.lists(line, min_size=1, max_size=6))
def test_any_console_line_is_answered_and_a_refusal_changes_nothing(console_table, seed, steps, lines):
    loop = console_table
    live, out, rec = _live_at(loop, seed, steps)
    keypad = KeypadInput(live)
    console = Console(file=out, width=200, highlight=False)
    for text in lines:
        before, printed, seen = snapshot(live.game), len(out.getvalue()), len(rec.effects)
        # a seat typed at night is the keypad's: it never answers, so the screen tells nothing of
        # whether the awake role lives (docs/explanation/leak-free-night.md)
        keypad_line = live.game.state == "night" and seat_number(text.strip().lstrip("\ufeff").strip()) is not None
        console_line(live, text, console, keypad)
        _turn(loop, live)
        new = rec.effects[seen:]
        accepted = any(isinstance(e, Record) and e.entry["type"] == "input" for e in new)
        word = text.strip().lstrip("\ufeff").split()[0].lower() if text.strip().lstrip("\ufeff").strip() else ""
        if not accepted:
            assert snapshot(live.game) == before, f"{text!r} changed the game without being taken"
            if word and word not in ("resume", "quit", "pause") and not keypad_line:  # a lone BOM is an empty line
                assert len(out.getvalue()) > printed, f"{text!r} got no answer"
        live.stopped = False
        if live.paused:
            live._control("resume")


# ---------------------------------------------------------------- companion messages

json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 12), st.integers(), st.floats(allow_nan=False),
              st.sampled_from(["tap", "host", "nominate", "foul", "revoke", "end_speech", "pause", "[/]", "³", "", "x" * 500])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["t", "seat", "n", "epoch", "target", "answer", "token", "pin"]), inner, max_size=6)),
    max_leaves=8,
)
message = st.one_of(
    st.fixed_dictionaries({"t": st.sampled_from(["tap", "tap", "nominate", "foul", "revoke", "start", "zz", 3])},
                          optional={"seat": json_value, "n": json_value, "epoch": json_value, "target": json_value,
                                    "answer": json_value}).map(json.dumps),
    json_value.map(json.dumps),
    st.text(max_size=40),
    st.just("[" * 5000 + "]" * 5000),
)


class _Companion:
    """A live table with its companion served from a thread, so hypothesis can drive it from the test."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.done: asyncio.Event | None = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),), daemon=True)
        self.thread.start()
        assert self.ready.wait(30), "the companion did not start"

    async def _main(self):
        self.done = asyncio.Event()
        async with Table(parse_config(CLASSIC_DEAL)) as t:
            self.t = t
            await t.join_all()
            await t.to_night_one()
            self.ready.set()
            await self.done.wait()

    def run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(20)

    async def _settle(self):
        await self.t.settle()
        await asyncio.sleep(self.t.companion.hub.ack_delay * 2)

    def state(self):
        """The game and the companion's books once everything sent has been handled (quiet twice)."""
        async def take():
            seen = None
            for _ in range(40):
                await self._settle()
                now = (snapshot(self.t.live.game), len(self.t.records), len(self.t.companion.hub.refused),
                       len(self.t.companion.hub.phones) + len(self.t.companion.hub.hosts))
                if now == seen:
                    return now[:3]
                seen = now
            return seen[:3]

        return self.run(take())

    def close(self):
        self.loop.call_soon_threadsafe(self.done.set)
        self.thread.join(15)


@pytest.fixture(scope="module")
def companion():
    c = _Companion()
    yield c
    c.close()


@fuzz(25)
@given(who=st.sampled_from(["don", "citizen", "host", "stranger"]), msgs=st.lists(message, min_size=1, max_size=6))
def test_any_companion_message_is_refused_or_played_and_the_server_lives_on(companion, caplog, who, msgs):
    t = companion.t
    hub = t.companion.hub
    before, records, refused = companion.state()
    # the seats' links were spent when the phones joined: a phone comes back with its device key
    hello = {"don": {"t": "hello", "key": hub.device_keys[1]}, "citizen": {"t": "hello", "key": hub.device_keys[5]},
             "host": {"t": "host", "pin": hub.pin}}.get(who)
    with caplog.at_level(logging.ERROR):
        try:
            with connect(t.ws_url, origin=own_origin(t.ws_url), open_timeout=5, close_timeout=1, max_size=2**20) as ws:
                first = msgs if hello is None else [json.dumps(hello), *msgs]
                for m in first:
                    ws.send(m)
        except Exception:  # the server may close a refused connection: that is its answer
            pass
        after, records_after, refused_after = companion.state()
    # the server's side only: the test's own client may complain about a socket the server cut
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and not r.name.startswith("websockets.client")]
    assert not errors, "a message raised inside the companion"
    accepted = any(e.get("type") == "input" for e in t.records[records:records_after])
    if not accepted and who != "host":
        assert after == before, f"{msgs} changed the game without being taken"
    if who == "stranger" and all(len(m.encode()) <= MAX_MESSAGE for m in msgs):  # longer: the socket is cut (1009)
        assert refused_after > refused, "a stranger is refused and logged"
    # the server still answers a phone
    with connect(t.ws_url, origin=own_origin(t.ws_url), open_timeout=5) as ws:
        ws.send(json.dumps({"t": "hello", "key": hub.device_keys[7]}))
        assert json.loads(ws.recv(timeout=5))["t"] == "welcome"
