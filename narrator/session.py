"""A game together with its config and language: the layer every driver (replay, live play,
simulation, companion, voice) talks to. Still pure: no clock, no I/O."""

from __future__ import annotations

import random

from .config import Config
from .flow.effects import Effect
from .flow.events import Deal, Event
from .flow.days import Game
from .inputs import InputError, Talk, parse_line, sentence_event
from .language import Voice, load_voice
from .rules.dealing import deal


class Session:
    def __init__(self, config: Config, fixed_night_steps: bool = False):
        self.config = config
        self.voice: Voice = load_voice(config.language, config.variant.name)
        self.game = Game(config.variant, config.rules, config.timers, config.seats, fixed_night_steps, config.roles)

    def start(self) -> list[Effect]:
        return self.game.start()

    def feed(self, item: Event | Talk | None) -> list[Effect]:
        if item is None or isinstance(item, Talk):
            return []
        return self.game.apply(item)

    def parse(self, line: str) -> Event | Talk | None:
        return parse_line(line, self.voice, self.config.variant.name)

    def hear(self, sentence: str) -> Event | Talk:
        """A sentence heard at the table (or typed as one); raises InputError when malformed."""
        return sentence_event(sentence, self.voice, self.config.variant.name)

    def dealing_event(self, rng: random.Random | None = None) -> Deal | None:
        """The deal the config asks for; None when the table must give it (random dealing in replay)."""
        d = self.config.dealing
        if d["mode"] == "cards":
            return Deal((), (), cards=True)
        if d["mode"] == "fixed":
            return Deal(tuple(sorted(d["roles"].items())))
        if d["mode"] == "seeded":
            rng = random.Random(d["seed"])
        elif rng is None:
            return None
        roles = deal(self.config.roles, self.config.seats, rng)
        return Deal(tuple(sorted((s, r) for s, r in roles.items() if r != "citizen")))

    def awaiting_text(self) -> str:
        line, args = self.game.awaiting()
        # always said after "waiting for:", inside a sentence
        return self.voice.render(line, args, inside=True)

    def render(self, line: str, args: dict) -> str:
        return self.voice.render(line, args)


__all__ = ["Session", "InputError", "Talk"]
