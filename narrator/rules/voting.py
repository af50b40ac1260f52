"""Vote counting: pure functions over who voted for whom."""

from __future__ import annotations


def tally(candidates: list[int], votes: dict[int, int], voters: list[int]) -> tuple[dict[int, int], list[int]]:
    """Count votes; every living voter who did not vote counts for the last candidate (seed 004 §4.4).

    Returns the count per candidate (in candidate order) and the voters whose vote was added.
    """
    counts = {c: 0 for c in candidates}
    for voter, seat in votes.items():
        counts[seat] += 1
    silent = [v for v in voters if v not in votes]
    counts[candidates[-1]] += len(silent)
    return counts, silent


def leaders(counts: dict[int, int]) -> list[int]:
    """The candidates with the most votes, in candidate order."""
    top = max(counts.values())
    return [c for c, n in counts.items() if n == top]


def majority(yes: int, electorate: int) -> bool:
    """More than half of those entitled to vote; a split or silence keeps everybody in (seed 002)."""
    return yes * 2 > electorate
