"""The terminal adapter: narration printed with rich, inputs typed at the console.

The console is a shared screen: private lines (a check result, "you chose 5") are shown only
while their step's players are awake. Without phones the screen is cleared as every night step
begins, so whoever wakes next sees neither the last step's private lines nor the seat typed there;
with phones or without, it is cleared at dawn.

Everything printed here that comes from people — names from the config, typed lines, error
messages quoting them — is printed literally: output is built from rich `Text` pieces, never from
markup strings, so "Anna [guest]" keeps its bracket and "Bob[/]" cannot break a line.

The parts: `screen` (words, whole-word lines, the wipe), `output` (the game's lines on the shared
screen), `status` (status, help, what the game waits for), `hands` (a scorer's line of hands),
`typed` (each typed line, the reading thread), `reveal` (the hot seat).
"""

from __future__ import annotations

from .hands import _hands_in_turn, hands_typed
from .output import CLOCK_MARKS, ConsoleOutput
from .reveal import reveal_roles
from .screen import (CONSOLE_ANSWERS, REFEREE_SOURCE, REFEREE_WORDS, WholeWords, note, path_shown, tolerant_stdin,
                     wipe, words)
from .status import NOMINATIONS_OFF, help_text, night_now, state_name, status_text, waiting_text
from .typed import _ForgetHalfTyped, _other_rules_word, console_line, read_console

__all__ = ["CLOCK_MARKS", "CONSOLE_ANSWERS", "ConsoleOutput", "NOMINATIONS_OFF", "REFEREE_SOURCE", "REFEREE_WORDS",
           "WholeWords", "console_line", "hands_typed", "help_text", "night_now", "note", "path_shown", "read_console",
           "reveal_roles", "state_name", "status_text", "tolerant_stdin", "waiting_text", "wipe", "words"]
