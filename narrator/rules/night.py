"""Night resolution: pure functions over the choices made in the night's steps."""

from __future__ import annotations

from .roles import is_mafia


def resolve_shot(shooters: list[int], shots: dict[int, list[int]]) -> int | None:
    """The seat hit, or None for a miss.

    Every living mafioso must shoot the same seat; one who shoots elsewhere or not at all makes it
    a miss (seed 002: «кто-то … стреляет в другой номер, либо не стреляет вообще»; seed 004 §4.5).
    A player may change his choice until the step closes, and his last choice is the one that
    counts: seed 004's "shoots twice" is a gesture at two numbers of the host's count, while a
    phone, the keypad or the console shows one choice that the player corrects.
    """
    if not shooters:
        return None
    targets = set()
    for seat in shooters:
        fired = shots.get(seat, [])
        if not fired:
            return None
        targets.add(fired[-1])
    return targets.pop() if len(targets) == 1 else None


def resolve_mafia_vote(voters: list[int], votes: dict[int, int], sarika: int | None, majority_above_three: bool) -> tuple[int | None, bool]:
    """seed 001: the name every living mafioso voted for dies (3 of 4, 3 of 5 with more than three).
    Aunt Sárika's vote counts as a mafia vote or as a bodyguard's, whichever has an effect; with a
    single living mafioso it counts for nothing. Returns (victim, saved_by_sarika)."""
    if not voters:
        return None, False
    need = len(voters)
    if majority_above_three and len(voters) > 3:
        need = 3
    tally: dict[int, int] = {}
    for v in voters:
        if v in votes:
            tally[votes[v]] = tally.get(votes[v], 0) + 1
    sarika_counts = sarika is not None and len(voters) > 1
    for seat, n in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])):
        if n >= need:
            if sarika_counts and sarika == seat:
                return None, True  # her vote protects: the kill did not need it
            return seat, False
        if sarika_counts and sarika == seat and n + 1 >= need:
            return seat, False  # her vote completes the mafia's
    return None, False


def check_sheriff(role: str) -> str:
    return "sheriff" if role == "sheriff" else "not_sheriff"


def check_mafia(role: str) -> str:
    return "mafia" if is_mafia(role) else "town"
