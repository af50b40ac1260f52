"""The night's actions, one function per kind of step, and what dawn makes of them.

Every choice is stored as an intent and only resolved at dawn, so a player shot at night still
acts that night (seed 004 §4.5) and the order of taps never changes the outcome.

Two kinds of step. A *choice* (a shot, a kill, a save, a block, the mafia's name vote, Sárika's
vote) may be changed until the step closes, and the last choice counts: the player is told "you
chose 7 — you can change it until the step ends". A *check* (Don, Sheriff, policeman, inspector,
team check, the vogon's watch) is answered at once and is final: a later tap is refused and
changes nothing.
"""

from __future__ import annotations

from ..rules.night import check_mafia, check_sheriff, resolve_mafia_vote, resolve_shot
from ..rules.roles import MAFIA, team_of
from .refused import Refused


def _refuse(line: str, **args):
    raise Refused(line, args, private=True)


def _choices(g, step) -> dict[int, list[int]]:
    return g.intents.setdefault(step.name, {})


def _choose(g, step, seat, target) -> None:
    """A changeable choice: every tap is kept (the protocol shows the changes), the last counts."""
    _choices(g, step).setdefault(seat, []).append(target)
    g._tell(seat, "choice_taken", seat=target)


def shoot(g, step, seat, target) -> None:
    g._record("shot_fired", by=seat, seat=target)
    _choose(g, step, seat, target)


def kill_alone(g, step, seat, target) -> None:
    shoot(g, step, seat, target)


def _once(g, step, seat, target, self_allowed: bool = False) -> None:
    # validate before touching the intents: a refused tap must leave no trace
    if seat in g.intents.get(step.name, {}):
        _refuse("reject_already_checked")
    if target == seat and not self_allowed:
        _refuse("reject_check_self")
    _choices(g, step)[seat] = [target]


def checked_tonight(g, step, seat) -> bool:
    """Whether this seat has made this step's one check: then that, not the seat tapped (a dead
    one, say), is why any later tap is refused."""
    return ACTIONS.get(step.action) in FINAL and seat in g.intents.get(step.name, {})


def _check(g, step, seat, target, result: str, line: str) -> None:
    _once(g, step, seat, target)
    if seat in g.blocked:
        g._record("check", by=seat, seat=target, result="blocked")
        return g._tell(seat, "blocked_no_result")
    g._record("check", by=seat, seat=target, result=result)
    g._tell(seat, line, seat=target)


def check_sheriff_action(g, step, seat, target) -> None:
    result = check_sheriff(g.role(target))
    _check(g, step, seat, target, result, "check_" + result)


def check_mafia_action(g, step, seat, target) -> None:
    result = check_mafia(g.role(target))
    _check(g, step, seat, target, result, "check_" + result)


def check_team(g, step, seat, target) -> None:
    result = check_mafia(g.role(target))
    _check(g, step, seat, target, result, "check_team_mafia" if result == "mafia" else "check_team_village")


def inspect(g, step, seat, target) -> None:
    # seed 001: the protected mafioso reads as a citizen; a second check on him reads yes (extra rule 2)
    role = g.role(target)
    mafia = team_of(role) == MAFIA
    if role == "protected_mafia":
        seen = g.inspected.get(target, 0)
        mafia = seen >= 1 and g.rules.get("second_check_reveals_protected", True)
    _check(g, step, seat, target, "mafia" if mafia else "town", "check_yes" if mafia else "check_no")
    g.inspected[target] = g.inspected.get(target, 0) + 1


def protect(g, step, seat, target) -> None:
    if g.role(seat) == "bodyguard" and target == seat:
        _refuse("reject_protect_self")  # seed 001: "A testőr önmagára nem szavazhat"
    last = g.last_protected.get(seat)
    if g.rules.get("doctor_repeat_after_save") and last and last[0] == target and not last[1]:
        _refuse("reject_same_save", seat=target)  # seed 000: a new person unless the save succeeded
    g._record("protect", by=seat, seat=target)
    _choose(g, step, seat, target)


def block(g, step, seat, target) -> None:
    if target == seat:
        _refuse("reject_visit_self")  # she visits, she does not check
    g._record("block", by=seat, seat=target)
    _choose(g, step, seat, target)
    # a changed visit frees the player visited before: the block is the last choice of each blocker
    g.blocked = {t[-1] for name, choices in g.intents.items() if _is_block(g, name) for t in choices.values()}


def _is_block(g, name: str) -> bool:
    return any(st.name == name and st.action == "block" for st in g.steps)


def mafia_vote(g, step, seat, target) -> None:
    # seed 001: "egy és csak egy névnél" — one name each; a changed vote replaces the earlier one
    g._record("shot_fired", by=seat, seat=target)
    _choose(g, step, seat, target)


def sarika(g, step, seat, target) -> None:
    mafia_vote(g, step, seat, target)


# seed 001: the mafiosi, Aunt Sárika and the bodyguard each "vote on a name" while the names are
# read; the vogon sees whether anyone votes on the name he watches, whoever it is
NAME_VOTES = ("mafia_vote", "sarika", "protect")


def watch(g, step, seat, target) -> None:
    _once(g, step, seat, target, self_allowed=True)
    voting = {s.name for s in g.steps if s.action in NAME_VOTES}
    voted = any(t and t[-1] == target for name, choices in g.intents.items() if name in voting for t in choices.values())
    g._record("watch", by=seat, seat=target, result=voted)
    g._tell(seat, "watch_someone" if voted else "watch_nobody", seat=target)


# steps that choose from a numbered list instead of a seat: action -> (the list's name, its numbers)
MANNERS = tuple(range(1, 9))  # manner_1 … manner_8 in the voice files
CHOICES = {"manner": ("manner", MANNERS)}


def choose_manner(g, step, seat, target) -> None:
    """seed 003: the mafia tell the host how their victim dies; the last choice counts."""
    _choices(g, step).setdefault(seat, []).append(target)
    g.manner = target
    g._record("manner", by=seat, manner=target)
    g._tell(seat, "chosen_manner", manner=f"@manner_{target}")


def identify(g, step, seat, target) -> None:
    """Night zero with physical cards: a tap on one's own seat shows the card; any other tap is
    the cover every other phone gives, and is not even recorded."""
    if target != seat:
        return
    role = step.actors[0]
    if any(seat in seats for seats in g.claims.values()):
        _refuse("reject_already_claimed")
    if len(g.claims[role]) >= g.role_counts[role]:
        _refuse("reject_role_full", role="@role_" + role)
    g.claims[role].append(seat)
    g.seats[seat].role = role
    g._record("card_shown", seat=seat, role=role)
    g._tell(seat, "identify_taken", role="@role_" + role)


ACTIONS = {
    "identify": identify,
    "shoot": shoot,
    "kill_alone": kill_alone,
    "check_sheriff": check_sheriff_action,
    "check_mafia": check_mafia_action,
    "check_team": check_team,
    "inspect": inspect,
    "protect": protect,
    "block": block,
    "mafia_vote": mafia_vote,
    "sarika": sarika,
    "watch": watch,
    "manner": choose_manner,
}

# the checks: answered at once, final for the night
FINAL = (check_sheriff_action, check_mafia_action, check_team, inspect, watch)


def resolve_dawn(g) -> tuple[list[int], bool, dict]:
    """The night's deaths in order, whether a kill was prevented, and notes: "left", the players
    who left unwell that night and were not also killed, "removed", those the referee removed that
    night and the mafia did not kill (both come last among the deaths), "shot_out", those the
    referee removed whom the mafia shot, and "causes", how each death that is no shot came."""
    kills: list[int] = []
    attempt = False
    # one who left the table in the night, or whom the referee removed, acts no more from that
    # moment: his choices are void and the mafia's shot needs only those still at the table
    # (seed 004 §4.5 «all "mafia" players present at the table»)
    removed = dict(g.removed_tonight)
    leaving = set(g.leaving) | set(removed)
    present = [s for s in g.alive if s not in leaving]
    for step in g.steps:
        choices = {s: t for s, t in g.intents.get(step.name, {}).items() if g.seats[s].alive and s not in leaving}
        if step.action == "shoot":
            shooters = [s for s in g.with_roles(present, step.actors) if s not in g.blocked]
            hit = resolve_shot(shooters, choices)
            g._record("shot", seat=hit, shooters={str(s): choices.get(s, []) for s in shooters})
            if hit is not None:
                kills.append(hit)
        elif step.action == "mafia_vote":
            voters = g.with_roles(present, step.actors)
            votes = {s: t[-1] for s, t in choices.items()}
            sar = [t[-1] for s, t in g.intents.get("sarika_votes", {}).items() if s in present and s not in g.blocked]
            hit, saved = resolve_mafia_vote(voters, votes, sar[0] if sar else None, g.rules.get("mafia_majority_above_three", True))
            g._record("shot", seat=hit, shooters={str(s): choices.get(s, []) for s in voters}, saved_by_sarika=saved)
            attempt = attempt or saved
            if hit is not None:
                kills.append(hit)
        elif step.action == "kill_alone":
            for s, t in choices.items():
                if s not in g.blocked:
                    g._record("shot", seat=t[-1], shooters={str(s): t})
                    kills.append(t[-1])
    protected: set[int] = set()
    for step in g.steps:
        if step.action == "protect":
            chosen = g.intents.get(step.name, {})
            for s, t in chosen.items():
                if s in present and s not in g.blocked:
                    protected.add(t[-1])
                    g.last_protected[s] = (t[-1], t[-1] in kills)
            for s in [s for s in g.last_protected if s not in chosen]:
                # seed 000: «byta person varje natt såvida hen inte lyckats föregående natt» —
                # a night without a save leaves nobody to change from
                del g.last_protected[s]
    deaths: list[int] = []
    for k in kills:
        if not g.seats[k].alive:
            continue
        if k in protected:
            attempt = True
        elif k not in deaths:
            deaths.append(k)
    # removed by the referee and shot the same night, in whichever order: he was shot — seed 004
    # §7 «unless this player has been "killed" at night» — as one who left the table and was shot
    # is; nobody at the table saw which came first, so the order must not change the night
    shot_out = [s for s in removed if s in deaths]
    left = [s for s in g.leaving if g.seats[s].alive and s not in deaths]
    out = [s for s in removed if g.seats[s].alive and s not in deaths and s not in left]
    deaths += left + out
    causes = {s: "left" for s in left} | {s: removed[s] for s in out}
    g.leaving = []
    return deaths, attempt, {"left": left, "removed": out, "shot_out": shot_out, "causes": causes}
