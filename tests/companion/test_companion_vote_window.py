"""The Swedish hand vote on the phones: the buttons are on screen for the whole window, and the
phone's countdown ends when the window does.

Seed 000 Röstning: for each nominee the narrator says «De som vill rösta på … ska: räcka upp sin
hand. NU!», and the hands go up on «NU!»; a late hand does not count. The window
(`[timers] hand_vote`, 5 s) runs from the moment the call's last sample is heard, not from when it
was queued (LiveSession). A phone table hears «Vem röstar på spelare 7? Rösta i telefonen. NU!»;
its phones show the buttons as soon as the call is queued, so they are there through the call
and the 5 s after «NU!». What the phones were told of the time was the speaker's guess at that
moment (a line still being rendered has only an estimate): the countdown could run out while
the window was open, or go on after it. Now the phones get the true time left when the window
opens. Played here with a speaker that cannot say in advance how long its lines take."""

from __future__ import annotations

import asyncio
import threading
import time

from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.events import EndSpeech, Nominate, Timeout
from narrator.live import LiveSession

SAID = 2.5  # how long the speaker takes to say what was queued (the vote's call), unknown beforehand
GUESS = 0.5  # what it expects them to take while it renders them


class Speaker:
    """A speaker as tts.Player reports it, rendering as it plays: it knows when the queued lines
    have been heard, not beforehand how long they take — its guess is GUESS seconds, as a line
    Piper has not rendered yet has only an estimate."""

    def __init__(self, said: float = SAID):
        self.said = said
        self.heard_at: list[float] = []
        self.off = threading.Event()  # unplugged at the end of the test: the loop is gone
        self.playing = 0

    def handle(self, effect, text):
        pass

    def queued_seconds(self) -> float:
        return GUESS if self.playing else 0.0

    def when_heard(self, callback) -> bool:
        def played() -> None:
            self.playing -= 1
            if self.off.is_set():
                return
            at = time.monotonic()
            self.heard_at.append(at)
            callback(at)

        self.playing += 1
        threading.Timer(self.said, played).start()
        return True


def test_the_phones_have_the_buttons_through_the_call_and_its_window_and_count_down_to_its_end():
    cfg = parse_config('variant = "sverige"\nlanguage = "sv"\nseats = 10\n[dealing]\n'
                       'roles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n'
                       '[companion]\nvotes = true\n[timers]\nhand_vote = 5\n', "club.toml")

    async def main():
        async with Table(cfg, session_class=LiveSession) as t:
            live, speaker = t.live, Speaker()
            ends: list[float] = []
            apply = live._apply

            def noted(event, journaled=False):
                if isinstance(event, Timeout) and live.game.state == "hand_vote":
                    ends.append(time.monotonic())  # the window closes: «Spelare 7: 0 röster.»
                apply(event, journaled)

            live._apply = noted
            ps = await t.join_all()
            # through night zero and the day to the nominees' speeches, with no speaker yet
            t.deal()
            await until(lambda: live.game.state == "night", 10, "the deal")
            while live.game.state != "nominee_speeches":
                if live.game.state == "discussion" and not live.game.public_nominations():
                    live.submit_event(Nominate(7, by=3))
                live.submit_event(Timeout())
                await t.settle()
            live.outputs.insert(0, speaker)
            live.submit_event(EndSpeech())  # the one speech ends: «Vem röstar på spelare 7? …»
            phone = ps[1]
            await until(lambda: live.game.state != "hand_vote" and ends, 30, "the window for 7 to close")
            await t.settle()
            speaker.off.set()
            live.outputs.remove(speaker)
            shown = [(at, f) for at, f, _ in phone.frames if f["t"] == "screen" and f["state"] == "hand_vote"]
            heard = next(h for h in speaker.heard_at if h > shown[0][0])
            gone = next(at for at, f, _ in phone.frames if f["t"] == "screen" and f["state"] != "hand_vote" and at > shown[0][0])
            # the buttons came with the call, before its «NU!» was heard, and stayed through the window
            assert shown[0][1]["choices"] == [7] and shown[0][0] < heard
            assert all(f["choices"] == [7] for _, f in shown)
            assert gone >= ends[0] >= heard + 5 - 0.05, (gone, ends, heard)
            # the last word the phone had of the time: the window's 5 s from «NU!», so its countdown
            # ends with the window (before, it said 5.5 s when the call was queued: 2 s too early)
            at, last = shown[-1]
            assert at >= heard - 0.05 and 4.0 <= last["timer"] <= 5.0, (at - heard, last["timer"])
            assert abs((at + last["timer"]) - ends[0]) < 1.0, (at + last["timer"], ends[0])

    asyncio.run(main())


def test_a_tap_during_the_call_is_taken_and_named_and_one_after_the_window_is_refused_on_that_phone():
    """Seed 000 Röstning: the hands go up on «NU!» so that nobody bases his vote on another's hand,
    and a late hand does not count. A phone keeps each vote hidden (only its own phone names it),
    so a tap while the call is still being said shows nobody anything: it is taken, and the phone
    says so. A tap once the name's window is over is refused, with the reason, on that phone alone."""
    cfg = parse_config('variant = "sverige"\nlanguage = "sv"\nseats = 10\n[dealing]\n'
                       'roles = { 1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff" }\n'
                       '[companion]\nvotes = true\n[timers]\nhand_vote = 2\n', "club.toml")

    async def main():
        async with Table(cfg, session_class=LiveSession) as t:
            # the call takes long to say, so the tap surely comes before its «NU!» is heard
            live, speaker = t.live, Speaker(said=3.0)
            ps = await t.join_all()
            t.deal()
            await until(lambda: live.game.state == "night", 10, "the deal")
            while live.game.state != "nominee_speeches":
                if live.game.state == "discussion" and not live.game.public_nominations():
                    live.submit_event(Nominate(7, by=3))
                    live.submit_event(Nominate(8, by=5))
                live.submit_event(Timeout())
                await t.settle()
            live.outputs.insert(0, speaker)  # the speeches and the call are said, and heard later
            while live.game.state == "nominee_speeches":
                live.submit_event(EndSpeech())
                await t.settle()
            await until(lambda: ps[1].screen["state"] == "hand_vote" and ps[1].screen["choices"] == [7])
            called = len(speaker.heard_at)
            # «De som vill rösta på spelare 7 … NU!» is still being said: a tap now is taken
            answer = await ps[1].tap(7)
            assert len(speaker.heard_at) == called, "tapped before the call was heard"
            assert answer["ok"] and answer["text"] == ""  # said once, in the line above the table:
            await until(lambda: ps[1].screen["voted"] == "Du röstade på spelare 7.")
            await until(lambda: ps[6].screen["choices"] == [8], 30, "8 called")
            late = await ps[6].tap(7)
            # 7's window is over: a tap for 7 (a phone slow to redraw) is refused, with the reason
            assert not late["ok"] and late["text"] == "För sent: rösterna på spelare 7 är redan räknade."
            # a late hand is no vote spent (seed 000): his button for 8 is still there, and counts
            assert ps[6].screen["choices"] == [8] and (await ps[6].tap(8))["ok"]
            epoch = ps[9].screen["epoch"]
            assert (await ps[4].tap(8))["ok"]  # 8 has the most votes: no tie, the vote is over
            await until(lambda: live.game.state != "hand_vote", 60, "8 counted")
            await t.settle()
            ps[9].screen["epoch"] = epoch
            stale = await ps[9].tap(8)
            # and once the last name is counted, a tap from the screen before is refused too
            assert not stale["ok"] and stale["text"] == "För sent: spelet har gått vidare."
            taken = [e["event"] for e in t.records if e.get("type") == "input" and e["event"]["type"] == "tap"]
            assert taken == [{"type": "tap", "seat": 1, "target": 7}, {"type": "tap", "seat": 6, "target": 8},
                     {"type": "tap", "seat": 4, "target": 8}]
            speaker.off.set()
            live.outputs.remove(speaker)

    asyncio.run(main())
