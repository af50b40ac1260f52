"""Speech in: the microphone stream, through the recogniser for the current phase, into the game.

Audio is taken only while a player holds the floor, or the day is open to anyone's nomination
(sverige's discussion, hungariq's accusations), and the narrator is silent; anything heard
while the narrator talks (its own voice in the microphone) is dropped together with the
utterance in progress. A heard "cancel" only counts within `input.cancel_seconds` of a
nomination heard by voice, so a stray word much later cannot withdraw anything.
"""

from __future__ import annotations

import queue
import threading
import time

import numpy as np

from ..inputs import open_to_speech, spoken_to_nobody
from ..language import Command, load_voice
from .again import SeatAskedAgain
from .audio import FALLBACK, resolve_device
from .endpoint import Endpointing, Heard, Listener
from .engines import Engine, open_engine
from .errors import AudioUnavailable
from .grammar import build_grammar
from .models import model_dir_of


class VoiceInput:
    """Feeds audio blocks into the listener and submits what it hears to a LiveSession."""

    def __init__(self, engine: Engine, live, cancel_seconds: float, endpointing: Endpointing | None = None):
        self.live = live
        self.voice = load_voice(live.config.language, live.config.variant.name)
        self.engine = engine
        upto = max(live.config.seats, 10)
        grammar = build_grammar(self.voice, "day", upto=upto)
        self.listener = Listener(engine.stream(grammar), grammar, self.voice, engine.sample_rate, self._heard, endpointing)
        # "say the number again": the number alone completes the doubted command
        self.again = SeatAskedAgain(self.listener, engine, self.voice, upto)
        self.cancel_seconds = cancel_seconds
        self._last_nomination: float | None = None
        self._muted = True
        self.heard: list[Heard] = []  # what was submitted, for tests and the bench
        self.unsure: list[Heard] = []  # commands answered "say the number again"

    def accepting(self) -> bool:
        # a player's floor, or an open day where anyone nominates aloud (sverige, hungariq)
        return not self.live.narrating.is_set() and open_to_speech(self.live.game) and not self.live.paused

    def feed(self, block: np.ndarray, captured_accepting: bool = True) -> None:
        """`captured_accepting`: whether the floor was open when the block was recorded. A busy
        machine hands blocks over late: said at night or over the narrator's last line, and
        judged only once the floor was open, they were heard as the day's words"""
        if not (captured_accepting and self.accepting()):
            if not self._muted:
                self.listener.reset()  # the narrator's own voice must never finish an utterance
                self._muted = True
            return
        self._muted = False
        self.again.elapse(len(block) / self.engine.sample_rate, self.live.game.floor)
        self.listener.feed(block)

    def _heard(self, heard: Heard) -> None:
        cmd = heard.command
        if heard.unsure:
            # a whole command, but the two recognisers heard different seats in it: nothing is
            # taken, and the player hears at once that the seat (or the sentence naming two) must
            # be said again
            floor = self.live.game.floor
            asked = self.again.doubted(heard, floor, open_day=floor is None)
            self.unsure.append(heard)
            self.live.submit_answer(asked)
            return
        if isinstance(cmd, Command) and cmd.kind == "seat":
            heard = self.again.answer(heard)
            if heard is None:
                return  # a number alone, asked for by nobody, is no command of the day
            cmd = heard.command
        if not isinstance(cmd, Command):
            return  # ordinary talk, or a half command: never guessed into one
        if spoken_to_nobody(self.live.game, cmd.kind):
            return  # "thanks" across the open discussion: nobody's speech to end
        now = time.monotonic()
        if cmd.kind == "cancel":
            if self._last_nomination is None or now - self._last_nomination > self.cancel_seconds:
                return
            self._last_nomination = None
        elif cmd.kind == "nominate":
            self._last_nomination = now
        self.heard.append(heard)
        self.live.submit_sentence(heard.text, source="voice")


LOST_AFTER_S = 3.0  # no block at all for this long: the microphone is gone


class Microphone:
    """A sounddevice input stream whose blocks a worker thread hands to a VoiceInput."""

    on_change = None
    lost_after = LOST_AFTER_S
    lost = False

    def __init__(self, voice_input: VoiceInput, device: int | None, block_ms: int = 20, on_change=None,
                 lost_after: float = LOST_AFTER_S):
        import sounddevice as sd

        self.input = voice_input
        self.blocks: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        # told False when the microphone has delivered nothing for `lost_after` seconds (a live
        # stream sends a block every 20 ms, silence or not: nothing at all is a pulled plug), and
        # True when blocks come again — so the table is never left talking to a deaf narrator
        self.on_change = on_change
        self.lost_after = lost_after
        self.lost = False
        rate = voice_input.engine.sample_rate
        try:
            self.stream = sd.InputStream(samplerate=rate, channels=1, dtype="int16", device=device,
                                         blocksize=rate * block_ms // 1000, callback=self._callback)
            self.stream.start()
        except Exception as exc:  # noqa: BLE001 - PortAudio errors come in many types
            raise AudioUnavailable(f"cannot open the microphone ({exc}); {FALLBACK}", "microphone_failed", True,
                                   error=str(exc)) from None
        self.thread = threading.Thread(target=self._run, name="narrator-microphone", daemon=True)
        self.thread.start()

    def _callback(self, indata, frames, time_info, status) -> None:
        # judged as it is recorded, not when the worker gets to it (VoiceInput.feed)
        self.blocks.put((indata[:, 0].copy(), self.input.accepting()))

    def _run(self) -> None:
        last = time.monotonic()
        while not self._stop.is_set():
            try:
                block, accepting = self.blocks.get(timeout=0.1)
            except queue.Empty:
                if not self.lost and time.monotonic() - last > self.lost_after and not self._stop.is_set():
                    self._changed(False)
                continue
            last = time.monotonic()
            if self.lost:
                self._changed(True)
            try:
                self.input.feed(block, accepting)
            except Exception:  # noqa: BLE001 - a recogniser hiccup must not kill the microphone
                self.input.listener.reset()

    def _changed(self, working: bool) -> None:
        self.lost = not working
        if self.on_change is not None:
            try:
                self.on_change(working)
            except Exception:  # noqa: BLE001 - telling the table must not stop the microphone's thread
                pass

    def stop(self) -> None:
        self._stop.set()
        try:
            self.stream.stop()
            self.stream.close()
        except Exception:  # noqa: BLE001
            pass
        self.thread.join(timeout=2)


def engine_for(config, engine: str | None = None, lang: str | None = None) -> Engine:
    section = config.section("input")
    return open_engine(engine or section["engine"], lang or config.language, model_dir_of(config),
                       second_opinion=section["second_opinion"])


def start_listening(config, live, host_screen: bool = False) -> Microphone:
    """Open the microphone and listen for day commands; `.stop()` ends it. A microphone that stops
    delivering (unplugged) is said to the table, with where nominations are made instead."""
    engine = engine_for(config)  # ModelMissing first: it names the fix, whatever the audio says
    device = resolve_device(config.section("input")["microphone"], "input")
    voice_input = VoiceInput(engine, live, config.section("input")["cancel_seconds"])
    lost = "microphone_lost_host" if host_screen else "microphone_lost"
    return Microphone(voice_input, device, on_change=lambda working: live.submit_notice("microphone_back" if working else lost))
