"""`narrator simulate`: many random games, their win rates and any rule broken."""

from __future__ import annotations

import json

from ..config import load_config
from ..rules.variants import VARIANTS
from . import terminal
from .terminal import checked, say_error


def register(subparsers) -> None:
    p = subparsers.add_parser("simulate", help="play many random games; report win rates and rule violations")
    p.add_argument("--variant", help="the rule system (default: the --config's, else classic)")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seats", type=int)
    p.add_argument("--config", help="take rule options, timers and roles from this config")
    p.add_argument("--role", action="append", metavar="NAME=COUNT", help="a role count, e.g. --role mafia=3 --role doctor=1")
    p.add_argument("--skill", type=float, default=0.0,
                   help="how often a town player's choice lands on a real mafioso (0: pure chance; see scripts/balance.py)")
    p.add_argument("--no-replay-check", action="store_true", help="skip replaying each protocol (faster)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    p.add_argument("--protocols", metavar="DIR", help="write every game's protocol into DIR (for narrator report and club)")
    p.set_defaults(func=cmd_simulate)


def cmd_simulate(args) -> int:
    from ..simulate import simulate

    cfg = None
    if args.config:
        cfg = checked(lambda: load_config(args.config))
        if cfg is None:
            return 2
        # the config's rule system: its rule options and timers belong to it (a sverige config
        # simulated as classic read sverige's options as classic ones)
        if args.variant and args.variant != cfg.variant.name:
            say_error(f"{args.config} is a {cfg.variant.name} config; --variant {args.variant} does not go with it")
            return 2
        args.variant = cfg.variant.name
    args.variant = args.variant or "classic"
    if args.variant not in VARIANTS:
        say_error(f"unknown variant {args.variant!r}; one of {', '.join(VARIANTS)}")
        return 2
    rules = timers = None
    roles: dict[str, int] = {}
    for item in args.role or []:
        name, eq, count = item.partition("=")
        if not eq or not count.isdecimal() or len(count) > 4:  # "³".isdigit() holds but int("³") raises
            say_error(f"--role takes name=count, not {item!r}")
            return 2
        roles[name] = int(count)
    variant = VARIANTS[args.variant]
    unknown = set(roles) - set(variant.table(args.seats or variant.default_seats)) - set(variant.optional_roles)
    if unknown:
        say_error(f"{', '.join(sorted(unknown))}: not a role of {args.variant}")
        return 2
    if not 0.0 <= args.skill <= 1.0:
        say_error("--skill is a probability from 0 to 1")
        return 2
    seats = args.seats
    if cfg is not None:
        rules, timers, seats = cfg.rules, cfg.timers, seats or cfg.seats
        roles = {**cfg.roles, **roles}
    if args.games < 1:
        say_error("--games must be at least 1")
        return 2
    lo, hi = variant.seats
    if seats is not None and not lo <= seats <= hi:
        say_error(f"{args.variant} is played with {lo} to {hi} seats, not {seats}")
        return 2
    progress = None
    if args.progress:
        from rich.progress import Progress

        bar = Progress(console=terminal.err, transient=True)
        task = bar.add_task("games", total=args.games)
        bar.start()
        progress = lambda n: bar.update(task, completed=n)  # noqa: E731
    cfg_table = cfg
    result = simulate(args.variant, args.games, args.seed, rules, timers, seats, check_replay=not args.no_replay_check,
                      progress=progress, roles=roles or None, skill=args.skill, protocols=args.protocols,
                      players=cfg_table.players if cfg_table else None, language=cfg_table.language if cfg_table else "en",
                      votes_on_phones=bool(cfg_table and cfg_table.section("companion")["votes"]))
    if args.progress:
        bar.stop()
    print(json.dumps(result))
    return 0 if result["violations"] == 0 else 1
