"""The terminal adapter: narration printed with rich, inputs typed at the console.

The console is a shared screen: private lines (a check result) are shown only while the
checker is the one awake, and the screen is cleared at dawn so the morning shows nothing of
the night.
"""

from __future__ import annotations

import sys
import threading

from rich.console import Console

from .flow.effects import Effect, Record, Reject, Say, Tell, Timer
from .rules.roles import team_of

HELP = """inputs: say <sentence> (or just the sentence) · tap <seat> <target|yes|no> · foul <seat> · leave <seat> · extend · timeout
console: status · pause · resume · quit · help"""


class ConsoleOutput:
    def __init__(self, live, console: Console | None = None, clear_at_dawn: bool | None = None, show_private: bool = True):
        self.live = live
        self.console = console or Console(highlight=False)
        self.clear_at_dawn = self.console.is_terminal if clear_at_dawn is None else clear_at_dawn
        # with phones at the table a private line goes to its phone only, never to the shared screen
        self.show_private = show_private
        self.names = dict(getattr(getattr(live, "config", None), "players", {}) or {})

    def _who(self, args: dict) -> str:
        seat = args.get("seat")
        return f" [dim]({self.names[seat]})[/]" if isinstance(seat, int) and seat in self.names else ""

    def handle(self, effect: Effect, text: str | None) -> None:
        c = self.console
        if isinstance(effect, Say):
            c.print(f"[bold cyan]»[/] {text}{self._who(effect.args)}")
        elif isinstance(effect, Tell):
            if self.show_private:
                c.print(f"[bold magenta]🔒 seat {effect.seat} only:[/] {text}")
        elif isinstance(effect, Reject):
            if effect.seat and not self.show_private:
                return
            who = f"seat {effect.seat}: " if effect.seat else ""
            c.print(f"[bold red]✗[/] {who}{text}")
        elif isinstance(effect, Timer) and effect.name:
            c.print(f"[dim]⏱ {effect.name} {effect.seconds} s[/]")
        elif isinstance(effect, Record) and effect.entry["type"] == "phase" and effect.entry["phase"] == "day":
            if self.clear_at_dawn:
                c.clear()


def status_text(live) -> str:
    g = live.game
    view = g.public_view()
    rem = live.timer_remaining()
    timer = f"{view['timer']} {rem:.0f} s left" if view["timer"] and rem is not None else "none"
    names = live.config.players
    alive = ", ".join(f"{s} {names[s]}" if s in names else str(s) for s in view["alive"])
    return (
        f"state: {view['state']} · day {view['day']} · alive: {alive}\n"
        f"nominations: {', '.join(map(str, view['nominations'])) or '-'} · fouls: "
        f"{', '.join(f'{s}:{n}' for s, n in view['fouls'].items()) or '-'} · timer: {timer}"
        f"{' · PAUSED' if live.paused else ''}\n"
        f"waiting for: {live.session.awaiting_text()}"
    )


def read_console(live, stream=None, console: Console | None = None, keypad=None) -> threading.Thread:
    """Read typed lines in a thread and hand them to the live session. With a keypad, a bare seat
    number typed at night is the awake role's choice."""
    stream = stream or sys.stdin
    console = console or Console(highlight=False)

    def run() -> None:
        for raw in stream:
            line = raw.strip()
            if not line:
                continue
            if keypad is not None and keypad.line(line):
                continue
            word = line.split()[0].lower()
            if word in ("pause", "resume", "quit"):
                live.submit_control(word)
            elif word == "help":
                console.print(HELP)
            elif word == "status":
                live.submit_control(lambda: console.print(status_text(live)))
            elif word in ("deal", "say", "tap", "foul", "timeout", "leave", "extend"):
                live.submit_line(line)
            else:
                # a bare sentence is taken as heard at the table
                live.submit_line("say " + line)

    t = threading.Thread(target=run, name="console-input", daemon=True)
    t.start()
    return t


def reveal_roles(deal_roles: dict[int, str], voice, console: Console, ask=None, skip=(), seen=None, intro=None) -> None:
    """Hot-seat reveal when there is no companion: each player looks alone, then the screen clears.
    `skip`: seats that saw their role before a crash; `seen(seat)` marks a seat once it has looked."""
    ask = ask or input
    for seat in sorted(deal_roles):
        if seat in skip:
            continue
        console.clear()
        if intro:
            console.print(intro, markup=False)
            intro = None
        ask(f"Seat {seat}: take the screen alone and press Enter to see your role. ")
        role = deal_roles[seat]
        console.print(f"\n[bold]{voice.render('your_role', {'seat': seat, 'role': '@role_' + role})}[/]\n")
        if team_of(role) == "mafia":
            mates = [s for s, r in deal_roles.items() if team_of(r) == "mafia" and s != seat]
            console.print(voice.render("your_mates", {"seats": mates}))
        ask("Press Enter to hide it. ")
        if seen is not None:
            seen(seat)
    console.clear()
