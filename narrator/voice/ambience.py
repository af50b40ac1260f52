"""The night's masking sound: soft, even, rain-like noise made by the program (no sound file).

It plays under the narration from "night falls" to "the city wakes up" at one steady level, so a
tap on a keypad or a chair that creaks as somebody reaches for a phone is covered the same in
every step, whoever is awake. The loop is shaped in the frequency domain, which makes it exactly
periodic: it repeats without a click and without a rhythm a listener could count.
"""

from __future__ import annotations

import numpy as np

LOOP_S = 7.3  # long enough that nobody hears it repeat
FADE_S = 2.0  # faded in under "night falls", out under "the city wakes up"
FULL_RMS = 0.1 * 32767  # level 1.0: -20 dBFS, well under the narration's -10 to -6 dBFS


def rain(rate: int, seconds: float = LOOP_S, seed: int = 13) -> np.ndarray:
    """One seamless loop of unit-RMS noise: pinkish like rain on a roof, no rumble, no hiss."""
    n = int(rate * seconds)
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / rate)
    shape = 1 / np.sqrt(np.maximum(f, 250.0)) / (1 + (f / 4500.0) ** 2)
    shape[f < 60] = 0  # nothing a small speaker would rattle with
    x = np.fft.irfft(spectrum * shape, n)
    return (x / np.sqrt(np.mean(x ** 2))).astype(np.float32)


class Ambience:
    """The loop at `level` (0..1), faded towards on or off; `next(frames)` gives float samples."""

    def __init__(self, level: float, rate: int, fade_s: float = FADE_S):
        self.level = float(level)
        self.loop = rain(rate) * (self.level * FULL_RMS)
        self.pos = 0
        self.gain = 0.0
        self.target = 0.0
        self.step = 1.0 / max(1, int(fade_s * rate))

    def set(self, on: bool) -> None:
        self.target = 1.0 if on else 0.0

    @property
    def silent(self) -> bool:
        return self.gain == 0.0 and self.target == 0.0

    def next(self, frames: int) -> np.ndarray | None:
        """The next `frames` samples, or None while off (nothing to add)."""
        if self.silent or self.level <= 0:
            return None
        idx = (self.pos + np.arange(frames)) % len(self.loop)
        self.pos = (self.pos + frames) % len(self.loop)
        direction = 1.0 if self.target > self.gain else -1.0
        ramp = np.clip(self.gain + direction * self.step * np.arange(1, frames + 1), 0.0, 1.0)
        if self.gain == self.target:
            ramp[:] = self.gain
        else:
            ramp = np.minimum(ramp, self.target) if direction > 0 else np.maximum(ramp, self.target)
        self.gain = float(ramp[-1])
        return self.loop[idx] * ramp.astype(np.float32)
