"""What the game says and answers, printed on the shared screen: private lines only while their
step's players are awake, the screen cleared as a night step begins and at dawn."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..flow.effects import Effect, HostLine, Record, Reject, Say, Tell, Timer
from ..naming import named, names_put
from .screen import CONSOLE_ANSWERS, REFEREE_SOURCE, note, wipe, words


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
        # a seat typed before the night's first step began ("too early … not taken"): shown again
        # after the wipes of the step it was typed for, until the next step begins or the next key
        # is answered — cleared with that step's screen a second later, the shot was lost unnoticed
        self._early: Text | None = None
        self._early_for = 0  # the number of the step it stays up in (of `_steps_begun`)
        self._steps_begun = 0  # night steps whose time has begun to run

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
            if self._night:
                self._steps_begun += 1
                if self._early is not None and self._steps_begun > self._early_for:
                    self._early = None  # the step it was typed for is over
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
        if self._early is not None:
            self.console.print(self._early)

    def _time_shown(self, seconds: float) -> None:
        # said once, as what it is: the time from now. The line stays as printed (nothing counts
        # it down on a screen the table types on); `status` tells what is left
        self.console.print(Text("⏱ " + words(self.live, "timer_from_now", n=round(seconds)), style="dim"))

    def _wipe_again(self, lines: list[Text], seconds: float) -> None:
        """Once more when the step's first second is over: a key typed late for the step before
        (which the game does not take, see KEYPAD_GRACE) still echoes on the terminal, and the
        role just woken must not read it. Every night step alike, whoever is awake."""
        from ..live import KEYPAD_GRACE

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
        self._early = None  # the next key is answered: its answer stands in the note's place
        session = getattr(self.live, "session", None)
        label = session.render("private_for_seats", {"seats": seats}) if session is not None else f"only for seats {seats}:"
        from ..live import SHARED_LINE

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
            self._early = None  # the next key is answered: its answer stands in the note's place
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
            answer = Text.assemble(CLOCK_MARKS.get(effect.line, ("✗", "bold red")), " ", who, text)
            c.print(answer)
            # the same words whoever typed it, at every step: a key typed before the step began
            self._early, self._early_for = (answer, self._steps_begun + 1) if effect.line == "keypad_too_early" else (None, 0)
        elif isinstance(effect, Timer) and effect.name:
            if self._night is None:
                self._night = getattr(getattr(self.live, "game", None), "state", None) == "night"
            # shown once the step's line has been heard and its time runs (timer_started)
            self._timer = effect
            self._timer_pending = True
        elif isinstance(effect, Record) and effect.entry["type"] == "phase":
            self._night = effect.entry["phase"] == "night"
            self._timer_pending, self._after_timer = False, []  # a step's answers end with it
            self._early = None
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
