"""The one config file: variant, language, players, rule options, timers, voice, input, companion.

`variant = "classic"` and `language = "en"` alone make a complete config; every other value
defaults to the seeds. Unknown keys and bad values are errors naming file, line and key — a
typo in a rule option must never silently fall back to a default at a serious table.
"""

from __future__ import annotations

import math
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .language import LANGUAGES, seat_number, voices_dir
from .rules.dealing import validate_deal
from .rules.roles import MAFIA, ROLE_ALIASES, team_of
from .rules.variants import VARIANTS, Option, Variant


@dataclass
class ConfigProblem:
    file: str
    line: int
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.key}: {self.message}"


class ConfigError(Exception):
    def __init__(self, problems: list[ConfigProblem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


# Adapter sections: key -> Option (default, type, description, bounds/choices).
ADAPTER_SECTIONS: dict[str, dict[str, Option]] = {
    "voice": {
        "output": Option("auto", str, "speech also speaks the narration, text only prints it; auto speaks when there is a speaker",
                         choices=("auto", "text", "speech")),
        "engine": Option("espeak", str, "espeak (espeak-ng, every language, nothing to download) or piper (a natural voice)",
                         choices=("espeak", "piper")),
        "voice": Option("", str, "the voice (empty: the language's espeak-ng voice, or en_US-joe-medium for piper)"),
        "rate": Option(165, int, "words per minute", 80, 450),
        "volume": Option(1.0, float, "0.0 to 1.0", 0, 1),
        "device": Option("", str, "the output device name or index (empty: the system default)"),
        "cache_dir": Option("", str, "where rendered lines are cached (empty: ~/.cache/narrator/tts)"),
        "voice_dir": Option("", str, "where fetched Piper voices live (empty: ./models/piper)"),
        "ambience": Option(0.15, float, "loudness of the masking sound under every night step, 0.0 (off) to 1.0", 0, 1),
    },
    "input": {
        "console": Option(True, bool, "typed inputs at the terminal"),
        "engine": Option("auto", str, "speech recognition engine", choices=("auto", "vosk", "sphinx", "none")),
        "microphone": Option("", str, "the input device name or index (empty: the system default)"),
        "model_dir": Option("", str, "where the Vosk models live (empty: ./models)"),
        "cancel_seconds": Option(5, int, "how long a misheard nomination can be cancelled by voice", 0, 30),
        "second_opinion": Option(True, bool, "PocketSphinx: Whisper reads along (or, without it, a digits-only "
                                 "recogniser): a seat it doubts is asked again, talk it does not hear as the command is "
                                 "ignored"),
    },
    "companion": {
        "enabled": Option(False, bool, "serve the phone companion on the local network"),
        "host": Option("0.0.0.0", str, "the address the companion binds to"),
        "port": Option(8765, int, "the companion's port", 1, 65535),
        "pin": Option("", str, "PIN of the host screen (empty: a random one is printed)"),
        "votes": Option(False, bool, "day votes on the phones"),
        "public_url": Option("", str, "the address phones use, e.g. http://192.168.1.20:8765 (empty: this machine's LAN address)"),
        "seats_page": Option("", str, "where the printable page of seat QR codes is written (empty: a private temp file)"),
        "keep_result": Option(3600, int, "seconds the result stays on the phones after the game unless the host closes it", 0, 86400),
    },
    "night": {
        "jitter_ms": Option(0, int, "random extra length of every night step, the same for every role", 0, 10000),
        "ack_ms": Option(20, int, "a phone's night tap is answered this long after it arrives, awake or not", 5, 1000),
    },
    "journal": {
        "path": Option("", str, "the journal file (empty: a new file for each game under ~/.local/state/narrator/games/)"),
    },
    "club": {
        "database": Option("", str, "the club's record of games, an SQLite file several narrators may share (empty: ~/.local/share/narrator/club.sqlite)"),
    },
}

PER_LANGUAGE_VOICE = ("engine", "voice", "rate", "volume")
DEALING_MODES = ("random", "seeded", "fixed", "cards")


@dataclass
class Config:
    path: str
    text: str
    variant: Variant
    language: str
    seats: int
    players: dict[int, str] = field(default_factory=dict)
    dealing: dict = field(default_factory=dict)
    rules: dict = field(default_factory=dict)
    timers: dict = field(default_factory=dict)
    sections: dict[str, dict] = field(default_factory=dict)
    roles: dict[str, int] = field(default_factory=dict)  # special role -> count at this table

    def section(self, name: str) -> dict:
        return self.sections[name]



# options that no longer exist, with what replaced them: an old club config gets told, not guessed
RETIRED = {
    ("rules", "second_shot_misses"): "no longer an option: a night choice may be changed until the step ends "
                                     "and the last choice counts (remove this line)",
}
class Locator:
    """Where each key and table of a config is written, read once: finding the line of a problem
    is a dictionary look-up, so reporting thousands of bad keys stays linear in the file."""

    def __init__(self, text: str):
        self.lines: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        # TOML counts lines by "\n" only; str.splitlines would also split at \x0c or \u2028 in a string
        for i, raw in enumerate(text.split("\n"), start=1):
            line = raw.split("#", 1)[0].strip()
            m = re.match(r"^\[\s*([^\]]+?)\s*\]$", line)
            if m:
                table = tuple(p.strip().strip('"') for p in m.group(1).split("."))
                self.lines.setdefault(table, i)
                continue
            m = re.match(r'^("?[^"=]+?"?)\s*=', line)
            if m:
                self.lines.setdefault(table + tuple(p.strip().strip('"') for p in m.group(1).split(".")), i)

    def __call__(self, path: tuple[str, ...]) -> int:
        """The line (1-based) where a key is written; its table's line, or 1, when it is not."""
        for n in range(len(path), 0, -1):
            if path[:n] in self.lines:
                return self.lines[path[:n]]
        return 1


def locate(text: str, path: tuple[str, ...]) -> int:
    return Locator(text)(path)


def shown(value) -> str:
    """A config value quoted in a message: cut short, so a hostile file cannot flood the screen."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return f"a number of {len(str(abs(value))) if abs(value) < 10**4000 else 'over 4000'} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


# A name longer than this cannot be read out or fit a seat card
MAX_NAME = 40


def _type_ok(value, opt: Option) -> bool:
    if opt.kind is bool:
        return isinstance(value, bool)
    if opt.kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if opt.kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if opt.kind is str:
        return isinstance(value, (str, int)) and not isinstance(value, bool)
    return isinstance(value, opt.kind)


def _check_option(value, opt: Option) -> str | None:
    if not _type_ok(value, opt):
        return f"must be {opt.kind.__name__}, not {type(value).__name__} {shown(value)}"
    if isinstance(value, float) and not math.isfinite(value):
        bounds = f" from {opt.minimum} to {opt.maximum}" if opt.minimum is not None and opt.maximum is not None else ""
        return f"must be a number{bounds}, not {value}"
    if opt.kind is str:
        value = str(value)
    if opt.choices is not None and value not in opt.choices:
        return f"must be one of {', '.join(map(str, opt.choices))}, not {shown(value)}"
    if opt.minimum is not None and value < opt.minimum:
        return f"must be at least {opt.minimum}, not {shown(value)}"
    if opt.maximum is not None and value > opt.maximum:
        return f"must be at most {opt.maximum}, not {shown(value)}"
    return None


def parse_config(text: str, path: str = "<config>") -> Config:
    problems: list[ConfigProblem] = []
    locator: Locator | None = None

    def problem(key: tuple[str, ...], message: str) -> None:
        nonlocal locator
        locator = locator or Locator(text)
        problems.append(ConfigProblem(path, locator(key), ".".join(key), message))

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ConfigError([ConfigProblem(path, int(m.group(1)) if m else 1, "(syntax)", f"not valid TOML: {exc}")]) from None
    except RecursionError:
        # tomllib parses nested arrays and inline tables recursively; name the most nested line
        depth = [line.count("[") + line.count("{") for line in text.split("\n")]
        raise ConfigError([ConfigProblem(path, depth.index(max(depth)) + 1, "(syntax)",
                                         "arrays or tables nested too deeply to read")]) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise ConfigError([ConfigProblem(path, 1, "(syntax)", f"not a readable TOML value: {exc}")]) from None

    variant_name = data.get("variant")
    if variant_name is None:
        problems.append(ConfigProblem(path, 1, "variant", f"missing; one of {', '.join(VARIANTS)}"))
        variant = None
    elif not isinstance(variant_name, str) or variant_name not in VARIANTS:
        problem(("variant",), f"unknown variant {shown(variant_name)}; one of {', '.join(VARIANTS)}")
        variant = None
    else:
        variant = VARIANTS[variant_name]

    language = data.get("language")
    if language is None:
        problems.append(ConfigProblem(path, 1, "language", f"missing; one of {', '.join(LANGUAGES)}"))
    elif not isinstance(language, str) or language not in LANGUAGES:
        problem(("language",), f"unknown language {shown(language)}; one of {', '.join(LANGUAGES)}")
        language = None
    elif not (voices_dir() / f"{language}.toml").exists():
        problem(("language",), f"no narration for {language!r} yet (voices/{language}.toml is missing)")

    known_top = {"variant", "language", "seats", "players", "dealing", "roles", "rules", "timers", *ADAPTER_SECTIONS}
    for key in data:
        if key not in known_top:
            problem((key,), f"unknown key; known keys are {', '.join(sorted(known_top))}")

    seats = data.get("seats", variant.default_seats if variant else 10)
    if variant is not None:
        lo, hi = variant.seats
        if not isinstance(seats, int) or isinstance(seats, bool) or not lo <= seats <= hi:
            problem(("seats",), f"{variant.name} is played with {lo}" + (f" to {hi}" if hi != lo else "") + f" seats, not {shown(seats)}")
            seats = variant.default_seats

    def table(name: str) -> dict:
        value = data.get(name, {})
        if not isinstance(value, dict):
            problem((name,), "must be a table ([" + name + "])")
            return {}
        return value

    if not isinstance(seats, int) or isinstance(seats, bool):
        seats = 10  # only with an unknown variant, already reported: the rest is still checked
    players: dict[int, str] = {}
    for key, name in table("players").items():
        seat = seat_number(key)
        if seat is None or not 1 <= seat <= seats:
            problem(("players", key), f"a seat number from 1 to {seats}")
        elif seat in players:
            problem(("players", key), f"seat {seat} is named twice")
        elif not isinstance(name, str):
            problem(("players", key), f"a player's name must be a string, not {shown(name)}")
        elif not name.strip() or len(name) > MAX_NAME or any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in name):
            problem(("players", key), f"a player's name is printable text of 1 to {MAX_NAME} characters on one line, not {shown(name)}")
        else:
            players[seat] = name

    def options(name: str, spec: dict[str, Option]) -> dict:
        given = table(name)
        values = {k: opt.default for k, opt in spec.items()}
        for key, value in given.items():
            if name == "voice" and key in LANGUAGES and isinstance(value, dict):
                # [voice.ru] voice = "ru", rate = 150: the voice of one language; the table's own
                # language is applied below, the others are checked and kept for a later game
                for k, v in value.items():
                    if k not in PER_LANGUAGE_VOICE:
                        problem((name, key, k), f"unknown key; per-language keys are {', '.join(PER_LANGUAGE_VOICE)}")
                    elif (err := _check_option(v, spec[k])):
                        problem((name, key, k), err)
                continue
            if (name, key) in RETIRED:
                problem((name, key), RETIRED[name, key])
                continue
            if key not in spec:
                problem((name, key), f"unknown key; known keys are {', '.join(sorted(spec))}")
                continue
            err = _check_option(value, spec[key])
            if err:
                problem((name, key), err)
            else:
                values[key] = str(value) if spec[key].kind is str else value
        return values

    roles: dict[str, int] = {}
    if variant is not None:
        overrides = {}
        allowed = sorted(set(variant.table(seats)) | set(variant.optional_roles))
        for role, count in table("roles").items():
            if role not in allowed:
                problem(("roles", role), f"not a role of {variant.name}; one of {', '.join(allowed)}")
            elif not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= seats:
                problem(("roles", role), f"a count of players (0 to {seats}), not {shown(count)}")
            elif role in variant.counts and count not in variant.counts[role][0]:
                counts, why = variant.counts[role]
                problem(("roles", role), f"{' or '.join(map(str, counts))}, not {count} ({why})")
            else:
                overrides[role] = count
        roles = variant.roles_for(seats, overrides)
        for group, why in variant.exclusive:
            both = [r for r in group if roles.get(r)]
            if len(both) > 1:
                # the line to fix is the one that brought the second role in (the other may be the table's default)
                key = ([r for r in overrides if r in both] or both)[-1]
                other = next(r for r in both if r != key)
                problem(("roles", key), f"{key} = {roles[key]} with {other} = {roles[other]}: one or the other ({why}); "
                                        f"set {other} = 0 to play {key}, or {key} = 0")
        if sum(roles.values()) >= seats:
            problem(("roles",), f"{sum(roles.values())} special roles leave no citizen at {seats} seats")
        mafia_roles = [r for r in roles if team_of(r) == MAFIA]
        mafia = sum(roles[r] for r in mafia_roles)
        if not mafia:
            problem(("roles",), "a game needs at least one mafioso")
        elif 2 * mafia >= seats:
            # decided before it starts: classic, sverige and hungariq give the mafia the game at
            # parity; in grundregeln (the evil side wins when no good one is left) they out-vote
            # or tie every vote and kill every night, so the good side can never win
            given = [r for r in mafia_roles if r in overrides] or [""]
            problem(("roles", given[0]) if given[0] else ("roles",),
                    f"{mafia} on the mafia's side ({', '.join(f'{roles[r]} {r}' for r in mafia_roles)}) at {seats} seats "
                    f"are as many as the rest of the table or more: the game would be decided before it starts; "
                    f"at most {(seats - 1) // 2} mafia in all")

    rules = options("rules", variant.rules) if variant else {}
    timers = options("timers", variant.timers) if variant else {}
    sections = {name: options(name, spec) for name, spec in ADAPTER_SECTIONS.items()}
    own = data.get("voice", {}).get(language) if isinstance(language, str) and isinstance(data.get("voice"), dict) else None
    if isinstance(own, dict):
        sections["voice"].update({k: v for k, v in own.items() if k in PER_LANGUAGE_VOICE})

    dealing_raw = table("dealing")
    dealing = {"mode": "random", "seed": None, "roles": {}}
    for key, value in dealing_raw.items():
        if key == "mode":
            if value not in DEALING_MODES:
                problem(("dealing", "mode"), f"must be one of {', '.join(DEALING_MODES)}, not {shown(value)}")
            else:
                dealing["mode"] = value
        elif key == "seed":
            if not isinstance(value, int) or isinstance(value, bool):
                problem(("dealing", "seed"), f"must be an integer, not {shown(value)}")
            else:
                dealing["seed"] = value
        elif key == "roles":
            if not isinstance(value, dict):
                problem(("dealing", "roles"), 'a table of seat = "role", e.g. roles = { 1 = "sheriff", 2 = "don" }')
                continue
            named = {}
            for key, role in value.items():
                seat = seat_number(key)
                if seat is None:
                    problem(("dealing", "roles", key), "a seat number")
                    continue
                if seat in named:
                    problem(("dealing", "roles", key), f"seat {seat} is dealt twice")
                    continue
                if not isinstance(role, str):
                    problem(("dealing", "roles", key), f"a role name, e.g. \"don\", not {shown(role)}")
                    continue
                role = ROLE_ALIASES.get(role.lower(), role.lower())
                named[seat] = role
            dealing["roles"] = named
        else:
            problem(("dealing", key), "unknown key; known keys are mode, roles, seed")
    if "mode" not in dealing_raw:
        if dealing["roles"]:
            dealing["mode"] = "fixed"
        elif dealing["seed"] is not None:
            dealing["mode"] = "seeded"
    if dealing["mode"] == "fixed" and variant is not None:
        if not dealing["roles"]:
            problem(("dealing", "roles"), "dealing mode fixed needs roles = { seat = \"role\", … }")
        else:
            _, err = validate_deal(roles, seats, dealing["roles"])
            if err:
                problem(("dealing", "roles"), err)
    if dealing["mode"] == "seeded" and dealing["seed"] is None:
        problem(("dealing", "seed"), "dealing mode seeded needs a seed")

    if problems:
        raise ConfigError(problems)
    return Config(path, text, variant, language, seats, players, dealing, rules, timers, sections, roles)


def load_config(path: str | Path) -> Config:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ConfigError([ConfigProblem(str(p), 0, "(file)", "no such file")]) from None
    except IsADirectoryError:
        raise ConfigError([ConfigProblem(str(p), 0, "(file)", "a directory, not a config file")]) from None
    except OSError as exc:
        raise ConfigError([ConfigProblem(str(p), 0, "(file)", f"cannot be read: {exc.strerror or exc}")]) from None
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (Notepad) is no part of the config
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError([ConfigProblem(str(p), line, "(file)", f"not UTF-8 text: byte 0x{raw[exc.start]:02x} "
                                         "cannot be read; save the file as UTF-8")]) from None
    return parse_config(text, str(p))


DEFAULT_CONFIG = 'variant = "classic"\nlanguage = "en"\n'


def default_config() -> Config:
    return parse_config(DEFAULT_CONFIG, "<embedded defaults>")
