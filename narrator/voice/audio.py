"""Audio plumbing: WAV files, resampling, noise mixing, and the sounddevice devices."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from .errors import AudioUnavailable

FALLBACK = "play with --voice text and type the commands instead"


def read_wav(path: str | Path, rate: int) -> np.ndarray:
    """A WAV file as int16 mono samples at `rate` (averaging channels, resampling linearly)."""
    try:
        with wave.open(str(path), "rb") as w:
            channels, width, src_rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            raw = w.readframes(w.getnframes())
    except (wave.Error, EOFError) as exc:
        raise ValueError(f"{path}: not a PCM WAV file ({str(exc) or 'empty, or cut short in its header'})") from None
    if width == 2:
        x = np.frombuffer(raw, dtype="<i2").astype(np.float32)
    elif width == 1:
        x = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128) * 256
    elif width == 4:
        x = np.frombuffer(raw, dtype="<i4").astype(np.float32) / 65536
    else:
        raise ValueError(f"{path}: {8 * width}-bit samples are not supported; use 16-bit PCM")
    if channels > 1:
        x = x[: len(x) // channels * channels]  # a file cut mid-frame: its last partial frame is dropped
        x = x.reshape(-1, channels).mean(axis=1)
    return to_int16(resample(x, src_rate, rate))


def resample(x: np.ndarray, src: int, dst: int) -> np.ndarray:
    if src == dst or len(x) == 0:
        return x
    n = int(round(len(x) * dst / src))
    return np.interp(np.arange(n) * (src / dst), np.arange(len(x)), x).astype(np.float32)


def to_int16(x: np.ndarray) -> np.ndarray:
    return np.clip(np.round(x), -32768, 32767).astype(np.int16)


def mix_noise(speech: np.ndarray, noise: np.ndarray, snr_db: float, offset: int = 0) -> np.ndarray:
    """Speech with noise added at a signal-to-noise ratio measured over the speech's loud part."""
    s = speech.astype(np.float32)
    reps = int(np.ceil((len(s) + offset) / max(1, len(noise)))) + 1
    n = np.tile(noise.astype(np.float32), reps)[offset:offset + len(s)]
    loud = s[np.abs(s) > 0.05 * (np.abs(s).max() + 1e-9)]
    p_s = np.mean(loud ** 2) if len(loud) else np.mean(s ** 2)
    p_n = np.mean(n ** 2) + 1e-9
    n *= np.sqrt(p_s / (p_n * 10 ** (snr_db / 10)))
    return to_int16(s + n)


# ---------------------------------------------------------------------------------- devices
def _sd():
    try:
        import sounddevice as sd
    except OSError as exc:  # PortAudio itself is missing
        raise AudioUnavailable(f"no audio system (PortAudio: {exc}); install it with scripts/install.sh "
                               f"or sudo apt-get install libportaudio2; {FALLBACK}",
                               "no_audio_system", True, error=str(exc)) from None
    return sd


def list_devices() -> list[dict]:
    sd = _sd()
    out = []
    default_in, default_out = sd.default.device
    for i, d in enumerate(sd.query_devices()):
        out.append({
            "index": i, "name": d["name"], "inputs": d["max_input_channels"], "outputs": d["max_output_channels"],
            "default_rate": d["default_samplerate"],
            "default_input": i == default_in, "default_output": i == default_out,
        })
    return out


def resolve_device(spec: str, kind: str) -> int | None:
    """The device index for a config value (empty: the system default); a clear error when absent."""
    sd = _sd()
    what = "microphone" if kind == "input" else "speaker"
    key = "[input] microphone" if kind == "input" else "[voice] device"
    channels = "max_input_channels" if kind == "input" else "max_output_channels"
    try:
        devices = sd.query_devices()
    except Exception as exc:  # noqa: BLE001 - PortAudio reports every failure its own way
        raise AudioUnavailable(f"cannot list audio devices ({exc}); {FALLBACK}", "cannot_list_devices", True,
                               error=str(exc)) from None
    spec = str(spec).strip()
    if not spec:
        try:
            sd.query_devices(kind=kind)
        except Exception:  # noqa: BLE001
            raise AudioUnavailable(f"no {what} found (no default {kind} device); connect one, or name it in {key} "
                                  f"(narrator devices lists them); {FALLBACK}", f"no_{what}", True) from None
        return None
    if spec.isdecimal() and len(spec) <= 4:  # "³".isdigit() holds but int("³") raises
        i = int(spec)
        if i < len(devices) and devices[i][channels] > 0:
            return i
        raise AudioUnavailable(f"there is no {what} number {i} (see: narrator devices); {FALLBACK}", f"no_{what}_number",
                               True, number=i)
    matches = [i for i, d in enumerate(devices) if spec.lower() in d["name"].lower() and d[channels] > 0]
    if not matches:
        raise AudioUnavailable(f"no {what} named {spec!r} (see: narrator devices); {FALLBACK}", f"no_{what}_named", True,
                               name=repr(spec))
    return matches[0]
