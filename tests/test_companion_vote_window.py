"""The Swedish hand vote on the phones: the buttons are on screen for the whole window, and the
phone's countdown ends when the window does.

Seed 000 Röstning: for each nominee the narrator says «De som vill rösta på … ska: räcka upp sin
hand. NU!», and the hands go up on «NU!»; a late hand does not count. The window
(`[timers] hand_vote`, 5 s) runs from the moment the call's last sample is heard, not from when it
was queued (LiveSession). A phone table hears «Vem röstar på spelare 7? Rösta i mobilen. NU!»;
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

    def __init__(self):
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
        threading.Timer(SAID, played).start()
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
