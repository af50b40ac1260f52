"""The day procedures: one module per rule system, named by the variant's data.

A variant says `day = "x"`; its procedure is the `DAY` class of `narrator/flow/day_x.py`, a
subclass of `BaseGame`. The base knows no day, and a new rule system is one new day module plus
its variant in `rules/variants.py`.
"""

from __future__ import annotations

import importlib
from functools import cache

from ..rules.variants import Variant
from .game import BaseGame


@cache
def day_procedure(day: str) -> type[BaseGame]:
    try:
        module = importlib.import_module(f"{__package__}.day_{day}")
    except ModuleNotFoundError as exc:
        raise ValueError(f"no day procedure {day!r}: expected narrator/flow/day_{day}.py") from exc
    return module.DAY


def Game(variant: Variant, rules: dict, timers: dict, seats: int | None = None, fixed_night_steps: bool = False,  # noqa: N802
         roles: dict[str, int] | None = None, votes_on_phones: bool = False) -> BaseGame:
    """A game of the variant, with its day procedure (the core's entry point)."""
    return day_procedure(variant.day)(variant, rules, timers, seats, fixed_night_steps, roles, votes_on_phones)


__all__ = ["Game", "day_procedure"]
