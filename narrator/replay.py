"""`narrator replay`: play a whole game from a transcript in virtual time, write the protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO

from . import protocol
from .config import Config
from .flow.effects import Reject
from .flow.events import Deal
from .inputs import InputError, Talk, shown
from .session import Session


@dataclass
class ReplayResult:
    session: Session
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    finished: bool = False  # the game reached its end
    protocol: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and self.finished


def replay(text: str, config: Config, out: IO[str] | None = None, name: str = "<transcript>") -> ReplayResult:
    """Play a transcript. The protocol (JSON Lines, to `out`) is the machine's record and stays as it
    is; the problems and notes are for a person, in the table's language (the config's)."""
    session = Session(config, fixed_night_steps=False)
    result = ReplayResult(session)
    voice = session.voice

    def emit(effects) -> None:
        entries = protocol.entries(effects, session.voice)
        result.protocol.extend(entries)
        if out is not None:
            protocol.write(entries, out)

    emit(session.start())
    dealt = False
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{name}:{number}"
        try:
            item = session.parse(line)
        except InputError as exc:
            answer = f" ({session.render(exc.line, exc.params)})" if exc.line else ""
            result.problems.append(f"{where}: {exc.explained(voice)}{answer}")
            emit([])
            continue
        if item is None:
            continue
        if isinstance(item, Talk):
            # a recogniser delivers only commands; a typed sentence that is none is worth a word
            result.notes.append(voice.cli_text("replay_talk", {"where": where, "text": shown(item.text)}))
            continue
        if not dealt and not isinstance(item, Deal) and session.game.state == "setup":
            auto = session.dealing_event()
            if auto is None:
                result.problems.append(voice.cli_text("replay_no_deal", {"where": where}))
                break
            emit(session.feed(auto))
        dealt = dealt or isinstance(item, Deal)
        effects = session.feed(item)
        emit(effects)
        for e in effects:
            if isinstance(e, Reject):
                result.problems.append(voice.cli_text("replay_refused", {"where": where, "answer": session.render(e.line, e.args)}))
    result.finished = session.game.state == "over"
    if not result.finished:
        result.problems.append(voice.cli_text("replay_waiting", {"where": name, "what": session.awaiting_text()}))
    return result
