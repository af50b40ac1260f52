"""Dealing the roles: at random, from a seed, or fixed by the table."""

from __future__ import annotations

import random


def role_list(counts: dict[str, int], seats: int) -> list[str]:
    roles = [r for r, n in counts.items() if r != "citizen" for _ in range(n)]
    if len(roles) > seats:
        raise ValueError(f"{len(roles)} special roles do not fit {seats} seats")
    return roles + ["citizen"] * (seats - len(roles))


def deal(counts: dict[str, int], seats: int, rng: random.Random) -> dict[int, str]:
    roles = role_list(counts, seats)
    rng.shuffle(roles)
    return {seat: role for seat, role in enumerate(roles, start=1)}


def validate_deal(counts: dict[str, int], seats: int, named: dict[int, str]) -> tuple[dict[int, str] | None, str | None]:
    """Complete a partial deal (unnamed seats are citizens) and check it against the role counts."""
    for s in named:
        if not 1 <= s <= seats:
            return None, f"seat {s} is not at this table (1-{seats})"
    full = {s: named.get(s, "citizen") for s in range(1, seats + 1)}
    want = sorted(role_list(counts, seats))
    got = sorted(full.values())
    if want != got:
        need = {r: want.count(r) for r in set(want) if r != "citizen"}
        return None, "the deal must have " + ", ".join(f"{n} {r}" for r, n in sorted(need.items()))
    return full, None
