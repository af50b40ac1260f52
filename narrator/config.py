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

from .language import LANGUAGES, load_voice, seat_number, voices_dir
from .rules.dealing import validate_deal
from .rules.roles import MAFIA, ROLE_ALIASES, team_of
from .rules.variants import VARIANTS, Option, Variant
from .worded import Worded


@dataclass
class ConfigProblem:
    file: str
    line: int
    key: str
    message: str  # in English
    what: str = ""  # its [config_errors] line, to say it in the table's language ("": English only)
    args: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.key}: {self.message}"

    def text(self, voice=None) -> str:
        """The problem in the language of `voice` (English without one): file, line and key stay
        as they are written in the file, so the line can be found whatever the language."""
        worded = Worded(self.message, "config_errors", self.what or None, self.args)
        if not worded.is_said_in(voice):
            return str(self)
        key = voice.config_text(PSEUDO_KEYS[self.key]) if self.key in PSEUDO_KEYS else self.key
        return f"{self.file}:{self.line}: {key}: {worded.said(voice, _worded(self.args, voice))}"


class _LongNumber(str):
    """A number too long to quote, standing in a message as "a number of 31 digits": worded in the
    table's language when the message is ([config_errors] long_number)."""

    digits: int | None  # None: over 4000 digits, too long to count

    def __new__(cls, digits: int | None):
        text = f"a number of {digits if digits is not None else 'over 4000'} digits"
        obj = super().__new__(cls, text)
        obj.digits = digits
        return obj


def _worded(args: dict, voice) -> dict:
    """The message's arguments with every number too long to quote worded in `voice`'s language."""
    return {k: (voice.config_text("long_number", {"n": v.digits}) if v.digits is not None
                else voice.config_text("long_number_uncounted")) if isinstance(v, _LongNumber) else v
            for k, v in args.items()}


# what stands where a key would when the problem is the whole file, or its syntax
PSEUDO_KEYS = {"(file)": "about_file", "(syntax)": "about_syntax"}


def problem_of(file: str, line: int, key: str, what: str, /, **args) -> ConfigProblem:
    """A problem said by its [config_errors] line: in English here, in the table's language where printed."""
    try:
        english = load_voice("en")
        message = english.config_text(what, _worded(args, english))
    except (OSError, ValueError, KeyError):  # voices elsewhere (NARRATOR_VOICES) without it: still named, never a traceback
        message = f"{what} {args}" if args else what
    return ConfigProblem(file, line, key, message, what, args)


class ConfigError(Exception):
    def __init__(self, problems: list[ConfigProblem], language: str | None = None):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems
        # the language the config asks for, where it can be read: its problems are said in it
        self.language = language

    def voice(self):
        """The voice of the config's language when it names one that exists (None: English)."""
        if self.language not in LANGUAGES:
            return None
        try:
            return load_voice(self.language)
        except (OSError, ValueError):  # a voice file missing or broken: the problems are said in English
            return None

    def lines(self) -> list[str]:
        """Every problem, in the config's language (or English)."""
        voice = self.voice()
        return [p.text(voice) for p in self.problems]


def language_of(text: str) -> str | None:
    """The language a config names at its top, read line by line: a file that is not TOML (or not
    UTF-8) is still told what is wrong with it in its own language."""
    for raw in text.split("\n"):
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            return None  # past the top-level keys
        m = re.match(r"""^language\s*=\s*["']([a-z]{2})["']$""", line)
        if m:
            return m.group(1) if m.group(1) in LANGUAGES else None
    return None


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
        "cache_dir": Option("", str, "where rendered lines are cached, from this file's folder (empty: ~/.cache/narrator/tts)"),
        "voice_dir": Option("", str, "where fetched Piper voices live, from this file's folder (empty: models/piper in the narrator's folder)"),
        "ambience": Option(0.15, float, "loudness of the masking sound under every night step, 0.0 (off) to 1.0", 0, 1),
    },
    "input": {
        "console": Option(True, bool, "typed inputs at the terminal"),
        "engine": Option("auto", str, "speech recognition engine", choices=("auto", "vosk", "sphinx", "none")),
        "microphone": Option("", str, "the input device name or index (empty: the system default)"),
        "model_dir": Option("", str, "where the Vosk models live, from this file's folder (empty: models/ in the narrator's folder)"),
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
        "seats_page": Option("", str, "where the printable page of seat QR codes is written, from this file's folder (empty: a private temp file)"),
        "keep_result": Option(3600, int, "seconds the result stays on the phones after the game unless the host closes it", 0, 86400),
        "trusted_proxies": Option("", str, "the addresses of reverse proxies in front of the companion whose X-Forwarded-For is "
                                  "believed, separated by commas, e.g. 127.0.0.1 (empty: none; every connection is its own peer)",
                                  check=lambda v: None if proxy_addresses(v) is not None else "proxy_addresses"),
    },
    "night": {
        "jitter_ms": Option(0, int, "random extra length of every night step, the same for every role", 0, 10000),
        "ack_ms": Option(20, int, "a phone's night tap is answered this long after it arrives, awake or not", 5, 1000),
    },
    "journal": {
        "path": Option("", str, "the journal file, from this file's folder (empty: a new file for each game under ~/.local/state/narrator/games/)"),
    },
    "club": {
        "database": Option("", str, "the club's record of games: an SQLite file, from this file's folder (empty: ~/.local/share/narrator/club.sqlite), or a PostgreSQL server every table of a club night writes to (postgresql://user:password@host/club)"),
        "outbox": Option("", str, "where games wait while the club's PostgreSQL server cannot be reached, from this file's folder (empty: ~/.local/share/narrator/club-outbox.sqlite)"),
        "don_weight": Option(1.0, float, "the Don's share of his team's result in the ratings (1.0: as any mafioso)", 0.1, 10),
        "sheriff_weight": Option(1.0, float, "the Sheriff's share of his team's result in the ratings (1.0: as any citizen)", 0.1, 10),
    },
}

PER_LANGUAGE_VOICE = ("engine", "voice", "rate", "volume")

# the options that name a file or a folder. Written in a config file, each is taken from that
# file's folder, as whoever wrote it reads it — `narrator play --config ~/club/mafia.toml` started
# anywhere keeps its journal and finds its models beside the config; `~` is the user's home.
PATH_OPTIONS = (("voice", "cache_dir"), ("voice", "voice_dir"), ("input", "model_dir"), ("companion", "seats_page"),
                ("journal", "path"), ("club", "database"), ("club", "outbox"))
# [club] tables of their own, not options: [club.seasons] name = ["first day", "last day"], and
# [club.renamed] "old name" = "new name"
CLUB_TABLES = ("seasons", "renamed")


def resolved(value: str, base: str | None) -> str:
    """A path as written in a config, made absolute from the config's folder `base` (None: the
    config is no file, so a relative path stays relative to the working folder). Empty stays empty:
    the option's default place."""
    if not value or value.startswith(("postgresql://", "postgres://")):  # a server's URL is no path
        return value
    p = Path(value).expanduser()
    if base is not None and not p.is_absolute():
        p = Path(base) / p
    return str(p)
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
    # the folder the config's relative paths are taken from (None: no file, the working folder)
    base: str | None = None
    # every key the file itself wrote, as its path of tables (("rules", "vote_call"),
    # ("voice", "ru", "rate")): a value the club chose, told apart from the seed's default that
    # happens to equal it — a game read long after must know what the club asked for
    explicit: frozenset[tuple[str, ...]] = frozenset()

    def section(self, name: str) -> dict:
        return self.sections[name]

    def wrote(self, *path: str) -> bool:
        """Whether the file wrote this key (or, naming a table, any key in it)."""
        n = len(path)
        return any(key[:n] == path for key in self.explicit)



# options that no longer exist, with what replaced them: an old club config gets told, not guessed
RETIRED = {
    ("rules", "second_shot_misses"): "retired_second_shot",
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
        digits = len(str(abs(value))) if abs(value) < 10**4000 else None
        return _LongNumber(digits)
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


def _check_option(value, opt: Option) -> tuple[str, dict] | None:
    """What is wrong with a value: its [config_errors] line and arguments, or None."""
    if not _type_ok(value, opt):
        return "wrong_type", {"kind": opt.kind.__name__, "given": type(value).__name__, "value": shown(value)}
    if isinstance(value, float) and not math.isfinite(value):
        if opt.minimum is not None and opt.maximum is not None:
            return "number_between", {"low": str(opt.minimum), "high": str(opt.maximum), "value": str(value)}
        return "not_a_number", {"value": str(value)}
    if opt.kind is str:
        value = str(value)
    if opt.choices is not None and value not in opt.choices:
        return "one_of", {"choices": ", ".join(map(str, opt.choices)), "value": shown(value)}
    if opt.minimum is not None and value < opt.minimum:
        return "at_least", {"low": str(opt.minimum), "value": shown(value)}
    if opt.maximum is not None and value > opt.maximum:
        return "at_most", {"high": str(opt.maximum), "value": shown(value)}
    if opt.check is not None and (what := opt.check(value)) is not None:
        return what, {"value": shown(value)}
    return None


def proxy_addresses(value: str) -> list[str] | None:
    """`[companion] trusted_proxies` as the addresses (or networks) it names, None when one of them
    is no address. "*" is none: trusting every sender's X-Forwarded-For would give one PIN guesser
    as many addresses as he cares to write."""
    import ipaddress

    named = [part.strip() for part in value.split(",") if part.strip()]
    try:
        return [str(ipaddress.ip_network(part, strict=False)) for part in named]
    except ValueError:
        return None


def _season_days(value):
    """A season's first and last day from ["2026-09-01", "2026-12-31"] (TOML dates or text)."""
    import datetime as dt

    if not isinstance(value, list) or len(value) != 2:
        return None
    days = []
    for v in value:
        if isinstance(v, dt.datetime):
            v = v.date()
        if isinstance(v, str):
            try:
                v = dt.date.fromisoformat(v)
            except ValueError:
                return None
        if not isinstance(v, dt.date):
            return None
        days.append(v)
    return tuple(days) if days[0] <= days[1] else None


def written_keys(data: dict, table: tuple[str, ...] = ()) -> frozenset[tuple[str, ...]]:
    """The paths of every key a parsed TOML document gives a value: a table's keys, not the table,
    however it was written ([rules] under its header, `rules.vote_call = …` dotted, or inline)."""
    keys: set[tuple[str, ...]] = set()
    for k, v in data.items():
        if isinstance(v, dict):
            keys |= written_keys(v, table + (k,))  # an empty table chooses nothing
        else:
            keys.add(table + (k,))
    return frozenset(keys)


def parse_config(text: str, path: str = "<config>", base: str | None = None) -> Config:
    """The config in `text`, read from the file `path` (named in its problems). `base` is the
    folder its relative paths are taken from: the file's own folder (load_config does that), or
    for a resumed game the folder its config was in when the game began."""
    problems: list[ConfigProblem] = []
    locator: Locator | None = None

    def problem(key: tuple[str, ...], what: str, /, **args) -> None:
        nonlocal locator
        locator = locator or Locator(text)
        problems.append(problem_of(path, locator(key), ".".join(key), what, **args))

    def unreadable(line: int, what: str, /, **args) -> ConfigError:
        return ConfigError([problem_of(path, line, "(syntax)", what, **args)], language_of(text))

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise unreadable(int(m.group(1)) if m else 1, "not_toml", error=str(exc)) from None
    except RecursionError:
        # tomllib parses nested arrays and inline tables recursively; name the most nested line
        depth = [line.count("[") + line.count("{") for line in text.split("\n")]
        raise unreadable(depth.index(max(depth)) + 1, "nested") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise unreadable(1, "bad_value", error=str(exc)) from None

    variant_name = data.get("variant")
    if variant_name is None:
        problems.append(problem_of(path, 1, "variant", "missing", choices=", ".join(VARIANTS)))
        variant = None
    elif not isinstance(variant_name, str) or variant_name not in VARIANTS:
        problem(("variant",), "unknown_variant", value=shown(variant_name), choices=", ".join(VARIANTS))
        variant = None
    else:
        variant = VARIANTS[variant_name]

    language = data.get("language")
    said_in = None  # the language its problems are said in: English unless the config names a good one
    if language is None:
        problems.append(problem_of(path, 1, "language", "missing", choices=", ".join(LANGUAGES)))
    elif not isinstance(language, str) or language not in LANGUAGES:
        problem(("language",), "unknown_language", value=shown(language), choices=", ".join(LANGUAGES))
        language = None
    elif not (voices_dir() / f"{language}.toml").exists():
        problem(("language",), "no_narration", language=repr(language), file=f"{language}.toml")
    else:
        said_in = language

    known_top = {"variant", "language", "seats", "players", "dealing", "roles", "rules", "timers", *ADAPTER_SECTIONS}
    for key in data:
        if key not in known_top:
            problem((key,), "unknown_key", keys=", ".join(sorted(known_top)))

    seats = data.get("seats", variant.default_seats if variant else 10)
    if variant is not None:
        lo, hi = variant.seats
        if not isinstance(seats, int) or isinstance(seats, bool) or not lo <= seats <= hi:
            problem(("seats",), "seats_range" if hi != lo else "seats_exact", variant=variant.name, low=lo, high=hi,
                    value=shown(seats))
            seats = variant.default_seats

    def table(name: str) -> dict:
        value = data.get(name, {})
        if not isinstance(value, dict):
            problem((name,), "not_a_table", name=name)
            return {}
        return value

    if not isinstance(seats, int) or isinstance(seats, bool):
        seats = 10  # only with an unknown variant, already reported: the rest is still checked
    players: dict[int, str] = {}
    for key, name in table("players").items():
        seat = seat_number(key)
        if seat is None or not 1 <= seat <= seats:
            problem(("players", key), "player_seat", seats=seats)
        elif seat in players:
            problem(("players", key), "named_twice", seat=seat)
        elif not isinstance(name, str):
            problem(("players", key), "name_not_text", value=shown(name))
        elif not name.strip() or len(name) > MAX_NAME or any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in name):
            problem(("players", key), "name_bad", most=MAX_NAME, value=shown(name))
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
                        problem((name, key, k), "unknown_voice_key", keys=", ".join(PER_LANGUAGE_VOICE))
                    elif (err := _check_option(v, spec[k])):
                        problem((name, key, k), err[0], **err[1])
                continue
            if name == "club" and key in CLUB_TABLES:
                values[key] = club_table(key, value)
                continue
            if (name, key) in RETIRED:
                problem((name, key), RETIRED[name, key])
                continue
            if key not in spec:
                problem((name, key), "unknown_key", keys=", ".join(sorted(spec)))
                continue
            err = _check_option(value, spec[key])
            if err:
                problem((name, key), err[0], **err[1])
            else:
                values[key] = str(value) if spec[key].kind is str else value
        return values

    def club_table(key: str, value) -> dict:
        if not isinstance(value, dict):
            problem(("club", key), "not_a_table", name=f"club.{key}")
            return {}
        out = {}
        for k, v in value.items():
            if key == "seasons":
                days = _season_days(v)
                if days is None:
                    problem(("club", key, k), "season_days", value=shown(v))
                else:
                    out[k] = days
            elif not isinstance(v, str) or not v.strip() or len(v) > MAX_NAME \
                    or any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in v):
                problem(("club", key, k), "renamed_to", most=MAX_NAME, value=shown(v))
            else:
                out[k] = v
        return out

    roles: dict[str, int] = {}
    if variant is not None:
        overrides = {}
        allowed = sorted(set(variant.table(seats)) | set(variant.optional_roles))
        for role, count in table("roles").items():
            if role not in allowed:
                problem(("roles", role), "not_a_role", variant=variant.name, roles=", ".join(allowed))
            elif not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= seats:
                problem(("roles", role), "role_count", seats=seats, value=shown(count))
            elif role in variant.counts and count not in variant.counts[role][0]:
                counts, why = variant.counts[role]
                problem(("roles", role), "role_fixed", first=counts[0], second=counts[-1], count=count, why=why)  # every seed's pair is two counts
            else:
                overrides[role] = count
        roles = variant.roles_for(seats, overrides)
        for group, why in variant.exclusive:
            both = [r for r in group if roles.get(r)]
            if len(both) > 1:
                # the line to fix is the one that brought the second role in (the other may be the table's default)
                key = ([r for r in overrides if r in both] or both)[-1]
                other = next(r for r in both if r != key)
                problem(("roles", key), "exclusive_roles", role=key, count=roles[key], other=other, other_count=roles[other],
                        why=why)
        if sum(roles.values()) >= seats:
            problem(("roles",), "no_citizen", n=sum(roles.values()), seats=seats)
        mafia_roles = [r for r in roles if team_of(r) == MAFIA]
        mafia = sum(roles[r] for r in mafia_roles)
        if not mafia:
            problem(("roles",), "no_mafia")
        elif 2 * mafia >= seats:
            # decided before it starts: classic, sverige and hungariq give the mafia the game at
            # parity; in grundregeln (the evil side wins when no good one is left) they out-vote
            # or tie every vote and kill every night, so the good side can never win
            given = [r for r in mafia_roles if r in overrides] or [""]
            problem(("roles", given[0]) if given[0] else ("roles",), "too_many_mafia", n=mafia,
                    roles=", ".join(f"{roles[r]} {r}" for r in mafia_roles), seats=seats, most=(seats - 1) // 2)

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
                problem(("dealing", "mode"), "one_of", choices=", ".join(DEALING_MODES), value=shown(value))
            else:
                dealing["mode"] = value
        elif key == "seed":
            if not isinstance(value, int) or isinstance(value, bool):
                problem(("dealing", "seed"), "not_an_integer", value=shown(value))
            else:
                dealing["seed"] = value
        elif key == "roles":
            if not isinstance(value, dict):
                problem(("dealing", "roles"), "deal_roles_table")
                continue
            named = {}
            for key, role in value.items():
                seat = seat_number(key)
                if seat is None:
                    problem(("dealing", "roles", key), "deal_seat")
                    continue
                if seat in named:
                    problem(("dealing", "roles", key), "dealt_twice", seat=seat)
                    continue
                if not isinstance(role, str):
                    problem(("dealing", "roles", key), "deal_role_name", value=shown(role))
                    continue
                role = ROLE_ALIASES.get(role.lower(), role.lower())
                named[seat] = role
            dealing["roles"] = named
        else:
            problem(("dealing", key), "unknown_key", keys="mode, roles, seed")
    if "mode" not in dealing_raw:
        if dealing["roles"]:
            dealing["mode"] = "fixed"
        elif dealing["seed"] is not None:
            dealing["mode"] = "seeded"
    if dealing["mode"] == "fixed" and variant is not None:
        if not dealing["roles"]:
            problem(("dealing", "roles"), "fixed_needs_roles")
        else:
            _, err = validate_deal(roles, seats, dealing["roles"])
            if err:
                what, args = err
                # a seat beyond the table is named at its own key (its line); a wrong count at the table
                where = ("dealing", "roles", str(args["seat"])) if "seat" in args else ("dealing", "roles")
                problem(where, what, **args)
    if dealing["mode"] == "seeded" and dealing["seed"] is None:
        problem(("dealing", "seed"), "seeded_needs_seed")

    for name, key in PATH_OPTIONS:
        sections[name][key] = resolved(sections[name][key], base)

    if problems:
        raise ConfigError(problems, said_in)
    return Config(path, text, variant, language, seats, players, dealing, rules, timers, sections, roles, base,
                  written_keys(data))


def load_config(path: str | Path) -> Config:
    return config_of(*read_config(path))


def read_config(path: str | Path) -> tuple[Path, bytes]:
    """A config file's bytes (one read), or the ConfigError that names why it cannot be read."""
    p = Path(path).expanduser()
    try:
        return p, p.read_bytes()
    except FileNotFoundError:
        raise ConfigError([problem_of(str(p), 0, "(file)", "no_such_file")]) from None
    except IsADirectoryError:
        raise ConfigError([problem_of(str(p), 0, "(file)", "a_directory")]) from None
    except OSError as exc:
        raise ConfigError([problem_of(str(p), 0, "(file)", "unreadable", reason=exc.strerror or str(exc))]) from None


def config_of(p: Path, raw: bytes) -> Config:
    """The config in the bytes `read_config` read from `p`: every problem names file, line and key."""
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (Notepad) is no part of the config
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        # a Latin-1 umlaut in a German club's names: the club is still told in German
        raise ConfigError([problem_of(str(p), line, "(file)", "not_utf8", byte=f"0x{raw[exc.start]:02x}")],
                          language_of(raw.decode("utf-8", errors="replace"))) from None
    return parse_config(text, str(p), str(p.absolute().parent))


DEFAULT_CONFIG = 'variant = "classic"\nlanguage = "en"\n'


def default_config() -> Config:
    return parse_config(DEFAULT_CONFIG, "<embedded defaults>")
