"""Who has won: checked after every elimination."""

from __future__ import annotations

from .roles import MAFIA, TOWN, team_of


def winner(alive_roles: list[str]) -> str | None:
    """Town wins when no mafia is left; mafia when they are at least as many as the town (seed 004 §1)."""
    mafia = sum(1 for r in alive_roles if team_of(r) == MAFIA)
    town = len(alive_roles) - mafia
    if mafia == 0:
        return TOWN
    if mafia >= town:
        return MAFIA
    return None
