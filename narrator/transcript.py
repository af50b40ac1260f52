"""Writing transcripts: events back into the lines `replay` and the console take, with spoken
commands rendered from the language's own command sentences."""

from __future__ import annotations

from .flow.events import Deal, Defeat, Disqualify, EndSpeech, Event, Extend, Foul, Leave, Nominate, Revoke, Tap, Timeout
from .language import Voice, expand_pattern

KIND = {
    "classic": {"nominate": "nominate", "revoke": "revoke", "cancel": "cancel"},
    "sverige": {"nominate": "nominate_by", "revoke": "withdraw_by"},
    "hungariq": {"nominate": "accuse"},
    "grundregeln": {},
}


def sentence(voice: Voice, kind: str, seat: int | None = None, by: int | None = None) -> str:
    """The first sentence of a command kind, its slots filled with digits."""
    for pattern in voice.commands.get(kind, []):
        for s in expand_pattern(pattern.lower()):
            if ("{by}" in s) != (by is not None):
                continue
            if seat is not None and "{seat}" not in s:
                continue
            return s.replace("{seat}", str(seat)).replace("{by}", str(by))
    raise ValueError(f"{voice.lang}: no {kind} sentence for seat={seat} by={by}")


def event_line(ev: Event, voice: Voice, variant: str) -> str:
    kinds = KIND[variant]
    if isinstance(ev, Deal):
        return "deal " + " ".join([f"{s}={r}" for s, r in ev.roles] + [f"{s}+{f}" for s, f in ev.extras])
    if isinstance(ev, Nominate):
        return "say " + sentence(voice, kinds["nominate"], ev.seat, ev.by if variant != "classic" else None)
    if isinstance(ev, Revoke):
        if ev.seat is None and variant == "classic":
            return "say " + sentence(voice, "cancel")
        return "say " + sentence(voice, kinds["revoke"], ev.seat, ev.by if variant != "classic" else None)
    if isinstance(ev, EndSpeech):
        return "say " + sentence(voice, "end_speech")
    if isinstance(ev, Extend):
        return "say " + sentence(voice, "extension")
    if isinstance(ev, Tap):
        if ev.answer is not None:
            return f"tap {ev.seat} {'yes' if ev.answer else 'no'}"
        return f"tap {ev.seat} {ev.target}"
    if isinstance(ev, (Foul, Disqualify, Defeat, Leave)):
        return f"{type(ev).__name__.lower()} {ev.seat}"
    if isinstance(ev, Timeout):
        # a scorer's table: the call's time is over, "Stop." is said, the count waits for his hands
        return "timeout count" if ev.count_waits else "timeout"
    raise ValueError(f"no transcript line for {ev!r}")
