"""Night resolution: the mafia's shot and the checks."""

from __future__ import annotations

from .roles import is_mafia


def resolve_shot(shooters: list[int], shots: dict[int, list[int]], second_shot_misses: bool = True) -> int | None:
    """The seat hit, or None for a miss.

    Seed 004 §4.5: every living mafioso must shoot the same seat; one who shoots elsewhere, twice,
    or not at all makes it a miss.
    """
    if not shooters:
        return None
    targets = set()
    for seat in shooters:
        fired = shots.get(seat, [])
        if not fired:
            return None
        if len(fired) > 1 and second_shot_misses:
            return None
        targets.add(fired[-1])
    return targets.pop() if len(targets) == 1 else None


def check_sheriff(role: str) -> str:
    return "sheriff" if role == "sheriff" else "not_sheriff"


def check_mafia(role: str) -> str:
    return "mafia" if is_mafia(role) else "town"
