"""Reading a finished (or unfinished) game from disk: a protocol (JSON Lines of entries) or a
journal (the live game's inputs, replayed to the protocol they make). Whatever is wrong with the
file becomes a `Problem` naming file and line; what could be read is still returned, so an
unfinished game can be reported "so far"."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from .. import protocol as protocol_mod
from ..config import Config, ConfigError, parse_config
from ..flow.events import event_from_dict
from ..journal import timer_mark_of
from ..language import LANGUAGES, load_voice
from ..rules.variants import VARIANTS
from ..worded import Worded


def why(key: str, english: str, **words) -> Worded:
    """What is wrong with a game's file: in English (tests, the club's record) and as a voice file's
    [cli] line report_<key>, so a Russian table is told in Russian; file and line stay as written."""
    return Worded(english, "cli", f"report_{key}", words)


class ReadError(Exception):
    """The file is not a narrator game at all (foreign, empty, unreadable): nothing to report.
    `where` is the file (and line); `reason`, a Worded, what is wrong — `language` the one the
    file's own config names where that much could be read."""

    def __init__(self, where: str, reason: Worded | None = None, language: str | None = None):
        super().__init__(where if reason is None else f"{where}: {reason}")
        self.where, self.reason, self.language = where, reason, language

    def told(self, voice) -> str:
        return str(self) if self.reason is None else f"{self.where}: {self.reason.said(voice)}"


@dataclass
class Problem:
    file: str
    line: int
    reason: Worded

    @property
    def message(self) -> str:
        return str(self.reason)

    def __str__(self) -> str:
        return self.told(None)

    def told(self, voice) -> str:
        """The problem in the language of `voice` (English without one): file and line as they are."""
        message = self.reason.said(voice)
        return f"{self.file}:{self.line}: {message}" if self.line else f"{self.file}: {message}"


@dataclass
class GameRecord:
    """One game as the report and the club see it: protocol entries plus the table around them."""

    path: str
    entries: list[dict]
    language: str = "en"
    players: dict[int, str] = field(default_factory=dict)
    started: float | None = None  # wall-clock start (journals and live protocols)
    problems: list[Problem] = field(default_factory=list)
    kind: str = "protocol"  # or "journal"

    @property
    def finished(self) -> bool:
        return any(e.get("type") == "game_over" for e in self.entries)

    @property
    def start(self) -> dict:
        return next((e for e in self.entries if e.get("type") == "game_start"), {})

    def content_hash(self) -> str:
        """The game's identity: its setup and every accepted input (and its start time when
        known), so the same game read from its journal or its protocol is one game."""
        h = hashlib.sha256()
        start = self.start
        h.update(json.dumps({k: start.get(k) for k in ("variant", "seats", "roles", "rules")}, sort_keys=True).encode())
        if self.started is not None:
            h.update(f"started:{self.started:.3f}".encode())
        for e in self.entries:
            if e.get("type") == "input":
                h.update(json.dumps(e["event"], sort_keys=True).encode())
        return h.hexdigest()


def table_entry(language: str, players: dict[int, str], started: float | None = None) -> dict:
    """The first line of a protocol written by narrator: the table around the game, which the
    core does not know (its language and the players' names)."""
    entry = {"type": "table", "language": language, "players": {str(s): n for s, n in sorted(players.items())}}
    if started is not None:
        entry["started"] = started
    return entry


def _players(raw) -> dict[int, str]:
    if not isinstance(raw, dict):
        return {}
    # isdecimal, not isdigit: "²".isdigit() holds but int("²") raises
    return {int(s): str(n) for s, n in raw.items() if str(s).isdecimal() and len(str(s)) <= 4}


def guess_language(entries: list[dict]) -> str | None:
    """The language a protocol's narration was rendered in (replay writes the text of every line)."""
    for e in entries:
        if e.get("type") == "say" and isinstance(e.get("text"), str) and isinstance(e.get("line"), str):
            for lang in LANGUAGES:
                try:
                    args = e.get("args") if isinstance(e.get("args"), dict) else {}
                    if load_voice(lang).render(e["line"], args) == e["text"]:
                        return lang
                except (KeyError, ValueError, IndexError, TypeError, AttributeError, FileNotFoundError):
                    continue
            return None
    return None


def _lines(path: Path) -> list[str]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ReadError(str(path), why("cannot_read", f"cannot be read: {exc.strerror or exc}", error=str(exc.strerror or exc))) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(str(path), why("not_utf8", f"not a narrator protocol or journal (not UTF-8 text at byte {exc.start})", byte=exc.start)) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_game(path: str | Path, config: Config | None = None) -> GameRecord:
    """A protocol or a journal. Raises ReadError when the file is no narrator game at all."""
    path = Path(path)
    lines = _lines(path)
    first = next(((i, ln) for i, ln in enumerate(lines, start=1) if ln.strip()), None)
    if first is None:
        raise ReadError(str(path), why("empty", "empty: not a narrator protocol or journal"))
    try:
        head = json.loads(first[1])
    except (ValueError, RecursionError):
        raise ReadError(f"{path}:{first[0]}", why("not_json", "not a narrator protocol or journal (not JSON)")) from None
    if isinstance(head, dict) and "journal" in head:
        return _read_journal(path, lines, head, config)
    if isinstance(head, dict) and isinstance(head.get("type"), str):
        return _read_protocol(path, lines, config)
    raise ReadError(f"{path}:{first[0]}", why("foreign", "not a narrator protocol or journal"))


def _read_protocol(path: Path, lines: list[str], config: Config | None) -> GameRecord:
    rec = GameRecord(str(path), [])
    seen_table = False
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            last = n == len(lines)
            rec.problems.append(Problem(str(path), n, why("cut_short", "a line cut short (the game was still being written)") if last
                                        else why("damaged_line", "damaged line (not JSON); the report stops before it")))
            break
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            rec.problems.append(Problem(str(path), n, why("not_an_entry", "not a protocol entry (no \"type\"); the report stops before it")))
            break
        if entry["type"] == "table":
            seen_table = True
            rec.language = entry.get("language") if entry.get("language") in LANGUAGES else rec.language
            rec.players = _players(entry.get("players"))
            rec.started = entry.get("started") if isinstance(entry.get("started"), (int, float)) else None
            continue
        if entry["type"] == "game_start" and not rec.start:
            _check_seats(path, n, entry)
        rec.entries.append(entry)
    if not rec.start:
        raise ReadError(f"{path}:1", why("no_start", "not a narrator protocol (no game_start entry)"))
    if config is not None:
        rec.language = config.language
        rec.players = dict(config.players) or rec.players
    elif not seen_table:
        rec.language = guess_language(rec.entries) or "en"
    _check_unfinished(rec, len(lines))
    return rec


def _check_seats(path: Path, n: int, start: dict) -> None:
    """A seat count no table of this narrator has is refused: every seat is drawn, so a hand-edited
    "seats": 1000000000 would otherwise fill the memory (a missing one draws the seats named)."""
    seats = start.get("seats")
    if seats is None:
        return
    variant = VARIANTS.get(str(start.get("variant")))
    lo, hi = variant.seats if variant else (1, max(v.seats[1] for v in VARIANTS.values()))
    if not isinstance(seats, int) or isinstance(seats, bool) or not lo <= seats <= hi:
        shown = repr(seats) if len(repr(seats)) <= 20 else repr(seats)[:20] + "…"
        name = variant.name if variant else "this narrator"
        raise ReadError(f"{path}:{n}", why("seats", f"a table of {shown} seats is not one {name} plays ({lo} to {hi} seats)",
                                                 seats=shown, variant=name, lo=lo, hi=hi))


def _check_unfinished(rec: GameRecord, nlines: int) -> None:
    if not rec.finished and not rec.problems:
        rec.problems.append(Problem(rec.path, nlines, why("unfinished", "the game is unfinished (no result yet): reported so far")))
    elif not rec.finished:
        rec.problems.append(Problem(rec.path, 0, why("unfinished_too", "the game is unfinished: reported so far")))


def _read_journal(path: Path, lines: list[str], header: dict, config: Config | None) -> GameRecord:
    from ..session import Session, companion_ran

    rec = GameRecord(str(path), [], kind="journal")
    text = header.get("config_text")
    if not isinstance(text, str):
        raise ReadError(f"{path}:1", why("no_config", "a journal header without its config"))
    if config is None:
        try:
            config = parse_config(text, f"{path} (its config)")
        except ConfigError as exc:
            raise ReadError(f"{path}:1", why("config_invalid", f"the journal's config is not valid: {exc.problems[0]}", problem=exc.problems[0].text(exc.voice())),
                            exc.language) from None
    from ..session import as_journaled

    config = as_journaled(config, header)
    rec.language = config.language
    rec.players = dict(config.players)
    started = header.get("started")
    rec.started = started if isinstance(started, (int, float)) else None
    # a journal is written by live play, where night steps keep their full length, and its votes
    # were on the phones only where the companion ran (the header notes it, or a line notes where
    # its phones joined at a resume), as the narrator said them
    session = Session(config, fixed_night_steps=True, companion=companion_ran(header, config))
    now = rec.started

    def emit(effects) -> None:
        for entry in protocol_mod.entries(effects, None):
            if now is not None:
                entry["t"] = now
            rec.entries.append(entry)

    emit(session.start())
    # The time the game stood still — a pause, or a crash until `narrator resume` — is no part of
    # any speech: a speech cut by a crash and resumed 20 minutes later was drawn 20 minutes long.
    # A day timer notes what it has left every few seconds, at a pause and when it runs again; a
    # note that finds it ran less than the clock did since its last note says the game stood still
    # from the line written last until now.
    marks: dict[int, tuple[float, float]] = {}  # timer number -> (time, seconds left) of its last note
    stood = 0.0
    last_t: float | None = None
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError
            if "end" in obj:
                break
            t = obj.get("t") if isinstance(obj.get("t"), (int, float)) and not isinstance(obj.get("t"), bool) else None
            mark = timer_mark_of(obj)
            if mark is not None and t is not None:
                before = marks.get(mark[0])
                if before is not None and last_t is not None and before[1] - mark[1] < (t - before[0]) - 1.0:
                    stood += max(0.0, t - last_t)
                marks[mark[0]] = (t, mark[1])
            if t is not None:
                last_t = t
            if obj.get("companion") is True and "event" not in obj:
                session.companion_joined()  # `narrator resume --companion`: the phones took the votes from here
                continue
            if "event" not in obj:
                continue  # a timer's note, a reveal, or a line of a later journal format this reader does not know
            event = event_from_dict(obj["event"])
        except (ValueError, TypeError, KeyError, RecursionError, AttributeError):
            last = n == len(lines)
            rec.problems.append(Problem(str(path), n, why("cut_short", "a line cut short (the game was still being written)") if last
                                        else why("damaged_journal_line", "damaged journal line; the report stops before it")))
            break
        if t is not None:
            now = float(t) - stood
        try:
            emit(session.feed(event))
        except Exception as exc:  # a foreign event the core refuses to even look at
            rec.problems.append(Problem(str(path), n, why("input_refused", f"an input the game cannot take ({type(exc).__name__}); the report stops before it",
                                                     error=type(exc).__name__)))
            break
    _check_unfinished(rec, len(lines))
    return rec

