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


def validate_deal(counts: dict[str, int], seats: int, named: dict[int, str]) -> tuple[dict[int, str] | None, tuple[str, dict] | None]:
    """Complete a partial deal (unnamed seats are citizens) and check it against the role counts.
    What is wrong is (word, args), not a sentence: the config and the table say it in their
    language ([config_errors] deal_*, [lines] reject_deal_*)."""
    for s in named:
        if not 1 <= s <= seats:
            return None, ("deal_seat_outside", {"seat": s, "n": seats})
    full = {s: named.get(s, "citizen") for s in range(1, seats + 1)}
    want = sorted(role_list(counts, seats))
    got = sorted(full.values())
    if want != got:
        need = {r: want.count(r) for r in set(want) if r != "citizen"}
        # the roles as the config and the typed deal write them ("1 don, 2 mafia"): the words the
        # player types are the ones he has to fix
        return None, ("deal_must_have", {"roles": ", ".join(f"{n} {r}" for r, n in sorted(need.items()))})
    return full, None
