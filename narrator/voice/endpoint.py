"""Endpointing: cut the microphone stream into utterances and hand each finished one to the parser.

An energy detector with an adaptive noise floor finds speech. The utterance ends on a short
silence, and how short depends on what was heard: once the hypothesis so far is already a
complete command, a brief pause ends it (the confirmation comes quickly); otherwise the listener
waits longer, so a speaker who pauses in the middle of "I'm submitting ... player seven" is not
cut off.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..language import Command, Voice
from .engines import Stream
from .grammar import Grammar

FRAME_MS = 10


@dataclass
class Endpointing:
    quick_silence_ms: int = 150  # after a complete command
    silence_ms: int = 600  # after anything else
    start_ms: int = 40  # this much speech starts an utterance
    preroll_ms: int = 250  # audio before the detected start, so the first consonant is not lost
    max_utterance_ms: int = 12000
    margin_db: float = 9.0  # speech is this much louder than the quietest recent frame
    floor_dbfs: float = -50.0  # nothing quieter than this is speech
    # hiss added to every frame (see Listener._frame); None: the engine's own choice
    noise_floor_dbfs: float | None = None
    # the longest a sentence of n words plausibly takes, even spoken slowly (~100 words/min)
    slack_ms: int = 1000
    ms_per_word: int = 600
    # a heard command whose words fit the audio worse than this (mean log acoustic score per
    # frame, PocketSphinx) is ordinary talk forced onto the grammar. scripts/calibrate_gate.py
    # takes it from half of the real coffee-order negatives (just above their best-fitting forced
    # command, -2.35) and checks it on the other half (0 of 46 forced commands through); engines
    # giving no score (Vosk) are not gated
    min_word_score: float = -2.3
    # every day command: a "thank you" forced out of talk would end a player's minute. A bare
    # seat number (a short word, which fits worse on average) is asked for only when expected
    gated: tuple = ("nominate", "revoke", "nominate_by", "withdraw_by", "accuse", "end_speech", "cancel", "extension")
    # no word of a command lasts this long even spoken slowly; an engine without a garbage model
    # stretches one word ("vote", "the") over seconds of talk or noise it cannot place
    max_word_ms: float = 1000.0

    def plausible_ms(self, words: int) -> int:
        return self.slack_ms + self.ms_per_word * words


@dataclass
class Heard:
    text: str
    command: object  # Command, Malformed or None
    end_of_audio_s: float  # stream time at which the utterance was closed
    last_speech_s: float  # stream time of the last frame detected as speech
    decode_ms: float  # wall time spent closing the utterance


def frame_db(frame: np.ndarray) -> float:
    x = frame.astype(np.float32) / 32768.0
    return 10.0 * float(np.log10(np.mean(x * x) + 1e-12))


class Listener:
    """Feed it PCM frames (int16, engine rate); it calls `on_heard` for every finished utterance."""

    def __init__(self, stream: Stream, grammar: Grammar, voice: Voice, sample_rate: int,
                 on_heard: Callable[[Heard], None], config: Endpointing | None = None):
        self.stream = stream
        self.grammar = grammar
        self.voice = voice
        self.rate = sample_rate
        self.on_heard = on_heard
        self.cfg = config or Endpointing()
        self.frame = sample_rate * FRAME_MS // 1000
        self._buf = np.zeros(0, dtype=np.int16)
        self._pre: deque = deque(maxlen=max(1, self.cfg.preroll_ms // FRAME_MS))
        self.noise_db = -60.0
        self._recent: deque = deque(maxlen=1000 // FRAME_MS)
        self.t = 0.0  # stream time in seconds
        # a microphone's own hiss, added to every frame: 2 s of fresh noise, cycled (one 10 ms
        # pattern repeated was measured to look like a sound to PocketSphinx, not like silence)
        floor = self.cfg.noise_floor_dbfs
        if floor is None:
            floor = getattr(stream, "noise_floor_dbfs", None)
        # without a floor only digital silence gets a faint dither, which no engine hears as a sound
        self._hiss_everywhere = floor is not None
        level = 32768.0 * 10 ** (floor / 20) if floor is not None else 20.0
        self._hiss = np.random.default_rng(0).normal(0, level, 200 * self.frame).astype(np.int16)
        self._hiss_at = 0
        self._reset_state()

    def _reset_state(self) -> None:
        self.in_speech = False
        self._speech_run = 0
        self._silence = 0
        self._length = 0
        self._last_speech_t = 0.0
        self._checks = 0
        self._complete = False
        self._too_long = False

    def reset(self) -> None:
        """Drop the utterance in progress (the narrator started talking, the phase changed)."""
        if self.in_speech:
            self.stream.reset()
        self._buf = np.zeros(0, dtype=np.int16)
        self._pre.clear()
        self._recent.clear()
        self._reset_state()

    def complete(self, text: str) -> bool:
        return isinstance(self.voice.parse(text, only=self.grammar.only), Command)

    def feed(self, pcm: np.ndarray) -> None:
        self._buf = np.concatenate([self._buf, pcm.astype(np.int16, copy=False).reshape(-1)])
        n = len(self._buf) // self.frame
        for i in range(n):
            self._frame(self._buf[i * self.frame:(i + 1) * self.frame])
        self._buf = self._buf[n * self.frame:]

    def _frame(self, frame: np.ndarray) -> None:
        cfg = self.cfg
        # Digital silence (files, null devices) and studio-clean recordings are nothing like the
        # rooms the acoustic models were trained in: PocketSphinx then finds no hypothesis at
        # all or hears the padding as a sound. A floor of hiss at -50 dBFS, which any real
        # microphone has anyway, made real digits 64% → 72% right; louder input hides it.
        # (Vosk needs none, and a Korean test voice was heard worse with it.)
        if self._hiss_everywhere or not frame.any() or int(np.abs(frame).max()) < 8:
            at = self._hiss_at
            frame = (frame.astype(np.int32) + self._hiss[at: at + len(frame)]).clip(-32768, 32767).astype(np.int16)
            self._hiss_at = (at + self.frame) % (len(self._hiss) - self.frame)
        self.t += FRAME_MS / 1000.0
        db = frame_db(frame)
        # minimum statistics: the quietest frame of the last second is the room's floor, so a
        # steady noise (a kitchen, a fan) never counts as speech, while speech never lasts long
        # enough without a pause to lift the floor
        self._recent.append(db)
        self.noise_db = min(self._recent)
        speech = db > max(self.noise_db + cfg.margin_db, cfg.floor_dbfs)
        if not self.in_speech:
            self._pre.append(frame)
            self._speech_run = self._speech_run + 1 if speech else 0
            if self._speech_run * FRAME_MS >= cfg.start_ms:
                self.in_speech = True
                self.stream.accept(np.concatenate(list(self._pre)).tobytes())
                self._pre.clear()
                self._length = self._speech_run
                self._last_speech_t = self.t
            return
        if not self._too_long:
            self.stream.accept(frame.tobytes())
        self._length += 1
        if speech:
            self._silence = 0
            self._last_speech_t = self.t
            self._checks = 0
            self._complete = False
            if not self._too_long and self._length * FRAME_MS > cfg.plausible_ms(self.grammar.max_words):
                # no command of this grammar takes this long: it is talk, whatever words an
                # engine would force onto it, so stop decoding it (long talk cost a decode at
                # every pause) and only wait for its end
                self._too_long = True
                self.stream.reset()
            return
        self._silence += 1
        silent_ms = self._silence * FRAME_MS
        # is what was said so far a whole command? Asked halfway to the quick limit and, if not
        # yet, at it: a whole-utterance decode with very little trailing silence sometimes ends
        # nowhere (no hypothesis), and waiting the long limit for that cost 450 ms at the p95
        quick = min(cfg.quick_silence_ms, cfg.silence_ms)
        if not self._too_long and not self._complete and self._checks < 2 and silent_ms >= (self._checks + 1) * quick // 2:
            self._checks += 1
            self._complete = self.complete(self.stream.partial())
        limit = cfg.quick_silence_ms if self._complete else cfg.silence_ms
        if silent_ms >= limit or self._length * FRAME_MS >= cfg.max_utterance_ms:
            self._close()

    def _close(self) -> None:
        started = time.perf_counter()
        text = "" if self._too_long else self.stream.final()
        command = self.voice.parse(text, only=self.grammar.only) if text else None
        speech_ms = self._length * FRAME_MS - self._silence * FRAME_MS
        if command is not None and speech_ms > self.cfg.plausible_ms(len(text.split())):
            # far more speech than the words heard: an engine without a garbage model squeezed
            # ordinary talk into a command sentence; nothing is guessed
            command = None
        score = getattr(self.stream, "word_score", None)
        longest = getattr(self.stream, "longest_word_ms", None)
        if isinstance(command, Command) and command.kind in self.cfg.gated and score is not None and (
                score < self.cfg.min_word_score or (longest or 0) > self.cfg.max_word_ms):
            command = None  # the words do not fit the sound well enough to name a seat
        heard = Heard(text, command, self.t, self._last_speech_t, (time.perf_counter() - started) * 1000)
        self._reset_state()
        self.on_heard(heard)

    def flush(self) -> None:
        """The stream ended (end of a WAV file): close an utterance in progress."""
        if self.in_speech:
            self._close()
