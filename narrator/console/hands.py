"""The scorer's line of hands at a table without phones: "3 5 8" for the name being called."""

from __future__ import annotations

from rich.console import Console

from ..flow.events import Tap
from ..inputs import InputError, hands_line, shown
from ..naming import names_put, seat_label
from .output import ConsoleOutput
from .screen import note, words


def hands_typed(live, line: str, console: Console) -> bool:
    """A scorer's line in a hand call at a table without phones: "3 5 8" raised their hands for the
    name being called (or said yes), "7: 3 5 8" voted for player 7 where several are voted on, and
    Enter alone: no (more) hands. False for a line of any other shape, or outside a hand call."""
    call = live.hand_call() if hasattr(live, "hand_call") else None
    if call is None:
        return False
    if line:
        try:
            parsed = hands_line(line)
        except InputError as exc:
            note(console, exc.explained(live.session.voice))
            return True
        if parsed is None:
            return False
    else:
        parsed = (None, [])
    live.submit_control(lambda: _hands_in_turn(live, console, call, line, *parsed))
    return True


def _hands_in_turn(live, console: Console, call: int, line: str, target: int | None, voters: list[int]) -> None:
    """The scorer's hands, on the game's loop as the line's turn comes. Each hand is a vote as `tap`
    records it (journaled one by one, so resume and report replay them); a seat that cannot vote
    is refused by name and the others still count — the scorer saw those hands go up, and typing
    them all again would cost the next name's window."""
    if live.paused:
        return note(console, words(live, "hands_paused", text=shown(line)))
    if live.hand_call() != call:
        # the count of the call it was typed in has been said: the next name's hands are not these
        return note(console, words(live, "hands_too_late", text=shown(line)))
    kind, candidates = live.game.vote_choices()
    names = live.config.players
    if kind == "yes_no" and target is not None:
        return note(console, words(live, "hands_yes_no", text=shown(line), voters=" ".join(map(str, voters)) or "3 5 8"))
    several = kind == "seat" and len(candidates) > 1
    if kind == "seat" and target is None and not several:
        target = candidates[0]
    if kind == "seat" and target is None and voters:
        example = f"{candidates[0]}: " + " ".join(map(str, voters))
        return note(console, words(live, "hands_whose", text=shown(line), seats=", ".join(map(str, candidates)), example=example))
    if target is not None and target not in candidates:
        return note(console, words(live, "hands_not_candidate", seat=target, seats=", ".join(map(str, candidates))))
    # the answer names every hand this name has, a `tap` typed before the line as well: the count
    # the table hears next is the one the scorer reads
    given = [v for v, (t, yes) in live.game.ballot_cast().items() if (t == target if kind == "seat" else yes)]
    out = next((o for o in live.outputs if isinstance(o, ConsoleOutput)), None)
    recorded: list[dict] = []
    if out is not None:
        out.collecting = recorded
    try:
        for i, voter in enumerate(voters):
            if live.hand_call() != call:
                # every vote was spent and the count said (a re-vote may be open): the rest of the
                # line is no hand of the call that follows, and is named as not taken
                note(console, words(live, "hands_too_late", text=shown(" ".join(map(str, voters[i:])))))
                break
            live.apply_typed(Tap(voter, target) if kind == "seat" else Tap(voter, answer=True))
    finally:
        if out is not None:
            out.collecting = None
    hands = ", ".join(seat_label(names, v) for v in given + [e["voter"] for e in recorded]) or words(live, "hands_nobody")
    if voters or not several:
        if kind == "seat":
            # the name called with its player's name, as the console's vote notes put it
            args = {"seat": target, "voters": hands}
            voice = live.session.voice
            key = "hands_for"
            silent = _silent_to(live, call, target)
            if silent:
                # the last name called takes every vote not cast (seed 004 §4.4): "votes for player
                # 7: nobody" read before "Player 7: 4 votes." — the note says where those 4 come from
                key = "hands_for_last"
                args.update(n=len(silent), silent=", ".join(seat_label(names, v) for v in silent))
            note(console, names_put(voice, names, lambda a: words(live, key, **a), args, ("seat",))
                 or words(live, key, **args))
        else:
            note(console, words(live, "hands_yes", voters=hands))
    # one name (or yes) is answered by its line; where several are voted on, by Enter alone
    if not several or not voters and target is None:
        if several and not live.hands_waiting():
            note(console, words(live, "hands_all_in"))
        live.hands_entered(call)


def _silent_to(live, call: int, target: int | None) -> list[int]:
    """The seats whose votes, not cast, go to `target` as the vote is counted: where the rules give
    the silent votes to the last name (Moment.silent_to) and he is the one called now, the last.
    [] elsewhere, and once the count has been said (every vote in)."""
    if live.hand_call() != call:
        return []
    m = live.game.moment()
    if m.silent_to is None or m.silent_to != target or not m.called or m.calling != len(m.called) - 1:
        return []
    cast = live.game.ballot_cast()
    return [s for s in m.voters if s not in cast]
