"""The game protocol: JSON Lines a club keeps as the record of a game, and replays."""

from __future__ import annotations

import json
from typing import IO, Iterable

from .flow.effects import Effect, HostLine, Record, Reject, Say, Tell, Timer
from .flow.events import event_from_dict
from .language import Voice


def entries(effects: Iterable[Effect], voice: Voice | None) -> list[dict]:
    """Protocol entries for a batch of effects; narration is rendered when a voice is given."""
    out = []
    for e in effects:
        if isinstance(e, Record):
            entry = dict(e.entry)
            if entry["type"] == "rejected" and voice is not None:
                entry["text"] = voice.render(entry["reason"], entry["args"])
            out.append(entry)
        elif isinstance(e, Say):
            entry = {"type": "say", "line": e.line, "args": e.args}
            if voice is not None:
                entry["text"] = voice.render(e.line, e.args)
            out.append(entry)
        elif isinstance(e, Tell):
            entry = {"type": "tell", "seat": e.seat, "line": e.line, "args": e.args}
            if voice is not None:
                entry["text"] = voice.render(e.line, e.args)
            out.append(entry)
        elif isinstance(e, HostLine):
            # what the host alone was told (a foul given at night, said to the table in the morning)
            entry = {"type": "host", "line": e.line, "args": e.args}
            if voice is not None:
                entry["text"] = voice.render(e.line, e.args)
            out.append(entry)
        elif isinstance(e, Timer):
            out.append({"type": "timer", "name": e.name, "seconds": e.seconds, **({"cue": e.cue} if e.cue else {}),
                        **({"hold": True} if e.hold else {}), **({"resume": True} if e.resume else {})})
        elif isinstance(e, Reject):
            pass  # the core's "rejected" record carries the same answer
    return out


def dumps(entry: dict) -> str:
    return json.dumps(entry, ensure_ascii=False, sort_keys=False)


def write(entries_: Iterable[dict], fh: IO[str]) -> None:
    for entry in entries_:
        fh.write(dumps(entry) + "\n")


def inputs_of(protocol: Iterable[dict]):
    """The accepted inputs of a protocol, in order: replaying them reproduces the game."""
    return [event_from_dict(e["event"]) for e in protocol if e.get("type") == "input"]
