"""What the companion refused, and who reads it: tests read every refusal; the table's terminal
reads one line per seat at most every LOG_EVERY seconds, in the table's language; what a stranger
on the network causes goes to the companion's log file only; a living seat's refusal at night to
nobody (it would tell the room who was awake).
"""

from __future__ import annotations

import logging

log = logging.getLogger("narrator.companion")

# each refusal's words at the console ([console] companion_why_<word>); any other is a host screen's
# button that does not apply now, which his own screen has already told him in its words
REFUSAL_WORDS = {
    "seat out": "out", "dead seat": "out", "stale": "stale", "call over": "call_over", "paused": "paused",
    "nothing to tap": "nothing", "not asking ready": "nothing", "not the kamikaze": "not_kamikaze",
    "extension already asked": "extension_asked", "wrong seat": "not_understood",
    "malformed": "not_understood", "not an object": "not_understood", "unknown message": "not_understood",
    "replayed": "replayed", "flood": "flood", "bad hello": "link", "unknown token": "link",
    "link already used": "link_used", "no hello": "no_hello", "host locked": "host_locked",
    "wrong host PIN": "host_pin", "host count refused": "host_count", "host flood": "flood",
}
# refusals of a connection that has proved nothing (no seat, no host key): anybody on the network
# can cause them, so they go to the companion's log file, never onto the table's terminal
STRANGER_REASONS = ("bad hello", "unknown token", "no hello", "wrong host PIN", "host locked", "too many host screens")
LOG_EVERY = 5.0  # seconds: refusals are logged one line per seat at most this often
# what strangers on the network cause: the companion's log file only (logs.quiet_logging)
peers = logging.getLogger("narrator.companion.server")


class Refusals:
    """Every refusal kept for the tests, and logged where it may be read (`refuse`). Mixed into `Hub`
    (hub.py), whose state it shares."""

    def refuse(self, reason: str, seat: int | None, addr: str | None = None) -> None:
        if len(self.refused) < 10000:  # tests read it; a flood must not grow it without end
            self.refused.append((reason, seat))
        if seat is None and reason in STRANGER_REASONS:
            # anybody on the network can send this: the log file beside the journal has it, the
            # table's terminal does not (a lockout is said there once, when it begins)
            peers.info("refused: %s", reason, extra={"cause": reason, "peer": addr or "?"})
            return
        if seat is not None and self.game.phase() == "night" and seat in self.game.alive:
            # a living seat's phone sending at night is what an awake seat does: a console line
            # (or its moment) would tell the room who was awake. The dead's are theirs to read —
            # out is public, and asleep is no question for them.
            log.debug("companion: a night refusal kept off the console")
            return
        # one line per seat at most every LOG_EVERY seconds: a flood of refusals is one summary line
        loop = self.live.loop
        now = loop.time() if loop is not None else 0.0
        due, counts = self._log_due.get(seat, (0.0, {}))
        counts[reason] = counts.get(reason, 0) + 1
        if now >= due:
            self._log_refusals(seat, counts)
            counts = {}
            due = now + LOG_EVERY
        elif len(counts) == 1 and sum(counts.values()) == 1 and loop is not None:
            # the first one held back: whatever gathers until the window closes is logged then
            loop.call_later(due - now, self._flush_refusals, seat)
        self._log_due[seat] = (due, counts)

    def _flush_refusals(self, seat: int | None) -> None:
        due, counts = self._log_due.get(seat, (0.0, {}))
        if counts:
            self._log_refusals(seat, counts)
            self._log_due[seat] = (due, {})

    def _log_refusals(self, seat: int | None, counts: dict[str, int]) -> None:
        """One console line for what a seat (or a host screen, a stranger) sent that was not taken,
        in the table's language. The reasons are the refusals', worded the same whoever's seat it
        is (a flood is a flood, a screen from before is one, whatever the role)."""
        worded: dict[str, int] = {}
        for reason, n in counts.items():
            why = self.said("companion_why_" + REFUSAL_WORDS.get(reason, "host"))
            worded[why] = worded.get(why, 0) + n
        reasons = ", ".join(f"{r} ×{n}" if n > 1 else r for r, n in worded.items())
        if seat is None:
            log.warning("%s", self.said("companion_refused", reasons=reasons))
        else:
            log.warning("%s", self.said("companion_refused_seat", seat=seat, reasons=reasons))

    def said(self, key: str, **args) -> str:
        """A [console] line of the table's language, for what the companion tells the terminal."""
        return self.live.voice.console_text(key, args)

