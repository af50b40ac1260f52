"""Roles and the team each belongs to, across the variants."""

from __future__ import annotations

MAFIA = "mafia"
TOWN = "town"

# role -> team. A role's team decides wins and what a mafia check sees.
TEAM_OF = {
    # classic (seeds 002, 004)
    "don": MAFIA,
    "mafia": MAFIA,
    "sheriff": TOWN,
    "citizen": TOWN,
}

ROLE_ALIASES = {
    "civilian": "citizen",
    "town": "citizen",
    "red": "citizen",
    "mafioso": "mafia",
    "black": "mafia",
}


def team_of(role: str) -> str:
    return TEAM_OF[role]


def is_mafia(role: str) -> bool:
    return TEAM_OF.get(role) == MAFIA
