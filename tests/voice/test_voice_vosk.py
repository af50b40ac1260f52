"""The real Vosk engine, with the only Vosk model installable in CI (Korean small model)."""

import numpy as np
import pytest

from narrator.language import Command
from narrator.voice.endpoint import Endpointing, Listener
from narrator.voice.grammar import build_grammar
from voice_support import AUDIO, espeak, korean_model, korean_voice, need_audio, need_module, silence

# every test here drives a real process, server or speech model
pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def engine():
    need_module("vosk", "pip install -e .[speech]")
    from narrator.voice.engines import VoskEngine

    return VoskEngine(korean_model())


@pytest.fixture(scope="module")
def voice():
    return korean_voice()


def listen(engine, voice, phase, audio, stream=None):
    grammar = build_grammar(voice, phase)
    heard = []
    listener = Listener(stream or engine.stream(grammar), grammar, voice, engine.sample_rate, heard.append)
    listener.feed(audio)
    listener.flush()
    return heard


def test_the_model_loads_and_is_known_to_lack_unk(engine):
    assert engine.knows("선수") and engine.knows("취소")
    # without [unk] out-of-grammar speech needs another home: the grammar gets filler words
    assert engine.has_unk is False


def test_grammar_words_missing_from_the_vocabulary_are_dropped_not_garbled(engine, voice):
    grammar = build_grammar(voice, "day").restricted(engine.knows)
    assert "선수 {seat} 번 지명" in grammar.templates
    assert all(engine.knows(f) for f in grammar.fillers)


def test_a_spoken_seat_number_is_heard_through_a_grammar_recogniser(engine, voice, tmp_path):
    clip = np.concatenate([silence(0.5), espeak("오", "ko", tmp_path), silence(1)])
    heard = listen(engine, voice, "seat", clip)
    assert [h.command for h in heard] == [Command("seat", 5)]


def test_one_recogniser_per_grammar_serves_utterance_after_utterance(engine, voice, tmp_path):
    grammar = build_grammar(voice, "seat")
    stream = engine.stream(grammar)
    five = espeak("오", "ko", tmp_path)
    two = espeak("이", "ko", tmp_path)
    audio = np.concatenate([silence(0.5), five, silence(1), two, silence(1), five, silence(1)])
    heard = listen(engine, voice, "seat", audio, stream=stream)
    assert [h.command.seat for h in heard] == [5, 2, 5]


def test_an_utterance_ends_on_a_short_silence(engine, voice, tmp_path):
    cfg = Endpointing()
    clip = np.concatenate([silence(0.5), espeak("오", "ko", tmp_path), silence(3)])
    heard = listen(engine, voice, "seat", clip)
    assert len(heard) == 1
    # closed in the stream long before the three seconds of silence ran out
    assert heard[0].end_of_audio_s - heard[0].last_speech_s <= cfg.silence_ms / 1000 + 0.02


def test_a_spoken_cancel_is_a_day_command(engine, voice, tmp_path):
    clip = np.concatenate([silence(0.5), espeak("취소", "ko", tmp_path), silence(1)])
    assert [h.command for h in listen(engine, voice, "day", clip)] == [Command("cancel")]


def test_speech_that_is_no_command_is_never_heard_as_a_nomination(engine, voice):
    from narrator.voice.audio import read_wav

    need_audio()
    clips = sorted((AUDIO / "negatives-en").glob("*.wav"))[:6]
    for path in clips:
        heard = listen(engine, voice, "day", np.concatenate([read_wav(path, 16000), silence(1)]))
        assert not [h for h in heard if isinstance(h.command, Command) and h.command.kind == "nominate"], path.name
