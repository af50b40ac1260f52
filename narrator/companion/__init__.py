"""The phone companion and the keypad: the silent inputs of the table (night choices, votes).

`start(config, live)` serves the phone pages in the live session's loop and returns a handle
(`await handle.stop()`); `KeypadInput(live)` turns a typed seat number into the night's taps.

The web stack is imported on first use, so that a game without phones (which takes KeypadInput
from here) and every other command start as fast without it.
"""

from .keypad import MASKING_POLICY, KeypadInput

__all__ = ["start", "Companion", "Hub", "KeypadInput", "MASKING_POLICY"]


def __getattr__(name):
    if name in ("start", "Companion"):
        from . import server

        return getattr(server, name)
    if name == "Hub":
        from .hub import Hub

        return Hub
    raise AttributeError(name)
