"""Roles and the side each plays for, across the variants."""

from __future__ import annotations

MAFIA = "mafia"
TOWN = "town"
MANIAC = "maniac"

# role -> team. The team decides wins and what a mafia check sees.
TEAM_OF = {
    # classic (seeds 002, 004); seed 002's extra roles for more than 10 players
    "don": MAFIA,
    "mafia": MAFIA,
    "sheriff": TOWN,
    "citizen": TOWN,
    "putana": TOWN,
    "policeman": TOWN,
    "doctor": TOWN,
    "maniac": MANIAC,
    # sverige (seed 000)
    "freemason": TOWN,
    "avenger": TOWN,
    # hungariq (seed 001)
    "protected_mafia": MAFIA,
    "inspector": TOWN,
    "collaborator": TOWN,  # counted as a citizen, but wins when the mafia wins
    "vogon": TOWN,
    "bodyguard": TOWN,
    "sarika": TOWN,
    "protected_citizen": TOWN,
    "grocer": TOWN,
    "kamikaze_citizen": TOWN,
    "kamikaze_mafia": MAFIA,
}

ROLE_ALIASES = {
    "civilian": "citizen",
    "town": "citizen",
    "red": "citizen",
    "bybo": "citizen",
    "villager": "citizen",
    "mafioso": "mafia",
    "maffia": "mafia",
    "black": "mafia",
    "läkare": "doctor",
    "frimurare": "freemason",
    "hämnare": "avenger",
    "felügyelő": "inspector",
    "kamikaze": "kamikaze",
}

KAMIKAZE_ROLES = ("kamikaze_citizen", "kamikaze_mafia")

# Roles counted on one side that win with another. seed 001: «Kollaboráns: Olyan polgár, aki a
# végén akkor számít győztesnek, ha a maffiózók nyernek» — a citizen for every count (the mafia's
# parity, the vote), a winner only when the mafia win, a loser when the citizens do.
WINS_WITH = {"collaborator": MAFIA}


def team_of(role: str) -> str:
    return TEAM_OF[role]


def side_of(role: str) -> str:
    """The side a role wins with (its team, but the collaborator's is the mafia's)."""
    return WINS_WITH.get(role, TEAM_OF.get(role, TOWN))


def wins_with(role: str, winner: str | None) -> bool:
    """Whether a player of this role has won when `winner` ("town", "mafia", "maniac") won."""
    return winner is not None and winner == side_of(role)


def is_mafia(role: str) -> bool:
    return TEAM_OF.get(role) == MAFIA
