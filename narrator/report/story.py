"""The game's story: protocol entries grouped into the deal, nights and days, each a list of
plain items (dicts) the page draws. Only the protocol is read, never the game's internals, so a
protocol from any narrator version that writes these entries tells the same story."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.roles import TEAM_OF

# entries that happen during a speech without ending it
_DURING_SPEECH = {"nomination", "revocation", "foul", "timer", "say", "tell", "host", "input", "rejected",
                  "accusation", "vote_cancel_pending", "extension", "disqualification"}


# inputs that end the running speech: "thank you", its time running out, or the host ending it
_ENDS_SPEECH = {"end_speech", "timeout"}

# what the morning announces: drawn with the night it ends
_DAWN = {"eliminated", "kamikaze", "pardon", "leaving"}


@dataclass
class Period:
    kind: str  # "night" or "day"
    number: int
    items: list[dict] = field(default_factory=list)


@dataclass
class Story:
    variant: str
    seats: int
    roles: dict[int, str]
    extras: dict[int, str]
    winner: str | None
    days: int
    periods: list[Period]
    eliminated: dict[int, dict]  # seat -> {"cause", "period"}
    fouls: dict[int, int]
    timers: dict
    cards: bool = False

    def team(self, seat: int) -> str:
        return TEAM_OF.get(self.roles.get(seat, "citizen"), "town")


def _seat(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def build(entries: list[dict]) -> Story:
    start = next((e for e in entries if e.get("type") == "game_start"), {})
    story = Story(variant=str(start.get("variant", "?")), seats=int(start.get("seats") or 0), roles={}, extras={},
                  winner=None, days=0, periods=[], eliminated={}, fouls={}, timers=dict(start.get("timers") or {}))
    period: Period | None = None
    speech: dict | None = None
    vote: dict | None = None
    last_input: dict | None = None

    def open_period(kind: str, number: int) -> Period:
        nonlocal period
        period = Period(kind, number)
        story.periods.append(period)
        return period

    def add(item: dict) -> dict:
        p = period or open_period("night", 0)
        if (item["kind"] in _DAWN and p.kind == "day" and len(story.periods) > 1
                and not any(i["kind"] not in _DAWN for i in p.items) and story.periods[-2].kind == "night"):
            p = story.periods[-2]  # the morning's news belongs to the night it ends
        p.items.append(item)
        return item

    def close_speech(entry: dict) -> None:
        nonlocal speech
        if speech is None:
            return
        t0, t1 = speech.pop("_t", None), entry.get("t")
        if isinstance(t0, (int, float)) and isinstance(t1, (int, float)) and t1 >= t0:
            speech["seconds"] = round(t1 - t0)
        # the host's `timeout` (or his screen's End speech) is marked "host" in the protocol since
        # 2026-11-24: before, every `timeout` read as the time running out, as it still does in
        # protocols written then
        ended = last_input.get("type") if last_input else None
        by_host = ended in _ENDS_SPEECH and last_input.get("host") is True
        speech["timed_out"] = ended == "timeout" and not by_host
        if by_host:
            speech["ended_by_host"] = True
        speech = None

    for e in entries:
        kind = e.get("type")
        if kind == "input":
            last_input = e.get("event") if isinstance(e.get("event"), dict) else None
            if speech is not None and last_input and last_input.get("type") in _ENDS_SPEECH:
                # the speech ends here, not at whatever the game records next: after hungariq's
                # accused's last word that is the first hand of the execution vote
                close_speech(e)
            continue
        if speech is not None and kind not in _DURING_SPEECH:
            close_speech(e)
        if kind == "timer":
            if speech is not None and e.get("name") and "allowed" not in speech:
                speech["allowed"] = e.get("seconds")
            continue
        if kind in ("say", "tell", "host", "rejected", "game_start"):
            continue
        if kind == "deal":
            story.roles = {int(s): r for s, r in (e.get("roles") or {}).items() if str(s).isdigit()}
            story.extras = {int(s): f for s, f in (e.get("extras") or {}).items() if str(s).isdigit()}
            story.cards = bool(e.get("cards")) or story.cards
        elif kind == "deal_cards":
            story.cards = True
        elif kind == "phase":
            vote = None
            if e.get("phase") == "night":
                open_period("night", int(e.get("night") or 0))
            else:
                open_period("day", int(e.get("day") or 0))
                story.days = max(story.days, period.number)
        elif kind == "speech":
            speech = add({"kind": "speech", "seat": _seat(e.get("seat")), "speech": e.get("kind", "speech"),
                          "_t": e.get("t"), "nominated": []})
        elif kind in ("nomination", "accusation"):
            item = add({"kind": kind, "by": _seat(e.get("by")), "seat": _seat(e.get("seat"))})
            if speech is not None and kind == "nomination":
                speech["nominated"].append(item["seat"])
        elif kind == "revocation":
            add({"kind": "revocation", "by": _seat(e.get("by")), "seat": _seat(e.get("seat"))})
        elif kind == "vote_open":
            vote = add({"kind": "vote", "round": e.get("round", "main"), "candidates": [_seat(c) for c in e.get("candidates") or []],
                        "votes": [], "counts": None})
        elif kind == "vote":
            rnd = e.get("round")
            if vote is None or vote.get("closed"):
                vote = add({"kind": "vote", "round": rnd or "main", "candidates": [], "votes": [], "counts": None})
            vote["votes"].append((_seat(e.get("voter")), e.get("answer") if "answer" in e else _seat(e.get("seat"))))
        elif kind == "vote_result":
            rnd = e.get("round", "main")
            if vote is None or vote.get("closed"):
                vote = add({"kind": "vote", "round": rnd, "candidates": [], "votes": [], "counts": None})
            vote["round"] = vote["round"] if vote["candidates"] else rnd
            vote["closed"] = True
            if "counts" in e:
                vote["counts"] = {int(s): int(n) for s, n in (e.get("counts") or {}).items()}
                for c in vote["counts"]:
                    if c not in vote["candidates"]:
                        vote["candidates"].append(c)
                vote["added_to_last"] = [_seat(s) for s in e.get("added_to_last") or []]
            else:
                vote["yes"], vote["electorate"], vote["passed"] = e.get("yes"), e.get("electorate"), e.get("passed")
                if e.get("seat") is not None:
                    vote["seat"] = _seat(e.get("seat"))
        elif kind == "split":
            add({"kind": "split", "seats": [_seat(s) for s in e.get("seats") or []]})
        elif kind == "vote_ends":
            add({"kind": "vote_ends", "reason": e.get("reason"), "seats": [_seat(s) for s in e.get("seats") or []]})
        elif kind == "vote_cancelled":
            add({"kind": "vote_cancelled", "reason": e.get("reason")})
        elif kind == "vote_cancel_pending":
            # which vote goes (seed 004 §7): the day's own, while its result is open, or the next
            # one; a protocol that names no day (foreign, damaged) is read as the next
            here = period or open_period("night", 0)
            day = e.get("day") if isinstance(e.get("day"), int) and not isinstance(e.get("day"), bool) else None
            today = here.kind == "day" and day == here.number
            add({"kind": "vote_cancel_pending", "reason": e.get("reason") or "fouls", "today": today,
                 "day": day if day is not None else here.number + 1})
        elif kind == "disqualification":
            add({"kind": "disqualification", "seat": _seat(e.get("seat"))})
        elif kind == "defeat":
            add({"kind": "defeat", "seat": _seat(e.get("seat")), "team": e.get("team")})
        elif kind == "foul":
            seat = _seat(e.get("seat"))
            story.fouls[seat] = int(e.get("count") or story.fouls.get(seat, 0) + 1)
            add({"kind": "foul", "seat": seat, "count": story.fouls[seat]})
        elif kind == "shot_fired":
            add({"kind": "shot_fired", "by": _seat(e.get("by")), "seat": _seat(e.get("seat"))})
        elif kind == "shot":
            shooters = {int(s): [_seat(t) for t in ts] for s, ts in (e.get("shooters") or {}).items() if str(s).isdigit()}
            add({"kind": "shot", "seat": _seat(e.get("seat")), "shooters": shooters, "saved_by_sarika": bool(e.get("saved_by_sarika"))})
        elif kind in ("check", "watch"):
            add({"kind": kind, "by": _seat(e.get("by")), "seat": _seat(e.get("seat")), "result": e.get("result")})
        elif kind == "manner":
            add({"kind": "manner", "by": _seat(e.get("by")), "manner": e.get("manner")})
        elif kind in ("protect", "block", "kamikaze", "tie_break"):
            add({"kind": kind, "by": _seat(e.get("by")), "seat": _seat(e.get("seat"))})
        elif kind == "eliminated":
            seat = _seat(e.get("seat"))
            add({"kind": "eliminated", "seat": seat, "cause": e.get("cause")})
            p = next(p for p in reversed(story.periods) if p.items and p.items[-1]["kind"] == "eliminated")
            story.eliminated[seat] = {"cause": e.get("cause"), "period": (p.kind, p.number)}
        elif kind in ("pardon", "leaving", "card_shown"):
            add({"kind": kind, "seat": _seat(e.get("seat")), "role": e.get("role")})
        elif kind == "nominees":
            add({"kind": "nominees", "seats": [_seat(s) for s in e.get("seats") or []]})
        elif kind in ("extension", "no_night", "discussion", "accusations", "speeches"):
            add({"kind": kind})
        elif kind == "game_over":
            story.winner = e.get("winner")
            roles = {int(s): r for s, r in (e.get("roles") or {}).items() if str(s).isdigit()}
            story.roles = roles or story.roles
            story.days = max(story.days, int(e.get("days") or 0))
    if speech is not None:
        last_input = None  # the game stopped during this speech: it did not run out of time
        close_speech({})
    for p in story.periods:
        for item in p.items:
            item.pop("_t", None)
            item.pop("closed", None)
    if not story.roles and story.seats:
        story.roles = {s: "citizen" for s in range(1, story.seats + 1)}
    return story
