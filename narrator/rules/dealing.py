"""Dealing the roles: at random, from a seed, or fixed by the table."""

from __future__ import annotations

import random

from .variants import Variant


def role_list(variant: Variant, seats: int, extra: dict[str, int] | None = None) -> list[str]:
    counts = dict(variant.roles)
    for role, n in (extra or {}).items():
        counts[role] = n
    roles = [r for r, n in counts.items() for _ in range(n)]
    if len(roles) > seats:
        raise ValueError(f"{len(roles)} special roles do not fit {seats} seats")
    return roles + ["citizen"] * (seats - len(roles))


def deal(variant: Variant, seats: int, rng: random.Random, extra: dict[str, int] | None = None) -> dict[int, str]:
    roles = role_list(variant, seats, extra)
    rng.shuffle(roles)
    return {seat: role for seat, role in enumerate(roles, start=1)}


def validate_deal(variant: Variant, seats: int, named: dict[int, str], extra: dict[str, int] | None = None) -> tuple[dict[int, str] | None, str | None]:
    """Complete a partial deal (unnamed seats are citizens) and check it against the variant's roles."""
    full = {s: named.get(s, "citizen") for s in range(1, seats + 1)}
    for s in named:
        if not 1 <= s <= seats:
            return None, f"seat {s} is not at this table (1-{seats})"
    want = sorted(role_list(variant, seats, extra))
    got = sorted(full.values())
    if want != got:
        need = {r: want.count(r) for r in set(want) if r != "citizen"}
        return None, "the deal must have " + ", ".join(f"{n} {r}" for r, n in sorted(need.items()))
    return full, None
