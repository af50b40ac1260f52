"""The console's screen: words in the table's language, lines broken between words, the screen
and its scrollback cleared, a journal's path as the host reads it."""

from __future__ import annotations

import os
import re
import sys

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text


def words(live, name: str, **args) -> str:
    """A [console] line in the table's language (English before a game is there to ask)."""
    session = getattr(live, "session", None)
    if session is not None:
        return session.voice.console_text(name, args)
    from ..language import load_voice

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


def note(console: Console, text: str) -> None:
    console.print(Text.assemble(("·", "yellow"), " ", text))


def tolerant_stdin() -> None:
    """Bytes the terminal's encoding cannot read (ß typed in Latin-1) become U+FFFD instead of an
    exception in whatever is reading the keyboard."""
    if hasattr(sys.stdin, "reconfigure"):
        try:
            sys.stdin.reconfigure(errors="replace")
        except (ValueError, OSError):  # a closed or unusual stdin keeps its settings
            pass
