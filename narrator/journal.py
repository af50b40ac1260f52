"""The journal: every input event is appended and flushed to disk *before* it is applied, so
`narrator resume` after a crash or power cut replays exactly the events that were applied — or
were about to be — once each. A line torn by the crash was never applied and is dropped."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from .flow.events import Event, event_from_dict, event_to_dict

FORMAT = 1


def default_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "narrator" / "journal.jsonl"


@dataclass
class JournalContents:
    header: dict
    events: list[Event]
    finished: bool
    torn: bool


class Journal:
    def __init__(self, path: Path, fh):
        self.path = path
        self._fh = fh

    @classmethod
    def create(cls, path: Path, config_path: str, config_text: str, mode: dict) -> "Journal":
        path.parent.mkdir(parents=True, exist_ok=True)
        # the journal holds the secret deal: readable by its owner only
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        j = cls(path, os.fdopen(fd, "w", encoding="utf-8"))
        j._write({"journal": FORMAT, "config_path": config_path, "config_text": config_text, "mode": mode, "started": time.time()})
        return j

    @classmethod
    def reopen(cls, path: Path) -> "Journal":
        contents = read(path)
        if contents.torn:
            # cut the torn tail so the next append starts on a fresh line
            raw = path.read_bytes()
            path.write_bytes(raw[: raw.rfind(b"\n") + 1])
        return cls(path, open(path, "a", encoding="utf-8"))

    def append(self, event: Event) -> None:
        self._write({"t": round(time.time(), 3), "event": event_to_dict(event)})

    def finish(self, winner: str | None) -> None:
        self._write({"t": round(time.time(), 3), "end": winner})

    def _write(self, obj: dict) -> None:
        self._fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()


def read(path: Path) -> JournalContents:
    raw = path.read_text(encoding="utf-8")
    lines = raw.split("\n")
    torn = bool(lines and lines[-1])  # no newline at the end: the last write was cut
    complete = lines[:-1]
    if not complete:
        raise ValueError(f"{path}: the journal has no header")
    header = json.loads(complete[0])
    if header.get("journal") != FORMAT:
        raise ValueError(f"{path}: not a narrator journal (format {header.get('journal')!r})")
    events: list[Event] = []
    finished = False
    for n, line in enumerate(complete[1:], start=2):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            if n == len(complete):
                torn = True
                break
            raise ValueError(f"{path}:{n}: damaged journal line") from None
        if "end" in obj:
            finished = True
        elif "event" in obj:
            events.append(event_from_dict(obj["event"]))
    return JournalContents(header, events, finished, torn)
