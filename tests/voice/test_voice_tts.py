import threading
import time

import numpy as np
import pytest

from narrator.config import default_config
from narrator.flow.effects import HostLine, Record, Reject, Say, Tell, Timer
from narrator.voice.tts import TTS_RATE, Player, Renderer, SpeechOutput
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


@pytest.mark.e2e
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


@pytest.mark.e2e
def test_public_lines_are_spoken_and_secrets_never(renderer):
    player = RecordingPlayer()
    out = output(renderer, player)
    out.handle(Tell(3, "check_mafia", {"seat": 5}), "Player 5 is MAFIA.")
    out.handle(Reject("reject_not_awake", {"seat": 2}, seat=2), "Seat 2, it is not your turn to act.")
    # the referee's foul at night, for the host alone until the morning (seed 004 §5-7)
    out.handle(HostLine("night_foul_held", {"seat": 3, "n": 1}), "Foul number 1 for player 3, noted: the table hears it in the morning.")
    out.handle(Timer("speech", 60), None)
    out.handle(Record({"type": "x"}), None)
    assert player.played == []
    out.handle(Say("nomination_accepted", {"seat": 7}), "7 accepted.")
    out.handle(Reject("reject_no_speech"), "Nobody is speaking now.")
    assert len(player.played) == 2


@pytest.mark.e2e
def test_lines_with_a_seat_number_are_rendered_ahead_for_every_seat_and_no_check_result(renderer):
    out = output(renderer, RecordingPlayer())
    texts = out.public_texts()
    assert "7 accepted." in texts and "10 accepted." in texts
    assert "Player 3, you have one minute." in texts
    assert not any("MAFIA" in t or "Sheriff." in t and "IS" in t for t in texts)
    assert not any("noted" in t or "only for" in t for t in texts)


def test_without_a_speaker_the_error_names_the_text_fallback(monkeypatch):
    from types import SimpleNamespace

    from narrator.voice import AudioUnavailable, audio, make_speech_output

    def no_device(*args, **kwargs):
        raise RuntimeError("Error querying device -1")

    monkeypatch.setattr(audio, "_sd", lambda: SimpleNamespace(query_devices=no_device))
    live = SimpleNamespace(narrating=threading.Event())
    with pytest.raises(AudioUnavailable, match="--voice text"):
        make_speech_output(default_config(), live)


class SentenceRenderer(Renderer):
    """A stand-in engine: each sentence is a tone of its own, rendered only when the test opens
    the sentence's gate (gates[text] for lines asked for, `background` for the lines ahead)."""

    engine = "tones"

    def __init__(self, cache_dir):
        super().__init__("tones", 165, 1.0, cache_dir)
        self.rendered: list[tuple[str, int]] = []  # (text, sentence), in the order rendering began
        self.gates: dict[str, threading.Semaphore] = {}
        self.background = threading.Semaphore(0)
        self.loaded = threading.Event()

    def check(self):
        pass

    def load(self):
        assert self.loaded.wait(10)

    def _stream(self, text):
        for i, sentence in enumerate(s for s in text.split(". ") if s):
            self.rendered.append((text, i))
            gate = self.background if threading.current_thread().name == "narrator-tts-ahead" else self.gates.get(text)
            if gate is not None:
                assert gate.acquire(timeout=10)
            t = np.arange(2000 + 100 * len(sentence)) / 22050
            yield (8000 * np.sin(2 * np.pi * (300 + 50 * i) * t)).astype(np.int16)


def wait_for(condition, timeout=10.0):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


@pytest.mark.e2e
def test_a_line_asked_for_while_the_voice_loads_is_rendered_before_every_line_ahead(tmp_path):
    tones = SentenceRenderer(tmp_path)
    tones.background.release(1000)
    out = SpeechOutput(default_config(), threading.Event(), renderer=tones,
                       player=Player(None, TTS_RATE, threading.Event(), open_stream=False))
    out.speak("Welcome to Mafia. 10 players at the table.")
    tones.loaded.set()
    wait_for(lambda: len(tones.rendered) > 5)
    out.close()
    assert tones.rendered[:2] == [("Welcome to Mafia. 10 players at the table.", 0),
                                  ("Welcome to Mafia. 10 players at the table.", 1)]


@pytest.mark.e2e
def test_the_lines_ahead_stand_still_between_sentences_while_a_line_asked_for_renders(tmp_path):
    tones = SentenceRenderer(tmp_path)
    tones.loaded.set()
    out = SpeechOutput(default_config(), threading.Event(), renderer=tones,
                       player=Player(None, TTS_RATE, threading.Event(), open_stream=False))
    wait_for(lambda: tones.rendered)                 # a line ahead is rendering its first sentence
    asked = "Players 3 and 5 are on the vote. 3 first."
    tones.gates[asked] = threading.Semaphore(0)
    out.speak(asked)
    wait_for(lambda: (asked, 0) in tones.rendered)
    tones.background.release(1000)                   # the line ahead's sentence is done ...
    time.sleep(0.2)
    assert tones.rendered[-1] == (asked, 0)          # ... and nothing more of it is rendered meanwhile
    tones.gates[asked].release(2)
    wait_for(lambda: len(tones.rendered) > 4)
    out.close()
    after = tones.rendered.index((asked, 1))
    assert tones.rendered[1:after + 1] == [(asked, 0), (asked, 1)]


@pytest.mark.e2e
def test_the_first_sentence_plays_while_the_next_renders_and_the_cache_holds_what_was_played(tmp_path):
    tones = SentenceRenderer(tmp_path)
    tones.loaded.set()
    player = Player(None, TTS_RATE, threading.Event(), open_stream=False)
    out = SpeechOutput(default_config(), threading.Event(), renderer=tones, player=player, prerender=False)
    text = "Night falls. The city falls asleep."
    tones.gates[text] = threading.Semaphore(1)       # the first sentence only, for now
    out.speak(text)
    line = player.queue[0][0]
    wait_for(lambda: line.chunks)
    first = line.chunks[0]
    assert (player.render(len(first)) == first).all()   # heard before the line is whole
    assert not player.render(500).any()                  # then silence while the second renders
    assert player.busy() and player.queued_seconds() > 0
    tones.gates[text].release()
    assert line.ready.wait(10)
    second = line.chunks[1]
    assert (player.render(len(second)) == second).all()
    out.close()
    played = np.concatenate([first, second])
    assert (tones.cached(text) == played).all()
    assert (Renderer._load(tones, tones.path(text)) == played).all()  # the file on disk, not the memory


@pytest.mark.e2e
def test_a_line_sounds_the_same_whichever_thread_renders_it(renderer, tmp_path):
    # two threads render lines now: espeak-ng through pyttsx3 sometimes lost the rate in one
    here = renderer.get("Player 3, you have one minute.")
    there = []
    other = Renderer("en-us", 165, 1.0, tmp_path / "other")
    t = threading.Thread(target=lambda: there.append(other.get("Player 3, you have one minute.")))
    t.start()
    t.join()
    assert len(here) > TTS_RATE and (there[0] == here).all()


@pytest.mark.e2e
def test_the_hand_vote_chant_is_paced_for_the_ear_and_written_as_a_sentence(renderer):
    # seed 000: «ska: räcka. upp. sin hand. NU!» — the seed's full stops are the voice's beats; on
    # a phone or the console they would be stray, so the line reads as one sentence there
    from conftest import config_text
    from narrator.config import parse_config
    from narrator.language import load_voice

    config = parse_config(config_text("sv", variant="sverige", seats=12))
    out = SpeechOutput(config, threading.Event(), renderer=renderer, player=RecordingPlayer(), prerender=False)
    spoken = []
    out.speak = spoken.append
    written = load_voice("sv", "sverige").render("hand_vote", {"seat": 7})
    assert written == "De som vill rösta på spelare 7 ska räcka upp sin hand. NU!"
    out.handle(Say("hand_vote", {"seat": 7}), written)
    assert spoken == ["De som vill rösta på spelare 7 ska: räcka, upp, sin hand. NU!"]
    assert spoken[0] in out.public_texts() and written not in out.public_texts()   # rendered ahead as said
    out.close()


def pauses_ms(samples: np.ndarray, rate: int, at_least_ms: int = 100) -> list[int]:
    """The silences (40 dB below the loudest 10 ms) between the first and the last sound."""
    frame = rate // 100
    x = samples[: len(samples) // frame * frame].astype(np.float64).reshape(-1, frame)
    db = 10 * np.log10((x * x).mean(axis=1) + 1.0)
    loud = np.flatnonzero(db > db.max() - 40)
    out, run = [], 0
    for is_loud in (db > db.max() - 40)[loud[0]: loud[-1] + 1]:
        if is_loud:
            if run * 10 >= at_least_ms:
                out.append(run * 10)
            run = 0
        else:
            run += 1
    return out


@pytest.mark.e2e
@pytest.mark.parametrize("lang", ["en", "ru", "de", "sv", "hu"])
def test_the_hand_vote_chant_is_heard_in_beats_through_espeak_ng(lang, tmp_path):
    # "raise. your. hand. NOW!" came out of espeak-ng as one run of words and a pause before NOW:
    # a full stop before a lower-case word is no pause to it, so the table heard no chant and the
    # hands went up one by one. Every beat of the chant must be a pause the ear hears
    import shutil

    from narrator.language import load_voice

    need("espeak-ng", shutil.which("espeak-ng") is not None, "apt-get install espeak-ng (.ci/apt-packages.txt)")
    voice = load_voice(lang, "sverige" if lang == "sv" else None)
    speaker = Renderer(voice.speech["espeak_voice"], 165, 1.0, tmp_path)
    written = voice.render("hand_vote", {"seat": 7})
    chant = voice.render("hand_vote", {"seat": 7}, spoken=True)
    beats = chant.count(",") + chant.count(".") - written.count(",") - written.count(".")
    assert beats >= 1, chant
    heard, read = pauses_ms(speaker.get(chant), TTS_RATE), pauses_ms(speaker.get(written), TTS_RATE)
    assert len(heard) >= len(read) + beats, (chant, heard, read)


def test_the_microphone_stays_shut_until_the_last_word_has_left_a_slow_speaker(monkeypatch):
    """A Bluetooth speaker plays what it is handed 100-300 ms later: the echo wait before the
    microphone opens is counted from when the last word is heard, not from when it was handed out."""
    import sys
    from types import SimpleNamespace

    class SlowSpeaker:  # a PortAudio output stream that reports a quarter of a second of delay
        latency = 0.25

        def __init__(self, **kwargs):
            pass

        def start(self):
            pass

    monkeypatch.setitem(sys.modules, "sounddevice", SimpleNamespace(OutputStream=SlowSpeaker))
    narrating = threading.Event()
    player = Player(None, TTS_RATE, narrating)
    assert player.echo_tail_s == pytest.approx(0.55)
    player.play(np.ones(100, np.int16))
    player.render(200)  # the line is handed out; the room hears it only now
    start = time.perf_counter()
    while narrating.is_set() and time.perf_counter() - start < 2:
        player.render(10)
        time.sleep(0.01)
    assert time.perf_counter() - start >= 0.55 - 0.02


@pytest.mark.e2e
def test_at_night_a_typed_line_that_is_no_input_is_never_answered_aloud(renderer):
    """Only the awake role types at night: "Not understood: tap takes a seat and a target" said aloud
    would tell the sleeping table that he is alive (seed 004 §4.2: the host answers silently). The
    console shows it; the host's pause is still said; by day every answer is said."""
    player = RecordingPlayer()
    out = output(renderer, player)
    out.handle(Record({"type": "phase", "phase": "night", "night": 1}), None)
    out.handle(Reject("bad_input", {"reason": "tap takes a seat and a target"}), "Not understood: tap takes a seat and a target.")
    out.handle(Reject("reject_unknown_input"), "I don't understand that input.")
    assert player.played == []
    out.handle(Reject("paused"), "The game is paused.")
    assert len(player.played) == 1
    out.handle(Record({"type": "phase", "phase": "day", "day": 2}), None)
    out.handle(Reject("bad_input", {"reason": "x"}), "Not understood: x.")
    assert len(player.played) == 2


@pytest.mark.e2e
def test_a_hungarian_seat_line_is_rendered_ahead_as_every_languages_is(renderer):
    """The lines with a seat were chosen for rendering ahead by their text: {seat} and nothing
    else. A Hungarian line has the seat's article too («Aki {seat_article} {seat}. játékosra
    szavaz…»), so 43 of its 82 seat lines — every vote call among them — were rendered only when
    said, while the hands waited; and a line naming its seat twice ("Who votes for player 8? …
    goes to player 8.") in no language at all."""
    from narrator.config import parse_config

    counts = {}
    for lang in ("en", "hu"):
        cfg = parse_config(f'variant = "classic"\nlanguage = "{lang}"\n')
        out = SpeechOutput(cfg, threading.Event(), renderer=renderer, player=RecordingPlayer(), prerender=False)
        texts = out.public_texts()
        voice = out.voice
        for line in ("hand_vote", "vote_call", "vote_call_last", "lynched"):
            for seat in (1, 5, 10):
                assert voice.render(line, {"seat": seat}, spoken=True) in texts, (lang, line, seat)
        counts[lang] = len(texts)
    assert counts["hu"] > counts["en"] * 0.9, counts
