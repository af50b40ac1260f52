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
    # the host ended it (his screen's End speech), not the speaker's "thank you": the game plays
    # it alike; the record of the game tells them apart
    host: bool = False


@dataclass(frozen=True, slots=True)
class Tap:
    seat: int
    target: int | None = None
    answer: bool | None = None  # yes/no votes


@dataclass(frozen=True, slots=True)
class Foul:
    seat: int


@dataclass(frozen=True, slots=True)
class Disqualify:
    """The referee dismisses a player (seed 004 §5: «immediately result in player's dismissal»)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Defeat:
    """The referee gives a player's team the defeat (seed 004 §5: «immediately result in player's
    team defeat»): the seat names the player who broke the rule, whose team loses."""

    seat: int


@dataclass(frozen=True, slots=True)
class Timeout:
    # typed by the host (`timeout`, or his screen), not the timer running out: the game plays it
    # alike, but the game's report must not say the time ran out when the host cut a speech short.
    # Written only when true, so a journal or protocol without it (every one before) reads as ever.
    host: bool = False
    # the window's time ran out where a scorer types the hands: the game says its end now (classic's
    # "Stop.", when the fists must be down), and counts at the plain Timeout his line brings. Kept
    # in the journal, so a game resumed while the count waits knows the call is over
    count_waits: bool = False


@dataclass(frozen=True, slots=True)
class Extend:
    """Somebody asks for the day's time extension (seed 000)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """A player who feels unwell leaves: at night, the morning announces it (seed 000: as shot);
    in classic also by day, as a dismissal (seed 004 §5: «Leave of the gaming table»)."""

    seat: int


Event = Deal | Nominate | Revoke | EndSpeech | Tap | Foul | Disqualify | Defeat | Timeout | Extend | Leave

_NAMES = {Deal: "deal", Nominate: "nominate", Revoke: "revoke", EndSpeech: "end_speech", Tap: "tap", Foul: "foul",
          Disqualify: "disqualify", Defeat: "defeat", Timeout: "timeout", Extend: "extend", Leave: "leave"}
_TYPES = {v: k for k, v in _NAMES.items()}
# worked out once, not for every event read back: a replay reads thousands
_FIELDS = {cls: frozenset(cls.__slots__) for cls in _NAMES}
_REQUIRED = {"nominate": ("seat",), "tap": ("seat",), "foul": ("seat",), "leave": ("seat",),
             "disqualify": ("seat",), "defeat": ("seat",)}


def event_to_dict(event: Event) -> dict:
    # plain slot reads: dataclasses.asdict deep-copies and was a quarter of simulate's time
    d = {"type": _NAMES[type(event)]}
    for k in event.__slots__:
        v = getattr(event, k)
        if v is None or (k in ("cards", "host", "count_waits") and not v):
            continue
        if k in ("roles", "extras"):
            if not v and k == "extras":
                continue
            v = {str(s): r for s, r in v}
        d[k] = v
    return d


def event_from_dict(d: dict) -> Event:
    """The event a dict stands for; ValueError naming what is wrong when it stands for none (a
    journal or protocol from elsewhere, or damaged): an unknown type, a missing or extra field, a
    field of the wrong kind."""
    if not isinstance(d, dict):
        raise ValueError(f"an event is an object, not {type(d).__name__}")
    d = dict(d)
    name = d.pop("type", None)
    cls = _TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown event type {name!r}")
    extra = d.keys() - _FIELDS[cls]
    if extra:
        raise ValueError(f"{name}: unknown field {', '.join(sorted(map(str, extra)))}")
    if cls is Deal:
        roles = tuple(sorted((_seat_key(s), _text(r, "role")) for s, r in _table(d.get("roles", {}), "roles").items()))
        extras = tuple(sorted((_seat_key(s), _text(f, "extra")) for s, f in _table(d.get("extras", {}), "extras").items()))
        cards = d.get("cards", False)
        if not isinstance(cards, bool):
            raise ValueError("deal: cards is true or false")
        return Deal(roles, extras, cards)
    for k, v in d.items():
        if k in ("answer", "host", "count_waits"):
            if not isinstance(v, bool):
                raise ValueError(f"{name}: {k} is true or false, not {v!r}")
        elif not _is_int(v):
            raise ValueError(f"{name}: {k} is a seat number, not {v!r}")
    missing = [k for k in _REQUIRED.get(name, ()) if k not in d]
    if missing:
        raise ValueError(f"{name}: {', '.join(missing)} missing")
    return cls(**d)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _table(v, what: str) -> dict:
    if not isinstance(v, dict):
        raise ValueError(f"deal: {what} is a table of seats")
    return v


def _seat_key(s) -> int:
    if not isinstance(s, str) or not s.isascii() or not s.isdigit() or len(s) > 4:
        raise ValueError(f"deal: {s!r} is not a seat number")
    return int(s)


def _text(v, what: str) -> str:
    if not isinstance(v, str):
        raise ValueError(f"deal: a {what} is a name, not {v!r}")
    return v
