"""Live play on the real clock: one asyncio loop owns the game; inputs arrive from any adapter
(console, voice, companion, keypad, timers) through `submit*`, are journaled, applied, and the
effects fan out to every output adapter in order.

Adapters call `submit_event`, `submit_sentence` or `submit_line` from any thread; outputs get
`handle(effect, text)` on the loop thread, where text is the rendered line (None for timers and
records). `narrating` is set while the narrator speaks, so the microphone can ignore the
narrator's own voice.

The parts: `session` (the loop, the journal, the effects fanned out), `inputs` (what adapters
submit, and how each is taken), `clock` (the timers on the real clock).
"""

from __future__ import annotations

from .clock import HEARD_WATCH, KEYPAD_ANNOUNCE, MARK_EVERY, spoken_left
from .inputs import HOST_SOURCES, KEYPAD_GRACE, Answer
from .session import SHARED_LINE, STEP_RESULTS, STEP_STARTS, LiveSession, Output

__all__ = ["Answer", "HEARD_WATCH", "HOST_SOURCES", "KEYPAD_ANNOUNCE", "KEYPAD_GRACE", "LiveSession", "MARK_EVERY",
           "Output", "SHARED_LINE", "STEP_RESULTS", "STEP_STARTS", "spoken_left"]
