"""Speech out: lines rendered once through espeak-ng or Piper into WAV files cached on
disk by text and voice, and played through one sounddevice stream that stays open.

Because the stream never closes, a cached line starts within one audio block of the request,
and because it plays one line after another from a queue, the narrator never talks over
itself. `live.narrating` is set from the moment a line is queued until the last sample (plus a
short echo tail) has left the speaker, so the microphone ignores the narrator's own voice.

A line asked for now and not yet on disk is rendered at once by the speaking thread, which
loads the voice first thing, and played sentence by sentence as Piper renders them, the stream
waiting in silence for the next one. Every other public line is rendered ahead by a second,
lower-priority thread that stands still while a line asked for is being rendered, so the first
line of a game is heard within a second even with Piper's model to load. During the night the
same stream mixes the masking sound (ambience.py) under the narration.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import subprocess
import tempfile
import threading
import time
import wave
from collections import deque
from collections.abc import Iterator
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
    """Text → int16 samples at TTS_RATE through the espeak-ng program, cached on disk by (text, voice, rate, volume).

    One espeak-ng process a line (14 ms here), sharing nothing. pyttsx3's espeak driver did it
    before: its loop gives up 10 ms after starting the library's asynchronous synthesis, so now
    and then a line came out empty, and with a second rendering thread, in 6 of 20 processes
    every line came at the driver's default 200 words a minute instead of the configured rate."""

    engine = "espeak"

    def __init__(self, voice_id: str, rate: int, volume: float, cache_dir: str | Path | None = None):
        self.voice_id = voice_id
        self.rate = rate
        self.volume = volume
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
        self.memory: dict[str, np.ndarray] = {}
        self.sample_rate = TTS_RATE
        # why the cache on disk cannot be written (a full disk, a read-only card): the narrator
        # speaks all the same, keeping its lines in memory, and the console says so once
        self.cache_problem: OSError | None = None
        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(suffix=".probe", dir=self.cache_dir)  # a read-only card lets mkdir pass
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            self.cache_problem = exc

    def key(self, text: str) -> str:
        return hashlib.sha256(f"{self.voice_id}|{self.rate}|{self.volume}|{text}".encode()).hexdigest()[:32]

    def check(self) -> None:
        """Raise AudioUnavailable now if this engine cannot speak at all."""
        if shutil.which("espeak-ng") is None:
            raise AudioUnavailable("text to speech is unavailable (no espeak-ng); install it with scripts/install.sh "
                                   f"or sudo apt-get install espeak-ng; {FALLBACK}", "no_espeak", True)

    def load(self) -> None:
        """Load the engine (the speaking thread does this first, before any line is asked for)."""
        self.check()

    def path(self, text: str) -> Path:
        return self.cache_dir / f"{self.key(text)}.wav"

    def _read(self, path: Path) -> np.ndarray | None:
        if path.exists():
            with contextlib.suppress(OSError, wave.Error, EOFError):
                return self._load(path)
        return None

    def has(self, text: str) -> bool:
        """The line is rendered already (in memory, or in the cache on disk)."""
        return self.key(text) in self.memory or self.path(text).exists()

    def cached(self, text: str) -> np.ndarray | None:
        """The samples if the line is in memory or on disk (a quick read), else None: never renders."""
        k = self.key(text)
        if k in self.memory:
            return self.memory[k]
        samples = self._read(self.path(text))
        if samples is not None:
            self.memory[k] = samples
        return samples

    def get(self, text: str) -> np.ndarray:
        """The line's samples, rendered now unless cached, and kept in memory."""
        samples = self.cached(text)
        if samples is None:
            chunks = list(self.stream(text))
            samples = np.concatenate(chunks) if chunks else np.zeros(0, np.int16)
            self.memory[self.key(text)] = samples
        return samples

    def stream(self, text: str) -> Iterator[np.ndarray]:
        """The line's samples at TTS_RATE as they are rendered (Piper: a sentence at a time, the
        next one rendered only when asked for); once the last is out, the whole line is on disk.
        Not kept in memory: the lines rendered ahead would hold ~75 MB that the game never plays."""
        path = self.path(text)
        samples = self._read(path)
        if samples is not None:
            yield samples
            return
        chunks = []
        for samples in self._stream(text):
            chunks.append(samples)
            yield samples
        self._save(path, chunks)  # exactly the samples that were played, at the stream's rate
        if self.cache_problem is not None:  # no disk to keep it on: memory it is
            self.memory[self.key(text)] = np.concatenate(chunks) if chunks else np.zeros(0, np.int16)

    def _stream(self, text: str) -> Iterator[np.ndarray]:
        # the text on stdin (-b 1: UTF-8), so a line can never be taken for an option; the sound
        # on stdout, so rendering never needs the disk
        run = subprocess.run(["espeak-ng", "-v", self.voice_id, "-s", str(self.rate), "-a", str(round(self.volume * 100)),
                              "-b", "1", "--stdout"], input=text.encode("utf-8"), capture_output=True, timeout=60)
        if run.returncode != 0:
            error = run.stderr.decode(errors="replace").strip()
            raise AudioUnavailable(f"espeak-ng cannot speak with voice {self.voice_id!r}: {error}", "espeak_voice",
                                   voice=repr(self.voice_id), error=error)
        # streamed, espeak-ng cannot know the length and writes the largest it can: read to the end
        yield self._load(io.BytesIO(run.stdout))

    def _save(self, path: Path, chunks: list[np.ndarray]) -> None:
        """Into the cache on disk, if it can be written: a full or read-only disk only costs the
        rendering of the line again in a later game (said once, at the console)."""
        if self.cache_problem is not None:
            return
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(suffix=".wav", dir=self.cache_dir)
            os.close(fd)
            with wave.open(tmp, "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(TTS_RATE)
                w.writeframes(b"".join(c.astype("<i2").tobytes() for c in chunks))
            os.replace(tmp, path)  # atomic: a half-written file is never taken from the cache
        except OSError as exc:
            self.cache_problem = exc
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def _load(self, source) -> np.ndarray:
        with wave.open(source if isinstance(source, io.BytesIO) else str(source), "rb") as w:
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
                                   "(or pip install 'narrator[piper]')", "no_piper") from None

    def load(self) -> None:
        self._piper()

    def _piper(self):
        if self._voice is None:
            self.check()
            from .piper import load_voice

            try:
                self._voice = load_voice(self.model, self.config)
            except Exception as exc:  # noqa: BLE001 - onnxruntime reports a bad model its own way
                raise AudioUnavailable(f"the Piper voice {self.voice_id} does not load ({exc}); "
                                       f"fetch it again: narrator voices fetch {self.voice_id}", "piper_voice_broken",
                                       voice=self.voice_id, error=str(exc)) from None
        return self._voice

    def _stream(self, text: str) -> Iterator[np.ndarray]:
        from piper import SynthesisConfig

        voice = self._piper()
        base = float(getattr(voice.config, "length_scale", 1.0) or 1.0)
        # rate is words per minute as for espeak-ng, whose default 165 is Piper's natural pace
        # Piper normalises each line to full scale; 0.8 leaves the headroom espeak-ng's lines have,
        # so the night's masking sound never clips under a loud word
        syn = SynthesisConfig(length_scale=base * 165 / self.rate, volume=0.8 * self.volume)
        for chunk in voice.synthesize(text, syn_config=syn):  # a sentence each, rendered when asked for
            samples = chunk.audio_int16_array
            if chunk.sample_rate != TTS_RATE:
                samples = to_int16(resample(samples.astype(np.float32), chunk.sample_rate, TTS_RATE))
            yield samples


class Line:
    """A line on its way to the speaker: its samples come a sentence at a time (a cached line
    comes whole), and the stream waits in silence for a sentence still being rendered."""

    __slots__ = ("text", "chunks", "ready", "estimate")

    def __init__(self, text: str, estimate: float = 0.0):
        self.text = text
        self.chunks: list[np.ndarray] = []
        self.ready = threading.Event()  # every sentence is there (a line that failed stays empty: silence)
        self.estimate = estimate  # seconds of audio the whole line is expected to hold

    @classmethod
    def of(cls, samples: np.ndarray) -> Line:
        line = cls("")
        line.add(samples)
        line.ready.set()
        return line

    def add(self, samples: np.ndarray) -> None:
        self.chunks.append(samples)

    @property
    def samples(self) -> np.ndarray | None:
        """The whole line once it is ready."""
        if not self.ready.is_set():
            return None
        return np.concatenate(self.chunks) if self.chunks else np.zeros(0, np.int16)

    def seconds_left(self, index: int = 0, pos: int = 0) -> float:
        ready = self.ready.is_set()  # read first: once it is set, no sentence is still to come
        chunks = list(self.chunks)
        left = sum(len(c) for c in chunks[index:]) - pos
        rendered = sum(len(c) for c in chunks) / TTS_RATE
        return left / TTS_RATE + (0.0 if ready else max(0.0, self.estimate - rendered))


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
        self.current: tuple[Line, int, int] | None = None
        self.started: list[tuple[float, float]] = []  # (requested, first sample handed out)
        self.ambience = ambience
        self._idle_since: float | None = None
        self._lock = threading.Lock()
        self.rate = sample_rate
        # told, with the moment it is heard, when the last line queued has played out: the step
        # timer starts then, to the sample, and not at the next look at the queue
        self._heard: list = []
        self.stream = None
        # how long after the last sample is handed out the microphone stays shut
        self.echo_tail_s = ECHO_TAIL_S
        if not open_stream:
            return  # driven by render(): the tests and the benchmark, with no sound device
        import sounddevice as sd

        try:
            self.stream = sd.OutputStream(samplerate=sample_rate, channels=1, dtype="int16", device=device,
                                          blocksize=blocksize, latency="low", callback=self._callback)
            self.stream.start()
        except Exception as exc:  # noqa: BLE001 - PortAudio errors come in many types
            raise AudioUnavailable(f"cannot open the speaker ({exc}); {FALLBACK}", "speaker_failed", True,
                                   error=str(exc)) from None
        # the last sample handed to PortAudio is heard only after the device's own delay (12 ms
        # here; a Bluetooth speaker 100-300 ms): the room's echo is counted from when it is heard,
        # or the microphone opens on the narrator's last word
        try:
            self.echo_tail_s = ECHO_TAIL_S + max(0.0, float(self.stream.latency))
        except (TypeError, ValueError, AttributeError):
            pass

    def play(self, samples) -> None:
        """Queue a line: its samples, or a Line still being rendered."""
        line = samples if isinstance(samples, Line) else Line.of(samples)
        with self._lock:
            self.narrating.set()
            self._idle_since = None
            self.queue.append((line, time.perf_counter()))

    def cue(self, on: bool) -> None:
        """The masking sound fades in (or out) when the lines queued so far have been played."""
        with self._lock:
            self.queue.append((Cue(on), time.perf_counter()))

    def when_heard(self, callback) -> bool:
        """Call `callback(at)` (from the audio thread; `at` on time.monotonic's clock) when every line
        queued now has been heard; False when none is queued, so the caller starts at once."""
        with self._lock:
            if self.current is None and not any(isinstance(item, Line) for item, _ in self.queue):
                return False
            self._heard.append(callback)
            return True

    def queued_seconds(self) -> float:
        """How long the lines queued now will take to play: a timer starts when they are heard."""
        with self._lock:
            seconds = self.current[0].seconds_left(self.current[1], self.current[2]) if self.current else 0.0
            return seconds + sum(item.seconds_left() for item, _ in self.queue if isinstance(item, Line))

    def _callback(self, outdata, frames, time_info, status) -> None:
        self._fill(outdata[:, 0], frames)

    def render(self, frames: int) -> np.ndarray:
        """What the stream would play next, without a stream."""
        out = np.zeros(frames, dtype=np.int16)
        self._fill(out, frames)
        return out

    def _fill(self, out: np.ndarray, frames: int) -> None:
        filled = 0
        heard: list = []
        now = time.monotonic()
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
                    if not item.chunks and not item.ready.is_set():
                        break  # its first sentence is still rendering: silence until it is there
                    self.queue.popleft()
                    self.current = (item, 0, 0)  # the line, its sentence, the position in it
                    self.started.append((requested, time.perf_counter()))
                line, index, pos = self.current
                ready = line.ready.is_set()  # read first: once it is set, every sentence is there
                if index >= len(line.chunks):
                    if not ready:
                        break  # the next sentence is still rendering: a longer pause, nothing plays over it
                    self.current = None
                    continue
                chunk = line.chunks[index]
                n = min(frames - filled, len(chunk) - pos)
                out[filled:filled + n] = chunk[pos:pos + n]
                filled += n
                pos += n
                self.current = (line, index + 1, 0) if pos >= len(chunk) else (line, index, pos)
            out[filled:] = 0
            if self._heard and self.current is None and not any(isinstance(item, Line) for item, _ in self.queue):
                # the last sample is `filled` samples into this block, which is heard a latency from now
                heard, self._heard = self._heard, []
                at = now + filled / self.rate + self.latency()
            if self.ambience is not None:
                noise = self.ambience.next(frames)
                if noise is not None:
                    out[:] = to_int16(out.astype(np.float32) + noise)
            if self.current is None and not self.queue and self.narrating.is_set():
                now = time.perf_counter()
                if self._idle_since is None:
                    self._idle_since = now
                elif now - self._idle_since >= self.echo_tail_s:
                    self.narrating.clear()
        for callback in heard:
            try:
                callback(at)
            except Exception:  # noqa: BLE001 — the audio thread must go on playing whatever a listener does
                pass

    def latency(self) -> float:
        """Seconds from a sample handed to the stream to its being heard (0 without a stream)."""
        try:
            return max(0.0, float(self.stream.latency)) if self.stream is not None else 0.0
        except (TypeError, ValueError, AttributeError):
            return 0.0

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


# the answers the speaker says at night too: the host's pause and a stop of the game concern the
# whole table and tell nothing of who is awake
SAID_AT_NIGHT = frozenset({"paused", "resumed", "journal_failed"})


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
            fallback = Renderer(espeak_voice, section["rate"], section["volume"], section["cache_dir"] or None)
            fallback.instead_of = exc  # the console says why in the table's language
            return fallback, notice
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
        self._cv = threading.Condition()
        self._urgent: deque[Line] = deque()  # asked for and not on disk: the first one is rendering
        self._loaded = threading.Event()
        self._closed = False
        # the voice loads from here on, while the speaker opens and the game sets up
        self._worker = threading.Thread(target=self._work, name="narrator-tts", daemon=True)
        self._worker.start()
        if player is None:
            try:
                device = resolve_device(section["device"], "output")
                ambience = Ambience(section["ambience"], TTS_RATE) if section["ambience"] > 0 else None
                player = Player(device, TTS_RATE, narrating, ambience=ambience)
            except AudioUnavailable:
                self.close()  # the game narrates in text: the voice need not go on loading
                raise
        self.player = player
        self.seats = config.seats
        self.speech_times = dict(config.timers)
        self._ahead: deque[str] = deque(self.public_texts() if prerender else ())
        self.night = night
        if night:  # resumed in the middle of a night: the masking sound is already due
            self._cue(True)
        self._background = threading.Thread(target=self._work_ahead, name="narrator-tts-ahead", daemon=True)
        self._background.start()

    def public_texts(self) -> list[str]:
        """Every fixed line, every line whose only argument is a seat, for each seat, and every line
        whose only argument is the day ("The city wakes up. Day 2."), for as many days as a game
        of this table can have, in the order of the voice file (the night's lines before the
        day's): rendered ahead."""
        texts = []
        for name, template in self.voice.lines.items():
            if (not isinstance(template, str) or name.startswith(("check_", "awaiting_", "step_", "state_", "your_", "private_"))
                    or name.endswith("_held")):
                # check results are private; awaiting/step/state texts are console help; the labels
                # of private lines and the host's own lines (a foul noted at night) are never spoken
                continue
            # what the line takes, as the voice fills it: a Hungarian line's {seat_article} is the
            # voice's own, and «Kivégezzük {seat_article} {seat}. játékost?» is a seat's line like
            # any other language's (its 43 seat lines were rendered only when said, the vote calls too)
            slots = self.voice.slots(template)
            if not slots:
                texts.append(self.voice.render(name, spoken=True))
            elif slots == {"seat"}:
                texts.extend(self.voice.render(name, {"seat": s}, spoken=True) for s in range(1, self.seats + 1))
            elif slots == {"day"}:
                # the dawn's line closes the night's last step: rendered only when its turn came, it
                # held the queue and that step sounded longer than its time by the rendering (a
                # second under load), on a table's first game
                texts.extend(self.voice.render(name, {"day": d}, spoken=True) for d in range(1, self.seats + 1))
            elif name == "speech_turn" and "speech" in self.speech_times:
                # the turn a player waits for names the speech's length: rendered with this table's
                texts.extend(self.voice.render(name, {"seat": s, "time": self.speech_times["speech"]}, spoken=True)
                             for s in range(1, self.seats + 1))
        return texts

    def _work(self) -> None:
        """The speaking thread: loads the voice, then renders each line asked for into its Line,
        sentence by sentence, while the stream already plays the first."""
        try:
            self.renderer.load()
        except Exception:  # noqa: BLE001 - each line then fails alone, and is played as silence
            pass
        self._loaded.set()
        while True:
            with self._cv:
                while not self._urgent and not self._closed:
                    self._cv.wait()
                if self._closed:
                    return
                line = self._urgent[0]  # stays queued while it renders: the background waits for it
            try:
                for samples in self.renderer.stream(line.text):
                    line.add(samples)
            except Exception:  # noqa: BLE001 - one line that cannot be rendered must not stop the others
                line.ready.set()  # what was rendered of it plays, then silence
            else:
                line.ready.set()
                self.renderer.memory[self.renderer.key(line.text)] = line.samples
            with self._cv:
                self._urgent.popleft()
                self._cv.notify_all()

    def _work_ahead(self) -> None:
        """The background thread: renders every public line ahead onto the disk, at a lower
        priority than the game, and stands still between two sentences while a line asked for is
        rendering, so it never makes a table wait."""
        _lower_priority()
        self._loaded.wait()
        while self._quiet():
            with self._cv:
                if not self._ahead:
                    return
                text = self._ahead.popleft()
            if self.renderer.has(text):
                continue
            sentences = self.renderer.stream(text)
            try:
                while self._quiet():
                    next(sentences)
            except StopIteration:
                pass
            except Exception:  # noqa: BLE001 - asked for later, the line gets its own chance
                pass
            finally:
                sentences.close()

    def _quiet(self) -> bool:
        """Wait while a line asked for is rendering; False once closed."""
        with self._cv:
            while self._urgent and not self._closed:
                self._cv.wait()
            return not self._closed

    def prerender(self) -> None:
        """Render every line ahead now, in this thread (the benchmark's full pre-render)."""
        for text in self.public_texts():
            for _ in self.renderer.stream(text):
                pass

    def speak(self, text: str) -> None:
        samples = self.renderer.cached(text)
        if samples is not None:
            self.player.play(samples)
            return
        # about 15 characters a second at espeak-ng's default 165 words a minute
        line = Line(text, len(text) / 15 * 165 / max(80, self.renderer.rate))
        with self._cv:
            self._urgent.append(line)
            self._cv.notify_all()
        self.player.play(line)

    def queued_seconds(self) -> float:
        queued = getattr(self.player, "queued_seconds", None)
        return queued() if queued is not None else 0.0

    def when_heard(self, callback) -> bool:
        """`callback(at)` once the lines queued now have been heard (see Player.when_heard)."""
        when = getattr(self.player, "when_heard", None)
        return when(callback) if when is not None else False

    def _cue(self, on: bool) -> None:
        cue = getattr(self.player, "cue", None)
        if cue is not None:
            cue(on)

    def handle(self, effect, text: str | None) -> None:
        if isinstance(effect, Record) and effect.entry.get("type") == "phase":
            # the masking sound fades in with "night falls" and out with "the city wakes up"
            self.night = effect.entry.get("phase") == "night"
            self._cue(self.night)
            return
        if text is None:
            return
        if isinstance(effect, Reject) and self.night and effect.line not in SAID_AT_NIGHT:
            # at night only the awake role types: "Not understood: tap takes a seat and a target"
            # said aloud would tell the sleeping table that he is alive (the console shows it)
            return
        if isinstance(effect, Say) or (isinstance(effect, Reject) and effect.seat is None):
            # the text is the written line; the voice may pace it otherwise ([spoken] in voices/)
            if effect.line in self.voice.spoken:
                text = self.voice.render(effect.line, effect.args, spoken=True)
            self.speak(text)
        # Tell and private Rejects are secrets: never spoken, printed or logged here

    def close(self) -> None:
        with self._cv:
            self._closed = True
            for line in self._urgent:
                line.ready.set()  # never rendered now: silence, not a stream waiting for ever
            self._cv.notify_all()
        # the sentences being rendered finish first: onnxruntime aborts the process if the
        # interpreter exits under a running inference
        for thread in (self._worker, getattr(self, "_background", None)):
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout=10)
        if getattr(self, "player", None) is not None:
            self.player.close()


def _lower_priority(niceness: int = 10) -> None:
    """Lower the calling thread's priority, not the process's (on Linux a thread's id is its own
    scheduling entity; inference with one onnxruntime thread runs in the calling thread)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)
