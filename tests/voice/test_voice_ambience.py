"""The night's masking sound (issue 13 §3): a soft, even noise under the narration from "night
falls" to "the city wakes up", the same in every night step whoever is awake, alive or dead.

The speaker's output of a whole night is rendered through the real mixer (the Player's stream
callback, driven sample by sample) for two tables that differ in every way a listener must not
learn: who holds which role, who is dead, who tapped and when. Every step sounds the same."""

from __future__ import annotations

import shutil
import threading

import numpy as np
import pytest

from conftest import Table
from narrator.flow.effects import Record, Reject, Say, Tell, Timer
from narrator.voice.ambience import FULL_RMS, Ambience, rain
from narrator.voice.tts import TTS_RATE, Line, Player, Renderer, SpeechOutput, make_renderer
from voice_support import need


@pytest.fixture(scope="module")
def renderer(tmp_path_factory):
    need("espeak-ng", shutil.which("espeak-ng") is not None, "apt-get install espeak-ng (.ci/apt-packages.txt)")
    return Renderer("en-us", 320, 1.0, tmp_path_factory.mktemp("tts"))


def night_sound(renderer, deal: str, day_one: list[list[str]], night_two: list[list[str]], dead: set[int],
                level: float = 0.15):
    """The speaker's output of night 2, one array per step (a step runs from its timer to the next)."""
    t = Table(deal=deal, fixed_night_steps=True)
    while t.game.state == "night":
        t.do("timeout")                           # night zero: the mafia meet
    t.finish_day_speeches()                       # day 1 → night 1
    for taps in day_one:                          # night 1, step by step
        t.do(*taps, "timeout")
    while t.game.state in ("last_words", "speeches"):
        t.do("say thank you")                     # the morning, day 2 → night 2 falls in this batch
    batch = [e for e in t.effects[t.effects.index(_last_night_record(t)):]]
    assert t.game.state == "night" and {n for n, seat in t.game.seats.items() if not seat.alive} == dead
    narrating = threading.Event()
    player = Player(None, TTS_RATE, narrating, ambience=Ambience(level, TTS_RATE), open_stream=False)
    out = SpeechOutput(t.config, narrating, renderer=renderer, player=player, prerender=False)
    steps, night = [], iter(night_two)
    try:
        while True:
            for e in batch:
                text = t.session.voice.render(e.line, e.args) if isinstance(e, (Say, Tell, Reject)) else None
                out.handle(e, text)
            for item, _ in list(player.queue):
                if isinstance(item, Line):
                    assert item.ready.wait(30)
            if t.game.state != "night":
                steps.append(player.render(25 * TTS_RATE))  # "the city wakes up", the morning: the sound fades out
                return steps
            timer = [e for e in batch if isinstance(e, Timer)][-1]
            steps.append(player.render(int(timer.seconds * TTS_RATE)))
            batch = t.do(*next(night), "timeout")
    finally:
        out.close()


def _last_night_record(t: Table):
    return [e for e in t.effects if isinstance(e, Record) and e.entry == {"type": "phase", "phase": "night", "night": 2}][-1]


def dbfs(x: np.ndarray) -> float:
    return 20 * np.log10(np.sqrt(np.mean(x.astype(np.float64) ** 2)) / 32767 + 1e-12)


@pytest.mark.e2e
def test_every_night_step_sounds_the_same_whoever_is_awake_alive_or_dead(renderer):
    # table A: the Sheriff (seat 1) is shot in night 1, so his step in night 2 plays for a dead man;
    # the mafia and the Don tap at once. Table B: other seats hold the roles, nobody dies, nobody
    # but the Sheriff taps in night 2.
    a = night_sound(renderer, "1=sheriff 2=don 3=mafia 4=mafia",
                    [["tap 2 1", "tap 3 1", "tap 4 1"], ["tap 2 5"], []],
                    [["tap 2 9", "tap 3 9", "tap 4 9"], ["tap 2 6"], []], dead={1})
    b = night_sound(renderer, "5=sheriff 6=don 7=mafia 8=mafia",
                    [[], [], []],
                    [[], [], ["tap 5 6"]], dead=set())
    assert len(a) == len(b) == 4  # the mafia, the Don, the Sheriff, and the dawn
    for step_a, step_b in zip(a[:3], b[:3]):
        assert len(step_a) == len(step_b)
        assert np.array_equal(step_a, step_b)  # not just the same envelope: the same samples
    # under the narration, the masking sound: soft and even through every step
    for step in a[:3]:
        quiet = step[-2 * TTS_RATE:]  # the last two seconds of a step: nobody speaks, the rain goes on
        assert -40 < dbfs(quiet) < -33
        frames = quiet[: len(quiet) // 2205 * 2205].reshape(-1, 2205)
        levels = [dbfs(f) for f in frames]
        assert max(levels) - min(levels) < 1.5  # even: no swell a listener could take for a movement
    # and gone once the city is awake
    assert not a[3][-TTS_RATE:].any() and not b[3][-TTS_RATE:].any()


def test_the_masking_sound_fades_in_with_night_falls_and_is_off_by_config(renderer):
    narrating = threading.Event()
    player = Player(None, TTS_RATE, narrating, ambience=Ambience(0.15, TTS_RATE), open_stream=False)
    assert not player.render(TTS_RATE).any()          # the day is silent between lines
    player.cue(True)
    first, later = player.render(TTS_RATE // 2), player.render(3 * TTS_RATE)
    assert dbfs(first) < dbfs(later) - 6              # faded in, not switched on with a click
    player.cue(False)
    player.render(3 * TTS_RATE)
    assert not player.render(TTS_RATE).any()
    louder = Player(None, TTS_RATE, narrating, ambience=Ambience(0.6, TTS_RATE), open_stream=False)
    louder.cue(True)
    assert abs(dbfs(louder.render(4 * TTS_RATE)[-TTS_RATE:]) - dbfs(later[-TTS_RATE:]) - 20 * np.log10(4)) < 1


def test_the_loop_repeats_without_a_click():
    x = rain(TTS_RATE)
    assert abs(np.sqrt(np.mean(x ** 2)) - 1) < 1e-3
    jump = abs(float(x[0]) - float(x[-1]))
    steps = np.abs(np.diff(x))
    assert jump < np.percentile(steps, 99.9)          # the seam is no bigger than an ordinary step
    assert FULL_RMS * 0.15 / 32767 < 0.02             # the default level is soft (-36 dBFS)


# ----------------------------------------------------------------------------- the real audio path
CONFIG = """variant = "classic"
language = "en"
[dealing]
roles = {roles}
[timers]
speech = 600
night_zero_step = 3
mafia_meeting = 5
[voice]
rate = 320
ambience = 0.3
[input]
engine = "sphinx"
"""


def play_night(tmp_path, roles: str, words) -> tuple[np.ndarray, list, str, object, list[float]]:
    """`narrator play --voice speech --listen` through ALSA's file plugin, its speaker fed back into
    its microphone as a room would (plus `words` spoken at the table during the night); returns the
    speaker's output, the journal's events and stdout once the first speech of day 1 has begun, the
    speaker (whose `handed_at` tells when the narrator played each sample) and when each event
    was journaled (on this process's monotonic clock)."""
    import json
    import os
    import subprocess
    import sys
    import time

    from alsa_support import Microphone, Speaker, asoundrc
    from narrator.journal import read
    from narrator.voice.audio import resample, to_int16

    ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
    tmp_path.mkdir(parents=True, exist_ok=True)
    # the buffers as small as a pipe goes (93 and 128 ms): a card's are tens of milliseconds, and the
    # room must not be heard later than the narrator's echo tail allows for
    speaker = Speaker(tmp_path / "speaker.raw", buffer_bytes=4096)
    mic = Microphone(tmp_path / "mic.raw", buffer_bytes=4096)
    asoundrc(tmp_path, tmp_path / "speaker.raw", tmp_path / "mic.raw")
    (tmp_path / "club.toml").write_text(CONFIG.replace("{roles}", roles))
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path.parent / "cache"), "PYTHONUNBUFFERED": "1"}
    play = subprocess.Popen([sys.executable, "-m", "narrator.cli", "play", "--config", str(tmp_path / "club.toml"),
                             "--journal", str(tmp_path / "j.jsonl"), "--voice", "speech", "--listen", "--no-reveal"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=env)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(play.stdout.readline, "")), daemon=True).start()
    stop = threading.Event()

    def room() -> None:  # whatever the speaker plays reaches the microphone, and the table talks at night
        done, talk = 0, np.zeros(0, np.float32)
        while not stop.is_set():
            time.sleep(0.1)
            chunks = list(speaker.chunks)
            new = b"".join(d for _, d in chunks[done:])
            done = len(chunks)
            heard = resample(np.frombuffer(new[: len(new) // 2 * 2], "<i2").astype(np.float32), TTS_RATE, 16000)
            if not len(talk) and words and any("Night falls" in line for line in lines):
                talk = words.pop(0)
            # the words are said over the room's sound as it goes on, never in a pause of it: a word
            # that lengthened the room's audio (as it once did) delayed everything the microphone
            # heard after it, and the narrator's "Player 1, you have 10 minutes." came back 4 s
            # late, in the open floor, as "nominate player one"
            k = min(len(talk), len(heard))
            heard[:k] += talk[:k]
            talk = talk[k:]
            mic.say.append(to_int16(heard))

    threading.Thread(target=room, daemon=True).start()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any("Player 1, you have" in line for line in lines):
            assert play.poll() is None, play.stderr.read()
            time.sleep(0.1)
        time.sleep(10)  # the dawn's lines are heard, then the quiet of the day
        out, err = play.communicate("quit\n", timeout=30)
    finally:
        stop.set()
        play.kill()
        speaker.close()
        mic.close()
    assert any("Player 1, you have" in line for line in lines), "".join(lines)[-2000:]
    offset = time.time() - time.monotonic()
    journaled = [json.loads(line) for line in (tmp_path / "j.jsonl").read_text().splitlines()[1:]]
    applied = [entry["t"] - offset for entry in journaled if "event" in entry]
    return speaker.samples(), read(tmp_path / "j.jsonl").events, "".join(lines) + err, speaker, applied


FRAME = TTS_RATE // 20  # 50 ms


def frames_db(x: np.ndarray, frame: int = FRAME) -> np.ndarray:
    x = x[: len(x) // frame * frame].astype(np.float64).reshape(-1, frame)
    return 20 * np.log10(np.sqrt(np.mean(x ** 2, axis=1)) / 32767 + 1e-9)


def masked_pauses(db: np.ndarray, level_db: float) -> list[tuple[int, int]]:
    """(first frame, frames) of every stretch of half a second or more where only the masking sound plays."""
    only = np.abs(db - level_db) < 2.5
    runs, start = [], None
    for i, a in enumerate(np.append(only, False)):
        if a and start is None:
            start = i
        elif not a and start is not None:
            if i - start >= 10:
                runs.append((start, i - start))
            start = None
    return runs


@pytest.mark.realtime
@pytest.mark.e2e
def test_a_night_with_the_masking_sound_through_the_sound_devices(tmp_path):
    import subprocess
    import sys

    from narrator.flow.events import Deal, Timeout
    from voice_support import espeak, need_module

    need_module("pocketsphinx", "pip install -e .[speech]")
    need("libportaudio2", subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True).returncode == 0,
         "apt-get install libportaudio2 (.ci/apt-packages.txt)")
    need("espeak-ng", shutil.which("espeak-ng") is not None, "apt-get install espeak-ng")
    nominate = espeak("I nominate player three", "en-us", tmp_path).astype(np.float32)
    thanks = espeak("thank you", "en-us", tmp_path).astype(np.float32)
    # the lines are on disk already, as after a table's first game: a line that is still being
    # rendered when its turn comes holds the queue (the same for everybody, but not to the sample).
    # In the game's own voice: the cache is keyed by it, and warmed as "en-us" where the game speaks
    # voices/en.toml's "en" it held no line the game could use. Each night line was then rendered
    # as the game went, by a background thread at nice 10 that busy loops starve, or when its turn
    # came: at load 9 the step before such a line sounded 4 s instead of 3 ([4, 5, 4])
    config = __import__("narrator.config", fromlist=["parse_config"]).parse_config(CONFIG.replace("{roles}", "{}"))
    game_voice, _ = make_renderer(config)
    warm = Renderer(game_voice.voice_id, game_voice.rate, game_voice.volume, tmp_path / "cache" / "narrator" / "tts")
    out = SpeechOutput(config, threading.Event(), renderer=warm, player=Player(None, TTS_RATE, threading.Event(),
                       open_stream=False), prerender=False)
    out.prerender()
    out.close()
    warm.get("Welcome to Mafia. 10 players at the table.")
    warmed = {p.name for p in warm.cache_dir.iterdir()}
    tables = [("a", '{ 1 = "sheriff", 2 = "don", 3 = "mafia", 4 = "mafia" }', [nominate, thanks]),
              ("b", '{ 7 = "sheriff", 9 = "don", 5 = "mafia", 10 = "mafia" }', [thanks, nominate])]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:  # two tables at once: each runs on its own real clock
        runs = list(pool.map(lambda t: play_night(tmp_path / t[0], t[1], t[2]), tables))
    # the games found every line on disk: none had to be rendered while they played
    rendered = sorted({p.name for p in warm.cache_dir.iterdir()} - warmed)
    assert not rendered, rendered
    steps = []
    for sound, events, text, speaker, applied in runs:
        # the microphone heard nothing of the night: not the masking sound, not the narration, not
        # the words said at the table; only the deal and the three steps' clocks were applied
        assert [type(e) for e in events] == [Deal, Timeout, Timeout, Timeout], text[-3000:]
        db = frames_db(sound)
        pauses = masked_pauses(db, -30.5)  # level 0.3: -30.5 dBFS
        # each step's time runs after its line has been heard: the Don 3 s, the mafia 5 s, the Sheriff 3 s
        assert [round(n / 20) for _, n in pauses] == [3, 5, 3], pauses
        # and on the clock the game ran on: from the moment the step's line had been played to the
        # moment its time was up (journaled). Counted in samples instead, the pause is as steady
        # as the simulated card, a thread of this test that a loaded machine holds back and then
        # lets catch up: at load 15 one step came out 60 frames on one table and 63 on the other
        # (3.0 and 3.15 s), where the two games' clocks had timed 3.03 and 3.07 s
        began = speaker.handed_at(np.array([start for start, _ in pauses]) * FRAME)
        seconds = [float(x) for x in np.array(applied[1:4]) - began]
        assert all(t <= x < t + 0.5 for t, x in zip((3, 5, 3), seconds)), (pauses, seconds)
        steps.append((pauses, seconds))
        first, last = pauses[0][0], pauses[-1][0] + pauses[-1][1]
        assert (db[first:last] > -33).all()  # never a moment without the masking sound in the night
        assert (db[last + 60:] < -100).any()  # the day has real silence again, once the sound has faded
        assert not sound[:first].any() or (db[:first] < -100).any()  # and so had the day before
    # the same lengths whoever holds which card, within 100 ms of the real clock's scheduling
    (a, sec_a), (b, sec_b) = steps
    assert all(abs(x - y) <= 0.1 for x, y in zip(sec_a, sec_b)), steps
    # and the same sound: each step's lines and pause, aligned at the pause, in quarter seconds
    for (start_a, n_a), (start_b, n_b) in zip(a, b):
        n = min(n_a, n_b)  # a pause a frame longer on one table's card is the card's pace, timed above
        seg_a = frames_db(runs[0][0][(start_a - 40) * FRAME:(start_a + n) * FRAME], TTS_RATE // 4)
        seg_b = frames_db(runs[1][0][(start_b - 40) * FRAME:(start_b + n) * FRAME], TTS_RATE // 4)
        assert np.median(np.abs(seg_a - seg_b)) < 1.5 and np.abs(seg_a - seg_b).max() < 6
