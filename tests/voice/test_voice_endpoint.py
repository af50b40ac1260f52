"""The endpointer with a scripted recogniser: when an utterance closes, what is decoded, what is
thrown away. No model needed; the real engines are tested in test_voice_sphinx/test_voice_vosk."""

import numpy as np

from narrator.language import Command, load_voice
from narrator.voice.endpoint import FRAME_MS, Endpointing, Listener
from narrator.voice.engines import Stream
from narrator.voice.grammar import build_grammar

RATE = 16000


class Scripted(Stream):
    """Answers `partial()` from a script, one answer per call; `final()` with the last one."""

    def __init__(self, partials, final, score=-1.0, longest_ms=300.0):
        self.partials = list(partials)
        self.final_text = final
        self.fed = 0
        self.finals = 0
        self.word_score = score
        self.longest_word_ms = longest_ms

    def accept(self, pcm):
        self.fed += len(pcm)

    def partial(self):
        return self.partials.pop(0) if self.partials else self.final_text

    def final(self):
        self.finals += 1
        return self.final_text

    def reset(self):
        pass


def tone(seconds, level=8000):
    t = np.arange(int(seconds * RATE)) / RATE
    return (level * np.sin(2 * np.pi * 220 * t)).astype(np.int16)


def talk(seconds):
    """Syllables with short gaps, as speech has: a steady tone would become the noise floor."""
    x = tone(seconds)
    for start in range(0, len(x), RATE * 3 // 10):
        x[start + RATE * 2 // 10: start + RATE * 3 // 10] = 0
    return x


def quiet(seconds):
    return np.zeros(int(seconds * RATE), np.int16)


def listen(stream, audio, phase="day", config=None):
    voice = load_voice("en")
    grammar = build_grammar(voice, phase, upto=10)
    heard = []
    listener = Listener(stream, grammar, voice, RATE, heard.append, config)
    listener.feed(np.concatenate([quiet(0.5), audio, quiet(1.5)]))
    listener.flush()
    return heard


def closed_after_ms(heard, speech_end_s):
    return round((heard[0].end_of_audio_s - speech_end_s) * 1000)


def test_a_complete_command_closes_after_the_short_pause():
    heard = listen(Scripted(["thank you"], "thank you"), tone(0.8))
    assert heard[0].command == Command("end_speech")
    assert closed_after_ms(heard, 1.3) <= Endpointing().quick_silence_ms + 2 * FRAME_MS


def test_a_command_a_look_at_the_pause_heard_is_decoded_once_more_at_the_close():
    # with more pause the closing decode hears better than the look did (test_voice_whisper.py)
    stream = Scripted(["thank you"], "thank you")
    heard = listen(stream, tone(0.8))
    assert heard[0].command == Command("end_speech")
    assert stream.finals == 1


def test_a_decode_that_ends_nowhere_at_the_first_look_is_asked_again_before_the_long_wait():
    # the first whole-utterance decode, with little trailing silence, found no hypothesis
    heard = listen(Scripted(["", "thank you"], "thank you"), tone(0.8))
    assert heard[0].command == Command("end_speech")
    assert closed_after_ms(heard, 1.3) <= Endpointing().quick_silence_ms + 2 * FRAME_MS


def test_a_half_command_waits_the_long_pause():
    # however often the pause is looked at, the words so far stay half a command
    heard = listen(Scripted(["i'm submitting"] * 20, "i'm submitting player seven"), tone(0.8))
    assert closed_after_ms(heard, 1.3) >= Endpointing().silence_ms


def test_talk_longer_than_any_command_is_neither_decoded_nor_heard():
    stream = Scripted([], "i nominate seven")
    heard = listen(stream, talk(9.0))  # no day sentence takes 9 s, even spoken slowly
    assert stream.finals == 0
    assert [h.command for h in heard] == [None]


def test_a_command_that_fits_the_sound_badly_names_no_seat():
    assert listen(Scripted([], "i nominate seven", score=-1.0), tone(1.5))[0].command == Command("nominate", 7)
    assert listen(Scripted([], "i nominate seven", score=-4.0), tone(1.5))[0].command is None


def test_a_thank_you_forced_out_of_talk_does_not_end_the_minute():
    assert listen(Scripted([], "thank you", score=-4.0), tone(0.8))[0].command is None


def test_no_command_word_lasts_a_second():
    assert listen(Scripted([], "i nominate seven", longest_ms=1400.0), tone(2.0))[0].command is None


def test_a_bare_seat_number_asked_for_is_not_held_to_the_command_gate():
    # short single words fit worse on average; the seat grammar is only used when one is expected
    heard = listen(Scripted([], "seven", score=-4.0), tone(0.6), phase="seat")
    assert heard[0].command == Command("seat", 7)


def test_a_complete_command_is_kept_when_the_closing_decode_reads_the_pause_as_one_more_word():
    # the look at the pause heard "i nominate player six"; the decode at the close, with more
    # silence, made the pause a word
    heard = listen(Scripted(["i nominate player six"], "i nominate player six for"), tone(0.9))
    assert heard[0].command == Command("nominate", 6)


def test_a_complete_command_is_kept_when_the_closing_decode_finds_nothing():
    heard = listen(Scripted(["thank you"], ""), tone(0.8))
    assert heard[0].command == Command("end_speech")


def test_a_complete_command_is_not_kept_once_the_speaker_goes_on():
    # "i nominate player six ... no, wait": what followed decides, and it is no command
    speech = np.concatenate([tone(0.9), quiet(0.1), talk(0.9)])
    heard = listen(Scripted(["i nominate player six"] + ["i nominate player six no wait"] * 20,
                            "i nominate player six no wait"), speech)
    assert len(heard) == 1 and not isinstance(heard[0].command, Command)


def test_the_kept_command_is_still_held_to_the_gate():
    heard = listen(Scripted(["i nominate player six"], "i nominate player six for", score=-4.0), tone(0.9))
    assert heard[0].command is None


def test_a_soft_speaker_is_cut_where_a_loud_one_is():
    # the detector judges each frame against the room and the utterance, not against a fixed level
    loud = listen(Scripted(["thank you"], "thank you"), tone(0.8, level=8000))
    soft = listen(Scripted(["thank you"], "thank you"), tone(0.8, level=300))  # 29 dB softer, ~-44 dBFS
    assert soft[0].command == loud[0].command == Command("end_speech")
    assert closed_after_ms(soft, 1.3) == closed_after_ms(loud, 1.3)


def test_a_click_is_never_decoded_into_a_seat():
    # a bump of the table after a word: too little speech to be any word
    stream = Scripted([], "five")
    heard = listen(stream, tone(0.1), phase="seat")
    assert stream.finals == 0
    assert [h.command for h in heard] == [None]


def test_a_whole_nomination_is_gated_more_loosely_than_a_one_word_thank_you():
    # talk forced onto a whole sentence fits it badly; a short word forced onto "thanks" fits
    # it as well as a real one (scripts/calibrate_gate.py, held-apart halves)
    assert listen(Scripted([], "i nominate seven", score=-2.8), tone(0.9))[0].command == Command("nominate", 7)
    assert listen(Scripted([], "thank you", score=-2.8), tone(0.8))[0].command is None
    assert listen(Scripted([], "i nominate seven", score=-3.2), tone(0.9))[0].command is None
