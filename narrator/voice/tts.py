"""Speech out: lines rendered once through espeak-ng (pyttsx3) or Piper into WAV files cached on
disk by text and voice, kept in memory, and played through one sounddevice stream that stays open.

Because the stream never closes, a cached line starts within one audio block of the request,
and because it plays one line after another from a queue, the narrator never talks over
itself. `live.narrating` is set from the moment a line is queued until the last sample (plus a
short echo tail) has left the speaker, so the microphone ignores the narrator's own voice.

One worker thread owns the speech engine: a line asked for now and not yet on disk is rendered
next, before the lines rendered ahead in the background, and the stream waits for it in silence
(so the first line of a game is heard within a second even with Piper's model to load). During
the night the same stream mixes the masking sound (ambience.py) under the narration.
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

from ..flow.effects import Record, Reject, Say
from ..language import load_voice
from .ambience import Ambience
from .audio import FALLBACK, resample, resolve_device, to_int16
from .errors import AudioUnavailable

ECHO_TAIL_S = 0.3  # the room still rings after the last sample; the microphone waits this long
TTS_RATE = 22050  # espeak-ng's native rate, and the output stream's
PIPER_DEFAULT = "en_US-joe-medium"  # the Piper voice that installs by package name


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "narrator" / "tts"


class Renderer:
    """Text → int16 samples at TTS_RATE through pyttsx3 (espeak-ng), cached on disk by (text, voice, rate, volume)."""

    engine = "espeak"

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

    def check(self) -> None:
        """Raise AudioUnavailable now if this engine cannot speak at all."""
        self._pyttsx3()

    def load(self) -> None:
        """Load the engine (the worker does this first, before any line is asked for)."""
        self.check()

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

    def cached(self, text: str) -> np.ndarray | None:
        """The samples if the line is in memory or on disk (a quick read), else None: never renders."""
        k = self.key(text)
        if k in self.memory:
            return self.memory[k]
        path = self.cache_dir / f"{k}.wav"
        if path.exists():
            with contextlib.suppress(OSError, wave.Error, EOFError):
                samples = self._load(path)
                self.memory[k] = samples
                return samples
        return None

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
            rate = w.getframerate()
            samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").copy()
        if rate != TTS_RATE:  # a 16 kHz Piper voice plays through the same 22.05 kHz stream
            samples = to_int16(resample(samples.astype(np.float32), rate, TTS_RATE))
        return samples


class PiperRenderer(Renderer):
    """Text → samples through a Piper voice (an .onnx model and its .onnx.json), cached like espeak-ng's."""

    engine = "piper"

    def __init__(self, voice_name: str, rate: int, volume: float, cache_dir: str | Path | None = None,
                 voice_dir: str | Path | None = None):
        super().__init__(voice_name, rate, volume, cache_dir)
        from .piper import voice_files

        self.model, self.config = voice_files(voice_name, voice_dir)  # AudioUnavailable names the fix
        self._voice = None

    def key(self, text: str) -> str:
        return hashlib.sha256(f"piper|{self.voice_id}|{self.rate}|{self.volume}|{text}".encode()).hexdigest()[:32]

    def check(self) -> None:
        try:
            import piper  # noqa: F401
        except ImportError:
            raise AudioUnavailable("the Piper engine is not installed: scripts/install.sh --piper "
                                   "(or pip install 'narrator[piper]')") from None

    def load(self) -> None:
        self._piper()

    def _piper(self):
        if self._voice is None:
            self.check()
            from piper import PiperVoice

            try:
                self._voice = PiperVoice.load(self.model, config_path=self.config)
            except Exception as exc:  # noqa: BLE001 - onnxruntime reports a bad model its own way
                raise AudioUnavailable(f"the Piper voice {self.voice_id} does not load ({exc}); "
                                       f"fetch it again: narrator voices fetch {self.voice_id}") from None
        return self._voice

    def _render(self, text: str, path: Path) -> None:
        from piper import SynthesisConfig

        voice = self._piper()
        base = float(getattr(voice.config, "length_scale", 1.0) or 1.0)
        # rate is words per minute as for espeak-ng, whose default 165 is Piper's natural pace
        # Piper normalises each line to full scale; 0.8 leaves the headroom espeak-ng's lines have,
        # so the night's masking sound never clips under a loud word
        syn = SynthesisConfig(length_scale=base * 165 / self.rate, volume=0.8 * self.volume)
        chunks = list(voice.synthesize(text, syn_config=syn))
        audio = b"".join(c.audio_int16_bytes for c in chunks)
        rate = chunks[0].sample_rate if chunks else voice.config.sample_rate
        fd, tmp = tempfile.mkstemp(suffix=".wav", dir=self.cache_dir)
        os.close(fd)
        with wave.open(tmp, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(audio)
        os.replace(tmp, path)


class Line:
    """A line asked for before it was rendered: the stream waits for `ready` in silence."""

    __slots__ = ("text", "samples", "ready", "estimate")

    def __init__(self, text: str, estimate: float = 0.0):
        self.text = text
        self.samples: np.ndarray | None = None
        self.ready = threading.Event()
        self.estimate = estimate  # seconds, until the samples are there


class Cue:
    """The masking sound on or off, at this point of the queue (between two lines)."""

    __slots__ = ("on",)

    def __init__(self, on: bool):
        self.on = on


class Player:
    """One open output stream fed from a queue: lines play in order, never on top of each other,
    with the night's masking sound (if any) mixed under them."""

    def __init__(self, device: int | None, sample_rate: int, narrating: threading.Event, blocksize: int = 256,
                 ambience: Ambience | None = None, open_stream: bool = True):
        self.narrating = narrating
        self.queue: deque = deque()
        self.current: tuple[np.ndarray, int, float] | None = None
        self.started: list[tuple[float, float]] = []  # (requested, first sample handed out)
        self.ambience = ambience
        self._idle_since: float | None = None
        self._lock = threading.Lock()
        self.stream = None
        if not open_stream:
            return  # driven by render(): the tests and the benchmark, with no sound device
        import sounddevice as sd

        try:
            self.stream = sd.OutputStream(samplerate=sample_rate, channels=1, dtype="int16", device=device,
                                          blocksize=blocksize, latency="low", callback=self._callback)
            self.stream.start()
        except Exception as exc:  # noqa: BLE001 - PortAudio errors come in many types
            raise AudioUnavailable(f"cannot open the speaker ({exc}); {FALLBACK}") from None

    def play(self, samples) -> None:
        """Queue a line: its samples, or a Line still being rendered."""
        with self._lock:
            self.narrating.set()
            self._idle_since = None
            self.queue.append((samples, time.perf_counter()))

    def cue(self, on: bool) -> None:
        """The masking sound fades in (or out) when the lines queued so far have been played."""
        with self._lock:
            self.queue.append((Cue(on), time.perf_counter()))

    def queued_seconds(self) -> float:
        """How long the lines queued now will take to play: a timer starts when they are heard."""
        with self._lock:
            total = len(self.current[0]) - self.current[1] if self.current is not None else 0
            seconds = 0.0
            for item, _ in self.queue:
                if isinstance(item, Line):
                    if item.ready.is_set() and item.samples is not None:
                        total += len(item.samples)
                    elif not item.ready.is_set():
                        seconds += item.estimate
                elif not isinstance(item, Cue):
                    total += len(item)
        return seconds + total / TTS_RATE

    def _callback(self, outdata, frames, time_info, status) -> None:
        self._fill(outdata[:, 0], frames)

    def render(self, frames: int) -> np.ndarray:
        """What the stream would play next, without a stream."""
        out = np.zeros(frames, dtype=np.int16)
        self._fill(out, frames)
        return out

    def _fill(self, out: np.ndarray, frames: int) -> None:
        filled = 0
        with self._lock:
            while filled < frames:
                if self.current is None:
                    if not self.queue:
                        break
                    item, requested = self.queue[0]
                    if isinstance(item, Cue):
                        self.queue.popleft()
                        if self.ambience is not None:
                            self.ambience.set(item.on)
                        continue
                    if isinstance(item, Line):
                        if not item.ready.is_set():
                            break  # still rendering: silence until it is there
                        item = item.samples if item.samples is not None else np.zeros(0, np.int16)
                    self.queue.popleft()
                    self.current = (item, 0, requested)
                    self.started.append((requested, time.perf_counter()))
                samples, pos, requested = self.current
                n = min(frames - filled, len(samples) - pos)
                out[filled:filled + n] = samples[pos:pos + n]
                filled += n
                pos += n
                self.current = None if pos >= len(samples) else (samples, pos, requested)
            out[filled:] = 0
            if self.ambience is not None:
                noise = self.ambience.next(frames)
                if noise is not None:
                    out[:] = to_int16(out.astype(np.float32) + noise)
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


def make_renderer(config) -> tuple[Renderer, str | None]:
    """The configured engine's renderer, and a notice when Piper cannot be had and espeak-ng speaks instead."""
    section = config.section("voice")
    voice = load_voice(config.language)
    espeak_voice = voice.speech.get("espeak_voice", config.language)
    if section["engine"] == "piper":
        from .piper import suggested

        name = section["voice"] or suggested(config.language) or PIPER_DEFAULT
        try:
            renderer = PiperRenderer(name, section["rate"], section["volume"], section["cache_dir"] or None,
                                     section["voice_dir"] or None)
            renderer.check()
            return renderer, None
        except AudioUnavailable as exc:
            notice = f"speaking with espeak-ng: {exc}"
        return Renderer(espeak_voice, section["rate"], section["volume"], section["cache_dir"] or None), notice
    return Renderer(section["voice"] or espeak_voice, section["rate"], section["volume"], section["cache_dir"] or None), None


class SpeechOutput:
    """The output adapter: speaks public lines, never a Tell or a private Reject; masks the night."""

    def __init__(self, config, narrating: threading.Event, renderer: Renderer | None = None, player: Player | None = None,
                 prerender: bool = True, night: bool = False):
        section = config.section("voice")
        self.voice = load_voice(config.language, config.variant.name)
        self.notice: str | None = None
        if renderer is None:
            renderer, self.notice = make_renderer(config)
        self.renderer = renderer
        self.renderer.check()  # AudioUnavailable now, while the game can still narrate in text
        if player is None:
            device = resolve_device(section["device"], "output")
            ambience = Ambience(section["ambience"], TTS_RATE) if section["ambience"] > 0 else None
            player = Player(device, TTS_RATE, narrating, ambience=ambience)
        self.player = player
        self.seats = config.seats
        self.speech_times = dict(config.timers)
        self._cv = threading.Condition()
        self._urgent: deque[Line] = deque()
        self._ahead: deque[str] = deque(self.public_texts() if prerender else ())
        self._closed = False
        if night:  # resumed in the middle of a night: the masking sound is already due
            self._cue(True)
        self._worker = threading.Thread(target=self._work, name="narrator-tts", daemon=True)
        self._worker.start()

    def public_texts(self) -> list[str]:
        """Every fixed line, and every line whose only argument is a seat, for each seat, in the
        order of the voice file (the night's lines before the day's): rendered ahead."""
        texts = []
        for name, template in self.voice.lines.items():
            if not isinstance(template, str) or name.startswith(("check_", "awaiting_", "step_", "state_")):
                continue  # check results are private; awaiting/step/state texts are console help
            if "{" not in template:
                texts.append(template)
            elif _SEAT_ONLY.match(template):
                texts.extend(self.voice.render(name, {"seat": s}) for s in range(1, self.seats + 1))
            elif name == "speech_turn" and "speech" in self.speech_times:
                # the turn a player waits for names the speech's length: rendered with this table's
                texts.extend(self.voice.render(name, {"seat": s, "time": self.speech_times["speech"]}) for s in range(1, self.seats + 1))
        return texts

    def _work(self) -> None:
        try:
            self.renderer.load()
        except Exception:  # noqa: BLE001 - each line then fails alone, and is played as silence
            pass
        while True:
            with self._cv:
                while not self._urgent and not self._ahead and not self._closed:
                    self._cv.wait()
                if self._closed:
                    return
                line = self._urgent.popleft() if self._urgent else None
                text = line.text if line is not None else self._ahead.popleft()
            try:
                samples = self.renderer.get(text)
            except Exception:  # noqa: BLE001 - one line that cannot be rendered must not stop the others
                samples = None
            if line is not None:
                line.samples = samples
                line.ready.set()

    def prerender(self) -> None:
        """Render every line ahead now, in this thread (the benchmark's full pre-render)."""
        for text in self.public_texts():
            self.renderer.get(text)

    def speak(self, text: str) -> None:
        samples = self.renderer.cached(text)
        if samples is not None:
            self.player.play(samples)
            return
        # about 15 characters a second at espeak-ng's default 165 words a minute
        line = Line(text, len(text) / 15 * 165 / max(80, self.renderer.rate))
        with self._cv:
            self._urgent.append(line)
            self._cv.notify()
        self.player.play(line)

    def queued_seconds(self) -> float:
        queued = getattr(self.player, "queued_seconds", None)
        return queued() if queued is not None else 0.0

    def _cue(self, on: bool) -> None:
        cue = getattr(self.player, "cue", None)
        if cue is not None:
            cue(on)

    def handle(self, effect, text: str | None) -> None:
        if isinstance(effect, Record) and effect.entry.get("type") == "phase":
            # the masking sound fades in with "night falls" and out with "the city wakes up"
            self._cue(effect.entry.get("phase") == "night")
            return
        if text is None:
            return
        if isinstance(effect, Say) or (isinstance(effect, Reject) and effect.seat is None):
            self.speak(text)
        # Tell and private Rejects are secrets: never spoken, printed or logged here

    def close(self) -> None:
        with self._cv:
            self._closed = True
            self._cv.notify()
        # the line being rendered finishes first: onnxruntime aborts the process if the
        # interpreter exits under a running inference
        if self._worker is not threading.current_thread():
            self._worker.join(timeout=10)
        self.player.close()
