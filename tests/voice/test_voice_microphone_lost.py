"""A microphone that stops delivering in the middle of a game (a USB microphone pulled out, a
loose cable) is said to the table — with where nominations are made until it is back — and its
return too; the table is never left talking to a deaf narrator. Played through the real
sounddevice → PortAudio → ALSA path, ALSA's file plugin reading the microphone from a FIFO that
stops being fed."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from test_voice_play import CONFIG, Microphone
from voice_support import need, need_module

# every test here drives a real process, server or speech model
pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


class FakeInput:
    """What the Microphone hands its blocks to."""

    def __init__(self):
        self.engine = type("E", (), {"sample_rate": 16000})()
        self.fed = 0

    def accepting(self):
        return True

    def feed(self, block, accepting=True):
        self.fed += 1


def test_no_audio_for_a_while_is_the_microphone_lost_and_audio_again_is_it_back(monkeypatch):
    import numpy as np
    import sounddevice as sd

    from narrator.voice.mic import Microphone as Mic

    streams = []

    class Stream:
        def __init__(self, callback, **kwargs):
            self.callback = callback
            streams.append(self)

        def start(self):
            pass

        def stop(self):
            pass

        def close(self):
            pass

    monkeypatch.setattr(sd, "InputStream", Stream)
    said = []
    changed = threading.Condition()

    def on_change(working):
        with changed:
            said.append(working)
            changed.notify_all()

    def until(expected, what):
        with changed:
            assert changed.wait_for(lambda: said == expected, timeout=10), f"{what}: {said}"

    lost_after = 0.3
    mic = Mic(FakeInput(), None, on_change=on_change, lost_after=lost_after)
    block = np.zeros((320, 1), np.int16)
    plugged = threading.Event()
    done = threading.Event()

    def card():
        # a live stream delivers a block every 20 ms, silence or not, for as long as it is plugged in
        while not done.is_set():
            if plugged.wait(0.02):
                streams[0].callback(block, 320, None, None)
                time.sleep(0.02)

    feeder = threading.Thread(target=card, daemon=True)
    plugged.set()
    feeder.start()
    try:
        time.sleep(3 * lost_after)
        assert said == [], "a microphone that delivers silence is not lost"
        plugged.clear()  # nothing at all, not even silence
        until([False], "the microphone that delivers nothing is said to be lost")
        time.sleep(3 * lost_after)
        assert said == [False], "said once, not every time it is still gone"
        plugged.set()
        until([False, True], "the microphone that delivers again is said to be back")
    finally:
        mic.stop()
        done.set()
        feeder.join()
    assert said == [False, True], "stopping the microphone at the end of the game is no lost microphone"


def test_a_microphone_pulled_out_in_the_middle_of_the_day_is_said_and_so_is_its_return(tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    need("libportaudio2", subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True).returncode == 0,
         "apt-get install libportaudio2 (.ci/apt-packages.txt)")
    fifo = tmp_path / "mic-in.raw"
    mic = Microphone(fifo)
    (tmp_path / ".asoundrc").write_text(
        "pcm.!default {\n  type asym\n"
        f'  playback.pcm {{ type file; slave.pcm "null"; file "{tmp_path / "speaker.raw"}"; format "raw" }}\n'
        f'  capture.pcm  {{ type file; slave.pcm "null"; file "/dev/null"; infile "{fifo}"; format "raw" }}\n'
        "}\n")
    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG)
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONUNBUFFERED": "1"}
    play = subprocess.Popen([sys.executable, "-m", "narrator.cli", "play", "--config", str(cfg), "--journal",
                             str(tmp_path / "journal.jsonl"), "--voice", "text", "--listen", "--no-reveal"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(play.stdout.readline, "")), daemon=True).start()

    def wait_for(text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and play.poll() is None:
            if text in " ".join(" ".join(lines).split()):
                return
            time.sleep(0.1)
        raise AssertionError(f"never printed {text!r}:\n" + "".join(lines[-30:]))

    try:
        play.stdin.write("timeout\ntimeout\ntimeout\n")  # night zero
        play.stdin.flush()
        wait_for("Player 1, you have")
        assert "gone silent" not in " ".join(lines)
        mic.unplugged.set()
        wait_for("The microphone has gone silent: is it unplugged? Until it is back, nominations are typed at the console.")
        play.stdin.write("say I nominate player 7\n")  # the way on the narrator named
        play.stdin.flush()
        wait_for("7 accepted")
        mic.unplugged.clear()
        wait_for("The microphone is back: I am listening again.")
        play.stdin.write("quit\ny\n")
        play.stdin.flush()
        play.wait(timeout=30)
    finally:
        play.kill()
        mic.close()
    err = play.stderr.read()
    assert "Traceback" not in err and " ".join(lines).count("gone silent") == 1
