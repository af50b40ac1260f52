"""`narrator simulate` plays the scorer's table too (seed 004 §4.4: the fists go down for the one
called «before host says "Stop"»): at a table whose scorer types the hands, the live loop sends
`Timeout(count_waits=True)` the moment a call's two seconds are over; the game says "Stop." then
and its count waits for his line — his fists as taps (one for a candidate not called yet refused,
one for a candidate called before counted), then a plain Timeout. Every simulated game holds the
core to it: "Stop." is said once a call, the count waits from the call's end until it is taken, a
`count_waits` where no call's time is over is refused and changes nothing, and the protocol
replays to the same game. A core that broke any of it is caught."""

from __future__ import annotations

import random

import pytest

from narrator.flow import game as game_module
from narrator.flow.day_classic import ClassicGame
from narrator.flow.events import event_to_dict
from narrator.rules.variants import CLASSIC
from narrator.simulate import ScorerTable, defaults, play_one, simulate


def _scorer_games(games: int, seed: int, **rules) -> tuple[ScorerTable, list[str]]:
    options, timers = defaults(CLASSIC)
    options.update(rules)
    scorer, rng, violations = ScorerTable(random.Random(f"scorer:{seed}")), random.Random(seed), []
    for _ in range(games):
        play_one(CLASSIC, rng, options, timers, 10, True, violations, scorer=scorer)
    return scorer, violations


def test_a_scorers_table_plays_every_branch_of_the_count_and_keeps_every_rule():
    scorer, violations = _scorer_games(300, 21)
    assert violations == []
    played = scorer.played
    # half the tables type their fists, chosen by the seed
    assert played["table"] > 100 and played["no scorer"] > 100
    # "Stop." as the two seconds end, in the main vote and in a split's re-vote
    assert played["stop in voting"] > 0 and played["stop in revote"] > 0
    # the scorer's fists typed while the count waits: for the one called, for one called before
    # (catching up: counts), and for one not called yet (refused); "Stop." a second time for the
    # same call is refused too
    assert played["fist in the count"] > played["catching up"] > 0
    for branch in ("not called yet", "stop again"):
        assert played[branch] > 0, branch
    # the count is taken by his line's end, or by the last living player's fist
    assert played["counted"] > 0 and played["all fists in"] > 0
    # a count_waits where no call's time is over — a speech, the night — is refused and changes nothing
    for state in ("speeches", "night"):
        assert played[f"misplaced in {state}"] > 0, state


def test_a_table_that_calls_every_candidate_together_has_no_call_to_stop():
    """vote_call = "together" (a club that votes on phones): one window for every candidate and no
    "Stop." between them — a count_waits during its vote is refused like anywhere else."""
    scorer, violations = _scorer_games(60, 5, vote_call="together")
    assert violations == []
    assert not any(k.startswith("stop in") for k in scorer.played)
    assert scorer.played["misplaced in voting"] > 0


def test_a_table_whose_phones_vote_has_no_scorer():
    options, timers = defaults(CLASSIC)
    scorer, rng, violations = ScorerTable(random.Random(1)), random.Random(1), []
    for _ in range(20):
        play_one(CLASSIC, rng, options, timers, 10, True, violations, scorer=scorer, votes_on_phones=True)
    assert violations == []
    assert scorer.played["table"] == 0 and not any(k.startswith("stop in") for k in scorer.played)


def test_narrator_simulate_plays_scorers_tables_and_finds_nothing_wrong():
    out = simulate("classic", 150, seed=4)
    assert out["violations"] == 0, out["violation_examples"]


def test_a_table_without_a_call_to_stop_plays_the_same_game_whatever_the_scorer_draws():
    """The scorer's table draws on its own random stream: the other rule systems, which have no
    call to stop, play exactly the games they played before it (their balance figures stay)."""
    from narrator.rules.variants import VARIANTS

    variant = VARIANTS["sverige"]
    rules, timers = defaults(variant)
    games = []
    for scorer_seed in (1, 99):
        rng, bad = random.Random(4), []
        ends = [play_one(variant, rng, rules, timers, 10, False, bad, scorer=ScorerTable(random.Random(scorer_seed)))
                for _ in range(15)]
        games.append([(g.winner, g.day, tuple(g.alive)) for g in ends])
        assert bad == []
    assert games[0] == games[1]


def _broken(monkeypatch, how: str) -> None:
    close, ends = ClassicGame._close_call, ClassicGame.window_ends
    if how == "stop twice":
        def close_call(self):
            self.counting = False  # forgets that "Stop." was said as the time ended
            close(self)
        monkeypatch.setattr(ClassicGame, "_close_call", close_call)
    elif how == "no stop":
        def window_ends(self):
            ends(self)
            self.out = [e for e in self.out if getattr(e, "line", None) != "vote_stop"]
        monkeypatch.setattr(ClassicGame, "window_ends", window_ends)
    elif how == "counting not cleared":
        def close_call(self):
            was = self.counting
            close(self)
            if was and self.each_called():
                self.counting = True  # the next call starts as if its time were over
        monkeypatch.setattr(ClassicGame, "_close_call", close_call)
    elif how == "count does not wait":
        monkeypatch.setattr(ClassicGame, "window_over", lambda self: False)
    elif how == "count_waits not journaled":
        def to_dict(event):
            d = event_to_dict(event)
            d.pop("count_waits", None)
            return d
        monkeypatch.setattr(game_module, "event_to_dict", to_dict)
    elif how == "misplaced count_waits taken":
        def window_ends(self):
            if not self.hears_window_end():
                self.counting = True  # taken anywhere, changing the game
                return
            ends(self)
        monkeypatch.setattr(ClassicGame, "window_ends", window_ends)


@pytest.mark.parametrize("how, caught", [
    ("stop twice", '"Stop." said with no call open'),
    ("no stop", 'without its "Stop."'),
    ("counting not cleared", "the count was taken, yet the game still waits"),
    ("count does not wait", "the count does not wait after the call's time was over"),
    ("count_waits not journaled", "the protocol did not replay to the same game"),
    ("misplaced count_waits taken", "illegal input accepted: Timeout(host=False, count_waits=True)"),
])
def test_a_core_that_breaks_the_scorers_count_is_caught(monkeypatch, how, caught):
    _broken(monkeypatch, how)
    _, violations = _scorer_games(40, 21)
    assert any(caught in v for v in violations), (how, violations[:5])
