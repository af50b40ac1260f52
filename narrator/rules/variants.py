"""Each variant as data: its seats, roles, night steps, timers and rule options with seed defaults.

A variant is mostly this table; the few rules that are genuinely special are hooks in the flow.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class NightStep:
    """One part of a night: who wakes, what they may do, which line opens and closes it."""

    name: str
    actors: tuple[str, ...]  # roles that wake in this step
    action: str | None  # None: they only meet (night zero); else a key of the night actions
    wake_line: str
    sleep_line: str
    timer: str  # which timer sets its length


@dataclass(frozen=True)
class Option:
    default: object
    kind: type
    source: str  # where the default comes from (seed and section), shown by check-config
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple | None = None


@dataclass(frozen=True)
class Variant:
    name: str
    seats: tuple[int, int]  # the allowed player counts (min, max)
    roles: dict[str, int]  # role -> how many at the standard table; citizens fill the rest
    night_zero: tuple[NightStep, ...]
    night: tuple[NightStep, ...]
    rules: dict[str, Option] = field(default_factory=dict)
    timers: dict[str, Option] = field(default_factory=dict)
    default_seats: int = 10


CLASSIC = Variant(
    name="classic",
    seats=(10, 10),
    roles={"don": 1, "mafia": 2, "sheriff": 1},
    night_zero=(
        # seed 004 §4.2: Don shows himself, the mafia meet, the Sheriff meets the host
        NightStep("don_meets", ("don",), None, "don_wakes_meet", "don_sleeps", "night_zero_step"),
        NightStep("mafia_meets", ("don", "mafia"), None, "mafia_wakes_meet", "mafia_sleeps", "mafia_meeting"),
        NightStep("sheriff_meets", ("sheriff",), None, "sheriff_wakes_meet", "sheriff_sleeps", "night_zero_step"),
    ),
    night=(
        # seed 004 §4.5 / seed 002: mafia shoots, Don looks for the Sheriff, Sheriff looks for mafia
        NightStep("mafia_shoots", ("don", "mafia"), "shoot", "mafia_wakes_shoot", "mafia_sleeps", "night_step"),
        NightStep("don_checks", ("don",), "check_sheriff", "don_wakes_check", "don_sleeps", "night_step"),
        NightStep("sheriff_checks", ("sheriff",), "check_mafia", "sheriff_wakes_check", "sheriff_sleeps", "night_step"),
    ),
    rules={
        "single_nominee_eliminated": Option(
            True, bool, "VARIANTS.md classic [decide]: FIIM practice, a single nominee after day 1 leaves"
        ),
        "first_day_single_nominee_vote": Option(
            False, bool, "seed 004 §4.4: on the first day a single nominee means no vote"
        ),
        "last_words": Option(True, bool, "seed 004 §4.4: the eliminated player has last words"),
        "last_words_after_shot": Option(True, bool, "seed 004 §4.5: a shot player has last words at dawn"),
        "tie_speeches": Option(True, bool, "seed 004 §4.4: tied players speak 30 s before the re-vote"),
        "three_way_tie_twice_ends": Option(
            True, bool, "seed 004 §7: three or more tied twice end the vote (no all-leave vote)"
        ),
        "draw_after_quiet_cycles": Option(
            3, int, "seed 004 §7: three day+night cycles with nobody leaving is a draw", 0, 20
        ),
        "second_shot_misses": Option(True, bool, "seed 004 §4.5: a mafioso who shoots twice makes it a miss"),
        "self_nomination": Option(True, bool, "seeds silent: a player may nominate himself"),
    },
    timers={
        "speech": Option(60, int, "seed 004 §4.3: one minute per speech", 5, 600),
        "tie_speech": Option(30, int, "seed 004 §4.4: 30 s for each tied player", 5, 300),
        "last_words": Option(60, int, "seed 004 §4.4 (seed 002 says 30 s)", 5, 300),
        "fouled_turn": Option(
            10, int, "seed 004 §6: a player with 3 fouls skips his speech but may still nominate", 3, 60
        ),
        "vote": Option(20, int, "seed 004 §4.4: ~2 s a candidate; the window for all taps", 3, 120),
        "night_step": Option(10, int, "seed 004 §4.2: a check is limited to 10 s", 3, 120),
        "night_zero_step": Option(10, int, "seed 004 §4.2", 3, 120),
        "mafia_meeting": Option(60, int, "seed 002: the mafia agree the order of kills", 5, 300),
    },
)

VARIANTS = {v.name: v for v in (CLASSIC,)}
