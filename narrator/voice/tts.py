"""Speech out: lines rendered once through pyttsx3 (espeak-ng) into WAV files cached on disk by
text and voice, kept in memory, and played through one sounddevice stream that stays open.

Because the stream never closes, a cached line starts within one audio block of the request,
and because it plays one line after another from a queue, the narrator never talks over
itself. `live.narrating` is set from the moment a line is queued until the last sample (plus a
short echo tail) has left the speaker, so the microphone ignores the narrator's own voice.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
import threading
import time
import wave
from collections import deque
from pathlib import Path

import numpy as np

from ..flow.effects import Reject, Say
from ..language import load_voice
from .audio import FALLBACK, resolve_device
from .errors import AudioUnavailable

ECHO_TAIL_S = 0.3  # the room still rings after the last sample; the microphone waits this long
TTS_RATE = 22050  # espeak-ng's native rate


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "narrator" / "tts"


class Renderer:
    """Text → int16 samples through pyttsx3, cached on disk by (text, voice, rate, volume)."""

    def __init__(self, voice_id: str, rate: int, volume: float, cache_dir: str | Path | None = None):
        self.voice_id = voice_id
        self.rate = rate
        self.volume = volume
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        self.memory: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self._engine = None
        self.sample_rate = TTS_RATE

    def key(self, text: str) -> str:
        return hashlib.sha256(f"{self.voice_id}|{self.rate}|{self.volume}|{text}".encode()).hexdigest()[:32]

    def _pyttsx3(self):
        if self._engine is None:
            import pyttsx3

            try:
                self._engine = pyttsx3.init("espeak")
                # the espeak driver prints "Audio saved to …" on stdout, which belongs to the game
                # and the CLI's JSON lines; redirect_stdout would hide every thread's output
                import pyttsx3.drivers.espeak as driver

                driver.print = lambda *args, **kwargs: None
            except Exception as exc:  # noqa: BLE001 - pyttsx3 raises whatever its driver raised
                raise AudioUnavailable(f"text to speech is unavailable (espeak-ng: {exc}); install it with scripts/install.sh "
                                       f"or sudo apt-get install espeak-ng libespeak-ng1; {FALLBACK}") from None
            self._engine.setProperty("voice", self.voice_id)
            self._engine.setProperty("rate", self.rate)
            self._engine.setProperty("volume", self.volume)
        return self._engine

    def get(self, text: str) -> np.ndarray:
        k = self.key(text)
        cached = self.memory.get(k)
        if cached is not None:
            return cached
        with self._lock:
            if k in self.memory:
                return self.memory[k]
            path = self.cache_dir / f"{k}.wav"
            if not path.exists():
                self._render(text, path)
            samples = self._load(path)
            self.memory[k] = samples
            return samples

    def _render(self, text: str, path: Path) -> None:
        engine = self._pyttsx3()
        fd, tmp = tempfile.mkstemp(suffix=".wav", dir=self.cache_dir)
        os.close(fd)
        engine.save_to_file(text, tmp)
        engine.runAndWait()
        os.replace(tmp, path)  # atomic: a half-written file is never taken from the cache

    def _load(self, path: Path) -> np.ndarray:
        with wave.open(str(path), "rb") as w:
            self.sample_rate = w.getframerate()
            return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").copy()


class Player:
    """One open output stream fed from a queue: lines play in order, never on top of each other."""

    def __init__(self, device: int | None, sample_rate: int, narrating: threading.Event, blocksize: int = 256):
        import sounddevice as sd

        self.narrating = narrating
        self.queue: deque = deque()
        self.current: tuple[np.ndarray, int, float] | None = None
        self.started: list[tuple[float, float]] = []  # (requested, first sample handed out)
        self._idle_since: float | None = None
        self._lock = threading.Lock()
        try:
            self.stream = sd.OutputStream(samplerate=sample_rate, channels=1, dtype="int16", device=device,
                                          blocksize=blocksize, latency="low", callback=self._callback)
            self.stream.start()
        except Exception as exc:  # noqa: BLE001 - PortAudio errors come in many types
            raise AudioUnavailable(f"cannot open the speaker ({exc}); {FALLBACK}") from None

    def play(self, samples: np.ndarray) -> None:
        with self._lock:
            self.narrating.set()
            self._idle_since = None
            self.queue.append((samples, time.perf_counter()))

    def _callback(self, outdata, frames, time_info, status) -> None:
        out = outdata[:, 0]
        filled = 0
        with self._lock:
            while filled < frames:
                if self.current is None:
                    if not self.queue:
                        break
                    samples, requested = self.queue.popleft()
                    self.current = (samples, 0, requested)
                    self.started.append((requested, time.perf_counter()))
                samples, pos, requested = self.current
                n = min(frames - filled, len(samples) - pos)
                out[filled:filled + n] = samples[pos:pos + n]
                filled += n
                pos += n
                self.current = None if pos >= len(samples) else (samples, pos, requested)
            out[filled:] = 0
            if self.current is None and not self.queue and self.narrating.is_set():
                now = time.perf_counter()
                if self._idle_since is None:
                    self._idle_since = now
                elif now - self._idle_since >= ECHO_TAIL_S:
                    self.narrating.clear()

    def busy(self) -> bool:
        return self.narrating.is_set()

    def wait(self, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while self.narrating.is_set() and time.monotonic() < end:
            time.sleep(0.01)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stream.stop()
            self.stream.close()


_SEAT_ONLY = re.compile(r"^[^{}]*\{seat\}[^{}]*$")


class SpeechOutput:
    """The output adapter: speaks public lines, never a Tell or a private Reject."""

    def __init__(self, config, narrating: threading.Event, renderer: Renderer | None = None, player: Player | None = None,
                 prerender: bool = True):
        section = config.section("voice")
        self.voice = load_voice(config.language, config.variant.name)
        voice_id = section["voice"] or self.voice.speech.get("espeak_voice", config.language)
        self.renderer = renderer or Renderer(voice_id, section["rate"], section["volume"], section["cache_dir"] or None)
        if player is None:
            device = resolve_device(section["device"], "output")
            player = Player(device, TTS_RATE, narrating)
        self.player = player
        self.seats = config.seats
        self.speech_times = dict(config.timers)
        self._prerender_thread = None
        if prerender:
            self._prerender_thread = threading.Thread(target=self.prerender, name="narrator-tts-prerender", daemon=True)
            self._prerender_thread.start()

    def public_texts(self) -> list[str]:
        """Every fixed line, and every line whose only argument is a seat, for each seat: rendered ahead."""
        texts = []
        # the answers to a nomination come first: they are the ones a player waits for
        first = ["nomination_accepted", "nomination_revoked", "speech_turn", "time_up"]
        names = first + [k for k in self.voice.lines if k not in first]
        for name in names:
            template = self.voice.lines.get(name)
            if not isinstance(template, str) or name.startswith(("check_", "awaiting_", "step_")):
                continue  # check results are private; awaiting/step texts are console help
            if "{" not in template:
                texts.append(template)
            elif _SEAT_ONLY.match(template):
                texts.extend(self.voice.render(name, {"seat": s}) for s in range(1, self.seats + 1))
            elif name == "speech_turn" and "speech" in self.speech_times:
                # the turn a player waits for names the speech's length: rendered with this table's
                texts.extend(self.voice.render(name, {"seat": s, "time": self.speech_times["speech"]}) for s in range(1, self.seats + 1))
        return texts

    def prerender(self) -> None:
        for text in self.public_texts():
            try:
                self.renderer.get(text)
            except Exception:  # noqa: BLE001 - a line that fails now is rendered (or reported) when needed
                return

    def speak(self, text: str) -> None:
        self.player.play(self.renderer.get(text))

    def handle(self, effect, text: str | None) -> None:
        if text is None:
            return
        if isinstance(effect, Say) or (isinstance(effect, Reject) and effect.seat is None):
            self.speak(text)
        # Tell and private Rejects are secrets: never spoken, printed or logged here

    def close(self) -> None:
        self.player.close()
