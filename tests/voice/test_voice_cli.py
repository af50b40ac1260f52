import argparse
import hashlib
import http.server
import io
import json
import threading
import zipfile
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from narrator.voice import cli, models
from voice_support import espeak, fsdd, need_module, silence


def run(capsys, *argv):
    parser = argparse.ArgumentParser(prog="narrator")
    cli.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines() if line.strip()], err


def wav(tmp_path, samples, name="clip.wav"):
    import wave

    path = tmp_path / name
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(samples.astype("<i2").tobytes())
    return path


@pytest.mark.e2e
def test_listen_prints_each_command_heard_in_a_wav_file_as_a_json_line(capsys, tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    clip = np.concatenate([silence(0.5), espeak("thank you", "en-us", tmp_path), silence(1)])
    code, lines, _ = run(capsys, "listen", "--wav", str(wav(tmp_path, clip)), "--engine", "sphinx")
    assert code == 0
    assert lines == [{"command": "pass"}]


@pytest.mark.e2e
def test_a_wav_that_starts_at_its_first_sample_is_heard_like_live_audio(capsys, tmp_path):
    # no quiet before the first word: listen gives it the room a microphone would have had
    need_module("pocketsphinx", "pip install -e .[speech]")
    speech = espeak("thank you", "en-us", tmp_path)
    start = int(np.argmax(np.abs(speech) > 500))  # espeak's own lead-in cut away too
    code, lines, _ = run(capsys, "listen", "--wav", str(wav(tmp_path, speech[start:])), "--engine", "sphinx")
    assert (code, lines) == (0, [{"command": "pass"}])


@pytest.mark.e2e
def test_listen_hears_a_file_exactly_as_the_benchmark_does(capsys, tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    from narrator.language import Command, load_voice
    from narrator.voice.audio import read_wav
    from narrator.voice.endpoint import Listener, as_live
    from narrator.voice.engines import SphinxEngine
    from narrator.voice.grammar import build_grammar

    voice, engine = load_voice("en"), SphinxEngine()
    grammar = build_grammar(voice, "seat", upto=10)
    for path in fsdd(6, 3) + fsdd(3, 3):
        heard = []
        listener = Listener(engine.stream(grammar), grammar, voice, 16000, heard.append)
        listener.feed(as_live(read_wav(path, 16000), 16000))
        listener.flush()
        expected = [{"command": "seat", "seat": h.command.seat} if isinstance(h.command, Command) else
                    {"command": None, "say_again": True} for h in heard if isinstance(h.command, Command) or h.unsure]
        assert run(capsys, "listen", "--wav", str(path), "--engine", "sphinx", "--expect", "seat", "--seats", "10")[1] == expected


def test_listen_for_a_seat_prints_the_bare_seat_number(capsys, tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    outputs = [run(capsys, "listen", "--wav", str(p), "--engine", "sphinx", "--expect", "seat")[1] for p in fsdd(9, 4)]
    assert [{"command": "seat", "seat": 9}] in outputs
    # or, when the second recogniser heard another seat, the request to say it again
    assert all(o == [] or o[0]["command"] == "seat" or o[0] == {"command": None, "say_again": True} for o in outputs)


def test_listen_prints_nothing_for_speech_that_is_no_command(capsys, tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    noise = np.random.default_rng(1).normal(0, 300, 16000 * 3)
    code, lines, _ = run(capsys, "listen", "--wav", str(wav(tmp_path, noise)), "--engine", "sphinx")
    assert (code, lines) == (0, [])


def test_a_missing_model_names_the_command_that_fetches_it(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("NARRATOR_MODELS", str(tmp_path / "empty"))
    clip = wav(tmp_path, silence(1))
    code, lines, err = run(capsys, "listen", "--wav", str(clip), "--language", "ru")
    assert code != 0 and lines == []
    assert "narrator models fetch ru" in err


def test_an_unreadable_wav_is_a_clear_error(capsys, tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    bad = tmp_path / "bad.wav"
    bad.write_text("not audio")
    code, _, err = run(capsys, "listen", "--wav", str(bad), "--engine", "sphinx")
    assert code != 0 and "bad.wav" in err


@pytest.mark.parametrize("content", [b"", b"RIFF"])
def test_an_empty_or_cut_wav_says_what_is_wrong_and_names_the_file_once(capsys, tmp_path, content):
    need_module("pocketsphinx", "pip install -e .[speech]")
    bad = tmp_path / "cut.wav"
    bad.write_bytes(content)
    code, _, err = run(capsys, "listen", "--wav", str(bad), "--engine", "sphinx")
    assert code != 0 and err.count("cut.wav") == 1 and "()" not in err


def test_a_stereo_wav_cut_in_the_middle_of_a_frame_is_still_heard(tmp_path):
    import wave

    from narrator.voice.audio import read_wav

    path = tmp_path / "stereo.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(np.zeros(3200, "<i2").tobytes())
    data = path.read_bytes()
    path.write_bytes(data[:-2])  # half of the last frame
    assert len(read_wav(path, 16000)) == 1599


def test_devices_without_a_sound_card_names_the_text_fallback(capsys, monkeypatch):
    from narrator.voice import audio

    monkeypatch.setattr(audio, "list_devices", lambda: [])
    code, _, err = run(capsys, "devices")
    assert code != 0 and "--voice text" in err


@pytest.fixture
def model_server(tmp_path):
    """A local stand-in for the official model site: a model list and one zipped model."""
    site = tmp_path / "site"
    site.mkdir()
    name = models.OFFICIAL["de"]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for f in ("am/final.mdl", "conf/model.conf", "graph/HCLr.fst"):
            z.writestr(f"{name}/{f}", "x")
    data = buf.getvalue()
    (site / f"{name}.zip").write_bytes(data)

    def publish(md5):
        (site / "model-list.json").write_text(json.dumps([{"name": name, "lang": "de", "md5": md5, "size": str(len(data))}]))

    publish(hashlib.md5(data).hexdigest())
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", publish, name
    server.shutdown()


def test_models_fetch_downloads_verifies_and_unpacks_the_official_model(model_server, tmp_path):
    url, _, name = model_server
    progress = io.StringIO()
    path = models.fetch("de", tmp_path / "models", base_url=url, out=progress)
    assert path == tmp_path / "models" / name
    assert models.find_model("de", tmp_path / "models") == path
    assert "#" in progress.getvalue() and "verified" in progress.getvalue()


def test_a_corrupt_download_is_refused_and_leaves_no_model(model_server, tmp_path):
    url, publish, _ = model_server
    publish("0" * 32)
    with pytest.raises(models.FetchError, match="corrupt"):
        models.fetch("de", tmp_path / "models", base_url=url, out=io.StringIO())
    assert models.find_model("de", tmp_path / "models") is None


OFFLINE = "http://127.0.0.1:9/"  # nothing listens on the discard port


def test_offline_the_model_fetch_names_the_file_to_bring_and_where_it_goes(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(models, "BASE_URL", OFFLINE)
    code, _, err = run(capsys, "models", "fetch", "ru", "--dir", str(tmp_path / "m"))
    name = models.OFFICIAL["ru"]
    assert code != 0 and "offline" in err
    assert f"{OFFLINE}{name}.zip" in err and f"narrator models fetch ru --zip {name}.zip" in err
    assert str((tmp_path / "m").resolve()) in err


def test_a_zip_brought_over_by_hand_is_verified_and_unpacked_and_kept(model_server, tmp_path):
    url, _, name = model_server
    brought = tmp_path / "usb" / f"{name}.zip"
    brought.parent.mkdir()
    brought.write_bytes((tmp_path / "site" / f"{name}.zip").read_bytes())
    out = io.StringIO()
    path = models.fetch("de", tmp_path / "models", base_url=url, out=out, zip_file=brought)
    assert models.find_model("de", tmp_path / "models") == path
    assert "verified" in out.getvalue() and brought.is_file()


def test_offline_a_zip_brought_over_is_unpacked_and_says_it_was_not_checked(model_server, tmp_path, capsys):
    _, _, name = model_server
    brought = tmp_path / "site" / f"{name}.zip"
    out = io.StringIO()
    models.fetch("de", tmp_path / "models", base_url=OFFLINE, out=out, zip_file=brought)
    assert models.find_model("de", tmp_path / "models") is not None
    assert "not checked" in out.getvalue()


@pytest.mark.parametrize("damage", ["md5", "truncated", "not a zip", "missing"])
def test_a_damaged_zip_brought_over_is_refused_and_leaves_no_model(model_server, tmp_path, damage):
    url, publish, name = model_server
    brought = tmp_path / f"{name}.zip"
    data = (tmp_path / "site" / f"{name}.zip").read_bytes()
    if damage == "md5":
        publish("0" * 32)
        brought.write_bytes(data)
    elif damage == "truncated":
        brought.write_bytes(data[: len(data) // 2])
    elif damage == "not a zip":
        publish(hashlib.md5(b"hello").hexdigest())
        brought.write_text("hello")
        url = OFFLINE  # offline, the zip's own shape is all there is to check
    with pytest.raises(models.FetchError) as refused:
        models.fetch("de", tmp_path / "models", base_url=url, out=io.StringIO(), zip_file=brought)
    assert str(brought.name) in str(refused.value)
    assert models.find_model("de", tmp_path / "models") is None


def test_listen_refuses_a_seat_count_no_table_has(capsys, tmp_path):
    need_module("pocketsphinx", "pip install -e .[speech]")
    clip = wav(tmp_path, silence(1))
    code, lines, err = run(capsys, "listen", "--wav", str(clip), "--engine", "sphinx", "--seats", "25")
    assert code != 0 and lines == []
    assert "--seats 25" in err


@pytest.mark.e2e
def test_listen_hears_the_number_alone_after_say_the_number_again(capsys, tmp_path):
    """As in a game: a nomination whose seat the recognisers doubt prints the request to say the
    number again, and the number said next completes it; said after the 8 s of the answer, it is
    no command."""
    from test_voice_play import unsure_nomination

    from narrator.voice.again import AGAIN_SECONDS

    need_module("faster_whisper", "pip install -e .[speech]")
    three = np.concatenate([espeak("three", "en-us", tmp_path), silence(1)])
    doubted = np.concatenate([silence(0.5), unsure_nomination(tmp_path)])
    answered = wav(tmp_path, np.concatenate([doubted, three]), "answered.wav")
    late = wav(tmp_path, np.concatenate([doubted, silence(AGAIN_SECONDS), three]), "late.wav")
    asked = {"command": None, "say_again": True}
    assert run(capsys, "listen", "--wav", str(answered), "--engine", "sphinx")[1] == [asked, {"command": "nominate", "seat": 3}]
    assert run(capsys, "listen", "--wav", str(late), "--engine", "sphinx")[1] == [asked]


def test_a_fetched_model_is_found_whatever_folder_the_game_is_started_from(tmp_path, monkeypatch):
    """Fetched once from the checkout, the model must not go missing when the narrator is started
    from the home folder (or by a service): the default folder is the checkout's models/, not ./models."""
    monkeypatch.delenv("NARRATOR_MODELS", raising=False)
    monkeypatch.delenv("NARRATOR_PIPER_VOICES", raising=False)
    monkeypatch.chdir(tmp_path)
    checkout = Path(models.__file__).resolve().parents[2]
    assert models.default_model_dir() == checkout / "models"
    from narrator.voice import piper

    assert piper.default_voice_dir() == checkout / "models" / "piper"


@pytest.mark.e2e
def test_the_piper_voice_folder_is_not_the_folder_of_the_narrators_sentences(tmp_path, monkeypatch):
    # NARRATOR_VOICES names where voices/<lang>.toml live; a Piper folder set there would lose the sentences
    from narrator.voice import piper

    monkeypatch.setenv("NARRATOR_VOICES", str(tmp_path / "sentences"))
    monkeypatch.setenv("NARRATOR_PIPER_VOICES", str(tmp_path / "piper"))
    assert piper.default_voice_dir() == tmp_path / "piper"
