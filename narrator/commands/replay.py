"""`narrator replay`: a transcript played in virtual time, its protocol written."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.text import Text

from . import terminal
from .terminal import checked, cli_words, config_or_default, say_error, voice_of


def register(subparsers) -> None:
    p = subparsers.add_parser("replay", help="play a transcript in virtual time and write the protocol")
    p.add_argument("transcript")
    p.add_argument("--config", help="the config file (default: embedded defaults)")
    p.add_argument("--protocol", help="write the protocol here instead of stdout")
    p.set_defaults(func=cmd_replay)


def cmd_replay(args) -> int:
    """The protocol (stdout, or --protocol) is JSON for machines and stays as it is; what stderr
    says to a person (refusals, notes, the result) is in the table's language."""
    from ..replay import replay

    cfg = checked(lambda: config_or_default(args.config))
    if cfg is None:
        return 2
    voice = voice_of(cfg)
    error = cli_words(voice, "error")
    try:
        text = Path(args.transcript).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        say_error(cli_words(voice, "replay_unreadable", path=args.transcript, error=why), error)
        return 2
    if args.protocol:
        try:
            with open(args.protocol, "w", encoding="utf-8") as fh:
                result = replay(text, cfg, fh, name=args.transcript)
        except OSError as exc:
            say_error(cli_words(voice, "replay_cannot_write", path=args.protocol, error=exc.strerror or str(exc)), error)
            return 2
    else:
        result = replay(text, cfg, sys.stdout, name=args.transcript)
    for n in result.notes:
        say_error(n, cli_words(voice, "note"), "yellow")
    for p in result.problems:
        say_error(str(p), error)
    if result.finished:
        terminal.err.print(Text(result.session.voice.console_text("game_over", {"winner": result.session.voice.winner(result.session.game.winner)})))
    return 0 if result.ok else 1
