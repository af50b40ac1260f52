"""The day procedures are found from the variant data: the base game knows no day, so a new rule
system is one new day module plus its variant."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from narrator.flow.days import Game, day_procedure
from narrator.flow.game import BaseGame
from narrator.rules.variants import VARIANTS
from narrator.simulate import defaults

FLOW = Path(__file__).resolve().parents[2] / "narrator" / "flow"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[-1])
        elif isinstance(node, ast.Import):
            names.update(a.name.split(".")[-1] for a in node.names)
    return names


def test_the_base_game_imports_no_day_procedure():
    assert not {m for m in imported_modules(FLOW / "game.py") if m.startswith("day") or m == "days"}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_names_a_day_procedure_that_exists(name):
    variant = VARIANTS[name]
    cls = day_procedure(variant.day)
    assert issubclass(cls, BaseGame) and cls is not BaseGame
    rules, timers = defaults(variant)
    assert isinstance(Game(variant, rules, timers), cls)


def test_an_unknown_day_procedure_is_named_in_the_error():
    with pytest.raises(ValueError, match="day_nowhere"):
        day_procedure("nowhere")


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_day_says_whether_the_table_hears_a_windows_end_and_only_such_a_day_ends_one(name):
    """Classic alone calls each candidate and says "Stop." as his time ends (seed 004 §4.4); the
    simulator and the live loop ask the day, not which methods it happens to override."""
    cls = day_procedure(VARIANTS[name].day)
    assert cls.WINDOW_ENDS_HEARD == (name == "classic")
    assert cls.WINDOW_ENDS_HEARD == (cls.window_ends is not BaseGame.window_ends)
