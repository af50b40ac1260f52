"""`narrator resume`: the last unfinished game (or the one named) goes on from its journal."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sys
from pathlib import Path

from rich.text import Text

from .. import journal as journals
from ..config import Config, ConfigError, load_config, parse_config
from ..flow.events import Deal
from ..journal import DamagedJournal, Journal, JournalError, read, read_error
from ..worded import Worded
from . import terminal
from .live_game import (companion_blocked, companion_on, journal_line, keep_shown, outputs_for, resumed_shown, reveal_deal,
                        run_live)
from .terminal import ask, checked, cli_words, say_error, voice_of, wrapping_console


def register(subparsers) -> None:
    p = subparsers.add_parser("resume", help="continue the last unfinished game from its journal")
    p.add_argument("--journal", help="the game's journal (default: the latest unfinished game)")
    p.add_argument("--repair", action="store_true",
                   help="a damaged journal: resume up to its last good line, keeping a copy of the damaged file")
    p.add_argument("--config", help="the table's config: without --journal, the game journaled at its [journal] path; "
                   "what is said before the journal can be read is said in its language (else the system's locale's)")
    p.add_argument("--voice", choices=("auto", "text", "speech"))
    p.add_argument("--companion", action="store_true")
    p.add_argument("--listen", action="store_true")
    p.set_defaults(func=cmd_resume)


def _locale_language() -> str | None:
    """The table's language as the system's locale names it (LC_ALL, then LC_MESSAGES, then LANG,
    as POSIX reads them for messages): "ru_RU.UTF-8" is Russian; C, POSIX and the rest, none."""
    from ..language import LANGUAGES

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
    from ..config import ConfigError, language_of, read_config
    from ..language import load_voice

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
    from ..config import config_of

    read = getattr(args, "config_read", None)
    if read is None:
        return load_config(args.config)
    if isinstance(read, Exception):
        raise read
    return config_of(*read)


def cmd_resume(args) -> int:
    from ..live import LiveSession
    from ..session import as_played, companion_ran

    before = _voice_before_the_journal(args)
    if not args.journal and getattr(args, "config", None):
        # the club's config names where its games are journaled: that game is the one to go on
        cfg = checked(lambda: _config_read(args))
        if cfg is None:
            return 2
        if cfg.section("journal")["path"]:
            args.journal = cfg.section("journal")["path"]
    if args.journal:
        jpath = Path(args.journal).expanduser()
    else:
        games = journals.unfinished_games()
        if not games:
            say_error(cli_words(before, "no_unfinished_game", folder=str(journals.games_dir())), cli_words(before, "error"))
            if not _writable(journals.state_dir()):
                # play could not note a --journal game there: the game is not lost, only unlisted
                terminal.err.print(Text(cli_words(before, "state_dir_unlisted", folder=str(journals.state_dir()))))
            return 2
        jpath = games[-1].path
    if not jpath.exists():
        say_error(cli_words(before, "no_journal_at", path=str(jpath)), cli_words(before, "error"))
        return 2
    # what is said before the game's config is read is said in the language it names, if it can
    # be read; else in the one the user's config or the system names
    voice = _peek_voice(jpath) or before
    error = cli_words(voice, "error")
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
            exc = DamagedJournal(jpath, 1, cli_words(voice, "config_damaged_too"))
        contents = _salvage(jpath, damage, exc.said(voice), exc.contents, args, voice)
        if contents is None:
            return 2
    except OSError as exc:
        say_error(read_error(jpath, exc).said(voice), error)
        return 2
    if contents.finished:
        terminal.err.print(Text(cli_words(voice, "already_finished", path=str(jpath))))
        return 1
    if contents.torn:
        # a power cut in the middle of a write: that input was never applied, so nothing is lost
        terminal.err.print(Text(cli_words(voice, "torn_tail", path=str(jpath), line=contents.total_lines + 1), style="yellow"))
    cfg = checked(lambda: _journal_config(contents.header))
    if cfg is None:
        say_error(cli_words(voice, "config_not_valid_here", path=str(jpath)), error)
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
    cfg = as_played(cfg, companion_on(args, cfg))
    voice = voice_of(cfg)
    blocked = companion_on(args, cfg) and companion_blocked(cfg, voice)
    if blocked:
        # nothing noted, nothing replayed: fixed, the same resume goes on with its phones
        say_error(blocked, cli_words(voice, "error"))
        return 2
    bad = _refused_event(cfg, contents)
    if bad is not None:
        i, what = bad
        contents = _salvage(jpath, contents.damage_at(i, what), f"{jpath}:{contents.lines[i]}: {what.said(voice)}", None, args,
                            voice)
        if contents is None:
            return 2
    console = wrapping_console()
    mode = contents.header.get("mode", {})
    try:
        journal = Journal.reopen(jpath)
        if join_now:
            journal.companion_joined()
            joined = len(contents.events)
    except (JournalError, DamagedJournal) as exc:
        say_error(exc.said(voice), cli_words(voice, "error"))
        return 2
    live = LiveSession(cfg, journal, companion_from=None if ran else joined)
    voice_mode = args.voice or mode.get("voice") or cfg.section("voice")["output"]
    events = contents.events
    left = [s for s in range(1, cfg.seats + 1) if s not in contents.revealed]
    if mode.get("reveal") and len(events) == 1 and isinstance(events[0], Deal) and left and sys.stdin.isatty():
        # stopped in the hot-seat reveal: it goes on from the next seat, and as the table has
        # heard nothing of the game yet, the game then starts as a new one would, on this deal
        seen = contents.revealed
        who = (cli_words(voice, "seen_one", seat=seen[0]) if len(seen) == 1 else
               cli_words(voice, "seen_some", seats=", ".join(map(str, seen))) if seen else cli_words(voice, "seen_none"))
        if reveal_deal(cfg, events[0], live, console, journal, seen, cli_words(voice, "dealt_before_stop", who=who)) is not None:
            return 3
        live.outputs = outputs_for(live, voice_mode, console, companion_on(args, cfg))
        first = live.start_effects()
        keep_shown(live, console, journal_line(live, jpath, console))
        return asyncio.run(run_live(live, first, [events[0]], args, console, journaled=True))
    if mode.get("deal_shown") and len(events) == 1 and isinstance(events[0], Deal) and left:
        # stopped while the phones showed the roles and asked Ready: the same deal on the same
        # phones, Ready again from every seat, and then night zero — as a new game would begin
        live.outputs = outputs_for(live, voice_mode, console, companion_on(args, cfg))
        first = live.start_effects()
        resumed_shown(live, console, len(events), jpath)
        return asyncio.run(run_live(live, first, [events[0]], args, console, journaled=True))
    first = live.start_effects(replayed=events, timer_marks=contents.timer_marks, by=contents.by)
    initial, journaled = [], False
    if live.game.state == "setup":
        # stopped before a deal was applied: nobody has seen a role yet, so deal now
        deal = live.session.dealing_event(random.SystemRandom())
        if deal is not None:
            initial = [deal]
        if mode.get("reveal") and deal is not None and sys.stdin.isatty():
            journaled = True
            if reveal_deal(cfg, deal, live, console, journal, [], cli_words(voice, "dealt_now"), new_deal=True) is not None:
                return 3
    elif mode.get("reveal") and len(events) == 1 and left:
        terminal.err.print(Text(cli_words(voice, "not_seen_yet", seats=", ".join(map(str, left))), style="yellow"))
    live.outputs = outputs_for(live, voice_mode, console, companion_on(args, cfg))
    resumed_shown(live, console, len(events), jpath)
    from ..console import waiting_text

    # a keypad table's night (no phones, typed at this terminal) waits for its full time, not a timeout
    keypad = not companion_on(args, cfg) and cfg.section("input")["console"] and sys.stdin.isatty()
    console.print(Text(live.voice.console_text("status_waiting", {"what": waiting_text(live, keypad)}), style="dim"),
                  soft_wrap=True)
    return asyncio.run(run_live(live, first, initial, args, console, journaled=journaled))


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
    from ..session import as_journaled

    return as_journaled(parse_config(header["config_text"], header["config_path"], header.get("config_dir")), header)


def _config_ok(header: dict) -> bool:
    try:
        _journal_config(header)
    except ConfigError:
        return False
    return True


def _refused_event(cfg: Config, contents) -> tuple[int, Worded] | None:
    """The first journaled event this game cannot take (a journal from elsewhere), if any."""
    from ..session import Session

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
    error = cli_words(voice, "error")
    say_error(message, error)
    if damage is None:
        terminal.err.print(Text(cli_words(voice, "nothing_to_resume")))
        terminal.err.print(Text(cli_words(voice, "or_new_game")))
        return None
    terminal.err.print(Text(cli_words(voice, "can_go_on", good=damage.line - 1, n=damage.lost_lines, line=damage.line)))
    ok = getattr(args, "repair", False)
    if not ok and sys.stdin.isatty():
        # the question names the table's own letters; y and n are taken too
        ok = ask(cli_words(voice, "repair_ask") + " ", ("yes", "no"), voice) == "yes"
    if not ok:
        terminal.err.print(Text(cli_words(voice, "repair_how", path=str(jpath))))
        terminal.err.print(Text(cli_words(voice, "or_new_game")))
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
    terminal.err.print(Text(cli_words(voice, "repaired", copy=str(copy), good=damage.line - 1)))
    return contents


def _peek_voice(jpath: Path):
    """The voice of the game in a journal, read from its first line alone (None: English): a game
    that cannot be resumed is still told why in its table's language."""
    from ..config import language_of
    from ..language import load_voice

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

    from ..language import LANGUAGES

    found = re.search(rb'\\nlanguage\s*=\s*\\"([a-z]{2})\\"', first)
    lang = found.group(1).decode() if found else None
    try:
        return load_voice(lang) if lang in LANGUAGES else None
    except Exception:  # noqa: BLE001
        return None
