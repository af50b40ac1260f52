"""Who has won, per rule system. `moment` is "day" (after a day elimination), "dawn" (after a
night's deaths) or "now" (any other elimination, e.g. fouls)."""

from __future__ import annotations

from .roles import MAFIA, MANIAC, TOWN, team_of


def _count(roles: list[str]) -> tuple[int, int, int]:
    mafia = sum(1 for r in roles if team_of(r) == MAFIA)
    maniac = sum(1 for r in roles if team_of(r) == MANIAC)
    return mafia, maniac, len(roles) - mafia - maniac


def classic(roles: list[str], *, rules: dict | None = None, **_) -> str | None:
    """Town wins when no mafia is left; mafia when at least as many as the town (seed 004 §1).
    With the Maniac (seed 002 extension): he wins in a duel, and the mafia cannot win while he
    lives; whether the town can is the option `town_wins_while_maniac_lives`."""
    mafia, maniac, town = _count(roles)
    if maniac and len(roles) <= 2:
        return MANIAC
    if mafia == 0 and (maniac == 0 or (rules or {}).get("town_wins_while_maniac_lives", False)):
        return TOWN
    if maniac == 0 and mafia >= town:
        return MAFIA
    return None


def sverige(roles: list[str], *, started: int, moment: str, avenger_in_play: bool, organisation_rule: bool, **_) -> str | None:
    """seed 000 Mål: mafia when as many as the village or more (with the avenger in play only after
    a night); the village when all mafia but one are out, unless the game started with ten or fewer."""
    mafia, _, village = _count(roles)
    if mafia == 0 or (organisation_rule and started > 10 and mafia == 1):
        return TOWN
    if mafia >= village and (not avenger_in_play or moment == "dawn"):
        return MAFIA
    return None


def hungariq(roles: list[str], **_) -> str | None:
    """seed 001: citizens when every mafioso is executed; mafia when as many as the citizens."""
    mafia, _, citizens = _count(roles)
    if mafia == 0:
        return TOWN
    if mafia >= citizens:
        return MAFIA
    return None


def grundregeln(roles: list[str], **_) -> str | None:
    """seed 003: the good side when nobody evil lives, and the other way round."""
    mafia, _, good = _count(roles)
    if mafia == 0:
        return TOWN
    if good == 0:
        return MAFIA
    return None
