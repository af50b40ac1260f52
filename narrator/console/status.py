"""What the console says of the moment: `status`, what the game waits for, `help`, the moment's name."""

from __future__ import annotations

from ..naming import seat_label, seat_words, state_key
from .screen import words


# states in which the day's nominations are no longer in play (as the phones show them): the game
# keeps the last day's nominees until the next day starts, but at night nobody is nominated
NOMINATIONS_OFF = ("setup", "night", "last_words", "kamikaze", "over")


def status_text(live) -> str:
    g = live.game
    view = g.public_view()
    if view["state"] in NOMINATIONS_OFF:
        view["nominations"] = []
    rem = live.timer_remaining()
    timer = words(live, "status_left", n=round(rem)) if view["timer"] and rem is not None else words(live, "status_no_timer")
    if live.paused:
        timer += " · " + words(live, "status_paused")
    held = live.held_remaining() if hasattr(live, "held_remaining") else None
    if held is not None:
        # hungariq's day waits while an accusation is tried (seed 001): the table asks how much is left
        timer += " · " + words(live, "status_day_held", n=round(held))
    names = live.config.players
    # each seat named as every other line of the console names it: "3 (Vika)"
    alive = ", ".join(seat_label(names, s) for s in view["alive"])
    nominations = ", ".join(map(str, view["nominations"])) or words(live, "status_no_nominations")
    if view.get("vote_cancelled"):
        nominations += " " + words(live, "status_vote_cancelled")
    return "\n".join((
        words(live, "status_state", state=state_name(live), day=str(view["day"]), alive=alive),
        # only a variant with fouls (classic, seed 004 §5-7) has them to show: "fouls: none" at a
        # grundregeln or sverige table reads as if fouls were a thing there
        words(live, "status_more", nominations=nominations, timer=timer,
              fouls=", ".join(f"{s}:{n}" for s, n in view["fouls"].items()) or words(live, "status_no_fouls"))
        if g.rules.get("fouls") else words(live, "status_more_without_fouls", nominations=nominations, timer=timer),
        words(live, "status_waiting", what=waiting_text(live)),
    ))


def waiting_text(live, keypad_table: bool | None = None) -> str:
    """What the game waits for, as `status` says it. At a keypad table's night every step runs its
    full time whatever is typed (a `timeout` there is refused): "the Sheriff's check: a seat
    number and Enter on the keypad (the step runs its full time)", not "(taps, or timeout)". The
    step is the one the narrator named aloud; the words are the same whoever is awake or alive."""
    g = live.game
    if keypad_table is None:
        keypad_table = getattr(live, "keypad_table", False)
    if not (keypad_table and g.phase() == "night"):
        if hasattr(live, "hand_call") and live.hand_call() is not None:
            # a table without phones: the scorer's line is what the count waits for
            hint = words(live, "status_hands_waiting" if live.hands_waiting() else "status_hands")
            return live.session.awaiting_text() + " · " + hint
        return live.session.awaiting_text()
    line, args = g.awaiting()
    voice = live.session.voice
    if line == "awaiting_night_step":
        return words(live, "status_keypad_step", step=voice.render(args["step"].lstrip("@"), inside=True))
    if line == "awaiting_identify":
        return words(live, "status_keypad_identify", role=voice.render(args["role"].lstrip("@"), inside=True))
    return words(live, "status_keypad_wait")


def help_text(live, keypad: bool = False, phones: bool = False) -> str:
    """What can be typed at this table, in its language: the day's words these rules take (classic
    nominates, sverige names the nominator, hungariq accuses, grundregeln only votes — seeds 004,
    000, 001, 003), the referee's where the rules have them, the keypad's night or the phones'
    `start`, and the console's own. The typed words are English at every table, like tap."""
    from ..inputs import DAY_COMMANDS

    g = live.game
    seat = words(live, "help_seat")
    offers = g.day_offers()
    m = g.moment()  # the rules' own description: whether they accuse, whose a nomination is
    named = m.nominator_named
    day = []
    if "nominate" in offers:
        day.append(f"accuse {seat} [by {seat}]" if m.accusing else
                   f"nominate {seat} by {seat}" if named else f"nominate {seat}")
    if "revoke" in offers:
        day.append(f"withdraw {seat} by {seat}" if named else f"withdraw {seat}")
    day.append(words(live, "help_vote"))
    if "extension" in DAY_COMMANDS.get(g.variant.day, ()):  # the day procedure's own words
        day.append("extend")
    day += [words(live, "help_tap"), "timeout"]
    referee = [f"{w} {seat}" for w in ("foul", "disqualify", "defeat") if w in offers] + [f"leave {seat}"]
    lines = [words(live, "help_inputs", words=" · ".join(day)), words(live, "help_referee", words=" · ".join(referee))]
    if keypad:
        lines.append(words(live, "help_keypad"))
    if getattr(live, "scorer_at_console", False) and not getattr(g, "votes_on_phones", False):
        lines.append(words(live, "help_hands"))
    if phones:
        lines.append(words(live, "help_phones"))
    lines.append(words(live, "help_console"))
    return "\n".join(lines)


def state_name(live) -> str:
    """What the table is doing, in its language, as the host screen's heading names it ("Day:
    speeches", "Vote: player 8" while classic calls player 8's hands, "Vote on the accusation
    against player 7" where the phones ask their reader "Do you support…?")."""
    g = live.game
    voice = live.session.voice
    key = state_key(g)  # the game's own heading (BaseGame.heading, as the phones' and the host's)
    # the console is the host's: where his screen words a moment its own way, `status` does too
    own = "host_" + key if voice.phone.get("host_" + key) else key
    template = voice.phone.get(own)
    if template is None:
        return g.state
    seat = g.subject()
    if isinstance(seat, int) and not isinstance(seat, bool):
        # the heading's own words, through the heading's own function: the seat with its player's
        # name where the table has names («Vádlott: 2. játékos (Ann)»), as the phones, the host
        # screen and the alive list beside it say it — a bare «2» left the host to count seats
        config = getattr(live, "config", None)
        return seat_words(voice, getattr(config, "players", None) or {}, own, template, seat,
                          winner=voice.winner(g.winner)).strip()
    # through the voice, as the phones word it: a Hungarian line takes the seat's article
    # («Kivégezzük a 8. játékost?»), which a bare format() left a KeyError in `status`
    return voice.words(template, {"seat": "" if seat is None else seat, "winner": voice.winner(g.winner)}).strip()


def night_now(live) -> bool:
    """The game's moment is the night (flow/moment.py): typed digits are a step's, not hands."""
    return live.game.phase() == "night"
