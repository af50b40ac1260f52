"""The `narrator` command: play, replay, simulate, check-config, resume (+ adapters' subcommands)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import random
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from . import __version__
from .config import Config, ConfigError, default_config, load_config, parse_config
from .journal import Journal, default_path, read
from .rules.variants import VARIANTS

# Adapters register their own subcommands (listen, devices, models, …) when installed.
EXTENSIONS = ("narrator.voice.cli", "narrator.companion.cli")

err = Console(stderr=True, highlight=False, soft_wrap=True)


def say_error(message: str, label: str = "error", style: str = "red") -> None:
    """A message on stderr, printed literally: it may quote a config, a transcript or a name,
    and none of that is ever read as rich markup."""
    err.print(Text.assemble((label, style), " ", str(message)) if label else Text(str(message), style=style))


def _config(path: str | None) -> Config:
    return default_config() if path is None else load_config(path)


def _checked(load) -> Config | None:
    """Load a config, printing every problem (file, line, key) instead of raising."""
    try:
        return load()
    except ConfigError as exc:
        for p in exc.problems:
            say_error(str(p))
        return None


def cmd_check_config(args) -> int:
    cfg = _checked(lambda: load_config(args.file))
    if cfg is None:
        return 1
    print(f"{args.file}: ok — variant {cfg.variant.name}, language {cfg.language}, {cfg.seats} seats, dealing {cfg.dealing['mode']}")
    return 0


def cmd_replay(args) -> int:
    from .replay import replay

    cfg = _checked(lambda: _config(args.config))
    if cfg is None:
        return 2
    try:
        text = Path(args.transcript).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        say_error(f"{args.transcript}: {exc}")
        return 2
    if args.protocol:
        with open(args.protocol, "w", encoding="utf-8") as fh:
            result = replay(text, cfg, fh, name=args.transcript)
    else:
        result = replay(text, cfg, sys.stdout, name=args.transcript)
    for n in result.notes:
        say_error(n, "note", "yellow")
    for p in result.problems:
        say_error(str(p))
    if result.finished:
        err.print(Text(f"game over: {result.session.game.winner}"))
    return 0 if result.ok else 1


def cmd_simulate(args) -> int:
    from .simulate import simulate

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
    if args.config:
        cfg = _checked(lambda: load_config(args.config))
        if cfg is None:
            return 2
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

        bar = Progress(console=err, transient=True)
        task = bar.add_task("games", total=args.games)
        bar.start()
        progress = lambda n: bar.update(task, completed=n)  # noqa: E731
    result = simulate(args.variant, args.games, args.seed, rules, timers, seats, check_replay=not args.no_replay_check,
                      progress=progress, roles=roles or None, skill=args.skill)
    if args.progress:
        bar.stop()
    print(json.dumps(result))
    return 0 if result["violations"] == 0 else 1


def _outputs(live, voice_mode: str, console: Console, companion: bool = False):
    from .console import ConsoleOutput

    outputs = [ConsoleOutput(live, console, show_private=not companion)]
    if voice_mode not in ("speech", "auto"):
        return outputs
    try:
        from .voice import AudioUnavailable, make_speech_output
    except ImportError:
        say_error("narrating as text: the speech packages are not installed here — run scripts/install.sh", "", "yellow")
        return outputs
    try:
        speech = make_speech_output(live.config, live)
        outputs.append(speech)
        if getattr(speech, "notice", None):
            from rich.markup import escape

            err.print(f"[yellow]{escape(speech.notice)}[/]")
    except AudioUnavailable as exc:
        # one line: why the narrator is silent, and what makes it speak
        from .voice.audio import FALLBACK

        say_error(f"narrating as text: {str(exc).removesuffix('; ' + FALLBACK)}", "", "yellow")
    return outputs


async def _run_live(live, first, initial, args, console: Console) -> int:
    from .console import read_console

    handles = []
    listener = None
    keypad = None
    live.attach()
    if _companion_on(args, live.config):
        try:
            from .companion import start as start_companion

            h = start_companion(live.config, live)
            handles.append(h)
            if initial:
                # each phone shows its role and asks Ready: night zero waits until every seat is
                # ready (or the host starts it), or it would run while players still look at their role
                deal_events, initial = initial, []
                asyncio.get_running_loop().create_task(h.deal_when_ready(deal_events))
        except ImportError as exc:
            say_error(f"the companion is not available: {exc}", "", "yellow")
        except OSError as exc:
            say_error(f"the companion cannot serve on {live.config.section('companion')['host']}:"
                      f"{live.config.section('companion')['port']}: {exc} — change [companion] port, or play without phones", "", "red")
            return 2
    elif live.config.section("input")["console"]:
        from .companion import KeypadInput
        from .flow.effects import Say

        # without phones the night's choices are typed: the narrator explains the sound masking
        keypad = KeypadInput(live)
        # the speaker's rain (voice.ambience) covers the keys too, when there is a speaker
        rain = live.config.section("voice")["ambience"] > 0 and any(hasattr(o, "queued_seconds") for o in live.outputs)
        first = list(first) + [Say("keypad_masking_sound" if rain else "keypad_masking", {})]
    if getattr(args, "listen", False) or live.config.section("input")["engine"] != "none":
        try:
            from .voice import start_listening

            listener = start_listening(live.config, live)
            _better_ears_hint(live.config, listener)
        except ImportError:
            say_error("speech recognition is not installed; type the sentences instead", "", "yellow")
        except Exception as exc:  # a missing microphone or model must not stop the game
            say_error(str(exc), "", "yellow")
        if listener is None:
            # the table must know the narrator is deaf: say so, in its own language, after the welcome
            from .flow.effects import Say

            first = list(first) + [Say("no_recognition", {"language": live.voice.name})]
    if live.config.section("input")["console"]:
        on_start = None
        if handles:
            loop = asyncio.get_running_loop()
            on_start = lambda: loop.call_soon_threadsafe(handles[0].hub.start)  # noqa: E731
        read_console(live, console=console, keypad=keypad, on_start=on_start)
    try:
        winner = await live.run(first, initial)
        if winner and handles:
            # the result stays on every phone (and reaches a phone that reconnects) until the host closes it
            await handles[0].keep_result(live, console)
    finally:
        if listener is not None:
            listener.stop()
        for h in handles:
            r = h.stop()
            if asyncio.iscoroutine(r):
                await r
    if winner:
        console.print(Text(f"game over: {winner}", style="bold"))
    else:
        console.print(Text(f"game stopped; continue it with: narrator resume --journal {live.journal.path if live.journal else ''}"))
    return 0


def _better_ears_hint(cfg: Config, listener) -> None:
    """An English table with no Vosk model hears through PocketSphinx, which misses far more: say
    once, in the terminal only (the table hears nothing of it), what gives better ears."""
    engine = getattr(getattr(listener, "input", None), "engine", None)
    if cfg.section("input")["engine"] == "auto" and getattr(engine, "name", "") == "sphinx":
        err.print("[yellow]listening with PocketSphinx (no Vosk model here); "
                  "`narrator models fetch en` gives better ears (about 40 MB)[/]")


def _companion_on(args, cfg: Config) -> bool:
    return bool(getattr(args, "companion", False) or cfg.section("companion")["enabled"])


def cmd_play(args) -> int:
    from .console import reveal_roles
    from .live import LiveSession

    cfg = _checked(lambda: _config(args.config))
    if cfg is None:
        return 2
    console = Console(highlight=False)
    jpath = Path(args.journal or cfg.section("journal")["path"] or default_path())
    journal = Journal.create(jpath, cfg.path, cfg.text, {"voice": args.voice, "companion": _companion_on(args, cfg)})
    live = LiveSession(cfg, journal)
    live.outputs = _outputs(live, args.voice or cfg.section("voice")["output"], console, _companion_on(args, cfg))
    first = live.start_effects()
    deal = live.session.dealing_event(random.SystemRandom())
    if cfg.dealing["mode"] in ("random", "seeded") and not _companion_on(args, cfg):
        if sys.stdin.isatty() and not args.no_reveal:
            reveal_roles(dict(_full_deal(cfg, deal)), live.voice, console)
        else:
            say_error("roles dealt at random and no companion: use --companion or a terminal to show each player his role", "", "yellow")
    console.print(Text(f"journal: {jpath} · type 'help' for inputs", style="dim"))
    return asyncio.run(_run_live(live, first, [deal], args, console))


def _full_deal(cfg: Config, deal) -> dict[int, str]:
    named = dict(deal.roles)
    return {s: named.get(s, "citizen") for s in range(1, cfg.seats + 1)}


def cmd_resume(args) -> int:
    from .live import LiveSession

    jpath = Path(args.journal) if args.journal else default_path()
    try:
        contents = read(jpath)
    except FileNotFoundError:
        say_error(f"no journal at {jpath}: there is no game to resume (start one with narrator play)")
        return 2
    except ValueError as exc:
        say_error(str(exc))
        return 2
    if contents.finished:
        err.print(Text(f"the game in {jpath} is finished; start a new one with narrator play"))
        return 1
    cfg = _checked(lambda: parse_config(contents.header["config_text"], contents.header["config_path"]))
    if cfg is None:
        return 2
    console = Console(highlight=False)
    args.companion = getattr(args, "companion", False) or contents.header.get("mode", {}).get("companion", False)
    journal = Journal.reopen(jpath)
    live = LiveSession(cfg, journal)
    live.outputs = _outputs(live, args.voice or contents.header.get("mode", {}).get("voice") or cfg.section("voice")["output"],
                            console, _companion_on(args, cfg))
    first = live.start_effects(replayed=contents.events)
    console.print(Text(f"resumed {len(contents.events)} events from {jpath}", style="dim"))
    console.print(Text(f"» {live.voice.render('resuming', {})}"))
    console.print(Text(f"waiting for: {live.session.awaiting_text()}", style="dim"))
    args.companion = getattr(args, "companion", False) or contents.header.get("mode", {}).get("companion", False)
    return asyncio.run(_run_live(live, first, [], args, console))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="narrator", description="An offline voice game master for Mafia.")
    parser.add_argument("--version", action="version", version=f"narrator {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play a live game at this table")
    p.add_argument("--config", help="the config file (default: embedded classic/en defaults)")
    p.add_argument("--voice", choices=("auto", "text", "speech"),
                   help="print the narration, or also speak it (default: [voice] output, auto: speak when there is a speaker)")
    p.add_argument("--journal", help="journal file (default: ~/.local/state/narrator/journal.jsonl)")
    p.add_argument("--companion", action="store_true", help="serve the phone companion")
    p.add_argument("--listen", action="store_true", help="listen to the microphone for nominations")
    p.add_argument("--no-reveal", action="store_true", help="do not show roles on this screen (players know them)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="play a transcript in virtual time and write the protocol")
    p.add_argument("transcript")
    p.add_argument("--config", help="the config file (default: embedded defaults)")
    p.add_argument("--protocol", help="write the protocol here instead of stdout")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play many random games; report win rates and rule violations")
    p.add_argument("--variant", default="classic")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seats", type=int)
    p.add_argument("--config", help="take rule options, timers and roles from this config")
    p.add_argument("--role", action="append", metavar="NAME=COUNT", help="a role count, e.g. --role mafia=3 --role doctor=1")
    p.add_argument("--skill", type=float, default=0.0,
                   help="how often a town player's choice lands on a real mafioso (0: pure chance; see scripts/balance.py)")
    p.add_argument("--no-replay-check", action="store_true", help="skip replaying each protocol (faster)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("check-config", help="validate a config file")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_config)

    p = sub.add_parser("resume", help="continue the last game from its journal")
    p.add_argument("--journal")
    p.add_argument("--voice", choices=("auto", "text", "speech"))
    p.add_argument("--companion", action="store_true")
    p.add_argument("--listen", action="store_true")
    p.set_defaults(func=cmd_resume)

    for name in EXTENSIONS:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        register = getattr(mod, "register", None)
        if register:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        err.print(Text("interrupted; continue with: narrator resume"))
        return 130


if __name__ == "__main__":
    sys.exit(main())
