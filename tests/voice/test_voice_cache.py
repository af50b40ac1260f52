"""A full or read-only disk under the speech cache (a Raspberry Pi's read-only card, a home that
filled up) is a line at the console, never a traceback and never a silent narrator: the lines are
rendered when needed and kept in memory."""

import errno
import os
import shutil
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from narrator.config import default_config
from narrator.flow.effects import Say
from narrator.voice import tts
from narrator.voice.tts import Renderer, SpeechOutput
from test_voice_tts import RecordingPlayer
from voice_support import need

# every test here drives a real process, server or speech model
pytestmark = pytest.mark.e2e

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def espeak_ng():
    need("espeak-ng", shutil.which("espeak-ng") is not None, "apt-get install espeak-ng (.ci/apt-packages.txt)")


def test_a_cache_folder_that_cannot_be_made_still_speaks_from_memory(tmp_path):
    (tmp_path / "file").write_text("")
    renderer = Renderer("en-us", 165, 1.0, tmp_path / "file" / "tts")
    assert isinstance(renderer.cache_problem, NotADirectoryError)
    samples = renderer.get("Seven accepted.")
    assert len(samples) > 5000 and samples.any()
    assert renderer.has("Seven accepted.") and renderer.cached("Seven accepted.") is samples


def test_a_disk_that_fills_up_in_the_middle_of_the_game_costs_no_line(tmp_path, monkeypatch):
    renderer = Renderer("en-us", 165, 1.0, tmp_path / "tts")
    assert renderer.cache_problem is None
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def no_space(*args, **kwargs):
        raise full

    player = RecordingPlayer()
    out = SpeechOutput(default_config(), threading.Event(), renderer=renderer, player=player, prerender=False)
    try:
        renderer.get(out.voice.render("night_falls"))  # on the disk while there was room
        out.handle(Say("night_falls"), out.voice.render("night_falls"))
        monkeypatch.setattr(tts.tempfile, "mkstemp", no_space)
        for seat in (3, 7):
            out.handle(Say("nomination_accepted", {"seat": seat}), out.voice.render("nomination_accepted", {"seat": seat}))
        end = time.monotonic() + 20
        while time.monotonic() < end and not all(getattr(p, "ready", threading.Event()).is_set() or isinstance(p, np.ndarray)
                                                 for p in player.played):
            time.sleep(0.05)
    finally:
        out.close()
    heard = [p if isinstance(p, np.ndarray) else p.samples for p in player.played]
    assert len(heard) == 3 and all(h is not None and len(h) > 5000 and h.any() for h in heard)
    assert renderer.cache_problem is full
    assert not list((tmp_path / "tts").glob("*.tmp*")) and len(list((tmp_path / "tts").glob("*.wav"))) == 1


def test_a_game_on_a_read_only_cache_speaks_through_the_sound_device_and_says_why_once(tmp_path):
    """The whole path: `narrator play --voice speech` through ALSA's file plugin, in Russian, with
    the cache's folder where no folder can be made."""
    need("libportaudio2", subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True).returncode == 0,
         "apt-get install libportaudio2 (.ci/apt-packages.txt)")
    speaker = tmp_path / "speaker.raw"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{ type file; slave.pcm "null"; file "{speaker}"; format "raw" }}\n')
    (tmp_path / "cache").write_text("")  # a file where the cache's folder would go
    cfg = tmp_path / "table.toml"
    cfg.write_text('variant = "classic"\nlanguage = "ru"\n[dealing]\nseed = 3\n')
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONUNBUFFERED": "1"}
    play = subprocess.Popen([sys.executable, "-m", "narrator.cli", "play", "--config", str(cfg), "--journal",
                             str(tmp_path / "game.jsonl"), "--voice", "speech", "--no-reveal"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        time.sleep(8)  # the welcome and the first night step are spoken
        out, err = play.communicate("quit\nд\n", timeout=60)
    finally:
        play.kill()
    assert "Traceback" not in err + out
    assert err.count("озвученные фразы нельзя сохранить") == 1 and str(tmp_path / "cache") in err
    sound = np.fromfile(speaker, dtype="<i2")
    assert np.abs(sound).max() > 1000  # the narrator was heard
