"""`narrator check-config`: a config read as the game would read it, every problem named."""

from __future__ import annotations

from ..config import PATH_OPTIONS, load_config
from .terminal import checked, cli_words, voice_of


def register(subparsers) -> None:
    p = subparsers.add_parser("check-config", help="validate a config file")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_config)


def cmd_check_config(args) -> int:
    cfg = checked(lambda: load_config(args.file))
    if cfg is None:
        return 1
    print(cli_words(voice_of(cfg), "config_ok", file=args.file, variant=cfg.variant.name, language=cfg.language, seats=cfg.seats,
                    dealing=cfg.dealing["mode"]))
    # a club's server URL is no file (and its password is never printed)
    named = [(f"{section}.{key}", cfg.section(section)[key]) for section, key in PATH_OPTIONS
             if cfg.section(section)[key] and not cfg.section(section)[key].startswith(("postgresql://", "postgres://"))]
    if named:
        # where the game will look: a relative path is the config's folder's, not the working folder's
        print(cli_words(voice_of(cfg), "config_paths", folder=cfg.base or "."))
        for key, path in named:
            print(cli_words(voice_of(cfg), "config_path", key=key, path=path))
    return 0
