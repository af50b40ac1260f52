import threading

import pytest

from narrator.config import default_config
from narrator.flow.effects import Record, Reject, Say, Tell, Timer
from narrator.voice.tts import Renderer, SpeechOutput
from voice_support import need


class RecordingPlayer:
    def __init__(self):
        self.played = []

    def play(self, samples):
        self.played.append(samples)

    def close(self):
        pass


@pytest.fixture
def renderer(tmp_path):
    import shutil

    need("espeak-ng", shutil.which("espeak-ng") is not None, "apt-get install espeak-ng (.ci/apt-packages.txt)")
    return Renderer("en-us", 165, 1.0, tmp_path / "tts")


def output(renderer, player):
    return SpeechOutput(default_config(), threading.Event(), renderer=renderer, player=player, prerender=False)


def test_a_line_is_rendered_once_and_then_served_from_the_disk_cache(renderer, tmp_path):
    samples = renderer.get("Seven accepted.")
    assert len(samples) > 5000 and samples.any()
    files = list((tmp_path / "tts").glob("*.wav"))
    assert len(files) == 1
    again = Renderer("en-us", 165, 1.0, tmp_path / "tts")
    again._render = lambda text, path: pytest.fail("rendered again although cached")
    assert (again.get("Seven accepted.") == samples).all()


def test_the_cache_key_includes_the_voice_and_rate(renderer):
    assert renderer.key("x") != Renderer("ru", 165, 1.0, renderer.cache_dir).key("x")
    assert renderer.key("x") != Renderer("en-us", 200, 1.0, renderer.cache_dir).key("x")


def test_public_lines_are_spoken_and_secrets_never(renderer):
    player = RecordingPlayer()
    out = output(renderer, player)
    out.handle(Tell(3, "check_mafia", {"seat": 5}), "Player 5 is MAFIA.")
    out.handle(Reject("reject_not_awake", {"seat": 2}, seat=2), "Seat 2, it is not your turn to act.")
    out.handle(Timer("speech", 60), None)
    out.handle(Record({"type": "x"}), None)
    assert player.played == []
    out.handle(Say("nomination_accepted", {"seat": 7}), "7 accepted.")
    out.handle(Reject("reject_no_speech"), "Nobody is speaking now.")
    assert len(player.played) == 2


def test_lines_with_a_seat_number_are_rendered_ahead_for_every_seat_and_no_check_result(renderer):
    out = output(renderer, RecordingPlayer())
    texts = out.public_texts()
    assert "7 accepted." in texts and "10 accepted." in texts
    assert "Player 3, you have one minute." in texts
    assert not any("MAFIA" in t or "Sheriff." in t and "IS" in t for t in texts)


def test_without_a_speaker_the_error_names_the_text_fallback(monkeypatch):
    from types import SimpleNamespace

    from narrator.voice import AudioUnavailable, audio, make_speech_output

    def no_device(*args, **kwargs):
        raise RuntimeError("Error querying device -1")

    monkeypatch.setattr(audio, "_sd", lambda: SimpleNamespace(query_devices=no_device))
    live = SimpleNamespace(narrating=threading.Event())
    with pytest.raises(AudioUnavailable, match="--voice text"):
        make_speech_output(default_config(), live)
