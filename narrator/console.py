"""The terminal adapter: narration printed with rich, inputs typed at the console.

The console is a shared screen: private lines (a check result, "you chose 5") are shown only
while their step's players are awake. Without phones the screen is cleared as every night step
begins, so whoever wakes next sees neither the last step's private lines nor the seat typed there;
with phones or without, it is cleared at dawn.

Everything printed here that comes from people — names from the config, typed lines, error
messages quoting them — is printed literally: output is built from rich `Text` pieces, never from
markup strings, so "Anna [guest]" keeps its bracket and "Bob[/]" cannot break a line.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from .flow.effects import Effect, HostLine, Record, Reject, Say, Tell, Timer
from .flow.events import Tap
from .inputs import INPUT_WORDS, SENTENCE_WORDS, InputError, Talk, hands_line, shown
from .language import seat_number
from .naming import named, names_put, seat_label, seat_words, state_key
from .rules.roles import team_of

def words(live, name: str, **args) -> str:
    """A [console] line in the table's language (English before a game is there to ask)."""
    session = getattr(live, "session", None)
    if session is not None:
        return session.voice.console_text(name, args)
    from .language import load_voice

    return load_voice("en").console_text(name, args)


# the referee's words: typed at a keypad table at night, what they are answered is kept off the
# screen the awake players read (see ConsoleOutput._kept_from_the_night)
REFEREE_WORDS = ("foul", "disqualify", "defeat", "leave")
REFEREE_SOURCE = "console-referee"

# the private answers that reach the console even with phones: the person who typed the input is at
# the console, not (only) at his phone ("leave 4" typed by the host for a player who feels unwell)
CONSOLE_ANSWERS = frozenset({"player_left_unwell"})


_WORD = re.compile(r"\S+")
_PART = " · "  # what joins the parts of one line ("journal: F · type help for the inputs")


def _break_points(plain: str, width: int) -> list[int]:
    """Where a line too long for `width` columns is broken: between words, never inside one, and
    where it can, before a " · " part that fits a line of its own (a part reads whole: "· type help
    for the inputs", not "· type" / "help for the inputs"). A word longer than the line (a path) is
    left whole on a line of its own."""
    units: list[tuple[int, int]] = []
    start = 0
    for part in plain.split(_PART):
        end = start + len(part)
        if cell_len(part) <= width:
            units.append((start, end))
        else:
            units.extend((start + m.start(), start + m.end()) for m in _WORD.finditer(part))
        start = end + len(_PART)
    points: list[int] = []
    line_start = None
    for a, b in units:
        if a == b:
            continue
        if line_start is None:
            line_start = a
        elif cell_len(plain[line_start:b]) > width:
            # the break goes before the unit; a " · " before it begins the next line
            at = a - 2 if plain[max(0, a - 2):a] == "· " else a
            points.append(at)
            line_start = at
    return points


class WholeWords(Console):
    """A console that breaks a line it is told to soft-wrap between words at the terminal's width,
    never inside a word. rich's soft wrap leaves the breaking to the terminal, which cuts words
    ("· he" / "lp — список команд"); rich's own wrap folds a word longer than the line — a path —
    with a newline inside it, and a path copied from the screen must be whole. Here such a word
    stands alone on its line, and the terminal wraps it without a newline. Not on a terminal (a
    log, a pipe), one message stays one line."""

    def print(self, *objects, **kwargs) -> None:
        soft = kwargs.get("soft_wrap")
        soft = self.soft_wrap if soft is None else soft
        extra = set(kwargs) - {"soft_wrap", "style", "end"}
        if not (soft and self.is_terminal and len(objects) == 1 and isinstance(objects[0], Text) and not extra):
            return super().print(*objects, **kwargs)
        text = objects[0].copy()
        if kwargs.get("style"):
            text.stylize(kwargs["style"])
        pieces = []
        for line in text.split("\n", allow_blank=True):
            points = _break_points(line.plain, self.width)
            pieces.extend(line.divide(points) if points else [line])
        for i, piece in enumerate(pieces):
            piece.rstrip()
            super().print(piece, soft_wrap=True, end=kwargs.get("end", "\n") if i == len(pieces) - 1 else "\n")


def path_shown(path, console: Console | None = None) -> str:
    """A journal's path as the host reads it at the terminal: under the home folder from "~"
    ("~/.local/state/narrator/games/…"), which a shell and `narrator resume --journal` read as
    the home folder — 20 characters less to wrap at 80 columns. Elsewhere (a log) as it is."""
    text = str(path)
    if console is not None and not console.is_terminal:
        return text
    home = os.path.expanduser("~").rstrip("/")
    if home and home != "~" and text.startswith(home + "/"):
        return "~" + text[len(home):]
    return text


def wipe(console: Console) -> None:
    """Clear the screen AND the terminal's scrollback: a role or a check result scrolled out of
    sight is still one swipe away on a laptop the whole table can reach."""
    console.clear()
    if console.is_terminal:
        console.file.write("\x1b[3J")
        console.file.flush()


# the game's own answers to `pause` and `resume` come as answers, like refusals, but are none: a
# red ✗ before "The game is paused." read as if the pause had been refused
CLOCK_MARKS = {"paused": ("⏸", "bold yellow"), "resumed": ("▶", "bold green")}


class ConsoleOutput:
    def __init__(self, live, console: Console | None = None, clear_at_dawn: bool | None = None, show_private: bool = True):
        self.live = live
        self.console = console or Console(highlight=False)
        self.clear_at_dawn = self.console.is_terminal if clear_at_dawn is None else clear_at_dawn
        # with phones at the table a private line goes to its phone only, never to the shared screen
        self.show_private = show_private
        self.names = dict(getattr(getattr(live, "config", None), "players", {}) or {})
        self._night: bool | None = None  # known from the phase records; after a resume, from the game
        # the public lines since the last step began ("The mafia falls asleep. The Don wakes up"):
        # printed again after the screen is cleared for the next step
        self._since_step: list[Text] = []
        self.kept: list[Text] = []  # printed again after every wipe (the operator's warnings)
        self._private_shown = False  # a private answer is on the screen (with phones: only a leave)
        self._timer: Timer | None = None  # the step's timer, shown once its time runs
        self._wiped_steps = 0  # night steps whose screen was cleared: a second wipe is for its own step only
        self._noted_input = -1  # the referee's night line last answered with the one neutral note
        self._refused_at_night: list[str] = []  # his night lines the game refused, shown to him at dawn
        self._timer_pending = False  # a step's timer is known and its time does not run yet
        self._after_timer: list = []  # what to show once it runs: its private answers
        self.collecting: list[dict] | None = None  # a scorer's line of hands: its votes, answered once

    def _only_for(self, seat: int) -> str:
        """The label of a private line, in the table's language like the line itself."""
        session = getattr(self.live, "session", None)
        return session.render("private_for", {"seat": seat}) if session is not None else f"only for seat {seat}:"

    def _named(self, effect: Effect, text: str, line: str | None = None) -> str:
        """The line with each seat it names followed by its player's name, where the number is
        ("» Player 2 (Bernd), defend yourself."), as the phones show it (narrator/naming.py)."""
        session = getattr(self.live, "session", None)
        voice = getattr(session, "voice", None)
        return named(voice, self.names, line or effect.line, effect.args, text)

    def _wipe(self) -> None:
        wipe(self.console)
        self._private_shown = False
        for line in self.kept:
            self.console.print(line, soft_wrap=True)

    def timer_started(self, resumed_at: float | None) -> None:
        """The timer runs from now (its line heard); `resumed_at`: the seconds a paused one has left."""
        if resumed_at is None:
            if self._timer is None:
                return
            if self._night and self.clear_at_dawn and (self.show_private or self._private_shown):
                # a night step begins: the step before it may have left a private line or a seat
                # typed on the keypad on the screen, and its players are asleep now. Every step,
                # awake or not, alike — and only now that its line has been heard: a key typed
                # late in the step before, echoed while the next step was being announced, is
                # gone before the next role opens its eyes. (With phones neither is on this
                # screen, and the join codes stay up for a phone that joins late.)
                self._wiped_to(self._since_step)
                self._wipe_again(list(self._since_step), self._timer.seconds)
            self._since_step = []
            seconds = self._timer.seconds
        else:
            seconds = resumed_at
        self._time_shown(seconds)
        self._timer_pending = False
        if not self._night:
            # the referee learns, once the morning has been said and everybody may read it, what
            # the game did not take of what he typed in the night (the morning said what it took)
            for text in self._refused_at_night:
                self.console.print(Text.assemble(("✗", "bold red"), " ", words(self.live, "referee_refused_at_night", reason=text)))
            self._refused_at_night = []
        after, self._after_timer = self._after_timer, []
        for show in after:
            show()

    def _wiped_to(self, lines: list[Text]) -> None:
        """The screen cleared down to `lines`, the step's own (the operator's warnings stay)."""
        self._wipe()
        for line in lines:
            self.console.print(line)

    def _time_shown(self, seconds: float) -> None:
        self.console.print(Text("⏱ " + words(self.live, "seconds", n=round(seconds)), style="dim"))

    def _wipe_again(self, lines: list[Text], seconds: float) -> None:
        """Once more when the step's first second is over: a key typed late for the step before
        (which the game does not take, see KEYPAD_GRACE) still echoes on the terminal, and the
        role just woken must not read it. Every night step alike, whoever is awake."""
        from .live import KEYPAD_GRACE

        loop = getattr(self.live, "loop", None)
        if loop is None:
            return
        self._wiped_steps += 1
        mine = self._wiped_steps

        def again() -> None:
            if mine != self._wiped_steps or not self._night or self._private_shown:
                return  # the step is over (or, impossibly soon, answered): nothing to clear
            self._wiped_to(lines)
            # the time left, not the step's whole time again: nothing started over
            left = self.live.timer_remaining() if hasattr(self.live, "timer_remaining") else None
            self._time_shown(seconds if left is None else left)

        loop.call_later(KEYPAD_GRACE, again)

    def handle_shared(self, effect: Effect, text: str | None, seats: list[int]) -> None:
        """One private answer for several seats at once: the keypad's seat is the choice of every
        awake mafioso, and "You chose 5" is said to them once, not once each."""
        if not self.show_private or not isinstance(effect, (Tell, Reject)):
            return self.handle(effect, text)
        if self._after_its_timer(effect, lambda: self.handle_shared(effect, text, seats)):
            return
        session = getattr(self.live, "session", None)
        label = session.render("private_for_seats", {"seats": seats}) if session is not None else f"only for seats {seats}:"
        from .live import SHARED_LINE

        voice = getattr(session, "voice", None)
        together = effect.line + SHARED_LINE
        # the words the awake seats read together ("Your choice: 5"), named as any other line
        text = self._named(effect, text or "", together if voice is not None and together in voice.lines else None)
        if isinstance(effect, Tell):
            self.console.print(Text.assemble((f"🔒 {label}", "bold magenta"), " ", text))
        else:
            self.console.print(Text.assemble(("✗", "bold red"), " ", label, " ", text or ""))
        self._private_shown = True

    def _kept_from_the_night(self, effect: Effect, text: str) -> bool:
        """The answer to a referee's line (a foul, a dismissal, a player leaving) typed at a keypad
        table at night: the one screen there is the awake players', and "🔒 only for the host:
        Player 3 disqualified…" in the mafia's step told them what the morning is to say. He reads
        one note, the same whatever the game did with his line (a refusal such as "Player 3 is out
        of the game." would tell as much); what it refused is shown at dawn."""
        live = self.live
        if not (getattr(live, "keypad_table", False) and self._night and getattr(live, "source", None) == REFEREE_SOURCE):
            return False
        if not isinstance(effect, (HostLine, Reject, Tell)):
            return False
        if isinstance(effect, Reject):
            self._refused_at_night.append(text)
        if self._noted_input != live.inputs_handled:
            self._noted_input = live.inputs_handled
            note(self.console, words(live, "referee_noted_at_night"))
        return True

    def _after_its_timer(self, effect: Effect, show) -> bool:
        """A private answer of a night step that comes while the step's line is still being heard
        (a resumed step's, told again at once): shown after the step's ⏱, not before it — the
        screen is cleared as the step opens, and the answer went with it."""
        if self._timer_pending and self._night and isinstance(effect, (Tell, Reject)) and effect.seat is not None:
            self._after_timer.append(show)
            return True
        return False

    def handle(self, effect: Effect, text: str | None) -> None:
        c = self.console
        text = text or ""
        if self._kept_from_the_night(effect, text):
            return
        if self._after_its_timer(effect, lambda: self.handle(effect, text)):
            return
        if isinstance(effect, Say):
            if self._night and self.clear_at_dawn and self._private_shown:
                # the step with the private answer is over: the next step's line is being said, and
                # its role opens his eyes at "… wakes up", not once the whole line has been heard
                # (where the screen is cleared again, for a key typed late). The Sheriff read the
                # Don's "Player 4 is not the Sheriff." under «The Sheriff wakes up» for 3 s
                self._wipe()
            line = Text.assemble(("»", "bold cyan"), " ", self._named(effect, text))
            self._since_step.append(line)
            c.print(line)
        elif isinstance(effect, Tell):
            if self.show_private or effect.line in CONSOLE_ANSWERS:
                c.print(Text.assemble((f"🔒 {self._only_for(effect.seat)}", "bold magenta"), " ", self._named(effect, text)))
                # with phones the screen is not cleared at every night step: this answer, and the
                # seat typed above it, must be gone before the next step's players open their eyes
                self._private_shown = True
        elif isinstance(effect, HostLine):
            # the referee's foul or dismissal at night: the table hears it in the morning. Whoever
            # typed it reads it was taken; like any private line it is gone before the next step's
            # players open their eyes
            label = self.live.session.render("private_host", {}) if getattr(self.live, "session", None) else "only for the host:"
            c.print(Text.assemble((f"🔒 {label}", "bold magenta"), " ", self._named(effect, text)))
            self._private_shown = True
        elif isinstance(effect, Reject):
            if effect.seat and not self.show_private:
                return
            who = f"{self._only_for(effect.seat)} " if effect.seat else ""
            c.print(Text.assemble(CLOCK_MARKS.get(effect.line, ("✗", "bold red")), " ", who, text))
        elif isinstance(effect, Timer) and effect.name:
            if self._night is None:
                self._night = getattr(getattr(self.live, "game", None), "state", None) == "night"
            # shown once the step's line has been heard and its time runs (timer_started)
            self._timer = effect
            self._timer_pending = True
        elif isinstance(effect, Record) and effect.entry["type"] == "phase":
            self._night = effect.entry["phase"] == "night"
            self._timer_pending, self._after_timer = False, []  # a step's answers end with it
            if effect.entry["phase"] == "day" and self.clear_at_dawn:
                self._wipe()
        elif isinstance(effect, Record) and effect.entry["type"] == "vote":
            # a day vote is a raised hand, seen by all (every variant's seed): whoever typed it
            # must see it was counted, as every other typed line is answered
            e = effect.entry
            if self.collecting is not None:
                self.collecting.append(e)  # the scorer's line is answered once, with all it recorded
                return
            session = getattr(self.live, "session", None)
            if "answer" in e:
                key = "vote_yes" if e["answer"] == "yes" else "vote_no"
                args = {"voter": e["voter"]}
            else:
                # a round the rules word their own way (grundregeln's pointing, seed 003 «zeigt …
                # auf einen Mitspieler») has its own line; its final vote is a vote, not a pointing
                key = f"vote_for_{e.get('round')}"
                if session is None or not session.voice.has_printed("console", key):
                    key = "vote_for"
                args = {"voter": e["voter"], "seat": e["seat"]}
            # with names as the narrator's lines have them: "player 4 (Max) for player 6 (Bob)"
            shown = names_put(session.voice, self.names, lambda a: words(self.live, key, **a), args, ("voter", "seat")) if session else None
            note(c, shown or words(self.live, key, **args))


    def hands_awaited(self) -> None:
        """The hand call's time is over, and the scorer has not typed its hands yet."""
        choices = self.live.game.vote_choices()
        several = choices is not None and choices[0] == "seat" and len(choices[1]) > 1
        if choices is not None and choices[0] == "seat" and len(choices[1]) == 1:
            # the scorer reads whose hands these are here too: after a resume, or a long call,
            # the name heard last may not be the one being counted
            return note(self.console, words(self.live, "hands_awaited_for", seat=choices[1][0]))
        note(self.console, words(self.live, "hands_awaited_several" if several else "hands_awaited"))


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
            note(console, names_put(voice, names, lambda a: words(live, "hands_for", **a), args, ("seat",))
                 or words(live, "hands_for", **args))
        else:
            note(console, words(live, "hands_yes", voters=hands))
    # one name (or yes) is answered by its line; where several are voted on, by Enter alone
    if not several or not voters and target is None:
        if several and not live.hands_waiting():
            note(console, words(live, "hands_all_in"))
        live.hands_entered(call)


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
    from .inputs import DAY_COMMANDS

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


def note(console: Console, text: str) -> None:
    console.print(Text.assemble(("·", "yellow"), " ", text))


def console_line(live, raw: str, console: Console, keypad=None, on_start=None, full_nights: bool = False) -> None:
    """One typed line: a console command, a keypad seat, or an input for the game.

    Whatever was typed gets an answer: a line that is no command is said to be none (the game
    ignores table talk, but a player at the keyboard must not wonder whether it was taken).
    `full_nights`: the keypad is the table's terminal, so a `timeout` typed at night ends no step.
    """
    line = raw.strip().lstrip("\ufeff").strip()  # a pasted byte-order mark is no part of the word
    if not line:
        if not full_nights or not night_now(live):
            hands_typed(live, line, console)  # Enter alone in a hand call: no (more) hands
        return
    if keypad is not None and keypad.line(line):
        return
    if line[0].isdecimal() and not night_now(live) and hands_typed(live, line, console):
        return
    word = line.split()[0].lower()
    if word == "start" and on_start is not None:
        on_start()  # with phones: night zero begins without waiting for every Ready
    elif word in ("pause", "resume"):
        # the game decides, on its loop as the line's turn comes (the night may have begun
        # meanwhile), as it does for the host screen: a refusal is on this screen only, never said
        # (see LiveSession.pause_refusal)
        live.submit_control(word, refused=lambda why: note(console, words(live, why)))
    elif word == "quit":
        live.submit_control(word)
    elif word == "help":
        # each of its parts whole on a line where it can ("· nominate <seat>", not "nominate" / "<seat>")
        console.print(Text(help_text(live, keypad is not None, on_start is not None)), soft_wrap=True)
    elif word == "status":
        live.submit_control(lambda: console.print(Text(status_text(live)), soft_wrap=True))
    elif not line.split("#", 1)[0].strip():
        note(console, words(live, "comment"))
    elif word == "timeout" and full_nights:
        # at a keypad table only an awake player can type it at night: a step cut short would tell
        # the table its role is alive — and the host's `timeout` for a vote that had just closed by
        # itself cut the mafia's step to half a second. Every step, alive or not, is refused alike;
        # asked on the game's loop, as the line's turn comes, since the night may begin meanwhile.
        def at_night() -> bool:
            if not night_now(live):
                return False
            note(console, words(live, "timeout_at_night"))
            return True

        live.submit_line(line, refuse=at_night)
    else:
        if word in ("tap", "vote") and full_nights:
            # `tap 3 7` names its seat, but not its step: typed at the table's terminal it belongs
            # to the step it was typed in, as a keypad seat does — the mafioso's late `tap 3 7`
            # must not become the Don's check, nor a day's vote reach the night
            typed_in = live.open_night_step()

            def other_step() -> bool:
                if night_now(live) and not live.still_open(typed_in):
                    live.answer_late_key()  # as for a seat typed alone
                    return True
                return False

            try:
                item = live.session.parse(line)
            except InputError:
                item = None
            if item is not None and not isinstance(item, Talk):
                live.submit_line(line, refuse=other_step)
                return
        if word not in INPUT_WORDS:
            line = "say " + line  # a bare sentence is taken as heard at the table
        if word in REFEREE_WORDS and full_nights and (word == "leave" or word in live.game.day_offers()):
            # the referee at the table's terminal: at night his answer is not for the awake players'
            # eyes. (Where the rules have no such penalty its refusal is the same whatever the
            # night holds, and is said as ever: "these rules have no fouls".)
            live.submit_line(line, source=REFEREE_SOURCE)
            return
        try:
            item = live.session.parse(line)  # pure: safe on this thread; the game answers errors
        except InputError:
            item = False
        if item is None:
            note(console, words(live, "comment"))
            return
        if isinstance(item, Talk):
            # ³ (AltGr+3) or ½ look like numbers; at night any number typed is meant as a seat
            if item.text.strip().isdecimal() and seat_number(item.text.strip()) is None:
                # digits, but too many for any seat (a held key): the digits were right, the seat is not
                note(console, words(live, "no_such_seat_typed", text=shown(item.text.strip()), n=str(live.config.seats)))
            elif any(c.isnumeric() and (not c.isdecimal() or night_now(live)) for c in item.text):
                note(console, words(live, "not_a_seat", text=shown(item.text)))
            elif keypad is not None and night_now(live):
                # nobody talks at night: whoever types now is at the keypad, and is told what it
                # takes — in the same words at every step, for every seat, alive or not
                note(console, words(live, "keypad_night_seat", text=shown(item.text)))
            elif (other := _other_rules_word(live, item.text)) is not None:
                # "I nominate player 3" at a hungariq table (it accuses, seed 001): not talk
                note(console, words(live, "not_in_these_rules", command=other))
            else:
                note(console, words(live, "table_talk", text=shown(item.text)))
            return
        if word in SENTENCE_WORDS and ("revoke" if word in ("withdraw", "revoke") else "nominate") not in live.game.day_offers():
            # grundregeln nominates nobody (seed 003: everybody points), hungariq withdraws no
            # accusation (seed 001): the core's "nominate only during your own speech" would be untrue
            note(console, words(live, "not_in_these_rules", command=word))
            return
        live.submit_line(line)


# a sentence of another rule system's day, by its typed word: answered as no input of these rules
_OTHER_RULES_WORD = {"nominate": "nominate", "nominate_by": "nominate", "revoke": "withdraw", "withdraw_by": "withdraw",
                     "cancel": "cancel", "accuse": "accuse", "extension": "extend"}


def _other_rules_word(live, text: str) -> str | None:
    """The typed word of a day sentence that other rules take and these do not, said in the
    table's language or in English ("I nominate player 3" at a hungariq table): None for talk."""
    from .language import Command, load_voice

    for voice in (live.session.voice, load_voice("en")):
        parsed = voice.parse(text, only=set(_OTHER_RULES_WORD))
        if isinstance(parsed, Command):
            return _OTHER_RULES_WORD[parsed.kind]
    return None


def read_console(live, stream=None, console: Console | None = None, keypad=None, on_start=None) -> threading.Thread:
    """Read typed lines in a thread and hand them to the live session. With a keypad, a bare seat
    number typed at night is the awake role's choice; with phones, `start` begins night zero."""
    if stream is None:
        tolerant_stdin()  # a terminal in another encoding must not end the input thread
        stream = sys.stdin
    console = console or Console(highlight=False)
    # the keypad is typed on at the table's terminal: there night steps cannot be cut short. Lines
    # piped in from a script drive the game as a transcript does, fast-forwarding its nights.
    isatty = getattr(stream, "isatty", None)
    full_nights = keypad is not None and bool(isatty and isatty())
    if full_nights:
        # a seat is taken for the step it was typed in, never for the next one (see KeypadInput)
        keypad.strict = True
        live.full_nights = True  # and its nights are not paused, whoever asks
        live.keypad_table = True
        terminal = _ForgetHalfTyped(live, stream)
        live.outputs.append(terminal)
        terminal.echo(getattr(live.game, "state", None) != "night")  # a game resumed at night, or one a kill -9 left unechoed

    at_a_terminal = bool(isatty and isatty())
    # where the day's votes are hands (no phones, or phones with `[companion] votes` off: their host
    # screen records no vote then) the scorer at the keyboard types the hands he sees, and the count
    # waits for his line — a `3 5 8` typed two seconds after «NU!» must not miss the count (hand_call
    # leaves a phone vote alone). Lines piped from a script drive the game as a transcript does.
    if live is not None:  # (a console read before any game, for `start`, has none)
        live.scorer_at_console = at_a_terminal

    def lines():
        if not at_a_terminal:
            yield from stream  # a script's or a transcript's lines end where the file ends
            return
        answered = 0.0
        while True:
            raw = stream.readline()
            if raw:
                yield raw
                continue
            # Ctrl-D at the table's terminal (a referee's habit, or a key pressed by mistake) is
            # no end of the game: the keyboard stayed dead for the rest of it, the nights' keypad
            # too. He is told how to stop instead, the same at any moment, asleep or awake; the
            # pause keeps a closed terminal's endless end of input from taking the machine.
            now = time.monotonic()
            if now - answered > 2:
                answered = now
                note(console, words(live, "eof_ignored"))
            time.sleep(0.2)

    def run() -> None:
        for raw in lines():
            try:
                console_line(live, raw, console, keypad, on_start, full_nights)
            except Exception as exc:  # noqa: BLE001 — the thread that reads the keyboard must live on
                console.print(Text("✗ " + words(live, "not_taken", error=f"{type(exc).__name__}: {exc}"), style="red"))

    t = threading.Thread(target=run, name="console-input", daemon=True)
    t.start()
    return t


class _ForgetHalfTyped:
    """At the table's terminal, what was typed but not entered when a night step opens is dropped:
    a mafioso's "5" left without Enter must not become the start of the Sheriff's "54"."""

    def __init__(self, live, stream):
        self.live = live
        self.stream = stream
        self.step_before = False  # a night step of this night ran before the one opening now
        self._saved = None  # the terminal's settings before its echo was first turned off

    def handle(self, effect: Effect, text: str | None) -> None:
        if isinstance(effect, Record) and effect.entry["type"] == "phase":
            self.step_before = False  # the night's first step follows the day: nothing secret was typed
            # nothing typed at night is echoed: the awake role's seat is answered on the screen
            # ("Your choice: 5"), the referee's `disqualify 3` must not stand there for the mafia to
            # read, nor a late key for the role woken after it
            self.echo(effect.entry["phase"] != "night")

    def echo(self, on: bool) -> None:
        try:
            import termios
        except ImportError:
            return  # no terminal control (Windows): nothing is echoed by us anyway
        try:
            fd = self.stream.fileno()
            attrs = termios.tcgetattr(fd)
            if self._saved is None:
                # given back with its echo on, even where a game killed at night left it off
                self._saved = [*attrs[:3], attrs[3] | termios.ECHO, *attrs[4:]]
                import atexit

                atexit.register(self._restore)
            wanted = attrs[3] | termios.ECHO if on else attrs[3] & ~termios.ECHO
            if wanted != attrs[3]:
                attrs[3] = wanted
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
        except (termios.error, OSError, ValueError, AttributeError):
            pass  # not a terminal after all, or a closed one: the game goes on, echo as it was

    def _restore(self) -> None:
        """The terminal as the game found it, echo and all, when the narrator exits."""
        try:
            import termios
        except ImportError:
            return
        try:
            termios.tcsetattr(self.stream.fileno(), termios.TCSANOW, self._saved)
        except (termios.error, OSError, ValueError, AttributeError, TypeError):
            pass

    def timer_started(self, resumed_at: float | None) -> None:
        if resumed_at is not None or not night_now(self.live):
            return
        step_before, self.step_before = self.step_before, True
        if not step_before:
            return
        try:
            import array
            import fcntl
            import termios

            fd = self.stream.fileno()
            # a whole line waiting ("status", "quit" typed a moment ago) is read and answered as
            # ever: only when none is there (a line terminal counts whole lines only) is what is
            # left a half-typed one, and dropped
            entered = array.array("i", [0])
            fcntl.ioctl(fd, termios.FIONREAD, entered)
            if entered[0] == 0:
                termios.tcflush(fd, termios.TCIFLUSH)
        except (ImportError, OSError, ValueError, AttributeError):
            pass  # no terminal to flush (Windows, a closed stream): the step opens all the same


def tolerant_stdin() -> None:
    """Bytes the terminal's encoding cannot read (ß typed in Latin-1) become U+FFFD instead of an
    exception in whatever is reading the keyboard."""
    if hasattr(sys.stdin, "reconfigure"):
        try:
            sys.stdin.reconfigure(errors="replace")
        except (ValueError, OSError):  # a closed or unusual stdin keeps its settings
            pass


def reveal_roles(deal_roles: dict[int, str], voice, console: Console, ask=None, skip=(), seen=None, intro=None,
                 players: dict | None = None) -> None:
    """Hot-seat reveal when there is no companion: each player looks alone, then the screen clears.
    `skip`: seats that saw their role before a crash; `seen(seat)` marks a seat once it has looked.
    `players`: the config's names, each put by its seat ("Seat 3 (Ann): take the screen alone"):
    the right player reaches for the laptop, and a mafioso reads who his partners are.

    Whatever is typed at a prompt is taken as Enter; the end of input (Ctrl-D) stops the reveal
    like Ctrl-C, with the screen cleared first, rather than showing the next role unasked.
    """
    ask = ask or input
    tolerant_stdin()

    def wait(prompt: str) -> None:
        # printed by the console, which breaks a line between words at the terminal's width:
        # input()'s own prompt was cut in the middle of a word at 80 columns ("… zu seh" / "en.")
        console.print(Text(prompt.rstrip()), end=" ")
        try:
            ask("")
        except EOFError:
            wipe(console)
            raise KeyboardInterrupt from None

    for seat in sorted(deal_roles):
        if seat in skip:
            continue
        wipe(console)
        if intro:
            console.print(intro, markup=False)
            intro = None
        def said(line: str, args: dict) -> str:
            return named(voice, players or {}, line, args, voice.render(line, args))

        wait(said("reveal_look", {"seat": seat}) + " ")
        role = deal_roles[seat]
        own = f"your_role_{role}"  # «du tillhör maffian», not «du är maffia»
        line = said(own, {"seat": seat}) if own in voice.lines else said("your_role", {"seat": seat, "role": "@role_" + role})
        console.print(Text("\n" + line + "\n", style="bold"))
        if team_of(role) == "mafia":
            mates = [s for s, r in deal_roles.items() if team_of(r) == "mafia" and s != seat]
            # a lone mafioso (a small grundregeln table) read «Your mafia: .»
            console.print(Text(said("your_mates", {"seats": mates}) if mates else voice.render("your_mates_none")))
        wait(voice.render("reveal_hide", {}) + " ")
        if seen is not None:
            seen(seat)
    wipe(console)
