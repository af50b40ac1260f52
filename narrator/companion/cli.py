"""`narrator companion-host`: the host screen's address and QR code, to open it on a tablet.

The seats' join codes exist only while a game runs (`narrator play --companion` prints them):
their tokens are new for every game.
"""

from __future__ import annotations

import sys


def cmd_companion_host(args) -> int:
    from ..cli import _config
    from . import qr

    cfg = _config(args.config)
    section = cfg.section("companion")
    url = qr.base_url(cfg, section["host"], section["port"]) + "/host"
    sys.stdout.write(qr.terminal_qr(url))
    # the PIN is never printed: on the narrator's machine the host screen needs none, and for a
    # tablet it is in the game's private file (its path is printed at the start) or [companion] pin
    print(f"host screen: {url} (no PIN on this machine; for another device the PIN is in the file "
          "named when the game starts, or set [companion] pin)")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("companion-host", help="show the address and QR code of the companion's host screen")
    p.add_argument("--config", help="the config file (default: built-in defaults)")
    p.set_defaults(func=cmd_companion_host)
