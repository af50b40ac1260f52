"""Property tests: random legal games driven through the pure core (hypothesis chooses the seeds
and the mix of inputs). Every game ends; the dead never act; refused input changes nothing; the
protocol replays to the same game."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import examples as profile_examples

from narrator.rules.variants import CLASSIC
from narrator.simulate import defaults, play_one


@settings(max_examples=profile_examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), quiet=st.integers(0, 5), single=st.booleans(), ties=st.booleans())
def test_random_legal_games_keep_every_rule(seed, quiet, single, ties):
    rules, timers = defaults(CLASSIC)
    rules.update(draw_after_quiet_cycles=quiet, single_nominee_eliminated=single, three_way_tie_twice_ends=ties)
    violations: list[str] = []
    game = play_one(CLASSIC, random.Random(seed), rules, timers, 10, True, violations)
    assert violations == []
    assert game.state == "over" and game.winner in ("town", "mafia", "draw")
    if game.winner == "town":
        assert all(game.role(s) in ("citizen", "sheriff") for s in game.alive)
    if game.winner == "mafia":
        mafia = sum(game.role(s) in ("don", "mafia") for s in game.alive)
        assert mafia * 2 >= len(game.alive)


@settings(max_examples=profile_examples(60), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_core_is_deterministic(seed):
    rules, timers = defaults(CLASSIC)
    a = play_one(CLASSIC, random.Random(seed), rules, timers, 10, False, [])
    b = play_one(CLASSIC, random.Random(seed), rules, timers, 10, False, [])
    assert (a.winner, a.day, a.alive) == (b.winner, b.day, b.alive)
