"""The journal: every input event is written and fsynced to disk *before* it is applied, so
`narrator resume` after a crash or power cut replays exactly the events that were applied — or
were about to be — once each. A line torn by the crash was never applied and is dropped.

A write that fails (full disk, read-only disk, I/O error) is cut back off the file and the
journal closes: nothing waits in a buffer to be written later, and the caller stops the game
with the file, the reason and what to do in the table's words (`JournalError`). Each game has its own file; one process at a
time holds it (`lock`). A damaged file is read up to its last good line (`DamagedJournal` names
the line) and `repair` keeps a copy before cutting the damage off.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from .flow.events import _TYPES as EVENT_TYPES, Event, event_from_dict, event_to_dict
from .worded import Worded

FORMAT = 1


def state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "narrator"


def games_dir() -> Path:
    """Where each game gets its own journal when neither --journal nor the config names one."""
    return state_dir() / "games"


def default_path() -> Path:
    """The single journal of earlier versions: still found by `resume`."""
    return state_dir() / "journal.jsonl"


def elsewhere_list() -> Path:
    """The journals of games played outside the games folder (a --journal, or the config's
    [journal] path), one path a line, so that `narrator resume` finds them after a crash too."""
    return state_dir() / "elsewhere.txt"


def _elsewhere() -> list[Path]:
    try:
        text = elsewhere_list().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [Path(line) for line in text.splitlines() if line.strip()]


def remember(path: Path) -> OSError | None:
    """Note a game's journal that lies outside the games folder. The list keeps only journals that
    still hold an unfinished game. A state folder that cannot be written costs only this: the game
    is played as ever, and `narrator resume --journal` still finds it — the error is returned, so
    the operator can be told which command that will take."""
    path = path.expanduser().absolute()
    if path.parent == games_dir().absolute() or path == default_path().absolute():
        return None
    kept = [p for p in _elsewhere() if p != path and p.exists() and not _ends_finished(p)]
    try:
        elsewhere_list().parent.mkdir(parents=True, exist_ok=True)
        tmp = elsewhere_list().with_suffix(".tmp")
        tmp.write_text("".join(f"{p}\n" for p in kept + [path]), encoding="utf-8")
        os.replace(tmp, elsewhere_list())
    except OSError as exc:
        return exc
    return None


def new_game_path() -> Path:
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    d = games_dir()
    path = d / f"{stamp}.jsonl"
    n = 2
    while path.exists():
        path = d / f"{stamp}-{n}.jsonl"
        n += 1
    return path


# ---------------------------------------------------------------------- errors in plain words
def _said(key: str, english: str, **words) -> Worded:
    """A [cli] line journal_<key>: what is wrong with the journal's file, or what to do about it."""
    return Worded(english, "cli", f"journal_{key}", words)


class JournalError(Exception):
    """The journal cannot be written (or opened): the file, why, and what to do — each said in the
    table's language where its voice has the words (`said`), in English in logs and tests."""

    def __init__(self, path: Path, reason: Worded, advice: Worded):
        super().__init__(f"{path}: {reason}: {advice}")
        self.path = path
        self.why = reason
        self.what_to_do = advice

    # the English words, for the game's own log line (live.py) and tests
    @property
    def reason(self) -> str:
        return str(self.why)

    @property
    def advice(self) -> str:
        return str(self.what_to_do)

    def said(self, voice=None) -> str:
        """"F: why — what to do", in the language of `voice` (English without one)."""
        return f"{self.path}: {self.why.said(voice)} — {self.what_to_do.said(voice)}"


def _in_the_way(path: Path) -> Path | None:
    """The nearest folder above the journal that is a file, not a folder (it makes mkdir fail)."""
    for folder in path.parents:
        if folder.exists() or folder.is_symlink():
            return None if folder.is_dir() else folder
    return None


def _then_resume(path: Path) -> Worded:
    p = str(path)
    return _said("then_resume", f"then `narrator resume --journal {p}`", path=p)


def _fix_permissions(then: Worded) -> Worded:
    """The one wording of the permission fix, whether writing or reading was refused."""
    return _said("fix_permissions", f"fix the permissions, {then}", then=then)


def _disk_failed(path: Path, advice: Worded | None = None) -> JournalError:
    """A failing disk under the journal, found writing it or reading it back: the one wording of
    the copy advice, as a copy on a good disk resumes the game (`advice` instead for a game that
    never started: there is nothing on that disk to save)."""
    p = str(path)
    return JournalError(path, _said("disk_failed", "the disk failed (input/output error)"),
                        advice or _said("disk_check_copy", f"check the disk; copy {p} to a good disk, then "
                                        "`narrator resume --journal <the copy>`", path=p))


def io_error(path: Path, exc: OSError, resume: bool = True) -> JournalError:
    """The words for an OSError met while opening or writing the journal at `path`: `resume` when
    a game is under way (resume it once fixed), else the game could not start (start it again, or
    choose another file)."""
    p = str(path)
    then = _then_resume(path) if resume else _said("then_restart", "then start the game again")
    elsewhere = _said("then_elsewhere", "or choose a journal on another disk (`narrator play --journal F`)")
    other_file = _said("then_other_file", "or choose another journal file (`narrator play --journal F`)")
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        return JournalError(path, _said("disk_full", "the disk is full"), _said("free_space", f"free some space, {then}", then=then))
    if code == errno.EROFS:
        full = _said("read_only", "the disk is read-only")
        if not resume:
            return JournalError(path, full, _said("make_writable", f"make it writable, {elsewhere}", then=elsewhere))
        return JournalError(path, full, _said("make_writable_copy", f"make it writable, {then}; or copy {p} to a writable disk, "
                                              "then `narrator resume --journal <the copy>`", path=p, then=then))
    if code in (errno.EEXIST, errno.ENOTDIR) and (folder := _in_the_way(path)) is not None:
        # a file where the journal's folder should be: naming it is the whole fix
        f = str(folder)
        return JournalError(path, _said("folder_is_file", f"{f} is a file, not a folder", folder=f),
                            _said("move_file", f"move or rename that file, {other_file}", then=other_file))
    if code == errno.EISDIR:
        return JournalError(path, _said("is_folder", "this is a folder, not a file"),
                            _said("name_a_file", "name a file inside it (`narrator play --journal FOLDER/game.jsonl`)"))
    if code in (errno.EACCES, errno.EPERM):
        # a new journal is refused by its folder, an existing one by its own permissions
        d = str(path.parent)
        reason = (_said("no_permission", "no permission to write this file") if path.exists()
                  else _said("no_permission_folder", f"no permission to write in {d}", folder=d))
        return JournalError(path, reason, _fix_permissions(then if resume else other_file))
    if code == errno.EIO:
        return _disk_failed(path, None if resume else _said("disk_check", f"check the disk, {elsewhere}", then=elsewhere))
    error = exc.strerror or str(exc)
    return JournalError(path, _said("cannot_write", f"the journal cannot be written ({error})", error=error),
                        _said("fix_that", f"fix that, {then}", then=then))


def read_error(path: Path, exc: OSError) -> JournalError:
    """The words for an OSError met while opening the journal of a game to resume: the file is
    there, but it cannot be read as it is (no permission, a folder, a failing disk)."""
    p = str(path)
    then = _then_resume(path)
    code = exc.errno
    if code == errno.EISDIR or path.is_dir():
        return JournalError(path, _said("is_folder", "this is a folder, not a file"),
                            _said("name_a_journal", f"name a journal file inside it (`narrator resume --journal {p}/FILE.jsonl`), "
                                  "or type only `narrator resume` for the last unfinished game", path=p))
    if code in (errno.EACCES, errno.EPERM):
        return JournalError(path, _said("no_permission_read", "no permission to read this file"),
                            _fix_permissions(then))
    if code == errno.EIO:
        return _disk_failed(path)
    error = exc.strerror or str(exc)
    return JournalError(path, _said("cannot_read", f"the journal cannot be read ({error})", error=error),
                        _said("fix_that", f"fix that, {then}", then=then))


class JournalLocked(JournalError):
    def __init__(self, path: Path, pid: int | None):
        if pid:
            super().__init__(path, _said("locked_pid", f"this game is being played in another window (process {pid})", pid=pid),
                             _said("end_that_pid", f"continue it there, or end that process (kill {pid}) first", pid=pid))
        else:
            super().__init__(path, _said("locked", "this game is being played in another window (another process)"),
                             _said("end_that", "continue it there, or end that process first"))
        self.pid = pid


def why(key: str, text: str, **words) -> Worded:
    """What is wrong with a line: in English (logs, tests) and as a voice file's [cli] line
    damaged_<key> with its words, so the table is told in its own language."""
    return Worded(text, "cli", f"damaged_{key}", words)


@dataclass
class Damage:
    line: int  # 1-based line of the file
    what: Worded | str
    keep_bytes: int  # the file up to the end of the last good line
    lost_lines: int  # complete lines from the damaged one on


class DamagedJournal(ValueError):
    """The journal cannot be read as it is. `damage` is None when nothing of it can be resumed."""

    def __init__(self, path: Path, line: int, what: Worded | str, damage: Damage | None = None,
                 contents: "JournalContents | None" = None):
        super().__init__(f"{path}:{line}: {what}")
        self.path = path
        self.line = line
        self.why = what if isinstance(what, Worded) else Worded(str(what), "cli")
        self.what = str(what)
        self.damage = damage
        self.contents = contents  # what is good before the damage, when there is some

    def said(self, voice) -> str:
        """The file, the line and what is wrong with it, in the language of `voice`."""
        return f"{self.path}:{self.line}: {self.why.said(voice)}"


@dataclass
class JournalContents:
    header: dict
    events: list[Event]
    finished: bool
    torn: bool
    lines: list[int] = field(default_factory=list)  # the file line of each event
    revealed: list[int] = field(default_factory=list)  # seats that have seen their role on the hot seat
    damage: Damage | None = None
    ends: list[int] = field(default_factory=list)  # the byte offset just after each event's line
    header_end: int = 0
    total_lines: int = 0
    # the last mark of each timer, in the order of their last marks: a day's clock held during a
    # trial keeps its own mark while the trial's timers note theirs (hungariq, seed 001)
    timer_marks: dict[int, float] = field(default_factory=dict)
    # a game begun without the companion whose phones joined at a resume: the number of inputs
    # played before they came (by hand until then, on the phones from then on); None: no such line
    companion_from: int | None = None
    # whose each day vote was (event index -> "phone" or "host"): the voter's phone says "The host
    # recorded it for you." after a resume too. An older journal has none: every vote its phone's
    by: dict[int, str] = field(default_factory=dict)

    @property
    def timer_mark(self) -> tuple[int, float] | None:
        """The last (timer number, seconds left) noted."""
        return next(reversed(self.timer_marks.items()), None)

    def damage_at(self, i: int, what: Worded | str) -> Damage:
        """The damage of event i (an event the game cannot take): keep what comes before it."""
        line = self.lines[i]
        return Damage(line, what, self.ends[i - 1] if i else self.header_end, self.total_lines - line + 1)


# ---------------------------------------------------------------------- writing
class Journal:
    def __init__(self, path: Path, fd: int):
        self.path = path
        self._fd: int | None = fd
        self.failed: JournalError | None = None

    @classmethod
    def create(cls, path: Path, config_path: str, config_text: str, mode: dict, config_dir: str | None = None) -> "Journal":
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # the journal holds the secret deal: readable by its owner only
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        except OSError as exc:
            raise io_error(path, exc, resume=False) from None
        j = cls(path, fd)
        # nothing of the game is in the file until its header is: a header that cannot be written
        # leaves nothing to resume, so the way on is to start again (or elsewhere)
        # vote_calls: written since the classic host calls each candidate in turn; a journal without
        # it voted in one window, and is read as it was played (session.as_journaled)
        header = {"journal": FORMAT, "config_path": config_path, "config_text": config_text,
                  "mode": {**mode, "vote_calls": True}, "started": time.time()}
        if config_dir is not None:
            # the config's relative paths (its models, its club record) were taken from its folder:
            # a resume started from anywhere takes them from there too, and finds the same files
            header["config_dir"] = config_dir
        j._write(header, resume=False)
        return j

    @classmethod
    def reopen(cls, path: Path) -> "Journal":
        contents = read(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            if contents.torn:
                # cut the torn tail so the next append starts on a fresh line
                raw = path.read_bytes()
                os.ftruncate(fd, raw.rfind(b"\n") + 1)
                os.fsync(fd)
        except OSError as exc:
            raise io_error(path, exc) from None
        return cls(path, fd)

    def append(self, event: Event, by: str | None = None) -> None:
        """`by`: a day vote's source, "phone" (the voter's own) or "host" (his screen, the console
        for the voter). A day vote is public; a night tap never carries one."""
        line = {"t": round(time.time(), 3), "event": event_to_dict(event)}
        if by is not None:
            line["by"] = by
        self._write(line)

    def revealed(self, seat: int) -> None:
        """A seat has seen its role on the hot seat: a resume continues the reveal after it."""
        self._write({"t": round(time.time(), 3), "revealed": seat})

    def timer_mark(self, number: int, left: float) -> None:
        """How long the game's `number`th timer (a day timer) has left: at its start, every few
        seconds, at a pause and when a trial holds the day's clock, so a resume gives a speaker
        the rest of his time, and the table the rest of its day, not a new one."""
        self._write({"t": round(time.time(), 3), "timer": number, "left": round(left, 1)})

    def companion_joined(self) -> None:
        """The phones came to the table here (`narrator resume --companion` of a game begun
        without them): the inputs after this line were played with them — the votes on the
        phones where the config puts them there — and a resume or a report reads them so."""
        self._write({"t": round(time.time(), 3), "companion": True})

    def finish(self, winner: str | None) -> None:
        self._write({"t": round(time.time(), 3), "end": winner})

    def _write(self, obj: dict, resume: bool = True) -> None:
        if self.failed is not None:
            raise self.failed
        if self._fd is None:
            raise JournalError(self.path, _said("closed", "the journal is closed"),
                               _said("resume_it", "resume the game with `narrator resume`"))
        data = (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")
        fd = self._fd
        start = None
        try:
            start = os.lseek(fd, 0, os.SEEK_END)
            # straight to the file, no Python buffer: a write refused now can never land later
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        except OSError as exc:
            self.failed = io_error(self.path, exc, resume)
            # best effort: take back what part of the line reached the file, so a resume sees
            # the journal exactly as it was before this event (it was never applied)
            if start is not None:
                try:
                    os.ftruncate(fd, start)
                    os.fsync(fd)
                except OSError:
                    pass
            self.close()
            raise self.failed from None

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.close(fd)
            except OSError:
                pass


# ---------------------------------------------------------------------- one process per journal
class Lock:
    """An OS lock on a journal, held while a game is played from it."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    __del__ = release


def lock(path: Path, resume: bool = False) -> Lock:
    """Lock the journal at `path` (created empty if missing) or raise JournalLocked naming the
    holder. `resume`: the journal of a game to go on with, so what stops it is a file that cannot
    be read, not one that cannot be made."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o600)
    except OSError as exc:
        raise (read_error(path, exc) if resume and path.exists() else io_error(path, exc, resume=False)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = lock_holder(path)
        os.close(fd)
        raise JournalLocked(path, pid) from None
    except OSError:
        pass  # a filesystem without flock: play on unguarded rather than not at all
    return Lock(path, fd)


def lock_holder(path: Path) -> int | None:
    """The pid holding a flock on `path`, from /proc/locks (Linux); None when unknown."""
    try:
        st = os.stat(path)
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            for line in f:
                parts = line.split()
                if len(parts) < 6 or parts[1] != "FLOCK":
                    continue
                dev_ino = parts[5].split(":")
                if len(dev_ino) == 3 and int(dev_ino[2]) == st.st_ino:
                    return int(parts[4])
    except (OSError, ValueError):
        pass
    return None


def is_locked(path: Path) -> int | None:
    """The holder's pid (or -1 when unknown) if another process plays this journal now; else None."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return lock_holder(path) or -1
    except OSError:
        return None
    finally:
        os.close(fd)
    return None


# ---------------------------------------------------------------------- reading
_LINE_KINDS = ({"t", "event"}, {"t", "event", "by"}, {"t", "end"}, {"t", "revealed"}, {"t", "timer", "left"}, {"t", "companion"})


def read(path: Path, salvage: bool = False) -> JournalContents:
    """The journal's header and events. Raises DamagedJournal naming the line that is wrong; with
    `salvage`, a damaged body instead gives the contents up to the last good line (`damage` set)."""
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    torn = bool(lines and lines[-1])  # no newline at the end: the last write was cut
    complete = lines[:-1]
    if not complete:
        if torn:
            raise DamagedJournal(path, 1, why("never_started", "the game never started (its first line was cut off)"))
        raise DamagedJournal(path, 1, why("empty", "empty: not a narrator journal"))
    header = _header(path, complete[0])
    contents = JournalContents(header, [], False, torn)
    offset = len(complete[0]) + 1
    contents.header_end = offset
    contents.total_lines = len(complete)
    for n, line in enumerate(complete[1:], start=2):
        problem = None
        try:
            obj = json.loads(line.decode("utf-8"))
        except UnicodeDecodeError:
            problem = why("not_text", "not text (damaged bytes)")
        except json.JSONDecodeError as exc:
            problem = why("not_json", f"damaged line ({exc.msg})", column=exc.colno)
        else:
            problem = _body_line(obj, contents, n)
        if problem is None and contents.finished and n < len(complete):
            problem = why("after_end", "a line after the end of the game")
        if problem is not None:
            damage = Damage(n, problem, offset, len(complete) - n + 1)
            if salvage:
                contents.damage = damage
                contents.torn = False
                return contents
            raise DamagedJournal(path, n, problem, damage, contents)
        offset += len(line) + 1
        if len(contents.ends) < len(contents.events):
            contents.ends.append(offset)
    return contents


NOT_A_JOURNAL = why("not_journal", "not a narrator journal (its first line is not a journal header)")


def _header(path: Path, line: bytes) -> dict:
    try:
        header = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise DamagedJournal(path, 1, NOT_A_JOURNAL) from None
    if not isinstance(header, dict) or "journal" not in header:
        raise DamagedJournal(path, 1, NOT_A_JOURNAL)
    if header.get("journal") != FORMAT:
        found = repr(header.get("journal"))
        raise DamagedJournal(path, 1, why("format", f"a journal of another format ({found}; this narrator reads {FORMAT})",
                                          found=found, format=str(FORMAT)))
    if not isinstance(header.get("config_text"), str):
        raise DamagedJournal(path, 1, why("no_config", "the header lacks the game's config (config_text)"))
    if (not isinstance(header.get("config_path", ""), str) or not isinstance(header.get("mode", {}), dict)
            or not isinstance(header.get("config_dir", ""), str)):
        raise DamagedJournal(path, 1, why("header", "the header is damaged (config_path or mode)"))
    header.setdefault("config_path", str(path))
    header.setdefault("mode", {})
    return header


def timer_mark_of(obj: dict) -> tuple[int, float] | None:
    """A journal line's note of a day timer's time left, as (timer number, seconds left); None for
    any other line, or a damaged note."""
    number, left = obj.get("timer"), obj.get("left")
    if (not isinstance(number, int) or isinstance(number, bool) or number < 1
            or not isinstance(left, (int, float)) or isinstance(left, bool) or not 0 <= left < 1e6):
        return None
    return number, float(left)


def _body_line(obj, contents: JournalContents, n: int) -> Worded | None:
    if not isinstance(obj, dict) or set(obj) not in _LINE_KINDS:
        keys = ", ".join(sorted(obj)) if isinstance(obj, dict) else type(obj).__name__
        return why("not_line", f"not a journal line ({keys})", keys=keys)
    if not isinstance(obj["t"], (int, float)) or isinstance(obj["t"], bool):
        return why("time", "damaged time stamp")
    if "end" in obj:
        if obj["end"] is not None and not isinstance(obj["end"], str):
            return why("end", "damaged end of game")
        contents.finished = True
    elif "timer" in obj:
        mark = timer_mark_of(obj)
        if mark is None:
            return why("timer", "damaged timer mark")
        number, left = mark
        contents.timer_marks.pop(number, None)  # to the end: the last noted is the last key
        contents.timer_marks[number] = left
    elif "companion" in obj:
        if obj["companion"] is not True:
            return why("companion", "a damaged note of the phones joining the game")
        if contents.companion_from is None:
            contents.companion_from = len(contents.events)
    elif "revealed" in obj:
        seat = obj["revealed"]
        if not isinstance(seat, int) or isinstance(seat, bool):
            return why("reveal", "damaged reveal mark")
        contents.revealed.append(seat)
    else:
        kind = obj["event"].get("type") if isinstance(obj["event"], dict) else None
        if isinstance(obj["event"], dict) and (not isinstance(kind, str) or kind not in EVENT_TYPES):
            # written by another version, or edited by hand: named in the table's words
            return why("event_type", f"not a game event (unknown event type {kind!r})", type=repr(kind))
        try:
            event = event_from_dict(obj["event"])
        except (ValueError, TypeError, KeyError) as exc:
            return why("event", f"not a game event ({exc})", error=str(exc))
        if "by" in obj:
            if obj["by"] not in ("phone", "host"):
                return why("by", "a damaged note of whose vote it was")
            contents.by[len(contents.events)] = obj["by"]
        contents.events.append(event)
        contents.lines.append(n)
    return None


def repair(path: Path, damage: Damage) -> Path:
    """Keep a copy of the damaged file, then cut the file back to its last good line."""
    n = 1
    while (copy := Path(f"{path}.damaged-{n}")).exists():
        n += 1
    shutil.copy2(path, copy)
    os.chmod(copy, 0o600)
    with open(path, "r+b") as f:
        f.truncate(damage.keep_bytes)
        f.flush()
        os.fsync(f.fileno())
    return copy


# ---------------------------------------------------------------------- finding games
@dataclass
class Found:
    path: Path
    contents: JournalContents | None  # None: damaged
    error: DamagedJournal | None = None


def unfinished_games() -> list[Found]:
    """Every journal under the state dir, or played elsewhere and noted there, not yet finished
    (damaged ones too), newest last."""
    candidates = sorted(games_dir().glob("*.jsonl")) if games_dir().is_dir() else []
    if default_path().exists():
        candidates.append(default_path())
    # and the games played elsewhere (the config's [journal] path, a --journal)
    candidates += [p for p in dict.fromkeys(_elsewhere()) if p.exists() and p not in candidates]
    found = []
    for p in candidates:
        if _ends_finished(p):
            continue  # a club keeps hundreds of games: a finished one is known by its last line
        try:
            c = read(p)
        except DamagedJournal as exc:
            if exc.line == 1:
                continue  # no game in it at all
            found.append(Found(p, None, exc))
            continue
        except OSError:
            continue
        if not c.finished:
            found.append(Found(p, c))
    found.sort(key=lambda f: _mtime(f.path))
    return found


def _ends_finished(p: Path) -> bool:
    try:
        with open(p, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 256))
            tail = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
        obj = json.loads(tail)
    except (OSError, ValueError):
        return False
    return isinstance(obj, dict) and set(obj) == {"t", "end"}


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return 0.0


def describe(contents: JournalContents, voice=None) -> str:
    """A short line about an unfinished game, for the question whether to resume it (in the
    language of `voice`, a Voice with a [cli] section; English without one)."""
    started = contents.header.get("started")
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if isinstance(started, (int, float)) else "?"
    n = len(contents.events)
    if voice is not None:
        return voice.cli_text("unfinished_what", {"when": when, "n": n})
    return f"started {when}, {n} input{'' if n == 1 else 's'}"
