"""The refusal of an input, in a module of its own: the game raises it and so do the night's
steps, which the game imports (night.py took it from game.py inside a function to dodge the circle)."""

from __future__ import annotations


class Refused(Exception):
    """An input that breaks a rule: answered with a line, and nothing changes."""

    def __init__(self, line: str, args: dict | None = None, private: bool = False):
        super().__init__(line)
        self.line = line
        self.params = args or {}  # not "args": BaseException coerces that to a tuple
        self.private = private
