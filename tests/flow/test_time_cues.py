"""The spoken time cue on the real clock: "ten seconds" (here two, to keep the test short) before a
speech ends, said once, as narration (not an input: the journal and the protocol do not change)."""

from __future__ import annotations

import asyncio

from conftest import config_text
from narrator.config import parse_config
from narrator.flow.effects import Say
from narrator.live import LiveSession


class Heard:
    def __init__(self):
        self.lines: list[tuple[float, Say]] = []

    def handle(self, effect, text) -> None:
        if isinstance(effect, Say):
            self.lines.append((asyncio.get_running_loop().time(), effect))


def test_the_cue_is_spoken_its_seconds_before_the_speech_ends():
    async def main():
        cfg = parse_config(config_text(rules={"speech_warning": 2}, timers={"speech": 5}))
        heard = Heard()
        live = LiveSession(cfg, None, outputs=[heard])
        task = asyncio.create_task(live.run(live.start_effects()))
        await asyncio.sleep(0.05)
        for line in ("deal 1=sheriff 2=don 3=mafia 4=mafia", "timeout", "timeout", "timeout"):
            live.submit_line(line)
        await asyncio.sleep(0.2)
        assert live.game.state == "speeches"
        started = next(t for t, e in heard.lines if e.line == "speech_turn")
        await asyncio.sleep(3.5)
        cues = [(t, e) for t, e in heard.lines if e.line == "time_left"]
        assert [e.args for _, e in cues] == [{"time": 2}]
        assert 2.8 < cues[0][0] - started < 3.4                # 5 s speech, the cue 2 s before its end
        live.submit_control("quit")
        await asyncio.wait_for(task, 5)

    asyncio.run(main())
