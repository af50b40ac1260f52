"""DESIGN: «no line, sound, timing or screen may differ depending on a hidden role. Night phases of
dead or absent roles still play, with the same duration.» Played for every variant and every role
whose death the rules keep secret: two live tables (every step runs its full time) where the same
seat left the table the night before — at one it held the role, at the other a citizen did and the
role's holder is alive and acts. The next night must sound and last the same at both: the same
lines, the same timers, in the same order. A lone mafioso (his partner gone) and a dead Sheriff
are among the cases, as are the steps a rule option adds (the German manner of death)."""

from __future__ import annotations

import pytest

from narrator.flow.days import Game
from narrator.flow.effects import Say, Timer
from narrator.flow.events import Deal, Leave, Tap, Timeout
from narrator.flow.night import CHOICES
from narrator.rules.variants import VARIANTS

# (variant, seats, the table's roles, extra rules): the standard tables, and ones with every
# optional role whose night step could tell on its player
TABLES = [
    ("classic", 10, None, {}),
    ("classic", 13, {"don": 1, "mafia": 2, "sheriff": 1, "putana": 1, "policeman": 1, "maniac": 1, "doctor": 1}, {}),
    ("sverige", 12, None, {}),
    ("sverige", 20, {"mafia": 5, "doctor": 1, "freemason": 2, "avenger": 1}, {}),
    ("hungariq", 12, None, {}),
    ("hungariq", 14, {"mafia": 2, "protected_mafia": 1, "inspector": 1, "vogon": 1, "bodyguard": 1, "sarika": 1,
                      "collaborator": 1, "protected_citizen": 1}, {}),
    ("grundregeln", 8, {"mafia": 2}, {}),  # one of two leaves: a lone mafioso kills alone
    ("grundregeln", 8, None, {"manner_of_death": True}),
]

# whose death the rules announce as such (seed 001: the corner grocer's, a kamikaze names his
# companion at once): their secret is out by rule, not by the night's sound
ANNOUNCED = {"grocer", "kamikaze_citizen", "kamikaze_mafia"}


def cases():
    for variant, seats, roles, rules in TABLES:
        counts = roles or VARIANTS[variant].roles_for(seats)
        for role in sorted(r for r in counts if r not in ANNOUNCED):
            yield pytest.param(variant, seats, counts, rules, role, id=f"{variant}-{seats}-{role}")


def deal_with(counts: dict[str, int], seats: int, role: str, holder: int) -> dict[int, str]:
    """The table's deal with one `role` at `holder` and the other roles on the highest seats, so
    that seats 2 and 3 are citizens but for the one that holds `role`."""
    rest = [r for r, n in counts.items() for _ in range(n - (r == role))]
    return {holder: role, **dict(zip(range(seats, 0, -1), rest))}


def next_night(variant: str, seats: int, counts: dict, rules: dict, deal: dict[int, str], gone: int) -> list:
    """Seat `gone` leaves the table in the first night; the day passes with nobody nominated; the
    night after is played with every awake player choosing at every step. Its public effects: what
    the table hears and how long each step runs."""
    v = VARIANTS[variant]
    g = Game(v, {k: o.default for k, o in v.rules.items()} | rules, {k: o.default for k, o in v.timers.items()},
             seats, fixed_night_steps=True, roles=counts)
    g.start()
    g.apply(Deal(tuple(sorted(deal.items()))))
    g.apply(Leave(gone))
    while g.state == "night":
        g.apply(Timeout())
    heard = []
    for _ in range(20):  # the day: every timer runs out, nobody is nominated or accused
        if g.state == "night":
            break
        heard = [e for e in g.apply(Timeout()) if isinstance(e, (Say, Timer))]
    assert g.state == "night", g.state
    # from "Night falls" on: the day's end before it is the day's
    heard = heard[next(i for i, e in enumerate(heard) if isinstance(e, Say) and e.line == "night_falls"):]
    while g.state == "night":
        step = g.step
        for seat in g.awake_seats():  # SECRET in play; here the test is the table's eye
            target = CHOICES[step.action][1][0] if step.action in CHOICES else next(s for s in g.alive if s != seat)
            heard += [e for e in g.apply(Tap(seat, target)) if isinstance(e, (Say, Timer))]
        heard += [e for e in g.apply(Timeout()) if isinstance(e, (Say, Timer))]
    # up to the morning: what dawn tells of the night (a save, a death) is the rules' to say
    return heard[: next(i for i, e in enumerate(heard) if isinstance(e, Say) and e.line == "city_wakes")]


@pytest.mark.parametrize("variant,seats,counts,rules,role", list(cases()))
def test_the_night_after_a_role_left_sounds_and_lasts_as_if_a_citizen_had(variant, seats, counts, rules, role):
    gone = 2
    with_role_gone = next_night(variant, seats, counts, rules, deal_with(counts, seats, role, gone), gone)
    # the same table with the role one seat further on, alive, and a citizen in the empty chair
    other = deal_with(counts, seats, role, 3)
    assert other.get(gone, "citizen") == "citizen" and other[3] == role
    with_citizen_gone = next_night(variant, seats, counts, rules, other, gone)
    assert with_role_gone == with_citizen_gone
    assert any(isinstance(e, Timer) and e.name for e in with_role_gone)
