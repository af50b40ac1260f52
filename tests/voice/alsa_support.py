"""A sound card made of files for the end-to-end voice tests: ALSA's file plugin in front of its
null device, through the real sounddevice → PortAudio → ALSA path.

The null device takes samples as fast as they come (hundreds of times real time), so both ends
are FIFOs that the test reads and feeds at the pace of a real card: the speaker is paced by its
reader, the microphone by its writer."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

SPEAKER_RATE = 22050  # the narrator's output stream
F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)  # Linux's numbers, for a Python without the names
F_GETPIPE_SZ = getattr(fcntl, "F_GETPIPE_SZ", 1032)


def like_a_crystal() -> None:
    """The calling thread, a card's clock, runs ahead of the machine's busy work where the system
    lets it (real-time priority; root, or CAP_SYS_NICE): a real card's crystal keeps its pace under
    any load, where this thread, held back behind busy loops, let a step's pause come out 100 ms
    longer on one table than on the other. It sleeps between its 20 ms blocks, so it takes the
    processor from nobody for long. Elsewhere it runs as any thread, as before."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))  # 0: this thread (Linux)
    except (AttributeError, OSError):
        pass


def sound_card(home: Path) -> tuple["Speaker", "Microphone"]:
    """The card of files in `home` (its .asoundrc: speaker.raw and mic.raw), once espeak-ng and
    PortAudio are known to be there (a clear failure in CI, a skip elsewhere)."""
    import shutil
    import subprocess
    import sys

    from voice_support import need

    need("espeak-ng", shutil.which("espeak-ng") is not None, "apt-get install espeak-ng")
    need("libportaudio2", subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True).returncode == 0,
         "apt-get install libportaudio2 (.ci/apt-packages.txt)")
    speaker, mic = Speaker(home / "speaker.raw"), Microphone(home / "mic.raw")
    asoundrc(home, home / "speaker.raw", home / "mic.raw")
    return speaker, mic


def asoundrc(home: Path, speaker: Path, microphone: Path) -> None:
    (home / ".asoundrc").write_text(
        "pcm.!default {\n  type asym\n"
        f'  playback.pcm {{ type file; slave.pcm "null"; file "{speaker}"; format "raw" }}\n'
        f'  capture.pcm  {{ type file; slave.pcm "null"; file "/dev/null"; infile "{microphone}"; format "raw" }}\n'
        "}\n")


class PlayedAloud:
    """`narrator play --voice speech --listen` with `home` as its HOME (where the card's .asoundrc
    is), each line it prints collected as it comes, for a test that waits for what the table sees."""

    def __init__(self, home: Path, config: Path, journal: Path):
        env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "narrator.cli", "play", "--config", str(config), "--journal", str(journal),
             "--voice", "speech", "--listen", "--no-reveal"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=Path(__file__).resolve().parents[2], env=env)
        self.lines: list[str] = []
        threading.Thread(target=lambda: self.lines.extend(iter(self.process.stdout.readline, "")), daemon=True).start()

    def type(self, text: str) -> None:
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def wait_for(self, text: str, after: int = 0, timeout: float = 120) -> int:
        """The number of lines up to and including the first one after `after` that holds `text`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            for n, line in enumerate(self.lines[after:], start=after):
                if text in line:
                    return n + 1
            time.sleep(0.1)
        raise AssertionError(f"never printed {text!r}:\n" + "".join(self.lines[-30:]))

    def stop(self) -> None:
        self.process.kill()
        self.process.communicate(timeout=10)


class Speaker:
    """Reads what the narrator plays, in real time, keeping every sample with the time it left."""

    def __init__(self, path: Path, rate: int = SPEAKER_RATE, buffer_bytes: int | None = None):
        os.mkfifo(path)
        self.fd = os.open(path, os.O_RDWR)  # ALSA's open for writing does not block
        self.rate = rate
        if buffer_bytes:
            # a card's buffer: the pipe's default 64 KiB holds 1.5 s, so a room fed from it heard
            # the narrator's last words 1.2 s after its echo tail (0.3 s) had opened the microphone
            fcntl.fcntl(self.fd, F_SETPIPE_SZ, buffer_bytes)
        self.held = fcntl.fcntl(self.fd, F_GETPIPE_SZ) // 2  # samples the pipe holds
        self.chunks: list[tuple[float, bytes]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        like_a_crystal()
        size = self.rate * 2 // 50  # 20 ms
        next_at = time.monotonic()
        while not self.stop.is_set():
            try:
                data = os.read(self.fd, size)
            except OSError:
                return
            self.chunks.append((time.monotonic(), data))
            next_at += len(data) / (2 * self.rate)
            time.sleep(max(0.0, next_at - time.monotonic()))

    def samples(self, since: float = 0.0, until: float = float("inf")) -> np.ndarray:
        raw = b"".join(d for t, d in list(self.chunks) if since <= t < until)
        return np.frombuffer(raw[: len(raw) // 2 * 2], dtype="<i2")

    def handed_at(self, samples: np.ndarray) -> np.ndarray:
        """When the narrator handed each of these sample positions to the sound device, on the real
        clock its timers ran on. The stream never stops (silence is samples too) and ALSA's null
        device takes them at once, so the pipe stays full: sample k went in the moment this reader
        took sample k - `held` out. NaN before the pipe was first full."""
        chunks = list(self.chunks)
        ends = np.cumsum([len(d) // 2 for _, d in chunks])
        times = np.array([t for t, _ in chunks])
        out = np.asarray(samples, np.int64) - self.held
        i = np.searchsorted(ends, out, side="right")
        return np.where((out >= 0) & (i < len(times)), times[np.minimum(i, len(times) - 1)], np.nan)

    def seconds(self) -> float:
        return sum(len(d) for _, d in list(self.chunks)) / (2 * self.rate)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        os.close(self.fd)


class Microphone:
    """A FIFO as ALSA's capture file, fed in real time: silence, or whatever is queued in `say`."""

    def __init__(self, path: Path, rate: int = 16000, buffer_bytes: int | None = None):
        os.mkfifo(path)
        self.fd = os.open(path, os.O_RDWR)
        self.rate = rate
        self.lost = 0  # samples dropped as a card's overrun
        if buffer_bytes:
            # a card's buffer, and a card's overrun: what is recorded while the program does not
            # read is lost, never handed over seconds late. The default pipe holds 2 s and blocks
            # this writer when full, so the room's sound queued up behind it from before the
            # narrator opened the microphone on: 5.6 s of it at three busy loops, and the
            # narrator's own "Player 1, you have 10 minutes." reached the open floor
            fcntl.fcntl(self.fd, F_SETPIPE_SZ, buffer_bytes)
            os.set_blocking(self.fd, False)
        self.say: list[np.ndarray] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        like_a_crystal()
        block = self.rate // 50
        pending = np.zeros(0, np.int16)
        next_at = time.monotonic()
        while not self.stop.is_set():
            if not len(pending) and self.say:
                pending = self.say.pop(0)
            chunk, pending = (pending[:block], pending[block:]) if len(pending) else (np.zeros(block, np.int16), pending)
            try:
                os.write(self.fd, chunk.astype("<i2").tobytes())
            except BlockingIOError:
                self.lost += len(chunk)
            except OSError:
                return
            next_at += block / self.rate
            time.sleep(max(0.0, next_at - time.monotonic()))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        os.close(self.fd)
