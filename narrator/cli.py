"""The `narrator` command: the parser of every subcommand, and `main`.

Each subcommand lives in its own module under narrator/commands/ (the voice adapter's in
narrator/voice/cli.py) and adds itself to the parser with `register`; nothing imports this module
but the entry points, so it may import them all.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys

from rich.text import Text

from . import __version__
from .commands import check_config, club, companion_host, play, replay, report, resume, simulate, terminal
from .voice import cli as voice_commands

# in the order `narrator --help` and docs/reference/commands.md list them
COMMANDS = (play, replay, simulate, check_config, resume, voice_commands, companion_host, report, club)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="narrator", description="An offline voice game master for Mafia.")
    parser.add_argument("--version", action="version", version=f"narrator {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.register(sub)
    return parser


def _stop_as_ctrl_c(signum, frame) -> None:
    """`kill`, a shutdown, `systemctl stop` (SIGTERM) or a closed terminal (SIGHUP) stop the game
    the way Ctrl-C does: the running game is cancelled where it stands (its journal holds every
    input already), the exit hooks run, and the table reads how to continue."""
    import _thread

    _thread.interrupt_main(signal.SIGINT)


def _signals_stop_the_game() -> dict:
    """The handlers replaced, to be put back when `main` returns (a test calls it in-process)."""
    before = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            with contextlib.suppress(OSError, ValueError):  # not the main thread, or no such signal here
                before[sig] = signal.signal(sig, _stop_as_ctrl_c)
    return before


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    before = _signals_stop_the_game()
    try:
        return _main(args)
    finally:
        for sig, handler in before.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(sig, handler)


def _main(args) -> int:
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
        with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
            terminal.err.print(Text(terminal.cli_words(terminal.table_voice, "interrupted")))
        return 130


if __name__ == "__main__":
    sys.exit(main())
