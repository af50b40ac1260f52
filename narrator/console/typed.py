"""Typed lines: a console command, a keypad seat, a scorer's hands or an input for the game, read
in a thread from the terminal (or a script)."""

from __future__ import annotations

import sys
import threading
import time

from rich.console import Console
from rich.text import Text

from ..flow.effects import Effect, Record
from ..inputs import INPUT_WORDS, SENTENCE_WORDS, InputError, Talk, shown
from ..language import seat_number
from .hands import hands_typed
from .screen import REFEREE_SOURCE, REFEREE_WORDS, note, tolerant_stdin, words
from .status import help_text, night_now, status_text


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
    from ..language import Command, load_voice

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
