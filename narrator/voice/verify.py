"""A second opinion on a heard seat number, from a recogniser that knows nothing but digits.

PocketSphinx's general en-us model forces every sound onto some seat: on real spoken digits of
speakers it never calibrated on, one seat in four it heard was the wrong one, and no score of its
own told those apart (docs/explanation/ears.md, "How well it hears"). A wrong seat accepted costs
a table far more than a request to say it again. So the seat's stretch of audio is heard a second time by a different acoustic
model, trained on connected digits only (TIDIGITS, 8 kHz, the model PocketSphinx's own tests use,
Debian package `pocketsphinx-testdata`), and the seat stands only when both hear the same number.
Their mistakes are largely their own: on the held-out speakers the wrong seats taken fell from
24-25% to 6-8%, the seats heard right from 75% to 71% (scripts/bench_voice.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

# where Debian (and Ubuntu, Raspberry Pi OS) put it; NARRATOR_TIDIGITS points elsewhere
DEFAULT_DIRS = ("/usr/share/pocketsphinx/test/data/tidigits",)
PACKAGE = "pocketsphinx-testdata"

# the model's phones are per word; "ten" is spelled from the t of "two", the e of "seven" and
# the n that ends "seven" (a seat ten exists at every table of ten)
DICTIONARY = {
    "one": "W_one AX_one N_one",
    "two": "T_two OO_two",
    "three": "TH_three R_three II_three",
    "four": "F_four OW_four R_four",
    "five": "F_five AY_five V_five",
    "six": "S_six I_six K_six S_six_2",
    "seven": "S_seven EH_seven V_seven E_seven N_seven",
    "eight": "EY_eight T_eight",
    "nine": "N_nine AY_nine N_nine_2",
    "ten": "T_two EH_seven N_seven",
}
RATE = 8000
# heard a little around the word the first recogniser placed, so its edges are not cut; more pulls
# in the word before it ("number" of "player number seven"), which the digits model must then call
# a digit: with 150 ms, 8 of 30 whole nominations (Piper's voice) were confirmed, with 80 ms 26,
# while on the calibration speakers' bare digits the wrong seats taken went from 5.6% to 7.9%
PAD_MS = 80


# a windowed-sinc low-pass at 4 kHz: halving 16 kHz without it would fold the hiss and the
# fricatives above 4 kHz down into the band the model listens to
_HALF_BAND = 0.5 * np.sinc(np.arange(-32, 33) / 2) * np.hamming(65)


def to_rate(x: np.ndarray, rate: int) -> np.ndarray:
    if rate == RATE:
        return x
    if rate == 2 * RATE:
        return np.convolve(x, _HALF_BAND, mode="same")[::2]
    from .audio import resample

    return resample(x, rate, RATE)


def model_dir() -> Path | None:
    for d in ([os.environ["NARRATOR_TIDIGITS"]] if os.environ.get("NARRATOR_TIDIGITS") else []) + list(DEFAULT_DIRS):
        if (Path(d) / "hmm" / "mdef").is_file():
            return Path(d)
    return None


class DigitVerifier:
    def __init__(self, path: Path):
        import tempfile

        from pocketsphinx import Decoder

        # the package's own dictionary lacks "ten"; PocketSphinx reads a dictionary only from a
        # file, and only while the decoder is made
        with tempfile.TemporaryDirectory(prefix="narrator-digits-") as folder:
            dic = Path(folder) / "digits.dic"
            dic.write_text("".join(f"{w} {p}\n" for w, p in DICTIONARY.items()), encoding="ascii")
            # bestpath off and 16 codewords a frame: on the calibration speakers 73% -> 81% right, ~1 ms more
            self.decoder = Decoder(hmm=str(path / "hmm"), dict=str(dic), lm=None, samprate=RATE, loglevel="FATAL",
                                   bestpath=False, topn=16)
        self.initial_cmn = self.decoder.get_cmn()
        self._searches: dict[tuple[str, ...], str] = {}
        # a faint fixed dither: the model was trained with dither, and digital silence has no spectrum
        self._dither = np.random.default_rng(1).normal(0, 3.0, RATE * 4).astype(np.float32)

    @classmethod
    def load(cls) -> "DigitVerifier | None":
        from .errors import load_or_none

        return load_or_none(cls, model_dir())

    def knows(self, word: str) -> bool:
        return word in DICTIONARY

    def _search(self, words: tuple[str, ...]) -> str:
        if words not in self._searches:
            name = "digits_" + "_".join(words)
            jsgf = "#JSGF V1.0;\ngrammar digits;\npublic <seat> = " + " | ".join(words) + ";\n"
            self.decoder.add_jsgf_string(name, jsgf)
            self._searches[words] = name
        return self._searches[words]

    def hear(self, audio: np.ndarray, rate: int, choices: list[str]) -> str:
        """The one of `choices` it hears in `audio` (int16 or float samples at `rate`); "" for none."""
        words = tuple(sorted(w for w in set(choices) if self.knows(w)))
        if not words:
            return ""
        x = to_rate(audio.astype(np.float32), rate)
        reps = -(-len(x) // len(self._dither))
        x = np.clip(np.round(x + np.tile(self._dither, reps)[: len(x)]), -32768, 32767).astype(np.int16)
        d = self.decoder
        d.activate_search(self._search(words))
        d.set_cmn(self.initial_cmn)
        d.start_utt()
        d.process_raw(x.tobytes(), False, True)
        d.end_utt()
        hyp = d.hyp()
        return hyp.hypstr.strip() if hyp else ""

    def confirms(self, audio: np.ndarray, rate: int, spans: list[tuple[str, int, int]], choices: list[str]) -> bool | None:
        """Whether every seat word it can judge (word, first and last 10 ms frame) is heard the same
        in its stretch of `audio`; None when it can judge none of them (a seat past ten)."""
        judged = None
        pad = PAD_MS // 10
        frame = rate // 100
        for word, first, last in spans:
            if not self.knows(word):
                continue
            a, b = max(0, (first - pad) * frame), min(len(audio), (last + 1 + pad) * frame)
            if self.hear(audio[a:b], rate, choices) != word:
                return False
            judged = True
        return judged
