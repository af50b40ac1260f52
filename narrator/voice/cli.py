"""`narrator listen`, `narrator devices`, `narrator models fetch|list`, `narrator voices fetch|list`."""

from __future__ import annotations

import json
import sys
import threading


from .errors import VoiceError

EXIT_UNAVAILABLE = 3


def register(subparsers) -> None:
    p = subparsers.add_parser("listen", help="print each spoken command heard (microphone or WAV) as a JSON line")
    p.add_argument("--wav", help="recognise this WAV file instead of the microphone")
    p.add_argument("--language", "-l", help="the table's language (default: the config's)")
    # each rule system's day has its own sentences: a Swedish table says who nominates whom
    p.add_argument("--variant", choices=("classic", "sverige", "hungariq", "grundregeln"),
                   help="the rule system whose day commands are listened for (default: the config's)")
    p.add_argument("--engine", choices=("auto", "vosk", "sphinx"), help="recognition engine (default: the config's)")
    p.add_argument("--expect", choices=("day", "seat"), default="day", help="day commands, or a bare seat number")
    p.add_argument("--model", help="a Vosk model folder (default: found in the model folder)")
    p.add_argument("--seats", type=int, help="seat numbers 1..N can be heard (default: the config's table, at least 10)")
    p.add_argument("--seconds", type=float, default=0, help="stop listening to the microphone after this long")
    if not _has_config_option(p):
        p.add_argument("--config", "-c", help="the game config file")
    p.set_defaults(func=cmd_listen)

    p = subparsers.add_parser("devices", help="list the audio devices (for voice.device and input.microphone)")
    p.set_defaults(func=cmd_devices)

    p = subparsers.add_parser("models", help="list or fetch the offline speech models")
    sub = p.add_subparsers(dest="models_command", required=True)
    f = sub.add_parser("fetch", help="download and verify the official Vosk model of a language")
    f.add_argument("lang")
    f.add_argument("--dir", help="the model folder (default: input.model_dir, or models/ in the narrator's folder)")
    f.add_argument("--zip", metavar="FILE", help="the official zip, downloaded on another machine and brought over: "
                   "verified (when the model list can be reached) and unpacked instead of downloaded")
    f.set_defaults(func=cmd_models_fetch)
    ls = sub.add_parser("list", help="the models present, and the ones that can be fetched")
    ls.add_argument("--dir", help="the model folder (default: input.model_dir, or models/ in the narrator's folder)")
    ls.set_defaults(func=cmd_models_list)

    register_voices(subparsers)


def register_voices(subparsers) -> None:
    p = subparsers.add_parser("voices", help="list or fetch Piper voices (a natural voice beside espeak-ng)")
    sub = p.add_subparsers(dest="voices_command", required=True)
    f = sub.add_parser("fetch", help="download and verify a voice of the official Piper collection")
    f.add_argument("name", help="e.g. ru_RU-irina-medium, de_DE-thorsten-medium, sv_SE-nst-medium, hu_HU-anna-medium")
    f.add_argument("--dir", help="the voice folder (default: voice.voice_dir, or models/piper in the narrator's folder)")
    f.set_defaults(func=cmd_voices_fetch)
    ls = sub.add_parser("list", help="the Piper voices present, and a suggested one per language")
    ls.add_argument("--dir", help="the voice folder (default: voice.voice_dir, or models/piper in the narrator's folder)")
    ls.set_defaults(func=cmd_voices_list)


def _voice_dir(args):
    from pathlib import Path

    from .piper import voice_dir_of

    return Path(args.dir) if args.dir else voice_dir_of(_config(args))


def _download(fetch, name: str, folder) -> int:
    """A model or voice fetched into its folder; 0, or the failure said in one line (both resume)."""
    from .models import FetchError

    try:
        fetch(name, folder)
    except (FetchError, VoiceError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return _fail("download interrupted; run the same command again to resume it")
    return 0


def cmd_voices_fetch(args) -> int:
    from .piper import fetch

    if failed := _download(fetch, args.name, _voice_dir(args)):
        return failed
    print(f'use it with [voice] engine = "piper" and voice = "{args.name}"', file=sys.stderr)
    return 0


def cmd_voices_list(args) -> int:
    from .piper import SUGGESTED, installed

    try:
        root = _voice_dir(args)
    except VoiceError as exc:
        return _fail(str(exc))
    present = dict(installed(root))
    print(f"voice folder: {root}")
    for name, path in present.items():
        print(f"  {name}  {path}")
    for lang, name in SUGGESTED.items():
        if name not in present:
            print(f"  {name}  missing ({lang}) — narrator voices fetch {name}")
    print("  espeak-ng  every language, no download (the default)")
    return 0


def _has_config_option(parser) -> bool:
    return any("--config" in a.option_strings for a in parser._actions)


def _config(args):
    from ..config import ConfigError, default_config, load_config

    path = getattr(args, "config", None)
    try:
        return load_config(path) if path else default_config()
    except ConfigError as exc:
        raise VoiceError(str(exc)) from None


def _fail(message: str) -> int:
    print(f"narrator: {message}", file=sys.stderr)
    return EXIT_UNAVAILABLE


def command_json(cmd) -> dict:
    name = {"end_speech": "pass"}.get(cmd.kind, cmd.kind)
    out = {"command": name}
    if cmd.seat is not None:
        out["seat"] = cmd.seat
    if cmd.by is not None:
        out["by"] = cmd.by  # who nominates, withdraws or accuses, where the sentence names him
    return out


def cmd_listen(args) -> int:
    from ..language import Command, load_voice
    from .again import SeatAskedAgain
    from .endpoint import Listener, as_live
    from .engines import open_engine
    from .grammar import build_grammar
    from .models import model_dir_of

    try:
        config = _config(args)
        lang = args.language or config.language
        variant = args.variant or config.variant.name
        try:
            voice = load_voice(lang, variant)
        except FileNotFoundError as exc:
            return _fail(str(exc))
        engine = open_engine(args.engine or config.section("input")["engine"], lang, model_dir_of(config), args.model,
                             second_opinion=config.section("input")["second_opinion"])
        seats = args.seats if args.seats is not None else max(config.seats, 10)
        if not 1 <= seats <= 20:
            return _fail(f"--seats {seats}: a table has 1 to 20 seat numbers that can be heard")
        # the table's seats only, as in play: a seat that does not exist cannot be mistaken for one that does
        grammar = build_grammar(voice, args.expect, upto=seats)

        def heard(h):
            if h.unsure:
                # a command whose seat the two recognisers heard differently: as in a game, the
                # number alone said next completes it; a sentence naming two seats is said again whole
                asked = again.doubted(h) if again is not None else "say_seat_again"
                print(json.dumps({"command": None, "say_again": True,
                                  **({"sentence": True} if asked == "say_sentence_again" else {})}), flush=True)
                return
            if again is not None and isinstance(h.command, Command) and h.command.kind == "seat":
                h = again.answer(h)
            if h is not None and isinstance(h.command, Command):
                print(json.dumps(command_json(h.command), ensure_ascii=False), flush=True)

        listener = Listener(engine.stream(grammar), grammar, voice, engine.sample_rate, heard)
        again = SeatAskedAgain(listener, engine, voice, seats) if args.expect == "day" else None

        def feed(block):
            if again is not None:
                again.elapse(len(block) / engine.sample_rate)
            listener.feed(block)

        if args.wav:
            from .audio import read_wav

            try:
                samples = read_wav(args.wav, engine.sample_rate)
            except ValueError as exc:  # it names the file itself
                return _fail(str(exc))
            except OSError as exc:
                return _fail(f"cannot read {args.wav}: {exc.strerror or exc}")
            # heard as live audio is: the quiet of the room before it, a pause after it (the
            # benchmark hears its clips the same way), in the microphone's blocks
            audio, block = as_live(samples, engine.sample_rate), engine.sample_rate // 50
            for at in range(0, len(audio), block):
                feed(audio[at:at + block])
            listener.flush()
            return 0
        return _listen_microphone(feed, listener, engine, config, args.seconds)
    except VoiceError as exc:
        return _fail(str(exc))


def _listen_microphone(feed, listener, engine, config, seconds: float) -> int:
    from .audio import resolve_device

    import sounddevice as sd

    device = resolve_device(config.section("input")["microphone"], "input")
    done = threading.Event()
    rate = engine.sample_rate
    print("listening… (Ctrl-C stops)", file=sys.stderr)
    try:
        with sd.InputStream(samplerate=rate, channels=1, dtype="int16", device=device, blocksize=rate // 50) as stream:
            fed = 0
            while not done.is_set():
                block, _ = stream.read(rate // 50)
                feed(block[:, 0])
                fed += len(block)
                if seconds and fed >= seconds * rate:
                    break
    except KeyboardInterrupt:
        pass
    except sd.PortAudioError as exc:
        return _fail(f"cannot read the microphone ({exc}); play with --voice text and type the commands instead")
    listener.flush()
    return 0


def cmd_devices(args) -> int:
    from .audio import list_devices

    try:
        devices = list_devices()
    except VoiceError as exc:
        return _fail(str(exc))
    if not devices:
        return _fail("no audio devices found; play with --voice text and type the commands instead")
    for d in devices:
        marks = ("  default input" if d["default_input"] else "") + ("  default output" if d["default_output"] else "")
        print(f"{d['index']:3d}  {d['name']}  (in {d['inputs']}, out {d['outputs']}, {d['default_rate']:.0f} Hz){marks}")
    return 0


def _model_dir(args):
    from pathlib import Path

    from .models import model_dir_of

    return Path(args.dir) if args.dir else model_dir_of(_config(args))


def cmd_models_fetch(args) -> int:
    from .models import fetch

    return _download(lambda lang, folder: fetch(lang, folder, zip_file=args.zip), args.lang, _model_dir(args))


def cmd_models_list(args) -> int:
    from .engines import sphinx_available
    from .models import OFFICIAL, installed

    try:
        root = _model_dir(args)
    except VoiceError as exc:
        return _fail(str(exc))
    present = dict(installed(root))
    print(f"model folder: {root}")
    for lang in sorted(set(OFFICIAL) | set(present)):
        if lang in present:
            print(f"  {lang}  vosk  {present[lang]}")
        else:
            print(f"  {lang}  vosk  missing — narrator models fetch {lang}")
    if sphinx_available():
        print("  en  sphinx  bundled with pocketsphinx (no download)")
    return 0
