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
from voice_support import AUDIO, espeak, fsdd, need, need_audio, need_module, silence

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


@pytest.fixture(scope="module")
def engine():
    need_module("pocketsphinx", "pip install -e .[speech]")
    from narrator.voice.engines import SphinxEngine

    return SphinxEngine()


@pytest.fixture(scope="module")
def engine_alone():
    """PocketSphinx without the digits-only second opinion: the gates of its own, seen alone."""
    need_module("pocketsphinx", "pip install -e .[speech]")
    from narrator.voice.engines import SphinxEngine

    return SphinxEngine(second_opinion=False)


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


@pytest.mark.e2e
def test_most_real_spoken_seat_numbers_are_heard_right(engine, voice):
    # a floor against regressions; the benchmark measures the real figure on every clip
    clips = sample()
    right = sum(hear(engine, voice, "seat", read_wav(p, 16000)) == [_seat(d)] for d, p in clips)
    assert right / len(clips) >= 0.4


@pytest.mark.e2e
def test_a_seat_number_is_never_heard_as_a_different_kind_of_command(engine, voice):
    for d, p in sample(1):
        for cmd in hear(engine, voice, "seat", read_wav(p, 16000)):
            assert cmd.kind == "seat"


@pytest.mark.e2e
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


@pytest.mark.e2e
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


@pytest.mark.e2e
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


@pytest.mark.e2e
@pytest.mark.parametrize("part", range(3))  # three thirds of the same spread, heard side by side
def test_real_speech_full_of_numbers_never_nominates_anyone(engine, voice, part):
    # before the acoustic gate these coffee orders came out as "i nominate fifteen" and the like
    for path in negatives()[part::3]:
        x = read_wav(path, 16000)
        for cmd in hear(engine, voice, "day", x):
            assert cmd.kind not in ("nominate", "revoke"), (path.name, cmd)


def heard_in_negative(engine, voice, name, config, kind="nominate"):
    """The sentences of one kind the day grammar hears in a non-command clip."""
    grammar = build_grammar(voice, "day")
    need_audio()
    audio = np.concatenate([read_wav(AUDIO / "negatives-en" / name, 16000), silence(1)])
    heard = []
    listener = Listener(engine.stream(grammar), grammar, voice, 16000, heard.append, config)
    listener.feed(audio)
    listener.flush()
    return [h.text for h in heard if isinstance(h.command, Command) and h.command.kind == kind]


@pytest.mark.e2e
def test_the_score_gate_rejects_talk_forced_onto_a_nomination(engine_alone, voice):
    engine = engine_alone
    from narrator.voice.endpoint import Endpointing

    # a coffee order that the grammar, having no garbage model, forces into a nomination when the
    # utterance closes 150 ms into a pause ("im putting up player twelve"; at 120 ms it is cut
    # elsewhere and forced into nothing)
    name = "1cf61395-1205-46c4-bf1c-2e43dd489455.wav"
    assert heard_in_negative(engine, voice, name, Endpointing(min_word_score=-1e9, max_word_ms=1e9, quick_silence_ms=150, look_every_ms=75))
    assert not heard_in_negative(engine, voice, name, Endpointing(max_word_ms=1e9, quick_silence_ms=150, look_every_ms=75))


@pytest.mark.e2e
def test_a_word_stretched_over_a_second_of_talk_names_no_seat(engine_alone, voice):
    engine = engine_alone
    from narrator.voice.endpoint import Endpointing

    # "... for the vote" with "vote" covering the rest of the order: the words fit well enough,
    # but no command word lasts a second
    name = "165bced7-3ecc-41f3-acf8-e584141f0379.wav"
    assert heard_in_negative(engine, voice, name, Endpointing(min_word_score=-1e9, max_word_ms=1e9))
    assert not heard_in_negative(engine, voice, name, Endpointing(min_word_score=-1e9))


@pytest.mark.e2e
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


@pytest.mark.e2e
@pytest.mark.parametrize("judge", ["acoustic score", "whisper"])
def test_a_thank_you_forced_out_of_a_coffee_order_does_not_end_anyones_minute(engine, engine_alone, voice, judge):
    from narrator.voice.endpoint import Endpointing

    if judge == "whisper":
        need("whisper", engine.judge is not None, "pip install -e .[speech]")
    e = engine if judge == "whisper" else engine_alone
    name = "8d89ce69-6433-47d6-8f38-5bb605bda98c.wav"
    assert heard_in_negative(e, voice, name, Endpointing(min_word_score=-1e9, min_fit=-1e9, max_word_ms=1e9), "end_speech")
    assert not heard_in_negative(e, voice, name, Endpointing(), "end_speech")


@pytest.mark.e2e
def test_only_the_seats_of_the_table_can_be_heard(engine, voice, tmp_path):
    clip = np.concatenate([silence(0.5), espeak("fifteen", "en-us", tmp_path), silence(1)])

    def heard(seats):
        grammar = build_grammar(voice, "seat", upto=seats)
        out = []
        listener = Listener(engine.stream(grammar), grammar, voice, 16000, out.append)
        listener.feed(clip)
        listener.flush()
        return [h.command.seat for h in out if isinstance(h.command, Command)]

    assert heard(20) == [15]
    assert 15 not in heard(10)
    assert heard(20) == [15]  # each table size keeps its own recogniser


def _at_level(x, db):
    from narrator.voice.audio import to_int16

    return to_int16(x.astype(np.float32) * 10 ** (db / 20))


@pytest.mark.e2e
def test_a_player_20_db_softer_is_heard_as_the_same_seat(engine_alone, voice):
    # a player far from the microphone: every utterance is brought to one level before decoding
    # (before, these clips 20 dB softer were right a third as often). PocketSphinx's own hearing;
    # the benchmark shows the same with the second opinion over 346 clips (69 / 71 / 70%)
    engine = engine_alone
    clips = [(d, p) for d in range(1, 10) for p in fsdd(d, 2, seed=3)]
    loud_right = soft_right = kept = 0
    for d, p in clips:
        x = read_wav(p, 16000)
        loud, soft = hear(engine, voice, "seat", x), hear(engine, voice, "seat", _at_level(x, -20))
        loud_right += loud == [_seat(d)]
        soft_right += soft == [_seat(d)]
        kept += loud == soft == [_seat(d)]
    assert loud_right >= len(clips) // 2
    assert soft_right >= loud_right - 1
    assert kept >= loud_right - 1  # a seat heard right at the usual level is heard right softer


def test_the_leveller_brings_soft_and_loud_utterances_to_one_level():
    from narrator.voice.engines import Leveller

    x = read_wav(fsdd(4, 1)[0], 16000)
    leveller = Leveller(hiss_dbfs=None)
    for db in (-20, 0, 6):
        assert abs(leveller.peak_dbfs(leveller.level(_at_level(x, db))) - leveller.target_dbfs) < 0.5
    # a faint noise is not blown up into a voice: the gain is capped
    faint = np.random.default_rng(0).normal(0, 3, 16000).astype(np.int16)
    assert leveller.peak_dbfs(leveller.level(faint)) < leveller.target_dbfs - 10
