"""A day of `narrator play --listen --voice speech` heard through a microphone and spoken through a
speaker: the real sounddevice → PortAudio → ALSA path, with ALSA's file plugin standing in for the
sound card (../shared/audio/README.md). The microphone is a FIFO fed in real time; when a player
has the floor somebody says "thank you" into it, which ends that speech as the typed
`say thank you` would, and the narration comes out of the speaker file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from narrator.flow.events import EndSpeech, Nominate
from narrator.journal import read
from alsa_support import PlayedAloud
from voice_support import espeak, need, need_audio, need_module, silence


CONFIG = """variant = "classic"
language = "en"
[dealing]
roles = { 1 = "sheriff", 2 = "don", 3 = "mafia", 4 = "mafia" }
[timers]       # long enough that only what is said or typed ends a phase
speech = 600
night_step = 120
night_zero_step = 120
mafia_meeting = 300
[voice]
rate = 320     # the null device plays in real time: a brisk narrator keeps the test short
[input]
engine = "sphinx"
"""


class Microphone:
    """A FIFO as ALSA's capture file, fed in real time: the file plugin reads as fast as it is
    given, so a plain file would be used up before the day begins."""

    def __init__(self, path: Path):
        os.mkfifo(path)
        self.fd = os.open(path, os.O_RDWR)  # a writer exists, so ALSA's open does not block
        self.say: list[np.ndarray] = []
        self.stop = threading.Event()
        self.unplugged = threading.Event()  # set: nothing comes through, as from a pulled plug
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        block = 320  # 20 ms
        pending = np.zeros(0, np.int16)
        next_at = time.monotonic()
        while not self.stop.is_set():
            if self.unplugged.is_set():
                time.sleep(0.02)
                next_at = time.monotonic()
                continue
            if not len(pending) and self.say:
                pending = self.say.pop(0)
            chunk, pending = (pending[:block], pending[block:]) if len(pending) else (silence(0.02), pending)
            try:
                os.write(self.fd, chunk.astype("<i2").tobytes())
            except OSError:
                return
            next_at += 0.02
            time.sleep(max(0.0, next_at - time.monotonic()))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        os.close(self.fd)


def unsure_nomination(tmp_path: Path) -> np.ndarray:
    from narrator.voice.audio import read_wav
    carrier = espeak("I nominate player", "en-us", tmp_path)
    carrier = carrier[: np.nonzero(np.abs(carrier) > 200)[0][-1] + 1]
    three = read_wav(need_audio() / "digits-en" / "fsdd" / "3_george_49.wav", 16000).astype(np.float32)
    three *= np.abs(carrier).max() / np.abs(three).max()  # the same speaker's level
    return np.concatenate([carrier, three.astype(np.int16), silence(1)])


@pytest.mark.realtime
@pytest.mark.e2e
def test_a_day_of_narrator_play_is_heard_and_spoken_through_the_sound_devices(tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    need("libportaudio2", subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True).returncode == 0,
         "apt-get install libportaudio2 (.ci/apt-packages.txt)")
    need("espeak-ng", shutil.which("espeak-ng") is not None, "apt-get install espeak-ng")
    thanks = np.concatenate([espeak("thank you", "en-us", tmp_path), silence(1)])
    nominate = np.concatenate([espeak("I nominate player three", "en-us", tmp_path), silence(1)])
    # "I nominate player" and a real player's "three", which PocketSphinx hears as "eight" and
    # Whisper, unsure, as "three": nothing is taken, the player is asked for the seat again and
    # answers with the number alone
    unsure = unsure_nomination(tmp_path)
    five = np.concatenate([espeak("five", "en-us", tmp_path), silence(1)])
    # a real player's "five" that PocketSphinx and Whisper hear differently even alone: the number
    # is asked for once more, never the whole sentence (the listener hears numbers alone then)
    from narrator.voice.audio import read_wav
    doubted_five = read_wav(need_audio() / "digits-en" / "fsdd" / "5_george_33.wav", 16000).astype(np.float32)
    doubted_five *= np.abs(five).max() / np.abs(doubted_five).max()
    doubted_five = np.concatenate([doubted_five.astype(np.int16), silence(1)])
    speaker = tmp_path / "speaker-out.raw"
    fifo = tmp_path / "mic-in.raw"
    mic = Microphone(fifo)
    (tmp_path / ".asoundrc").write_text(
        "pcm.!default {\n  type asym\n"
        f'  playback.pcm {{ type file; slave.pcm "null"; file "{speaker}"; format "raw" }}\n'
        f'  capture.pcm  {{ type file; slave.pcm "null"; file "/dev/null"; infile "{fifo}"; format "raw" }}\n'
        "}\n")
    cfg = tmp_path / "club.toml"
    cfg.write_text(CONFIG)
    journal = tmp_path / "journal.jsonl"
    play = PlayedAloud(tmp_path, cfg, journal)
    wait_for = play.wait_for

    try:
        play.type("timeout\ntimeout\ntimeout\n")  # night zero: Don, mafia, Sheriff
        seen = wait_for("Player 1, you have")
        time.sleep(3.0)  # the narrator finishes the line (it hears nothing while it talks)
        mic.say.append(nominate)
        seen = wait_for("3 accepted", seen)
        time.sleep(2.0)
        mic.say.append(thanks)
        seen = wait_for("Player 2, you have", seen)
        time.sleep(3.0)
        mic.say.append(unsure)
        seen = wait_for("Which seat was that? Say the number again.", seen)
        time.sleep(3.0)
        mic.say.append(doubted_five)
        seen = wait_for("Which seat was that? Say the number again.", seen)
        time.sleep(3.0)
        mic.say.append(five)  # the number alone completes player 2's nomination
        seen = wait_for("5 accepted", seen)
        time.sleep(2.0)
        mic.say.append(thanks)
        seen = wait_for("Player 3, you have", seen)
        time.sleep(3.0)
        mic.say.append(thanks)
        wait_for("Player 4, you have", seen)
    finally:
        play.stop()
        mic.close()
    assert not any("Say the whole sentence again" in line for line in play.lines)
    events = read(journal).events
    assert [e for e in events if isinstance(e, Nominate)] == [Nominate(3), Nominate(5)]
    assert len([e for e in events if isinstance(e, EndSpeech)]) == 3  # each by its own "thank you"
    assert speaker.stat().st_size > 16000 * 2 * 5  # seconds of narration reached the speaker
