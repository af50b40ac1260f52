"""What the core asks the world to do. Adapters decide how: speak or print a line, send a private
message to one phone, run a timer, append to the protocol."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Say:
    """A public narration line (an id in voices/<lang>.toml) with its arguments."""

    line: str
    args: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Tell:
    """A line for one seat only (a check result, the answer to a secret input)."""

    seat: int
    line: str
    args: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HostLine:
    """A line for the host alone — the referee who typed or tapped the input, at the console or on
    a host screen: a foul or a dismissal given at night is confirmed to him and said to the table
    only in the morning (seed 004 §5-7), since the sleeping table must not hear who moved while a
    role was awake. Never spoken, never on a phone."""

    line: str
    args: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Timer:
    """Start the phase timer (replacing any running one); name None stops it. With `cue`, the
    narrator says `Say("time_left", {"time": cue})` that many seconds before it runs out.

    `hold`: a clock of the whole phase (hungariq's day, seed 001): when another named timer
    replaces it (a trial's), what it has left is kept, not lost. `resume`: this timer goes on with
    what its held clock of the same name kept; with nothing kept it starts from `seconds`. A
    timer of that name without `resume`, or no timer (name None), forgets what was kept. The core
    has no clock: the adapters keep the time (narrator/live/ on the real clock)."""

    name: str | None
    seconds: int = 0
    cue: int = 0
    hold: bool = False
    resume: bool = False

    def cue_line(self) -> Say | None:
        return Say("time_left", {"time": self.cue}) if self.cue else None


@dataclass(frozen=True, slots=True)
class Record:
    """An entry of the game protocol (the club's record of the game)."""

    entry: dict


@dataclass(frozen=True, slots=True)
class Reject:
    """An input was refused and changed nothing; the line says why. With seat set it is private."""

    line: str
    args: dict = field(default_factory=dict)
    seat: int | None = None


Effect = Say | Tell | HostLine | Timer | Record | Reject
