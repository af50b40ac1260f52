"""A USB numeric keypad (any keyboard) as the night input of a table without phones.

One keypad has no seat identity, so a typed seat number is the choice of the whole role that is
awake: at the mafia step it becomes a tap for every awake mafioso (they must agree anyway), at a
check step the tap of the checker. Outside a night step with an action the keypad does nothing
the game can hear, and it never answers aloud: the check result is shown on the narrator's
screen (a Tell), never spoken.
"""

from __future__ import annotations

from ..language import MAX_SEAT_DIGITS, seat_number

# What the narrator reads out before the first night when the keypad is used (the sound of keys
# must not tell which step has a living player): see docs/explanation/leak-free-night.md.
MASKING_POLICY = (
    "The keypad sits in the middle of the table. At every night step, whoever is awake or not, "
    "everybody drums softly on the table with their fingers until the narrator says the step is "
    "over, and whoever is awake types the seat number and Enter under that cover. Every step lasts "
    "the same time, whether its players are alive or not, and the keypad never beeps or answers aloud."
)


class KeypadInput:
    """Turns `<seat><Enter>` at a night step into the awake role's taps. Thread-safe.

    `strict` (the table's own terminal, a real keypad): a seat belongs to the step it was typed in.
    A mafioso's Enter a moment after the mafia's step ended, or while the Don's step is still being
    announced, is nobody's choice — read in the next step it would use up the Don's check. Lines
    piped from a script are not strict: like a transcript, each meets the step its turn comes in.
    """

    def __init__(self, live, strict: bool = False):
        self.live = live
        self.strict = strict
        self._digits = ""

    def key(self, key: str) -> bool:
        """One key as a keyboard reports it ('7', 'KP_7', 'Enter', 'KP_Enter', 'BackSpace')."""
        k = key[3:] if key.startswith("KP_") else key
        if len(k) == 1 and k.isdecimal():
            # a digit too many keeps the number too long, so Enter is answered as no seat: keeping
            # only the last digits made a held-down 0 before "05" ("1005") a shot at seat 5
            self._digits = (self._digits + k)[: MAX_SEAT_DIGITS + 1]
            return True
        if k in ("Enter", "Return", "\n", "\r"):
            digits, self._digits = self._digits, ""
            return self.line(digits) if digits else False
        if k in ("BackSpace", "Delete", "Escape"):
            self._digits = ""
            return True
        return False

    def line(self, text: str) -> bool:
        """A typed line: True when it was a seat number taken as the night's choice.

        Anything else (day commands, words) returns False so the console can handle it.
        """
        # only decimal digits make a seat: ³ (AltGr+3) or a 4,300-digit number is left to the
        # console, which answers it, instead of raising in the thread that reads the keyboard
        target = seat_number(text.strip())
        live = self.live
        if target is None or live.loop is None:
            return False
        if live.game.phase() != "night":  # the moment the game publishes (flow/moment.py)
            return False
        # the step open as Enter is pressed; the game takes the seat only if it is still open
        # when the seat's turn comes (the game's loop decides: in the state the taps would meet)
        live.submit_keypad(target, live.open_night_step() if self.strict else None, self.strict)
        return True
