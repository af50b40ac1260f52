"""What can happen at the table, as the core sees it. Every adapter (voice, phone, keypad, console,
timer) turns its input into one of these; the journal stores them; replay feeds them back."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Deal:
    roles: tuple[tuple[int, str], ...]  # (seat, role); seats not named are citizens
    extras: tuple[tuple[int, str], ...] = ()  # second-deal flags: (seat, "lover" | "kamikaze")
    cards: bool = False  # physical cards: the roles are learnt at night zero, as a human host does


@dataclass(frozen=True, slots=True)
class Nominate:
    seat: int
    by: int | None = None  # None: the player who holds the floor


@dataclass(frozen=True, slots=True)
class Revoke:
    seat: int | None = None  # None: "cancel" — the speaker's nomination of this speech
    by: int | None = None


@dataclass(frozen=True, slots=True)
class EndSpeech:
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Tap:
    seat: int
    target: int | None = None
    answer: bool | None = None  # yes/no votes


@dataclass(frozen=True, slots=True)
class Foul:
    seat: int


@dataclass(frozen=True, slots=True)
class Timeout:
    pass


@dataclass(frozen=True, slots=True)
class Extend:
    """Somebody asks for the day's time extension (seed 000)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """A player who feels unwell leaves at night; the morning announces him as shot (seed 000)."""

    seat: int


Event = Deal | Nominate | Revoke | EndSpeech | Tap | Foul | Timeout | Extend | Leave

_NAMES = {Deal: "deal", Nominate: "nominate", Revoke: "revoke", EndSpeech: "end_speech", Tap: "tap", Foul: "foul",
          Timeout: "timeout", Extend: "extend", Leave: "leave"}
_TYPES = {v: k for k, v in _NAMES.items()}


def event_to_dict(event: Event) -> dict:
    # plain slot reads: dataclasses.asdict deep-copies and was a quarter of simulate's time
    d = {"type": _NAMES[type(event)]}
    for k in event.__slots__:
        v = getattr(event, k)
        if v is None or (k == "cards" and not v):
            continue
        if k in ("roles", "extras"):
            if not v and k == "extras":
                continue
            v = {str(s): r for s, r in v}
        d[k] = v
    return d


def event_from_dict(d: dict) -> Event:
    d = dict(d)
    cls = _TYPES[d.pop("type")]
    if cls is Deal:
        extras = tuple(sorted((int(s), f) for s, f in d.get("extras", {}).items()))
        return Deal(tuple(sorted((int(s), r) for s, r in d.get("roles", {}).items())), extras, bool(d.get("cards")))
    return cls(**d)
