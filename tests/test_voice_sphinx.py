"""PocketSphinx (bundled en-us model) on real recorded English digits, and the path from a WAV file
through the recogniser into the game core."""

import random

import numpy as np
import pytest

from narrator.config import default_config
from narrator.flow.effects import Say
from narrator.flow.events import EndSpeech, Nominate, Timeout
from narrator.language import Command, load_voice
from narrator.session import Session
from narrator.voice.audio import mix_noise, read_wav
from narrator.voice.endpoint import Listener
from narrator.voice.grammar import build_grammar
from voice_support import AUDIO, espeak, fsdd, need_audio, need_module, silence

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


@pytest.fixture(scope="module")
def engine():
    need_module("pocketsphinx", "pip install -e .[speech]")
    from narrator.voice.engines import SphinxEngine

    return SphinxEngine()


@pytest.fixture(scope="module")
def voice():
    return load_voice("en")


def hear(engine, voice, phase, audio, noise=None, snr_db=None, offset=0):
    grammar = build_grammar(voice, phase)
    heard = []
    listener = Listener(engine.stream(grammar), grammar, voice, engine.sample_rate, heard.append)
    audio = np.concatenate([silence(0.5), audio, silence(1)])
    if noise is not None:
        # the kitchen is loud before, during and after the word, as a room is
        audio = mix_noise(audio, noise, snr_db, offset)
    listener.feed(audio)
    listener.flush()
    return [h.command for h in heard if isinstance(h.command, Command)]


def sample(per_digit=3):
    return [(d, p) for d in range(1, 10) for p in fsdd(d, per_digit)]


def test_most_real_spoken_seat_numbers_are_heard_right(engine, voice):
    # a floor against regressions; the benchmark measures the real figure on every clip
    clips = sample()
    right = sum(hear(engine, voice, "seat", read_wav(p, 16000)) == [_seat(d)] for d, p in clips)
    assert right / len(clips) >= 0.4


def test_a_seat_number_is_never_heard_as_a_different_kind_of_command(engine, voice):
    for d, p in sample(1):
        for cmd in hear(engine, voice, "seat", read_wav(p, 16000)):
            assert cmd.kind == "seat"


def test_kitchen_noise_alone_is_never_heard_as_a_day_command(engine, voice):
    need_audio()
    noise = read_wav(AUDIO / "noise" / "kitchen.wav", 16000)[: 16000 * 8]
    assert hear(engine, voice, "day", noise) == []


def _seat(d):
    return Command("seat", d)


def day_session():
    session = Session(default_config())
    session.start()
    session.feed(session.dealing_event(random.Random(1)))
    while session.game.floor is None:
        session.feed(Timeout())
    return session


def test_a_heard_seat_number_nominates_through_the_game_core(engine, voice):
    """WAV → recogniser → the sentence a transcript's `say` line holds → Session → narrator's answer."""
    session = day_session()
    speaker = session.game.floor
    path = next(p for p in fsdd(7, 12) if hear(engine, voice, "seat", read_wav(p, 16000)) == [_seat(7)])
    (cmd,) = hear(engine, voice, "seat", read_wav(path, 16000))
    sentence = f"i'm submitting player number {voice.numbers[cmd.seat][0]}"
    event = session.hear(sentence)
    assert event == Nominate(7)
    effects = session.feed(event)
    assert Say("nomination_accepted", {"seat": 7}) in effects
    assert session.game.nominations == [(speaker, 7)]


def test_a_spoken_thank_you_ends_the_speech(engine, voice, tmp_path):
    session = day_session()
    first = session.game.floor
    (cmd,) = hear(engine, voice, "day", espeak("thank you", "en-us", tmp_path))
    assert cmd == Command("end_speech")
    event = session.hear("thank you")
    assert event == EndSpeech(None)
    session.feed(event)
    assert session.game.floor != first


# ------------------------------------------------------------------ rejecting ordinary talk
def negatives(every=6):
    """A fixed spread of the real coffee orders: speech full of numbers that is no game command."""
    files = sorted((need_audio() / "negatives-en").glob("*.wav"))
    assert files, "negatives-en recordings missing"
    return files[::every]


def test_real_speech_full_of_numbers_never_nominates_anyone(engine, voice):
    # before the acoustic gate these coffee orders came out as "i nominate fifteen" and the like
    for path in negatives():
        x = read_wav(path, 16000)
        for cmd in hear(engine, voice, "day", x):
            assert cmd.kind not in ("nominate", "revoke"), (path.name, cmd)


def test_the_gate_rejects_a_forced_nomination_and_keeps_the_words_heard(engine, voice):
    from narrator.voice.endpoint import Endpointing

    grammar = build_grammar(voice, "day")
    path = AUDIO / "negatives-en" / "253b08c9-e468-4e4d-8036-3720fb827f2d.wav"
    need_audio()
    audio = np.concatenate([read_wav(path, 16000), silence(1)])
    for gate, expect_nomination in ((-1e9, True), (Endpointing().min_word_score, False)):
        heard = []
        listener = Listener(engine.stream(grammar), grammar, voice, 16000, heard.append,
                            Endpointing(min_word_score=gate))
        listener.feed(audio)
        listener.flush()
        nominations = [h for h in heard if isinstance(h.command, Command) and h.command.kind == "nominate"]
        assert bool(nominations) == expect_nomination, [h.text for h in heard]


def test_a_file_padded_with_digital_silence_is_still_heard(engine, voice):
    # the dither replacing exact zeros must look like silence, not like a repeated sound:
    # a fixed 10 ms pattern made a third of these clips come out empty
    clips = [(d, p) for d in (2, 3, 6, 8) for p in fsdd(d, 4, seed=11)]
    empty = 0
    for d, p in clips:
        grammar = build_grammar(voice, "seat")
        heard = []
        listener = Listener(engine.stream(grammar), grammar, voice, 16000, heard.append)
        listener.feed(np.concatenate([silence(0.5), read_wav(p, 16000), silence(1)]))
        listener.flush()
        empty += any(h.text == "" for h in heard)
    assert empty <= len(clips) // 4
