"""`narrator simulate` checks HungarIQ's day clock (seed 001: the day lasts its time, and a trial
does not eat it) in every random game: the core says which timer is the day's clock
(`Timer(hold=True)`) and when it goes on with what it had (`resume=True`); the simulation runs it
on a virtual clock as the live session runs it on the real one, and holds it to its invariants —
the day's time never grows, a trial never uses day time, the clock goes on only where it was held
and starts from full once a day. A core that broke any of them is caught."""

from __future__ import annotations

import random

from narrator.flow.day_hungariq import HungariqGame
from narrator.flow.effects import Record, Timer
from narrator.flow.events import Nominate, Tap, Timeout
from narrator.simulate import DayClock, simulate


def test_random_hungarian_games_keep_their_day_clock():
    for seats in (10, 12, 16):
        out = simulate("hungariq", 150, seed=seats, seats=seats, skill=0.6, check_replay=False)
        assert out["violations"] == 0, out["violation_examples"]


def test_the_other_rule_systems_have_no_day_clock_to_break():
    for variant in ("classic", "sverige", "grundregeln"):
        out = simulate(variant, 60, seed=3, check_replay=False)
        assert out["violations"] == 0, out["violation_examples"]


class _Day:
    """Just enough of a game for the clock: its day, state and rules."""

    class variant:  # noqa: N801
        day = "hungariq"

    def __init__(self, state="accusations", day=1):
        self.state, self.day = state, day

    def endgame(self):
        return False


def test_a_trial_that_ran_on_the_day_is_caught():
    clock, bad = DayClock(random.Random(1)), []
    g = _Day()
    clock.timers(g, [Timer("day", 1200, hold=True)], bad)
    clock.passes(Nominate(4, by=1))
    g.state = "support_vote"
    clock.timers(g, [], bad)  # the accusation came and no timer of its own took over
    assert any("runs on the day's time" in v for v in bad), bad


def test_a_clock_going_on_that_was_never_held_is_caught():
    clock, bad = DayClock(random.Random(1)), []
    clock.timers(_Day(), [Timer("day", 1200, hold=True, resume=True)], bad)
    assert any("none was held" in v for v in bad), bad


def test_the_day_time_left_only_goes_down_through_a_trial():
    clock, bad = DayClock(random.Random(5)), []
    g = _Day()
    clock.timers(g, [Timer("day", 1200, hold=True)], bad)
    clock.passes(Nominate(4, by=1))
    before = clock.left
    assert before < 1200
    g.state = "support_vote"
    clock.timers(g, [Timer("support_vote", 5)], bad)
    for _ in range(5):
        clock.passes(Tap(1, answer=True))  # the trial's time passes, not the day's
    clock.passes(Timeout())
    g.state = "accusations"
    clock.timers(g, [Timer("day", 1200, hold=True, resume=True)], bad)
    assert bad == [] and clock.left == before and clock.running == ("day", before)


def test_a_core_that_starts_the_day_afresh_after_a_trial_is_caught(monkeypatch):
    """A day whose 20 minutes begin again after every accusation (as before session 13) would let
    a table talk for ever: the simulation says so."""

    def fresh_day(self, tried=True):
        self.accused = None
        if tried or self.rules["failed_accusations_count"]:
            self.accusations_today += 1
        if self.accusations_today >= self.rules["accusations_per_day"]:
            self._say("day_over")
            return self._go_night()
        self.to_accusations()
        self._timer("day", hold=True)  # from full, not resume

    monkeypatch.setattr(HungariqGame, "_after_accusation", fresh_day)
    out = simulate("hungariq", 40, seed=2, check_replay=False)
    assert out["violations"] > 0
    assert any("started from full again the same day" in v for v in out["violation_examples"]), out


def test_the_clock_changes_no_game():
    """The clock draws on its own random stream: whatever it draws, the same seed plays the same
    games (the balance figures in the README stay what they were)."""
    from narrator.rules.variants import VARIANTS
    from narrator.simulate import defaults, play_one

    variant = VARIANTS["hungariq"]
    rules, timers = defaults(variant)
    games = []
    for clock_seed in (1, 99):
        rng, bad = random.Random(4), []
        ends = [play_one(variant, rng, rules, timers, 10, False, bad, clock=DayClock(random.Random(clock_seed)))
                for _ in range(20)]
        games.append([(g.winner, g.day, tuple(g.alive)) for g in ends])
        assert bad == []
    assert games[0] == games[1]


def test_a_night_forgets_the_held_day():
    clock, bad = DayClock(random.Random(1)), []
    g = _Day()
    clock.timers(g, [Timer("day", 1200, hold=True)], bad)
    g.state = "night"
    clock.timers(g, [Record({"type": "phase", "phase": "night"}), Timer("night_step", 15)], bad)
    g.state, g.day = "accusations", 2
    clock.timers(g, [Timer("day", 1200, hold=True, resume=True)], bad)
    assert any("none was held" in v for v in bad), bad
