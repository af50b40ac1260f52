"""Where Vosk models live, and fetching the official small ones with a progress bar and a checksum.

Models are never committed: `narrator models fetch <lang>` downloads the official zip, checks its
size and MD5 against the published model list, and unpacks it into the model folder
(`input.model_dir`, default `./models`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import urllib.request
import zipfile
from pathlib import Path

# the official small models; the list at BASE_URL + model-list.json carries their size and MD5
OFFICIAL = {
    "en": "vosk-model-small-en-us-0.15",
    "ru": "vosk-model-small-ru-0.22",
    "de": "vosk-model-small-de-0.15",
    "sv": "vosk-model-small-sv-rhasspy-0.15",
}
BASE_URL = os.environ.get("NARRATOR_VOSK_URL", "https://alphacephei.com/vosk/models/")


def default_model_dir() -> Path:
    return Path(os.environ.get("NARRATOR_MODELS", "models"))


def model_dir_of(config) -> Path:
    configured = config.section("input")["model_dir"] if config is not None else ""
    return Path(configured) if configured else default_model_dir()


def _is_model(path: Path) -> bool:
    return path.is_dir() and (path / "am").is_dir() and (path / "conf").is_dir()


def find_model(lang: str, model_dir: str | os.PathLike | None = None) -> Path | None:
    """The Vosk model for a language: `<dir>/<lang>/`, the official name, or any `vosk-model-*-<lang>*`."""
    root = Path(model_dir) if model_dir else default_model_dir()
    candidates = [root / lang]
    if lang in OFFICIAL:
        candidates.append(root / OFFICIAL[lang])
    if root.is_dir():
        for p in sorted(root.iterdir()):
            parts = p.name.split("-")
            if p.name.startswith("vosk-model") and (lang in parts or f"{lang}" in {x.split("_")[0] for x in parts}):
                candidates.append(p)
    for c in candidates:
        if _is_model(c):
            return c
    return None


def installed(model_dir: str | os.PathLike | None = None) -> list[tuple[str, Path]]:
    root = Path(model_dir) if model_dir else default_model_dir()
    found = []
    for lang in sorted(set(OFFICIAL) | {"hu", "ko"}):
        p = find_model(lang, root)
        if p is not None:
            found.append((lang, p))
    return found


class FetchError(Exception):
    pass


def _progress(done: int, total: int, out) -> None:
    if not total:
        out.write(f"\r{done / 1e6:7.1f} MB")
    else:
        width = 30
        filled = int(width * done / total)
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done / 1e6:6.1f}/{total / 1e6:.1f} MB")
    out.flush()


def model_info(lang: str, base_url: str = BASE_URL) -> dict:
    if lang not in OFFICIAL:
        raise FetchError(f"no official small Vosk model for {lang!r}; known: {', '.join(sorted(OFFICIAL))}")
    name = OFFICIAL[lang]
    try:
        with urllib.request.urlopen(base_url + "model-list.json", timeout=30) as r:
            listing = json.load(r)
    except (OSError, ValueError) as exc:
        raise FetchError(f"cannot read the model list at {base_url}model-list.json: {exc}") from None
    for entry in listing:
        if entry.get("name") == name:
            return entry
    raise FetchError(f"{name} is not in the official model list")


def fetch(lang: str, model_dir: str | os.PathLike | None = None, base_url: str = BASE_URL, out=sys.stderr) -> Path:
    """Download, verify and unpack the official model for a language; returns its folder."""
    root = Path(model_dir) if model_dir else default_model_dir()
    info = model_info(lang, base_url)
    name = info["name"]
    target = root / name
    if _is_model(target):
        out.write(f"{name} is already in {root}\n")
        return target
    root.mkdir(parents=True, exist_ok=True)
    url = info.get("url") or base_url + name + ".zip"
    md5 = hashlib.md5()
    size = 0
    with tempfile.TemporaryDirectory(dir=root) as tmp:
        zpath = Path(tmp) / (name + ".zip")
        try:
            with urllib.request.urlopen(url, timeout=60) as r, zpath.open("wb") as fh:
                total = int(r.headers.get("Content-Length") or info.get("size") or 0)
                while chunk := r.read(1 << 16):
                    fh.write(chunk)
                    md5.update(chunk)
                    size += len(chunk)
                    _progress(size, total, out)
        except OSError as exc:
            raise FetchError(f"download of {url} failed: {exc}") from None
        out.write("\n")
        if info.get("md5") and md5.hexdigest() != info["md5"]:
            raise FetchError(f"{name}.zip is corrupt: MD5 {md5.hexdigest()}, expected {info['md5']}")
        if info.get("size") and int(info["size"]) != size:
            raise FetchError(f"{name}.zip has {size} bytes, expected {info['size']}")
        try:
            with zipfile.ZipFile(zpath) as z:
                for member in z.namelist():
                    # a zip must not write outside the model folder
                    if member.startswith("/") or ".." in Path(member).parts:
                        raise FetchError(f"{name}.zip holds an unsafe path {member!r}")
                z.extractall(tmp)
        except zipfile.BadZipFile as exc:
            raise FetchError(f"{name}.zip is not a zip file: {exc}") from None
        unpacked = Path(tmp) / name
        if not _is_model(unpacked):
            raise FetchError(f"{name}.zip does not hold a Vosk model folder {name}/")
        shutil.move(str(unpacked), target)
    out.write(f"{name} verified and unpacked into {target}\n")
    return target
