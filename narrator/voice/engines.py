"""Two recognition engines behind one small interface.

`Engine.stream(grammar)` returns a `Stream`: `accept(pcm)` feeds 16-bit mono PCM at
`engine.sample_rate`, `partial()` is the hypothesis so far, `final()` ends the utterance and
returns its text, `reset()` drops it. Streams are made once per grammar and reused: creating a
Vosk recogniser per utterance was measured ten times slower.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from .errors import ModelMissing
from .grammar import Grammar

SAMPLE_RATE = 16000
# a seat word whose loudest 10 ms is this far below the utterance's loudest was put on a pause
PHANTOM_DB = 30.0


class Leveller:
    """Brings an utterance to one level before PocketSphinx hears it, then adds a microphone's hiss.

    The en-us model was trained on speech at a normal level over a little room noise; a player
    far from the microphone or speaking softly arrives 20 dB lower and was drowned by the fixed
    hiss (measured: real digits attenuated by 20 dB went from 72% to 30% right). So the loudest
    10 ms frame of the utterance is brought to `target_dbfs` (gain at most `max_gain_db`, so
    a faint noise is not blown up into a voice), and only then is the hiss added under it.

    The utterance is decoded whole anyway (see SphinxStream), so the gain is known from the
    whole utterance heard so far at no extra pass: one multiplication per decode.
    """

    def __init__(self, target_dbfs: float = -18.0, max_gain_db: float = 30.0, hiss_dbfs: float | None = -50.0,
                 frame: int = SAMPLE_RATE // 100):
        self.target_dbfs = target_dbfs
        self.max_gain_db = max_gain_db
        self.frame = frame
        self.hiss_dbfs = hiss_dbfs
        # 2 s of fresh noise, cycled: one 10 ms pattern repeated was measured to look like a
        # sound to PocketSphinx, not like silence
        level = 32768.0 * 10 ** (hiss_dbfs / 20) if hiss_dbfs is not None else 0.0
        self._hiss = np.random.default_rng(0).normal(0, level, 200 * frame).astype(np.float32)

    def peak_dbfs(self, x: np.ndarray) -> float:
        n = len(x) // self.frame
        if n == 0:
            return -120.0
        frames = x[: n * self.frame].astype(np.float32).reshape(n, self.frame) / 32768.0
        return 10.0 * float(np.log10((frames * frames).mean(axis=1).max() + 1e-12))

    def gain_db(self, x: np.ndarray, peak: float | None = None) -> float:
        """The gain for `x`; `peak` is its peak_dbfs when the caller has it already."""
        return min(self.target_dbfs - (self.peak_dbfs(x) if peak is None else peak), self.max_gain_db)

    def gained(self, x: np.ndarray, peak: float | None = None) -> np.ndarray:
        """`x` brought to the target level, as floats, without the hiss: what a second recogniser hears."""
        return x.astype(np.float32) * 10 ** (self.gain_db(x, peak) / 20)

    def level(self, x: np.ndarray, peak: float | None = None) -> np.ndarray:
        y = self.gained(x, peak)
        if self.hiss_dbfs is not None:
            reps = -(-len(y) // len(self._hiss))
            y += np.tile(self._hiss, reps)[: len(y)]
        return np.clip(np.round(y), -32768, 32767).astype(np.int16)


class Stream:
    # True: the stream gets each utterance raw and sets its own level (see SphinxStream); False:
    # the listener dithers digital silence and the engine hears the microphone as it is
    levels_itself: bool = False
    # mean log acoustic score per frame of the words of the last final() (PocketSphinx only);
    # None: the engine gives none, and no acoustic gate applies
    word_score: float | None = None
    # the longest a word of the last final() lasted, ms (PocketSphinx only)
    longest_word_ms: float | None = None
    # whether a second recogniser heard the same seat numbers in the last final(): None when
    # nobody asked it (no seat, no second recogniser, a seat it cannot judge)
    seats_confirmed: bool | None = None
    # what Whisper made of the words of the last final() (whisper_judge.Reading; PocketSphinx with
    # Whisper installed only)
    reading = None
    # how far the utterance's loudest 10 ms stands above the room's floor (dB), set by the listener
    # before each decode: in a noisy room Whisper must agree more surely (whisper_judge.NOISY_DB)
    room_db: float | None = None
    # Whisper reads every utterance along (PocketSphinx with Whisper installed): the listener may
    # then end an utterance sooner after its last word (Endpointing.tail_db)
    whisper_reads_along: bool = False

    def accept(self, pcm: bytes) -> None: ...
    def partial(self) -> str: ...
    def final(self) -> str: ...
    def reset(self) -> None: ...


class Engine:
    name = "?"
    sample_rate = SAMPLE_RATE

    def knows(self, word: str) -> bool: ...
    def stream(self, grammar: Grammar | None) -> Stream: ...


# ---------------------------------------------------------------------------------------- Vosk
class VoskStream(Stream):
    def __init__(self, engine: "VoskEngine", grammar: Grammar | None):
        import vosk

        self.grammar = grammar
        if grammar is None:
            self.rec = vosk.KaldiRecognizer(engine.model, engine.sample_rate)
        else:
            phrases = grammar.phrases(whole=False)
            if engine.has_unk:
                phrases.append("[unk]")
            else:
                phrases.extend(grammar.fillers)
            # ensure_ascii=False: Vosk reads "\uc77c" literally and drops every non-Latin word
            self.rec = vosk.KaldiRecognizer(engine.model, engine.sample_rate, json.dumps(phrases, ensure_ascii=False))
        self._fed = False

    def accept(self, pcm: bytes) -> None:
        self._fed = True
        self.rec.AcceptWaveform(pcm)

    def partial(self) -> str:
        return json.loads(self.rec.PartialResult()).get("partial", "")

    def final(self) -> str:
        if not self._fed:
            return ""
        self._fed = False
        text = json.loads(self.rec.FinalResult()).get("text", "")
        return " ".join(w for w in text.split() if w != "[unk]")

    def reset(self) -> None:
        self._fed = False
        self.rec.Reset()


class VoskEngine(Engine):
    name = "vosk"

    def __init__(self, model_path: str | Path):
        import vosk

        vosk.SetLogLevel(-1)
        path = Path(model_path)
        if not (path / "am").is_dir() and not (path / "final.mdl").exists():
            raise ModelMissing(f"{path} is not a Vosk model folder (no am/ inside)", "not_a_model", path=str(path))
        self.model_path = path
        self.model = vosk.Model(str(path))
        # small models differ: some have no [unk] word, and out-of-grammar speech needs a home
        self.has_unk = self.knows("[unk]")

    def knows(self, word: str) -> bool:
        return all(self.model.vosk_model_find_word(w) >= 0 for w in word.split())

    def stream(self, grammar: Grammar | None) -> Stream:
        if grammar is not None:
            grammar = grammar.restricted(self.knows)
        return VoskStream(self, grammar)


# --------------------------------------------------------------------------------- PocketSphinx
class SphinxStream(Stream):
    """Buffers the utterance and decodes it whole.

    PocketSphinx normalises the cepstrum over the whole utterance only when it gets it in one
    piece (batch CMN); streamed, it starts from a fixed guess that fits neither the speaker nor
    the microphone. Measured on the real digits: whole-utterance decoding 54% → 58% right at the
    same settings, and a decode takes ~20 ms per second of audio, paid at the pauses.
    """

    levels_itself = True

    @property
    def whisper_reads_along(self) -> bool:
        return self.engine.judge is not None

    def __init__(self, engine: "SphinxEngine", search: str, numbers: list[str] | None = None, bare: bool = False):
        self.engine = engine
        self.search = search
        self.numbers = numbers or []
        self.bare = bare  # a bare seat number is all that is listened for ("say the number again")
        self.leveller = Leveller()
        self._audio: list[bytes] = []
        self._size = 0
        self._decoded: tuple[int, str] | None = None  # (bytes decoded, hypothesis)
        self._last_reading = None  # (words read along, or None for a seat read alone; samples; what Whisper read) of the utterance so far

    def accept(self, pcm: bytes) -> None:
        self._audio.append(pcm)
        self._size += len(pcm)

    def _decode(self) -> str:
        if self._decoded is not None and self._decoded[0] == self._size:
            return self._decoded[1]
        d = self.engine.decoder
        # current_search() crashes PocketSphinx 5.1 while no search is active, so track it here
        if self.engine.search != self.search:
            d.activate_search(self.search)
            self.engine.search = self.search
        audio = b"".join(self._audio)
        self._audio = [audio]
        # each utterance from the same start: the decoder carried its cepstral mean over from the
        # last one, so a clip was heard differently depending on what came before it (accuracy
        # the same either way, measured)
        d.set_cmn(self.engine.initial_cmn)
        d.start_utt()
        x = np.frombuffer(audio, np.int16)
        peak = self.leveller.peak_dbfs(x)  # once a decode: the gain and the second opinion both need it
        d.process_raw(self.leveller.level(x, peak).tobytes(), False, True)
        d.end_utt()
        hyp = d.hyp()
        text = hyp.hypstr if hyp else ""
        self.word_score = self._word_score()
        self.seats_confirmed, text = self._second_opinion(x, peak, text)
        self._decoded = (self._size, text)
        return text

    def partial(self) -> str:
        return self._decode() if self._size else ""

    def final(self) -> str:
        if not self._size:
            return ""
        text = self._decode()
        self.reset()
        return text

    def _word_score(self) -> float | None:
        """How well the words of the best path fit the audio: log acoustic score per frame.

        Ordinary talk forced onto a command sentence fits it badly; measured on the real
        recordings (scripts/calibrate_gate.py), see `Endpointing.min_word_score`."""
        import math

        total, frames, longest = 0.0, 0, 0
        for seg in self.engine.decoder.seg() or []:
            if seg.word.startswith(("<", "[")) or seg.word in ("sil", "SIL"):
                continue
            n = seg.end_frame - seg.start_frame + 1
            total += math.log(max(seg.ascore, 1e-320))
            frames += n
            longest = max(longest, n)
        self.longest_word_ms = longest * 10.0 if frames else None  # 100 frames a second
        return total / frames if frames else None

    def _second_opinion(self, x: np.ndarray, peak: float, text: str) -> tuple[bool | None, str]:
        """Whether the seat words of the best path stand, heard again by Whisper (whisper_judge.py)
        or, without it, by the digits-only recogniser (verify.py); and the text with the seats
        Whisper is sure of. PocketSphinx says which words were said and where the seat is, Whisper
        which seat it was: where it is sure of another seat than PocketSphinx's, its seat is taken."""
        numbers = set(self.numbers)
        words: list[str] = []
        spans = []  # (seat word, first and last frame, its place among the words)
        for seg in self.engine.decoder.seg() or []:
            word = seg.word.split("(")[0]  # "seven(2)": the dictionary's second pronunciation
            if word.startswith(("<", "[")) or word in ("sil", "SIL"):
                continue
            if word in numbers:
                spans.append((word, seg.start_frame, seg.end_frame, len(words)))
            words.append(word)
        judge = self.engine.judge
        self.reading = None
        if not spans and self.bare and judge is not None and self.numbers:
            # a number was asked for and PocketSphinx placed none (it found no words, or "player"
            # and no number after it): where Whisper is sure of a seat (whisper_judge.ALONE), it
            # is taken. On the calibration speakers' bare digits (680 at 0 and -20 dB) PocketSphinx
            # placed no number in 43; Whisper took 12 of them, none wrong (86.5% -> 88.2% right),
            # and none of the 100 real non-command clips where it placed none (the likeliest:
            # 0.70). Only here: in the day's commands a seat is never read where PocketSphinx heard none
            seat = self._read_alone(x, peak)
            return (True, seat.word) if seat is not None and seat.stands_alone() else (None, text)
        if judge is not None and words:
            self.reading = self._read(x, peak, words)
        if not spans:
            return None, text
        # a seat placed on the pause ("i nominate player ..." and a breath: the grammar must end
        # in a number, so it puts one there) is no seat, whatever a second recogniser says of it
        frames = self.leveller.frame
        for _, first, last, _ in spans:
            if self.leveller.peak_dbfs(x[first * frames:(last + 1) * frames]) < peak - PHANTOM_DB:
                return False, text
        if self.reading is not None:
            from .whisper_judge import NOISY_DB

            noisy = self.room_db is not None and self.room_db < NOISY_DB
            for (word, *_, i), seat in zip(spans, self.reading.seats):
                if seat.overrules(word):
                    words[i] = seat.word
                elif not seat.agrees(word, noisy):
                    return False, text
            return True, " ".join(words)
        if self.engine.verifier is None:
            return None, text
        return self.engine.verifier.confirms(self.leveller.gained(x, peak), SAMPLE_RATE, [s[:3] for s in spans],
                                             self.numbers), text

    def _read(self, x: np.ndarray, peak: float, words: list[str]):
        """Whisper's reading of `words` in the utterance `x`; None if it failed on it."""
        return self._kept(words[:], x, peak,
                          lambda g: self.engine.judge.listen(g, words, self.numbers, asked=self.bare))

    def _read_alone(self, x: np.ndarray, peak: float):
        """Whisper's seat at the start of the utterance `x`, read without PocketSphinx's words; None if it failed."""
        return self._kept(None, x, peak, lambda g: self.engine.judge.seat_alone(g, self.numbers))

    def _kept(self, key, x: np.ndarray, peak: float, read):
        """What Whisper `read` of the utterance `x` (levelled), under `key` (the words it read along,
        or None for a seat read alone). The looks at a pause and the closing decode add only the
        pause: while PocketSphinx hears the same words, a reading made of them stands (it was ~40
        ms a look)."""
        last = self._last_reading
        if last is not None and last[0] == key and (
                len(x) == last[1] or self.leveller.peak_dbfs(x[last[1]:]) < peak - PHANTOM_DB):
            return last[2]
        try:
            result = read(self.leveller.gained(x, peak))
        except Exception:  # noqa: BLE001 - Whisper failing on one utterance is a seat not confirmed, not a crash
            result = None
        self._last_reading = (key, len(x), result)
        return result

    def reset(self) -> None:
        self._audio = []
        self._size = 0
        self._decoded = None
        self._last_reading = None


class SphinxEngine(Engine):
    """PocketSphinx with its bundled en-us model: English with nothing to download.

    One decoder holds a named search per grammar; switching searches is cheap, decoders are not.
    """

    name = "sphinx"

    def __init__(self, free: bool = False, second_opinion: bool = True):
        from pocketsphinx import Decoder, get_model_path

        model = Path(get_model_path())
        kwargs = dict(hmm=str(model / "en-us" / "en-us"), dict=str(model / "en-us" / "cmudict-en-us.dict"),
                      samprate=SAMPLE_RATE, loglevel="FATAL")
        if free:
            kwargs["lm"] = str(model / "en-us" / "en-us.lm.bin")
        else:
            kwargs["lm"] = None
        self.decoder = Decoder(**kwargs)
        self.initial_cmn = self.decoder.get_cmn()
        self.search: str | None = "_default" if free else None
        self._searches: dict[str, SphinxStream] = {}
        self.free = free
        # every seat number heard again: by Whisper (whisper_judge.py) or, where it is not
        # installed, by a digits-only recogniser (verify.py)
        self.judge = self.verifier = None
        if second_opinion and not free:  # free recognition is the benchmark's baseline only
            from .whisper_judge import WhisperJudge

            self.judge = WhisperJudge.load()
            if self.judge is None:
                from .verify import DigitVerifier

                self.verifier = DigitVerifier.load()

    def knows(self, word: str) -> bool:
        return all(self.decoder.lookup_word(w) is not None for w in word.split())

    def stream(self, grammar: Grammar | None) -> Stream:
        if grammar is None:
            if not self.free:
                raise ValueError("free recognition needs SphinxEngine(free=True)")
            return SphinxStream(self, "_default")
        # a filler loop in the FSG costs PocketSphinx ~15x the decoding time and a third of its
        # digit accuracy (measured), so its grammar has none: rejection rests on the strict parse
        # of what it returns and on the gate of the endpointer
        known = grammar.restricted(self.knows)
        jsgf = known.jsgf(with_fillers=False)
        # named by content: the same phase at a 10-seat and a 20-seat table are different grammars
        name = f"{grammar.lang}_{grammar.name}_{hashlib.sha1(jsgf.encode()).hexdigest()[:10]}"
        if name not in self._searches:
            self.decoder.add_jsgf_string(name, jsgf)
            self._searches[name] = SphinxStream(self, name, known.numbers, bare=known.kinds == ("seat",))
        return self._searches[name]


# ------------------------------------------------------------------------------------ choosing
def sphinx_available() -> bool:
    try:
        import pocketsphinx  # noqa: F401
    except ImportError:
        return False
    return True


def open_engine(engine: str, lang: str, model_dir: str | os.PathLike | None = None, model_path: str | None = None,
                second_opinion: bool = True) -> Engine:
    """The engine the config asks for; `auto` prefers a Vosk model and falls back to PocketSphinx (en only)."""
    from .models import find_model

    if engine in ("none", ""):
        raise ModelMissing("speech input is off (input.engine = \"none\"); type the commands instead", "speech_off")
    if engine == "sphinx":
        if lang != "en":
            raise ModelMissing(f"PocketSphinx speaks only English here; for {lang!r} run: narrator models fetch {lang}",
                               "sphinx_english_only", language=repr(lang), lang=lang)
        if not sphinx_available():
            raise ModelMissing("pocketsphinx is not installed: pip install 'narrator[speech]'", "no_pocketsphinx")
        return SphinxEngine(second_opinion=second_opinion)
    path = Path(model_path) if model_path else find_model(lang, model_dir)
    if path is not None:
        try:
            import vosk  # noqa: F401
        except ImportError:
            raise ModelMissing("vosk is not installed: pip install 'narrator[speech]'", "no_vosk") from None
        return VoskEngine(path)
    if engine == "auto" and lang == "en" and sphinx_available():
        return SphinxEngine(second_opinion=second_opinion)
    from .models import OFFICIAL, default_model_dir

    where = Path(model_dir) if model_dir else default_model_dir()
    if lang not in OFFICIAL:
        raise ModelMissing(f"there is no official Vosk model for {lang!r}; put a Vosk model folder in {where / lang}, "
                           "or play with --voice text and type the commands", "no_official_model",
                           language=repr(lang), folder=str(where / lang))
    raise ModelMissing(f"no Vosk model for {lang!r} in {where}; fetch it with: narrator models fetch {lang}"
                       + (" (or use --engine sphinx for English without a download)" if lang == "en" else ""),
                       "no_model_en" if lang == "en" else "no_model", language=repr(lang), folder=str(where), lang=lang)
