"""The hot-seat reveal: each player alone at the screen reads his role, then it is cleared."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..inputs import shown
from ..naming import named
from ..rules.roles import team_of
from .screen import tolerant_stdin, wipe


def reveal_roles(deal_roles: dict[int, str], voice, console: Console, ask=None, skip=(), seen=None, intro=None,
                 players: dict | None = None) -> None:
    """Hot-seat reveal when there is no companion: each player looks alone, then the screen clears.
    `skip`: seats that saw their role before a crash; `seen(seat)` marks a seat once it has looked.
    `players`: the config's names, each put by its seat ("Seat 3 (Ann): take the screen alone"):
    the right player reaches for the laptop, and a mafioso reads who his partners are.

    Only Enter alone shows a role: a word typed at "take the screen alone" (`quit`, a seat number
    meant for the game) is answered that it was not taken, and the prompt comes again with no role
    on the screen. Anything typed where the role is shown hides it, as Enter does (the secret goes
    off the screen either way). The end of input (Ctrl-D) stops the reveal like Ctrl-C, with the
    screen cleared first, rather than showing the next role unasked.
    """
    ask = ask or input
    tolerant_stdin()

    def wait(prompt: str, enter_only: bool = False) -> None:
        while True:
            # printed by the console, which breaks a line between words at the terminal's width:
            # input()'s own prompt was cut in the middle of a word at 80 columns ("… zu seh" / "en.")
            console.print(Text(prompt.rstrip()), end=" ")
            try:
                typed = ask("")
            except EOFError:
                wipe(console)
                raise KeyboardInterrupt from None
            typed = (typed or "").strip()
            if not enter_only or not typed:
                return
            # `quit` typed here showed the next role: nothing but Enter alone shows one
            console.print(Text.assemble(("·", "yellow"), " ", voice.console_text("reveal_enter_only", {"text": shown(typed)})))

    for seat in sorted(deal_roles):
        if seat in skip:
            continue
        wipe(console)
        if intro:
            console.print(intro, markup=False)
            intro = None
        def said(line: str, args: dict) -> str:
            return named(voice, players or {}, line, args, voice.render(line, args))

        wait(said("reveal_look", {"seat": seat}) + " ", enter_only=True)
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
