"""`narrator play`: a new game at this table, after a word about an unfinished one."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from rich.text import Text

from .. import journal as journals
from ..config import default_config
from ..journal import DamagedJournal, Journal, JournalError, read
from . import terminal
from .live_game import (companion_blocked, companion_on, journal_failed, journal_line, keep_shown, outputs_for, reveal_deal,
                        run_live)
from .resume import cmd_resume
from .terminal import ask, checked, cli_words, config_or_default, say_error, voice_of, wrapping_console


def register(subparsers) -> None:
    p = subparsers.add_parser("play", help="play a live game at this table")
    p.add_argument("--config", help="the config file (default: embedded classic/en defaults)")
    p.add_argument("--voice", choices=("auto", "text", "speech"),
                   help="print the narration, or also speak it (default: [voice] output, auto: speak when there is a speaker)")
    p.add_argument("--journal", help="journal file (default: a new file under ~/.local/state/narrator/games/)")
    p.add_argument("--new", action="store_true", help="start a new game even when an unfinished one is waiting (it is kept)")
    p.add_argument("--companion", action="store_true", help="serve the phone companion")
    p.add_argument("--listen", action="store_true", help="listen to the microphone for nominations")
    p.add_argument("--no-reveal", action="store_true", help="do not show roles on this screen (players know them)")
    p.set_defaults(func=cmd_play)


def cmd_play(args) -> int:
    from ..live import LiveSession
    from ..session import as_played

    cfg = checked(lambda: config_or_default(args.config))
    if cfg is None:
        return 2
    console = wrapping_console()
    voice = voice_of(cfg)
    blocked = companion_on(args, cfg) and companion_blocked(cfg, voice)
    if blocked:
        say_error(blocked, cli_words(voice, "error"))
        return 2
    explicit = args.journal or cfg.section("journal")["path"]
    try:
        if explicit:
            jpath = Path(explicit).expanduser()
            held = _take_explicit(jpath, args, voice)
        else:
            jpath = journals.new_game_path()
            held = _check_latest(args, voice)
            if held == "new":
                held = journals.lock(jpath)
        if isinstance(held, int):
            return held
        if held == "resume":
            return cmd_resume(args)
        companion = companion_on(args, cfg)
        cfg = as_played(cfg, companion)
        reveal = cfg.dealing["mode"] in ("random", "seeded") and not companion and sys.stdin.isatty() and not args.no_reveal
        # deal_shown: the phones' deal is journaled when they show it (see run_live)
        journal = Journal.create(jpath, cfg.path, cfg.text, {"voice": args.voice, "companion": companion, "reveal": reveal,
                                                            "deal_shown": companion}, cfg.base)
    except JournalError as exc:
        journal_failed(exc, voice, "cannot_start")
        return 2
    # a journal outside the games folder is noted there: after a crash, `narrator resume` alone finds it
    unnoted = journals.remember(jpath)
    live = LiveSession(cfg, journal)
    live.outputs = outputs_for(live, args.voice or cfg.section("voice")["output"], console, companion)
    first = live.start_effects()
    deal = live.session.dealing_event(random.SystemRandom())
    journaled = False
    if cfg.dealing["mode"] in ("random", "seeded") and not companion:
        if reveal:
            journaled = True
            if reveal_deal(cfg, deal, live, console, journal, [], new_deal=True) is not None:
                return 3
        else:
            say_error(cli_words(voice, "no_reveal_here"), "", "yellow")
    keep_shown(live, console, journal_line(live, jpath, console))
    if unnoted is not None:
        # the game is played as ever; only a bare `narrator resume` after a crash would not find
        # it. Kept on the screen through every wipe of the night, so the operator does see it.
        from ..console import path_shown

        warning = Text(live.voice.console_text("state_dir", {"folder": path_shown(journals.state_dir(), console),
                                                             "path": path_shown(jpath.expanduser().absolute(), console),
                                                             "reason": unnoted.strerror or str(unnoted)}), style="yellow")
        keep_shown(live, console, warning)
    return asyncio.run(run_live(live, first, [deal], args, console, journaled=journaled))


def _take_explicit(jpath: Path, args, voice=None):
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
        what = journals.describe(contents, voice or voice_of(default_config()))
    except DamagedJournal as exc:
        if exc.line == 1 and exc.why.name in ("damaged_empty", "damaged_never_started"):
            return held
        if exc.line == 1:
            held.release()
            say_error(cli_words(voice, "not_this_journal", problem=exc.said(voice)), cli_words(voice, "error"))
            return 2
        what = cli_words(voice, "damaged_at", line=exc.line)
    except OSError as exc:
        held.release()
        say_error(f"{jpath}: {exc.strerror or exc}", cli_words(voice, "error"))
        return 2
    choice = _unfinished_choice(jpath, what, args, voice)
    if choice == "new":
        aside = _keep_aside(jpath)
        held.release()
        terminal.err.print(Text(cli_words(voice, "kept_aside", path=str(aside))))
        return journals.lock(jpath)
    held.release()
    if choice == "resume":
        args.journal = str(jpath)
        return "resume"
    return choice


def _check_latest(args, voice=None):
    """Before a new game in the games folder: "new", "resume" or an exit code."""
    games = journals.unfinished_games()
    if not games or args.new:
        return "new"
    latest = games[-1]
    pid = journals.is_locked(latest.path)
    if pid is not None:
        who = cli_words(voice, "process", pid=pid) if pid > 0 else cli_words(voice, "another_process")
        terminal.err.print(Text(cli_words(voice, "played_elsewhere", who=who, path=str(latest.path))))
        return 1
    what = (journals.describe(latest.contents, voice or voice_of(default_config())) if latest.contents
            else cli_words(voice, "damaged_at", line=latest.error.line))
    choice = _unfinished_choice(latest.path, what, args, voice)
    if choice == "resume":
        args.journal = str(latest.path)
    return choice


def _unfinished_choice(jpath: Path, what: str, args, voice=None):
    if getattr(args, "new", False):
        return "new"
    from ..console import path_shown

    held = Text(cli_words(voice, "unfinished", path=path_shown(jpath, terminal.err), what=what), style="yellow")
    if not sys.stdin.isatty():
        terminal.err.print(held + " " + Text(cli_words(voice, "unfinished_how", path=str(jpath))))
        return 1
    terminal.err.print(held)
    # the question names the table's own letters; r, n and q are taken too
    reply = ask(cli_words(voice, "unfinished_ask") + " ", ("resume", "new", "quit"), voice)
    return reply if reply in ("resume", "new") else 1


def _keep_aside(jpath: Path) -> Path:
    n = 1
    while (aside := jpath.with_name(f"{jpath.stem}.unfinished-{n}{jpath.suffix}")).exists():
        n += 1
    jpath.rename(aside)
    companion = Path(str(jpath) + ".companion")
    if companion.exists():
        companion.rename(Path(str(aside) + ".companion"))
    return aside
