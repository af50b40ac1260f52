"""A game together with its config and language: the layer every driver (replay, live play,
simulation, companion, voice) talks to. Still pure: no clock, no I/O."""

from __future__ import annotations

import random
from dataclasses import replace

from .config import Config
from .flow.effects import Effect
from .flow.events import Deal, Event
from .flow.days import Game
from .inputs import InputError, Talk, parse_line, sentence_event
from .language import Voice, load_voice
from .rules.dealing import deal


def votes_on_phones(config: Config) -> bool:
    """Whether the table taps its day votes on the phones ([companion] votes): then the narrator
    calls them on the phones, not by a show of hands."""
    return bool(config.section("companion")["votes"])


def as_played(config: Config, companion: bool) -> Config:
    """The config as this game is played: `[companion] votes = true` puts the day's votes on the
    phones only where the companion runs (`--companion`, `[companion] enabled`, or the journal's
    note that it ran). Without it there are no phones to vote on, the table raises its hands, and
    the narrator must say so."""
    if companion or not votes_on_phones(config):
        return config
    return replace(config, sections={**config.sections, "companion": {**config.section("companion"), "votes": False}})


def as_journaled(config: Config, header: dict) -> Config:
    """The config as a journaled game was played. A journal begun before the classic host called
    each candidate in turn (seed 004 §4.4; its header has no mode.vote_calls) voted on every
    candidate in one window: resumed and reported, it is played as it was — its taps for a later
    candidate are no early fists — unless its config chose `[rules] vote_call` itself."""
    mode = header.get("mode") if isinstance(header.get("mode"), dict) else {}
    if mode.get("vote_calls") or "vote_call" not in config.rules or config.wrote("rules", "vote_call"):
        return config
    return replace(config, rules={**config.rules, "vote_call": "together"})


def companion_ran(header: dict, config: Config) -> bool:
    """Whether a journaled game was played with the companion from its start: its header notes it
    (`narrator play --companion` writes mode.companion), or its config enables it. The one rule
    `narrator resume` and `narrator report` both read a journal by; phones that joined later are
    noted where they joined (JournalContents.companion_from, the journal's "companion" line)."""
    mode = header.get("mode")
    return isinstance(mode, dict) and bool(mode.get("companion")) or bool(config.section("companion")["enabled"])


class Session:
    def __init__(self, config: Config, fixed_night_steps: bool = False, companion: bool = True):
        """`companion`: whether the phones are at the table now; without them the votes are by
        hand whatever `[companion] votes` says (as_played), until `companion_joined()`."""
        self.config = config
        self.voice: Voice = load_voice(config.language, config.variant.name)
        self.game = Game(config.variant, config.rules, config.timers, config.seats, fixed_night_steps, config.roles,
                         votes_on_phones(as_played(config, companion)))

    def companion_joined(self) -> None:
        """The phones came to the table here (`narrator resume --companion` of a game begun without
        them): from the next input on, the votes are theirs where the config puts them there, and
        the narrator calls them in the phones' words."""
        self.game.votes_on_phones = votes_on_phones(self.config)

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


__all__ = ["Session", "InputError", "Talk", "as_journaled", "as_played", "companion_ran", "votes_on_phones"]
