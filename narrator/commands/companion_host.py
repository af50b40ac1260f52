"""`narrator companion-host`: the host screen's address and QR code, to open it on a tablet.

The seats' join codes exist only while a game runs (`narrator play --companion` prints them):
their tokens are new for every game.
"""

from __future__ import annotations

import sys

from .terminal import checked, config_or_default


def cmd_companion_host(args) -> int:
    from ..companion import qr

    cfg = checked(lambda: config_or_default(args.config))
    if cfg is None:  # each problem printed with its file and line, as `play` prints them
        return 2
    section = cfg.section("companion")
    url = qr.base_url(cfg, section["host"], section["port"]) + "/host"
    sys.stdout.write(qr.terminal_qr(url))
    # the PIN is never printed: on the narrator's machine the running game's own link opens the
    # host screen (it carries the host's key), and for a tablet the PIN is in the game's private
    # file (its path is printed at the start) or [companion] pin
    print(f"host screen: {url} (on this machine open the link the game printed, which needs no PIN; on another "
          "device enter the PIN from the file named when the game starts, or set [companion] pin)")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("companion-host", help="show the address and QR code of the companion's host screen")
    p.add_argument("--config", help="the config file (default: built-in defaults)")
    p.set_defaults(func=cmd_companion_host)
