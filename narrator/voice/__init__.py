"""The voice adapter: offline speech in (Vosk or PocketSphinx) and speech out (espeak-ng or Piper, with the night's masking sound),
through sounddevice. `narrator play` calls `make_speech_output` and `start_listening`."""

from __future__ import annotations

from .errors import AudioUnavailable, ModelMissing, VoiceError


def make_speech_output(config, live):
    """An output adapter that speaks every public line; raises AudioUnavailable without a speaker."""
    from .tts import SpeechOutput

    game = getattr(live, "game", None)
    return SpeechOutput(config, live.narrating, night=getattr(game, "state", None) == "night")


def start_listening(config, live, host_screen: bool = False):
    """Listen to the microphone and submit heard commands to `live`; returns an object with `.stop()`.
    `host_screen`: a lost microphone names the host screen beside the console as the way on."""
    from .mic import start_listening as start

    return start(config, live, host_screen)


__all__ = ["AudioUnavailable", "ModelMissing", "VoiceError", "make_speech_output", "start_listening"]
