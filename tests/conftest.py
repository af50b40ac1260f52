"""Shared helpers: a table that plays a classic game line by line, as a transcript would."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from narrator.config import parse_config
from narrator.flow.effects import Record, Reject, Say, Tell, Timer
from narrator.inputs import InputError
from narrator.session import Session

STANDARD_DEAL = "1=sheriff 2=don 3=mafia 4=mafia"


# Hypothesis profiles: "ci" (the default, the README's test command) draws each test's own count,
# sized to the suite's time budget; "thorough" (HYPOTHESIS_PROFILE=thorough, a nightly or local
# run) draws ten times more of each.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.register_profile("ci", deadline=None, suppress_health_check=list(HealthCheck))
settings.register_profile("thorough", deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """A property test's number of drawn examples under the running profile."""
    return n * 10 if PROFILE == "thorough" else n


# what drives a real process, terminal, sound card, speech model or browser: the whole suite runs
# it, the fast loop (`-m "not e2e"`) leaves it out
E2E_FOLDERS = {"browser", "e2e"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if E2E_FOLDERS & set(Path(str(item.path)).relative_to(Path(__file__).parent).parts[:-1]):
            item.add_marker(pytest.mark.e2e)
    # the sound-card tests that measure on the real clock first, one after another on the first
    # worker (xdist hands each worker a block of the list), beside the others; then the long ones
    # (browser games, then the other real processes): the workers steal the short in-process tests
    # from the ends of each other's queues, not a last browser game
    items.sort(key=lambda item: (-1 if item.get_closest_marker("realtime") else 0 if "browser" in item.path.parts
                                 else 1 if item.get_closest_marker("e2e") else 2))


# The suite runs a process per core and more (pyproject's addopts): most tests wait on a clock, a
# process or a page. A test that measures on the real clock what a sound card heard (a night
# step's silence, a word's timing) must not wait for a processor. Where the system lets a process
# raise its priority (root, as CI is), the workers run at nice 10 and such a test, with the narrator
# and speech processes it starts, at nice -10: it runs beside the others, one such test at a time,
# and the scheduler hands it a core the moment it wakes (a 1:290 weight). Elsewhere it runs alone:
# it waits at a turnstile until the tests beside it are done, and the others wait for it.
BEHIND = 10
AHEAD = -10


def _priority(nice: int) -> bool:
    """This process's nice level set to `nice`, where the system lets it."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    except OSError:
        return False
    return True


def pytest_configure(config):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _priority(BEHIND)


@pytest.fixture(autouse=True)
def _a_sound_card_test_runs_ahead(request, tmp_path_factory):
    """A realtime test runs ahead of the others (or, where priorities cannot be raised, alone);
    the others run side by side. Closing a lock's file lets it go."""
    import fcntl

    realtime = request.node.get_closest_marker("realtime") is not None
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the workers' folders are beside each other
    with open(shared / "realtime-one.lock", "a") as one, open(shared / "realtime-turnstile.lock", "a") as turn, \
            open(shared / "realtime-room.lock", "a") as room:
        before = os.getpriority(os.PRIO_PROCESS, 0)
        if realtime:
            fcntl.flock(one, fcntl.LOCK_EX)  # one realtime test at a time
            ahead = _priority(AHEAD)
            if not ahead:
                fcntl.flock(turn, fcntl.LOCK_EX)  # no test starts beside it any more
                fcntl.flock(room, fcntl.LOCK_EX)  # and the running ones are done
        else:
            fcntl.flock(turn, fcntl.LOCK_SH)
            fcntl.flock(turn, fcntl.LOCK_UN)
            fcntl.flock(room, fcntl.LOCK_SH)
            ahead = False
        try:
            yield
        finally:
            if ahead:
                _priority(before)


@pytest.fixture(autouse=True)
def _the_fast_loop_starts_no_process(request, monkeypatch):
    """A test outside the e2e ones plays in-process: one that starts a process (the narrator,
    espeak-ng, a browser) fails here, naming itself, until it is marked @pytest.mark.e2e."""
    if request.node.get_closest_marker("e2e"):
        return

    def refused(self, args, *rest, **kwargs):
        pytest.fail(f"{request.node.nodeid} starts a process ({str(args)[:120]}): mark it @pytest.mark.e2e",
                    pytrace=False)

    monkeypatch.setattr(subprocess.Popen, "__init__", refused)


@pytest.fixture(autouse=True)
def _own_state_folder(monkeypatch, tmp_path_factory):
    """Each test's games folder and list of journals played elsewhere are its own (and never the
    user's): `narrator play` notes every journal it writes, and `play`/`resume` look there."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


def config_text(lang: str = "en", rules: dict | None = None, timers: dict | None = None, extra: str = "",
                variant: str = "classic", seats: int | None = None, roles: dict | None = None) -> str:
    text = f'variant = "{variant}"\nlanguage = "{lang}"\n'
    if seats:
        text += f"seats = {seats}\n"
    if roles:
        text += "[roles]\n" + "".join(f"{k} = {v}\n" for k, v in roles.items())
    if rules:
        text += "[rules]\n" + "".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}\n" for k, v in rules.items())
    if timers:
        text += "[timers]\n" + "".join(f"{k} = {v}\n" for k, v in timers.items())
    return text + extra


def four_at_night(night_step: int, extra: str = "") -> str:
    """A classic table (seed 004) with the Don, two mafiosi and the Sheriff at seats 1-4 and short
    night steps: the table of the console's and the keypad's night tests."""
    return ('variant = "classic"\nlanguage = "en"\n[dealing]\nmode = "fixed"\n'
            'roles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
            f'[timers]\nnight_zero_step = 3\nmafia_meeting = 5\nnight_step = {night_step}\nspeech = 300\n' + extra)


class Table:
    """A classic game driven by transcript lines, keeping every effect for the assertions."""

    def __init__(self, deal: str | None = STANDARD_DEAL, lang: str = "en", fixed_night_steps: bool = False,
                 variant: str = "classic", seats: int | None = None, roles: dict | None = None, **rules):
        self.config = parse_config(config_text(lang, rules, variant=variant, seats=seats, roles=roles))
        self.session = Session(self.config, fixed_night_steps=fixed_night_steps)
        self.effects = list(self.session.start())
        if deal is not None:
            self.do(f"deal {deal}")

    @property
    def game(self):
        return self.session.game

    def do(self, *lines: str) -> list:
        """Apply lines; returns this batch's effects. A malformed line raises InputError."""
        batch = []
        for line in lines:
            item = self.session.parse(line)
            batch += self.session.feed(item)
        self.effects += batch
        return batch

    def refused(self, line: str) -> Reject:
        """Apply a line that must be refused and must change nothing."""
        from narrator.simulate import snapshot

        before = snapshot(self.game)
        batch = self.do(line)
        rejects = [e for e in batch if isinstance(e, Reject)]
        assert rejects, f"{line!r} was accepted: {batch}"
        assert snapshot(self.game) == before, f"{line!r} was refused but changed the game"
        return rejects[0]

    def pass_speeches(self, n: int) -> None:
        for _ in range(n):
            self.do("say thank you")

    def finish_day_speeches(self) -> None:
        while self.game.state == "speeches":
            self.do("say thank you")

    def vote(self, votes: dict[int, int | str], close: bool = True) -> None:
        """Cast votes; when some living player stayed silent, let the vote window run out. Where the
        candidates are called one at a time (seed 004 §4.4, rules.vote_call = "each"), each fist
        goes down in its candidate's call and each call's window runs out in turn; `close=False`
        leaves the call of the last vote cast open."""
        g = self.game
        everybody = set(votes) >= set(g.alive)
        if not getattr(g, "each_called", lambda: False)():
            for voter, choice in votes.items():
                self.do(f"tap {voter} {choice}")
            if close and not everybody:
                self.do("timeout")
            return
        this_vote = len(self.records("vote_open"))
        pending = dict(votes)

        def open_() -> bool:
            return g.each_called() and len(self.records("vote_open")) == this_vote

        while open_():
            current = g.candidates[g.calling]
            # a vote for nobody on the ballot is cast (and refused) in the first call, as before
            now = [v for v, c in pending.items() if str(c) == str(current) or str(c) not in map(str, g.candidates)]
            for voter in now:
                self.do(f"tap {voter} {pending.pop(voter)}")
            if not open_() or not pending and (not close or everybody):
                return
            self.do("timeout")

    def close_vote(self) -> None:
        """Let the vote's time run out: its one window, or each call still to come."""
        this_vote = len(self.records("vote_open"))
        self.do("timeout")
        while getattr(self.game, "each_called", lambda: False)() and len(self.records("vote_open")) == this_vote:
            self.do("timeout")

    def records(self, type_: str, batch: list | None = None) -> list[dict]:
        return [e.entry for e in (batch if batch is not None else self.effects) if isinstance(e, Record) and e.entry["type"] == type_]

    def said(self, batch: list | None = None) -> list[str]:
        return [e.line for e in (batch if batch is not None else self.effects) if isinstance(e, Say)]

    def told(self, batch: list | None = None) -> list[Tell]:
        return [e for e in (batch if batch is not None else self.effects) if isinstance(e, Tell)]

    def timers(self, batch: list | None = None) -> list[Timer]:
        return [e for e in (batch if batch is not None else self.effects) if isinstance(e, Timer)]

    def eliminated(self) -> list[tuple[int, str]]:
        return [(r["seat"], r["cause"]) for r in self.records("eliminated")]


def in_calls(*calls: list[str]) -> list[str]:
    """The typed lines of a classic vote whose candidates are called one at a time (seed 004 §4.4):
    each call's fists, in nomination order, and the end of its window ("timeout") before the next
    call. A vote that the last fist closes needs no timeout after it."""
    lines: list[str] = []
    for i, call in enumerate(calls):
        lines += call + (["timeout"] if i < len(calls) - 1 else [])
    return lines


@pytest.fixture
def table():
    return Table()


__all__ = ["Table", "STANDARD_DEAL", "config_text", "examples", "in_calls", "InputError"]
