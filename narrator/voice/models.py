"""Where Vosk models live, and fetching the official small ones with a progress bar, a checksum
and resume (`download`, which `narrator voices fetch` uses for Piper voices too).

Models are never committed: `narrator models fetch <lang>` downloads the official zip, checks its
size and MD5 against the published model list, and unpacks it into the model folder
(`input.model_dir`, default the checkout's `models/`, see `default_model_dir`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.parse
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
    """$NARRATOR_MODELS; else the checkout's own `models/` (where scripts/install.sh puts the game),
    whatever folder the game is started from — a model fetched once is found from anywhere; else
    (installed without a checkout) the user's data folder, beside the club's record."""
    if env := os.environ.get("NARRATOR_MODELS"):
        return Path(env)
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "narrator").is_dir():
        return checkout / "models"
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "narrator" / "models"


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


def read_json(url: str, what: str):
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return json.load(r)
    except urllib.error.URLError as exc:
        raise FetchError(offline(url, exc, what)) from None
    except (OSError, ValueError) as exc:
        raise FetchError(f"cannot read {what} at {url}: {exc}") from None


def offline(url: str, exc: Exception, what: str) -> str:
    reason = getattr(exc, "reason", exc)
    host = urllib.parse.urlsplit(url).netloc or url
    return (f"cannot reach {host} for {what} ({reason}): is this machine offline? Try again once it is online "
            "(a broken download resumes where it stopped)")


def _hashed(path: Path):
    """The MD5 of a file's bytes so far (a hashlib object: a download goes on updating it)."""
    digest = hashlib.md5()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest


def download(url: str, dest: Path, size: int | None = None, md5: str | None = None, out=sys.stderr) -> Path:
    """`url` into `dest` with a progress bar, resuming `dest.part` from where a broken download stopped;
    the size and MD5 are checked before the file takes its name, and a corrupt file is thrown away."""
    part = dest.with_name(dest.name + ".part")
    have = part.stat().st_size if part.exists() else 0
    if size and have > size:
        part.unlink()
        have = 0
    digest = _hashed(part) if have else hashlib.md5()  # a resumed download goes on from the part's bytes
    if not (size and have == size):
        request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
        try:
            with urllib.request.urlopen(request, timeout=60) as r:
                if have and r.status != 206:  # the server sends the whole file: start again
                    have, digest = 0, hashlib.md5()
                mode = "ab" if have else "wb"
                length = int(r.headers.get("Content-Length") or 0)
                total = size or (have + length if length else 0)
                done = have
                with part.open(mode) as fh:
                    while chunk := r.read(1 << 16):
                        fh.write(chunk)
                        digest.update(chunk)
                        done += len(chunk)
                        _progress(done, total, out)
        except urllib.error.HTTPError as exc:
            if exc.code == 416 and size and have == size:
                pass  # already whole
            else:
                raise FetchError(f"download of {url} failed: {exc}") from None
        except urllib.error.URLError as exc:
            raise FetchError(offline(url, exc, dest.name)) from None
        except OSError as exc:
            raise FetchError(f"download of {url} stopped ({exc}); run the same command again to resume it") from None
        out.write("\n")
    got = part.stat().st_size
    if size and got != size:
        if got > size:
            part.unlink()
        raise FetchError(f"{dest.name} has {got} bytes, expected {size}; run the same command again to resume it")
    if md5 and digest.hexdigest() != md5:
        part.unlink()
        raise FetchError(f"{dest.name} is corrupt: MD5 {digest.hexdigest()}, expected {md5}; it was deleted, fetch it again")
    os.replace(part, dest)
    return dest


def model_info(lang: str, base_url: str = BASE_URL) -> dict:
    """The published entry of a language's official model (`fetch` has checked that there is one)."""
    name = OFFICIAL[lang]
    listing = read_json(base_url + "model-list.json", "the model list")
    for entry in listing:
        if entry.get("name") == name:
            return entry
    raise FetchError(f"{name} is not in the official model list")


def fetch(lang: str, model_dir: str | os.PathLike | None = None, base_url: str | None = None, out=sys.stderr,
          zip_file: str | os.PathLike | None = None) -> Path:
    """Download, verify and unpack the official model for a language; returns its folder. With
    `zip_file`, the official zip copied over from another machine is verified (when the model list
    can be reached) and unpacked instead of downloaded."""
    root = Path(model_dir) if model_dir else default_model_dir()
    base_url = base_url or BASE_URL
    if lang not in OFFICIAL:
        raise FetchError(f"no official small Vosk model for {lang!r}; known: {', '.join(sorted(OFFICIAL))}")
    name = OFFICIAL[lang]
    target = root / name
    if _is_model(target):
        out.write(f"{name} is already in {root.resolve()}\n")
        return target
    if zip_file is not None:
        return _install_copied(lang, Path(zip_file), root, base_url, out)
    try:
        info = model_info(lang, base_url)
    except FetchError as exc:
        if "offline" in str(exc):
            raise FetchError(f"{exc}, or download {base_url}{name}.zip on a machine with a network, bring "
                             f"it here and run: narrator models fetch {lang} --zip {name}.zip "
                             f"(it is unpacked into {root.resolve()})") from None
        raise
    root.mkdir(parents=True, exist_ok=True)
    url = info.get("url") or base_url + name + ".zip"
    zpath = download(url, root / (name + ".zip"), int(info["size"]) if info.get("size") else None, info.get("md5"), out)
    if not zipfile.is_zipfile(zpath):
        zpath.unlink()
        raise FetchError(f"{name}.zip as downloaded is not a zip file; it was deleted, fetch it again")
    _unpack(zpath, root, name)
    zpath.unlink()
    out.write(f"{name} verified and unpacked into {target.resolve()}\n")
    return target


def _install_copied(lang: str, zpath: Path, root: Path, base_url: str, out) -> Path:
    """The official zip brought over by hand: its size and MD5 are checked against the published list
    when it can be reached (offline, the zip's own structure is all there is to check, and that is
    said); the user's file is left where it is."""
    name = OFFICIAL[lang]
    if not zpath.is_file():
        raise FetchError(f"{zpath} is not a file: name the {name}.zip you brought over")
    try:
        info = model_info(lang, base_url)
    except FetchError as exc:
        if "offline" not in str(exc):
            raise
        info = None
    if info is not None:
        size = int(info["size"]) if info.get("size") else None
        if size and zpath.stat().st_size != size:
            raise FetchError(f"{zpath} has {zpath.stat().st_size} bytes, the official {name}.zip {size}: "
                             "an unfinished or different download")
        if info.get("md5"):
            md5 = _hashed(zpath).hexdigest()
            if md5 != info["md5"]:
                raise FetchError(f"{zpath} is corrupt: MD5 {md5}, expected {info['md5']}")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FetchError(f"cannot make the model folder {root.resolve()}: {exc.strerror or exc}") from None
    _unpack(zpath, root, name)
    checked = "verified and " if info is not None else "(not checked against the published MD5: the model list cannot be reached) "
    out.write(f"{name} {checked}unpacked into {(root / name).resolve()}\n")
    return root / name


def _unpack(zpath: Path, root: Path, name: str) -> None:
    """`zpath`'s model folder `name` moved into `root`, or nothing at all (unpacked beside it first)."""
    try:
        with tempfile.TemporaryDirectory(dir=root) as tmp:
            try:
                with zipfile.ZipFile(zpath) as z:
                    for member in z.namelist():
                        # a zip must not write outside the model folder
                        if member.startswith("/") or ".." in Path(member).parts:
                            raise FetchError(f"{zpath.name} holds an unsafe path {member!r}")
                    z.extractall(tmp)
            except zipfile.BadZipFile as exc:
                raise FetchError(f"{zpath.name} is not a zip file: {exc}") from None
            unpacked = Path(tmp) / name
            if not _is_model(unpacked):
                raise FetchError(f"{zpath.name} does not hold a Vosk model folder {name}/")
            shutil.move(str(unpacked), root / name)
    except OSError as exc:  # a full or read-only disk
        raise FetchError(f"cannot unpack {zpath.name} into {root.resolve()}: {exc.strerror or exc}") from None
